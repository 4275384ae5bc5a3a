"""The model and its file: the types an edge names, a document read and validated, the model at a glance."""

from __future__ import annotations

from typing import Any

from modeling.design.summary import DocumentSummary, document_summary
from modeling.errors import Problem
from modeling.model import BillingMode, Consistency, Model, TableClass
from modeling.model_file import MAX_FILE_BYTES, model_from_document, parse_document

__all__ = ["MAX_FILE_BYTES", "BillingMode", "Consistency", "DocumentSummary", "Model", "TableClass",
           "document_summary", "model_from_document", "parse_document", "summarise"]


def summarise(document: dict[str, Any], problems: list[Problem]) -> DocumentSummary:
    """The open model at a glance (the Start page): its name, counts and traffic, errors included."""
    return document_summary(document, problems)

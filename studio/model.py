"""The model and its file: the types an edge names, a document read and validated, the model at a glance."""

from modeling.design.summary import DocumentSummary, document_summary
from modeling.model import BillingMode, Consistency, KeyDesign, Model, TableClass
from modeling.model_file import MAX_FILE_BYTES, model_from_document, parse_document

__all__ = ["MAX_FILE_BYTES", "BillingMode", "Consistency", "DocumentSummary", "KeyDesign", "Model", "TableClass",
           "document_summary", "model_from_document", "parse_document"]


"""Properties of model files over generated valid models: what is written reads back unchanged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from modeling.errors import errors_only
from modeling.model import Model
from modeling.model_file import FileFormat, document_problems, dump_model, model_from_document, parse_document
from modeling.validation import semantic_problems
from tests.strategies import models

moderate = settings(max_examples=60, deadline=None)


@moderate
@given(models())
def test_generated_models_pass_every_cross_reference_check(model: Model) -> None:
    # Guards the strategy: the properties below mean little if it drew invalid models.
    assert errors_only(semantic_problems(model)) == []


@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
@moderate
@given(model=models())
def test_written_model_reads_back_equal_and_without_errors(fmt: FileFormat, model: Model) -> None:
    document = parse_document(dump_model(model, fmt).encode("utf-8"), f"model.{fmt}")
    assert errors_only(document_problems(document)) == []
    assert model_from_document(document) == model

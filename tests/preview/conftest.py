"""Preview tests run against the embedded moto server over HTTP, one table per test."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from modeling.endpoint import Endpoint, configured_endpoint, dynamodb_client
from modeling.examples import example_document
from modeling.generator import propose_designs
from modeling.model_file import model_from_document
from modeling.preview.session import PreviewSetup, preview_setup

_counter = itertools.count()


@pytest.fixture(scope="session")
def endpoint() -> Endpoint:
    return configured_endpoint({})


@pytest.fixture
def client(endpoint: Endpoint) -> Any:
    return dynamodb_client(endpoint)


@pytest.fixture
def make_setup(endpoint: Endpoint):
    def make(example: str, total_items: int = 400, seed: int = 42) -> PreviewSetup:
        model = model_from_document(example_document(example))
        return preview_setup(model, propose_designs(model)[0], endpoint, f"test{next(_counter)}", example,
                             total_items, seed)
    return make

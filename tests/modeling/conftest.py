"""Fixtures for tests that use the embedded endpoint's tables (live import, the one key grammar)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modeling.endpoint.adapter import Endpoint, configured_endpoint, dynamodb_client


@pytest.fixture
def endpoint() -> Endpoint:
    return configured_endpoint({})


@pytest.fixture
def made_tables(endpoint: Endpoint) -> Iterator[list[str]]:
    """Names of the tables a test creates; they (and only they) are deleted afterwards."""
    names: list[str] = []
    yield names
    client = dynamodb_client(endpoint)
    for name in names:
        client.delete_table(TableName=name)

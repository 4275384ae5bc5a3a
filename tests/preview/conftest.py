"""Preview tests run against the embedded moto server over HTTP, one table per test."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from modeling.design.generator import rule_based_designs
from modeling.endpoint.adapter import Endpoint, EndpointKind, Timeouts, configured_endpoint, dynamodb_client
from modeling.examples import example_document
from modeling.model_file import model_from_document
from modeling.preview.session import PreviewSetup, preview_setup
from tests.fault_proxy import FaultProxy

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
        return preview_setup(model, rule_based_designs(model)[0], endpoint, f"test{next(_counter)}", example,
                             total_items, seed)
    return make


# A read timeout short enough that "late" answers (held 3.5 s by the proxy) time out and are retried soon,
# long enough for moto to scan a 1,000-item count page on a busy machine (about 0.2 s idle); more attempts
# than the product's default, since the proxy injects far more faults than DynamoDB does.
PROXY_TIMEOUTS = Timeouts(connect_seconds=1.0, read_seconds=3.0, attempts=8, call_deadline_seconds=40.0)


@pytest.fixture
def fault_proxy(endpoint: Endpoint):
    """A fault-injecting proxy (tests/fault_proxy.py) in front of the embedded moto server, no faults yet."""
    proxy = FaultProxy(endpoint.url).start()
    yield proxy
    proxy.stop()


@pytest.fixture
def proxied(fault_proxy: FaultProxy) -> Endpoint:
    """The endpoint as the product sees it through the proxy: a custom URL on 127.0.0.1."""
    return Endpoint(EndpointKind.CUSTOM, fault_proxy.url, "us-east-1", timeouts=PROXY_TIMEOUTS)

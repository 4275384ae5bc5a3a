"""The endpoint: embedded moto over real HTTP, configuration from the environment, clear failures."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from modeling.endpoint.adapter import (
    Endpoint,
    EndpointKind,
    check_endpoint,
    configured_endpoint,
    dynamodb_client,
    embedded_endpoint_url,
)
from modeling.errors import EndpointError


def test_embedded_server_is_started_once_even_from_many_threads() -> None:
    urls: list[str] = []
    threads = [threading.Thread(target=lambda: urls.append(embedded_endpoint_url())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(urls)) == 1 and urls[0].startswith("http://127.0.0.1:")


def test_embedded_endpoint_answers_over_http_and_creates_tables() -> None:
    endpoint = configured_endpoint({})
    assert endpoint.kind is EndpointKind.EMBEDDED
    client = dynamodb_client(endpoint)
    client.create_table(TableName="endpoint-test", BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}])
    status = check_endpoint(endpoint)
    assert status.reachable and status.table_count is not None and status.table_count >= 1
    client.delete_table(TableName="endpoint-test")


def test_configuration_precedence() -> None:
    aws = configured_endpoint({"DESIGN_STUDIO_ENDPOINT": "aws", "DESIGN_STUDIO_REGION": "eu-west-1"})
    assert (aws.kind, aws.url, aws.region) == (EndpointKind.AWS, None, "eu-west-1")
    local = configured_endpoint({"AWS_ENDPOINT_URL_DYNAMODB": "http://localhost:8000/"})
    assert (local.kind, local.url) == (EndpointKind.CUSTOM, "http://localhost:8000")
    explicit = configured_endpoint({"DESIGN_STUDIO_ENDPOINT": "http://127.0.0.1:9000",
                                    "AWS_ENDPOINT_URL_DYNAMODB": "http://localhost:8000"})
    assert explicit.url == "http://127.0.0.1:9000"


@pytest.mark.parametrize("url", ["localhost:8000", "ftp://host", "http://user:secret@host:8000"])
def test_bad_endpoint_urls_are_refused_with_a_hint(url: str) -> None:
    with pytest.raises(EndpointError) as caught:
        configured_endpoint({"DESIGN_STUDIO_ENDPOINT": url})
    assert "secret" not in str(caught.value)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_endpoint_reports_clearly_and_quickly() -> None:
    endpoint = Endpoint(EndpointKind.CUSTOM, f"http://127.0.0.1:{_closed_port()}", "us-east-1")
    started = time.monotonic()
    status = check_endpoint(endpoint)
    assert not status.reachable
    assert "does not answer" in status.message and "retry" in status.message
    assert time.monotonic() - started < 10


def test_describe_never_shows_credentials() -> None:
    endpoint = Endpoint(EndpointKind.AWS, None, "eu-west-1", profile="team")
    assert endpoint.describe() == "AWS eu-west-1, profile team"

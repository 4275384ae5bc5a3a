"""The DynamoDB endpoint: an embedded moto server by default, DynamoDB Local or AWS when configured.

Configuration, first match wins:
- `DESIGN_STUDIO_ENDPOINT=aws`: real AWS through boto3's standard credential chain
  (`AWS_PROFILE`, environment, SSO, instance role) in `DESIGN_STUDIO_REGION` or the profile's Region;
- `DESIGN_STUDIO_ENDPOINT=<url>` or boto3's own `AWS_ENDPOINT_URL_DYNAMODB=<url>`: that endpoint,
  e.g. DynamoDB Local at http://localhost:8000 (which users run themselves);
- nothing: the embedded moto server, started once per process on 127.0.0.1 and a free port, and
  stopped at exit. The app talks to it over HTTP with boto3, exactly as to any other endpoint.

Only this module builds boto3 clients; credentials are never logged or shown.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError

from modeling.errors import EndpointError

DEFAULT_REGION = "us-east-1"
# Loopback endpoints (moto, DynamoDB Local) accept any credentials; these are placeholders, not secrets.
_LOCAL_CREDENTIALS = {"aws_access_key_id": "design-studio-local", "aws_secret_access_key": "local"}
# botocore's standard retry mode: exponential backoff with jitter for throttling and transient errors.
_CLIENT_CONFIG = Config(retries={"mode": "standard", "max_attempts": 5},
                        connect_timeout=3, read_timeout=20, user_agent_extra="dynamodb-design-studio")
_PING_CONFIG = Config(retries={"mode": "standard", "max_attempts": 1}, connect_timeout=2, read_timeout=5)


class EndpointKind(StrEnum):
    EMBEDDED = "embedded"
    CUSTOM = "custom"
    AWS = "aws"


@dataclass(frozen=True)
class Endpoint:
    kind: EndpointKind
    url: str | None
    region: str
    profile: str | None = None

    @property
    def is_loopback(self) -> bool:
        return self.url is not None and urlsplit(self.url).hostname in ("127.0.0.1", "localhost", "::1")

    def describe(self) -> str:
        """A short label without credentials, e.g. 'embedded moto at http://127.0.0.1:5123'."""
        if self.kind is EndpointKind.EMBEDDED:
            return f"embedded moto server at {self.url}"
        if self.kind is EndpointKind.CUSTOM:
            return f"{self.url} ({self.region})"
        profile = f", profile {self.profile}" if self.profile else ""
        return f"AWS {self.region}{profile}"


@dataclass(frozen=True)
class EndpointStatus:
    endpoint: Endpoint
    reachable: bool
    message: str
    table_count: int | None = None


# --- the embedded server -------------------------------------------------------------------------

_embedded_lock = threading.Lock()
_embedded: dict[str, Any] = {}


def embedded_endpoint_url() -> str:
    """URL of the process's embedded moto server, starting it on first use (thread-safe, idempotent)."""
    with _embedded_lock:
        if "url" not in _embedded:
            from moto.server import ThreadedMotoServer  # imported here: moto is slow to import

            logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one log line per request otherwise
            server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
            server.start()
            host, port = server.get_host_and_port()
            _embedded.update(server=server, url=f"http://{host}:{port}")
            atexit.register(_stop_embedded)
        return _embedded["url"]


def _stop_embedded() -> None:
    with _embedded_lock:
        server = _embedded.pop("server", None)
        _embedded.pop("url", None)
    if server is not None:
        server.stop()


# --- configuration -------------------------------------------------------------------------------


def configured_endpoint(environ: dict[str, str] | None = None) -> Endpoint:
    """The endpoint the environment asks for; the embedded server is started only when chosen."""
    env = os.environ if environ is None else environ
    choice = env.get("DESIGN_STUDIO_ENDPOINT", "").strip()
    region = env.get("DESIGN_STUDIO_REGION") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if choice.lower() == "aws":
        profile = env.get("AWS_PROFILE") or None
        return Endpoint(EndpointKind.AWS, None, region or _profile_region(profile) or DEFAULT_REGION, profile)
    url = choice or env.get("AWS_ENDPOINT_URL_DYNAMODB", "").strip()
    if url:
        return Endpoint(EndpointKind.CUSTOM, _checked_url(url), region or DEFAULT_REGION)
    return Endpoint(EndpointKind.EMBEDDED, embedded_endpoint_url(), DEFAULT_REGION)


def _checked_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise EndpointError(f"the endpoint URL {url!r} is not an http(s) URL; "
                            "set it like http://localhost:8000")
    if parts.username or parts.password:
        raise EndpointError("the endpoint URL must not contain credentials; "
                            "use the AWS credential chain instead")
    return url.rstrip("/")


def _profile_region(profile: str | None) -> str | None:
    try:
        return boto3.session.Session(profile_name=profile).region_name
    except BotoCoreError:
        return None


# --- clients -------------------------------------------------------------------------------------


def dynamodb_client(endpoint: Endpoint, *, config: Config = _CLIENT_CONFIG) -> Any:
    """A boto3 DynamoDB client for the endpoint (create one per thread; clients are cheap)."""
    try:
        if endpoint.kind is EndpointKind.AWS:
            session = boto3.session.Session(profile_name=endpoint.profile, region_name=endpoint.region)
            return session.client("dynamodb", config=config)
        session = boto3.session.Session(region_name=endpoint.region)
        credentials = _LOCAL_CREDENTIALS if endpoint.kind is EndpointKind.EMBEDDED else {}
        if not credentials and endpoint.is_loopback and session.get_credentials() is None:
            credentials = _LOCAL_CREDENTIALS  # DynamoDB Local accepts any key
        return session.client("dynamodb", endpoint_url=endpoint.url, config=config, **credentials)
    except BotoCoreError as exc:  # e.g. a profile that does not exist
        raise EndpointError(f"cannot create a DynamoDB client for {endpoint.describe()}: {exc}") from None


def check_endpoint(endpoint: Endpoint) -> EndpointStatus:
    """Ask the endpoint for its tables (one request, short timeouts); never raises."""
    try:
        client = dynamodb_client(endpoint, config=_PING_CONFIG)
        names = client.list_tables(Limit=100).get("TableNames", [])
    except EndpointError as exc:
        return EndpointStatus(endpoint, False, str(exc))
    except NoCredentialsError:
        return EndpointStatus(endpoint, False, "no AWS credentials were found; configure a profile "
                              "(aws configure) or set AWS_PROFILE")
    except NoRegionError:
        return EndpointStatus(endpoint, False, "no AWS Region is configured; set DESIGN_STUDIO_REGION")
    except ClientError as exc:
        error = exc.response.get("Error", {})
        return EndpointStatus(endpoint, False, f"{endpoint.describe()} refused the request: "
                              f"{error.get('Code', 'error')}: {error.get('Message', '')}")
    except BotoCoreError as exc:
        return EndpointStatus(endpoint, False, f"{endpoint.describe()} does not answer ({_short(exc)}); "
                              "check that it is running and the URL is right, then retry")
    return EndpointStatus(endpoint, True, f"{endpoint.describe()} answers", len(names))


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) < 160 else text[:157] + "..."

"""The DynamoDB endpoint: an embedded moto server by default, DynamoDB Local or AWS when configured.

Configuration, first match wins:
- `DESIGN_STUDIO_ENDPOINT=aws`: real AWS through boto3's standard credential chain
  (`AWS_PROFILE`, environment, SSO, instance role) in `DESIGN_STUDIO_REGION` or the profile's Region;
- `DESIGN_STUDIO_ENDPOINT=<url>` or boto3's own `AWS_ENDPOINT_URL_DYNAMODB=<url>`: that endpoint,
  e.g. DynamoDB Local at http://localhost:8000 (which users run themselves);
- nothing: the embedded moto server, started once per process on 127.0.0.1 and a free port, and
  stopped at exit. The app talks to it over HTTP with boto3, exactly as to any other endpoint.

Only this module builds boto3 clients; credentials are never logged or shown. Every client has explicit
connect and read timeouts, a bounded number of attempts and a total deadline per call (`Timeouts`), and
checks that the endpoint answers in DynamoDB's JSON: an endpoint that accepts and never answers, trickles
bytes, pauses mid-load or answers with an HTML page ends in a clear message within seconds.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import logging
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError

from modeling.errors import EndpointError
from modeling.limits import MAX_LIST_TABLES_PAGE

DEFAULT_REGION = "us-east-1"
# Loopback endpoints (moto, DynamoDB Local) accept any credentials; these are placeholders, not secrets.
_LOCAL_CREDENTIALS = {"aws_access_key_id": "design-studio-local", "aws_secret_access_key": "local"}


@dataclass(frozen=True)
class Timeouts:
    """How long one request may take. botocore's standard retry mode retries throttling, 5xx answers and
    dropped or timed-out connections with exponential backoff and jitter, up to `attempts` in all; the
    deadline bounds the whole call, retries included, because a read timeout alone never fires on an
    endpoint that trickles a byte at a time."""

    connect_seconds: float = 3.0
    read_seconds: float = 5.0  # per socket read; DynamoDB answers in milliseconds
    # botocore's default for standard mode; its backoff (up to 1 s, then 2 s) fits inside the deadline
    attempts: int = 3
    call_deadline_seconds: float = 10.0
    waiter_deadline_seconds: float = 150.0  # CreateTable/DeleteTable on AWS take up to a couple of minutes

    def config(self) -> Config:
        return Config(retries={"mode": "standard", "max_attempts": self.attempts},
                      connect_timeout=self.connect_seconds, read_timeout=self.read_seconds,
                      user_agent_extra="dynamodb-design-studio")


DEFAULT_TIMEOUTS = Timeouts()
# The embedded server runs in this process and cannot stall on its own, but it shares the GIL with every
# session's script: under load (a workshop of thirty) one answer can take seconds, and giving up would fail
# a load that is merely slow.
EMBEDDED_TIMEOUTS = Timeouts(read_seconds=60.0, call_deadline_seconds=120.0)
# One quick question (the sidebar's status, "is the table already loaded?"): one attempt, short deadline.
PROBE_TIMEOUTS = Timeouts(connect_seconds=2.0, read_seconds=4.0, attempts=1, call_deadline_seconds=6.0)
LIST_TABLES_PAGE = MAX_LIST_TABLES_PAGE  # ListTables' largest Limit (modeling.limits)
STATUS_LIST_PAGES = 5  # a workshop's own-table count reads at most 500 names, each page under the probe timeouts


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
    timeouts: Timeouts = DEFAULT_TIMEOUTS

    @property
    def is_loopback(self) -> bool:
        return self.url is not None and urlsplit(self.url).hostname in ("127.0.0.1", "localhost", "::1")

    @property
    def probe_timeouts(self) -> Timeouts:
        """For one quick question; the embedded server gets its patient timeouts (it cannot stall alone)."""
        return self.timeouts if self.kind is EndpointKind.EMBEDDED else PROBE_TIMEOUTS

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
    count_is_lower_bound: bool = False  # more tables than the status reads: "at least table_count"


# --- the embedded server -------------------------------------------------------------------------

_embedded_lock = threading.Lock()
_embedded: dict[str, Any] = {}


def embedded_endpoint_url() -> str:
    """URL of the process's embedded moto server, starting it on first use (thread-safe, idempotent)."""
    with _embedded_lock:
        if "url" not in _embedded:
            from moto.server import ThreadedMotoServer  # imported here: moto is slow to import

            logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one log line per request otherwise
            _apply_writes_atomically()
            server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
            server.start()
            host, port = server.get_host_and_port()
            _embedded.update(server=server, url=f"http://{host}:{port}")
            atexit.register(_stop_embedded)
        url: str = _embedded["url"]
        return url


# DynamoDB applies each write to an item atomically: ADD on a counter from any number of clients at once
# loses nothing (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html,
# "Atomic counters"). moto 5.2.5 validates an UpdateExpression against the item and executes it in two
# steps without a lock, so concurrent ADDs on the threaded server lose updates (3 of 200 in one run of
# 20 clients x 10). The embedded server applies its item writes one at a time, as DynamoDB would.
_ATOMIC_WRITES = ("put_item", "update_item", "delete_item", "transact_write_items")


def _apply_writes_atomically() -> None:
    from moto.dynamodb.models import DynamoDBBackend

    if getattr(DynamoDBBackend, "_dds_atomic_writes", False):
        return
    lock = threading.RLock()  # re-entrant: a transaction's members call the single-item writes
    for name in _ATOMIC_WRITES:
        original = getattr(DynamoDBBackend, name)

        def atomic(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            with lock:
                return _original(self, *args, **kwargs)

        setattr(DynamoDBBackend, name, functools.wraps(original)(atomic))
    setattr(DynamoDBBackend, "_dds_atomic_writes", True)  # noqa: B010 - marks the class as patched


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
    return Endpoint(EndpointKind.EMBEDDED, embedded_endpoint_url(), DEFAULT_REGION, timeouts=EMBEDDED_TIMEOUTS)


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
        region: str | None = boto3.session.Session(profile_name=profile).region_name  # boto3 ships no types
        return region
    except BotoCoreError:
        return None


# --- clients -------------------------------------------------------------------------------------


class DeadlineExceeded(BotoCoreError):  # type: ignore[misc]  # botocore ships no types: its classes are Any
    """The endpoint did not finish answering one call within its total deadline."""

    fmt = ("no complete answer to {operation} within {seconds:.0f} s, retries included (the endpoint stalls or "
           "is overloaded)")


class NotDynamoDB(BotoCoreError):  # type: ignore[misc]  # botocore ships no types: its classes are Any
    """The endpoint answered, but not in DynamoDB's JSON."""

    fmt = ("the endpoint answered {operation} with {content_type!r} content, not DynamoDB's JSON: it is not "
           "a DynamoDB endpoint (check the URL and port)")


def dynamodb_client(endpoint: Endpoint, *, timeouts: Timeouts | None = None) -> Any:
    """A boto3 DynamoDB client for the endpoint, with timeouts, a deadline per call and answer checks.

    `timeouts` defaults to the endpoint's own (tests give a proxy shorter ones). Create one per thread
    or share one; clients are cheap.
    """
    chosen = timeouts or endpoint.timeouts
    # The embedded server runs in this process and cannot stall on its own: its socket timeouts suffice, and
    # it is spared a thread per call (about 1.6 ms of a 6 ms call on a busy 2-core machine).
    return _GuardedClient(_boto3_client(endpoint, chosen.config()), chosen,
                          with_deadlines=endpoint.kind is not EndpointKind.EMBEDDED, endpoint=endpoint)


_SHARED_CLIENTS: dict[tuple[Endpoint, Timeouts], Any] = {}
_SHARED_LOCK = threading.Lock()


def shared_dynamodb_client(endpoint: Endpoint, *, timeouts: Timeouts | None = None) -> Any:
    """`dynamodb_client`, built once per endpoint and timeouts in this process and then reused.

    For the questions a page asks on every rerun (is the sample loaded? which tables are there?): building
    a boto3 client costs 100-300 ms of CPU (it parses the service model), the call itself a few ms, and
    boto3's clients are thread-safe. Code that stubs or closes its client asks `dynamodb_client` for its own.
    """
    key = (endpoint, timeouts or endpoint.timeouts)
    with _SHARED_LOCK:
        client = _SHARED_CLIENTS.get(key)
        if client is None:
            client = _SHARED_CLIENTS[key] = dynamodb_client(endpoint, timeouts=timeouts)
        return client


def forget_shared_clients() -> None:
    """Build the shared clients again at next use (tests that restart an endpoint on the same address)."""
    with _SHARED_LOCK:
        _SHARED_CLIENTS.clear()


def _boto3_client(endpoint: Endpoint, config: Config) -> Any:
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


class _GuardedClient:
    """The boto3 client, except that every API call has a total deadline and its answer must be JSON.

    The call runs in a daemon thread; past the deadline the caller gets DeadlineExceeded (a BotoCoreError,
    so every existing handler turns it into a clear message) while the stalled thread ends on its own at
    the socket's next read timeout. Waiters get the longer waiter deadline. Everything else (meta, Stubber,
    exceptions) is the client's own.
    """

    def __init__(self, client: Any, timeouts: Timeouts, *, with_deadlines: bool = True,
                 endpoint: Endpoint | None = None) -> None:
        self._client = client
        self._timeouts = timeouts
        self._with_deadlines = with_deadlines
        self._operations = client.meta.method_to_api_mapping
        self._endpoint = endpoint
        self._single: Any = None

    def without_retries(self) -> Any:
        """The same client with botocore's retries off, for a write that is not idempotent (an ADD without a
        condition): after a lost answer, its caller reads the item before it sends again, instead of botocore
        sending it blind and adding twice. Built once."""
        if self._single is None:
            if self._endpoint is None:
                return self
            # botocore's `max_attempts` counts the retries after the first attempt: 0 sends it once
            self._single = dynamodb_client(self._endpoint, timeouts=dataclasses.replace(self._timeouts, attempts=0))
        return self._single

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if name in self._operations:
            operation = self._operations[name]

            def call(**kwargs: Any) -> Any:
                response = with_deadline(lambda: attribute(**kwargs), self._timeouts.call_deadline_seconds,
                                         operation) if self._with_deadlines else attribute(**kwargs)
                _check_json(response, operation)
                return response
            return call
        if name == "get_waiter" and self._with_deadlines:
            return lambda waiter_name: _DeadlineWaiter(attribute(waiter_name), self._timeouts.waiter_deadline_seconds)
        return attribute


@dataclass(frozen=True)
class _DeadlineWaiter:
    waiter: Any
    seconds: float

    def wait(self, **kwargs: Any) -> None:
        with_deadline(lambda: self.waiter.wait(**kwargs), self.seconds, f"waiting for {self.waiter.name}")


def with_deadline(call: Callable[[], Any], seconds: float, operation: str) -> Any:
    """The call's result, or DeadlineExceeded once `seconds` have passed (the call keeps its thread)."""
    answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()

    def run() -> None:
        try:
            answers.put((True, call()))
        except BaseException as exc:  # handed to the caller's thread, raised there
            answers.put((False, exc))

    threading.Thread(target=run, name=f"dynamodb-{operation}", daemon=True).start()
    try:
        ok, value = answers.get(timeout=seconds)
    except queue.Empty:
        raise DeadlineExceeded(operation=operation, seconds=seconds) from None
    if not ok:
        raise value
    return value


def _check_json(response: Any, operation: str) -> None:
    headers = response.get("ResponseMetadata", {}).get("HTTPHeaders", {}) if isinstance(response, dict) else {}
    content_type = headers.get("content-type", "")
    if not isinstance(response, dict) or (content_type and "json" not in content_type.lower()):
        raise NotDynamoDB(operation=operation, content_type=content_type or type(response).__name__)


def check_endpoint(endpoint: Endpoint, own_prefix: str | None = None) -> EndpointStatus:
    """Ask the endpoint for its tables (short timeouts); never raises.

    With `own_prefix` (a workshop session's `dds-<namespace>-`) it counts only the tables named so: an
    attendee is told how many tables are theirs, never how many the whole room has. That count reads up
    to STATUS_LIST_PAGES pages, since a room's tables easily outnumber one page; without it, one request.
    """
    try:
        client = shared_dynamodb_client(endpoint, timeouts=endpoint.probe_timeouts)  # asked every 15 s per page
        names, more = list_table_pages(client, STATUS_LIST_PAGES if own_prefix is not None else 1)
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
    except NotDynamoDB as exc:
        return EndpointStatus(endpoint, False, f"{endpoint.describe()}: {exc}")
    except BotoCoreError as exc:
        return EndpointStatus(endpoint, False, f"{endpoint.describe()} does not answer ({_short(exc)}); "
                              "check that it is running and the URL is right, then retry")
    if own_prefix is not None:
        names = [name for name in names if name.startswith(own_prefix)]
    return EndpointStatus(endpoint, True, f"{endpoint.describe()} answers", len(names), count_is_lower_bound=more)


def list_table_pages(client: Any, max_pages: int) -> tuple[list[str], bool]:
    """The names of at most `max_pages` ListTables pages, and whether the endpoint holds more."""
    names: list[str] = []
    start: dict[str, str] = {}
    for _ in range(max_pages):
        answer = client.list_tables(Limit=LIST_TABLES_PAGE, **start)
        page = answer.get("TableNames")
        if not isinstance(page, list):
            raise NotDynamoDB(operation="ListTables", content_type="JSON without TableNames")
        names.extend(page)
        last = answer.get("LastEvaluatedTableName")
        if not last:
            return names, False
        start = {"ExclusiveStartTableName": last}
    return names, True


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) < 160 else text[:157] + "..."

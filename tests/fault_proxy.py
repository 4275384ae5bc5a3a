"""A small fault-injecting HTTP proxy for DynamoDB's JSON protocol, in front of a real moto server.

Plain standard library (http.server + http.client): the proxy must read, rewrite and forward one
request at a time and misbehave at the socket level (resets, stalls), which needs no framework, and
aiohttp is not a dependency of the project. It binds 127.0.0.1 on a free port.

Each request draws one fate from a seeded random generator keyed by the request's body and how often
that body was seen, so a run injects the same faults whatever order the client's threads send in:
- `throttle`: HTTP 400 ProvisionedThroughputExceededException (data plane) or ThrottlingException
  (control plane) with AWS's JSON body, nothing forwarded;
- `error500`: HTTP 500 InternalServerError, nothing forwarded;
- `partial` (BatchWriteItem only): forward only part of the batch and answer the rest as
  UnprocessedItems, as DynamoDB does under load;
- `reset_before`: reset the connection (TCP RST) without forwarding: nothing was written;
- `reset_after`: forward, then reset: written, but the answer is lost;
- `late`: forward, then hold the answer past the client's read timeout: written, answer too late;
- `stall`: never answer (until the proxy stops): an endpoint paused mid-load;
- `held`: hold the request `held_seconds` (past the client's deadline), then forward it: an endpoint paused
  and resumed, which then runs the requests its clients gave up on (they land late, amid the next run);
- `phantom`: answer 200 `{}` without forwarding: a write acknowledged but never kept, as when a moto server
  rolls a failed transaction back over a concurrent one (modeling/migration/run.py says how).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import random
import socket
import struct
import threading
import time
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

KINDS = ("throttle", "error500", "partial", "reset_before", "reset_after", "late", "stall", "held", "phantom")
_JSON = "application/x-amz-json-1.0"
_CONTROL_PLANE = {"CreateTable", "DeleteTable", "DescribeTable", "ListTables", "TagResource", "UntagResource",
                  "ListTagsOfResource", "UpdateTable", "UpdateTimeToLive", "DescribeTimeToLive"}


@dataclass(frozen=True)
class FaultPlan:
    """The share of requests that get each fault (the rest are forwarded untouched)."""

    seed: int = 0
    throttle: float = 0.0
    error500: float = 0.0
    partial: float = 0.0
    reset_before: float = 0.0
    reset_after: float = 0.0
    late: float = 0.0
    stall: float = 0.0
    held: float = 0.0
    phantom: float = 0.0
    held_seconds: float = 5.0  # longer than the client's whole call deadline in the tests
    late_seconds: float = 3.5  # longer than the client's read timeout in the tests
    targets: tuple[str, ...] = ()  # operations that may meet a fault (empty: every operation)
    first_only: bool = False  # only a request's first sending meets a fault, never botocore's retries of it
    pass_first: int = 0  # the first N requests (of the targets) since the plan was set are forwarded untouched

    def share(self, kind: str) -> float:
        return float(getattr(self, kind))


class FaultProxy:
    def __init__(self, upstream_url: str, plan: FaultPlan | None = None) -> None:
        parts = urlsplit(upstream_url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.plan = plan or FaultPlan()
        self.injected: Counter[str] = Counter()
        self.forwarded = 0
        self.requests: Counter[str] = Counter()  # requests received, by operation
        self.holding = 0  # `held` requests not yet forwarded (a test waits for them to land)
        self._seen: Counter[str] = Counter()
        self._since_plan = 0  # requests of the plan's targets since it was set (pass_first)
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                proxy._handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FaultProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        self._server.shutdown()
        self._server.server_close()

    def use(self, plan: FaultPlan) -> None:
        with self._lock:
            self.plan, self._seen, self._since_plan = plan, Counter(), 0

    # --- one request ------------------------------------------------------------------------------

    def _fate(self, body: bytes, target: str) -> tuple[str, random.Random]:
        digest = hashlib.sha256(target.encode() + b"\n" + body).hexdigest()
        with self._lock:
            self._seen[digest] += 1
            plan, seen = self.plan, self._seen[digest]
            if not plan.targets or target in plan.targets:
                self._since_plan += 1
            since_plan = self._since_plan
        rng = random.Random(f"{plan.seed}/{digest}/{seen}")
        draw = rng.random()
        if (plan.targets and target not in plan.targets) or (plan.first_only and seen > 1) \
                or since_plan <= plan.pass_first:
            return "", rng
        for kind in KINDS:
            if kind == "partial" and target != "BatchWriteItem":
                continue
            share = plan.share(kind)
            if draw < share:
                return kind, rng
            draw -= share
        return "", rng

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        body = handler.rfile.read(int(handler.headers.get("Content-Length", 0)))
        target = handler.headers.get("X-Amz-Target", "").rsplit(".", 1)[-1]
        with self._lock:
            self.requests[target] += 1
        kind, rng = self._fate(body, target)
        if kind:
            with self._lock:
                self.injected[kind] += 1
        if kind == "throttle":
            code = "com.amazon.coral.availability#ThrottlingException" if target in _CONTROL_PLANE else \
                "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"
            message = "Rate of requests exceeds the allowed throughput." if target in _CONTROL_PLANE else \
                ("The level of configured provisioned throughput for the table was exceeded. Consider "
                 "increasing your provisioning level with the UpdateTable API.")
            self._answer(handler, 400, {"__type": code, "message": message})
        elif kind == "error500":
            self._answer(handler, 500, {"__type": "com.amazon.coral.service#InternalServerError",
                                        "message": "Internal server error"})
        elif kind == "reset_before":
            _reset(handler)
        elif kind == "stall":
            self._stopped.wait(300)
            handler.close_connection = True
        elif kind == "held":
            self._held(handler, body)
        elif kind == "phantom":
            self._answer(handler, 200, {})
        elif kind == "partial":
            self._partial(handler, body, rng)
        else:
            status, headers, answer = self._forward(handler, body)
            if kind == "reset_after":
                _reset(handler)
                return
            if kind == "late":
                time.sleep(self.plan.late_seconds)
            self._send(handler, status, headers, answer)

    def _held(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        with self._lock:
            self.holding += 1
        try:
            if self._stopped.wait(self.plan.held_seconds):
                return
            status, headers, answer = self._forward(handler, body)
            self._send(handler, status, headers, answer)  # to a client that has most likely given up
        finally:
            with self._lock:
                self.holding -= 1

    def wait_for_held(self, seconds: float = 60.0) -> None:
        """Until every `held` request has been forwarded (landed late on the server)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._lock:
                if not self.holding:
                    return
            time.sleep(0.05)
        raise TimeoutError("held requests still not forwarded")

    def _partial(self, handler: BaseHTTPRequestHandler, body: bytes, rng: random.Random) -> None:
        request = json.loads(body)
        items = request["RequestItems"]
        kept: dict[str, list[Any]] = {}
        left: dict[str, list[Any]] = {}
        for table, writes in items.items():
            chosen = set(rng.sample(range(len(writes)), rng.randint(1, len(writes))))  # at least one held back
            left[table] = [w for i, w in enumerate(writes) if i in chosen]
            if len(chosen) < len(writes):
                kept[table] = [w for i, w in enumerate(writes) if i not in chosen]
        answer: dict[str, Any] = {}
        if kept:
            status, _, forwarded = self._forward(handler, json.dumps({**request, "RequestItems": kept}).encode())
            if status != 200:
                self._send(handler, status, {"Content-Type": _JSON}, forwarded)
                return
            answer = json.loads(forwarded)
        for table, writes in answer.get("UnprocessedItems", {}).items():
            left.setdefault(table, []).extend(writes)
        self._answer(handler, 200, {**answer, "UnprocessedItems": left})

    def _forward(self, handler: BaseHTTPRequestHandler, body: bytes) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self.forwarded += 1
        connection = http.client.HTTPConnection(*self.upstream, timeout=60)
        try:
            headers = {k: v for k, v in handler.headers.items() if k.lower() not in ("content-length", "host")}
            connection.request("POST", handler.path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, {"Content-Type": response.getheader("Content-Type", _JSON)}, response.read()
        finally:
            connection.close()

    def _answer(self, handler: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
        self._send(handler, status, {"Content-Type": _JSON}, json.dumps(payload).encode())

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes) -> None:
        try:
            handler.send_response(status)
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("x-amzn-RequestId", "fault-proxy")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
        except OSError:  # the client gave up (a late answer): nothing to do
            handler.close_connection = True


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a reset or abandoned connection is the point, not an error worth a traceback


def _reset(handler: BaseHTTPRequestHandler) -> None:
    """Close with SO_LINGER 0: the client sees ECONNRESET, not an orderly end of stream."""
    connection: socket.socket = handler.connection
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.close_connection = True
    connection.close()

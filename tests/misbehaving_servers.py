"""Tiny local servers that misbehave the way broken or wrong endpoints do, on 127.0.0.1 and a free port:
- `silent`: accepts connections, reads the request, never answers;
- `trickle`: answers one byte of a valid-looking HTTP response every `interval` seconds, forever;
- `html`: answers every request HTTP 200 with an HTML page (a web server, not DynamoDB).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

_HTML = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 52\r\n"
         b"Connection: close\r\n\r\n<html><body><h1>Welcome to nginx!</h1></body></html>")


@contextmanager
def misbehaving(kind: str, interval: float = 5.0) -> Iterator[str]:
    """Serve `kind` until the block ends; yields the URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.2)
    stop = threading.Event()
    connections: list[socket.socket] = []

    def serve(connection: socket.socket) -> None:
        connection.settimeout(0.5)
        try:
            with suppress(TimeoutError):
                connection.recv(65536)
            if kind == "html":
                connection.sendall(_HTML)
            elif kind == "trickle":
                for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n" * 1000:
                    if stop.wait(interval):
                        return
                    connection.sendall(bytes([byte]))
            else:
                stop.wait()
        except OSError:
            pass
        finally:
            connection.close()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connections.append(connection)
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        listener.close()

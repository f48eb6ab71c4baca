"""Fake servers on the loopback interface that stand where a Dask scheduler should be: one that
accepts connections and never answers, one that answers with HTTP, one with random bytes, one
that closes at once; and a free port nobody listens on. For the survey's ``--scheduler``
(issue 28): nothing here ever leaves 127.0.0.1."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

MODES = ("silent", "http", "random", "close", "greeting-too-big", "refused")
HTTP = (b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\n"
        b"Bad Request")


def _answer(mode: str, seed: int) -> bytes:
    if mode == "http":
        return HTTP
    if mode == "random":
        return bytes((seed * 7919 + k * 104729) % 251 for k in range(64))
    if mode == "greeting-too-big":  # a frame length a Dask client would try to allocate
        return (3 << 60).to_bytes(8, "little") + b"x" * 8
    return b""


@contextlib.contextmanager
def fake_scheduler(mode: str, seed: int = 1, payload: bytes | None = None) -> Iterator[str]:
    """``tcp://127.0.0.1:PORT`` of a server behaving as ``mode`` (see :data:`MODES`), until the
    block ends; ``"refused"``: a port nobody listens on; with ``payload``, a server that sends
    those bytes to each connection and then nothing."""
    if mode == "refused":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        yield f"tcp://127.0.0.1:{port}"
        return
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            if mode == "close":
                conn.close()
                continue
            with contextlib.suppress(OSError):
                conn.sendall(_answer(mode, seed) if payload is None else payload)
            held.append(conn)  # kept open, never answered further

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()
        server.close()

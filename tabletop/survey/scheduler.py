"""Connecting to a running Dask scheduler with a bounded wait, whatever listens at the address.

Dask's client trusts what answers: a port that accepts connections and never answers held
``Client(address, timeout=...)`` until the other side closed, and a port that answers with HTTP
or random bytes made it read their first 8 bytes as a frame length (3 to 4 EiB) and try to
allocate that, after about 30 s. So :func:`connect` first *probes* a ``tcp://`` address itself
(:func:`probe`): it opens a connection and waits for the greeting every Dask server sends first
(a small frame of its comm handshake: ``compression``, ``python``, ``pickle-protocol``), all
within the timeout; silence, a refused or reset connection, or bytes that are not such a frame
are one :class:`~tabletop.errors.UserError` line naming the address and what answered. Only
then does Dask's client connect, and anything it still raises is one line too. Other schemes
(``tls://``, ``ws://``, ...) go to Dask's client with its timeout.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from tabletop import DISTRIBUTION
from tabletop.errors import UserError, printable, quote

__all__ = ["DASK_MISSING", "GREETING_BYTES", "connect", "probe"]

DASK_MISSING = ('--executor dask needs Dask: pip install -e ".[cluster]" in a checkout, or '
                f'pip install "{DISTRIBUTION}[cluster]"')
"""The one line when Dask (the ``cluster`` extra) is not installed."""

GREETING_BYTES = 64 * 1024
"""Largest first frame a Dask server's greeting may have (it is about 100 bytes)."""
DEFAULT_PORT = 8786
HINT = "start one with 'dask scheduler' and give the address it prints (tcp://HOST:8786)"


def _shown(data: bytes) -> str:
    """The first bytes that answered, for a message (``"HTTP/1.1 400 Bad Request\\r\\n"``)."""
    return quote(data[:40].decode("latin-1"), limit=60) + (" ..." if len(data) > 40 else "")


def _recv(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Up to ``n`` bytes before ``deadline`` (fewer if the other side closes or is silent)."""
    got = b""
    while len(got) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(got))
        except (TimeoutError, BlockingIOError):
            break
        if not chunk:
            break
        got += chunk
    return got


def _resolve(host: str, port: int, timeout: float) -> list[Any] | None:
    """``getaddrinfo`` of ``host``, or ``None`` when it takes more than ``timeout`` seconds (a
    name lookup cannot be interrupted: it is left to finish in a daemon thread)."""
    box: dict[str, Any] = {}

    def lookup() -> None:
        try:
            box["found"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:  # (a label of over 63 characters: idna's)
            box["error"] = exc

    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return None
    if "error" in box:
        raise box["error"]
    return list(box["found"])


def _connect(addresses: list[Any], timeout: float) -> socket.socket:
    """A connected socket to the first of ``addresses`` that accepts, within ``timeout``."""
    error: OSError = OSError("no address")
    for family, kind, proto, _, where in addresses:
        sock = socket.socket(family, kind, proto)
        sock.settimeout(timeout)
        try:
            sock.connect(where)
            return sock
        except OSError as exc:
            sock.close()
            error = exc
    raise error


def probe(address: str, timeout: float) -> None:
    """Check within ``timeout`` seconds that a Dask server answers at ``address``
    (``tcp://HOST:PORT``, or ``HOST:PORT``); a :class:`~tabletop.errors.UserError` naming the
    address and what answered otherwise. Other schemes are not probed."""
    scheme, sep, _ = address.partition("://")
    if sep and scheme != "tcp":
        return
    where = f"--scheduler {quote(address)}"
    try:
        parts = urlsplit(address if sep else f"tcp://{address}")
        host, port = parts.hostname, parts.port or DEFAULT_PORT
    except ValueError as exc:
        raise UserError(f"{where}: not an address ({printable(str(exc))}); give "
                        "tcp://HOST:PORT") from None
    if not host:
        raise UserError(f"{where}: no host in the address; give tcp://HOST:PORT")
    deadline = time.monotonic() + timeout
    try:
        addresses = _resolve(host, port, timeout)
    except UnicodeError as exc:
        raise UserError(f"{where}: not an address (the host name: {printable(str(exc))}); "
                        "give tcp://HOST:PORT") from None
    try:
        if addresses is None:
            raise UserError(f"{where}: no Dask scheduler answered within {timeout:g} s (the "
                            f"host name {quote(host)} did not resolve in time); {HINT}")
        sock = _connect(addresses, max(deadline - time.monotonic(), 0.001))
    except TimeoutError:
        raise UserError(f"{where}: no Dask scheduler answered within {timeout:g} s (no "
                        f"connection); {HINT}") from None
    except OSError as exc:
        raise UserError(f"{where}: no Dask scheduler answered within {timeout:g} s "
                        f"({printable(exc.strerror or str(exc)).lower()}); {HINT}") from None
    with sock:
        try:
            head = _recv(sock, 8, deadline)
            if len(head) == 8:
                (size,) = struct.unpack("<Q", head)
                if size <= GREETING_BYTES:
                    body = _recv(sock, size, deadline)
                    if len(body) == size and b"pickle-protocol" in body:
                        return
                    head += body
            if head:  # a little more of what answered, for the message
                head += _recv(sock, 40, min(deadline, time.monotonic() + 0.2))
        except OSError as exc:
            raise UserError(f"{where}: the connection failed before a Dask greeting "
                            f"({printable(exc.strerror or str(exc)).lower()}); {HINT}") from None
    if not head:
        late = time.monotonic() >= deadline
        raise UserError(
            f"{where}: no Dask scheduler answered within {timeout:g} s (the port accepts "
            + ("connections and says nothing: a web server, such as Dask's dashboard on "
               "8787?" if late else "connections and closes them without a word")
            + f"); {HINT}")
    raise UserError(f"{where}: not a Dask scheduler: it answered {_shown(head)}; {HINT}")


def connect(address: str, timeout: float) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address`` that has at least one worker,
    each step within ``timeout`` seconds (:func:`probe` first); one
    :class:`~tabletop.errors.UserError` line for anything else (Dask not installed included)."""
    try:
        from distributed import Client
    except ImportError:
        raise UserError(DASK_MISSING) from None

    probe(address, timeout)
    where = f"--scheduler {quote(address)}"
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError, a comm error of Dask's
        what = f"no Dask scheduler answered within {timeout:g} s" \
            if isinstance(exc, TimeoutError) else "Dask's client could not connect"
        raise UserError(f"{where}: {what} ({type(exc).__name__}: "
                        f"{printable(str(exc))[:200]}); {HINT}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception as exc:
        with contextlib.suppress(Exception):
            client.close()
        raise UserError(f"{where}: the scheduler has no worker after {timeout:g} s "
                        f"({type(exc).__name__}: {printable(str(exc))[:120]}); start some with "
                        f"'dask worker {printable(address)}'") from None
    return client

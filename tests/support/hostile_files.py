"""Hostile files made inside a test (nothing large lives in the repository): FIFOs, JSON nested
100,000 deep, 5,000-digit numbers, text that is not UTF-8; and a guard that a call returns
within a time instead of hanging the suite."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

DEEP = 100_000
"""Nesting of the deep JSON of issue 28 (Python's parser gives up near 1,000)."""
LONG = 5_000
"""Digits of the long number of issue 28 (Python converts at most 4,300)."""


def deep_json(n: int = DEEP) -> str:
    """A JSON array nested ``n`` deep."""
    return "[" * n + "]" * n


def long_number(n: int = LONG) -> str:
    """A JSON (and TOML) integer of ``n`` digits."""
    return "9" * n


LATIN1 = "Sœurs de Bataille, épée".encode("cp1252")
"""Text in a Windows code page, not UTF-8 (0x9c is not a UTF-8 start byte)."""


@contextlib.contextmanager
def fifo(path: Path) -> Iterator[Path]:
    """A FIFO at ``path``; on the way out a writer opens it and closes it at once, so that a
    reader the test left blocked on it (the bug) is released rather than hanging forever."""
    os.mkfifo(path)
    try:
        yield path
    finally:
        with contextlib.suppress(OSError):
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO when nobody reads: fine
            os.close(fd)
        with contextlib.suppress(OSError):
            path.unlink()


def within(seconds: float, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, which must return (or raise) within ``seconds`` of wall time; a
    call still running then fails the test (it is left in a daemon thread)."""
    box: dict[str, Any] = {}

    def call() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the caller as it is
            box["error"] = exc

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise AssertionError(f"{getattr(fn, '__name__', fn)} still running after {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]

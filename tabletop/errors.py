"""Errors a user can act on, and text from files made safe to show in them.

Every problem with a user's input (a scenario file, an action file, a command line) is raised as a
:class:`UserError` holding one line per problem; the command line prints them and exits with code 2,
without a traceback.

Ids, keys and other strings read from files are shown through :func:`quote`, so that a message
cannot lie: an id holding a line break or a terminal escape code cannot forge a line of its own
(``FILE: ok``), and a 20,000-character id does not make a 20,000-character line.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["QUOTE_LIMIT", "UserError", "describe", "printable", "quote"]

QUOTE_LIMIT = 80
"""Most characters of a quoted string shown (escapes included); longer ones end with ``…``."""

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch.isprintable():
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\\n``, ``\\x1b``, ...).

    Quotes and backslashes are kept as they are: this is for whole lines, not for values inside
    them (use :func:`quote`).
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else _escape(ch) for ch in text)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` in double quotes, escaped, at most ``limit`` characters between the quotes.

    >>> quote('sq1')
    '"sq1"'
    >>> print(quote('a\\nFILE: ok'))
    "a\\nFILE: ok"
    >>> print(quote('x' * 100, limit=10))
    "xxxxxxxxxx"… (100 characters)
    """
    out: list[str] = []
    size = 0
    for ch in text:
        shown = _escape(ch)
        if size + len(shown) > limit:
            return f'"{"".join(out)}"… ({len(text):,} characters)'
        out.append(shown)
        size += len(shown)
    return f'"{"".join(out)}"'


def describe(value: Any) -> str:
    """A short rendering of a value read from a file, for a message: a string quoted and
    escaped (:func:`quote`), anything else as JSON with non-printable characters escaped; at
    most 40 characters, then ``…``.

    >>> describe([1.5, "a"] * 20)
    '[1.5, "a", 1.5, "a", 1.5, "a", 1.5, "a",…'
    """
    if isinstance(value, str):
        return quote(value, limit=40)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # NaN, a 5,000-digit int, deep nesting
        try:
            text = repr(value) if isinstance(value, float) else f"a {type(value).__name__}"
        except ValueError:
            text = f"a {type(value).__name__}"
    text = printable(text)
    return text if len(text) <= 40 else text[:40] + "…"


class UserError(ValueError):
    """A problem with a user's input: one message line per problem."""

    def __init__(self, lines: str | list[str]) -> None:
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        super().__init__("\n".join(self.lines))

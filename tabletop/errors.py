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
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["QUOTE_LIMIT", "UserError", "describe", "ident", "idents", "printable", "quote"]

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


_PLAIN_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
_PLAIN_NAME = re.compile(r"(?=.{1,80}$)[A-Za-z0-9_.:'-]+(?: [A-Za-z0-9_.:'-]+)*")


def ident(text: object, *, name: bool = False) -> str:
    """An id (or, with ``name``, a unit's name) read from a file, as it goes into a message.

    A plain id (letters, digits and ``_.:-``, 1 to 80 of them) is shown bare, as the rules'
    messages always showed ids; a name may also hold single spaces and apostrophes. Anything
    else (a space or a comma in an id, a line break, an escape code, 20,000 characters) is
    quoted and escaped by :func:`quote`, so that no id can forge a line, a clause or a length.

    >>> ident("sq1"), ident("A Squad", name=True)
    ('sq1', 'A Squad')
    >>> print(ident("sq1\\nFILE: ok"), ident("sq 1"))
    "sq1\\nFILE: ok" "sq 1"
    """
    text = str(text)
    if (_PLAIN_NAME if name else _PLAIN_ID).fullmatch(text):
        return text
    return quote(text)


def idents(ids: Iterable[object], *, shown: int = 10) -> str:
    """Ids for a message, each through :func:`ident`, comma-separated: the first ``shown``, then
    how many more (``"sq1, sq2 and 8 more"``), so a list of 10,000 models stays one short line.

    >>> idents(["a", "b c"]), idents(range(12), shown=3)
    ('a, "b c"', '0, 1, 2 and 9 more')
    """
    items = list(ids)
    out = ", ".join(ident(i) for i in items[:shown])
    return out + (f" and {len(items) - shown:,} more" if len(items) > shown else "")


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

"""The one way the command line prints text: every line through :func:`tabletop.errors.printable`.

So no output line can hold a line break or a terminal escape code that came from a file, a file
name or an option (``tabletop show -o $'x\\nFILE: ok'``), whatever the command.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from tabletop.errors import printable

__all__ = ["emit"]


def emit(lines: str | Iterable[str], *, err: bool = False) -> None:
    """Print ``lines`` on standard output, or standard error with ``err``: a string is one line
    (a line break inside it is shown as ``\\n``), else each item is; in every line each
    character that is not printable is escaped."""
    stream = sys.stderr if err else sys.stdout
    for line in [lines] if isinstance(lines, str) else lines:
        stream.write(printable(line) + "\n")

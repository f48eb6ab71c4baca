"""Writing files so that nothing is ever half-written.

Every file the program writes (saves, action logs, pictures, zone exports) goes through
:func:`atomic_write`: the data goes to a temporary file in the same folder, is flushed to disk,
then renamed over the target in one step. A crash leaves either the old file or the new one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]

FILE_MODE = 0o644
"""Permissions of written files (``mkstemp`` alone would leave them private to the user)."""


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8 with ``\\n`` line ends, or bytes) to ``path`` atomically.

    The folder must exist. Returns the path written.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target

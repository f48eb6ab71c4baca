"""Reading input files without hanging, and writing files so that nothing is ever half-written,
and nothing but the target is touched.

Every input file the program reads (scenarios, action files, the 40kdc data, survey plans and
results) goes through :func:`read_regular`: it is opened without blocking and must be a regular
file (a FIFO would hang the reader until something writes to it, a device may never end), of at
most a given size, read with one bounded read; :func:`read_json` adds UTF-8 and JSON with every
failure (deep nesting, a 5,000-digit number) as one :class:`~tabletop.errors.UserError` line.

Every file the program writes (saves, action logs, pictures, zone exports) goes through
:func:`atomic_write`:

- the target must be a regular file, a symlink to one (the file it points to is written, the link
  stays), or not exist yet in an existing folder; anything else (a folder, a FIFO, a device, a
  link to ``/dev/stdout``) is refused with a :class:`~tabletop.errors.UserError`, unchanged;
- the data goes to a temporary file in the target's folder, named after the target and the
  writing process (``.NAME.PID-RANDOM.tmp``), is flushed to disk, then renamed over the target
  in one step, and the folder is flushed too. A crash leaves either the old file or the new one;
- the new file keeps the permissions (and, where allowed, the owner) of the file it replaces; a
  new file gets the permissions the umask gives (``0666 & ~umask``). They are set on the open
  descriptor, never by path;
- temporary files left by earlier saves of the same target that were interrupted (their process
  is gone) are removed.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, printable

JSON_DEPTH = 64
"""Deepest nesting of arrays and objects :func:`read_json` accepts (the data files and survey
results need under 10; Python's parser fails with a ``RecursionError`` near 1,000)."""

__all__ = ["JSON_DEPTH", "atomic_write", "collector_paused", "decode_utf8", "json_error",
           "long_number", "nested_deeper", "new_file_mode", "process_alive", "read_json",
           "read_regular"]

LEGACY_TMP_AGE = 60.0
"""Seconds after which a temporary file without a process id in its name (written by earlier
versions) counts as left behind."""

_TMP_NAME = re.compile(r"(?P<pid>\d+)-[0-9a-f]{8}\.tmp")
"""The end of a temporary file's name after ``.TARGET.``: the writing process and 8 hex digits."""

_LEGACY_TMP_NAME = re.compile(r"[a-z0-9_]{8}\.tmp")
"""The same for earlier versions (``tempfile.mkstemp``'s random part)."""


def new_file_mode() -> int:
    """The permissions a new file gets: ``0o666`` without the bits of the process's umask."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no portable way to read it without setting it
    os.umask(mask)
    return 0o666 & ~mask


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: str | os.PathLike[str], limit: int, *, source: str | None = None,
                 what: str = "an input file") -> bytes:
    """The bytes of the regular file at ``path`` (through symlinks), at most ``limit`` of them.

    The file is opened without blocking (``O_NONBLOCK``: opening a FIFO with no writer would
    wait for one forever) and must be a regular file: a folder, a FIFO, a socket or a device is
    a :class:`~tabletop.errors.UserError` naming ``source`` (default: the path) and ``what`` it
    should be, and so is a file larger than ``limit`` bytes. A file that cannot be opened or
    read raises its ``OSError``, for the caller to word (``FileNotFoundError``, ...).
    """
    shown = printable(source if source is not None else str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserError(f"{shown}: is {_kind(info.st_mode)}, not {what}"
                            + ("" if stat.S_ISDIR(info.st_mode) else "; give a regular file"))
        if info.st_size > limit:
            raise UserError(f"{shown}: the file is too large ({info.st_size:,} bytes; the "
                            f"limit is {_size(limit)})")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # a file that grows while it is read stops at the limit too
            chunk = os.read(fd, min(limit + 1 - size, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise UserError(f"{shown}: the file is too large (more than {_size(limit)})")
    return b"".join(chunks)


def _size(limit: int) -> str:
    return f"{limit // 2**20:,} MB" if limit >= 2**20 and limit % 2**20 == 0 else \
        f"{limit:,} bytes"


def decode_utf8(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark dropped), or a one-line
    :class:`~tabletop.errors.UserError` naming ``source`` and the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{printable(source)}: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                        f"offset {exc.start:,}); save the file as UTF-8") from None


def json_error(exc: BaseException, text: str, source: str, depth: int = JSON_DEPTH
               ) -> UserError:
    """The one-line :class:`~tabletop.errors.UserError` for what ``json.loads(text)`` raised:
    a syntax error with its line and column, nesting deeper than Python can parse
    (``RecursionError``), a number longer than Python converts (``ValueError``, over 4,300
    digits)."""
    shown = printable(source)
    if isinstance(exc, json.JSONDecodeError):
        return UserError(f"{shown}: line {exc.lineno}, column {exc.colno}: invalid JSON: "
                         f"{exc.msg}")
    if isinstance(exc, RecursionError):
        return UserError(f"{shown}: nested deeper than {depth} levels (arrays and objects); "
                         "no file of this kind needs that many")
    where = long_number(text)
    if where is not None:
        return UserError(f"{shown}: {where}; numbers of over 4,300 digits cannot be read")
    return UserError(f"{shown}: invalid JSON: {printable(str(exc))[:120]}")


_LONG_DIGITS = re.compile(r"[0-9_]{1000,}")


def long_number(text: str) -> str | None:
    """Where the first number of 1,000 digits or more is in ``text`` (``"line 3: a number of
    5,000 digits"``), or ``None``."""
    m = _LONG_DIGITS.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    return f"line {line}: a number of {m.end() - m.start():,} digits"


def read_json(path: str | os.PathLike[str], limit: int, *, source: str | None = None,
              what: str = "a JSON file", depth: int = JSON_DEPTH) -> Any:
    """A JSON file read with :func:`read_regular` and decoded as UTF-8, nested at most ``depth``
    deep; every failure but ``OSError`` a one-line :class:`~tabletop.errors.UserError`."""
    shown = source if source is not None else str(path)
    text = decode_utf8(read_regular(path, limit, source=shown, what=what), shown)
    try:
        with collector_paused():
            value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise json_error(exc, text, shown, depth) from None
    if nested_deeper(text, depth):
        raise json_error(RecursionError(), text, shown, depth)
    return value


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a parser builds a value (and on again
    after, if it was on): a parsed JSON or TOML value holds no cycles, and the collector's
    passes over millions of new arrays were most of a parse (20 MB of nested arrays: 3.3 s,
    0.55 s with it paused). What the value does not keep is freed as ever, by its count of
    references."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_NOT_MARKS = bytes(sorted(set(range(256)) - set(b'"[]{}')))
_CHUNK = 1 << 20


def nested_deeper(text: str, depth: int) -> bool:
    """Whether arrays and objects nest more than ``depth`` deep in ``text``, valid JSON (text
    that :func:`json.loads` read).

    Counted on the text, not the value, in a few passes of numpy: the running count of the
    brackets outside strings (an opening one +1, a closing one -1; a bracket is inside a string
    after an odd number of quotes, escapes left out). A walk of the value took 2.1 s of a
    20 MB file's 4.5 (2.3 million arrays of two numbers)."""
    import numpy as np  # (here: this module loads without it, as the command line does)

    # (in UTF-8, no other character encodes to the bytes of a quote, a backslash or a bracket)
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = _ESCAPE.sub(b"", raw)  # (valid JSON has backslashes only in strings' escapes)
    codes = np.frombuffer(raw.translate(None, _NOT_MARKS), dtype=np.uint8)
    level = quotes = 0
    for start in range(0, len(codes), _CHUNK):
        part = codes[start:start + _CHUNK]
        quote = part == ord('"')
        seen = np.cumsum(quote, dtype=np.int32) + quotes
        # "[" and "{" (0x5B, 0x7B) have bit 2 clear, "]" and "}" (0x5D, 0x7D) set: +1 or -1
        step = 1 - ((part >> 1) & 2).astype(np.int32)
        step[quote | (seen % 2 == 1)] = 0
        run = np.cumsum(step, dtype=np.int32) + level
        if int(run.max()) > depth:
            return True
        level, quotes = int(run[-1]), int(seen[-1])
    return False


def _resolve(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file to replace for ``path`` (through a symlink) and its status (``None``: new)."""
    shown = printable(str(path))
    try:
        info = os.stat(path)  # follows symlinks
    except FileNotFoundError:
        if path.is_symlink():
            raise UserError(f"{shown}: is a symbolic link to nothing; remove it or write "
                            "elsewhere") from None
        info = None
    except OSError as exc:
        raise UserError(f"{shown}: cannot write here: {exc.strerror or exc}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise UserError(f"{shown}: exists and is {_kind(info.st_mode)}; give the name of a "
                        "file to write")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    folder = target.parent
    if not folder.is_dir():
        raise UserError(f"{shown}: {printable(str(folder))} is not an existing folder")
    return target, info


def _remove_stale(folder: Path, name: str) -> None:
    """Remove temporary files of interrupted saves of ``name`` in ``folder``."""
    prefix = f".{name}."
    try:
        entries = [e for e in os.scandir(folder)
                   if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return
    now = time.time()
    for entry in entries:
        rest = entry.name[len(prefix):]
        m = _TMP_NAME.fullmatch(rest)
        if m:
            pid = int(m["pid"])
            if pid == os.getpid() or process_alive(pid):
                continue
        elif not _LEGACY_TMP_NAME.fullmatch(rest):
            continue
        else:
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime < LEGACY_TMP_AGE:
                    continue
            except OSError:
                continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (someone else's process, or an odd number, counts as
    alive: what it left is not ours to remove)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process (or an odd number): leave its file alone
    return True


def _fsync_folder(folder: Path) -> None:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # some file systems cannot flush a folder
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF, errno.EACCES):
            raise
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8 with ``\\n`` line ends, or bytes) to ``path`` atomically.

    The folder must exist. Returns ``path`` as given. Raises
    :class:`~tabletop.errors.UserError` when ``path`` cannot be written (see the module).
    """
    given = Path(path)
    target, old = _resolve(given)
    folder = target.parent
    _remove_stale(folder, target.name)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"  # _TMP_NAME
    mode = stat.S_IMODE(old.st_mode) if old is not None else new_file_mode()
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
    except OSError as exc:
        raise UserError(f"{printable(str(given))}: cannot write here: {exc.strerror or exc}"
                        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            if old is not None and hasattr(os, "fchown"):
                with contextlib.suppress(OSError):
                    os.fchown(fh.fileno(), old.st_uid, old.st_gid)
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode)
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UserError(f"{printable(str(given))}: cannot write: {exc.strerror or exc}"
                            ) from None
        raise
    _fsync_folder(folder)
    return given

"""Writing files so that nothing is ever half-written, and nothing but the target is touched.

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
import os
import re
import secrets
import stat
import time
from pathlib import Path

from tabletop.errors import UserError, printable

__all__ = ["atomic_write", "new_file_mode"]

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
            if pid == os.getpid() or _alive(pid):
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


def _alive(pid: int) -> bool:
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

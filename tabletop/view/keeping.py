"""Keeping the game safe on disk: saves, the session's action log, failed writes (no pygame).

Nothing a player did is lost, and nothing claims it was saved when it was not:

- every write that fails (the action log, a save, a screenshot) becomes an *alert*, shown until
  the player dismisses it, and stays among the :attr:`Keeper.failures` until the same kind of
  write succeeds again; the line said when a signal stops the window names them, and when the
  action log on disk lacks actions it gives them in that line (JSON) so they can be replayed;
- Ctrl+S never replaces a file this window did not write: :class:`Written` keeps, for every file
the window wrote, the file's identity right after the write (device, inode, size and
modification time: an atomic save makes a new inode). A file is *ours* while it is still that
very file; another window's or another program's save, or the save of an earlier session, is not,
and the window asks before replacing it (or saves beside it under :func:`beside`). The same
record tells when another process changed a save of ours, so the window stops claiming the game
is saved there.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.errors import UserError
from tabletop.state import GameState
from tabletop.view.history import History, SessionLog

__all__ = ["Keeper", "SaveOutcome", "Stamp", "Written", "beside", "stamp"]


@dataclass(frozen=True)
class Stamp:
    """A file's identity at one moment: what an atomic replacement or an edit changes."""

    device: int
    inode: int
    size: int
    mtime_ns: int


def stamp(path: Path) -> Stamp | None:
    """The :class:`Stamp` of the file at ``path`` (through a link), ``None`` when there is none
    (or it cannot be read)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return Stamp(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _key(path: Path) -> str:
    return os.path.realpath(path)


class Written:
    """The files this window wrote, each with its :class:`Stamp` right after the write."""

    def __init__(self) -> None:
        self._stamps: dict[str, Stamp | None] = {}

    def record(self, path: Path) -> None:
        """``path`` has just been written by this window."""
        self._stamps[_key(path)] = stamp(path)

    def wrote(self, path: Path) -> bool:
        """Whether this window ever wrote ``path``."""
        return _key(path) in self._stamps

    def ours(self, path: Path) -> bool:
        """Whether ``path`` is still the very file this window last wrote there."""
        key = _key(path)
        return key in self._stamps and self._stamps[key] == stamp(path)

    def changed(self, path: Path) -> Stamp | None:
        """When this window wrote ``path`` and another process has changed, replaced or
        removed it since: its stamp now (a removed file: a stamp of zeros); else ``None``."""
        key = _key(path)
        if key not in self._stamps:
            return None
        now = stamp(path)
        if now == self._stamps[key]:
            return None
        return now or Stamp(0, 0, 0, 0)


_NUMBERED = re.compile(r"(?P<base>.*)-(?P<n>\d+)$")


def beside(path: Path) -> Path:
    """The first free name beside ``path`` for a save that must not replace it:
    ``game.save.toml`` -> ``game-2.save.toml`` (still a ``*.save.*`` name, so the window
    saves it in place when it is opened again), ``notes.toml`` -> ``notes-2.toml``; a name
    already numbered counts on (``game-2.save.toml`` -> ``game-3.save.toml``)."""
    suffix = path.suffix
    stem = path.name[:-len(suffix)] if suffix else path.name
    tail = ".save" if stem.endswith(".save") else ""
    stem = stem[:-len(tail)] if tail else stem
    m = _NUMBERED.fullmatch(stem)
    base, n = (m["base"], int(m["n"]) + 1) if m else (stem, 2)
    while True:
        candidate = path.with_name(f"{base}-{n}{tail}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
        n += 1


@dataclass(frozen=True)
class SaveOutcome:
    """What a save did: ``saved`` (``path`` written), ``ask`` (``path`` is a file this window did
    not write, or one changed since: nothing written, the window asks), or ``failed``
    (``problem`` says why: nothing written)."""

    kind: str
    path: Path
    problem: str = ""


Saver = Callable[[GameState, Path], Any]


class Keeper:
    """The game's history, where it is saved, its session log, and every failed write.

    Parameters
    ----------
    state:
        The game as the window opened it (the session log starts from it).
    save_path:
        Where Ctrl+S saves; the session log goes beside it.
    saver:
        ``saver(state, path)`` writes a scenario file atomically.
    opened:
        The file the game was opened from, if any (named in the stop note when the log
        could not be written at all).
    """

    def __init__(self, state: GameState, save_path: Path, saver: Saver | None, *,
                 opened: Path | None = None) -> None:
        self.history = History(state)
        self.save_path = Path(save_path)
        self.saver = saver
        self.opened = opened
        self.session = SessionLog(self.save_path, saver)
        self.files = Written()
        self.failures: dict[str, str] = {}
        """Writes that failed and have not succeeded since, by kind (``log``, ``save``,
        ``screenshot``): what went wrong."""
        self.alerts: list[str] = []
        """Problems shown until the player dismisses them, oldest first."""
        self._noticed: dict[str, Stamp] = {}

    # -- alerts ---------------------------------------------------------------------------
    def alert(self, text: str) -> None:
        """Show ``text`` until dismissed (once: the same text again is not repeated)."""
        if text not in self.alerts:
            self.alerts.append(text)

    def dismiss(self, index: int = 0) -> None:
        """The player dismissed alert ``index``."""
        if 0 <= index < len(self.alerts):
            del self.alerts[index]

    def failed(self, kind: str, text: str) -> None:
        """A write of ``kind`` failed: remember it until one succeeds, and alert (the alert of
        an earlier failure of the same kind, if still shown, is brought up to date)."""
        old = self.failures.get(kind)
        self.failures[kind] = text
        if old is not None and old in self.alerts:
            self.alerts[self.alerts.index(old)] = text
        else:
            self.alert(text)

    def succeeded(self, kind: str) -> None:
        """A write of ``kind`` succeeded: its earlier failure (and alert) is over."""
        text = self.failures.pop(kind, None)
        if text is not None and text in self.alerts:
            self.alerts.remove(text)

    # -- the session log ------------------------------------------------------------------
    def log(self) -> bool:
        """Write the session's action log (after every change); ``False`` when it failed (an
        alert says so, and the window goes on: every action stays in its history)."""
        h = self.history
        try:
            self.session.write(h.start, h.actions)
        except (OSError, UserError, ValueError) as exc:
            where = self.session.actions_path or self.save_path.parent
            self.failed("log", f"could not write the action log ({where}): {_why(exc)}. "
                                f"It holds {self.session.written} of the session's "
                                f"{len(h.actions)} actions; every one is kept in this window "
                                "and written as soon as the disk allows (or save with Ctrl+S "
                                "or Ctrl+Shift+S elsewhere)")
            return False
        self.succeeded("log")
        return True

    @property
    def log_complete(self) -> bool:
        """Whether the log on disk holds every action of the session."""
        return self.session.written == len(self.history.actions) and (
            self.session.actions_path is not None or not self.history.actions)

    # -- saves ----------------------------------------------------------------------------
    def needs_asking(self, path: Path) -> str:
        """Why a save to ``path`` must ask first (empty: it need not): something stands
        there that this window did not write, or that changed since it wrote it."""
        if not os.path.lexists(path) or self.files.ours(path):
            return ""
        if self.files.wrote(path):
            st = stamp(path)
            when = (f" at {time.strftime('%H:%M:%S', time.localtime(st.mtime_ns / 1e9))}"
                    if st is not None else "")
            return (f"{path.name} was changed by another program{when} since this window "
                    "saved it")
        return (f"{path.name} exists and this window did not write it (another game's save, "
                "or another window's)")

    def save(self, path: Path | None = None, *, replace: bool = False) -> SaveOutcome:
        """Save the game at ``path`` (default :attr:`save_path`), atomically; never over a
        file this window did not write unless ``replace`` (the player said so)."""
        if self.saver is None:
            raise RuntimeError("no scenario writer")
        target = Path(path) if path is not None else self.save_path
        if not replace and self.needs_asking(target):
            return SaveOutcome("ask", target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.saver(self.history.state, target)
        except (OSError, UserError, ValueError) as exc:  # a full disk, a folder gone, ...
            problem = f"could not save {target}: {_why(exc)}"
            self.failed("save", problem + "; the game is not saved")
            return SaveOutcome("failed", target, problem)
        self.succeeded("save")
        self.files.record(target)
        self._noticed.pop(os.path.realpath(target), None)
        self.save_path = target
        self.history.mark_saved()
        return SaveOutcome("saved", target)

    def watch(self) -> str:
        """Look whether another process changed the save this window wrote; when it did (and
        that was not noticed yet) the game counts as unsaved and an alert says so: its text,
        else empty."""
        path = self.save_path
        now = self.files.changed(path)
        key = os.path.realpath(path)
        if now is None or self._noticed.get(key) == now:
            return ""
        self._noticed[key] = now
        self.history.saved_at = -1  # what the window shows is no longer saved anywhere
        what = "removed" if now.inode == 0 else (
            "changed at " + time.strftime("%H:%M:%S", time.localtime(now.mtime_ns / 1e9)))
        text = (f"{path.name} was {what} by another program: this game is no longer saved "
                "there; Ctrl+S asks before replacing it")
        self.alert(text)
        return text

    # -- when the window stops ------------------------------------------------------------
    def stop_note(self, head: str, staged: str = "") -> str:
        """The one line said when a signal stopped the window: what is unsaved, where the
        session's actions are (given in the line itself when the log lacks some), and every
        write that failed."""
        h = self.history
        failed = [t for k, t in self.failures.items() if k != "log"]
        tail = "".join(f"; {t}" for t in failed) + staged
        if not h.unsaved:
            where = (f" (last saved to {self.save_path})" if self.save_path.exists() else "")
            return f"{head}; nothing unsaved{where}{tail}"
        if not h.actions:  # unsaved only because another program changed the save
            where = "" if self.opened is None else (
                f" ({self.opened if self.opened.exists() else self.opened.name})")
            return (f"{head} with unsaved changes; the game shown is the one the window "
                    f"opened{where}, no move to replay{tail}")
        if not self.log_complete:
            self.log()  # one more try: the disk may have room again
        log, start = self.session.actions_path, self.session.start_path
        if self.log_complete and log is not None and start is not None:
            log, start = log.resolve(), start.resolve()
            # replayed onto the save only when that file is this window's (or there is none):
            # never onto another game's or another program's
            out = self.save_path
            if os.path.lexists(out) and not self.files.ours(out):
                out = beside(out)
            return (f"{head} with unsaved changes; every action of the session is in {log} "
                    f"(`tabletop apply {start} {log} -o {out.resolve()}` replays it to "
                    f"the game as it stood){tail}")
        from_file = start or self.opened
        replay = (f"`tabletop apply {from_file} ACTIONS.json` on them replays the game"
                  if from_file is not None else "they replay from the state the window opened")
        why = self.failures.get("log", "the action log could not be written")
        return (f"{head} with unsaved changes; {why}; the session's {len(h.actions)} actions "
                f"(save them as ACTIONS.json; {replay}): "
                f"{json.dumps(h.actions, separators=(',', ':'))}{tail}")


def _why(exc: BaseException) -> str:
    """What went wrong, in one line (a :class:`UserError`'s own words, an ``OSError``'s)."""
    if isinstance(exc, UserError):
        return "; ".join(exc.lines)
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)

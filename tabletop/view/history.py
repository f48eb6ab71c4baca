"""What the window remembers of a game: undo and redo over the phase's actions, and the
session's action log. No pygame.

Every action the rules accept is kept with the state before and after it (states are immutable,
so this costs nothing but references). Undo goes back one step, redo forward again, within the
current phase: the action that started the phase is the floor. A refused action is not kept (it
changed nothing the window shows), so a refused commit leaves the staged models where they were.

Dice stand (rulings): undo never goes back past dice rolled from the game's seed, so a die seen
is never rolled again, for that unit or for another. A selection whose roll stands is taken back
with the rules' ``cancel`` action instead (the unit is free again and its roll stands for a new
selection: an undone advance selected again keeps its roll); :attr:`History.barrier` keeps that
cancel from being undone in turn.

The session log is the list of actions that lead from the state the window opened to the state
shown, the same actions ``tabletop apply`` replays. It is a new pair of files per session,
``<stem>.session-N.start.toml`` and ``<stem>.session-N.actions.json`` beside the save (``N`` the
first number at which nothing stands under either name: not a file, not a folder, not even a link
to nothing; the actions file is created exclusively, so two windows never take the same ``N``),
written at the first action and rewritten atomically after every change: a later session never
overwrites an earlier one's log. An undo takes its actions off the log (the log always replays to
what the window shows); a redo puts them back. :attr:`SessionLog.written` says how many actions
the file on disk holds, so a failed write (a full disk) is never taken for a saved one.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.errors import UserError
from tabletop.files import atomic_write
from tabletop.state import GameState

__all__ = ["Entry", "History", "SessionLog"]

Saver = Callable[[GameState, Path], Any]


@dataclass(frozen=True)
class Entry:
    """One step of the history: the actions it applied (usually one; putting one model back is
    a reset and the other models' moves again, undone at once), the states around it and what
    happened."""

    actions: tuple[dict[str, Any], ...]
    before: GameState
    after: GameState
    events: tuple[dict[str, Any], ...] = ()

    @property
    def action(self) -> dict[str, Any]:
        """The step's first action (what it is about)."""
        return self.actions[0]

    @property
    def rolled(self) -> bool:
        """Whether it rolled dice from the game's seed (they stand: it cannot be undone)."""
        return self.after.battle.dice_used > self.before.battle.dice_used


def _phase_of(state: GameState) -> tuple[int, str, str]:
    b = state.battle
    return (b.round, b.active_player, b.phase)


class SessionLog:
    """The action log of one window session: a start state and the actions since, as files.

    Parameters
    ----------
    beside:
        The save path; the log's files go in its folder, named after its stem.
    saver:
        ``saver(state, path)`` writes a scenario file atomically.
    """

    def __init__(self, beside: Path, saver: Saver | None) -> None:
        self.beside = beside
        self.saver = saver
        self.start_path: Path | None = None
        self.actions_path: Path | None = None
        self.written = 0
        """How many actions the log file holds (what the last successful write wrote)."""

    def _claim(self) -> tuple[Path, Path]:
        """The first free pair of names, the actions file created empty (``[]``) and
        exclusively, so that no other session can take it meanwhile."""
        folder, stem = self.beside.parent, self.beside.stem
        suffix = self.beside.suffix or ".toml"
        n = 1
        while True:
            start = folder / f"{stem}.session-{n}.start{suffix}"
            actions = folder / f"{stem}.session-{n}.actions.json"
            n += 1
            if os.path.lexists(start) or os.path.lexists(actions):
                continue  # a file, a folder, a link to nothing: whatever stands there, next
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            try:
                fd = os.open(actions, flags, 0o666)
            except FileExistsError:  # another window took it just now
                continue
            except OSError as exc:
                raise UserError(f"{actions}: cannot write the action log here: "
                                f"{exc.strerror or exc}") from None
            try:
                os.write(fd, b"[]\n")
            except OSError as exc:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(actions)
                raise UserError(f"{actions}: cannot write: {exc.strerror or exc}") from None
            os.close(fd)
            return start, actions

    def write(self, start: GameState, actions: list[dict[str, Any]]) -> None:
        """Write the log: the start state once (the first time), the actions every time.

        Raises :class:`~tabletop.errors.UserError` (or ``OSError``) when it cannot: the file
        on disk then still holds what it held (:attr:`written` actions)."""
        if self.actions_path is None:
            folder = self.beside.parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserError(f"{folder}: cannot make the folder for the action log: "
                                f"{exc.strerror or exc}") from None
            start_path, actions_path = self._claim()
            try:
                if self.saver is not None:
                    self.saver(start, start_path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(actions_path)  # the name is free again for the next try
                raise
            self.start_path, self.actions_path = start_path, actions_path
        atomic_write(self.actions_path, json.dumps(actions, indent=1) + "\n")
        self.written = len(actions)


@dataclass
class History:
    """Undo and redo over the actions of the current phase, and the session's log."""

    start: GameState
    """The state the session's log starts from."""
    entries: list[Entry] = field(default_factory=list)
    undone: list[Entry] = field(default_factory=list)
    barrier: int = 0
    """Entries before this index are never undone (a cancel that took back a rolled
    selection, see the module docstring)."""
    saved_at: int = 0
    """How many entries the last save held (``-1``: a state no save holds)."""

    @property
    def state(self) -> GameState:
        """The state shown: after the last entry (the start without any)."""
        return self.entries[-1].after if self.entries else self.start

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The log: the actions from :attr:`start` to :attr:`state`."""
        return [a for e in self.entries for a in e.actions]

    @property
    def unsaved(self) -> bool:
        """Whether the state shown differs from the last save (or the file opened)."""
        return self.saved_at != len(self.entries)

    def mark_saved(self) -> None:
        """The state shown has just been saved."""
        self.saved_at = len(self.entries)

    def push(self, action: Mapping[str, Any] | list[dict[str, Any]], after: GameState,
             events: tuple[dict[str, Any], ...] = ()) -> Entry:
        """An action (or several, undone together) was accepted: keep it (what was undone can no
        longer be redone)."""
        actions = tuple(dict(a) for a in action) if isinstance(action, list) else (dict(action),)
        entry = Entry(actions, self.state, after, tuple(events))
        self.entries.append(entry)
        if self.saved_at > len(self.entries) - 1:
            self.saved_at = -1  # the saved state was undone, and now replaced
        self.undone.clear()
        return entry

    def floor(self) -> int:
        """How many entries undo may never take back: those before the current phase, and
        everything up to the last roll (dice stand)."""
        here = _phase_of(self.state)
        n = len(self.entries)
        while n > 0 and _phase_of(self.entries[n - 1].before) == here:
            n -= 1
        last_roll = max((i + 1 for i, e in enumerate(self.entries) if e.rolled), default=0)
        return max(n, last_roll, self.barrier)

    def can_undo(self) -> bool:
        """Whether there is an action of this phase to take back."""
        return len(self.entries) > self.floor()

    def blocked_by_roll(self) -> Entry | None:
        """The entry of this phase whose dice stop undo right now, if dice are what stop it."""
        if self.can_undo():
            return None
        here = _phase_of(self.state)
        for e in reversed(self.entries):
            if _phase_of(e.before) != here:
                return None
            if e.rolled:
                return e
        return None

    def undo(self) -> Entry | None:
        """Take back the last step of the phase; ``None`` when there is none."""
        if not self.can_undo():
            return None
        entry = self.entries.pop()
        self.undone.append(entry)
        return entry

    def redo(self) -> Entry | None:
        """Apply again the last step taken back (the same state as before it was undone)."""
        if not self.undone:
            return None
        entry = self.undone.pop()
        self.entries.append(entry)
        return entry

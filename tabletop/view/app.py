"""The window: a pygame-ce loop of events -> controller -> rules -> render.

Layout: the board on the left (fitted to the window, zoom and pan), a side panel on the right
(:mod:`tabletop.view.panel`), a status line at the bottom. Every change to the game goes through
the rules core as an action of ``docs/actions.md``; the window keeps each accepted action with the
states around it (:mod:`tabletop.view.history`: undo and redo over the phase, dice that stand)
and writes the session's action log beside the save, so a game can be replayed with
``tabletop apply``.

Drawing is done only when something changed, and then only where it changed: the board under the
moving things (models, shading, marks) is one cached surface, rebuilt when the state or the view
changes; each frame restores it under the last frame's overlays (ghosts, path, ruler, handles,
cards), draws the new ones, and sends just those rectangles to the display. Zones are computed
when a model is picked up and drawn anti-aliased once per pick-up.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
from shapely.geometry import LineString

from tabletop import rulesets
from tabletop.errors import UserError
from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState
from tabletop.view import blockpaint, render, turn
from tabletop.view.blockdrag import BlockTool, handle_points, max_displacement, near_obstacles
from tabletop.view.boardlabels import MarkLabels, draw_placed, expanded, layout_marks, mark_of
from tabletop.view.boardlabels import leader as draw_placed_leader
from tabletop.view.bridge import MoveRow, Outcome, Rules, StepPreview
from tabletop.view.controller import Controller, Intent, SetupSource, ghost_models, setup_source
from tabletop.view.dialogs import Choice, Dialog, draw_dialog
from tabletop.view.dicetray import TrayRoll, purpose, tray_rolls
from tabletop.view.emergency import GroupSetup, pending_group_setup
from tabletop.view.helpkeys import help_rows
from tabletop.view.history import History, SessionLog
from tabletop.view.identity import Ref
from tabletop.view.keeping import Keeper, beside
from tabletop.view.labels import Placed, place_labels
from tabletop.view.messages import describe, describe_entry, manoeuvre_text, unit_line
from tabletop.view.notices import draw_alerts, draw_help, draw_status
from tabletop.view.panel import (
    PANEL_W,
    BlockPanel,
    GroupPanel,
    PanelView,
    Row,
    draw_panel,
    group_refusals,
)
from tabletop.view.roster import markers
from tabletop.view.threatview import Layer as ThreatLayer
from tabletop.view.threatview import draw_legend, legend_corner
from tabletop.view.viewport import Viewport

__all__ = ["PANEL_W", "STOP_SIGNALS", "App", "NoDisplay", "manoeuvre_text", "play",
           "stop_on_signals"]

STATUS_H = 40
"""Height of the status line: two lines of text (:mod:`tabletop.view.notices`)."""
BAD_RED = (255, 110, 110)
OK_GREEN = (120, 210, 120)
ACCENT = (255, 226, 110)

LEGEND_W = 560
"""Widest line of the threat legend, pixels (longer ones wrap)."""

WAIT_MS = 500
"""How long the idle loop sleeps waiting for an event (nothing is drawn while it waits)."""

WATCH_S = 1.0
"""How often, at most, the idle window looks whether another process changed its save."""

THREAT_AHEAD_AFTER_S = 1.0
"""The focused unit's threat is computed ahead (so that T finds it ready) only once the pointer
and keys have rested this long: it takes up to a second of CPU, during which a click or a key
waits, and a person moving the mouse or clicking through units is about to act."""

MAX_MESSAGES = 500
"""Status messages kept for the Messages tab (the oldest go first)."""

_SCROLL_STEP = 40

_INPUT = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL,
          pygame.KEYDOWN)

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT")
                     if hasattr(signal, name))
"""Signals that stop the window at once, without asking (a signal is not a person at the
keyboard; the session's action log already holds every action). SDL would turn them into a
quit event, which asks about unsaved changes, so its handlers are kept out."""


class App:
    """The interactive window on one game.

    Parameters
    ----------
    state:
        The game to play.
    save_path:
        Where Ctrl+S writes the scenario (Save As, Ctrl+Shift+S, picks another); the session's
        action log goes beside it (:class:`~tabletop.view.history.SessionLog`).
    size:
        Window size in pixels.
    saver:
        ``saver(state, path)`` writes a scenario file atomically (``tabletop.scenario.io``).
    """

    def __init__(self, state: GameState, *, save_path: Path, size: tuple[int, int] = (1280, 820),
                 saver: Callable[[GameState, Path], Any] | None = None,
                 rules: Rules | None = None, opened: Path | None = None) -> None:
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.key.set_repeat(0)
        self.rules = rules or Rules()
        self.saver = saver
        self.keeper = Keeper(state, Path(save_path), saver, opened=opened)
        """The history, the saves and the session log, and every write that failed."""
        self.messages: list[str] = []
        """Every status message of the session, oldest first (the panel's Messages tab)."""
        self._message = ""
        self._watched = 0.0
        self._input_at = 0.0
        """When the last pointer or key event came (``time.monotonic``)."""
        self._after_save: str | None = None
        """What to do once a save the player was asked about is written (``quit``)."""
        self._alert_rects: list[tuple[pygame.Rect, int]] = []
        self._unit_labels: list[tuple[float, float, float, float]] = []
        """The unit labels' boxes as last drawn (the readouts keep off them)."""
        self._mark_labels = MarkLabels((), ())
        """The refusal's labels as last placed on the board (summaries expand on hover)."""
        self._hovered_summary: int | None = None
        self.dice_agreed: set[tuple[str, str]] = set()
        """``(unit, purpose)`` of the rolls the player agreed to (asked once each)."""
        self.grid = False
        self.engagement = False
        self.help = False
        self.running = True
        self.stopped_by: str | None = None
        """The signal that stopped the window (``SIGTERM``...), if one did."""
        self.message = ("Click a model or a unit in the roster: its move types are listed with "
                        "their keys; H for help.")
        self.refusal: Outcome | None = None
        self.refusal_note = ""
        """What the window did about the last refusal (a refused commit keeps the models)."""
        self.block_marks: list[render.Mark] = []
        """What a refused t9a-2 commit drew: the block, lines to what it was too close to."""
        self.tray: list[TrayRoll] = []
        """Every roll of the session, oldest first (the panel's dice tray)."""
        self.tab = "roster"
        self.scroll: dict[str, int] = {}
        self.scroll_max: dict[str, int] = {}
        self.list_area = pygame.Rect(0, 0, 0, 0)
        self.unit_area = pygame.Rect(0, 0, 0, 0)
        self.select_flags: set[str] = set()
        """Yes/no options of the next ``select`` chosen in the panel (``fly``)."""
        self.next_choice: dict[str, Any] = {}
        """Options chosen for the next ``next``: a field naming a unit (Insane Bravery), or a
        list of models (those removed for coherency at the end of the turn)."""
        self._step: tuple[Ref, StepPreview] | None = None
        self._removals: tuple[Any, Any] | None = None
        self.dialog: Dialog | None = None
        self._dialog_buttons: list[tuple[pygame.Rect, str]] = []
        self.threats = ThreatLayer()
        """What T and O show (:mod:`tabletop.view.threatview`)."""
        self.rows: list[Row] = []
        self._cache: dict[str, tuple[Any, Any]] = {}
        self._elig: tuple[Any, list[MoveRow]] | None = None
        self._coh: dict[tuple[Ref, str], list[Violation]] = {}
        self._end: tuple[tuple[Ref, str], list[Violation]] | None = None
        self.frame_times: list[float] = []
        self.frames = 0
        """Frames drawn so far (nothing is drawn while nothing changes)."""
        self.dirty = True
        self.partial = True
        """Send only the changed rectangles to the display (``False``: redraw and send the
        whole window every frame, as before; benchmarks compare the two)."""
        self._full = True
        self._shown_base: pygame.Surface | None = None
        self._overlay_rects: list[pygame.Rect] = []
        self._status: tuple[Any, ...] | None = None
        self.group: GroupSetup | None = pending_group_setup(state)
        """A unit set up by one action (a destroyed transport's passengers), being placed."""
        self._setup_area: tuple[Any, Any] | None = None
        self._unit_zones: dict[tuple[Ref, str], Any] = {}
        """Zones of models with their whole unit moving along (Shift-drag), per state."""
        self.ctrl = Controller(self.rules.display(state), self._fit(),
                               zone_fn=self._zone_on_pickup, cap_fn=self.rules.cap,
                               blocks=self.rules, unit_zone_fn=self._unit_zone_on_pickup)
        self.zone_seconds: list[float] = []
        self.prefetch = True
        """Compute the zones of the moving unit's slow models while the window is idle
        (:meth:`warm_one`; ``False``: only at pick-up, as benchmarks of the pick-up want)."""
        self.warm_seconds: list[float] = []
        self._warmed: tuple[GameState | None, set[str]] = (None, set())
        self._show(state)

    # -- geometry of the window -----------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The game state (as saved; :attr:`Controller.state` is the board as drawn)."""
        return self.history.state

    @property
    def history(self) -> History:
        """Undo, redo and what is saved (:class:`~tabletop.view.keeping.Keeper`)."""
        return self.keeper.history

    @property
    def session(self) -> SessionLog:
        """The session's action log."""
        return self.keeper.session

    @property
    def save_path(self) -> Path:
        """Where Ctrl+S saves."""
        return self.keeper.save_path

    @save_path.setter
    def save_path(self, path: Path) -> None:
        self.keeper.save_path = Path(path)

    @property
    def message(self) -> str:
        """The status line (every message is also kept in :attr:`messages`)."""
        return self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text
        if text and (not self.messages or self.messages[-1] != text):
            self.messages.append(text)
            if len(self.messages) > MAX_MESSAGES:
                del self.messages[:len(self.messages) - MAX_MESSAGES]

    @property
    def log_path(self) -> Path | None:
        """The session's action log (``None`` before the first action)."""
        return self.session.actions_path

    @property
    def start_path(self) -> Path | None:
        """The state the session's action log starts from (``None`` before the first action)."""
        return self.session.start_path

    def _show(self, state: GameState) -> None:
        """Make ``state`` (the history's) the one drawn and played."""
        wanted = pending_group_setup(state)
        if wanted is None or self.group is None or self.group.unit != wanted.unit:
            self.group = wanted
        shown = self.rules.display(state)
        self.ctrl.state = self.group.display(shown) if self.group is not None else shown
        self.ctrl.picked &= {m.id for _, m in self.ctrl.state.placed_models()}
        g = self.group
        self.ctrl.setup = (setup_source(state, self.ctrl.state) if g is None else
                           SetupSource(tuple(g.waiting(state)), g.transport)
                           if g.waiting(state) else None)
        self.dirty = True
        self._caption()

    def _caption(self) -> None:
        star = "• " if self.history.unsaved else ""
        pygame.display.set_caption(f"{star}tabletop — {self.state.name} — {self.save_path.name}")

    def board_rect(self) -> pygame.Rect:
        """The part of the window the board is drawn in."""
        w, h = self.screen.get_size()
        return pygame.Rect(0, 0, max(w - PANEL_W, 100), max(h - STATUS_H, 100))

    def _fit(self) -> Viewport:
        r = self.board_rect()
        bf = self.history.start.battlefield
        return Viewport.fit(bf.width, bf.depth, (r.x, r.y, r.w, r.h), margin=16)

    def _zone_on_pickup(self, state: GameState, model_id: str) -> Any:
        t0 = time.perf_counter()
        try:
            g = self.group
            if g is not None and (model_id in g.placed or model_id in g.waiting(self.state)):
                z = g.zone(self.state, model_id)
            else:
                z = self.rules.zone(self.state, model_id)
        except UserError as exc:  # no zone for this model now: say why; the drop is still judged
            who = turn.unit_label(self.state, self.state.model(model_id)[0].id)
            self.message = f"{who}: no legal zone for {model_id}: {exc}"
            z = None
        self.zone_seconds.append(time.perf_counter() - t0)
        return z

    def setup_area(self) -> Any:
        """Where the next model waiting to be set up may go (ingress, disembark, an emergency
        disembark), shaded as soon as the unit is selected (kept per state); ``None``."""
        src = self.ctrl.setup
        if src is None or not src.waiting:
            return None
        mid = src.waiting[0]
        key = (Ref(self.state), mid, len(self.group.placed) if self.group is not None else 0)
        if self._setup_area is None or self._setup_area[0] != key:
            geom = None
            with contextlib.suppress(UserError):  # no area now: the pick-up says why
                g = self.group
                zone = (g.zone(self.state, mid) if g is not None else
                        self.rules.zone(self.state, mid))
                geom = getattr(zone, "geometry", None)
            self._setup_area = (key, geom)
        return self._setup_area[1]

    def _unit_zone_on_pickup(self, state: GameState, model_id: str) -> Any:
        """The zone of ``model_id`` with its whole unit moving along (kept per state)."""
        key = (Ref(self.state), model_id)
        if key not in self._unit_zones:
            if any(k[0] != key[0] for k in self._unit_zones):
                self._unit_zones.clear()
            t0 = time.perf_counter()
            try:
                self._unit_zones[key] = self.rules.unit_zone(self.state, model_id)
            except UserError as exc:
                who = turn.unit_label(self.state, self.state.model(model_id)[0].id)
                self.message = f"{who}: no legal zone for {model_id}: {exc}"
                self._unit_zones[key] = None
            self.zone_seconds.append(time.perf_counter() - t0)
        return self._unit_zones[key]

    def warm_one(self) -> bool:
        """Compute one zone ahead of its pick-up while nothing else happens: a model of the
        moving unit whose zone is slow and kept for the state as it stands
        (:meth:`Rules.warm`, a vehicle's or a bike's: 50-700 ms), the one nearest the
        pointer first. Picking that model up then finds it ready; an event that comes in the
        meantime waits for this one zone at most. ``False`` when there was none to do."""
        if self.ctrl.drag is not None or self.group is not None or self.dialog is not None:
            return False
        if self._warm_threats(shown=True):
            return True
        if not self.prefetch:
            return False
        state = self.state
        seen, done = self._warmed
        if seen is not state:
            done = set()
            self._warmed = (state, done)
        slow = self.rules.warm(state)
        todo = [m for m in slow if m not in done]
        whole = [m for m in slow if f"unit:{m}" not in done] if len(slow) > 1 else []
        if not todo and not whole:
            return self._warm_threats(shown=False)
        px, py = self.ctrl.viewport.to_inches(*self.ctrl.pointer)

        def away(mid: str) -> float:
            at = state.model(mid)[1].at
            return math.inf if at is None else math.hypot(at[0] - px, at[1] - py)

        t0 = time.perf_counter()
        if todo:
            mid = min(todo, key=away)
            done.add(mid)
            # a model with no zone now: the pick-up computes it again and says why
            with contextlib.suppress(UserError):
                self.rules.zone(state, mid)
        else:  # then the zones a Shift-drag of the whole unit asks for
            mid = min(whole, key=away)
            done.add(f"unit:{mid}")
            message = self.message
            self._unit_zone_on_pickup(state, mid)
            self._message = message  # a refusal is said at the pick-up, not now
            self.zone_seconds.pop()
        self.warm_seconds.append(time.perf_counter() - t0)
        return True

    # -- actions --------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> Outcome:
        """Apply one action through the rules core; keep it (history and log) if accepted.

        A refused action changes nothing: the models stay where they were staged, the refusal
        is drawn on the board and listed in the panel.
        """
        before = self.state
        try:
            out = self.rules.apply(before, action)
        except UserError as exc:  # a malformed action (the controller built it badly): say so
            self.message = f"{action.get('do')}: {exc}"
            self.dirty = True
            return Outcome(before, False, (str(exc),))
        self.tray += tray_rolls(before, out.events)
        do = action.get("do")
        if out.ok:
            self.history.push(action, out.state, out.events)
            self._logged()
            self.refusal = None
            self.block_marks = []
            if do == "next":
                self.next_choice = {}
            self.message = turn.named(out.state, describe(before, action, out, self.rules))
            if do == "next":
                self.message += _skipped_note(before, out.state)
            sel = out.state.battle.selection
            if do in ("move", "place") and sel is not None:
                ends = self.end_check(sel.unit)
                if ends:
                    self.message += " It may not end there: " + turn.named(
                        out.state, "; ".join(v.message for v in ends))
        else:
            self.refusal_note = ""
            if do == "commit" and out.state.battle.selection is None:
                # the rules put a refused move back; the window keeps it to be fixed
                out = replace(out, reasons=tuple(r for r in out.reasons
                                                 if "goes back to where it started" not in r))
                self.refusal_note = ("The models stay where they were staged: fix the offenders "
                                     "(Backspace over one puts it back alone) and commit again.")
            self.refusal = out
            block = BlockTool.selected(before)
            self.block_marks = (self._block_refusal_marks(before, block)
                                if block is not None and do == "commit" else [])
            self.message = "refused: " + turn.named(before, "; ".join(out.reasons) or str(do))
            if len(out.reasons) > 1 or out.violations:
                self.tab = "refusals"
                self.scroll["refusals"] = 0
        self._show(self.state)
        return out

    def _logged(self) -> None:
        """Write the session's log (after every change: it always replays to the state shown);
        a failure is an alert shown until dismissed (:meth:`Keeper.log`)."""
        self.keeper.log()

    def undo(self) -> None:
        """Take back the last action of the phase (committed units included), never past dice
        rolled: a selection whose roll stands is cancelled through the rules instead."""
        self.ctrl.drag = None
        entry = self.history.undo()
        if entry is not None:
            self.refusal = None
            self._logged()
            self.message = "undone: " + turn.named(entry.before,
                                                   describe_entry(entry.before, entry.actions))
            self._show(self.state)
            return
        top = self.history.blocked_by_roll()
        sel = self.state.battle.selection
        if top is not None and top.action.get("do") == "select" and sel is not None \
                and not sel.staged:
            if self.cancel_selection():
                self.history.barrier = len(self.history.entries)
                self.message += " (undone; its roll stands for a new selection)"
            return
        if top is not None:
            who = turn.unit_label(top.before, str(top.action.get("unit") or
                                                  getattr(top.before.battle.selection, "unit",
                                                          "")))
            self.message = (f"the dice rolled for {who or 'the last step'} stand: nothing before "
                            "them can be undone")
        else:
            self.message = "nothing to undo in this phase"
        self._show(self.state)

    def redo(self) -> None:
        """Apply again the last action taken back."""
        self.ctrl.drag = None
        entry = self.history.redo()
        if entry is None:
            self.message = "nothing to redo"
        else:
            self.refusal = None
            self._logged()
            self.message = "redone: " + turn.named(entry.before,
                                                   describe_entry(entry.before, entry.actions))
        self._show(self.state)

    def commit(self) -> None:
        """Enter: commit the selected unit's move (an emergency disembark: send it), asking
        first when that rolls dice (hazards)."""
        if self.group is None and self.state.battle.selection is None:
            # nothing to commit (an Enter after a dialog closed, say): no refusal to file
            self.message = ("Nothing to commit: click a unit and a move type first; "
                            f"Space: {turn.next_label(self.state)}.")
            self.dirty = True
            return
        action = self.group.action() if self.group is not None else {"do": "commit"}
        if self.dice_first(action, ("commit",)):
            self.apply(action)

    def cancel_selection(self) -> bool:
        """Esc: take back the selection of a unit none of whose models has moved (the rules'
        ``cancel``: the unit is free again, its dice stand for a new selection)."""
        sel = self.state.battle.selection
        if sel is None:
            return False
        if sel.staged:
            self.message = (f"{turn.unit_label(self.state, sel.unit)} has staged moves: R puts "
                            "them back, Ctrl+Z takes back the last one")
            self.dirty = True
            return False
        out = self.apply({"do": "cancel"})
        if out.ok:
            self.message = (f"{turn.unit_label(self.state, sel.unit)}: selection cancelled; "
                            "choose another move type")
        return out.ok

    def _stage_group(self, action: dict[str, Any]) -> bool:
        """A model of the unit being set up at once dropped on the board: keep it there (the
        window's own staging until Enter sends the one action); whether it was that."""
        g = self.group
        if g is None or action.get("do") != "place" or action.get("model") not in (
                *g.waiting(self.state), *g.placed):
            return False
        x, y = action["at"]
        g.placed[str(action["model"])] = (float(x), float(y))
        left = len(g.waiting(self.state))
        self.message = (f"{turn.unit_label(self.state, g.unit)}: {action['model']} placed; "
                        + (f"{left} more to place, then " if left else "")
                        + "Enter sets the unit up")
        self._show(self.state)
        return True

    def put_back(self, model_id: str) -> bool:
        """Backspace over a model of the moving unit: take back its staged moves alone (the
        unit is reset and the other models' moves staged again, as one step of the history)."""
        if self.group is not None and model_id in self.group.placed:
            del self.group.placed[model_id]
            self.message = (f"{turn.unit_label(self.state, self.group.unit)}: {model_id} is "
                            "back in the list")
            self._show(self.state)
            return True
        sel = self.state.battle.selection
        if sel is None or not any(a.get("model") == model_id for a in sel.staged):
            self.message = f"{model_id} has no staged move to take back (only the moving unit's do)"
            self.dirty = True
            return False
        actions: list[dict[str, Any]] = [{"do": "reset"}]
        actions += [dict(a) for a in sel.staged if a.get("model") != model_id]
        state = self.state
        events: list[dict[str, Any]] = []
        for a in actions:
            out = self.rules.apply(state, a)
            if not out.ok:
                self.message = "could not put it back alone: " + "; ".join(out.reasons)
                self.dirty = True
                return False
            state = out.state
            events += out.events
        self.history.push(actions, state, tuple(events))
        self._logged()
        self.refusal = None
        self.message = (f"{turn.unit_label(self.state, sel.unit)}: {model_id} is back where it "
                        "started; the other models stay")
        self._show(self.state)
        return True

    def select(self, unit: str, move: str, mode: str | None = None) -> Outcome | None:
        """Select ``unit`` for ``move``; a unit already selected with nothing staged changes
        its move type (its dice stand: an advance selected again keeps its roll). A selection
        that would roll dice asks first (:meth:`dice_first`); ``None`` while it asks."""
        sel = self.state.battle.selection
        again = sel is not None and sel.unit == unit and not sel.staged and (
            sel.move != move or (mode is not None and sel.mode != mode))
        action: dict[str, Any] = {"do": "select", "unit": unit, "move": move}
        if mode is not None:
            action["mode"] = mode
        for flag in sorted(self.select_flags):
            if any(r.move == move and flag in r.flags for r in self.eligibility(unit)):
                action[flag] = True
        if not self.dice_first(action, ("select", unit, move, mode), cancel_first=again):
            return None
        if again:
            self.cancel_selection()
        out = self.apply(action)
        if out.ok:
            self.select_flags = set()
        return out

    def dice_first(self, action: dict[str, Any], then: tuple[Any, ...], *,
                   cancel_first: bool = False) -> bool:
        """Whether ``action`` may go ahead now: ``False`` when it would roll dice the player
        has not agreed to for that unit and purpose yet, and a dialog asks first (saying what
        is rolled, for whom, and that dice stand); once agreed, ``then`` (what to do again:
        ``("select", unit, move, mode)``, ``("commit",)``, ``("next", confirmed)``) is done.
        Each unit is asked once per purpose (an advance, a Desperate Escape...)."""
        state = self.state
        if cancel_first:
            undone = self.rules.apply(state, {"do": "cancel"})
            state = undone.state if undone.ok else state
        rolls = self.rules.would_roll(state, action)
        new = [(u, w, n) for u, w, n in rolls if (u, w) not in self.dice_agreed]
        if not new:
            return True
        lines = [f"{purpose(w)} for {turn.unit_label(state, u) if u else 'the game'}: {n} "
                 f"{'die' if n == 1 else 'dice'}." for u, w, n in new]
        lines.append("Dice stand once rolled: undo cannot take them back.")
        self.dialog = Dialog("Roll dice?", lines,
                             [Choice("y", "Roll [Enter]", "roll"),
                              Choice("n", "Not now [Esc]", "cancel")],
                             purpose="dice", data={"then": then,
                                                   "agree": tuple((u, w) for u, w, _ in new)})
        self.dirty = True
        return False

    def next_action(self) -> dict[str, Any]:
        """The ``next`` Space sends: with the options chosen in the panel."""
        return {"do": "next", **{k: (list(v) if isinstance(v, list) else v)
                                 for k, v in self.next_choice.items() if v}}

    def next_step(self, *, confirmed: frozenset[str] = frozenset()) -> None:
        """Space: go to the next step, asking first when units have not moved, or when the end
        of the turn would remove models for coherency (saying which and why)."""
        st = self.state
        if st.battle.selection is not None:
            self.apply({"do": "next"})  # the rules say why not
            return
        pending = turn.pending_units(st) if "pending" not in confirmed else []
        if pending:
            names = [turn.unit_label(st, u) for u in pending]
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4
                                             else "")
            self.dialog = Dialog(
                f"{turn.next_label(st)}?",
                [f"{len(pending)} unit{'s have' if len(pending) > 1 else ' has'} not moved: "
                 f"{shown}.", "Ending the step leaves them where they are."],
                [Choice("y", "End the step [Enter]", "yes"),
                 Choice("n", "Keep moving [Esc]", "no")], purpose="next",
                data={"confirmed": confirmed | {"pending"}})
            self.dirty = True
            return
        removals, _ = self.removal_preview()
        if removals and "removal" not in confirmed:
            by: dict[str, list[str]] = {}
            for unit, mid in removals:
                by.setdefault(unit, []).append(mid)
            lines = [f"{turn.unit_label(st, u)} is out of coherency: {', '.join(ms)} will be "
                     "removed." for u, ms in by.items()]
            lines.append("Click models of these units on the board to choose which go instead.")
            self.dialog = Dialog("End of turn: coherency", lines,
                                 [Choice("y", "Remove them [Enter]", "yes"),
                                  Choice("n", "Choose [Esc]", "no")], purpose="next",
                                 data={"confirmed": confirmed | {"removal"}})
            self.dirty = True
            return
        action = self.next_action()
        if self.dice_first(action, ("next", confirmed)):
            self.apply(action)

    def removal_preview(self) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The models the next Space would remove for coherency (with the models chosen), and
        why it would be refused (cached per state and choice)."""
        pre = self.step_preview()
        if not pre.removals:
            return (), ()
        key = (Ref(self.state), json.dumps(self.next_choice, sort_keys=True))
        if self._removals is None or self._removals[0] != key:
            self._removals = (key, self.rules.next_removals(self.state, self.next_action()))
        return self._removals[1]

    def toggle_removal(self, model_id: str) -> bool:
        """A click on a model of a unit the end of the turn shrinks: choose it (or not) to be
        removed; ``False`` when the click is not about that."""
        pre = self.step_preview()
        field = pre.remove_field
        units = {u for u, _ in pre.removals}
        if field is None or not units:
            return False
        try:
            unit = self.state.model(model_id)[0].id
        except KeyError:
            return False
        if unit not in units:
            return False
        chosen = list(self.next_choice.get(field) or [])
        if model_id in chosen:
            chosen.remove(model_id)
        else:
            chosen.append(model_id)
        self.next_choice[field] = chosen
        removals, reasons = self.removal_preview()
        self.message = ("will be removed at the end of the turn: "
                        + ", ".join(m for _, m in removals) + (
                            f" (refused: {'; '.join(reasons)})" if reasons else ""))
        self.dirty = True
        return True

    def save(self, path: Path | None = None, *, replace: bool = False) -> Path | None:
        """Write the game as a scenario file (atomically) at ``path`` or :attr:`save_path`;
        ``None`` when it was not written: it failed (the status line and an alert say why)
        or the file there is not one this window wrote (a dialog asks: replace it, save
        beside it, or cancel)."""
        out = self.keeper.save(path, replace=replace)
        self.dirty = True
        if out.kind == "ask":
            self._ask_replace(out.path)
            return None
        if out.kind == "failed":
            self.message = out.problem
            self._after_save = None
            return None
        log = f" (log: {self.log_path.name})" if self.log_path is not None else ""
        self.message = f"saved {out.path}{log}"
        self._caption()
        if self._after_save == "quit":
            self.running = False
        self._after_save = None
        return out.path

    def _ask_replace(self, path: Path) -> None:
        """Ctrl+S onto a file this window did not write: replace it, save beside it, cancel."""
        other = beside(path)
        self.dialog = Dialog("Replace a file this window did not write?",
                             [self.keeper.needs_asking(path) + ".",
                              f"Replacing it loses what it holds; saving beside it keeps both "
                              f"(this game goes on saving to {other.name})."],
                             [Choice("b", f"Save beside it as {other.name} [Enter]", "beside"),
                              Choice("r", "Replace it [R]", "replace"),
                              Choice("n", "Cancel [Esc]", "cancel")],
                             purpose="replace-save", data={"path": str(path),
                                                           "beside": str(other)})
        self.dirty = True

    def watch_save(self) -> None:
        """Notice a save of this window changed by another process (another window's Ctrl+S):
        the game is then unsaved, and an alert says so until dismissed."""
        if self.keeper.watch():
            self._caption()
            self.dirty = True

    def ask_save_as(self) -> None:
        """Ctrl+Shift+S: ask for a file name, then save there (and there on from then)."""
        self.dialog = Dialog("Save as", ["A scenario file name (.toml or .json):"],
                             [Choice("", "Save [Enter]", "save"),
                              Choice("", "Cancel [Esc]", "cancel")],
                             text=str(self.save_path), purpose="save-as")
        self.dirty = True

    def _save_as_answer(self, text: str, *, overwrite: bool = False) -> None:
        path = Path(os.path.expanduser(text.strip()))
        problem = ""
        if not text.strip():
            problem = "write a file name"
        elif path.suffix.lower() not in (".toml", ".json"):
            problem = f"{path.name}: the name must end in .toml or .json"
        elif not path.parent.is_dir():
            problem = f"no folder {path.parent}"
        elif path.is_dir():
            problem = f"{path} is a folder"
        if problem:
            self.dialog = Dialog("Save as", ["A scenario file name (.toml or .json):"],
                                 [Choice("", "Save [Enter]", "save"),
                                  Choice("", "Cancel [Esc]", "cancel")],
                                 text=text, error=problem, purpose="save-as")
            return
        if os.path.lexists(path) and not overwrite and not self.keeper.files.ours(path):
            self.dialog = Dialog("Replace the file?", [
                self.keeper.needs_asking(path) or f"{path} exists."],
                                 [Choice("y", "Replace [Enter]", "replace"),
                                  Choice("n", "Cancel [Esc]", "cancel")],
                                 purpose="overwrite", data={"path": str(path)})
            return
        self.dialog = None
        self.save(path, replace=True)

    def quit(self) -> None:
        """Ctrl+Q or closing the window: ask first when the game has unsaved changes."""
        if not self.history.unsaved:
            self.running = False
            return
        self.dialog = Dialog("Quit with unsaved changes?",
                             [f"The game has changed since it was last saved to "
                              f"{self.save_path.name}."],
                             [Choice("s", "Save and quit [Enter]", "save"),
                              Choice("d", "Quit without saving [D]", "discard"),
                              Choice("n", "Keep playing [Esc]", "cancel")], purpose="quit")
        self.dirty = True

    def _answer(self, value: str) -> None:
        """The open dialog was answered with ``value``."""
        d = self.dialog
        assert d is not None
        self.dialog = None
        self._full = True
        self.dirty = True
        if d.purpose == "next" and value == "yes":
            confirmed = d.data.get("confirmed", frozenset())
            assert isinstance(confirmed, frozenset)
            self.next_step(confirmed=confirmed)
        elif d.purpose == "quit":
            if value == "save":
                self._after_save = "quit"
                self.save()  # quits once written (after asking, if it must ask)
            elif value == "discard":
                self.running = False
        elif d.purpose == "dice":
            if value == "roll":
                agreed = d.data.get("agree", ())
                assert isinstance(agreed, tuple)
                self.dice_agreed.update(agreed)
                then = d.data["then"]
                assert isinstance(then, tuple)
                if then[0] == "select":
                    self.select(*then[1:])
                elif then[0] == "commit":
                    self.commit()
                elif then[0] == "next":
                    self.next_step(confirmed=then[1])
            else:
                self.message = "no dice rolled"
        elif d.purpose == "replace-save":
            if value in ("beside", "replace"):
                self.save(Path(str(d.data[value if value == "beside" else "path"])),
                          replace=True)
            else:
                self._after_save = None
                self.message = "not saved"
        elif d.purpose == "save-as" and value == "save":
            self._save_as_answer(d.text or "")
        elif d.purpose == "overwrite" and value == "replace":
            self._save_as_answer(str(d.data["path"]), overwrite=True)

    def toggle_threat(self) -> None:
        """T: show (or hide) where the focused unit could charge next turn."""
        unit = self.ctrl.focus
        lay = self.threats
        if lay.threat_unit is not None and (unit is None or unit == lay.threat_unit):
            lay.threat_unit, lay.threat = None, None
            self.message = "threat range hidden"
        elif unit is None:
            self.message = "click a unit first, then T shows where it could charge next turn"
        else:
            t0 = time.perf_counter()
            try:
                th = self.rules.threat(self.state, unit)
            except UserError as exc:
                self.message = f"{turn.unit_label(self.state, unit)}: {exc}"
                self.dirty = True
                return
            lay.threat_unit, lay.threat, lay.threat_state = unit, th, self.state
            name = turn.unit_label(self.state, unit)
            took = f"({time.perf_counter() - t0:.2f} s)"
            if th.charges:
                self.message = (f"threat of {name}: where a model alone is charged after its "
                                f"normal move, each roll from 3+ (red, 97%) to 12 (yellow, 3%); "
                                f"the Charge phase is not simulated {took}")
            else:
                self.message = f"threat of {name}: {th.move} zone only: {th.reason} {took}"
        self.dirty = True

    def _warm_threats(self, *, shown: bool) -> bool:
        """While idle: with ``shown``, the threat and safe ground shown, again for the board as
        it stands (a model moved: until then the legend says they are being updated); else the
        threat of the focused unit (not the one moving), so that T finds it ready. ``False``
        when there was nothing to do."""
        lay = self.threats
        st = self.state
        if not shown:
            if time.monotonic() - self._input_at < THREAT_AHEAD_AFTER_S:
                return False  # the person is about to act: they would wait for it
            focus = self.ctrl.focus
            if focus is None or focus == lay.threat_unit or focus == self.ctrl.selection_unit \
                    or (focus, st) == lay.warmed:
                return False
            lay.warmed = (focus, st)
            try:
                th = self.rules.threat(st, focus)  # kept by the ruleset's tool for this board
            except (UserError, KeyError):
                return True
            # and drawn, as T would draw it now
            self._threat_sprites(ThreatLayer(threat_unit=focus, threat=th, safe=lay.safe,
                                             safe_unit=lay.safe_unit, odds=lay.odds))
            return True
        if lay.threat_unit is not None and lay.threat_state is not st:
            try:
                lay.threat = self.rules.threat(st, lay.threat_unit)
            except (UserError, KeyError):
                lay.threat_unit, lay.threat = None, None
            lay.threat_state = st
            self.dirty = True
            return True
        if lay.safe_unit is not None and lay.safe_state is not st:
            self._compute_safe()
            self.dirty = True
            return True
        return False

    def toggle_safe(self, *, odds: int = 0, objective: bool = False) -> None:
        """O: show (or hide) where the focused unit may end its move out of every enemy
        charge; - and = change the odds, Shift+O the objective it must stay near."""
        lay = self.threats
        unit = self.ctrl.focus or self.ctrl.selection_unit
        if not (odds or objective):
            if lay.safe_unit is not None and (unit is None or unit == lay.safe_unit):
                lay.safe_unit, lay.safe = None, None
                self.message = "safe ground hidden"
                self.dirty = True
                return
            if unit is None:
                self.message = "click a unit first, then O shows where it may end its move " \
                               "out of every enemy charge"
                self.dirty = True
                return
            lay.safe_unit = unit
        elif lay.safe_unit is None:
            self.message = "O first shows safe ground; then - and = change the odds"
            self.dirty = True
            return
        if odds:
            lay.change_odds(odds)
        if objective:
            lay.next_objective(len(self.state.objectives))
        self._compute_safe()
        self.dirty = True

    def _compute_safe(self) -> None:
        lay = self.threats
        if lay.safe_unit is None:
            return
        st = self.state
        sel = st.battle.selection
        move, roll = ("normal", None)
        if sel is not None and sel.unit == lay.safe_unit and sel.move in ("normal", "advance",
                                                                            "fall-back"):
            move, roll = sel.move, sel.roll
        t0 = time.perf_counter()
        try:
            lay.safe = self.rules.safe(st, lay.safe_unit, move, lay.odds, roll=roll,
                                       objective=lay.objective)
        except UserError as exc:
            lay.safe_unit, lay.safe = None, None
            self.message = str(exc)
            return
        lay.safe_state = st
        sg = lay.safe
        near = f", near objective {lay.objective}" if lay.objective else ""
        self.message = (f"safe ground of {turn.unit_label(st, lay.safe_unit)} ({move} move"
                        f"{near}): green is {lay.odds.text()}; {len(sg.counted)} enemy units "
                        f"counted, {len(sg.skipped)} not; - / = odds, Shift+O objective "
                        f"({time.perf_counter() - t0:.2f} s)")

    def _block_refusal_marks(self, state: GameState, block: Block) -> list[render.Mark]:
        """The block outlined where its move was refused, with a line to everything within 1"."""
        geom = self.rules.block_geom(block)
        marks = [render.Mark(outlines=(geom.polygon,))]
        for n in near_obstacles(geom.polygon, self.rules.block_obstacles(state, block.id)):
            marks.append(render.Mark(label=f'{n.distance:.2f}" ≤ 1"',
                                     geometry=LineString([n.a, n.b])))
        return marks

    def screenshot(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """Save the window's current picture as a PNG (``None``, and the status line says why,
        when it cannot be written: a read-only or vanished folder, a full disk)."""
        target = Path(path) if path is not None else self.save_path.with_name(
            f"{self.save_path.stem}-screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png")
        if self.dirty:
            self.draw()
        try:
            render.save_png(self.screen, target)
        except UserError as exc:
            self.message = f"could not save the screenshot: {exc}"
            self.keeper.failed("screenshot", self.message)
            self.dirty = True
            return None
        self.keeper.succeeded("screenshot")
        self.message = f"screenshot {target}"
        self.dirty = True
        return target

    def do_intents(self, intents: list[Intent]) -> None:
        """Carry out what the controller asked for."""
        for it in intents:
            k = it.kind
            if k == "actions":
                for act in it.data["actions"]:
                    if self._stage_group(act):
                        continue
                    out = self.apply(act)
                    if not out.ok and it.data.get("stop_on_refusal"):
                        break
            elif k == "select":
                self.select(it.data["unit"], it.data["move"], it.data.get("mode"))
            elif k == "commit":
                self.commit()
            elif k == "next":
                self.next_step()
            elif k == "cancel":
                self.cancel_selection()
            elif k == "put-back":
                self.put_back(it.data["model"])
            elif k == "undo":
                self.undo()
            elif k == "redo":
                self.redo()
            elif k == "focus":
                self.select_flags = set()
                self.message = unit_line(self.state, it.data["unit"],
                                         self.eligibility(it.data["unit"]))
            elif k == "save":
                self.save()
            elif k == "save-as":
                self.ask_save_as()
            elif k == "screenshot":
                self.screenshot()
            elif k == "quit":
                self.quit()
            elif k == "fit":
                self.ctrl.viewport = self._fit()
            elif k == "threat":
                self.toggle_threat()
            elif k == "safe":
                self.toggle_safe()
            elif k == "safe-odds":
                self.toggle_safe(odds=int(it.data["step"]))
            elif k == "safe-objective":
                self.toggle_safe(objective=True)
            elif k == "toggle":
                what = it.data["what"]
                setattr(self, what, not getattr(self, what))
                self._full = True
        self.dirty = True

    # -- events ---------------------------------------------------------------------------
    def handle(self, e: pygame.event.Event) -> None:
        """Handle one pygame event (marking the window for a redraw when it changes it)."""
        c = self.ctrl
        if e.type in _INPUT:
            self._input_at = time.monotonic()
        if e.type == pygame.QUIT:
            self.quit()
        elif e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            c.viewport = self._fit()
            self._full = self.dirty = True
        elif e.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                        pygame.WINDOWFOCUSGAINED, pygame.VIDEOEXPOSE):
            self._full = self.dirty = True
            if e.type == pygame.WINDOWFOCUSGAINED:
                self.watch_save()
        elif self.dialog is not None:
            self._dialog_event(e)
        elif e.type == pygame.MOUSEBUTTONDOWN:
            self.dirty = True
            if e.button in (4, 5):
                return
            hit = next((i for r, i in self._alert_rects if r.collidepoint(e.pos)), None)
            if hit is not None and e.button == 1:
                self.keeper.dismiss(hit)
                return
            mods = getattr(e, "mod", None)
            if mods is None:
                mods = pygame.key.get_mods()
            if e.button == 1 and c.drag is None and not c.ruler_on and \
                    self.board_rect().collidepoint(e.pos):
                mid = c.model_at(*c.viewport.to_inches(*e.pos))
                if mid is not None and self.toggle_removal(mid):
                    return
            if self.board_rect().collidepoint(e.pos) or c.drag is not None:
                self.do_intents(c.pointer_down(e.pos, e.button,
                                               shift=bool(mods & pygame.KMOD_SHIFT),
                                               ctrl=bool(mods & pygame.KMOD_CTRL)))
            elif e.button == 1:
                self._panel_click(e.pos)
        elif e.type == pygame.MOUSEMOTION:
            before = (c.hover, c.hover_block, c.blocks.hover if c.blocks else None)
            moved = c.pointer_move(e.pos)
            if moved:
                self.do_intents(moved)
            after = (c.hover, c.hover_block, c.blocks.hover if c.blocks else None)
            over = next((i for i, (r, _) in enumerate(self._mark_labels.summaries)
                         if r.collidepoint(e.pos)), None)
            if over != self._hovered_summary:
                self._hovered_summary = over
                self.dirty = True
            busy = (c.drag is not None or c.pan_from is not None or c.box is not None
                    or (c.ruler is not None and c._ruler_down)
                    or (c.blocks is not None and c.blocks.drag is not None))
            if busy or before != after or c.hover is not None or c.hover_block is not None:
                self.dirty = True
        elif e.type == pygame.MOUSEBUTTONUP:
            if e.button in (4, 5):
                return
            d = c.drag
            self.do_intents(c.pointer_up(e.pos, e.button))
            if d is not None and d.whole_unit and not self.message.startswith("refused"):
                self.message = unit_drop_note(self.ctrl.state, d)
        elif e.type == pygame.MOUSEWHEEL:
            pos = c.pointer  # where the last pointer event was
            if self.board_rect().collidepoint(pos):
                c.wheel(pos, e.y)
            else:
                region = (self.tab if self.list_area.collidepoint(pos) else
                          "unit" if self.unit_area.collidepoint(pos) else None)
                if region is not None:
                    top = self.scroll_max.get(region, 0)
                    self.scroll[region] = min(max(self.scroll.get(region, 0)
                                                  - e.y * _SCROLL_STEP, 0), top)
            self.dirty = True
        elif e.type == pygame.KEYDOWN:
            mods = int(getattr(e, "mod", 0))
            name = pygame.key.name(e.key)
            self.do_intents(c.key(name, ctrl=bool(mods & pygame.KMOD_CTRL),
                                  shift=bool(mods & pygame.KMOD_SHIFT)))
            if c.blocks is not None and c.blocks.note:  # what a key did not do, and why
                self.message, c.blocks.note = c.blocks.note, ""

    def _dialog_event(self, e: pygame.event.Event) -> None:
        d = self.dialog
        assert d is not None
        value = None
        if e.type == pygame.KEYDOWN:
            mods = int(getattr(e, "mod", 0))
            value = d.key(pygame.key.name(e.key), unicode=getattr(e, "unicode", ""),
                          ctrl=bool(mods & pygame.KMOD_CTRL))
            self.dirty = True
        elif e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            for rect, v in self._dialog_buttons:
                if rect.collidepoint(e.pos):
                    value = v
        if value is not None:
            self._answer(value)

    def _panel_click(self, pos: tuple[int, int]) -> None:
        for row in self.rows:
            if not row.rect.collidepoint(pos):
                continue
            if row.kind in ("move", "mode"):
                unit = self.ctrl.focus or self.ctrl.selection_unit
                if unit is None:
                    return
                if not row.enabled:
                    self.message = self._not_now(unit, row)
                    return
                self.select(unit, row.value, (row.data or {}).get("mode"))
            elif row.kind == "next":
                self.next_step()
            elif row.kind == "place":
                self.ctrl.begin_placement(row.value, pos)
            elif row.kind == "placed":
                # its row stays where it was: a press there gives the next model to place
                src = self.ctrl.setup
                if src is not None and src.waiting:
                    self.ctrl.begin_placement(src.waiting[0], pos)
                    self.message = (f"placing {src.waiting[0]} ({row.value} is placed: drag it "
                                    "on the board to move it, Backspace over it takes it back)")
            elif row.kind == "unit":
                self.ctrl.focus = row.value
                self.message = unit_line(self.state, row.value, self.eligibility(row.value))
            elif row.kind == "tab":
                self.tab = row.value
            elif row.kind == "select-flag":
                self.select_flags ^= {row.value}
            elif row.kind == "next-choice" and row.enabled:
                name = str((row.data or {})["field"])
                if self.next_choice.get(name) == row.value:
                    del self.next_choice[name]
                else:
                    self.next_choice[name] = row.value
            return

    def _not_now(self, unit: str, row: Row) -> str:
        """Why a greyed move type (or mode) of the panel may not be chosen now."""
        title = turn.move_title(self.state, row.value)
        mode = (row.data or {}).get("mode")
        why = next((e.reason for e in self.eligibility(unit) if e.move == row.value), "")
        if mode:
            title = turn.moving_title(self.state, row.value, mode)
            why = next((w for e in self.eligibility(unit) if e.move == row.value
                        for m, ok, w in e.modes if m == mode), why)
        return turn.named(self.state, f"{turn.unit_label(self.state, unit)}: not now: {title}"
                          + (f" ({why})" if why else ""))

    def step(self, *, wait: bool = False) -> bool:
        """Handle pending events and draw a frame if anything changed; ``False`` once the
        window should close. With ``wait``, sleep until an event comes (at most
        :data:`WAIT_MS`) when there is none."""
        events = pygame.event.get()
        if not events and wait and not self.dirty and self.warm_one():
            return self.running  # one zone ahead; then the events that came meanwhile
        if not events and wait and not self.dirty:
            e = pygame.event.wait(WAIT_MS)
            events = [e] if e.type != pygame.NOEVENT else []
            events += pygame.event.get()
            if not events and time.monotonic() - self._watched >= WATCH_S:
                self.idle_checks()
        for e in events:
            self.handle(e)
        if self.dirty and self.running:
            t0 = time.perf_counter()
            rects = self.draw()
            if rects is None:
                pygame.display.flip()
            elif rects:
                pygame.display.update(rects)
            self.frame_times.append(time.perf_counter() - t0)
            if len(self.frame_times) > 600:
                del self.frame_times[:300]
        return self.running

    def idle_checks(self) -> None:
        """What the idle window looks at now and then: whether another process changed its
        save, and (after a failed write) whether the action log can be written now."""
        self._watched = time.monotonic()
        self.watch_save()
        if "log" in self.keeper.failures and self.keeper.log():
            self.message = f"the action log is written again: {self.log_path}"
            self.dirty = True

    def run(self) -> int:
        """The loop, until the window is closed: idle while nothing happens. Stopped by a
        signal, it says in one line on stderr where the session's actions are."""
        while self.step(wait=True):
            pass
        pygame.display.quit()
        if self.stopped_by is not None:
            print(self.stop_note(), file=sys.stderr)
        return 0

    def stop(self, signal_name: str) -> None:
        """Stop the loop at once (a signal: nobody is there to answer a dialog)."""
        self.stopped_by = signal_name
        self.running = False

    def stop_note(self) -> str:
        """The line said when a signal stopped the window: where the session's actions are and
        how to replay them (the actions themselves when the log lacks some), or that nothing
        was left unsaved; and every write that failed (:meth:`Keeper.stop_note`)."""
        self.watch_save()
        head = f"tabletop play: stopped by {self.stopped_by or 'a signal'}"
        staged = (f"; the {len(self.group.placed)} model(s) placed for "
                  f"{turn.unit_label(self.state, self.group.unit)}'s emergency disembark "
                  "were not sent yet") if self.group is not None and self.group.placed else ""
        return self.keeper.stop_note(head, staged)

    # -- drawing --------------------------------------------------------------------------
    def _cached(self, name: str, key: Any, make: Callable[[], Any]) -> Any:
        hit = self._cache.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
        value = make()
        self._cache[name] = (key, value)
        return value

    def draw(self) -> list[pygame.Rect] | None:
        """Draw what changed; the rectangles of the screen to update (``None``: all of it)."""
        self.dirty = False
        self.frames += 1
        screen = self.screen
        board = self.board_rect()
        base = self._base()
        full = (self._full or not self.partial or base is not self._shown_base
                or self.dialog is not None or self.help)
        screen.set_clip(board)
        if full:
            screen.blit(base, (0, 0))
        else:
            for r in self._overlay_rects:
                screen.blit(base, r, r)
        cur = [r.clip(board) for r in self._overlays()]
        screen.set_clip(None)
        dirty = self._blit_panel(full) + self._draw_status(full)
        if self.help:
            self._draw_help()
        if self.dialog is not None:
            self._dialog_buttons = draw_dialog(screen, self.dialog, screen.get_rect())
        shown_before = self._overlay_rects
        self._overlay_rects = [r for r in cur if r.w > 0 and r.h > 0]
        self._shown_base = base
        if full:
            self._full = False
            return None
        return _merge([*shown_before, *self._overlay_rects, *dirty])

    def _base(self) -> pygame.Surface:
        """The board without what moves with the pointer: cached until the state or the view
        changes (a pick-up, a drop, a zoom)."""
        screen = self.screen
        c = self.ctrl
        vp = c.viewport
        size = screen.get_size()
        st = c.state
        drag = c.drag
        hidden = frozenset(mid for mid, s in drag.starts.items() if s is not None
                           ) if drag is not None else frozenset()
        marks = self._marks()
        outlined = frozenset(m for mark in marks if not mark.outlines for m in mark.models)
        focus = c.focus or c.selection_unit
        bt = c.blocks
        bdrag = bt.drag if bt is not None else None
        lay = self.threats
        chosen = frozenset(m for v in self.next_choice.values() if isinstance(v, list)
                           for m in v)
        setup = self.setup_area() if drag is None else None
        key = (vp, size, self.grid, Ref(st), hidden, focus, outlined, frozenset(c.picked),
               chosen, self.engagement, Ref(lay.threat), Ref(lay.safe), Ref(drag), Ref(bdrag),
               Ref(self.refusal), len(self.block_marks), Ref(setup))
        hit = self._cache.get("base")
        if hit is not None and hit[0] == key:
            return hit[1]  # type: ignore[no-any-return]

        def make_static() -> pygame.Surface:
            s = pygame.Surface(size)
            render.draw_static(s, st, vp, grid=self.grid)
            return s.convert() if pygame.display.get_surface() is not None else s

        static = self._cached("static", (vp, size, self.grid, Ref(st.terrain)), make_static)
        base = static.copy()
        board = self.board_rect()
        badges = {u.id: [(m.code, m.tone) for m in markers(st, u)] for u in st.units}
        for sprite in self._threat_sprites(lay):  # threat rings, safe ground: under the models
            self._blit_sprite(base, sprite)
        # the refusal's labels first (they matter most), off the moving unit's models; the
        # unit labels then keep off them too
        bounds = (board.x, board.y, board.w, board.h)
        moving = render.model_boxes(st, vp, units=[c.selection_unit] if c.selection_unit
                                    else [], hidden=hidden)
        self._mark_labels = layout_marks(st, vp, marks, bounds, moving,
                                         soft=render.model_boxes(st, vp, hidden=hidden))
        self._unit_labels = render.draw_models(
            base, st, vp, hidden=hidden, selected_unit=focus, outlined=outlined, badges=badges,
            picked=frozenset(c.picked) | chosen, label_bounds=board,
            taken=[p.box for _, p in self._mark_labels.placed] + self._handle_boxes(vp))
        if self.engagement:
            enemy = self._enemy_of(focus)
            if enemy is not None:
                col = render.shade(render.player_colour(st, enemy), 1.4)
                self._blit_sprite(base, render.zone_sprite(
                    render.engagement_geometry(st, enemy), vp, board, fill=(*col, 36), edge=col))
        lines, rolls = lay.legend(st)
        if lines:
            width = min(board.w - 40, LEGEND_W)
            lines = [w for t in lines for w in render.wrap_text(t, width)]
            draw_legend(base, legend_corner(st, vp, board, lines, rolls, lay.shaded()), lines,
                        rolls)
        if setup is not None:  # where the models waiting to be set up may go, before a drag
            self._blit_sprite(base, render.zone_sprite(setup, vp, board,
                                                       fill=render.SETUP_FILL))
        if drag is not None:
            zone = drag.zones.get(drag.anchor)
            geom = getattr(zone, "geometry", None)
            fill = render.SETUP_FILL if drag.placing else render.ZONE_FILL
            self._blit_sprite(base, render.zone_sprite(geom, vp, board, fill=fill))
            for mid, start in drag.starts.items():
                if start is not None:
                    pts = render.base_outline_px(vp, drag.bases[mid], start, drag.facings[mid])
                    pygame.draw.aalines(base, (230, 230, 230), True, pts)
        if bdrag is not None and bdrag.handle not in ("rotate", "files"):
            self._blit_sprite(base, render.zone_sprite(bdrag.range_area, vp, board,
                                                       fill=render.ZONE_FILL, edge=None))
            for g in bdrag.limit_ghosts:
                blockpaint.draw_block_limit(base, vp, g)
        for m in marks:
            render.draw_mark(base, st, vp, m, label=False)
        draw_placed(base, self._mark_labels.placed)
        self._cache["base"] = (key, base)
        return base

    def _threat_sprites(self, lay: ThreatLayer) -> list[tuple[pygame.Surface, tuple[int, int]]
                                                      | None]:
        """What ``lay`` shades, drawn for the board as it is on screen now (kept for the
        answers and the view: a drag or a hover does not draw it again)."""
        vp, board = self.ctrl.viewport, self.board_rect()
        key = (vp, self.screen.get_size(), Ref(lay.threat), Ref(lay.safe))
        return self._cached("threat", key, lambda: [
            render.zone_sprite(sh.geometry, vp, board, fill=sh.fill, edge=sh.edge)
            for sh in lay.shades(self.state)])  # type: ignore[no-any-return]

    @staticmethod
    def _blit_sprite(surface: pygame.Surface,
                     sprite: tuple[pygame.Surface, tuple[int, int]] | None) -> None:
        if sprite is not None:
            surface.blit(*sprite)

    def _overlays(self) -> list[pygame.Rect]:
        """What moves with the pointer, drawn on the screen; the rects touched."""
        screen = self.screen
        c = self.ctrl
        vp = c.viewport
        st = c.state
        drag = c.drag
        rects: list[pygame.Rect] = []
        ov = render.Overlays()
        if drag is not None:
            pidx = self._player_index(st.model(drag.anchor)[0].player)
            ov.ghosts = [render.Ghost(base, at, facing, pidx, legal)
                         for _, base, at, facing, legal in ghost_models(drag)]
            if len(drag.path) >= 2:
                used = self.rules.used(st, drag.anchor)
                ov.path = render.PathOverlay(drag.path, used + drag.length, drag.cap)
        if c.ruler is not None:
            ov.ruler = (c.ruler.a, c.ruler.b, c.ruler.label)
        if ov.path is not None or ov.ruler is not None:  # their labels: off the moving unit
            board = self.board_rect()
            ov.label_bounds = (board.x, board.y, board.w, board.h)
            unit = c.selection_unit
            hidden = frozenset(drag.ghosts) if drag is not None else frozenset()
            ov.label_avoid = render.model_boxes(st, vp, units=[unit] if unit else [],
                                                hidden=hidden)
            ov.label_avoid += [(x - r, y - r, 2 * r, 2 * r) for g in ov.ghosts
                               for (x, y), r in [(vp.to_px(*g.at), vp.length(g.base.radius))]]
            ov.label_avoid += self._unit_labels
        rects += render.draw_overlays(screen, st, vp, ov, zone=False)
        if c.box is not None:
            (ax, ay), (bx, by) = (vp.to_px(*c.box[0]), vp.to_px(*c.box[1]))
            r = pygame.Rect(min(ax, bx), min(ay, by), abs(bx - ax) + 1, abs(by - ay) + 1)
            rects.append(pygame.draw.rect(screen, render.PICKED, r, 1))
        rects += self._draw_block_tool(vp)
        if self._hovered_summary is not None:
            summaries = self._mark_labels.summaries
            if self._hovered_summary < len(summaries):
                rect, group = summaries[self._hovered_summary]
                board = self.board_rect()
                avoid = render.model_boxes(st, vp, units=[c.selection_unit]
                                           if c.selection_unit else [])
                rects.append(draw_placed(screen, expanded(
                    group, (board.x, board.y, board.w, board.h),
                    [*avoid, (rect.x, rect.y, rect.w, rect.h)])))
        self._alert_rects = draw_alerts(screen, self.keeper.alerts, self.board_rect())
        rects += [r for r, _ in self._alert_rects]
        if c.hover and drag is None and not c.ruler_on:  # never over the ruler's reading
            rects.append(self._draw_hover(c.hover))
        elif c.hover_block and drag is None and (c.blocks is None or c.blocks.drag is None):
            rects.append(self._draw_block_hover(c.hover_block))
        return rects

    def refusal_groups(self) -> list[tuple[str, list[str]]]:
        """The last refusal's reasons grouped by rule (the panel's Refusals tab)."""
        if self.refusal is None:
            return []
        return group_refusals(self.refusal.reasons, self.refusal.violations)

    def _marks(self) -> list[render.Mark]:
        marks: list[render.Mark] = []
        if self.refusal is not None:
            for v in self.refusal.violations:
                marks.append(mark_of(v))
            marks += self.block_marks
        unit = self.ctrl.selection_unit
        if unit is not None and self.state.battle.selection is not None:
            marks += [mark_of(v) for v in self.coherency(unit)]
            if self.refusal is None or not self.refusal.violations:
                marks += [mark_of(v) for v in self.end_check(unit)]
        removals, _ = self.removal_preview()
        for u in dict.fromkeys(u for u, _ in removals):
            marks += [mark_of(v) for v in self.coherency(u)]
        if removals:
            marks.append(render.Mark(models=tuple(m for _, m in removals)))
        return marks

    def _draw_block_tool(self, vp: Any) -> list[pygame.Rect]:
        """The selected block's handles, or the manoeuvre being dragged: the ghost, the path,
        the 1" rule, the figures (the legal range and its ends are on the base layer)."""
        bt = self.ctrl.blocks
        if bt is None:
            return []
        st = self.ctrl.state
        block = bt.selected(st)
        if block is None:
            return []
        screen = self.screen
        col = render.player_colour(st, block.player)
        d = bt.drag
        edit = bt.reform_edit(st)
        rects: list[pygame.Rect] = []
        if d is not None and d.handle not in ("rotate", "files"):
            if d.arc:
                rects.append(blockpaint.draw_polyline(screen, vp, d.arc))
            if d.action is not None and d.action["do"] == "wheel":
                pv = vp.to_px(*d.geom.wheel_pivot(float(d.action["angle"])))
                rects.append(pygame.draw.circle(screen, (0, 0, 0), pv, 6))
                pygame.draw.circle(screen, (255, 255, 255), pv, 4)
            if d.ghost is not None and d.action is not None:
                rects.append(blockpaint.draw_block_ghost(screen, vp, d.ghost, col,
                                                     edge=_verdict_colour(d.ok, d.end_reasons)))
                rects.append(blockpaint.draw_near(screen, vp, d.near))
            over = d.cap is not None and d.displacement > d.cap + 1e-6
            rects.append(self._block_label(vp, d.ghost or d.geom, d.label, d.clamped,
                                           bad=not d.ok or over))
            return rects
        geom = self.rules.block_geom(block)
        if edit is not None and edit.ghost is not None:
            rects.append(blockpaint.draw_block_ghost(screen, vp, edit.ghost, col,
                                                 edge=_verdict_colour(edit.ok,
                                                                      edit.end_reasons)))
            rects.append(blockpaint.draw_near(screen, vp, edit.near))
            rects.append(self._block_label(vp, edit.ghost, edit.label, False, bad=not edit.ok))
            geom = edit.ghost
        rects.append(blockpaint.draw_block_handles(screen, vp, geom, handle_points(geom, vp.scale),
                                               move=bt.can_move(st) and edit is None,
                                               reform=bt.can_reform(st), hover=bt.hover))
        return rects

    def _handle_boxes(self, vp: Any) -> list[tuple[float, float, float, float]]:
        """The screen boxes of the selected block's handles (what a player grabs: no label
        sits on them)."""
        bt = self.ctrl.blocks
        block = bt.selected(self.ctrl.state) if bt is not None else None
        if block is None:
            return []
        geom = self.rules.block_geom(block)
        return [(px - 12, py - 12, 24, 24) for px, py in
                (vp.to_px(*q) for q in handle_points(geom, vp.scale).values())]

    def _block_label(self, vp: Any, geom: Any, label: str, clamped: bool, *,
                     bad: bool) -> pygame.Rect:
        """The live figures of a manoeuvre by its ghost (why it is not legal goes in the status
        line), placed inside the board, off the block and its handles, a leader line to it when
        moved off its first place."""
        if not label:
            return pygame.Rect(0, 0, 0, 0)
        text = label + ("  (limit)" if clamped else "")
        p = self.block_label_place(vp, geom, text)
        x, y, w, h = p.box
        rects = [draw_placed_leader(self.screen, p)] if p.leader else []
        rects.append(render.text(self.screen, text, (x + w / 2, y + h - 2), size=15, bold=True,
                                 colour=(255, 120, 120) if bad else render.TEXT,
                                 anchor="midbottom", box=(0, 0, 0, 200)).inflate(10, 4))
        return render.union_rects(rects)

    def block_label_place(self, vp: Any, geom: Any, text: str) -> Placed:
        """Where a block's readout ``text`` goes: above the block when there is room, inside
        the board, off the block, its handles, the other blocks and the unit labels."""
        minx, miny, maxx, maxy = geom.polygon.bounds
        board = self.board_rect()
        f = render.font(15, bold=True)
        w, h = f.size(text)[0] + 10, f.get_height() + 4
        (x0, y0), (x1, y1) = vp.to_px(minx, miny), vp.to_px(maxx, maxy)
        avoid = [(x0, y0, x1 - x0, y1 - y0)]
        avoid += [(px - 12, py - 12, 24, 24) for px, py in
                  (vp.to_px(*q) for q in handle_points(geom, vp.scale).values())]
        avoid += self._handle_boxes(vp) + render.model_boxes(self.ctrl.state, vp)
        avoid += self._unit_labels
        (p,) = place_labels([(vp.to_px((minx + maxx) / 2, miny), (w, h))],
                            (board.x, board.y, board.w, board.h), avoid)
        return p

    def _block_live(self) -> tuple[str, bool] | None:
        """The status line while a block manoeuvre or reform is being built: its verdict."""
        bt = self.ctrl.blocks
        if bt is None:
            return None
        d = bt.drag
        edit = bt.reform_edit(self.ctrl.state)
        if d is not None and d.handle not in ("rotate", "files") and d.action is not None:
            ok, reasons, ends = d.ok, d.reasons, d.end_reasons
        elif edit is not None and edit.ghost is not None:
            ok, reasons, ends = edit.ok, edit.reasons, edit.end_reasons
        else:
            return None
        st = self.state
        if not ok:
            return "not allowed: " + turn.named(st, "; ".join(reasons)), True
        if ends:
            return "may not end here: " + turn.named(st, "; ".join(ends)), True
        return 'legal, and the block would end more than 1" clear', False

    def _draw_block_hover(self, unit_id: str) -> pygame.Rect:
        try:
            unit = self.ctrl.state.unit(unit_id)
        except KeyError:
            return pygame.Rect(0, 0, 0, 0)
        if not isinstance(unit, Block):
            return pygame.Rect(0, 0, 0, 0)
        lines = [f"{unit.name or unit.id}  ({turn.player_name(self.state, unit.player)})",
                 f"{unit.models} models, {unit.files} files x {unit.ranks} ranks, base "
                 f"{unit.base.spec}",
                 f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}"]
        bits = [m.text for m in markers(self.state, unit)]
        if bits:
            lines.append("state: " + ", ".join(bits))
        return self._card(lines)

    def _card(self, lines: list[str]) -> pygame.Rect:
        x, y = self.ctrl.pointer
        x, y = int(x) + 16, int(y) + 16
        f = render.font(12)
        w = max(f.size(s)[0] for s in lines) + 12
        h = len(lines) * 16 + 8
        br = self.board_rect()
        x = min(x, br.right - w - 4)
        y = min(y, br.bottom - h - 4)
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((14, 14, 18, 225))
        r = self.screen.blit(box, (x, y))
        for i, s in enumerate(lines):
            render.text(self.screen, s, (x + 6, y + 4 + 16 * i), size=12)
        return r

    def step_preview(self) -> StepPreview:
        """What Space would do now (cached per state)."""
        if self._step is None or self._step[0] != Ref(self.state):
            self._step = (Ref(self.state), self.rules.step_preview(self.state))
        return self._step[1]

    def coherency(self, unit_id: str) -> list[Violation]:
        """Coherency problems of ``unit_id`` as drawn (cached per state)."""
        key = (Ref(self.state), unit_id)
        if key not in self._coh:
            if any(k[0] != key[0] for k in self._coh):
                self._coh.clear()
            self._coh[key] = self.rules.coherency(self.ctrl.state, unit_id)
        return self._coh[key]

    def end_check(self, unit_id: str) -> list[Violation]:
        """What else a commit now would refuse about where the selected unit's models stand
        (a model turned onto terrain...), shown live as coherency is (cached per state)."""
        key = (Ref(self.state), unit_id)
        if self._end is None or self._end[0] != key:
            self._end = (key, self.rules.end_violations(self.state, unit_id))
        return self._end[1]

    def eligibility(self, unit_id: str) -> list[MoveRow]:
        """The unit's move types with their reasons (cached per state)."""
        key = (Ref(self.state), unit_id)
        if self._elig is None or self._elig[0] != key:
            self._elig = (key, self.rules.eligibility(self.state, unit_id))
        return self._elig[1]

    def _player_index(self, player: str) -> int:
        for i, p in enumerate(self.state.players):
            if p.id == player:
                return i
        return 0

    def _enemy_of(self, unit_id: str | None) -> str | None:
        if unit_id is not None:
            try:
                return self.state.opponent(self.state.unit(unit_id).player).id
            except KeyError:
                return None
        return self.state.opponent(self.state.battle.active_player).id

    def _drag_live(self) -> tuple[str, bool] | None:
        """The status line while a whole unit is Shift-dragged: how far it goes, and which
        model stops it going further, and why."""
        d = self.ctrl.drag
        if d is None or not d.whole_unit:
            return None
        return unit_drag_note(self.ctrl.state, d), d.limit is not None

    def _draw_hover(self, model_id: str) -> pygame.Rect:
        try:
            unit, m = self.ctrl.state.model(model_id)
        except KeyError:
            return pygame.Rect(0, 0, 0, 0)
        lines = [f"{unit.name or unit.id}  ({turn.player_name(self.state, unit.player)})",
                 f"model {m.id}, base {m.base.spec}",
                 f"M {unit.move_of(m):g}\"  W {unit.wounds_of(m)}/{unit.W}  Ld {unit.Ld}+  "
                 f"OC {unit.OC}", ", ".join(unit.keywords)]
        bits = [x.text for x in markers(self.state, unit)]
        if bits:
            lines.append("state: " + ", ".join(bits))
        return self._card(lines)

    def _draw_status(self, full: bool) -> list[pygame.Rect]:
        w, h = self.screen.get_size()
        r = pygame.Rect(0, h - STATUS_H, w - PANEL_W, STATUS_H)
        colour = BAD_RED if self.message.startswith("refused") else render.TEXT
        msg = self.message
        live = self._block_live() or self._drag_live()
        if live is not None:
            msg, bad = live
            colour = BAD_RED if bad else OK_GREEN
        tools = []
        if self.ctrl.ruler_on:
            tools.append("RULER (M)")
        if self.ctrl.picked:
            tools.append(f"{len(self.ctrl.picked)} picked")
        if self.grid:
            tools.append("grid")
        if self.engagement:
            tools.append("engagement")
        if self.threats.threat_unit:
            tools.append("threat")
        if self.threats.safe_unit:
            tools.append(f"safe {self.threats.odds.need}+" if self.threats.odds.need <= 12
                         else "safe")
        key = (msg, colour, tuple(tools), r.size)
        if not full and key == self._status:
            return []
        self._status = key
        draw_status(self.screen, r, msg, colour, tools)
        return [r]

    def panel_view(self) -> PanelView:
        """Everything the side panel shows, as one frozen value (:mod:`tabletop.view.panel`)."""
        st = self.state
        w, h = self.screen.get_size()
        focus = self.ctrl.focus or self.ctrl.selection_unit
        if focus is not None and not any(u.id == focus for u in st.units):
            focus = None
        sel = st.battle.selection
        moving = sel is not None and focus == sel.unit
        g = self.group
        bt = self.ctrl.blocks
        return PanelView(
            height=h, x_screen=w - PANEL_W, state=st, shown=self.ctrl.state,
            start=self.history.start, unsaved=self.history.unsaved, focus=focus,
            tab=self.tab, scroll=tuple(sorted(self.scroll.items())), tray=tuple(self.tray),
            refusals=tuple((t, tuple(rs)) for t, rs in self.refusal_groups()),
            refusal_note=self.refusal_note, messages=tuple(self.messages),
            step=self.step_preview(), removals=self.removal_preview(),
            next_choice=json.dumps(self.next_choice, sort_keys=True),
            select_flags=frozenset(self.select_flags),
            group=GroupPanel(g.unit, g.transport, frozenset(g.placed)) if g is not None
            else None,
            moves=tuple(self.eligibility(focus)) if focus is not None and not moving else (),
            coherency=tuple(self.coherency(focus)) if moving and focus is not None else (),
            ends=tuple(self.end_check(focus)) if moving and focus is not None else (),
            block=self._block_panel(st) if moving else None,
            reform_editing=bt.reform_edit(self.ctrl.state) is not None if bt else False)

    def _block_panel(self, st: GameState) -> BlockPanel | None:
        """The figures of the selected t9a-2 block's move, for the panel."""
        sel = st.battle.selection
        if sel is None or not isinstance(st.unit(sel.unit), Block):
            return None
        bt = self.ctrl.blocks
        can_reform = bt is not None and bt.can_reform(st)
        start = self.rules.block_start(st)
        if start is None or not sel.staged:
            return BlockPanel(can_reform=can_reform)
        last = str(sel.staged[-1].get("do"))
        unit = st.unit(sel.unit)
        assert isinstance(unit, Block)
        return BlockPanel(max_displacement(start, self.rules.block_geom(unit)),
                          self.rules.block_cap(st, "forward" if last == "wheel" else last),
                          tuple(self.rules.block_end_reasons(st)), can_reform)

    def _blit_panel(self, full: bool) -> list[pygame.Rect]:
        """Draw the side panel, redrawn only when what it shows changes."""
        w, h = self.screen.get_size()
        view = self.panel_view()
        key = view.key()
        hit = self._cache.get("panel")
        if hit is not None and hit[0] == key:
            if not full:
                return []
            surf, drawn = hit[1]
        else:
            surf = pygame.Surface((PANEL_W, h))
            drawn = draw_panel(view, surf)
            self._cache["panel"] = (key, (surf, drawn))
        self.rows = list(drawn.rows)
        self.scroll_max = dict(drawn.scroll_max)
        self.list_area, self.unit_area = drawn.list_area, drawn.unit_area
        return [self.screen.blit(surf, (w - PANEL_W, 0))]

    def _draw_help(self) -> None:
        """H: every key for the board in front of the player (:mod:`tabletop.view.helpkeys`),
        in two columns when one does not fit."""
        st = self.state
        rows = help_rows(rulesets.of(st).move_types, self.rules.tools(st))
        draw_help(self.screen, rows, self.board_rect())


class NoDisplay(RuntimeError):
    """No window could be opened (no display, or SDL refused)."""


def play(state: GameState, *, save_path: Path, size: tuple[int, int] = (1280, 820),
         saver: Callable[[GameState, Path], Any] | None = None,
         opened: Path | None = None) -> int:
    """Open the window on ``state`` and run it until it is closed (``tabletop play``).

    Raises
    ------
    NoDisplay
        When SDL cannot open a window.
    """
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"  # signals are ours (stop_on_signals)
    try:
        pygame.display.init()
    except pygame.error as exc:
        raise NoDisplay(str(exc)) from None
    driver = pygame.display.get_driver()
    asked = os.environ.get("SDL_VIDEODRIVER") or os.environ.get("SDL_VIDEO_DRIVER")
    if driver in ("offscreen", "dummy") and not asked:
        # SDL fell back to drawing nowhere: say so rather than run an invisible window
        pygame.display.quit()
        raise NoDisplay(f"SDL found no usable display, only its {driver!r} driver")
    try:
        app = App(state, save_path=save_path, size=size, saver=saver, opened=opened)
    except pygame.error as exc:
        raise NoDisplay(str(exc)) from None
    restore = stop_on_signals(app)
    try:
        return app.run()
    finally:
        restore()


def stop_on_signals(app: App) -> Callable[[], None]:
    """Make the :data:`STOP_SIGNALS` stop ``app`` cleanly (no dialog); a function that puts
    the previous handlers back."""
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}

    def handler(signum: int, _frame: object) -> None:
        app.stop(signal.Signals(signum).name)

    for sig in STOP_SIGNALS:
        signal.signal(sig, handler)

    def restore() -> None:
        for sig, h in before.items():
            if h is not None:  # a handler not set from Python cannot be put back
                signal.signal(sig, h)

    return restore


def _merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Fewer rectangles for the display: overlapping ones merged (each costs a copy)."""
    out: list[pygame.Rect] = []
    for r in rects:
        if r.w <= 0 or r.h <= 0:
            continue
        r = r.copy()
        merged = True
        while merged:
            merged = False
            for o in out:
                if o.colliderect(r.inflate(8, 8)):
                    out.remove(o)
                    r.union_ip(o)
                    merged = True
                    break
        out.append(r)
    return out


def unit_drag_note(state: GameState, d: Any) -> str:
    """A whole unit's drag in words: how far it goes of what the pointer asks, and the model
    that stops it going further and why (the first reason its zone gives just beyond)."""
    asked = math.hypot(*d.wanted)
    goes = d.offset_t * asked
    if d.limit is None:
        return f'The whole unit moves {goes:.2f}"; every model may end there.'
    s = d.starts[d.limit]
    ahead = min(d.offset_t + 0.02 / max(asked, 1e-9), 1.0)
    z = d.zones.get(d.limit)
    why = ""
    if z is not None and s is not None and hasattr(z, "explain"):
        found = z.explain(s[0] + ahead * d.wanted[0], s[1] + ahead * d.wanted[1])
        if found:
            why = f" ({turn.named(state, found[0].message)})"
    return (f'The whole unit moves {goes:.2f}" of {asked:.2f}": {d.limit} stops it going '
            f"further{why}.")


def unit_drop_note(state: GameState, d: Any) -> str:
    """The status line after a whole unit's drag: the unit moved as one, how far, what stops it
    going further, and what comes next (not one model's figures)."""
    sel = state.battle.selection
    who = f"{turn.unit_label(state, sel.unit)}: " if sel is not None else ""
    note = unit_drag_note(state, d).replace("The whole unit moves", "the whole unit moved", 1)
    return f"{who}{note[:-1]}; drag again to go on, Enter commits."


def _skipped_note(before: GameState, after: GameState) -> str:
    """What a ``next`` passed through without playing it, or stopped in without playing it,
    said in the status line (the turn bar shows the same)."""
    skipped = turn.skipped_phases(before, after)
    note = ""
    if skipped:
        names = [s.removesuffix(" phase") for s in skipped]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        note = (f" Passed through the {listed} phase{'s' if len(names) > 1 else ''}: "
                "tabletop does not simulate them.")
    here = next((c for c in turn.phase_bar(after) if c.current), None)
    if here is not None and not here.simulated:
        note += f" The {here.title} phase is not simulated: Space goes on."
    return note


def _verdict_colour(ok: bool, end_reasons: list[str]) -> tuple[int, int, int]:
    """Ghost outline: white legal, orange may be staged but may not end there, magenta refused."""
    if not ok:
        return render.VIOLATION
    return blockpaint.END_WARN if end_reasons else (255, 255, 255)

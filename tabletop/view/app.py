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
import math
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from tabletop.errors import UserError
from tabletop.rules.violation import Violation
from tabletop.state import GameState
from tabletop.view import (
    appblock,
    appdraw,
    appinput,
    appkeep,
    applayers,
    appturn,
    render,
    turn,
)
from tabletop.view.appconfig import (
    MAX_MESSAGES,
    STATUS_H,
    STOP_SIGNALS,
    WAIT_MS,
    WATCH_S,
)
from tabletop.view.boardlabels import MarkLabels
from tabletop.view.bridge import MoveRow, Outcome, Rules, StepPreview
from tabletop.view.controller import Controller, SetupSource, setup_source
from tabletop.view.dialogs import Dialog
from tabletop.view.dicetray import TrayRoll
from tabletop.view.emergency import GroupSetup, pending_group_setup
from tabletop.view.history import History, SessionLog
from tabletop.view.identity import Ref
from tabletop.view.keeping import Keeper
from tabletop.view.messages import (
    manoeuvre_text,
)
from tabletop.view.panel import (
    PANEL_W,
    Row,
)
from tabletop.view.threatview import Layer as ThreatLayer
from tabletop.view.viewport import Viewport

__all__ = ["PANEL_W", "STOP_SIGNALS", "App", "NoDisplay", "manoeuvre_text", "play",
           "stop_on_signals"]



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
    apply = appturn.apply
    _logged = appturn.logged
    undo = appturn.undo
    redo = appturn.redo
    commit = appturn.commit
    cancel_selection = appturn.cancel_selection
    _stage_group = appturn.stage_group
    put_back = appturn.put_back
    select = appturn.select
    dice_first = appturn.dice_first
    next_action = appturn.next_action
    next_step = appturn.next_step
    removal_preview = appturn.removal_preview
    toggle_removal = appturn.toggle_removal
    save = appkeep.save
    _ask_replace = appkeep.ask_replace
    watch_save = appkeep.watch_save
    ask_save_as = appkeep.ask_save_as
    _save_as_answer = appkeep.save_as_answer
    quit = appkeep.quit
    _answer = appkeep.answer
    toggle_threat = applayers.toggle_threat
    _warm_threats = applayers.warm_threats
    toggle_safe = applayers.toggle_safe
    _compute_safe = applayers.compute_safe
    _block_refusal_marks = applayers.block_refusal_marks
    screenshot = appkeep.screenshot
    do_intents = appinput.do_intents

    # -- events ---------------------------------------------------------------------------
    handle = appinput.handle
    _dialog_event = appinput.dialog_event
    _panel_click = appinput.panel_click
    _not_now = appinput.not_now

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

    stop = appkeep.stop
    stop_note = appkeep.stop_note

    # -- drawing --------------------------------------------------------------------------
    _cached = appdraw.cached
    draw = appdraw.draw
    _base = appdraw.base
    _threat_sprites = appdraw.threat_sprites
    _blit_sprite = staticmethod(appdraw.blit_sprite)
    _overlays = appdraw.overlays
    refusal_groups = appdraw.refusal_groups
    _marks = appdraw.marks
    _draw_block_tool = appblock.draw_block_tool
    _handle_boxes = appblock.handle_boxes
    _block_label = appblock.block_label
    block_label_place = appblock.block_label_place
    _block_live = appblock.block_live
    _draw_block_hover = appblock.draw_block_hover
    _card = appdraw.card

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

    _drag_live = appdraw.drag_live
    _draw_hover = appdraw.draw_hover
    _draw_status = appdraw.status_line
    panel_view = appdraw.panel_view
    _block_panel = appdraw.block_panel
    _blit_panel = appdraw.blit_panel
    _draw_help = appdraw.help_card


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











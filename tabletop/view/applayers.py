"""The threat and safe layers of :class:`tabletop.view.app.App`: toggling them, computing them
ahead while the window idles, and the refusal marks of a terrain block.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from shapely.geometry import LineString

from tabletop.errors import UserError
from tabletop.state import Block, GameState
from tabletop.view import render, turn
from tabletop.view.appconfig import (
    THREAT_AHEAD_AFTER_S,
)
from tabletop.view.blockdrag import near_obstacles
from tabletop.view.threatview import Layer as ThreatLayer

if TYPE_CHECKING:
    from tabletop.view.app import App


def toggle_threat(app: App) -> None:
    """T: show (or hide) where the focused unit could charge next turn."""
    unit = app.ctrl.focus
    lay = app.threats
    if lay.threat_unit is not None and (unit is None or unit == lay.threat_unit):
        lay.threat_unit, lay.threat = None, None
        app.message = "threat range hidden"
    elif unit is None:
        app.message = "click a unit first, then T shows where it could charge next turn"
    else:
        t0 = time.perf_counter()
        try:
            th = app.rules.threat(app.state, unit)
        except UserError as exc:
            app.message = f"{turn.unit_label(app.state, unit)}: {exc}"
            app.dirty = True
            return
        lay.threat_unit, lay.threat, lay.threat_state = unit, th, app.state
        name = turn.unit_label(app.state, unit)
        took = f"({time.perf_counter() - t0:.2f} s)"
        if th.charges:
            app.message = (f"threat of {name}: where a model alone is charged after its "
                            f"normal move, each roll from 3+ (red, 97%) to 12 (yellow, 3%); "
                            f"the Charge phase is not simulated {took}")
        else:
            app.message = f"threat of {name}: {th.move} zone only: {th.reason} {took}"
    app.dirty = True


def warm_threats(app: App, *, shown: bool) -> bool:
    """While idle: with ``shown``, the threat and safe ground shown, again for the board as
    it stands (a model moved: until then the legend says they are being updated); else the
    threat of the focused unit (not the one moving), so that T finds it ready. ``False``
    when there was nothing to do."""
    lay = app.threats
    st = app.state
    if not shown:
        if time.monotonic() - app._input_at < THREAT_AHEAD_AFTER_S:
            return False  # the person is about to act: they would wait for it
        focus = app.ctrl.focus
        if focus is None or focus == lay.threat_unit or focus == app.ctrl.selection_unit \
                or (focus, st) == lay.warmed:
            return False
        lay.warmed = (focus, st)
        try:
            th = app.rules.threat(st, focus)  # kept by the ruleset's tool for this board
        except (UserError, KeyError):
            return True
        # and drawn, as T would draw it now
        app._threat_sprites(ThreatLayer(threat_unit=focus, threat=th, safe=lay.safe,
                                         safe_unit=lay.safe_unit, odds=lay.odds))
        return True
    if lay.threat_unit is not None and lay.threat_state is not st:
        try:
            lay.threat = app.rules.threat(st, lay.threat_unit)
        except (UserError, KeyError):
            lay.threat_unit, lay.threat = None, None
        lay.threat_state = st
        app.dirty = True
        return True
    if lay.safe_unit is not None and lay.safe_state is not st:
        app._compute_safe()
        app.dirty = True
        return True
    return False


def toggle_safe(app: App, *, odds: int = 0, objective: bool = False) -> None:
    """O: show (or hide) where the focused unit may end its move out of every enemy
    charge; - and = change the odds, Shift+O the objective it must stay near."""
    lay = app.threats
    unit = app.ctrl.focus or app.ctrl.selection_unit
    if not (odds or objective):
        if lay.safe_unit is not None and (unit is None or unit == lay.safe_unit):
            lay.safe_unit, lay.safe = None, None
            app.message = "safe ground hidden"
            app.dirty = True
            return
        if unit is None:
            app.message = "click a unit first, then O shows where it may end its move " \
                           "out of every enemy charge"
            app.dirty = True
            return
        lay.safe_unit = unit
    elif lay.safe_unit is None:
        app.message = "O first shows safe ground; then - and = change the odds"
        app.dirty = True
        return
    if odds:
        lay.change_odds(odds)
    if objective:
        lay.next_objective(len(app.state.objectives))
    app._compute_safe()
    app.dirty = True


def compute_safe(app: App) -> None:
    lay = app.threats
    if lay.safe_unit is None:
        return
    st = app.state
    sel = st.battle.selection
    move, roll = ("normal", None)
    if sel is not None and sel.unit == lay.safe_unit and sel.move in ("normal", "advance",
                                                                        "fall-back"):
        move, roll = sel.move, sel.roll
    t0 = time.perf_counter()
    try:
        lay.safe = app.rules.safe(st, lay.safe_unit, move, lay.odds, roll=roll,
                                   objective=lay.objective)
    except UserError as exc:
        lay.safe_unit, lay.safe = None, None
        app.message = str(exc)
        return
    lay.safe_state = st
    sg = lay.safe
    near = f", near objective {lay.objective}" if lay.objective else ""
    app.message = (f"safe ground of {turn.unit_label(st, lay.safe_unit)} ({move} move"
                    f"{near}): green is {lay.odds.text()}; {len(sg.counted)} enemy units "
                    f"counted, {len(sg.skipped)} not; - / = odds, Shift+O objective "
                    f"({time.perf_counter() - t0:.2f} s)")


def block_refusal_marks(app: App, state: GameState, block: Block) -> list[render.Mark]:
    """The block outlined where its move was refused, with a line to everything within 1"."""
    geom = app.rules.block_geom(block)
    marks = [render.Mark(outlines=(geom.polygon,))]
    for n in near_obstacles(geom.polygon, app.rules.block_obstacles(state, block.id)):
        marks.append(render.Mark(label=f'{n.distance:.2f}" ≤ 1"',
                                 geometry=LineString([n.a, n.b])))
    return marks

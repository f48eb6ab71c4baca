"""wh40k-11e: which move types a unit may make now, and why not (09.02-09.07, 18.04, 20.04);
which disembark mode applies and the set-up that proves a tactical one.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import Point
from shapely.ops import nearest_points

from tabletop.errors import ident, quote
from tabletop.geometry.footprints import Round
from tabletop.rulesets.wh40k_11e import checks, rulings, zones
from tabletop.rulesets.wh40k_11e.flags import (
    F_ADVANCED,
    F_EMBARKED,
    F_FELL_BACK,
    F_INGRESSED,
    F_NORMAL,
    F_SELECTED,
    F_THEN_MOVE,
    MOVE_TYPES,
    on_battlefield,
    unit_of,
)
from tabletop.rulesets.wh40k_11e.setups import tactical_after_all
from tabletop.rulesets.wh40k_11e.steps import blocked
from tabletop.state import GameState, Unit

__all__ = ["disembark_mode", "eligible_moves", "is_engaged", "tactical_set_up", "transport_of"]


def is_engaged(state: GameState, unit: Unit) -> bool:
    """Whether ``unit`` is engaged (a model within 2" of an enemy model)."""
    return checks.is_engaged(state, unit)


def transport_of(state: GameState, unit: Unit) -> tuple[Unit | None, str]:
    if unit.transport is None:
        return None, "it is not embarked in a transport"
    try:
        t = unit_of(state, unit.transport)
    except KeyError:
        return None, f"its transport {ident(unit.transport)} is not on the battlefield"
    if not on_battlefield(t):
        return None, f"its transport {ident(t.id)} is not on the battlefield"
    return t, ""


def disembark_mode(state: GameState, unit: Unit, *, fit: bool = True
                   ) -> tuple[str | None, str]:
    """The disembark mode that applies first (18.04, modes in order, seed 000 09.02.02), with
    why; ``None`` and the reason when the unit cannot disembark.

    Rapid: the transport made a normal or ingress move this phase. Tactical: it remained
    stationary or has not moved yet, and the unit can be set up wholly within 3" of it (a set-up
    :func:`tactical_set_up` finds). Combat: otherwise. A transport that advanced or fell back
    allows no disembark. ``fit=False`` skips the search (tactical or combat: ``"tactical"``).
    """
    t, why = transport_of(state, unit)
    if t is None:
        return None, why
    if F_ADVANCED in t.flags or F_FELL_BACK in t.flags:
        return None, f"its transport {ident(t.id)} " + (
            "advanced" if F_ADVANCED in t.flags else "fell back") + " this phase"
    if F_NORMAL in t.flags or F_INGRESSED in t.flags:
        return "rapid", f"its transport {ident(t.id)} made a normal or ingress move this phase"
    if not fit or tactical_set_up(state, unit, t) is not None:
        return "tactical", f"it can be set up wholly within 3\" of {ident(t.id)}"
    return "combat", f"no set-up of it wholly within 3\" of {ident(t.id)} was found"


def tactical_set_up(state: GameState, unit: Unit, transport: Unit
                    ) -> dict[str, tuple[float, float]] | None:
    """A set-up of ``unit`` wholly within 3" of ``transport``, unengaged and in coherency, or
    ``None`` when this search finds none.

    Greedy: each model in turn at the legal spot of its set-up zone (the models placed so far
    where they stand) closest to the transport's centre for the first, to the centre of the
    models placed so far for the others; models on one round base share one zone, less a disk
    around each model placed. The set-up found is then checked exactly (as a commit would), so
    it proves that tactical disembark applies; one the search misses could exist in rare tight
    spots, so :func:`.movement.commit_check` also refuses a combat disembark whose models all
    stand wholly within 3" and unengaged.
    """
    base = unit.models[0].base
    alike = isinstance(base, Round) and all(m.base == base for m in unit.models)
    gap = 2.0 * base.radius / math.cos(math.pi / 64)  # circumscribes the 64-gon of buffer()
    placed: dict[str, tuple[float, float]] = {}
    free = None
    board = state
    hull = [tm.at for tm in transport.models if tm.at is not None]
    for m in unit.models:
        pts = list(placed.values()) or hull
        aim = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if free is None or not alike:
            zone = zones.setup_zone(board, m.id, "disembark", mode="tactical")
            x, y = zone.nearest(*aim)
            if zone.geometry.is_empty or not zone.contains(x, y):
                return None
            free = zone.geometry
        elif free.is_empty:
            return None
        else:
            q = nearest_points(free, Point(aim))[0]
            x, y = q.x, q.y
        if alike:  # the next models may not stand on this one
            free = free.difference(Point(x, y).buffer(gap, quad_segs=16))
        placed[m.id] = (x, y)
        board = board.with_model(replace(m, at=(x, y)))
    set_up = replace(unit_of(board, unit.id), location="battlefield")
    board = board.with_unit(set_up)
    if not tactical_after_all(board, set_up, transport) or any(
            check(board, set_up) for check in (checks.overlap_violations, checks.edge_violations,
                                               checks.terrain_violations)) \
            or checks.coherency_violations(set_up):
        return None
    return placed


def _player(state: GameState, player_id: str) -> str:
    """A player as messages name them: the name the file gives, else the id."""
    name = next((p.name for p in state.players if p.id == player_id and p.name), None)
    return ident(name, name=True) if name else ident(player_id)


def _not_my_move(state: GameState, unit: Unit) -> str:
    b = state.battle
    if b.phase != "movement" or (b.step or "start") != "move-units":
        return "units are selected to move in the Move Units step of the Movement phase"
    waiting = blocked(state, {"do": "select", "unit": unit.id})
    if waiting:
        return waiting
    if unit.player != b.active_player:
        return (f"{ident(unit.id)} belongs to {_player(state, unit.player)}, not to the active "
                f"player {_player(state, b.active_player)}")
    if b.selection is not None and b.selection.unit != unit.id:
        return f"{ident(b.selection.unit)} is moving: commit or reset its move first"
    if b.selection is not None:
        return f"{ident(unit.id)} is already moving"
    return ""


def eligible_moves(state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
    """Each move type with whether ``unit_id`` may make it now and, if not, why.

    For the window's list of move types (greyed with the reason when not eligible).
    """
    unit = unit_of(state, unit_id)
    general = _not_my_move(state, unit)
    then_move = F_THEN_MOVE in unit.flags
    out: list[tuple[str, bool, str]] = []
    for move in MOVE_TYPES:
        why = general
        if not why and F_SELECTED in unit.flags and not (then_move and move in
                                                         ("normal", "advance")):
            why = f"{ident(unit.id)} has already been selected to move this phase"
            if move == "normal" and F_NORMAL in unit.flags:
                why = f"{ident(unit.id)} has already made a normal move this phase (09.05.01)"
        if not why:
            why = _move_reason(state, unit, move)
        out.append((move, not why, why))
    return out


def _move_reason(state: GameState, unit: Unit, move: str) -> str:
    if move == "remain-stationary":
        return ""
    if move in ("normal", "advance"):
        if not on_battlefield(unit):
            return f"{ident(unit.id)} is not on the battlefield"
        if is_engaged(state, unit):
            return f"{ident(unit.id)} is engaged: only a fall-back move or remaining stationary"
        return ""
    if move == "fall-back":
        if not on_battlefield(unit):
            return f"{ident(unit.id)} is not on the battlefield"
        if not is_engaged(state, unit):
            return f"{ident(unit.id)} is not engaged: a fall-back move needs an engaged unit"
        return ""
    if move == "disembark":
        if unit.location != "embarked":
            return f"{ident(unit.id)} is not embarked in a transport"
        if F_EMBARKED in unit.flags:
            return f"{ident(unit.id)} embarked this phase"
        mode, why = disembark_mode(state, unit, fit=False)
        return "" if mode else f"{ident(unit.id)} cannot disembark: {why}"
    if move == "ingress":
        if unit.location != "strategic-reserves":
            return f"{ident(unit.id)} is not in strategic reserves"
        if state.battle.round < rulings.INGRESS_FIRST_ROUND:
            return (f"no ingress move before battle round {rulings.INGRESS_FIRST_ROUND} "
                    f"(this is round {state.battle.round})")
        return ""
    return f"unknown move type {quote(str(move))}"


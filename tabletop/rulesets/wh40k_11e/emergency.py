"""wh40k-11e: the emergency disembark of a destroyed transport's passengers (18.05).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import shapely
from shapely.ops import nearest_points

from tabletop.errors import ident, idents
from tabletop.geometry.footprints import footprint_distance
from tabletop.rules.dice import Dice
from tabletop.rules.result import ActionResult, Refusal
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import checks, rulings, zones
from tabletop.rulesets.wh40k_11e.casualties import hazard_rolls
from tabletop.rulesets.wh40k_11e.checks import (
    exact_polygon,
    fmt,
)
from tabletop.rulesets.wh40k_11e.eligibility import transport_of
from tabletop.rulesets.wh40k_11e.flags import (
    F_NO_CHARGE,
    F_SET_UP,
    F_WRECK,
    add_flags,
    alive,
    passengers,
    unit_of,
)
from tabletop.rulesets.wh40k_11e.setups import wholly_within
from tabletop.state import GameState, Model, Unit

__all__ = ["emergency_disembark"]


def emergency_disembark(state: GameState, unit_id: str,
                        placements: Mapping[str, Sequence[float]], *,
                        dice: Sequence[int] | None = None) -> ActionResult:
    """18.05: the transport of ``unit_id`` is destroyed; set the unit up around it.

    ``placements`` maps model ids to ``[x, y]`` (or ``[x, y, facing]``); each must be wholly
    within 6" of the transport, not overlapping and unengaged, and as close as possible to it:
    a model whose base could stand more than :data:`~.rulings.AS_CLOSE_AS_POSSIBLE` closer
    (a free spot of its set-up zone, the other models where they were placed) is refused, and so
    is leaving out a model that could be set up; the models left out are destroyed. Then one
    hazard roll per model set up; the unit becomes battle-shocked and cannot charge this turn.

    A transport the rules destroyed (:func:`.casualties.allocate_mortal_wounds`) waits, marked
    destroyed, until its passengers have made this move; a transport still in the game (destroyed by
    something the program does not simulate) is destroyed by it. Once no unit is embarked in it
    the transport is removed.
    """
    try:
        return _emergency(state, unit_id, placements, Dice(state, dice))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), tuple(r.events),
                            tuple(r.violations))


def _emergency(state: GameState, unit_id: str, placements: Mapping[str, Sequence[float]],
               dice: Dice) -> ActionResult:
    unit = unit_of(state, unit_id)
    if state.battle.selection is not None:
        raise Refusal(f"{ident(state.battle.selection.unit)} is moving: commit or reset its move "
                      "first")
    if unit.location != "embarked" or unit.transport is None:
        raise Refusal(f"{ident(unit_id)} is not embarked in a transport")
    t, why = transport_of(state, unit)
    if t is None:
        raise Refusal(f"{ident(unit_id)} cannot make an emergency disembark: {why}")
    own = {m.id: m for m in unit.models}
    strangers = [mid for mid in placements if mid not in own]
    if strangers:
        raise Refusal(idents(strangers) + f" not a model of {ident(unit_id)}")
    events: list[dict[str, Any]] = []
    if F_WRECK not in t.flags:
        state = state.with_unit(add_flags(t, F_WRECK))
        events.append({"kind": "destroyed", "unit": t.id, "passengers": passengers(state, t.id),
                       "reason": "its passengers make an emergency disembark"})
    events.append({"kind": "emergency-disembark", "unit": unit_id, "transport": t.id})
    kept = [replace(own[mid], at=(float(p[0]), float(p[1])),
                    facing=float(p[2]) if len(p) > 2 else own[mid].facing)
            for mid, p in placements.items()]
    left = [m for m in unit.models if m.id not in placements]
    # the set-up as the zone engine sees it: still embarked, the placed models on the board
    setup = state.with_unit(replace(unit, models=(*kept, *left)))
    vs = _emergency_violations(setup, unit_id, t, kept, left)
    if vs:
        raise Refusal([v.message for v in vs], vs)
    for m in left:
        events.append({"kind": "destroyed", "model": m.id,
                       "reason": f"cannot be set up within 6\" of {ident(t.id)}"})
    board = state.with_unit(replace(unit, models=tuple(kept), location="battlefield",
                                    transport=None, starting_strength=unit.strength))
    if kept:
        board, ev = hazard_rolls(board, unit_id, dice, what="emergency-disembark")
        events += ev
    if alive(board, unit_id):
        u = unit_of(board, unit_id)
        board = board.with_unit(replace(add_flags(u, F_NO_CHARGE, F_SET_UP), battle_shocked=True))
        events.append({"kind": "battle-shocked", "unit": unit_id})
    elif not kept:
        board = replace(board, units=tuple(x for x in board.units if x.id != unit_id))
        events.append({"kind": "destroyed", "unit": unit_id})
    if not passengers(board, t.id):
        board = replace(board, units=tuple(x for x in board.units if x.id != t.id))
        events.append({"kind": "removed", "unit": t.id,
                       "reason": "destroyed; its passengers have disembarked"})
    return ActionResult(dice.commit(board), True, (), tuple(events))


def _emergency_violations(setup: GameState, unit_id: str, t: Unit, kept: Sequence[Model],
                          left: Sequence[Model]) -> list[Violation]:
    """Why an emergency set-up is refused: the set-up rules (wholly within 6", on the
    battlefield, on no model or terrain, unengaged, in coherency), "as close as possible", and
    models left out that could be set up."""
    limit = rulings.DISEMBARK_RANGE["emergency"]
    placed = replace(unit_of(setup, unit_id), models=tuple(kept), location="battlefield")
    board = setup.with_unit(placed)
    vs: list[Violation] = []
    hull = [tm for tm in t.models if tm.at is not None]
    for m in kept:
        near = [wholly_within(m, exact_polygon(tm), limit) for tm in hull]
        if not any(okk for okk, _ in near):
            far = min(d for _, d in near)
            vs.append(Violation("disembark-range", f"{ident(m.id)} must be set up wholly within "
                                f"{fmt(limit)} of {ident(t.id)} (its farthest point is {fmt(far)} "
                                "away)", (m.id, t.id), far, limit))
    vs += checks.overlap_violations(board, placed)
    vs += checks.edge_violations(board, placed)
    vs += checks.terrain_violations(board, placed)
    vs += checks.engagement_violations(board, placed)
    vs += checks.coherency_violations(placed)  # a set-up ends in coherency (03.02)
    if vs:
        return vs
    shape = shapely.union_all([exact_polygon(tm) for tm in hull])
    for m in kept:
        zone = zones.setup_zone(setup, m.id, "disembark", mode="emergency")
        free = _closest_free(zone, shape)
        if free is None:
            continue
        here = min(checks.closest(m, tm)[0] for tm in hull)
        there = min(footprint_distance(m.base, free, m.facing, tm.base, tm.at, tm.facing)
                    for tm in hull if tm.at is not None)
        if there < here - rulings.AS_CLOSE_AS_POSSIBLE:
            vs.append(Violation("not-closest", f"{ident(m.id)} must be set up as close as "
                                f"possible to {ident(t.id)}: it is {fmt(here)} away, but "
                                f"({free[0]:.2f}, {free[1]:.2f}) is free {fmt(there)} away",
                                (m.id, t.id), here, there))
    for m in left:
        free = _closest_free(zones.setup_zone(setup, m.id, "disembark", mode="emergency"), shape)
        if free is not None:
            vs.append(Violation("not-placed", f"{ident(m.id)} can be set up (at ({free[0]:.2f}, "
                                f"{free[1]:.2f}), for one): only models that cannot be set up "
                                "are destroyed", (m.id, t.id)))
    return vs


def _closest_free(zone: zones.Zone, shape: Any) -> tuple[float, float] | None:
    """The point of ``zone`` closest to ``shape`` (exactly legal), or ``None`` if it is empty."""
    if zone.geometry.is_empty:
        return None
    q = nearest_points(zone.geometry, shape)[0]
    x, y = zone.nearest(q.x, q.y)
    return (x, y) if zone.contains(x, y) else None


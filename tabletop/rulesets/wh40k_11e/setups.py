"""wh40k-11e: the set-up rules of an ingress or disembark (wholly within a distance of a
transport or an edge, away from enemies, out of the enemy's zone) and of embarking (18.02).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shapely.geometry import Point

from tabletop.errors import ident
from tabletop.geometry.footprints import Round, footprint_distance
from tabletop.geometry.tolerance import EPS
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import checks, rulings
from tabletop.rulesets.wh40k_11e.checks import (
    exact_polygon,
    fmt,
    footprint_overlaps,
    half_extents,
)
from tabletop.rulesets.wh40k_11e.flags import (
    F_DEEP_STRUCK,
    F_INGRESSED,
    F_SET_UP,
    MOVING,
    on_battlefield,
    unit_of,
)
from tabletop.state import GameState, Model, Selection, Unit

__all__ = ["embark_violations", "placement_violations", "tactical_after_all", "wholly_within"]


def wholly_within(model: Model, target: Any, limit: float) -> tuple[bool, float]:
    """Whether every point of ``model``'s base is within ``limit`` of the convex ``target``.

    Round base outside the target: farthest distance = centre distance + radius (exact for a
    convex target). Otherwise the farthest vertex of the measuring polygon (exact for polygons).
    """
    assert model.at is not None
    if isinstance(model.base, Round) and not target.contains(Point(model.at)):
        far = float(target.distance(Point(model.at))) + model.base.radius
    else:
        poly = exact_polygon(model)
        far = max(float(target.distance(Point(p))) for p in poly.exterior.coords)
    return far <= limit + EPS, far


def _edge_far(state: GameState, model: Model) -> float:
    """How far the farthest point of the base is from its nearest battlefield edge."""
    assert model.at is not None
    hx, hy = half_extents(model)
    x, y = model.at
    return min(x + hx, state.battlefield.width - x + hx, y + hy,
               state.battlefield.depth - y + hy)


def placement_violations(state: GameState, sel: Selection, models: Sequence[Model]
                          ) -> list[Violation]:
    """Set-up rules of an ingress or disembark for ``models`` (already placed in ``state``)."""
    unit = unit_of(state, sel.unit)
    out: list[Violation] = []
    me = unit.player
    enemies = [(u, m) for u, m in state.placed_models() if u.player != me]
    enemy_zone = state.opponent(me).zone_polygon
    limits_from: str | None = None
    if sel.move == "ingress":
        limits_from = sel.mode or "strategic-reserves"
    elif sel.move == "disembark":
        t = unit_of(state, unit.transport or "")
        tpoly = t.models[0].footprint if len(t.models) == 1 else None
        limit = rulings.DISEMBARK_RANGE[sel.mode or "tactical"]
        for m in models:
            assert m.at is not None
            far_ok = False
            far = math.inf
            for tm in t.models:
                if tm.at is None:
                    continue
                ok, d = wholly_within(m, exact_polygon(tm), limit)
                far = min(far, d)
                far_ok = far_ok or ok
            if not far_ok:
                out.append(Violation("disembark-range",
                                     f"{ident(m.id)} must be set up wholly within {fmt(limit)} of "
                                     f"{ident(t.id)} (its farthest point is {fmt(far)} away)",
                                     (m.id, t.id), far, limit, tpoly))
        if sel.mode == "rapid" and F_INGRESSED in t.flags:
            # the transport's own arrival limits (``docs/rulings.md``, disembark)
            limits_from = "deep-strike" if F_DEEP_STRUCK in t.flags else "strategic-reserves"
    if limits_from is not None:
        for m in models:
            assert m.at is not None
            if limits_from == "strategic-reserves" and sel.move == "ingress":
                far = _edge_far(state, m)
                if far > rulings.INGRESS_EDGE + EPS:
                    out.append(Violation("ingress-edge",
                                         f"{ident(m.id)} must be wholly within 6\" of a "
                                         "battlefield edge (its farthest point is "
                                         f"{fmt(far)} from the nearest edge)", (m.id,), far,
                                         rulings.INGRESS_EDGE,
                                         m.footprint))
            for eu, e in enemies:
                assert e.at is not None
                d = footprint_distance(m.base, m.at, m.facing, e.base, e.at, e.facing)
                if d <= rulings.INGRESS_ENEMY + EPS:
                    _, line = checks.closest(m, e)
                    out.append(Violation("setup-enemy",
                                         f"{ident(m.id)} must be set up more than 8\" from "
                                         f"every enemy model: {ident(e.id)} ({ident(eu.id)}) "
                                         f"is {fmt(d)} away",
                                         (m.id, e.id), d, rulings.INGRESS_ENEMY, line))
            if (limits_from == "strategic-reserves" and enemy_zone is not None
                    and state.battle.round < rulings.INGRESS_ZONE_FROM_ROUND
                    and footprint_overlaps(m, enemy_zone)):
                out.append(Violation("ingress-zone",
                                     f"{ident(m.id)} may not be set up in the enemy "
                                     "deployment zone before battle round "
                                     f"{rulings.INGRESS_ZONE_FROM_ROUND}",
                                     (m.id,), None, None,
                                     exact_polygon(m).intersection(enemy_zone)))
    return out


def tactical_after_all(state: GameState, unit: Unit, transport: Unit) -> bool:
    """Whether ``unit``, as placed, shows a tactical set-up: wholly within 3" and unengaged."""
    limit = rulings.DISEMBARK_RANGE["tactical"]
    hull = [exact_polygon(tm) for tm in transport.models if tm.at is not None]
    return not checks.engaged_with(state, unit) and all(
        any(wholly_within(m, h, limit)[0] for h in hull)
        for m in unit.models if m.at is not None)


def embark_violations(state: GameState, sel: Selection, transport_id: str) -> list[Violation]:
    """18.02: after a normal, advance or fall-back move, every model within 3" of the transport,
    and the unit not set up on the battlefield this turn."""
    out: list[Violation] = []
    unit = unit_of(state, sel.unit)
    if sel.move not in MOVING:
        return [Violation("embark", f"a unit may embark only after a normal, advance or "
                          f"fall-back move, not a {sel.move} move")]
    try:
        t = unit_of(state, transport_id)
    except KeyError:
        return [Violation("embark", f"no transport {ident(transport_id)}")]
    if not t.has("TRANSPORT") or t.player != unit.player or not on_battlefield(t):
        return [Violation("embark", f"{ident(transport_id)} is not a friendly TRANSPORT on the "
                          "battlefield")]
    if F_SET_UP in unit.flags:
        out.append(Violation("embark", f"{ident(unit.id)} was set up on the battlefield this turn"))
    for m in unit.models:
        if m.at is None:
            continue
        best = min(checks.closest(m, tm) for tm in t.models if tm.at is not None)
        if best[0] > rulings.EMBARK_RANGE + EPS:
            out.append(Violation("embark", f"{ident(m.id)} is {fmt(best[0])} from "
                                           f"{ident(transport_id)}; "
                                 "every model must be within 3\" to embark", (m.id,),
                                 best[0], rulings.EMBARK_RANGE, best[1]))
    return out


"""Threat ranges: where an enemy unit's models could reach in their next Movement phase, and
engage from there. No pygame.

For each model of the unit on the battlefield the legal-zone engine is run for that unit's
player, as if it were its Movement phase now, on the board as it stands: the exact zone of a
normal move (a fall back when the unit is engaged) and of an advance rolled at 6. The threat is
each zone grown by the model's circumscribed radius and the 2" engagement range: a model of the
other player standing inside it could be engaged by the end of that move. The zones are exact;
the growth uses the circumscribed circle of a non-round base, so the shading errs on the side of
showing too much, never too little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError
from tabletop.geometry.footprints import footprint_distance
from tabletop.geometry.tolerance import EPS
from tabletop.rules import rulings, zones
from tabletop.state import GameState, Unit

__all__ = ["ADVANCE_ROLL", "Threat", "threat"]

ADVANCE_ROLL = 6
"""The advance roll a threat range assumes (the most the unit could move)."""

QUAD_SEGS = 8
"""Segments per quarter circle of the growth (its polygon circumscribes the circle)."""


@dataclass(frozen=True)
class Threat:
    """The threat of one unit: where its models could end (``move``, ``advance``) and what they
    could engage from there (``engage_move``, ``engage_advance``)."""

    unit: str
    move_type: str
    move: BaseGeometry
    advance: BaseGeometry
    engage_move: BaseGeometry
    engage_advance: BaseGeometry
    reasons: tuple[str, ...] = ()
    """Models the engine gave no zone for, and why."""


def _union(parts: list[BaseGeometry]) -> BaseGeometry:
    parts = [p for p in parts if not p.is_empty]
    return shapely.union_all(parts) if parts else Polygon()


def _engaged(state: GameState, unit: Unit) -> bool:
    """Whether a model of ``unit`` is within engagement range of an enemy model."""
    own = [m for m in unit.models if m.at is not None]
    for u, e in state.placed_models():
        if u.player == unit.player:
            continue
        assert e.at is not None
        for m in own:
            assert m.at is not None
            reach = rulings.ENGAGEMENT_RANGE + EPS
            if math.dist(m.at, e.at) - m.base.radius - e.base.radius > reach:
                continue  # the circumscribed circles are already too far apart
            if footprint_distance(m.base, m.at, m.facing, e.base, e.at, e.facing) <= reach:
                return True
    return False


def threat(state: GameState, unit_id: str) -> Threat | None:
    """The threat range of ``unit_id`` (a wh40k-11e unit on the battlefield), or ``None``."""
    unit = state.unit(unit_id)
    if not isinstance(unit, Unit) or unit.location != "battlefield":
        return None
    placed = [m for m in unit.models if m.at is not None]
    if not placed:
        return None
    move_type = "fall-back" if _engaged(state, unit) else "normal"
    reach: list[BaseGeometry] = []
    adv: list[BaseGeometry] = []
    eng: list[BaseGeometry] = []
    eng_adv: list[BaseGeometry] = []
    reasons: list[str] = []
    grow = rulings.ENGAGEMENT_RANGE
    for m in placed:
        try:
            z = zones.legal_zone(state, m.id, move_type).geometry
            a = (zones.legal_zone(state, m.id, "advance", roll=ADVANCE_ROLL).geometry
                 if move_type == "normal" else z)
        except UserError as exc:
            reasons.append(f"{m.id}: {exc}")
            continue
        r = (m.base.radius + grow) / math.cos(math.pi / (4 * QUAD_SEGS))
        reach.append(z)
        adv.append(a)
        eng.append(z.buffer(r, quad_segs=QUAD_SEGS) if not z.is_empty else z)
        eng_adv.append(a.buffer(r, quad_segs=QUAD_SEGS) if not a.is_empty else a)
    table = state.battlefield.polygon
    return Threat(unit_id, move_type, _union(reach), _union(adv),
                  _union(eng).intersection(table), _union(eng_adv).intersection(table),
                  tuple(reasons))

"""End-of-move checks for wh40k-11e, each returning every violation with its geometry.

A :class:`Violation` names the rule, the models, the measured distance and the limit, and carries
a shapely geometry the window can draw (the segment between the closest points of two bases, or
the offending footprint). Distances are exact for round bases (analytic) and polygonal hulls; an
oval is measured through its circumscribed polygon (error below 1.2e-5", see
:func:`tabletop.geometry.footprints.footprint_distance`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.errors import ident
from tabletop.geometry.footprints import (
    OVAL_DISTANCE_SEGMENTS,
    Footprint,
    Oval,
    Round,
    footprint_distance,
)
from tabletop.geometry.tolerance import EPS
from tabletop.rules import rulings
from tabletop.rules.violation import Violation
from tabletop.state import GameState, Model, Unit

__all__ = [
    "OVAL_ERROR",
    "Violation",
    "bases_overlap",
    "closest",
    "coherency_violations",
    "edge_violations",
    "engaged_with",
    "engagement_violations",
    "exact_polygon",
    "half_extents",
    "is_engaged",
    "overlap_violations",
    "terrain_violations",
]

OVAL_ERROR = 1.2e-5
"""How far an oval's measuring polygon may lie outside the true ellipse (2048 vertices)."""


def fmt(d: float) -> str:
    """A distance for a message, e.g. ``1.90"``."""
    return f'{d:.2f}"'


def exact_polygon(model: Model) -> Polygon:
    """The placed footprint, with ovals at the fine measuring resolution."""
    assert model.at is not None
    if isinstance(model.base, Oval):
        return model.base.placed(model.at[0], model.at[1], model.facing,
                                 segments=OVAL_DISTANCE_SEGMENTS)
    return model.footprint


def closest(a: Model, b: Model) -> tuple[float, LineString]:
    """Distance between two placed models and the segment joining their closest points."""
    assert a.at is not None and b.at is not None
    d = footprint_distance(a.base, a.at, a.facing, b.base, b.at, b.facing)
    if isinstance(a.base, Round) and isinstance(b.base, Round):
        dx, dy = b.at[0] - a.at[0], b.at[1] - a.at[1]
        n = math.hypot(dx, dy) or 1.0
        ra, rb = a.base.radius, b.base.radius
        p = (a.at[0] + dx / n * ra, a.at[1] + dy / n * ra)
        q = (b.at[0] - dx / n * rb, b.at[1] - dy / n * rb)
        return d, LineString([p, q])
    pa, pb = nearest_points(_measuring(a), _measuring(b))
    return d, LineString([pa, pb])


def _measuring(m: Model) -> BaseGeometry:
    assert m.at is not None
    if isinstance(m.base, Round):
        return Point(m.at).buffer(m.base.radius, quad_segs=64)
    return exact_polygon(m)


def _poly_error(f: Footprint) -> float:
    return OVAL_ERROR if isinstance(f, Oval) else 0.0


def bases_overlap(a: Model, b: Model) -> bool:
    """Whether the interiors of two placed bases intersect (touching is not overlapping)."""
    assert a.at is not None and b.at is not None
    if isinstance(a.base, Round) and isinstance(b.base, Round):
        return math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) < (
            a.base.radius + b.base.radius - EPS)
    if isinstance(b.base, Round):
        a, b = b, a
    if isinstance(a.base, Round):
        assert a.at is not None
        poly = exact_polygon(b).buffer(-_poly_error(b.base))
        c = Point(a.at)
        return bool(poly.contains(c)) or poly.distance(c) < a.base.radius - EPS
    shrink = EPS + _poly_error(a.base) + _poly_error(b.base)
    return bool(exact_polygon(a).buffer(-shrink).intersects(exact_polygon(b)))


def footprint_overlaps(model: Model, geom: BaseGeometry) -> bool:
    """Whether a placed base's interior intersects the interior of ``geom`` (a polygon)."""
    assert model.at is not None
    if isinstance(model.base, Round):
        c = Point(model.at)
        return bool(geom.contains(c)) or (
            geom.exterior.distance(c) if isinstance(geom, Polygon) else geom.distance(c)
        ) < model.base.radius - EPS
    return bool(exact_polygon(model).buffer(-(EPS + _poly_error(model.base))).intersects(geom))


def half_extents(model: Model) -> tuple[float, float]:
    """Exact half-width (x) and half-depth (y) of a placed base's bounding box."""
    f = model.base
    if isinstance(f, Round):
        return f.radius, f.radius
    if isinstance(f, Oval):
        a, b = f.length_mm / 25.4 / 2, f.width_mm / 25.4 / 2
        t = math.radians(model.facing)
        return (math.sqrt((a * math.sin(t)) ** 2 + (b * math.cos(t)) ** 2),
                math.sqrt((a * math.cos(t)) ** 2 + (b * math.sin(t)) ** 2))
    assert model.at is not None
    x0, y0, x1, y1 = model.footprint.bounds
    return max(model.at[0] - x0, x1 - model.at[0]), max(model.at[1] - y0, y1 - model.at[1])


# -- the checks ---------------------------------------------------------------------------------

def _placed(unit: Unit) -> list[Model]:
    return [m for m in unit.models if m.at is not None]


def coherency_violations(unit: Unit) -> list[Violation]:
    """11e coherency: each model within 2" of at least one other, and within 9" of every other."""
    models = _placed(unit)
    if len(models) < 2:
        return []
    out: list[Violation] = []
    dist: dict[tuple[int, int], tuple[float, LineString]] = {}
    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            dist[i, j] = closest(models[i], models[j])
    for i, m in enumerate(models):
        best = min((dist[min(i, j), max(i, j)][0], j) for j in range(len(models)) if j != i)
        if best[0] > rulings.COHERENCY_ONE + EPS:
            j = best[1]
            d, line = dist[min(i, j), max(i, j)]
            out.append(Violation(
                "coherency-2",
                f"coherency: {ident(m.id)} is not within 2\" of another model of {ident(unit.id)} "
                f"(closest {ident(models[j].id)} at {fmt(d)})",
                (m.id, models[j].id), d, rulings.COHERENCY_ONE, line))
    for (i, j), (d, line) in dist.items():
        if d > rulings.COHERENCY_ALL + EPS:
            out.append(Violation(
                "coherency-9",
                f"coherency: {ident(models[i].id)} and {ident(models[j].id)} of {ident(unit.id)} "
                f"are {fmt(d)} apart (every model must be within 9\" of every other)",
                (models[i].id, models[j].id), d, rulings.COHERENCY_ALL, line))
    return out


def enemy_models(state: GameState, unit: Unit) -> Iterable[tuple[Unit, Model]]:
    """Every enemy model on the battlefield."""
    return ((u, m) for u, m in state.placed_models() if u.player != unit.player)


def engaged_with(state: GameState, unit: Unit, models: Iterable[Model] | None = None
                 ) -> list[tuple[Model, Unit, Model, float, LineString]]:
    """Pairs (own model, enemy unit, enemy model, distance, segment) within engagement range."""
    own = list(models) if models is not None else _placed(unit)
    out = []
    enemies = list(enemy_models(state, unit))
    for m in own:
        assert m.at is not None
        for eu, e in enemies:
            assert e.at is not None
            if math.hypot(m.at[0] - e.at[0], m.at[1] - e.at[1]) - m.base.radius - e.base.radius \
                    > rulings.ENGAGEMENT_RANGE + EPS:
                continue
            d, line = closest(m, e)
            if d <= rulings.ENGAGEMENT_RANGE + EPS:
                out.append((m, eu, e, d, line))
    return out


def is_engaged(state: GameState, unit: Unit) -> bool:
    """Whether any model of ``unit`` is within engagement range of an enemy model."""
    return bool(engaged_with(state, unit))


def engagement_violations(state: GameState, unit: Unit, *, allowed: Iterable[str] = ()
                          ) -> list[Violation]:
    """After Moving "your unit must be unengaged": each own/enemy pair within 2"."""
    ok = set(allowed)
    return [Violation("engaged",
                      f"must end unengaged: {ident(m.id)} is {fmt(d)} from enemy {ident(e.id)} "
                      f"({ident(eu.id)}); engagement range is 2\"", (m.id, e.id), d,
                      rulings.ENGAGEMENT_RANGE, line)
            for m, eu, e, d, line in engaged_with(state, unit) if eu.id not in ok]


def overlap_violations(state: GameState, unit: Unit) -> list[Violation]:
    """No model of ``unit`` may stand on another model (own or any other unit)."""
    own = _placed(unit)
    out = []
    others = [(u, m) for u, m in state.placed_models()]
    seen: set[frozenset[str]] = set()
    for m in own:
        assert m.at is not None
        for _, o in others:
            if o.id == m.id:
                continue
            key = frozenset((m.id, o.id))
            if key in seen:
                continue
            assert o.at is not None
            if math.hypot(m.at[0] - o.at[0], m.at[1] - o.at[1]) >= m.base.radius + o.base.radius:
                continue
            if bases_overlap(m, o):
                seen.add(key)
                geom = exact_polygon(m).intersection(exact_polygon(o))
                out.append(Violation("overlap", f"{ident(m.id)} overlaps {ident(o.id)}",
                                     (m.id, o.id), 0.0, None, geom))
    return out


def edge_violations(state: GameState, unit: Unit) -> list[Violation]:
    """No base may cross the battlefield edge."""
    out = []
    w, h = state.battlefield.width, state.battlefield.depth
    for m in _placed(unit):
        assert m.at is not None
        hx, hy = half_extents(m)
        x, y = m.at
        over = max(hx - x, x + hx - w, hy - y, y + hy - h)
        if over > EPS:
            out.append(Violation("edge",
                                 f"{ident(m.id)} crosses the battlefield edge by {fmt(over)}",
                                 (m.id,), over, 0.0, m.footprint))
    return out


def terrain_violations(state: GameState, unit: Unit) -> list[Violation]:
    """No model ends a move with its base overlapping a light, dense or impassable feature."""
    out = []
    feats = [t for t in state.terrain if t.kind in rulings.END_TERRAIN]
    for m in _placed(unit):
        for t in feats:
            if footprint_overlaps(m, t.shape):
                out.append(Violation("terrain", f"{ident(m.id)} ends partway through {t.kind} "
                                     f"terrain {ident(t.id)}", (m.id,), None, None,
                                     exact_polygon(m).intersection(t.shape)))
    return out

"""The ruler (M): measuring as players and judges do, base to base (no pygame).

Each end of the ruler snaps to what is under it, or within :data:`SNAP_PX` pixels of it: a model's
base first, then a terrain piece; the reading is the closest-points distance between the two
(base to base, base to terrain), or from a base or a terrain piece to a bare point, and the line
is drawn between the closest points. Distances are exact for round bases and polygons (a base's
centre distance minus its radius; polygon distances), and within a hundred-thousandth of an inch
for ovals (:func:`tabletop.geometry.footprints.distance`). Near the distances the rules care
about the reading shows three decimals, so 2.0004" does not read as 2.00".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry.footprints import Round, distance, footprint_distance
from tabletop.state import GameState, Model

__all__ = ["RULER_NEAR", "RULER_THRESHOLDS", "SNAP_PX", "Ruler", "Target", "measure",
           "ruler_label", "target_at"]

Pt = tuple[float, float]

RULER_THRESHOLDS = (1.0, 2.0, 3.0, 6.0, 8.0, 9.0, 12.0)
"""Distances the rules care about (coherency, engagement, set-up ranges...): near them the ruler
shows three decimals, so 2.0004" does not read as 2.00"."""

RULER_NEAR = 0.05
"""How close to a threshold (inches) the ruler switches to three decimals."""

SNAP_PX = 10.0
"""A ruler end this close to a base or a terrain piece (pixels) measures from it."""


def ruler_label(distance: float, *, bases: bool = False, what: str = "") -> str:
    """The ruler's reading: two decimals, three within :data:`RULER_NEAR` of a threshold;
    then what was measured (``base to base``...)."""
    near = any(abs(distance - t) <= RULER_NEAR for t in RULER_THRESHOLDS)
    s = f'{distance:.3f}"' if near else f'{distance:.2f}"'
    what = what or ("base to base" if bases else "")
    return s + (f" {what}" if what else "")


@dataclass(frozen=True)
class Target:
    """What a ruler end measures from: a model's base or a terrain piece (``kind``), by id."""

    kind: str
    id: str


@dataclass
class Ruler:
    """The measuring tool: where it was pressed and where the pointer is, what each end snapped
    to, and the reading between the closest points (``a``, ``b``)."""

    a: Pt
    b: Pt
    a_model: str | None = None
    b_model: str | None = None
    distance: float = 0.0
    label: str = ""
    pressed: Pt | None = None
    """Where the button was pressed (``a`` moves to a base's closest point)."""
    a_target: Target | None = None
    b_target: Target | None = None


def _placed(state: GameState) -> list[Model]:
    return [m for _, m in state.placed_models() if m.at is not None]


def target_at(state: GameState, p: Pt, snap: float) -> Target | None:
    """What a ruler end at ``p`` measures from: the base under it or nearest within ``snap``
    inches, else the terrain piece under it or within ``snap``; ``None`` for a bare point."""
    pt = Point(p)
    best: tuple[float, str] | None = None
    for m in _placed(state):
        assert m.at is not None
        if math.dist(m.at, p) > m.base.radius + snap:
            continue
        d = distance(m.base, m.at, m.facing, pt)
        if d <= snap and (best is None or d < best[0]):
            best = (d, m.id)
    if best is not None:
        return Target("model", best[1])
    near = [(t.shape.distance(pt), t.id) for t in state.terrain]
    near = [(d, i) for d, i in near if d <= snap]
    return Target("terrain", min(near)[1]) if near else None


def _model(state: GameState, mid: str) -> Model:
    m = state.model(mid)[1]
    assert m.at is not None
    return m


def _terrain(state: GameState, tid: str) -> BaseGeometry:
    return next(t.shape for t in state.terrain if t.id == tid)


def _base_to(m: Model, geom: object) -> tuple[float, Pt, Pt]:
    """The distance from ``m``'s base to ``geom``, and the closest points (on the base, on it)."""
    assert m.at is not None
    d = distance(m.base, m.at, m.facing, geom)  # type: ignore[arg-type]
    if isinstance(m.base, Round):
        q = nearest_points(geom, Point(m.at))[0]  # type: ignore[arg-type]
        c = m.at
        n = math.dist(c, (q.x, q.y))
        if n <= 1e-12:
            return d, c, c
        k = min(m.base.radius / n, 1.0)
        return d, (c[0] + (q.x - c[0]) * k, c[1] + (q.y - c[1]) * k), (q.x, q.y)
    pa, pb = nearest_points(m.footprint, geom)  # type: ignore[arg-type]
    return d, (pa.x, pa.y), (pb.x, pb.y)


def measure(state: GameState, r: Ruler) -> None:
    """Set ``r``'s reading from its ends' targets: the closest points and their distance."""
    pressed = r.pressed if r.pressed is not None else r.a
    a, b = r.a_target, r.b_target
    if a is not None and b is not None and a == b:
        b = None
    if a is None and b is not None:  # measure from the target, whichever end it is
        a, b, pressed, pointer = b, None, r.b, pressed
    else:
        pointer = r.b
    r.a_model = a.id if a is not None and a.kind == "model" else None
    r.b_model = b.id if b is not None and b.kind == "model" else None
    if a is None:
        r.a, r.b = pressed, pointer
        r.distance, r.label = math.dist(pressed, pointer), ruler_label(math.dist(pressed, pointer))
        return
    if a.kind == "model" and b is not None and b.kind == "model":
        ma, mb = _model(state, a.id), _model(state, b.id)
        assert ma.at is not None and mb.at is not None
        r.distance = footprint_distance(ma.base, ma.at, ma.facing, mb.base, mb.at, mb.facing)
        _, r.a, r.b = _base_to(ma, mb.footprint)
        r.label = ruler_label(r.distance, what="base to base")
        return
    if a.kind == "terrain" and b is not None and b.kind == "model":
        a, b = b, a
    if a.kind == "model":
        m = _model(state, a.id)
        if b is not None:  # to terrain
            shape = _terrain(state, b.id)
            r.distance, r.a, r.b = _base_to(m, shape)
            r.label = ruler_label(r.distance, what=f"base to terrain {b.id}")
        else:
            r.distance, r.a, r.b = _base_to(m, Point(pointer))
            r.label = ruler_label(r.distance, what="from the base")
        return
    shape = _terrain(state, a.id)
    other = _terrain(state, b.id) if b is not None else Point(pointer)
    pa, pb = nearest_points(shape, other)
    r.a, r.b = (pa.x, pa.y), (pb.x, pb.y)
    r.distance = float(shape.distance(other))
    r.label = ruler_label(r.distance, what="from terrain" if b is None else "terrain to terrain")

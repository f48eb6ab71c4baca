"""Checking one staged model move (a chain of straight lines) for wh40k-11e.

:func:`check_path` uses the legal-zone engine's ``validate_path`` (path rules and staying on the
battlefield; the end checks wait for the commit) when :mod:`tabletop.rules.zones` is present, and
otherwise the direct checks here: length against the
cap, no base passing over enemy models (with the MONSTER/VEHICLE and Desperate Escape
exceptions), the battlefield edge, impassable terrain and dense terrain (rulings, wh40k-11e).
A model keeps its facing along the lines and turns at the end (rotations are free).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from typing import Any

from shapely.geometry import LineString, MultiPoint, Point
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.footprints import Round
from tabletop.geometry.tolerance import EPS
from tabletop.rules.checks import Violation, fmt, half_extents
from tabletop.state import GameState, Model, Unit

__all__ = [
    "DENSE_CROSSERS",
    "DENSE_LOW",
    "check_path",
    "move_cap",
    "path_length",
]

DENSE_CROSSERS = ("INFANTRY", "BEASTS", "SWARM", "MOBILE")
"""Keywords whose models cross dense terrain features (rules-notes item 2)."""
DENSE_LOW = 2.0
"""Other models cross dense features only where ``height`` is at most this, inches."""
BIG = ("MONSTER", "VEHICLE")
COMMIT_ONLY = frozenset({"engaged", "overlap-model", "overlap-terrain"})
"""End checks of the legal-zone engine left to the commit: while a unit's move is staged its
models may stand on each other or in engagement range; the whole unit is checked when it ends."""


def path_length(points: Sequence[tuple[float, float]]) -> float:
    """Sum of the straight lines travelled by the base centre."""
    return sum(math.dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def move_cap(unit: Unit, model: Model, move: str, roll: int | None) -> float:
    """Maximum distance of ``model`` in ``move``: its M, plus the advance roll when advancing."""
    m = unit.move_of(model)
    return m + (roll or 0) if move == "advance" else m


def _zones() -> Any | None:
    try:
        return importlib.import_module("tabletop.rules.zones")
    except ModuleNotFoundError:
        return None


def check_path(state: GameState, model_id: str, move: str,
               points: Sequence[tuple[float, float]], *, roll: int | None = None,
               mode: str | None = None) -> list[Violation]:
    """Every violation of moving ``model_id`` along ``points`` (the first point is its start).

    ``state`` is the board with the model at its start.
    """
    zones = _zones()
    if zones is not None and hasattr(zones, "validate_path"):
        res = zones.validate_path(state, model_id, move, list(points), roll=roll, mode=mode)
        return [_from_zone(v, model_id) for v in getattr(res, "violations", res)
                if getattr(v, "rule", None) not in COMMIT_ONLY]
    return direct_path_violations(state, model_id, move, points, roll=roll, mode=mode)


def _from_zone(v: Any, model_id: str) -> Violation:
    if isinstance(v, Violation):
        return v
    get = (v.get if isinstance(v, dict) else lambda k, d=None: getattr(v, k, d))
    models = get("models", None) or (model_id,)
    return Violation(str(get("rule", None) or get("kind", None) or "path"),
                     str(get("message", None) or v), tuple(models), get("distance", None),
                     get("limit", None), get("geometry", None))


def _sweep(model: Model, a: tuple[float, float], b: tuple[float, float]) -> BaseGeometry:
    """The area a base covers moving in a straight line from ``a`` to ``b`` (convex bases)."""
    if isinstance(model.base, Round):
        return LineString([a, b]).buffer(model.base.radius, quad_segs=32) if a != b else \
            Point(a).buffer(model.base.radius, quad_segs=32)
    p = model.base.placed(a[0], a[1], model.facing)
    q = model.base.placed(b[0], b[1], model.facing)
    return MultiPoint(list(p.exterior.coords) + list(q.exterior.coords)).convex_hull


def direct_path_violations(state: GameState, model_id: str, move: str,
                           points: Sequence[tuple[float, float]], *, roll: int | None = None,
                           mode: str | None = None) -> list[Violation]:
    """The checks without the legal-zone engine (see the module docstring)."""
    unit, model = state.model(model_id)
    out: list[Violation] = []
    pts = [(float(p[0]), float(p[1])) for p in points]
    cap = move_cap(unit, model, move, roll)
    length = path_length(pts)
    if length > cap + EPS:
        out.append(Violation("path-length", f"{model_id} would move {fmt(length)}, more than its "
                             f"maximum of {fmt(cap)}", (model_id,), length, cap,
                             LineString(pts) if len(pts) > 1 else None))
    hx, hy = half_extents(model)
    w, h = state.battlefield.width, state.battlefield.depth
    for x, y in pts:
        if min(x - hx, w - x - hx, y - hy, h - y - hy) < -EPS:
            out.append(Violation("path-edge", f"{model_id} would cross the battlefield edge at "
                                 f"({x:.2f}, {y:.2f})", (model_id,), None, None, Point(x, y)))
            break
    through_enemies = mode == "desperate-escape"
    big = any(unit.has(k) for k in BIG) and move in ("normal", "advance")
    for i in range(len(pts) - 1):
        a, b = pts[i], pts[i + 1]
        if a == b:
            continue
        sweep = _sweep(model, a, b)  # type: ignore[arg-type]
        seg = LineString([a, b])
        if not through_enemies:
            for eu, e in state.placed_models():
                if eu.player == unit.player:
                    continue
                if big and not any(eu.has(k) for k in BIG):
                    continue
                assert e.at is not None
                if seg.distance(Point(e.at)) >= model.base.radius + e.base.radius:
                    continue
                if isinstance(model.base, Round) and isinstance(e.base, Round):
                    hit = seg.distance(Point(e.at)) < model.base.radius + e.base.radius - EPS
                else:
                    probe = Model(e.id, e.base, e.at, e.facing)
                    hit = bool(sweep.buffer(-EPS).intersects(probe.footprint))
                if hit:
                    out.append(Violation("path-enemy", f"{model_id} may not move through enemy "
                                         f"model {e.id} ({eu.id})", (model_id, e.id), None,
                                         None, seg))
        for t in state.terrain:
            blocked = t.kind == "impassable" or (
                t.kind == "dense" and not any(unit.has(k) for k in DENSE_CROSSERS)
                and t.height > DENSE_LOW)
            if blocked and sweep.buffer(-EPS).intersects(t.shape):
                out.append(Violation("path-terrain", f"{model_id} may not move through {t.kind} "
                                     f"terrain {t.id}", (model_id,), None, None,
                                     sweep.intersection(t.shape)))
    return out

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
from typing import Any

import numpy as np
import shapely
import shapely.affinity
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
from tabletop.geometry.tolerance import EPS, mm
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import rulings
from tabletop.state import GameState, Model, Unit

__all__ = [
    "MAX_FAR_PAIRS",
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


MAX_FAR_PAIRS = 2_000
"""Most pairs more than 9" apart listed one by one; a unit with more (a unit of hundreds of
models spread out: their number grows as the square of its size) gets one for each model, with
its farthest model by centre distance."""


def coherency_violations(unit: Unit) -> list[Violation]:
    """11e coherency: each model within 2" of at least one other, and within 9" of every other.

    The coherency-2 violations come first, in model order, each naming the model's closest
    (ties: the first listed); then the coherency-9 pairs in model order. Pairs are found
    through a tree of the models' centres and bounds on each pair's distance (the centre
    distance less, or more, than what each base reaches from its centre), so a unit of 10,000
    models costs what its close pairs cost, not all 50 million; the exact distance is measured
    only where the bounds do not decide, and the segment between the closest points only for a
    violation. At most :data:`MAX_FAR_PAIRS` pairs more than 9" apart are listed one by one."""
    models = _placed(unit)
    n = len(models)
    if n < 2:
        return []
    index = _CoherencyIndex(models)
    out: list[Violation] = []
    for i, (d, j) in index.far_from_all(rulings.COHERENCY_ONE + EPS):
        line = closest(models[i], models[j])[1]
        out.append(Violation(
            "coherency-2",
            f"coherency: {ident(models[i].id)} is not within 2\" of another model of "
            f"{ident(unit.id)} (closest {ident(models[j].id)} at {fmt(d)})",
            (models[i].id, models[j].id), d, rulings.COHERENCY_ONE, line))
    for i, j in index.pairs_beyond(rulings.COHERENCY_ALL + EPS, MAX_FAR_PAIRS):
        d, line = closest(models[i], models[j])
        out.append(Violation(
            "coherency-9",
            f"coherency: {ident(models[i].id)} and {ident(models[j].id)} of {ident(unit.id)} "
            f"are {fmt(d)} apart (every model must be within 9\" of every other)",
            (models[i].id, models[j].id), d, rulings.COHERENCY_ALL, line))
    return out


class _CoherencyIndex:
    """The placed models of a unit, with what bounds the distance of any two: their centres
    (in a tree), how far each base reaches from its centre (``reach``) and the disc about its
    centre it holds (``inner``: the half minor axis of an oval, half the shorter side of a
    rect; for a hull around an outside centre, minus the centre's distance to it). For two
    models ``|c_i - c_j| - reach_i - reach_j <= d(i, j) <= |c_i - c_j| - inner_i - inner_j``;
    an oval's pair the discs leave open is bounded again by 64-gons about and within it, and
    measured exactly (:func:`footprint_distance`) only in the 0.0001" those leave open."""

    def __init__(self, models: list[Model]) -> None:
        self.models = models
        self.centres = np.array([m.at for m in models], dtype=float)
        self.reach = np.array([m.base.radius for m in models])
        self.inner = np.array([_inner(m.base) for m in models])
        self.round = np.array([isinstance(m.base, Round) for m in models])
        self.off = np.maximum(-self.inner, 0.0)
        self.points = shapely.points(self.centres)
        self.tree = shapely.STRtree(self.points)
        self._coarse: dict[int, tuple[BaseGeometry, BaseGeometry]] = {}

    def exact(self, i: int, j: int) -> float:
        """The distance of models ``i`` and ``j``, measured from the first listed."""
        a, b = self.models[min(i, j)], self.models[max(i, j)]
        assert a.at is not None and b.at is not None
        return footprint_distance(a.base, a.at, a.facing, b.base, b.at, b.facing)

    def _outline(self, i: int) -> tuple[BaseGeometry, BaseGeometry]:
        """Polygons about and within model ``i``'s footprint (for a round base its centre
        twice, its radius taken off after; for a rect or hull its exact polygon twice)."""
        if i not in self._coarse:
            m = self.models[i]
            assert m.at is not None
            if isinstance(m.base, Round):
                c = Point(m.at)
                self._coarse[i] = (c, c)
            elif isinstance(m.base, Oval):
                out = m.base.placed(m.at[0], m.at[1], m.facing, segments=COARSE)
                # a polygon about an ellipse, shrunk by cos(pi / n) about the centre, has its
                # vertices on it (so for a circle; an affine map keeps it so)
                k = math.cos(math.pi / COARSE)
                self._coarse[i] = (out, shapely.affinity.scale(out, k, k, origin=m.at))
            else:
                poly = m.footprint
                self._coarse[i] = (poly, poly)
        return self._coarse[i]

    def within(self, i: int, j: int, limit: float) -> bool:
        """Whether models ``i`` and ``j`` are at most ``limit`` apart as
        :func:`footprint_distance` measures them."""
        ia, ja = self.models[i].base, self.models[j].base
        if not (isinstance(ia, Oval) or isinstance(ja, Oval)):
            return self.exact(i, j) <= limit
        (oi, ii), (oj, jj) = self._outline(i), self._outline(j)
        less = self.reach[i] * self.round[i] + self.reach[j] * self.round[j]
        low = float(oi.distance(oj)) - less
        high = float(ii.distance(jj)) - less
        if high <= limit:
            return True
        if low - 2 * OVAL_ERROR > limit:  # (the measuring polygon reaches out that much)
            return False
        return self.exact(i, j) <= limit

    def _candidates(self, limit: float, budget: int | None = None
                    ) -> tuple[Any, Any, Any] | None:
        """Pairs ``i != j`` whose lower bound is at most ``limit``, with their centre distance;
        ``None`` when there are more than ``budget`` pairs to look at (a dense unit)."""
        radius = limit + self.reach + self.reach.max()
        parts: list[tuple[Any, Any]] = []
        total = 0
        step = 512
        for start in range(0, len(self.models), step):
            a, b = self.tree.query(self.points[start:start + step], predicate="dwithin",
                                   distance=radius[start:start + step])
            parts.append((a + start, b))
            total += len(a)
            if budget is not None and total > budget:
                return None
        a = np.concatenate([x for x, _ in parts])
        b = np.concatenate([y for _, y in parts])
        keep = a != b
        a, b = a[keep], b[keep]
        cd = np.hypot(*(self.centres[a] - self.centres[b]).T)
        keep = cd - self.reach[a] - self.reach[b] <= limit
        return a[keep], b[keep], cd[keep]

    def _within(self, a: Any, b: Any, cd: Any, limit: float) -> Any:
        """For each pair: whether its distance is at most ``limit`` (bounds first, exact where
        they do not decide)."""
        a, b, cd = np.asarray(a), np.asarray(b), np.asarray(cd)
        both = self.round[a] & self.round[b]
        dist = np.maximum(cd - self.reach[a] - self.reach[b], 0.0)
        within = np.where(both, dist <= limit, cd - self.inner[a] - self.inner[b] <= limit)
        for k in np.nonzero(~both & ~within)[0]:
            within[k] = self.within(int(a[k]), int(b[k]), limit)
        return within

    def far_from_all(self, limit: float) -> list[tuple[int, tuple[float, int]]]:
        """``(i, (d, j))`` for each model with no other within ``limit``: its closest ``j`` at
        ``d`` (the smallest ``(d, j)``). Each model's nearest centre is tried first (in a unit
        in coherency it answers); only the others look at every model their bound allows."""
        a, b = self.tree.query_nearest(self.points, exclusive=True, all_matches=False)
        cd = np.hypot(*(self.centres[a] - self.centres[b]).T)
        has = np.zeros(len(self.models), dtype=bool)
        has[a[np.asarray(self._within(a, b, cd, limit), dtype=bool)]] = True
        out = []
        top = float(self.reach.max())
        for i in map(int, np.nonzero(~has)[0]):
            near = self.tree.query(self.points[i], predicate="dwithin",
                                   distance=limit + self.reach[i] + top + EPS)
            found = [j for j in map(int, near) if j != i and self.within(i, j, limit)]
            if found:
                continue
            j0 = int(b[a == i][0])
            best = self.exact(i, j0)
            near = self.tree.query(self.points[i], predicate="dwithin",
                                   distance=best + self.reach[i] + top + EPS)
            out.append((i, min((self.exact(i, j), j) for j in map(int, near) if j != i)))
        return out

    def pairs_beyond(self, limit: float, most: int) -> list[tuple[int, int]]:
        """The pairs ``i < j`` farther apart than ``limit``, in order; when there are more than
        ``most`` (or the unit is too dense to look at every pair within the limit: over
        :data:`PAIRS_LOOKED_AT`), for each model its farthest by centre distance, if farther
        than the limit (pairs in order, once)."""
        n = len(self.models)
        if _diameter(self.centres) + 2 * float(self.off.max()) <= limit:
            return []  # every pair is within the limit: a compact unit
        found = self._candidates(limit, PAIRS_LOOKED_AT)
        if found is not None:
            a, b, cd = found
            up = a < b
            a, b, cd = a[up], b[up], cd[up]
            within = np.asarray(self._within(a, b, cd, limit), dtype=bool)
            if n * (n - 1) // 2 - int(within.sum()) <= most:
                near = set(zip(a[within].tolist(), b[within].tolist(), strict=True))
                out = []
                for i in range(n - 1):
                    out += [(i, j) for j in range(i + 1, n) if (i, j) not in near]
                return out
        hull = _hull_vertices(self.centres)
        pairs = set()
        for start in range(0, n, 1024):  # each model's farthest hull vertex, in blocks
            block = self.centres[start:start + 1024]
            far = np.hypot(*(self.centres[hull][None, :, :] - block[:, None, :]).transpose(
                2, 0, 1)).argmax(axis=1)
            for i, j in zip(range(start, start + len(block)), hull[far].tolist(), strict=True):
                pair = (min(i, j), max(i, j))
                if j != i and pair not in pairs and not self.within(i, j, limit):
                    pairs.add(pair)
        return sorted(pairs)


COARSE = 64
"""Vertices of the polygons that bound an oval before it is measured exactly."""


def _inner(base: Footprint) -> float:
    """The radius of the disc about a base's centre that the base holds (negative: the centre
    lies that far outside it, a hull)."""
    if isinstance(base, Round):
        return base.radius
    if isinstance(base, Oval):
        return mm(min(base.length_mm, base.width_mm)) / 2.0
    poly = base.local_polygon()
    centre = Point(0.0, 0.0)
    if poly.contains(centre):
        return float(poly.exterior.distance(centre))
    return -float(poly.distance(centre))


PAIRS_LOOKED_AT = 2_000_000
"""Most pairs of a unit looked at for the 9" rule before it is taken as too dense to list each
pair (10,000 models of 1 mm 10" across: 50 million)."""


def _hull_vertices(points: Any) -> Any:
    """Indices of the points on the convex hull of ``points`` (all of them if degenerate)."""
    pts = np.asarray(points)
    hull = shapely.convex_hull(shapely.multipoints(pts))
    coords = shapely.get_coordinates(hull)
    idx = {tuple(p): k for k, p in enumerate(map(tuple, pts))}
    found = sorted({idx[tuple(c)] for c in coords if tuple(c) in idx})
    return np.array(found or range(len(pts)))


def _diameter(points: Any) -> float:
    """The largest distance between two of ``points`` (over their convex hull's vertices)."""
    pts = np.asarray(points)[_hull_vertices(points)]
    if len(pts) > 2000:  # (a hull of so many vertices: the bounding box bounds it)
        return float(np.hypot(*(pts.max(axis=0) - pts.min(axis=0))))
    return float(np.max(np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))))


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

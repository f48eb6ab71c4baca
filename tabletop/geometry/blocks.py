"""Rank-and-file blocks (t9a-2): formation, arcs, straight moves, wheels, reforms and flees.

Pure geometry: a block is ``models`` rectangular bases (``base_w`` across, ``base_d`` deep, in
inches) in ranks of ``files``, standing at its Centre of Unit ``at`` and facing ``facing``
(degrees clockwise, 0 = towards -y; the block looks along ``(sin f, -cos f)`` and its right is
``(cos f, sin f)`` on our y-down board).

Conventions chosen here
-----------------------
- The unit boundary is the rectangle ``files * base_w`` wide and ``ranks * base_d`` deep; the
  Centre of Unit is its centre (an incomplete last rank does not shrink the boundary).
- An incomplete last rank is **centred** behind the rank in front of it (its models sit half a
  base apart from the file lines when the gap is odd).
- Models are numbered rank by rank from the front, left to right as the block sees it. A straight
  move or a wheel keeps every model in its place, so model ``i`` before is model ``i`` after.
- A wheel of ``angle`` degrees (positive = clockwise) turns the block about the front corner on
  the inside of the turn: the right front corner for a clockwise wheel, the left one otherwise.
- Swept areas are never smaller than the true area: a straight move sweeps the convex hull of
  the start and end rectangles (exact); a wheel sweeps the start and end rectangles, the circular
  sector swept by the front edge and the annular band swept by the outer flank. Arcs are
  polygonised with the outer arcs circumscribed and the inner arc inscribed, so the polygon
  contains the true area and exceeds it by at most ``r * (1 / cos(step / 2) - 1)`` with
  ``step = WHEEL_STEP_DEG`` (below 4e-5 of the radius).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.tolerance import EPS

__all__ = [
    "WHEEL_STEP_DEG",
    "Arc",
    "BlockGeom",
    "bottleneck_assignment",
    "clear_of",
    "flee_clear_distance",
    "furthest_straight",
    "model_sweeps",
    "overlaps",
    "rotate_point",
    "straight_sweep",
    "wheel_limits",
    "wheel_sweep",
]

WHEEL_STEP_DEG = 1.0
"""Angular step of the polygonised arcs of a wheel's swept area, in degrees."""

Arc = Literal["front", "rear", "left", "right"]
Direction = Literal["forward", "backward", "sideways"]


def rotate_point(p: Sequence[float], origin: Sequence[float], angle: float) -> tuple[float, float]:
    """``p`` turned ``angle`` degrees clockwise (on the y-down board) about ``origin``."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    dx, dy = p[0] - origin[0], p[1] - origin[1]
    return (origin[0] + dx * c - dy * s, origin[1] + dx * s + dy * c)


@dataclass(frozen=True)
class BlockGeom:
    """A block's shape and pose.

    Parameters
    ----------
    base_w, base_d : float
        One base's frontage and depth, in inches.
    models, files : int
        Number of models and of files (models per full rank).
    at : (float, float)
        Centre of Unit.
    facing : float
        Degrees clockwise, 0 = towards -y.
    """

    base_w: float
    base_d: float
    models: int
    files: int
    at: tuple[float, float]
    facing: float = 0.0

    def __post_init__(self) -> None:
        if self.models < 1 or self.files < 1:
            raise ValueError("a block needs at least one model and one file")
        if self.files > self.models:
            raise ValueError(f"{self.files} files need at least {self.files} models")

    # -- formation --------------------------------------------------------------------------
    @property
    def ranks(self) -> int:
        """Number of ranks, counting an incomplete last rank."""
        return -(-self.models // self.files)

    @property
    def width(self) -> float:
        """Frontage of the block in inches."""
        return self.files * self.base_w

    @property
    def depth(self) -> float:
        """Depth of the block in inches."""
        return self.ranks * self.base_d

    @property
    def forward(self) -> tuple[float, float]:
        """Unit vector the block faces."""
        a = math.radians(self.facing)
        return (math.sin(a), -math.cos(a))

    @property
    def right(self) -> tuple[float, float]:
        """Unit vector to the block's right."""
        a = math.radians(self.facing)
        return (math.cos(a), math.sin(a))

    def to_world(self, u: float, v: float) -> tuple[float, float]:
        """World point of local ``(u, v)``: ``u`` to the right, ``v`` forwards, from the centre."""
        f, r = self.forward, self.right
        return (self.at[0] + u * r[0] + v * f[0], self.at[1] + u * r[1] + v * f[1])

    def to_local(self, p: Sequence[float]) -> tuple[float, float]:
        """Local ``(u, v)`` (right, forwards) of world point ``p``."""
        f, r = self.forward, self.right
        dx, dy = p[0] - self.at[0], p[1] - self.at[1]
        return (dx * r[0] + dy * r[1], dx * f[0] + dy * f[1])

    @cached_property
    def local_centres(self) -> np.ndarray:
        """Model centres in local ``(u, v)`` coordinates, shape ``(models, 2)``."""
        w, d = self.width, self.depth
        out = []
        for i in range(self.models):
            rank, file = divmod(i, self.files)
            in_rank = min(self.files, self.models - rank * self.files)
            offset = (self.files - in_rank) * self.base_w / 2.0
            u = -w / 2.0 + offset + (file + 0.5) * self.base_w
            v = d / 2.0 - (rank + 0.5) * self.base_d
            out.append((u, v))
        return np.array(out, dtype=float)

    @cached_property
    def centres(self) -> np.ndarray:
        """Model centres on the board, shape ``(models, 2)``."""
        f, r = np.array(self.forward), np.array(self.right)
        lc = self.local_centres
        return np.array(self.at) + np.outer(lc[:, 0], r) + np.outer(lc[:, 1], f)

    @property
    def corners(self) -> dict[str, tuple[float, float]]:
        """``fl``, ``fr``, ``rr``, ``rl``: front-left, front-right, rear-right, rear-left."""
        hw, hd = self.width / 2.0, self.depth / 2.0
        return {"fl": self.to_world(-hw, hd), "fr": self.to_world(hw, hd),
                "rr": self.to_world(hw, -hd), "rl": self.to_world(-hw, -hd)}

    @cached_property
    def polygon(self) -> Polygon:
        """The unit boundary (the rectangle around every base)."""
        c = self.corners
        return Polygon([c["fl"], c["fr"], c["rr"], c["rl"]])

    def model_polygons(self) -> list[Polygon]:
        """Every model's base on the board, in model order."""
        hw, hd = self.base_w / 2.0, self.base_d / 2.0
        out = []
        for u, v in self.local_centres:
            out.append(Polygon([self.to_world(u - hw, v + hd), self.to_world(u + hw, v + hd),
                                self.to_world(u + hw, v - hd), self.to_world(u - hw, v - hd)]))
        return out

    def facing_edges(self) -> dict[str, LineString]:
        """The four facings as segments: ``front``, ``rear``, ``left``, ``right``."""
        c = self.corners
        return {"front": LineString([c["fl"], c["fr"]]), "rear": LineString([c["rl"], c["rr"]]),
                "left": LineString([c["fl"], c["rl"]]), "right": LineString([c["fr"], c["rr"]])}

    def arc_lines(self, length: float = 100.0) -> list[LineString]:
        """The four arc dividers: from each corner outwards at 135 degrees to both facings."""
        hw, hd = self.width / 2.0, self.depth / 2.0
        k = length / math.sqrt(2.0)
        out = []
        for su, sv in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
            a = self.to_world(su * hw, sv * hd)
            b = self.to_world(su * (hw + k), sv * (hd + k))
            out.append(LineString([a, b]))
        return out

    def arc_of(self, p: Sequence[float]) -> Arc:
        """The arc point ``p`` lies in; a point on a dividing line is in a Flank arc (T17)."""
        u, v = self.to_local(p)
        hw, hd = self.width / 2.0, self.depth / 2.0
        if v - hd > abs(u) - hw + EPS:
            return "front"
        if -v - hd > abs(u) - hw + EPS:
            return "rear"
        return "right" if u > 0 else "left"

    # -- poses ------------------------------------------------------------------------------
    def moved(self, direction: Direction, distance: float) -> BlockGeom:
        """The block after a straight move (sideways: positive = to its right)."""
        f, r = self.forward, self.right
        if direction == "forward":
            d = (f[0] * distance, f[1] * distance)
        elif direction == "backward":
            d = (-f[0] * distance, -f[1] * distance)
        else:
            d = (r[0] * distance, r[1] * distance)
        return replace(self, at=(self.at[0] + d[0], self.at[1] + d[1]))

    def wheel_pivot(self, angle: float) -> tuple[float, float]:
        """The front corner on the inside of a wheel of ``angle`` degrees."""
        return self.corners["fr" if angle > 0 else "fl"]

    def wheeled(self, angle: float) -> BlockGeom:
        """The block after wheeling ``angle`` degrees (positive = clockwise)."""
        if angle == 0:
            return self
        p = self.wheel_pivot(angle)
        return replace(self, at=rotate_point(self.at, p, angle), facing=self.facing + angle)

    def pivoted(self, facing: float) -> BlockGeom:
        """The block turned about its Centre of Unit to ``facing``."""
        return replace(self, facing=facing)

    def reformed(self, files: int, facing: float) -> BlockGeom:
        """The block rebuilt about its Centre of Unit with ``files`` files, facing ``facing``."""
        return replace(self, files=files, facing=facing)

    def outer_arc_length(self, angle: float) -> float:
        """Length of the arc the outer front corner travels in a wheel (information only)."""
        return self.width * math.radians(abs(angle))

    def displacements(self, other: BlockGeom) -> np.ndarray:
        """Each model's centre displacement from ``self`` to ``other`` (same formation)."""
        return np.hypot(*(other.centres - self.centres).T)


# -- swept areas --------------------------------------------------------------------------
def straight_sweep(a: BlockGeom, b: BlockGeom) -> Polygon:
    """Area swept by a straight move from ``a`` to ``b``: the hull of both rectangles (exact)."""
    return shapely.convex_hull(shapely.union(a.polygon, b.polygon))


def _arc_points(centre: Sequence[float], start: Sequence[float], angle: float, *,
                outer: bool) -> np.ndarray:
    """Points (an ``(n, 2)`` array, ``start`` first) of the arc traced by ``start`` turning
    ``angle`` degrees about ``centre``.

    ``outer``: vertices on tangent lines (polygon contains the disc side); otherwise vertices on
    the circle (chords, polygon contains the outside of the circle). Computed as arrays (a wheel's
    sweep is asked for on every pointer motion and many times per wheel range).
    """
    n = max(1, math.ceil(abs(angle) / WHEEL_STEP_DEG))
    step = angle / n
    cx, cy = float(centre[0]), float(centre[1])
    dx, dy = float(start[0]) - cx, float(start[1]) - cy
    if outer:
        ks = (np.arange(n, dtype=float) + 0.5) * step
        scale = 1.0 / math.cos(math.radians(step) / 2.0)
    else:
        ks = np.arange(1, n, dtype=float) * step
        scale = 1.0
    a = np.radians(np.append(ks, angle))
    c, s = np.cos(a), np.sin(a)
    out = np.empty((len(a) + 1, 2))
    out[0] = (float(start[0]), float(start[1]))
    out[1:, 0] = dx * c - dy * s
    out[1:, 1] = dx * s + dy * c
    out[1:-1] *= scale
    out[1:, 0] += cx
    out[1:, 1] += cy
    return out


def wheel_sweep(block: BlockGeom, angle: float) -> BaseGeometry:
    """Area swept by the block while wheeling ``angle`` degrees (never smaller than the truth).

    The pivot P is the inner front corner, A the outer front corner, B the outer rear corner.
    In polar coordinates about P every point of the block turns along its circle, so the area
    swept is the start and end rectangles plus what the leading boundary (the front edge PA, then
    the outer flank AB) sweeps: the sector of radius |PA| and the band between radii |PA| and
    |PB| bounded by the start and end positions of AB.
    """
    end = block.wheeled(angle)
    if angle == 0:
        return block.polygon
    c = block.corners
    p = block.wheel_pivot(angle)
    # a wheel so slight that no point moves EPS: the sector and band below would be slivers
    # GEOS rounds away; every position lies within that move of the start (mitred: a superset;
    # below 1e-10", far under the rules' tolerance, GEOS's buffer is empty: the two positions)
    moved = math.radians(abs(angle)) * max(math.dist(p, q) for q in c.values())
    if moved < EPS:
        both = shapely.union(block.polygon, end.polygon)
        return both.buffer(moved, join_style="mitre") if moved >= 1e-10 else both
    a0 = c["fl"] if angle > 0 else c["fr"]
    b0 = c["rl"] if angle > 0 else c["rr"]
    a1 = rotate_point(a0, p, angle)
    b1 = rotate_point(b0, p, angle)
    sector = shapely.polygons(np.vstack([np.asarray(p, dtype=float)[None],
                                         _arc_points(p, a0, angle, outer=True)]))
    inner = _arc_points(p, a0, angle, outer=False)
    band = shapely.polygons(np.vstack([np.array([a0, b0], dtype=float),
                                       _arc_points(p, b0, angle, outer=True)[1:-1],
                                       np.array([b1, a1], dtype=float), inner[-2:0:-1]]))
    parts = [block.polygon, end.polygon, sector.buffer(0), band.buffer(0)]
    return shapely.union_all(parts)


def model_sweeps(block: BlockGeom, end: BlockGeom, angle: float = 0.0) -> list[BaseGeometry]:
    """Area each model's base sweeps from ``block`` to ``end`` (never smaller than the truth).

    ``angle`` = 0: a straight move (hull of the two bases, exact). Otherwise ``end`` must be
    ``block.wheeled(angle)``: hulls of consecutive positions every ``WHEEL_STEP_DEG`` degrees,
    grown by the largest sagitta ``R * (1 - cos(step / 2))`` (R: farthest base corner from the
    pivot), which covers the arcs between samples.
    """
    starts, ends = block.model_polygons(), end.model_polygons()
    if angle == 0:
        return [shapely.convex_hull(shapely.union(a, b)) for a, b in zip(starts, ends,
                                                                          strict=True)]
    n = max(1, math.ceil(abs(angle) / WHEEL_STEP_DEG))
    step = angle / n
    pivot = block.wheel_pivot(angle)
    out = []
    for poly in starts:
        r = max(math.dist(pivot, c) for c in poly.exterior.coords)
        grow = r * (1.0 - math.cos(math.radians(step) / 2.0)) + EPS
        frames = [affinity.rotate(poly, k * step, origin=pivot) for k in range(n + 1)]
        hulls = [shapely.convex_hull(shapely.union(frames[k], frames[k + 1])) for k in range(n)]
        out.append(shapely.union_all(hulls).buffer(grow))
    return out


# -- predicates ---------------------------------------------------------------------------
def overlaps(area: BaseGeometry, other: BaseGeometry) -> bool:
    """Whether the interiors overlap by more than the tolerance (touching is not overlapping)."""
    if area.is_empty or other.is_empty or not area.intersects(other):
        return False
    shrunk = area.buffer(-EPS, join_style="mitre")
    return bool(not shrunk.is_empty and shrunk.intersects(other))


def clear_of(area: BaseGeometry, other: BaseGeometry, gap: float) -> bool:
    """Whether ``area`` is more than ``gap`` from ``other`` (``d > gap + EPS``)."""
    return bool(area.distance(other) > gap + EPS)


# -- range queries ------------------------------------------------------------------------
def _bisect(ok: Callable[[float], bool], lo: float, hi: float, iters: int = 50) -> float:
    """Largest x in [lo, hi] with ``ok(x)``, given ``ok(lo)`` and monotone failure past a point."""
    if ok(hi):
        return hi
    for _ in range(iters):
        mid = (lo + hi) / 2.0
        if ok(mid):
            lo = mid
        else:
            hi = mid
        if hi - lo < EPS / 4:
            break
    return lo


def furthest_straight(block: BlockGeom, direction: Direction, limit: float,
                      obstacles: BaseGeometry, *, sign: float = 1.0,
                      cap: Callable[[BlockGeom], bool] | None = None) -> float:
    """Furthest distance up to ``limit`` the block can move straight without its swept area
    overlapping ``obstacles`` (and, if given, with ``cap(end)`` true all the way).

    ``sign`` = -1 moves sideways to the left. The swept area of a straight move grows with the
    distance, so the legal distances form an interval starting at 0.
    """
    if limit <= 0:
        return 0.0

    def ok(d: float) -> bool:
        end = block.moved(direction, sign * d)
        if overlaps(straight_sweep(block, end), obstacles):
            return False
        return cap is None or cap(end)

    return _bisect(ok, 0.0, limit)


def wheel_limits(block: BlockGeom, obstacles: BaseGeometry, *, max_angle: float = 180.0,
                 cap: Callable[[BlockGeom], bool] | None = None) -> tuple[float, float]:
    """Range ``(lo, hi)`` of wheel angles (degrees, lo <= 0 <= hi) whose swept area is clear of
    ``obstacles`` and, if given, whose end satisfies ``cap``. The area grows with the angle.
    The cap is probed every degree before bisection, so a cap that fails and recovers within
    one degree may be missed; the swept-area bound is exact to the bisection tolerance.

    The first whole degree whose sweep overlaps is found by bisection over whole degrees (the
    swept area only grows with the angle), the cap is probed at every whole degree before it,
    and the last degree is bisected: the same answer as stepping degree by degree, with about
    ten sweeps instead of one per degree.
    """
    steps = [min(max_angle, float(k)) for k in range(1, math.ceil(max_angle) + 1)]
    out = []
    for sgn in (1.0, -1.0):
        def clear(a: float, sgn: float = sgn) -> bool:
            return a == 0 or not overlaps(wheel_sweep(block, sgn * a), obstacles)

        def capped(a: float, sgn: float = sgn) -> bool:
            return cap is None or a == 0 or cap(block.wheeled(sgn * a))

        def ok(a: float) -> bool:
            return clear(a) and capped(a)

        if not steps:
            out.append(0.0)
            continue
        first = len(steps)  # index of the first whole degree whose sweep overlaps
        if not clear(steps[-1]):
            lo, hi = 0, len(steps) - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if clear(steps[mid]):
                    lo = mid + 1
                else:
                    hi = mid
            first = lo
        k = next((i for i in range(first) if not capped(steps[i])), first)
        if k == len(steps):
            out.append(sgn * steps[-1])
            continue
        prev = steps[k - 1] if k > 0 else 0.0
        out.append(sgn * _bisect(ok, prev, steps[k]))
    return (out[1], out[0])


# -- flee ---------------------------------------------------------------------------------
def _forbidden_intervals(block: BlockGeom, obstacle: BaseGeometry, gap: float,
                         quad_segs: int, circumscribed: bool) -> list[tuple[float, float]]:
    """Distances ``t`` (forwards) at which the block comes within ``gap`` of ``obstacle``."""
    r = gap
    if circumscribed:
        # (GEOS may turn a corner's segment by 1.5 steps: its chord at r cos(3 pi / (8 qs)))
        r = gap / math.cos(3.0 * math.pi / (8 * quad_segs))
    grown = obstacle.buffer(r, quad_segs=quad_segs) if r > 0 else obstacle
    # into the block's frame: u right, v forwards (translate, then rotate so forward -> +y)
    local = affinity.translate(grown, -block.at[0], -block.at[1])
    local = affinity.rotate(local, -block.facing, origin=(0.0, 0.0))
    # in the rotated frame forward is (0, -1): v = -y
    hw, hd = block.width / 2.0, block.depth / 2.0
    strip = box(-hw, -1e6, hw, 1e6)
    clipped = local.intersection(strip)
    parts = getattr(clipped, "geoms", [clipped])
    out = []
    for part in parts:
        if part.is_empty:
            continue
        _minx, miny, _maxx, maxy = part.bounds
        out.append((-maxy - hd, -miny + hd))
    return out


def flee_clear_distance(block: BlockGeom, distance: float, obstacles: Sequence[BaseGeometry],
                        gap: float = 1.0) -> float:
    """Smallest ``t >= distance`` so that the block moved ``t`` forwards ends more than ``gap``
    from every obstacle (the minimum extension of a flee move).

    Computed from the forbidden intervals of the obstacles grown by ``gap`` (circumscribed and
    inscribed roundings bracket the answer), then refined against exact polygon distances.
    """
    def first_free(circ: bool) -> float:
        ivs = sorted(iv for ob in obstacles
                     for iv in _forbidden_intervals(block, ob, gap + 2 * EPS, 64, circ))
        t = distance
        changed = True
        while changed:
            changed = False
            for lo, hi in ivs:
                if lo <= t < hi:
                    t = hi
                    changed = True
        return t

    t_hi = first_free(True)
    t_lo = first_free(False)
    if t_hi <= distance:
        return distance

    def ok(t: float) -> bool:
        poly = block.moved("forward", t).polygon
        return all(clear_of(poly, ob, gap) for ob in obstacles)

    if not ok(t_hi):
        return t_hi
    if t_lo < t_hi and not ok(t_lo):
        lo, hi = t_lo, t_hi
        for _ in range(60):
            mid = (lo + hi) / 2.0
            if ok(mid):
                hi = mid
            else:
                lo = mid
            if hi - lo < EPS / 8:
                break
        return hi
    return t_lo if ok(t_lo) else t_hi


def bottleneck_assignment(a: np.ndarray, b: np.ndarray) -> float:
    """Smallest ``m`` such that the points ``a`` can be matched one-to-one to ``b`` with every
    matched pair at most ``m`` apart (models of a reform may take any place in the new formation).
    """
    n = len(a)
    if n != len(b):
        raise ValueError("both formations need the same number of models")
    dist = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    values = np.unique(dist)
    lo_bound = max(dist.min(axis=1).max(), dist.min(axis=0).max())
    values = values[values >= lo_bound - 1e-12]

    def feasible(m: float) -> bool:
        allowed = [np.nonzero(dist[i] <= m)[0].tolist() for i in range(n)]
        match_b = [-1] * n

        def augment(i: int, seen: list[bool]) -> bool:
            for j in allowed[i]:
                if not seen[j]:
                    seen[j] = True
                    if match_b[j] < 0 or augment(match_b[j], seen):
                        match_b[j] = i
                        return True
            return False

        return all(augment(i, [False] * n) for i in range(n))

    lo, hi = 0, len(values) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if feasible(float(values[mid])):
            hi = mid
        else:
            lo = mid + 1
    return float(values[lo])


def point(p: Sequence[float]) -> Point:
    """A shapely point (convenience for callers)."""
    return Point(p[0], p[1])

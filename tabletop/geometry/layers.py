"""Reachability of a mover that turns as it moves: facing layers, joined where it may turn.

A pose is ``(x, y, facing)``; a move is straight lines at a fixed facing and turns in place
about the base centre (``shared/spec/rulings.md``); only the straight lines count. While it
translates or turns, the footprint keeps off the path obstacles (polygons, circles, the outside
of the battlefield). The true reachable set of poses is three-dimensional; this module computes
a part of it that is **conservative** (every pose it reports has a witness path of straight
lines and turns that keeps off the obstacles) and that **converges** to the reachable set of
its motion model as the facing step shrinks.

Motion model (what is computed, exactly up to the polygons of round outlines):

- *Facings*: the grid of :data:`DEFAULT_STEP` degrees over the footprint's period (180 degrees
  for ovals, rectangles and symmetric hulls), plus the start's own facing.
- *Layers*: at each facing ``f`` the mover translates; its free space is the battlefield box of
  the footprint at ``f`` minus every obstacle grown by the footprint at ``f``
  (:func:`tabletop.geometry.cspace.grow`: exact Minkowski sums for polygon pieces, tangent arcs
  around circles, never smaller). Each layer is a :class:`~tabletop.geometry.reach.ReachMap`
  with its visibility graph; its reach from a set of sources is the exact geodesic disk of the
  existing engine (tangent visibility graph, ray-cast wedges with inscribed arcs).
- *Turns*: the mover may turn (1) at the start, to every facing the exact test of
  :func:`tabletop.geometry.cspace.turn_hits` lets it reach by turning one way in steps of the
  grid; (2) anywhere its circumscribed circle is clear of every obstacle (the *hub*, the free
  space of the round engine's :class:`~tabletop.geometry.reach.ReachMap` for that radius: there
  every turn is free), which a start in contact reaches by moving straight out along one of
  :data:`EXITS` directions at its own facing; (3) at the end, to any facing, where the circle is
  clear (the zone's end rule is then "some facing is legal there").

Guarantee. Every point a layer's region or point query reports has a witness: the turns at the
start are tested exactly, the straight lines are free in their layer's grown obstacles (which
contain the true ones), the turns at exits and ends happen in the hub (where the whole
circumscribed circle is clear). So the reported set lies inside the true reachable set
(conservative). As the step shrinks, the layers' facings become dense, every layer is exact
(the grown obstacles are exact up to the arcs' tolerances), and a path of the model above at any
facing is approached by the layer at the nearest grid facing; the reported set approaches the
model's reachable set from inside. What the model leaves out: a turn in a narrow place on the
way (an exit of a narrow passage into the open and then a second narrow passage at another
facing); there the zone is smaller than the true one, never larger. ``tests/test_zones_turning.py``
measures both against an independent layered grid over ``(x, y, facing)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import cast

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.cspace import (
    Obstacle,
    angle_between,
    grow,
    period,
    pieces_at,
    separation,
    turn_hits,
)
from tabletop.geometry.footprints import EXACT_SEGMENTS, Footprint, Oval, extent
from tabletop.geometry.reach import GeodesicDisk, ReachMap, convex_pieces, reach_map
from tabletop.geometry.tolerance import EPS

__all__ = [
    "DEFAULT_STEP",
    "EXITS",
    "OVAL_STEP",
    "Pose",
    "TurnMap",
    "TurnReach",
    "default_step",
    "facing_grid",
    "turn_map",
]

DEFAULT_STEP = 15.0
"""Facing step of the layers, degrees (the resolution parameter: smaller is closer)."""

OVAL_STEP = 30.0
"""Facing step for ovals: a smooth outline changes little with its facing (a 60x35 mm oval
turned 15 degrees is 0.04" wider on each side), so half as many layers."""


def default_step(fp: Footprint) -> float:
    """The layers' facing step for ``fp``: :data:`OVAL_STEP` for ovals, else
    :data:`DEFAULT_STEP`."""
    return OVAL_STEP if isinstance(fp, Oval) else DEFAULT_STEP

EXITS = 16
"""Directions in which a start that cannot turn freely moves out to where it can."""

Pose = tuple[float, float, float]
"""``(x, y, facing)``."""


def facing_grid(fp: Footprint, start: float, step: float = DEFAULT_STEP) -> tuple[float, ...]:
    """The layers' facings: multiples of ``step`` over the footprint's period, plus ``start``.

    Facings are reduced to ``[0, period)``; the start's facing is kept exactly.
    """
    per = period(fp)
    n = max(1, round(per / step))
    grid = {round(k * per / n, 9) for k in range(n)}
    s = round(start % per, 9)
    if all(abs(angle_between(s, g)) > 1e-6 for g in grid):
        grid.add(s)
    return tuple(sorted(grid))


def _separate(obstacle: Obstacle, fp: Footprint, facing: float, j: int,
              p: tuple[float, float]) -> np.ndarray | None:
    """The separating axis of ``obstacle`` and the footprint's ``j``-th piece at a pose in
    contact, from the exact shapes (an oval's fine polygon), within the rules tolerance."""
    piece = pieces_at(fp, facing, EXACT_SEGMENTS)[j]
    return separation(obstacle, piece + np.asarray(p, dtype=float), tol=EPS)


class TurnMap:
    """The layers of one footprint among one set of path obstacles (built once per phase).

    Parameters
    ----------
    width, height : float
        The battlefield.
    footprint : Footprint
        The mover.
    circles : sequence of (x, y, r)
        Round obstacles.
    polygons : sequence of point sequences
        Polygon obstacles (terrain, non-round models), any simple polygons.
    """

    def __init__(self, width: float, height: float, footprint: Footprint,
                 circles: Sequence[tuple[float, float, float]],
                 polygons: Sequence[Sequence[tuple[float, float]]]) -> None:
        self.width, self.height, self.footprint = float(width), float(height), footprint
        self.circles = tuple((float(x), float(y), float(r)) for x, y, r in circles)
        self.polygons = tuple(tuple((float(x), float(y)) for x, y in p) for p in polygons)
        self.period = period(footprint)
        self.radius = footprint.radius
        obstacles: list[Obstacle] = [("circle", c) for c in self.circles]
        for pts in self.polygons:
            for piece in convex_pieces(Polygon(pts)):
                ring = np.asarray(piece.exterior.coords)[:-1]
                obstacles.append(("polygon", _ccw(ring)))
        self.obstacles = obstacles
        self._rings = [np.asarray(p, dtype=float) for p in self.polygons]
        self._layers: dict[float, ReachMap] = {}
        self._local: dict[tuple[float, tuple[int, ...]], ReachMap] = {}
        self._not_hub: BaseGeometry | None = None
        self.hub: ReachMap = reach_map(self.width, self.height, self.radius, self.circles,
                                       self.polygons)

    def key(self, facing: float) -> float:
        """``facing`` reduced to the footprint's period (the layers' key)."""
        return round(facing % self.period, 9)

    def box(self, facing: float) -> tuple[float, float, float, float]:
        """Centres at which the footprint at ``facing`` lies wholly on the battlefield
        (exact extents)."""
        x0, y0, x1, y1 = extent(self.footprint, facing)
        return (-x0, -y0, self.width - x1, self.height - y1)

    def layer(self, facing: float, near: tuple[float, float, float] | None = None
              ) -> ReachMap:
        """The layer at ``facing``: obstacles grown by the footprint at that facing.

        With ``near = (x, y, reach)`` only the obstacles within ``reach`` of ``(x, y)`` (a
        layer of the start's own facing, off the grid: nothing farther can meet a footprint
        whose centre stays within ``reach - radius``); kept for the next pick-up from there.
        """
        k = self.key(facing)
        if near is None:
            got = self._layers.get(k)
            if got is None:
                got = self._build(k, range(len(self.obstacles)))
                self._layers[k] = got
            return got
        x, y, reach = near
        which = tuple(i for i, (kind, data) in enumerate(self.obstacles)
                      if _within(kind, data, x, y, reach))
        key = (k, which)
        got = self._local.get(key)
        if got is None:
            got = self._build(k, which)
            self._local = {key: got, **dict(list(self._local.items())[:7])}
        return got

    def _build(self, k: float, which: Sequence[int]) -> ReachMap:
        foot = pieces_at(self.footprint, k)
        obstacles = [self.obstacles[i] for i in which]
        rings, pairs = grow(obstacles, foot)
        grown = [(ring, partial(_separate, obstacles[i], self.footprint, k, j))
                 for ring, (i, j) in zip(rings, pairs, strict=True)]
        return ReachMap(self.width, self.height, 0.0, grown=grown, bounds=self.box(k))

    def not_hub(self) -> BaseGeometry:
        """Where the circumscribed circle is not clear: the hub's pieces and the frame of the
        battlefield outside its box (prepared, built once)."""
        if self._not_hub is None:
            frame = box(0.0, 0.0, self.width, self.height).difference(box(*self.hub.box))
            g = shapely.union_all([self.hub.outline()[3], frame]) if len(self.hub.pieces) \
                else frame
            shapely.prepare(g)
            self._not_hub = g
        return self._not_hub

    def in_hub(self, x: float, y: float) -> bool:
        """Whether the circumscribed circle about ``(x, y)`` is clear (every turn is free)."""
        x0, y0, x1, y1 = self.hub.box
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        if not len(self.hub.pieces):
            return True
        return not bool(shapely.intersects_xy(self.hub.outline()[3], x, y))

    def hub_mask(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """:meth:`in_hub` for many points."""
        x0, y0, x1, y1 = self.hub.box
        ok = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
        if len(self.hub.pieces) and ok.any():
            ok[ok] = ~shapely.intersects_xy(self.hub.outline()[3], xs[ok], ys[ok])
        return ok

    def turn_blocked(self, at: tuple[float, float], f0: float, turn: float) -> bool:
        """Whether turning in place at ``at`` from ``f0`` by ``turn`` degrees meets an
        obstacle or the battlefield's edge (exact test on the engine's polygon of the
        footprint, which is never smaller than the base)."""
        foot = pieces_at(self.footprint, 0.0)
        reach = self.radius * 1.01 + 1e-6
        polys = [r for r in self._rings if Polygon(r).distance(shapely.Point(at)) <= reach]
        circles = [c for c in self.circles if math.hypot(c[0] - at[0], c[1] - at[1]) <=
                   reach + c[2]]
        hp, hc, leaves = turn_hits(foot, at, f0, turn, polys, circles,
                                   (0.0, 0.0, self.width, self.height))
        return bool(hp or hc or leaves)


@lru_cache(maxsize=16)
def turn_map(width: float, height: float, footprint: Footprint,
             circles: tuple[tuple[float, float, float], ...],
             polygons: tuple[tuple[tuple[float, float], ...], ...]) -> TurnMap:
    """A cached :class:`TurnMap` (per phase: enemies and terrain stand still)."""
    return TurnMap(width, height, footprint, circles, polygons)


def _within(kind: str, data: object, x: float, y: float, reach: float) -> bool:
    """Whether an obstacle comes within ``reach`` of ``(x, y)``."""
    if kind == "circle":
        cx, cy, r = cast(tuple[float, float, float], data)
        return math.hypot(cx - x, cy - y) <= reach + r
    ring = np.asarray(data)
    return bool(Polygon(ring).distance(shapely.Point(x, y)) <= reach)


def _ccw(c: np.ndarray) -> np.ndarray:
    x, y = c[:, 0], c[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    return c.astype(float) if area > 0 else c[::-1].astype(float)


@dataclass
class _Source:
    """Where a layer's source comes from: the poses before it (with facings)."""

    point: tuple[float, float]
    dist: float
    before: list[Pose]
    """The witness up to and including this source's pose in its layer."""


@dataclass
class _LayerReach:
    facing: float
    disk: GeodesicDisk
    sources: list[_Source] = field(default_factory=list)


class TurnReach:
    """The poses reachable from a start pose within a distance (one pick-up).

    Attributes
    ----------
    layers : dict
        facing -> the layer's reach (a :class:`GeodesicDisk` from its sources).
    start_facings : list of float
        Facings the mover can turn to at the start.
    """

    def __init__(self, tm: TurnMap, start: tuple[float, float], facing: float,
                 distance: float, step: float = DEFAULT_STEP) -> None:
        self.tm, self.start, self.facing, self.distance = tm, start, float(facing), distance
        self.grid = facing_grid(tm.footprint, facing, step)
        base_grid = facing_grid(tm.footprint, 0.0, step)
        self.own_layer = tm.key(facing) not in base_grid
        """Whether the start's facing is off the grid (its layer holds only what is near)."""
        self.start_in_hub = tm.in_hub(*start)
        chains = self._start_turns()
        self.start_facings = sorted(chains)
        self.layers: dict[float, _LayerReach] = {}
        self.hub: _LayerReach | None = None
        """The hub's reach: where the circumscribed circle stays clear all the way (any facing
        there; ``None`` when the start cannot get out to it)."""
        p = (float(start[0]), float(start[1]))
        for f, chain in chains.items():
            # the start's own facing off the grid is a layer built for this start: when it may
            # turn freely there, its paths at that facing bend once at most (the grid's layers
            # have the rest)
            once = self.start_in_hub and self.own_layer and f == tm.key(facing)
            disk = self._map(f).disk(p, distance, bends=1 if once else 2)
            self.layers[f] = _LayerReach(f, disk, [_Source(p, 0.0, chain)])
        if self.start_in_hub:
            self.hub = _LayerReach(self.facing, tm.hub.disk(p, distance),
                                   [_Source(p, 0.0, [(p[0], p[1], self.facing)])])
        else:
            self._exits(p)

    def _map(self, f: float) -> ReachMap:
        """The layer at ``f``; the start's own facing off the grid gets only what is near."""
        tm = self.tm
        if self.own_layer and f == tm.key(self.facing):
            return tm.layer(f, (self.start[0], self.start[1], self.distance + tm.radius + 1e-6))
        return tm.layer(f)

    # -- turning at the start ------------------------------------------------------------
    def _start_turns(self) -> dict[float, list[Pose]]:
        """Each facing the mover can turn to at the start, with the poses of the turn."""
        tm, (x, y), f0 = self.tm, self.start, self.facing
        k0 = tm.key(f0)
        out: dict[float, list[Pose]] = {k0: [(x, y, f0)]}
        if self.start_in_hub:
            for g in self.grid:
                if g != k0:
                    out[g] = [(x, y, f0), (x, y, f0 + angle_between(f0, g))]
            return out
        # turn one way, then the other, one grid step at a time, while the exact test allows
        order = sorted(self.grid, key=lambda g: (g - k0) % tm.period)
        for direction in (1, -1):
            seq = order[1:] if direction == 1 else order[1:][::-1]
            at, chain = f0, [(x, y, f0)]
            for g in seq:
                step = (g - at) % tm.period if direction == 1 else -((at - g) % tm.period)
                if tm.turn_blocked((x, y), at, step):
                    break
                at += step
                chain.append((x, y, at))
                if g not in out:
                    out[g] = _compact(chain)
        return out

    def _exits(self, p: tuple[float, float]) -> None:
        """A start whose circle is not clear: move out straight at a start facing to where it
        is, turn there, and seed every other layer from those points."""
        tm, D = self.tm, self.distance
        ang = np.arange(EXITS) * (2 * math.pi / EXITS)
        dirs = np.column_stack([np.cos(ang), np.sin(ang)])
        not_hub = tm.not_hub()
        found: list[_Source] = []
        # the model's own facing first: an exit found from several facings keeps the fewest
        # turns
        own = tm.key(self.facing)
        for f in sorted(self.start_facings, key=lambda g: abs(angle_between(own, g))):
            lay = self.layers[f]
            rm = lay.disk.rm
            ends = np.asarray(p) + D * dirs
            segs = shapely.linestrings(np.stack([np.broadcast_to(p, ends.shape), ends], axis=1))
            # where each ray first reaches the hub: the end of its first stretch outside it
            inside = shapely.intersection(segs, not_hub)
            t_hub = np.full(EXITS, np.inf)
            for k, g in enumerate(inside):
                t_hub[k] = _first_exit(g, p, dirs[k], D)
            ok = np.isfinite(t_hub) & (t_hub < D)
            if not ok.any():
                continue
            pts = np.asarray(p) + (t_hub + 1e-7)[:, None] * dirs
            ok &= tm.hub_mask(pts[:, 0], pts[:, 1])
            if ok.any():
                idx = np.nonzero(ok)[0]
                blocked = rm._blocked(np.broadcast_to(p, (len(idx), 2)), pts[idx], lay.disk._q)
                x0, y0, x1, y1 = rm.box
                for k, b in zip(idx.tolist(), blocked.tolist(), strict=True):
                    q = (float(pts[k, 0]), float(pts[k, 1]))
                    if b or not (x0 <= q[0] <= x1 and y0 <= q[1] <= y1):
                        continue
                    chain = list(lay.sources[0].before)
                    found.append(_Source(q, float(t_hub[k] + 1e-7),
                                         [*chain, (q[0], q[1], chain[-1][2])]))
        if not found:
            return
        # the same exit from several start facings: the shortest
        found.sort(key=lambda s: s.dist)
        unique: dict[tuple[float, float], _Source] = {}
        for src in found:
            unique.setdefault((round(src.point[0], 9), round(src.point[1], 9)), src)
        found = list(unique.values())
        first = found[0]
        hub_disk = tm.hub.disk(first.point, D, [(*s.point, s.dist) for s in found[1:]],
                               start=first.dist)
        self.hub = _LayerReach(first.before[-1][2], hub_disk,
                               [first, *_kept(found[1:], hub_disk)])
        for g in self.grid:
            srcs = [_Source(s.point, s.dist, [*s.before, (*s.point,
                                                          s.before[-1][2] + angle_between(
                                                              s.before[-1][2], g))])
                    for s in found if s.before[-1][2] % self.tm.period != g]
            if not srcs:
                continue
            got = self.layers.get(g)
            if got is None:
                first, rest = srcs[0], srcs[1:]
                disk = self._map(g).disk(first.point, D, [(*s.point, s.dist) for s in rest],
                                             start=first.dist)
                kept = [first, *_kept(rest, disk)]
                self.layers[g] = _LayerReach(g, disk, kept)
            else:
                # a start facing: the exits add sources to its disk
                start_src = got.sources[0]
                disk = self._map(g).disk(start_src.point, D,
                                             [(*s.point, s.dist) for s in srcs])
                self.layers[g] = _LayerReach(g, disk, [start_src, *_kept(srcs, disk)])

    # -- point queries -------------------------------------------------------------------
    def reach_of(self, x: float, y: float) -> list[tuple[float, float]]:
        """``(facing, distance)`` of every layer that reaches ``(x, y)`` within the limit."""
        out = []
        for f, lay in self.layers.items():
            d = lay.disk.distance_to(x, y)
            if math.isfinite(d) and d <= self.distance + 1e-6:
                out.append((f, d))
        return out

    def witness(self, x: float, y: float, facing: float | None) -> list[Pose] | None:
        """The poses of a path to ``(x, y)`` in the layer at ``facing`` (``None``: the hub),
        or ``None``."""
        lay = self.hub if facing is None else self.layers.get(self.tm.key(facing))
        if lay is None:
            return None
        got = lay.disk.path_from_source(x, y)
        if got is None:
            return None
        src_row, pts = got
        src = lay.sources[src_row]
        f = src.before[-1][2]
        poses = list(src.before)
        for px, py in pts[1:]:
            poses.append((px, py, f))
        return _compact(poses)


def _kept(srcs: list[_Source], disk: GeodesicDisk) -> list[_Source]:
    """The sources the disk kept (it drops those inside a piece), in its row order."""
    rows = disk.nodes[1:disk.n_sources]
    out: list[_Source] = []
    j = 0
    for s in srcs:
        if j < len(rows) and abs(rows[j, 0] - s.point[0]) < 1e-12 and \
                abs(rows[j, 1] - s.point[1]) < 1e-12:
            out.append(s)
            j += 1
    return out


def _first_exit(g: shapely.Geometry, p: tuple[float, float], d: np.ndarray, D: float) -> float:
    """How far along the ray from ``p`` in direction ``d`` the part of ``g`` (the ray's
    intersection with the hub's pieces) that starts at ``p`` ends."""
    if g.is_empty:
        return 0.0
    best = math.inf
    for part in shapely.get_parts(g):
        c = shapely.get_coordinates(part)
        if not len(c):
            continue
        t = (c - np.asarray(p)) @ d
        if t.min() <= 1e-9:
            best = min(best, float(t.max()))
    return best if math.isfinite(best) else 0.0


def _compact(poses: list[Pose]) -> list[Pose]:
    """Drop repeated poses."""
    out: list[Pose] = []
    for q in poses:
        if out and math.dist(out[-1][:2], q[:2]) <= 1e-12 and \
                abs(angle_between(out[-1][2], q[2])) <= 1e-9:
            continue
        out.append(q)
    return out

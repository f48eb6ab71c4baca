"""Reachability of a mover that turns as it moves: facing layers, joined where it may turn.

A pose is ``(x, y, facing)``; a move is straight lines at a fixed facing and turns in place
about the base centre (``docs/rulings.md``); only the straight lines count. While it
translates or turns, the footprint keeps off the path obstacles (polygons, circles, the outside
of the battlefield). The true reachable set of poses is three-dimensional; this module computes
a part of it that is **conservative** (every pose it reports has a witness path of straight
lines and turns that keeps off the obstacles) and that **converges** to it as the facing step
``delta`` (the resolution parameter) shrinks.

What is computed (exactly, up to the polygons of round outlines, all on the safe side):

- *Facings*: the grid of :data:`DEFAULT_STEP` degrees over the footprint's period (180 degrees
  for ovals, rectangles and symmetric hulls), plus the start's own facing.
- *Layers*: at each facing ``f`` the mover translates; its free space is the battlefield box of
  the footprint at ``f`` minus every obstacle grown by the footprint at ``f``
  (:func:`tabletop.geometry.cspace.grow`: exact Minkowski sums for polygon pieces, tangent arcs
  around circles, never smaller). Each layer is a :class:`~tabletop.geometry.visibility.ReachMap`
  with its visibility graph; its reach from a set of sources is the exact geodesic disk of the
  round engine (tangent visibility graph, ray-cast wedges with inscribed arcs).
- *Turn regions* (C-space slicing, Lozano-Perez): for each step of the grid, from ``g[j]`` to
  ``g[j + 1]``, where the footprint swept through that turn is clear
  (:meth:`TurnMap.turn_region`; the swept area is exact for footprints star-shaped about their
  centre: the footprint at both ends and the sector each vertex turns through, arcs
  circumscribed, :func:`~tabletop.geometry.cspace.swept_pieces`; its convex hull where every
  notch is shallower than :data:`~tabletop.geometry.cspace.NOTCH_TOLERANCE`, a nearly round
  oval; other footprints: convex hulls of the sweep within ``radius * step / 8``). Anywhere
  in it the mover may turn between the step's two facings (and from the start's own facing,
  when it lies inside the step).
- *Turn windows and their nodes* (:meth:`TurnMap.turn_nodes`): a window is an edge of a turn
  region's boundary or of the hub's (where the circumscribed circle is clear, so every turn is
  free): a line crossing into a turn region crosses a window, and turning there is as short as
  turning anywhere further along it. Nodes lie where the windows cross the lines of a fixed
  lattice of :func:`turn_spacing` ``s`` (``radius * delta``, at least 0.25", at the
  footprint's :func:`default_step`; below it both shrink by ``delta / default``, so the
  spacing shrinks faster than the step; the lines at ``(i + LATTICE_PHASE) * s``), one on each
  ring the lattice misses, each moved 3e-7" into its region: placed by the boundary alone, so
  the compiled core's regions (within 4.5e-7" of GEOS's, their edges split elsewhere) give the
  same nodes within a hair. Each node may turn in place through the run of consecutive steps
  whose regions come within EPS of it. Nodes are thinned to the one or two that turn furthest
  in each square of the spacing.
- *Turns* (searched per pick-up by :class:`~tabletop.geometry.turn_reach.TurnReach`): at the
  start, to every facing the exact test of :func:`tabletop.geometry.cspace.turn_hits` allows
  one grid step at a time; at a turn node, in rounds: a node that one layer of its run reaches
  sooner than another becomes a source of that other layer (its witness: the first layer's
  path to it, then the turn), until no layer gains (each round carries on from the last: a
  layer's Dijkstra keeps its labels and relaxes from the new sources only, and its lengths at
  the nodes are found again only where a node new or nearer since then is a candidate: what
  starting over gives, up to the choice among equally near candidates); in the hub, which a
  start in contact reaches by moving straight out along one of :data:`EXITS` directions; and
  at the end, where the circle is clear.

Guarantee. *Conservative*: every pose a layer's region or point query reports has a witness
(``Zone.path_to``) whose lines lie in their layers' free space (grown by the exact footprint)
and whose turns happen where the swept footprint is clear (the start's turns by the exact
test, the others at points of closed turn regions or of the hub), so the exact checks of
``validate_path`` accept it; a hair of contact is allowed, as the rules allow it.
*Convergent* (the windows' guarantee): as ``delta`` shrinks, the grid of facings becomes
dense and each layer is exact, so a line at any facing is approached by a line at the nearest
grid facing; the swept footprint of a step shrinks onto the footprint (within ``radius *
delta``, or the 0.002" of :data:`~tabletop.geometry.cspace.NOTCH_TOLERANCE`), so the turn
regions approach the layers' free space. A true move turns somewhere in a turn region; its line
into that region crosses a window, and turning where it crosses is as short: so the move has a
witness of the computed motion that turns at a node within a lattice square's diagonal
(``1.5 s``, :func:`turn_spacing` ``s``) of that crossing, at most about ``3 s`` longer per turn,
provided the move keeps about ``1.5 s`` clear of the obstacles there (the node's lines must
fit), and a node's turn may touch an obstacle by EPS (the tolerance of its test). A turn of
``a`` degrees on the way takes ``a / delta`` steps; below the default step ``s`` is at most
``max(0.25 * r, radius * delta) * r`` (``r = delta / default``), so the detours of the whole
turn are at most about ``(a / delta) * 3 s``, which goes to 0 with ``delta``, and so does the
clearance asked: the zone approaches the true zone from inside, also past a bend where the turn
must be spread along the way (an L-bend a 4x7" hull passes only by turning in it: 6.48 / 7.01 /
7.06 sq in past the bend at 15 / 7.5 / 5 degrees; with the nodes placed along the edges from
their vertices, 6.66 / 6.90 / 7.00; with the spacing of before, floored at 0.25" and never
below ``radius * delta``, 6.66 / 6.70 / 6.89). At and above the default step the spacing is
the one of before, and the turns on the way need about ``max(0.25", radius * delta)`` of room.
What the windows do not give: a turn between two nodes is not made there (a window is sampled,
not searched along its length; both engines share this construction), and a
node's distance (through the reached corner it sees among the eight whose straight
continuation to it is shortest, :meth:`~tabletop.geometry.geodesic.GeodesicDisk.distances`) is
longer than the geodesic one where those eight are hidden: both only ever leave points out.
The cost: nodes along the windows grow as ``1 / s``, so a fine step is slow (in Python a
60x35 mm bike in an L-bend 0.35 s at 15 degrees, 2.5 s at 7.5, 35 s at 5; a 4x7" hull 0.1 /
0.2 / 0.8 s at 15 / 7.5 / 5, loaded machine). ``tests/zones/test_zones_turning_on_the_way.py``
measures zones against an independent layered grid over ``(x, y, facing)`` on boards that need
a turn in a narrow place (an L-bend, a zig-zag, a start in contact, a slanted slot) and as the
step is refined.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from types import ModuleType
from typing import Any, TypeVar, cast

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.geometry import engine
from tabletop.geometry.cspace import (
    Obstacle,
    angle_between,
    grow,
    period,
    pieces_at,
    separation,
    swept_pieces,
    thin_edges,
    translated,
    turn_meets,
    turned,
)
from tabletop.geometry.footprints import EXACT_SEGMENTS, Footprint, Oval, extent
from tabletop.geometry.polygons import ccw, convex_pieces, ring_polygons
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.visibility import ReachMap, reach_map
from tabletop.geometry.wedges import native_polygons

__all__ = [
    "DEFAULT_STEP",
    "EXITS",
    "NEAR_MARGIN",
    "OVAL_STEP",
    "ROUND_TOLERANCE",
    "NativeMembers",
    "Pose",
    "TurnMap",
    "default_step",
    "eps_grown",
    "facing_grid",
    "held_by",
    "layer_step",
    "nearly_round",
    "node_members",
    "turn_map",
    "unique_rows",
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


ROUND_TOLERANCE = 1e-4
"""How close (inches) a footprint's outline may come to its circumscribed circle everywhere for
it to get one facing layer whatever the step (:func:`nearly_round`)."""


@lru_cache(maxsize=256)
def nearly_round(fp: Footprint) -> bool:
    """Whether every point of ``fp``'s outline lies within :data:`ROUND_TOLERANCE` of its
    circumscribed circle (a hull 0.0002" across): turning changes where it fits by less than
    that, so it gets one grid facing (``step`` = its period) besides its own, and turns where
    its circle is clear (the hub) or at the start; the zone may miss what only a facing of a
    finer grid reaches, a strip of at most that width along the obstacles and gaps at most
    twice that narrower than the circle."""
    inner = fp.local_polygon(segments=EXACT_SEGMENTS).exterior.distance(shapely.Point(0, 0))
    return bool(fp.radius - inner <= ROUND_TOLERANCE)


def layer_step(fp: Footprint, step: float | None = None) -> float:
    """The facing step the layers of ``fp`` use for a requested ``step`` (``None``:
    :func:`default_step`): the footprint's whole period when it is :func:`nearly_round`
    (one grid facing)."""
    if nearly_round(fp):
        return period(fp)
    return default_step(fp) if step is None else float(step)


NEAR_MARGIN = 4.0
"""Inches by which the layer of a start's own facing off the grid (:meth:`TurnMap.layer` with
``near``) and its end region reach past the move: the next pick-ups within that of the start at
that facing (the next models of a unit, which stand at most a few inches apart and share
their facing until they move) find them made."""

K = TypeVar("K")


def held_by(disks: dict[tuple[float, float, float, float], K], facing: float,
            near: tuple[float, float, float], kept: Container[K]) -> K | None:
    """The value in ``disks`` (``(facing, x, y, reach)`` -> key, the last first) of a disk at
    ``facing`` that holds the disk ``near = (x, y, reach)`` (so what was made for it holds
    everything within ``near``'s reach) and is still in ``kept``, or ``None``
    (:data:`NEAR_MARGIN`)."""
    x, y, reach = near
    for (f, cx, cy, wide), key in list(disks.items()):
        if f == facing and math.hypot(x - cx, y - cy) + reach <= wide - 1e-9 and key in kept:
            return key
    return None


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
                obstacles.append(("polygon", ccw(ring)))
        self.obstacles = obstacles
        self._rings = [np.asarray(p, dtype=float) for p in self.polygons]
        self._ring_polygons: np.ndarray | None = None
        """The polygon obstacles as shapely polygons, one array (built on first use)."""
        self._thin: dict[int, tuple[Polygon, BaseGeometry, np.ndarray, np.ndarray] | None] = {}
        """Polygon obstacles as the exact turn test takes them (:meth:`_thin_ring`)."""
        self._near_last: tuple[tuple[float, float], list[Any], list[Any]] | None = None
        """:meth:`_near_turn`'s last answer, with the point it was asked about."""
        self._piece_polygons: np.ndarray | None = None
        """The polygon pieces of :attr:`obstacles` as shapely polygons (built on first use)."""
        self._layers: dict[float, ReachMap] = {}
        self._local: dict[tuple[float, tuple[int, ...]], ReachMap] = {}
        self._near: dict[tuple[float, float, float, float], tuple[float, tuple[int, ...]]] = {}
        """The disks ``(facing, x, y, reach)`` the layers in ``_local`` were made for (their
        keys there), the last first."""
        self._not_hub: BaseGeometry | None = None
        self._node_plans: dict[float, _NodePlan] = {}
        self._regions_begun: dict[float, Callable[[], list[tuple[BaseGeometry, BaseGeometry]]]] \
            = {}
        """Each step's turn regions begun (:meth:`begin_turn_nodes`), each with its copy grown
        for the nodes' membership tests."""
        self._circle_sweeps: dict[tuple[float, float], BaseGeometry] = {}
        self._circle_array = np.array(self.circles, dtype=float).reshape(-1, 3)
        self._native: tuple[ModuleType, object | None] | None = None
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

        With ``near = (x, y, reach)`` only the obstacles near ``(x, y)`` (a layer of the
        start's own facing, off the grid: nothing farther than ``reach`` can meet a footprint
        whose centre stays within ``reach - radius``): those within :data:`NEAR_MARGIN` more,
        kept for the next pick-ups whose disks it holds (the window's drags of one model, the
        next models of its unit, which stand close by at the same facing).
        """
        k = self.key(facing)
        if near is None:
            got = self._layers.get(k)
            if got is None:
                got = self._build(k, range(len(self.obstacles)))
                self._layers[k] = got
            return got
        key = self._local_key(k, near)
        if key is not None:
            return self._local[key]
        # (a layer with more obstacles, all of them farther than ``reach``, answers the same
        # within it: nothing there is met or seen any other way)
        x, y, reach = near
        wide = (k, x, y, reach + NEAR_MARGIN)
        which = self._near_obstacles(x, y, reach + NEAR_MARGIN)
        key = (k, which)
        got = self._local.get(key)
        if got is None:
            got = self._build(k, which)
        # the last few kept
        self._local = {key: got, **dict(list(self._local.items())[:7])}
        self._near = {wide: key, **dict(list(self._near.items())[:7])}
        return got

    def _local_key(self, k: float, near: tuple[float, float, float]
                   ) -> tuple[float, tuple[int, ...]] | None:
        """The key in ``_local`` of a layer at facing ``k`` made for a disk that holds the
        disk ``near`` (so it holds every obstacle within ``near``'s reach), or ``None``."""
        return held_by(self._near, k, near, self._local)

    def _near_obstacles(self, x: float, y: float, reach: float) -> tuple[int, ...]:
        """The indices of the obstacles that come within ``reach`` of ``(x, y)`` (circles by
        their centres' distance, the polygon pieces by GEOS's distance, all at once)."""
        if self._piece_polygons is None:
            self._piece_polygons = np.array(
                [Polygon(data) for kind, data in self.obstacles if kind != "circle"],
                dtype=object)
        c = self._circle_array
        near_circles = np.hypot(c[:, 0] - x, c[:, 1] - y) <= reach + c[:, 2]
        near_pieces = shapely.distance(self._piece_polygons, shapely.Point(x, y)) <= reach \
            if len(self._piece_polygons) else np.zeros(0, dtype=bool)
        return tuple(np.nonzero(np.concatenate([near_circles, near_pieces]))[0].tolist())

    def has_layer(self, facing: float, near: tuple[float, float, float] | None = None
                  ) -> bool:
        """Whether :meth:`layer` of these arguments is built (it would make nothing)."""
        k = self.key(facing)
        if near is None:
            return k in self._layers
        return self._local_key(k, near) is not None

    def native_obstacles(self) -> tuple[ModuleType, object] | None:
        """The compiled core and the obstacles in it (circles first, then the polygon pieces:
        :attr:`obstacles`' order), built once; ``None`` on the Python engine
        (:mod:`tabletop.geometry.engine`) or where the core refuses them (past one of its
        limits: the Python engine answers)."""
        core = engine.core()
        if core is None:
            return None
        if self._native is None or self._native[0] is not core:
            polys = [np.asarray(d, dtype=float) for kind, d in self.obstacles if kind != "circle"]
            try:
                mine: object = core.Obstacles(np.ascontiguousarray(self._circle_array),
                                              *_flat(polys))
            except core.NativeError:  # type: ignore[attr-defined]
                mine = None
            self._native = (core, mine)
        return None if self._native[1] is None else self._native

    def _grow(self, foot: Sequence[np.ndarray], which: Sequence[int]
              ) -> tuple[list[np.ndarray], list[tuple[int, int]]]:
        """:func:`~tabletop.geometry.cspace.grow` of the obstacles ``which`` by ``foot``: in
        the compiled core on the native engine (the same rings, vertex for vertex up to
        rounding), else in Python (also where the core refuses them)."""
        obstacles = [self.obstacles[i] for i in which]
        got = self.native_obstacles()
        if got is not None:
            core, mine = got
            try:
                coords, starts, pairs = core.grown_pieces(  # type: ignore[attr-defined]
                    mine, *_flat(foot), math.pi / 16, np.asarray(which, dtype=np.int64))
            except core.NativeError:  # type: ignore[attr-defined]
                return grow(obstacles, foot)
            rings = np.split(coords, starts[1:-1]) if len(pairs) else []
            return rings, [(int(i), int(j)) for i, j in pairs.tolist()]
        return grow(obstacles, foot)

    def _build(self, k: float, which: Sequence[int]) -> ReachMap:
        foot = pieces_at(self.footprint, k)
        obstacles = [self.obstacles[i] for i in which]
        rings, pairs = self._grow(foot, which)
        grown = [(ring, partial(_separate, obstacles[i], self.footprint, k, j))
                 for ring, (i, j) in zip(rings, pairs, strict=True)]
        return ReachMap(self.width, self.height, 0.0, grown=grown, bounds=self.box(k),
                        copies=_circle_copies(obstacles, rings, pairs, len(foot)))

    def not_hub(self) -> BaseGeometry:
        """Where the circumscribed circle is not clear: the hub's pieces and the frame of the
        battlefield outside its box (prepared, built once)."""
        if self._not_hub is None:
            frame = box(0.0, 0.0, self.width, self.height).difference(box(*self.hub.box))
            g = shapely.union_all([self.hub.union(), frame]) if len(self.hub.pieces) \
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
        return not bool(shapely.intersects_xy(self.hub.union(), x, y))

    def hub_mask(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """:meth:`in_hub` for many points."""
        x0, y0, x1, y1 = self.hub.box
        ok = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
        if len(self.hub.pieces) and ok.any():
            ok[ok] = ~shapely.intersects_xy(self.hub.union(), xs[ok], ys[ok])
        return ok

    def turn_region(self, f0: float, f1: float) -> BaseGeometry:
        """Where the mover may turn in place from facing ``f0`` to ``f1`` (``0 < f1 - f0 <
        180``): the battlefield box of the footprint swept through the turn minus every
        obstacle grown by it (:func:`~tabletop.geometry.cspace.swept_pieces`, exact up to
        circumscribed arcs; closed: touching is clear)."""
        foot, bounds = self._sweep(f0, f1)
        free: BaseGeometry = box(*bounds)
        if free.is_empty or not self.obstacles:
            return free
        # a circle grows into the union of its sums with the sweep's pieces: one union per
        # radius, moved to each centre (an army's bases share a few radii)
        circles = self._circle_array
        # the polygon pieces' sums (in the compiled core on the native engine: the same rings)
        polys = range(len(self.circles), len(self.obstacles))
        grown_parts = [ring_polygons([r for r in self._grow(foot, polys)[0] if len(r) >= 3])]
        for r in np.unique(circles[:, 2]).tolist():
            at = circles[circles[:, 2] == r, :2]
            local = shapely.transform(self._circle_sweep(f1 - f0, r),
                                      lambda c: turned(c, f0))
            grown_parts.append(translated(local, at))
        grown = _valid(np.concatenate(grown_parts))
        if not len(grown):
            return free
        near = grown[shapely.intersects(grown, free)]
        return free.difference(shapely.union_all(near)) if len(near) else free

    def _sweep(self, f0: float, f1: float
               ) -> tuple[tuple[np.ndarray, ...], tuple[float, float, float, float]]:
        """The pieces swept by the turn from ``f0`` to ``f1`` and the box of centres at which
        they stay on the battlefield."""
        foot = swept_pieces(self.footprint, f0, f1)
        pts = np.concatenate(foot)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        return foot, (float(-x0), float(-y0), float(self.width - x1), float(self.height - y1))

    def native_turn_region(self, f0: float, f1: float) -> BaseGeometry | None:
        """:meth:`turn_region` built in the compiled core (one call: the obstacles grown by
        the sweep's pieces, each obstacle's union, the difference from the box, on the 1e-7"
        grid; every grown piece moved out by 3e-7" first, so never larger than the exact
        region and within 4.5e-7" of it; a circle radius's union made once a turn, at facing
        0, and turned to ``f0``); ``None`` on the Python engine or where the core
        refuses the input. What :meth:`turn_nodes` places its nodes on, on the native
        engine."""
        got = self.native_obstacles()
        if got is None:
            return None
        core, mine = got
        foot, bounds = self._sweep(f0, f1)
        # (the same sweep at facing 0: the core makes each circle radius's union once a turn
        # and turns it to each step, as _circle_sweep does)
        foot0 = swept_pieces(self.footprint, 0.0, f1 - f0)
        try:
            return native_polygons(*core.turn_region(  # type: ignore[attr-defined]
                mine, *_flat(foot), bounds, math.pi / 16, (0.0, 0.0, self.width, self.height),
                _flat(foot0), f0))
        except core.NativeError:  # type: ignore[attr-defined]
            return None

    def _circle_sweep(self, turn: float, r: float) -> BaseGeometry:
        """Centres at which the footprint turning from facing 0 by ``turn`` meets a circle
        of radius ``r`` about the origin: the union of the circle grown by each piece of the
        sweep (built once per turn and radius; a turn from ``f0`` is it turned by ``f0``)."""
        key = (turn, r)
        got = self._circle_sweeps.get(key)
        if got is None:
            foot = swept_pieces(self.footprint, 0.0, turn)
            got = shapely.union_all(_valid(ring_polygons(
                [x for x in grow([("circle", (0.0, 0.0, r))], foot)[0] if len(x) >= 3])))
            self._circle_sweeps[key] = got
        return got

    def turn_nodes(self, step: float,
                   window: tuple[float, float, float, float] | None = None) -> TurnNodes:
        """The points where the mover may turn, for the facing grid of ``step``.

        For each step of the grid (consecutive facings ``g[j]``, ``g[j + 1]``), the points
        where the boundary of its turn region (the core's on the native engine, else
        :meth:`turn_region`) and of the hub cross the lattice of :func:`turn_spacing`
        (:func:`_crossings_in`), and one point of each ring it misses (:func:`_anchors`), each
        moved :data:`NODE_INSET` into the region; each point gets the run of consecutive steps
        whose turn regions come within EPS of it (:func:`node_members`; it may turn in place
        through all of them, within the tolerance). Only in the tiles of :data:`TILE_CELLS` spacings
        that meet ``window`` (``x0, y0, x1, y1``; ``None``: the whole battlefield), each built
        once: a battlefield a mile wide has millions of points along its edges, and a pick-up
        wants those within its distance.
        """
        plan = self._node_plans.get(step)
        if plan is None:
            plan = self._node_plans[step] = self._node_plan(step)
        size = plan.spacing * TILE_CELLS
        bx0, by0, bx1, by1 = plan.bounds
        x0, y0, x1, y1 = window if window is not None else plan.bounds
        tx = range(math.floor(max(x0, bx0) / size), math.floor(min(x1, bx1) / size) + 1)
        ty = range(math.floor(max(y0, by0) / size), math.floor(min(y1, by1) / size) + 1)
        # (the nodes of the same tiles, as the last pick-ups asked them: a unit's models and
        # a dragged model's pick-ups meet the same few tiles, 16" a side at 0.25")
        key = (tx.start, tx.stop, ty.start, ty.stop)
        done = plan.windows.get(key)
        if done is not None:
            return done
        parts = []
        for t in ((i, j) for i in tx for j in ty):
            got = plan.tiles.get(t)
            if got is None:
                got = plan.tiles[t] = self._tile_nodes(plan, t, size)
            parts.append(got)
        xy = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, 2))
        order = np.lexsort((xy[:, 1], xy[:, 0]))
        lo = np.concatenate([p[1] for p in parts])[order] if parts else np.zeros(0, np.int64)
        n = np.concatenate([p[2] for p in parts])[order] if parts else np.zeros(0, np.int64)
        done = TurnNodes(xy[order], lo, n, plan.grid)
        for a in (done.xy, done.lo, done.n):
            a.flags.writeable = False  # (shared by the pick-ups that ask these tiles)
        if len(plan.windows) >= _WINDOWS_KEPT:
            plan.windows.clear()
        plan.windows[key] = done
        return done

    def begin_turn_nodes(self, step: float) -> None:
        """Begin the turn regions :meth:`turn_nodes` places its nodes on for ``step`` (on the
        threads of :func:`~tabletop.geometry.engine.native_later`, while the caller goes on),
        unless they are made or begun already."""
        if step not in self._node_plans and step not in self._regions_begun:
            self._regions_begun[step] = engine.native_later(self._region_for_nodes,
                                                            self._steps(step))

    def _steps(self, step: float) -> list[tuple[float, float]]:
        """The steps of the facing grid of ``step``: each facing and the next."""
        grid = facing_grid(self.footprint, 0.0, step)
        return list(zip(grid, [*grid[1:], grid[0] + self.period], strict=True))

    def _node_plan(self, step: float) -> _NodePlan:
        grid = facing_grid(self.footprint, 0.0, step)
        k = len(grid)
        # (on threads where the compiled core answers: GEOS lets go of Python's lock too)
        begun = self._regions_begun.pop(step, None)
        made = begun() if begun is not None else \
            engine.native_map(self._region_for_nodes, self._steps(step))
        regions = [r for r, _ in made]
        # and the edge of the hub, where every turn is free (a turn in the open)
        hub = box(*self.hub.box)
        if len(self.hub.pieces):
            hub = hub.difference(self.hub.union())
        # (oriented: each region lies left of its edges, exteriors counter-clockwise)
        rings = [r for g in [*regions, hub] if not g.is_empty
                 for r in shapely.get_rings(shapely.get_parts(shapely.orient_polygons(g)))]
        segs = np.concatenate([np.stack([c[:-1], c[1:]], axis=1) for c in
                               (shapely.get_coordinates(r) for r in rings) if len(c) > 1]) \
            if rings else np.zeros((0, 2, 2))
        flat = segs.reshape(-1, 2)
        bounds = (*flat.min(axis=0), *flat.max(axis=0)) if len(flat) else (0.0, 0.0, -1.0, -1.0)
        return _NodePlan(grid, [g for _, g in made], eps_grown(hub),
                         turn_spacing(self.radius, self.period / k, default_step(self.footprint)),
                         segs, _anchors(rings), tuple(float(v) for v in bounds), {})

    def _region_for_nodes(self, ab: tuple[float, float]
                          ) -> tuple[BaseGeometry, BaseGeometry | NativeMembers]:
        """The turn region of the step ``ab`` the nodes are placed on, the compiled core's
        where it answers (:meth:`native_turn_region`), else GEOS's; and what the nodes'
        membership tests ask (:func:`node_members`): the core's region prepared, with the
        core's outline of it (:class:`NativeMembers`), GEOS's grown (:func:`eps_grown`); on the
        same thread, while the other threads make the other steps' regions."""
        got = self.native_turn_region(*ab)
        if got is None:
            region = self.turn_region(*ab)
            return region, eps_grown(region)
        core = engine.core()
        tester = NativeMembers.of(core, got) if core is not None else None
        return got, tester if tester is not None else eps_grown(got)

    def _tile_nodes(self, plan: _NodePlan, tile: tuple[int, int], size: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nodes of one tile (``xy``, ``lo``, ``n``), thinned, in ``np.unique`` order."""
        k = len(plan.grid)
        xy = _crossings_in(plan.segs, plan.spacing, tile, size)
        a = plan.anchors
        a = a[(np.floor(a[:, 0] / size) == tile[0]) & (np.floor(a[:, 1] / size) == tile[1])]
        if len(a):
            xy = unique_rows(np.concatenate([xy, a]))[0]
        member = np.zeros((k, len(xy)), bool)
        if len(xy):
            # a node in the hub may turn through every step; the others are tested (the
            # regions grown by EPS: a node near a boundary two steps' regions share counts in
            # both, whichever engine built them)
            hub = shapely.intersects_xy(plan.hub, xy[:, 0], xy[:, 1]) if \
                not plan.hub.is_empty else np.zeros(len(xy), bool)
            member[:, hub] = True
            rest = np.nonzero(~hub)[0]
            if len(rest):
                for j, g in enumerate(plan.regions):
                    member[j, rest] = node_members(g, xy[rest])
        lo, n = _runs(member)
        keep = _thin(xy, lo, n, k, plan.spacing)
        return xy[keep], lo[keep], n[keep]

    def turn_blocked(self, at: tuple[float, float], f0: float, turn: float) -> bool:
        """Whether turning in place at ``at`` from ``f0`` by ``turn`` degrees meets an
        obstacle or the battlefield's edge (exact test on the engine's polygon of the
        footprint, which is never smaller than the base)."""
        foot = pieces_at(self.footprint, 0.0)
        thin, circles = self._near_turn(at)
        return turn_meets(foot, at, f0, turn, thin, circles,
                          (0.0, 0.0, self.width, self.height))

    def _near_turn(self, at: tuple[float, float]
                   ) -> tuple[list[tuple[Polygon, BaseGeometry, np.ndarray, np.ndarray]],
                              list[tuple[float, float, float]]]:
        """The obstacles a turn in place at ``at`` can meet, as :func:`turn_meets` takes them:
        the polygons within reach (one vectorised distance: the same test as each alone), each
        shrunk as the exact test shrinks it, and the circles; kept for the last point asked
        (a start's turns, one grid step at a time, all ask the same)."""
        last = self._near_last
        if last is not None and last[0] == at:
            return last[1], last[2]
        reach = self.radius * 1.01 + 1e-6
        if self._ring_polygons is None:
            self._ring_polygons = np.array([Polygon(r) for r in self._rings], dtype=object)
        near = shapely.distance(self._ring_polygons, shapely.Point(at)) <= reach \
            if len(self._ring_polygons) else np.zeros(0, dtype=bool)
        thin = [t for t in (self._thin_ring(k) for k in np.flatnonzero(near).tolist())
                if t is not None]
        circles = [c for c in self.circles if math.hypot(c[0] - at[0], c[1] - at[1]) <=
                   reach + c[2]]
        self._near_last = (at, thin, circles)
        return thin, circles

    def _thin_ring(self, k: int) -> tuple[Polygon, BaseGeometry, np.ndarray, np.ndarray] | None:
        """Obstacle ring ``k`` as the exact turn test takes it (:func:`thin_edges`), made
        once."""
        if k not in self._thin:
            self._thin[k] = thin_edges(self._rings[k])
        return self._thin[k]


def _flat(rings: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rings as one contiguous ``(n, 2)`` array and their offsets in it (one more than the
    rings), as the compiled core reads them."""
    sizes = [len(r) for r in rings]
    coords = np.concatenate(rings).astype(float) if rings else np.zeros((0, 2))
    return (np.ascontiguousarray(coords.reshape(-1, 2)),
            np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64))


def _valid(polys: Sequence[BaseGeometry] | np.ndarray) -> np.ndarray:
    """``polys`` with each invalid one made valid: a piece grown by a swept footprint can
    cross itself by a rounding error (the demo's Land Raider turning 325 -> 326 degrees:
    GEOS's union then fails); it becomes the union of what its loops cover, never less."""
    out = np.asarray(polys, dtype=object)
    bad = ~shapely.is_valid(out)
    if bad.any():
        out = out.copy()
        out[bad] = shapely.make_valid(out[bad], method="structure")
    return out


def turn_spacing(radius: float, step: float, default: float | None = None) -> float:
    """Spacing of the turn nodes along the windows (the edges of the turn regions and the
    hub's): the most a point of the footprint moves in one step of the grid (``radius * step``
    in radians), at least 0.25". Below the footprint's ``default`` step (:func:`default_step`)
    both shrink by ``r = step / default``: ``max(0.25 * r, radius * step) * r``, so the
    spacing shrinks faster than the step and a turn spread over ``period / step`` steps, each
    made at a node within about a spacing of where the true move makes it, costs a detour that
    goes to 0 with the step (the windows' guarantee, module docstring). At the default step and
    above it is ``max(0.25, radius * step)``: the zones of the default step are unchanged."""
    r = 1.0 if default is None or step >= default else step / default
    return max(0.25 * r, radius * math.radians(step)) * r


NODE_INSET = 3e-7
"""How far (inches) a turn node is moved off the window it was placed on, into its turn
region: a node on the edge of a layer's grown obstacle (where a window runs along it) would
have its rays cast along that edge decided by rounding; the compiled core's regions lie 3e-7"
inside the exact one already, so the engines' nodes stay within 1e-6" of each other."""

LATTICE_PHASE = 0.3819660112501051
"""Where the lattice's lines sit within each spacing (a fraction: ``2 - golden ratio``), so no
round coordinate (a wall's edge, a base's half width) falls on one."""

TILE_CELLS = 64
"""Side of the tiles of :meth:`TurnMap.turn_nodes`, in node spacings (16" at 0.25"): whole
cells of :func:`_thin`, so a tile's nodes are those of the whole battlefield there."""


@dataclass
class _NodePlan:
    """What the turn nodes of one grid are made from (per phase), and the tiles built."""

    grid: tuple[float, ...]
    regions: list[BaseGeometry | NativeMembers]
    """Each step's turn region as its membership test asks it (:func:`node_members`)."""
    hub: BaseGeometry
    """The hub's region grown by EPS."""
    spacing: float
    segs: np.ndarray
    """The edges of the regions' and the hub's boundaries, ``(m, 2, 2)``."""
    anchors: np.ndarray
    """One point of each of their rings (:func:`_anchors`), ``(r, 2)``."""
    bounds: tuple[float, ...]
    """Where they lie (``x0, y0, x1, y1``)."""
    tiles: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]
    windows: dict[tuple[int, int, int, int], TurnNodes] = field(default_factory=dict)
    """:meth:`TurnMap.turn_nodes`' answers by the tiles asked (``x`` and ``y`` ranges; at most
    :data:`_WINDOWS_KEPT`)."""


_WINDOWS_KEPT = 64
"""How many sets of tiles :meth:`TurnMap.turn_nodes` keeps its answer for, a grid."""


def node_members(g: BaseGeometry | NativeMembers, xy: np.ndarray) -> np.ndarray | bool:
    """Whether each point of ``xy`` lies within EPS of a step's turn region: ``g`` the
    region grown (:func:`eps_grown`) or the core's test (:class:`NativeMembers`)."""
    if isinstance(g, NativeMembers):
        return g.within_eps(xy)
    if g.is_empty:
        return False
    return shapely.intersects_xy(g, xy[:, 0], xy[:, 1])


@dataclass(frozen=True)
class NativeMembers:
    """A turn region for the nodes' membership tests on the native engine: a point is a
    member when it lies in the region (the parity of its edges crossed by a ray) or closer
    than EPS to one of its edges (the closest point's distance), both in the compiled core's
    outline of the region. The same points as GEOS's region grown by EPS (:func:`eps_grown`,
    the Python engine's test) but within 8e-8" of its corners, where the grown region's chords
    cut the disks a little; without the buffer, which took 7 ms of a cold bike's zone, nor
    GEOS's prepared point-in-polygon test (its index built for each region: 3 ms)."""

    region: BaseGeometry
    """The region."""
    outline: Any
    """Its edges in the core (``Outline``)."""

    @staticmethod
    def of(core: ModuleType, region: BaseGeometry) -> NativeMembers | None:
        """The test of ``region`` (``None`` when it is empty or the core refuses it)."""
        if region.is_empty:
            return None
        xy, which = shapely.get_coordinates(shapely.get_rings(shapely.get_parts(region)),
                                            return_index=True)
        same = which[:-1] == which[1:]
        x0, y0, x1, y1 = (float(v) for v in region.bounds)
        try:
            out = core.Outline(np.ascontiguousarray(xy[:-1][same]),  # type: ignore[attr-defined]
                               np.ascontiguousarray(xy[1:][same]), (x0, y0, x1, y1))
        except core.NativeError:  # type: ignore[attr-defined]
            return None
        return NativeMembers(region, out)

    def within_eps(self, xy: np.ndarray) -> np.ndarray:
        return cast(np.ndarray, self.outline.within(np.ascontiguousarray(xy, dtype=float), EPS))


def eps_grown(g: BaseGeometry) -> BaseGeometry:
    """``g`` grown by EPS, prepared: the points within EPS of it (its rounded corners by two
    chords a quarter turn, so within 8e-8" less there), for the nodes' membership tests (as
    fast as a point-in-polygon test; GEOS's distance test took four times as long)."""
    out = g.buffer(EPS, quad_segs=2) if not g.is_empty else g
    shapely.prepare(out)
    return out


def _anchors(rings: Sequence[BaseGeometry]) -> np.ndarray:
    """One node on each ring, wherever the lattice misses it (a pocket smaller than a
    spacing): its leftmost point, the lowest of those within 1e-6" of it, moved
    :data:`NODE_INSET` into its region (the rings oriented: the region on their left), rounded
    to 1e-9 (the boundary decides it, not how its edges are split)."""
    out = np.zeros((len(rings), 2))
    for i, r in enumerate(rings):
        c = shapely.get_coordinates(r)
        near = c[c[:, 0] <= c[:, 0].min() + 1e-6]
        out[i] = near[np.argmin(near[:, 1])]
        # right of an exterior's leftmost point, left of a hole's
        out[i, 0] += NODE_INSET if shapely.is_ccw(r) else -NODE_INSET
    return np.round(out, 9)


def _crossings_in(segs: np.ndarray, spacing: float, tile: tuple[int, int], size: float
                  ) -> np.ndarray:
    """The points where the edges ``segs`` cross the lines of the lattice of ``spacing``
    (``x = (i + LATTICE_PHASE) * spacing``, ``y`` likewise), rounded to 1e-9, that fall in
    ``tile`` (``floor(xy / size)``), each once, in ``np.unique`` order: where they lie depends
    on the boundary alone, not on how its edges are split (two engines' regions within a
    hair of each other give nodes within a hair of each other)."""
    x0, y0 = tile[0] * size, tile[1] * size
    x1, y1 = x0 + size, y0 + size
    p, q = segs[:, 0], segs[:, 1]
    m = 1e-6 * max(1.0, size)
    near = (np.minimum(p[:, 0], q[:, 0]) <= x1 + m) & (np.maximum(p[:, 0], q[:, 0]) >= x0 - m) & \
        (np.minimum(p[:, 1], q[:, 1]) <= y1 + m) & (np.maximum(p[:, 1], q[:, 1]) >= y0 - m)
    a, b = p[near], q[near]
    out = []
    for c, lo_c, hi_c in ((0, x0, x1), (1, y0, y1)):
        # the lines k with a < line <= b along axis c (either way round), within the tile
        u = a[:, c] / spacing - LATTICE_PHASE
        v = b[:, c] / spacing - LATTICE_PHASE
        first = np.floor(np.minimum(u, v)) + 1
        last = np.floor(np.maximum(u, v))
        first = np.maximum(first, np.floor(lo_c / spacing - LATTICE_PHASE))
        last = np.minimum(last, np.floor(hi_c / spacing - LATTICE_PHASE) + 1)
        many = np.maximum(0, last - first + 1).astype(np.int64)
        if not many.sum():
            continue
        row = np.repeat(np.arange(len(a)), many)
        k = first[row] + (np.arange(many.sum()) - np.repeat(np.cumsum(many) - many, many))
        at = (k + LATTICE_PHASE) * spacing
        d = b[row] - a[row]
        t = (at - a[row, c]) / d[:, c]
        other = a[row, 1 - c] + t * d[:, 1 - c]
        xy = np.empty((len(row), 2))
        xy[:, c] = at
        xy[:, 1 - c] = other
        # moved into the region (left of the edge) by NODE_INSET
        n = np.column_stack([-d[:, 1], d[:, 0]]) / np.hypot(d[:, 0], d[:, 1])[:, None]
        out.append(xy + NODE_INSET * n)
    if not out:
        return np.zeros((0, 2))
    xy = np.round(np.concatenate(out), 9)
    inside = (np.floor(xy[:, 0] / size) == tile[0]) & (np.floor(xy[:, 1] / size) == tile[1])
    return unique_rows(xy[inside])[0]


def unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, axis=0, return_inverse=True)`` for an ``(n, 2)`` array (the rows sorted
    by their first column, then their second), with a lexsort rather than ``np.unique``'s
    sort of the rows as records (several times slower)."""
    if not len(a):
        return a[:0], np.zeros(0, dtype=np.int64)
    order = np.lexsort((a[:, 1], a[:, 0]))
    s = a[order]
    new = np.empty(len(s), dtype=bool)
    new[0] = True
    new[1:] = (s[1:] != s[:-1]).any(axis=1)
    inverse = np.empty(len(s), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return s[new], inverse


@dataclass(frozen=True)
class TurnNodes:
    """Points where a turning mover may turn in place, and how far (per phase, per grid).

    Node ``i`` at ``xy[i]`` may turn through the steps ``lo[i], lo[i] + 1, ...,
    lo[i] + n[i] - 1`` of ``grid`` (indices modulo its length; a step ``j`` turns between
    ``grid[j]`` and ``grid[j + 1]``, the last one back to ``grid[0]`` one period on); ``n[i]``
    equal to the grid's length: every facing.
    """

    xy: np.ndarray
    lo: np.ndarray
    n: np.ndarray
    grid: tuple[float, ...]
    _usable: dict[tuple[float, float], np.ndarray] = field(default_factory=dict, compare=False,
                                                           repr=False)

    def usable(self, f: float, period: float) -> np.ndarray:
        """Which nodes may turn to or from facing ``f`` (the footprint's ``period``): a grid
        facing at an end or inside a node's run, another facing inside one of its steps (made
        once a facing: the same nodes serve the pick-ups near them)."""
        got = self._usable.get((f, period))
        if got is None:
            got = self._usable[(f, period)] = _usable(f, self.grid, period, self.lo, self.n)
            got.flags.writeable = False
        return got


def _usable(f: float, grid: tuple[float, ...], per: float, lo: np.ndarray, n: np.ndarray
            ) -> np.ndarray:
    """Which nodes (runs ``lo``, ``n`` of steps of ``grid``) may turn to or from facing ``f``
    (:meth:`TurnNodes.usable`)."""
    k = len(grid)
    step = per / k
    u = (f - grid[0]) / step
    if abs(u - round(u)) < 1e-6:  # a grid facing
        j = round(u) % k
        return (n == k) | (np.mod(j - lo, k) <= n)
    j = math.floor(u) % k
    return (n == k) | (np.mod(j - lo, k) < n)


def _thin(xy: np.ndarray, lo: np.ndarray, n: np.ndarray, k: int, spacing: float
          ) -> np.ndarray:
    """Indices of the nodes to keep: in each square of ``spacing``, the one that turns
    furthest and the one that turns furthest through steps the first cannot (two runs at one
    place: a junction that fits two facings and not those between them)."""
    if not len(xy):
        return np.zeros(0, dtype=np.int64)
    cell = np.floor(xy / spacing).astype(np.int64)
    group = unique_rows(cell)[1]
    keep: list[np.ndarray] = []
    left = np.nonzero(n > 0)[0]
    for _ in range(2):
        if not len(left):
            break
        order = left[np.lexsort((-n[left], group[left]))]
        first = order[np.r_[True, group[order][1:] != group[order][:-1]]]
        keep.append(first)
        best = np.full(group.max() + 1, -1, dtype=np.int64)
        best[group[first]] = first
        b = best[group[left]]
        inside = (n[b] == k) | (np.mod(lo[left] - lo[b], k) + n[left] <= n[b])
        left = left[~inside]
    return np.sort(np.concatenate(keep)) if keep else np.zeros(0, dtype=np.int64)


def _runs(member: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each column of ``member`` (steps x points), the longest cyclic run of ``True``:
    its first step and its length (0: none)."""
    k, m = member.shape
    lo = np.zeros(m, dtype=np.int64)
    n = np.zeros(m, dtype=np.int64)
    if not m:
        return lo, n
    full = member.all(axis=0)
    n[full] = k
    # run lengths ending at each step, over two turns of the cycle
    run = np.zeros(m, dtype=np.int64)
    for j in range(2 * k):
        row = member[j % k]
        run = np.where(row, run + 1, 0)
        longer = ~full & (np.minimum(run, k) > n)
        n[longer] = np.minimum(run, k)[longer]
        lo[longer] = (j - n[longer] + 1) % k
    return lo, n


def _circle_copies(obstacles: Sequence[tuple[str, Any]], rings: Sequence[np.ndarray],
                   pairs: Sequence[tuple[int, int]], pieces: int
                   ) -> list[tuple[list[np.ndarray], np.ndarray, list[int]]]:
    """The grown rings of a layer that are copies of one set moved, for the compiled core's
    union of them (:class:`~tabletop.geometry.visibility.ReachMap`'s ``copies``): per radius
    of the circles (when the footprint has several convex ``pieces``; a convex one grows a
    circle into one ring), the rings of its first circle about the origin, the centres of
    the circles whose rings are those moved (to 1e-9", checked), and the rows of their
    rings. Only on the native engine (the Python engine unions the rings themselves)."""
    if pieces < 2 or engine.core() is None:
        return []
    rows_of: dict[int, list[int]] = {}
    for row, (i, _) in enumerate(pairs):
        if obstacles[i][0] == "circle":
            rows_of.setdefault(i, []).append(row)
    by_radius: dict[float, list[int]] = {}
    for i in rows_of:
        by_radius.setdefault(float(obstacles[i][1][2]), []).append(i)
    out = []
    for circles in by_radius.values():
        if len(circles) < 2:
            continue
        first = circles[0]
        c0 = np.asarray(obstacles[first][1][:2], dtype=float)
        local = [np.asarray(rings[r], dtype=float) - c0 for r in rows_of[first]]
        sizes = [len(t) for t in local]
        flat = np.concatenate(local)
        centres: list[np.ndarray] = []
        rows: list[int] = []
        for i in circles:
            c = np.asarray(obstacles[i][1][:2], dtype=float)
            mine = rows_of[i]
            if [len(rings[r]) for r in mine] == sizes and float(np.abs(
                    np.concatenate([rings[r] for r in mine]) - c - flat).max()) <= 1e-9:
                centres.append(c)
                rows += mine
        if len(centres) >= 2:
            out.append((local, np.array(centres), rows))
    return out


@lru_cache(maxsize=16)
def turn_map(width: float, height: float, footprint: Footprint,
             circles: tuple[tuple[float, float, float], ...],
             polygons: tuple[tuple[tuple[float, float], ...], ...]) -> TurnMap:
    """A cached :class:`TurnMap` (per phase: enemies and terrain stand still)."""
    return TurnMap(width, height, footprint, circles, polygons)

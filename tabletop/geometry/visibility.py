"""Obstacles inflated for a disk mover, their bend corners and the tangent visibility graph.

The mover is a disk of radius ``r`` that translates; rotation is free. Working with its centre,
every obstacle is inflated by ``r`` (a Minkowski sum with the disk) and the battlefield shrinks
to the box ``[r, W - r] x [r, H - r]``. A :class:`ReachMap` holds, once per obstacle set and
mover radius (:func:`reach_map` caches it):

1. *Inflation.* A round obstacle of radius ``re`` becomes a regular polygon of
   :data:`CIRCLE_SEGMENTS` vertices **circumscribed** about the
   circle of radius ``re + r`` (every edge tangent to it, vertices ``(re + r) * (1 / cos(pi /
   n) - 1)`` outside it). A polygon obstacle is cut into convex pieces (constrained Delaunay
   triangles merged while their union stays convex; convex polygons stay whole) and each piece
   is grown by :func:`~tabletop.geometry.minkowski.offset_convex`: straight edges exactly at
   ``r``, corners by tangent segments turning at most pi / 16 (vertices at most ``r * (1 /
   cos(pi / 32) - 1)`` outside the arc), so it never under-inflates. Every inflated piece is
   convex.
2. *Corners.* The vertices of the pieces that lie in the box and inside no other piece are
   the bend candidates.
3. *Tangent visibility graph* (grown on demand to the longest move asked): an edge ``u-v`` is
   kept only when the line ``uv`` is locally tangent at both ends (both ring neighbours on one
   side) and the open segment meets no piece, tested in one vectorised call against the union
   of the pieces eroded by :data:`ERODE` (prepared once).

Start inside an inflated piece: a mover in base contact with an obstacle stands inside the
piece's circumscribed polygon (which is slightly larger than the circle). Such a piece is cut,
for that query, by the half-plane through ``p`` facing away from the obstacle (the tangent
line of the true inflated shape), which still contains the true inflated obstacle
(:meth:`ReachMap.start_cut`, a :class:`StartCut`).

Error bounds: the free space is smaller than the true free space by at most
``(re + r) * (1 / cos(pi / CIRCLE_SEGMENTS) - 1)`` near round obstacles and
``r * (1 / cos(pi / 32) - 1)`` at the corners of polygons (their straight edges are exact);
the erosion used in the blocking test lets a segment through gaps narrower than
``2 * ERODE`` (1e-7 inch, far below the rules tolerance).

The searches and regions over a map are :mod:`tabletop.geometry.geodesic`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry import engine
from tabletop.geometry.minkowski import offset_convex
from tabletop.geometry.polygons import (
    clipped,
    convex_pieces,
    norm,
    polygonal,
    ring_of,
    ring_polygons,
    segments,
)

if TYPE_CHECKING:
    from tabletop.geometry.geodesic import GeodesicDisk

__all__ = [
    "CIRCLE_SEGMENTS",
    "CLOSE_GAP",
    "ERODE",
    "ReachMap",
    "StartCut",
    "reach_map",
    "tangent",
    "tangent_cones",
]

CIRCLE_SEGMENTS = 32
"""Vertices of the circumscribed polygon that stands in for an inflated round obstacle."""

ERODE = 1e-7
"""Pieces are shrunk by this much for the blocking test, so that touching is not blocking."""

_TURN_TOL = 1e-10

_FINE_SCALE = 1e9
"""Grid units an inch of the compiled core's union of a map's pieces (its finest grid)."""


def _ragged_rings(rings: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rings`` (each open, one ring a polygon) in shapely's ragged layout, closed."""
    rs = [np.asarray(r, dtype=float) for r in rings]
    sizes = np.array([len(r) + 1 for r in rs], dtype=np.int64)
    coords = np.concatenate([np.concatenate([r, r[:1]]) for r in rs]) if rs \
        else np.zeros((0, 2))
    return (np.ascontiguousarray(coords, dtype=float),
            np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
            np.arange(len(rs) + 1, dtype=np.int64))


def _sign(v: np.ndarray) -> np.ndarray:
    return np.where(v > _TURN_TOL, 1, np.where(v < -_TURN_TOL, -1, 0))


def tangent(u: np.ndarray, v: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether the line ``u -> v`` leaves both neighbours ``a`` and ``b`` of ``u`` on one side."""
    d = v - u
    dn = norm(d[..., 0], d[..., 1])
    dn = np.where(dn == 0, 1.0, dn)
    ea, eb = a - u, b - u
    na = norm(ea[..., 0], ea[..., 1])
    nb = norm(eb[..., 0], eb[..., 1])
    ca = (d[..., 0] * ea[..., 1] - d[..., 1] * ea[..., 0]) / (dn * np.where(na == 0, 1, na))
    cb = (d[..., 0] * eb[..., 1] - d[..., 1] * eb[..., 0]) / (dn * np.where(nb == 0, 1, nb))
    return _sign(ca) * _sign(cb) >= 0


_CONE_MARGIN = 1e-6
"""Radians by which :func:`tangent_cones` widens each cone (far more than the
``_TURN_TOL`` of :func:`_tangent` allows a line to cut into its corner's angle)."""


def tangent_cones(u: np.ndarray, a: np.ndarray, b: np.ndarray, cap: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Polygons holding every point ``v`` within ``cap`` of a corner ``u[k]`` for which
    :func:`_tangent` ``(u, v, a, b)`` may hold, two per corner, and each one's corner.

    The line from a convex corner leaves both neighbours on one side unless it points into
    the corner's angle or the opposite one: the rest are two cones of ``pi`` minus the angle
    (narrow at the corners of a grown circle), each circumscribed by a fan of chords. A corner
    whose neighbour coincides with it allows every direction (two half discs)."""
    ea, eb = a - u, b - u
    ta = np.arctan2(ea[:, 1], ea[:, 0])
    tb = np.arctan2(eb[:, 1], eb[:, 0])
    alpha = np.mod(tb - ta, 2 * math.pi)
    inner = np.minimum(alpha, 2 * math.pi - alpha)
    hi = np.where(alpha <= math.pi, tb, ta)  # the angle's second ray, counter-clockwise
    span = math.pi - inner
    free = (norm(ea[:, 0], ea[:, 1]) <= 1e-12) | (norm(eb[:, 0], eb[:, 1]) <= 1e-12)
    hi = np.where(free, 0.0, hi)
    span = np.where(free, math.pi, span)
    start = np.concatenate([hi, hi + math.pi]) - _CONE_MARGIN
    span = np.concatenate([span, span]) + 2 * _CONE_MARGIN
    which = np.concatenate([np.arange(len(u)), np.arange(len(u))])
    m = np.maximum(1, np.ceil(span / (math.pi / 8))).astype(np.int64)
    h = span / m
    far = cap / np.cos(h / 2) * (1 + 1e-9) + 1e-9
    k = np.arange(m.max() + 1)
    rows = np.repeat(np.arange(len(m)), m + 1)
    steps = k[None, :].repeat(len(m), 0)[k[None, :] <= m[:, None]]
    ang = start[rows] + h[rows] * steps
    tips = u[which[rows]] + far[rows, None] * np.column_stack([np.cos(ang), np.sin(ang)])
    # each cone: its corner, then the fan's points
    offset = np.cumsum(m + 2) - (m + 2)
    pts = np.empty((int((m + 2).sum()), 2))
    pts[offset] = u[which]
    pos = np.delete(np.arange(len(pts)), offset)
    pts[pos] = tips
    cones = shapely.polygons(shapely.linearrings(pts, indices=np.repeat(np.arange(len(m)),
                                                                         m + 2)))
    return cones, which


def _circle_coords(x: float, y: float, radius: float, n: int, phase: float = 0.0
                   ) -> np.ndarray:
    k = np.arange(n)
    theta = phase + (k + 0.5) * 2.0 * math.pi / n
    rho = radius / math.cos(math.pi / n)
    return np.column_stack([x + rho * np.cos(theta), y + rho * np.sin(theta)])


CLOSE_GAP = 0.02
"""Inflated circles closer than this (inches) turn their polygons so that no vertex points
into the gap between them (see :func:`_circle_phases`)."""


def _circle_phases(circles: np.ndarray) -> np.ndarray:
    """A turn of each circle's circumscribed polygon that keeps its vertices out of the gaps
    to its close neighbours.

    A circumscribed polygon of ``n`` vertices reaches ``rho * (1 / cos(pi / n) - 1)`` beyond
    its circle at a vertex (0.006" for two 32 mm bases at n = 32) but only
    ``rho * (cos(pi / n - a) / cos(pi / n) - 1)`` in a direction ``a`` from an edge's middle.
    A gap between two circles a little wider than the mover would close or not depending on
    its orientation (issue 12); each circle with neighbours within :data:`CLOSE_GAP` is turned
    (among 32 trial turns) so that its largest reach towards them is smallest.
    """
    nc = len(circles)
    phase = np.zeros(nc)
    if nc < 2:
        return phase
    seg = 2.0 * math.pi / CIRCLE_SEGMENTS
    trials = np.arange(32) * seg / 32
    xy, rr = circles[:, :2], circles[:, 2]
    for s0 in range(0, nc, 512):
        d = np.hypot(xy[s0:s0 + 512, None, 0] - xy[None, :, 0],
                     xy[s0:s0 + 512, None, 1] - xy[None, :, 1])
        gap = d - rr[s0:s0 + 512, None] - rr[None, :]
        ii, jj = np.nonzero((gap < CLOSE_GAP) & (d > 1e-12))
        if not len(ii):
            continue
        ii = ii + s0
        ang = np.arctan2(xy[jj, 1] - xy[ii, 1], xy[jj, 0] - xy[ii, 0])
        for i in np.unique(ii).tolist():
            a = ang[ii == i]
            # angle from the nearest edge middle, for each trial turn and neighbour
            off = np.mod(a[None, :] - trials[:, None], seg)
            off = np.minimum(off, seg - off)
            excess = np.cos(seg / 2 - off) / math.cos(seg / 2)
            phase[i] = trials[int(np.argmin(excess.max(axis=1)))]
    return phase


@dataclass
class StartCut:
    """Per-query replacement of pieces that contain the start point."""

    changed: dict[int, np.ndarray] = field(default_factory=dict)
    eroded: dict[int, Polygon] = field(default_factory=dict)


class ReachMap:
    """Obstacles inflated for one mover radius, with their corners and visibility graph.

    Build it once per obstacle set and mover radius (:func:`reach_map` caches it); then
    :meth:`disk` answers every start point and distance.

    Parameters
    ----------
    width, height : float
        The battlefield, inches.
    radius : float
        The mover's radius (for a non-round base: its circumscribed circle's).
    circles : sequence of (x, y, radius)
        Round obstacles, un-inflated.
    polygons : sequence of sequences of (x, y)
        Polygon obstacles, un-inflated.
    """

    def __init__(self, width: float, height: float, radius: float,
                 circles: Sequence[tuple[float, float, float]] = (),
                 polygons: Sequence[Sequence[tuple[float, float]]] = (), *,
                 grown: Sequence[tuple[np.ndarray, object]] = (),
                 bounds: tuple[float, float, float, float] | None = None,
                 copies: Sequence[tuple[Sequence[np.ndarray], np.ndarray, Sequence[int]]] = ()
                 ) -> None:
        self.width, self.height, self.radius = float(width), float(height), float(radius)
        r = self.radius
        self.box = bounds if bounds is not None else (r, r, self.width - r, self.height - r)
        self.box_polygon = box(*self.box)
        rings: list[np.ndarray] = []
        self._circles = np.array([(float(x), float(y), float(re) + r) for x, y, re in circles]
                                 ).reshape(-1, 3)
        self._phase = _circle_phases(self._circles)
        # analytic description of each piece for the start-point cut: (kind, data)
        self._exact: list[tuple[str, object]] = []
        for (x, y, rr), ph in zip(self._circles.tolist(), self._phase.tolist(), strict=True):
            rings.append(_circle_coords(x, y, rr, CIRCLE_SEGMENTS, ph))
            self._exact.append(("circle", (x, y, rr)))
        for pts in polygons:
            for piece in convex_pieces(Polygon(pts)):
                rings.append(offset_convex(ring_of(piece), r) if r > 0 else ring_of(piece))
                self._exact.append(("polygon", piece))
        # pieces already grown by the mover (the layers of a turning mover): each with what
        # separates it from a pose in contact (tabletop.geometry.cspace.separation)
        for ring, how in grown:
            rings.append(np.asarray(ring, dtype=float))
            self._exact.append(("grown", how))
        self.rings = rings
        # grown rings that are copies of one set moved (a circle's sums with a footprint's
        # pieces, one set a radius): for the compiled core's union only (_native_union)
        first = len(rings) - len(grown)
        self._copies = [(list(local), np.asarray(at, dtype=float).reshape(-1, 2),
                         [first + k for k in rows]) for local, at, rows in copies]
        self.pieces = list(ring_polygons(rings))
        self.piece_tree = shapely.STRtree(self.pieces)
        self._outline: tuple[np.ndarray, np.ndarray, BaseGeometry] | None = None
        self._edge_tree: shapely.STRtree | None = None
        self._layout: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._eroded_all: BaseGeometry | None = None
        self._native_outline: object | None = None
        self._corners()
        self._graph_cap = 0.0
        self._adj_ptr = np.zeros(len(self.corners) + 1, dtype=np.int64)
        self._adj_nbr = np.zeros(0, dtype=np.int64)
        self._adj_w = np.zeros(0)
        self._slack: dict[object, np.ndarray] = {}
        self._native_slack: dict[object, np.ndarray] = {}
        self._adj_lists: list[list[tuple[int, float]]] | None = None
        self._adj_lists_cap = -1.0
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._outline_columns: tuple[np.ndarray, ...] | None = None
        self._corner_tree: shapely.STRtree | None = None
        self._edge_cache: dict[tuple[float, float], tuple[float, np.ndarray, np.ndarray]] = {}
        self._free_parts: np.ndarray | None = None
        self._native_core: Any = None
        self._native_excludes: dict[object, object] = {}
        self._graph_maker: tuple[ModuleType, Any] | None = None

    @cached_property
    def tree(self) -> shapely.STRtree:
        """The pieces shrunk by :data:`ERODE`, in an STRtree (built when first asked: only a
        start standing in a piece needs it, to find and cut those pieces)."""
        return shapely.STRtree(shapely.buffer(np.asarray(self.pieces, dtype=object), -ERODE,
                                              join_style="mitre"))

    # -- corners --------------------------------------------------------------------------
    def _corners(self) -> None:
        if not self.rings:
            self.corners = np.zeros((0, 2))
            self.prev = self.next = self.corners
            self.owner = np.zeros(0, dtype=np.int64)
            self._circle_corner = np.zeros((0, CIRCLE_SEGMENTS), dtype=np.int64)
            return
        # every ring's vertices with their ring neighbours, in a few array operations
        sizes = np.fromiter((len(c) for c in self.rings), dtype=np.int64, count=len(self.rings))
        pts = np.concatenate(self.rings).astype(float, copy=False).reshape(-1, 2)
        starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
        own = np.repeat(np.arange(len(sizes)), sizes)
        vid = np.arange(len(pts)) - starts
        size = sizes[own]
        prv = pts[starts + (vid - 1) % size]
        nxt = pts[starts + (vid + 1) % size]
        x0, y0, x1, y1 = self.box
        tol = 1e-9
        keep = (pts[:, 0] >= x0 - tol) & (pts[:, 0] <= x1 + tol) & \
               (pts[:, 1] >= y0 - tol) & (pts[:, 1] <= y1 + tol)
        # strictly convex vertices only (collinear ones are no bends)
        e1, e2 = pts - prv, nxt - pts
        cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
        keep &= cross > 1e-14
        # not inside another piece
        idx = np.nonzero(keep)[0]
        if len(idx):
            # a vertex is on no other piece's boundary unless it lies inside the union by
            # ERODE (the seam where two pieces only overlap by less than ERODE is inside the
            # union, and no path turns there)
            keep[idx[self._deep(pts[idx])]] = False
        self.corners = pts[keep]
        self.prev = prv[keep]
        self.next = nxt[keep]
        self.owner = own[keep]
        vid = vid[keep]
        nc = len(self._circles)
        table = np.full((nc, CIRCLE_SEGMENTS), -1, dtype=np.int64)
        isc = self.owner < nc
        table[self.owner[isc], vid[isc]] = np.nonzero(isc)[0]
        self._circle_corner = table

    def _deep(self, pts: np.ndarray) -> np.ndarray:
        """Whether each of ``pts`` (vertices of the pieces: in the union) lies inside the union
        by :data:`ERODE`.

        On the native engine: no edge of the outline comes closer than ERODE (the closest
        point's distance, in the core's outline, which the searches use anyway). On the Python
        engine, or where the core refuses the outline: in the union shrunk by ERODE (GEOS's
        mitre erosion, one prepared point-in-area test). The two differ only within ERODE's
        mitre of a reflex vertex of the union (where two pieces' edges cross), a point inside
        the obstacles by ERODE at least, which the native engine does not take for a corner.
        """
        core = engine.core()
        if core is not None:
            try:
                near = self.native_outline(core).near_edge(  # type: ignore[attr-defined]
                    np.ascontiguousarray(pts, dtype=float), ERODE)
            except core.NativeError:  # type: ignore[attr-defined]
                pass
            else:
                return ~np.asarray(near, dtype=bool)
        return shapely.intersects_xy(self.eroded_union(), pts[:, 0], pts[:, 1])

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """The boundary of the union of the pieces as directed edges ``a[k] -> b[k]``.

        Every edge has the union on its left and free space on its right (exterior rings
        counter-clockwise, holes clockwise); its vertices include the points where the
        outlines of overlapping pieces cross. Built once per obstacle set, with the union
        itself (:meth:`union`).
        """
        if self._outline is None:
            core = engine.core()
            u = self._native_union(core) if core is not None else None
            if u is None:
                u = shapely.union_all(self.pieces)
            u = shapely.orient_polygons(u, exterior_cw=False)
            rings = shapely.get_rings(shapely.get_parts(u))
            xy, idx = shapely.get_coordinates(rings, return_index=True)
            same = idx[1:] == idx[:-1]
            a, b = xy[:-1][same], xy[1:][same]
            keep = np.hypot(*(b - a).T) > 0
            a, b = a[keep], b[keep]
            shapely.prepare(u)
            self._outline = (a, b, u)
        return self._outline[0], self._outline[1]

    def _native_union(self, core: ModuleType) -> BaseGeometry | None:
        """The union of the pieces in the compiled core, on its finest grid (1e-9"), every
        piece vertex on it given back exactly: only the crossings of two pieces' edges are the
        grid's (measured up to 3.1e-9" off GEOS's, a thirtieth of :data:`ERODE`, so the
        corners' test against the union shrunk by it keeps the same corners). A valid
        geometry, or ``None`` where the core refuses or its rings come back not valid (the
        caller takes GEOS's union). Some 0.6 ms of the core against GEOS's 2 ms on a turning
        layer's pieces (about 60 of them)."""
        if not self.rings:
            return None
        coords, ring_starts, poly_starts = self._rings_layout() if not self._copies else \
            self._copied_layout(core)
        lo, hi = coords.min(axis=0), coords.max(axis=0)
        try:
            got = core.overlay("union", (float(lo[0]), float(lo[1]), float(hi[0]),
                                         float(hi[1])), 1.0, (coords, ring_starts, poly_starts),
                               engine.NO_POLYGONS, scale=_FINE_SCALE, snap=True)
        except core.NativeError:  # type: ignore[attr-defined]
            return None
        xy, rings, polys = got
        if len(polys) < 2:
            return Polygon()
        parts = shapely.from_ragged_array(shapely.GeometryType.POLYGON, xy, (rings, polys))
        out = parts[0] if len(parts) == 1 else shapely.multipolygons(parts)
        return out if out.is_valid else None

    def _copied_layout(self, core: ModuleType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pieces in the ragged layout as :meth:`_native_union` unions them when some are
        copies of one set moved (``copies``: a circle's sums with each piece of a footprint
        that is not convex, one set a radius): each set's union made once (on the finest
        grid, its input vertices kept), moved to each copy's place, in place of the copies'
        rings. The same point set: a 40-pointed star hull's layer among 65 round bases, 1,491
        rings, took 19.5 ms in one union, its six sets' unions and the union of the 191 parts
        then 3.7 ms."""
        covered = np.zeros(len(self.rings), dtype=bool)
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for local, at, rows in self._copies:
            lay = _ragged_rings(local)
            lo, hi = lay[0].min(axis=0), lay[0].max(axis=0)
            try:
                xy, rings, polys = core.overlay(
                    "union", (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), 1.0,
                    lay, engine.NO_POLYGONS, scale=_FINE_SCALE, snap=True)
            except core.NativeError:  # type: ignore[attr-defined]
                xy, rings, polys = lay  # (its rings as they are: the same union after)
            m, n, nr = len(at), len(xy), len(rings) - 1
            if not m or len(polys) < 2:
                continue
            covered[rows] = True
            # m copies: the coordinates moved, the ring and polygon starts shifted
            shift = np.arange(m)[:, None]
            parts.append(((xy[None, :, :] + at[:, None, :]).reshape(-1, 2),
                          np.append((rings[None, :-1] + n * shift).reshape(-1), m * n),
                          np.append((polys[None, :-1] + nr * shift).reshape(-1), m * nr)))
        rest = [r for r, c in zip(self.rings, covered.tolist(), strict=True) if not c]
        if rest:
            parts.append(_ragged_rings(rest))
        if not parts:
            return self._rings_layout()
        coords = np.concatenate([p[0] for p in parts])
        ring_starts, poly_starts = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
        nc = nr = 0
        for xy, rings, polys in parts:
            ring_starts.append(rings[1:] + nc)
            poly_starts.append(polys[1:] + nr)
            nc += len(xy)
            nr += len(rings) - 1
        return (np.ascontiguousarray(coords, dtype=float),
                np.concatenate(ring_starts).astype(np.int64),
                np.concatenate(poly_starts).astype(np.int64))

    def _rings_layout(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pieces' rings in shapely's ragged layout (each closed, one ring a polygon), as
        the compiled core reads them (built once)."""
        if self._layout is None:
            self._layout = _ragged_rings(self.rings)
        return self._layout

    def union(self) -> BaseGeometry:
        """The union of the pieces (prepared, built once with :meth:`outline`)."""
        if self._outline is None:
            self.outline()
        assert self._outline is not None
        return self._outline[2]

    def edge_tree(self) -> shapely.STRtree:
        """An ``STRtree`` of the outline's edges (built when first asked: only the Python
        engine's ray casting queries it)."""
        if self._edge_tree is None:
            a, b = self.outline()
            self._edge_tree = shapely.STRtree(segments(a, b))
        return self._edge_tree

    def free_parts(self) -> np.ndarray:
        """The parts of the free space: the box minus the union of the pieces, one polygon
        per connected part (prepared, built once)."""
        if self._free_parts is None:
            free = self.box_polygon.difference(self.union()) if len(self.pieces) else \
                self.box_polygon
            parts = shapely.get_parts(free)
            parts = parts[shapely.area(parts) > 0]
            shapely.prepare(parts)
            self._free_parts = parts
        return self._free_parts

    def outline_columns(self) -> tuple[np.ndarray, ...]:
        """The outline's edges as contiguous columns ``ax, ay, bx, by, dx, dy`` (``d = b - a``,
        never zero), built once."""
        if self._outline_columns is None:
            a, b = self.outline()
            d = b - a
            self._outline_columns = tuple(np.ascontiguousarray(c) for c in (
                a[:, 0], a[:, 1], b[:, 0], b[:, 1], d[:, 0], d[:, 1]))
        return self._outline_columns

    # -- the corner-to-corner graph ------------------------------------------------------
    def ensure_graph(self, cap: float) -> None:
        """Make the corner graph hold every edge up to ``cap`` long (grown at least twofold
        each time, so a phase of longer and longer moves builds it a few times at most)."""
        if cap <= self._graph_cap:
            return
        cap = max(cap, 2 * self._graph_cap)
        if self._native_graph(cap):
            return
        n = len(self.corners)
        c = self.corners
        cand_i: list[np.ndarray] = []
        cand_j: list[np.ndarray] = []
        # 1. circle to circle: only near the four bitangents of each pair of circles
        nc = len(self._circles)
        table = self._circle_corner
        if nc > 1:
            cand_i, cand_j = self._bitangent_candidates(cap)
        # 2. along each circle's own ring
        if nc:
            u = table
            v = np.roll(table, -1, axis=1)
            m = (u >= 0) & (v >= 0)
            cand_i.append(u[m])
            cand_j.append(v[m])
        # 3. corners of other pieces (terrain, non-round models) to every corner in the two
        # narrow cones of directions in which a line leaves its neighbours on one side
        gen = np.nonzero(self.owner >= nc)[0]
        if len(gen):
            cones, which = tangent_cones(c[gen], self.prev[gen], self.next[gen], cap)
            hit, jj = shapely.STRtree(shapely.points(c)).query(cones, predicate="intersects")
            cand_i.append(gen[which[hit]])
            cand_j.append(jj)
        i = np.concatenate(cand_i) if cand_i else np.zeros(0, dtype=np.int64)
        j = np.concatenate(cand_j) if cand_j else np.zeros(0, dtype=np.int64)
        if len(i):
            # the per-pair tests first (they do not depend on the pair's order), then one
            # copy of each surviving pair
            keep = (i != j) & (norm(*(c[j] - c[i]).T) <= cap)
            i, j = i[keep], j[keep]
            t = tangent(c[i], c[j], self.prev[i], self.next[i]) & \
                tangent(c[j], c[i], self.prev[j], self.next[j])
            i, j = i[t], j[t]
            key = np.unique(np.minimum(i, j) * n + np.maximum(i, j))
            i, j = key // n, key % n
        if len(i):
            blocked = self.blocked(c[i], c[j], None)
            i, j = i[~blocked], j[~blocked]
        w = np.hypot(*(c[j] - c[i]).T) if len(i) else np.zeros(0)
        src = np.concatenate([i, j])
        dst = np.concatenate([j, i])
        ww = np.concatenate([w, w])
        order = np.argsort(src, kind="stable")
        src, dst, ww = src[order], dst[order], ww[order]
        self._adj_ptr = np.searchsorted(src, np.arange(n + 1)).astype(np.int64)
        self._adj_nbr = dst.astype(np.int64)
        self._adj_w = ww
        self._graph_cap = cap

    def _native_graph(self, cap: float) -> bool:
        """:meth:`ensure_graph` in the compiled core on the native engine
        (:mod:`tabletop.geometry.engine`): every pair of corners within ``cap``, tangent at
        both ends and blocked by no piece shrunk by :data:`ERODE`, in the same rows and order;
        ``False`` on the Python engine or where the core refuses the map."""
        core = engine.core()
        if core is None:
            return False
        try:
            if self._graph_maker is None or self._graph_maker[0] is not core:
                sizes = [len(r) for r in self.rings]
                coords = np.concatenate(self.rings).astype(float) if self.rings else \
                    np.zeros((0, 2))
                self._graph_maker = (core, core.GraphMaker(
                    np.ascontiguousarray(coords.reshape(-1, 2)),
                    np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                    (*(np.ascontiguousarray(a, dtype=float)
                       for a in (self.corners, self.prev, self.next)),
                     np.ascontiguousarray(self.owner, dtype=np.int64))))
            ptr, nbr, w = self._graph_maker[1].graph(float(cap))
        except core.NativeError:
            return False
        self._adj_ptr, self._adj_nbr, self._adj_w = ptr, nbr, w
        self._graph_cap = cap
        return True

    def _bitangent_candidates(self, cap: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Pairs of corners of two circles' polygons near one of the four bitangents of the
        circles (within a vertex either way), for circles less than ``cap`` apart."""
        circ = self._circles
        nc = len(circ)
        table = self._circle_corner
        cand_i: list[np.ndarray] = []
        cand_j: list[np.ndarray] = []
        vr = circ[:, 2] / math.cos(math.pi / CIRCLE_SEGMENTS)
        dx = circ[None, :, 0] - circ[:, None, 0]
        dy = circ[None, :, 1] - circ[:, None, 1]
        dd = np.hypot(dx, dy)
        ok = (dd <= cap + vr[:, None] + vr[None, :]) & (dd > 1e-12)
        ok &= np.triu(np.ones((nc, nc), bool), 1)
        a, b = np.nonzero(ok)
        d = dd[a, b]
        phi = np.arctan2(dy[a, b], dx[a, b])
        ra, rb = circ[a, 2], circ[b, 2]
        normals_a, normals_b, valid = [], [], []
        co = np.clip((ra - rb) / d, -1.0, 1.0)
        ci = np.clip((ra + rb) / d, -1.0, 1.0)
        for sgn in (1.0, -1.0):
            al = phi + sgn * np.arccos(co)
            normals_a.append(al)
            normals_b.append(al)
            valid.append(np.abs(ra - rb) < d)
            al = phi + sgn * np.arccos(ci)
            normals_a.append(al)
            normals_b.append(al + math.pi)
            valid.append(ra + rb < d)
        seg = 2.0 * math.pi / CIRCLE_SEGMENTS
        pa, pb = self._phase[a], self._phase[b]
        for na, nb, vv in zip(normals_a, normals_b, valid, strict=True):
            ka = np.floor(np.mod(na - pa, 2 * math.pi) / seg).astype(np.int64)
            kb = np.floor(np.mod(nb - pb, 2 * math.pi) / seg).astype(np.int64)
            aa, bb, kaa, kbb = a[vv], b[vv], ka[vv], kb[vv]
            for oa in (-1, 0, 1):
                for ob in (-1, 0, 1):
                    ui = table[aa, (kaa + oa) % CIRCLE_SEGMENTS]
                    vj = table[bb, (kbb + ob) % CIRCLE_SEGMENTS]
                    m = (ui >= 0) & (vj >= 0)
                    cand_i.append(ui[m])
                    cand_j.append(vj[m])
        return cand_i, cand_j

    def adjacency(self) -> list[list[tuple[int, float]]]:
        """The corner graph as Python lists of (neighbour, length) per corner, built once."""
        if self._adj_lists is None or len(self._adj_lists) != len(self.corners) or \
                self._adj_lists_cap != self._graph_cap:
            ptr = self._adj_ptr.tolist()
            pairs = list(zip(self._adj_nbr.tolist(), self._adj_w.tolist(), strict=True))
            self._adj_lists = [pairs[ptr[i]:ptr[i + 1]] for i in range(len(self.corners))]
            self._adj_lists_cap = self._graph_cap
        return self._adj_lists

    def blocked(self, a: np.ndarray, b: np.ndarray, q: StartCut | None) -> np.ndarray:
        """Whether each segment ``a[k] - b[k]`` meets the interior of a piece."""
        out = np.zeros(len(a), bool)
        if not len(a) or not len(self.pieces):
            return out
        segs = segments(a, b)
        if q is None or not q.changed:
            # one prepared polygon: the union of the pieces shrunk by ERODE
            return shapely.intersects(self.eroded_union(), segs)
        # the start stands in some pieces: those are replaced by their cut versions
        si, pi = self.tree.query(segs, predicate="intersects")
        changed = np.array(sorted(q.changed))
        si = si[~np.isin(pi, changed)]
        for poly in q.eroded.values():
            out |= shapely.intersects(segs, poly)
        out[si] = True
        return out

    def eroded_union(self) -> BaseGeometry:
        """The union of the pieces shrunk by :data:`ERODE` (prepared, built once).

        A segment meets it exactly when it meets the interior of a piece, up to the erosion
        (and for the seam where two pieces only touch, which it crosses as blocked).
        """
        if self._eroded_all is None:
            g = self.union().buffer(-ERODE, join_style="mitre")
            shapely.prepare(g)
            self._eroded_all = g
        return self._eroded_all

    # -- per-query helpers ----------------------------------------------------------------
    def node_buffers(self, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Corner, neighbour and owner arrays with ``1 + m`` free rows after the corners.

        Reused from query to query (a query copies out what it keeps); the first ``n`` rows
        always hold the corners.
        """
        n = len(self.corners)
        if self._buffers is None or len(self._buffers[0]) < n + 1 + m:
            size = n + 1 + max(m, 8)
            bufs = [np.zeros((size, 2)) for _ in range(3)]
            for buf, src in zip(bufs, (self.corners, self.prev, self.next), strict=True):
                buf[:n] = src
            own = np.full(size, -1, dtype=np.int64)
            own[:n] = self.owner
            self._buffers = (bufs[0], bufs[1], bufs[2], own)
        c, pv, nx, own = self._buffers
        end = n + 1 + m
        return c[:end], pv[:end], nx[:end], own[:end]

    def corners_near(self, p: tuple[float, float], radius: float) -> np.ndarray:
        """Indices (ascending) of the corners within ``radius`` of ``p``."""
        if not len(self.corners):
            return np.zeros(0, dtype=np.int64)
        if self._corner_tree is None:
            self._corner_tree = shapely.STRtree(shapely.points(self.corners))
        cand = np.sort(self._corner_tree.query(shapely.box(
            p[0] - radius, p[1] - radius, p[0] + radius, p[1] + radius)))
        c = self.corners[cand]
        return cand[norm(c[:, 0] - p[0], c[:, 1] - p[1]) <= radius]

    def free_edges(self, pts: np.ndarray, radii: np.ndarray
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each free point ``pts[k]``, the corners within ``radii[k]`` of it that it sees
        (tangent at the corner, ascending), with their distances; cached per point, at the
        largest radius asked. The points not in the cache are done together (a turning
        mover's turn nodes come by the dozen: one tree query, one tangent test and one
        visibility test for all). Only as far as asked: a source farther along its search
        has less left, and its edges out to the whole corner graph's reach cost a cold zone
        a third of its time (most of them longer than anything left at any pick-up)."""
        keys = [(round(x, 9), round(y, 9)) for x, y in pts.tolist()]
        got = [self._edge_cache.get(k) for k in keys]
        miss = [i for i, (g, r) in enumerate(zip(got, radii.tolist(), strict=True))
                if g is None or g[0] < r]
        if miss:
            mp = pts[miss]
            mr = radii[miss]
            if len(self.corners):
                if self._corner_tree is None:
                    self._corner_tree = shapely.STRtree(shapely.points(self.corners))
                pi, ti = self._corner_tree.query(shapely.box(
                    mp[:, 0] - mr, mp[:, 1] - mr, mp[:, 0] + mr, mp[:, 1] + mr))
                order = np.lexsort((ti, pi))
                pi, ti = pi[order], ti[order]
                c = self.corners[ti]
                keep = norm(c[:, 0] - mp[pi, 0], c[:, 1] - mp[pi, 1]) <= mr[pi]
                pi, ti = pi[keep], ti[keep]
                keep = tangent(self.corners[ti], mp[pi], self.prev[ti], self.next[ti])
                pi, ti = pi[keep], ti[keep]
                if len(ti):
                    keep = ~self.blocked(mp[pi], self.corners[ti], None)
                    pi, ti = pi[keep], ti[keep]
            else:
                pi = ti = np.zeros(0, dtype=np.int64)
            w = norm(self.corners[ti, 0] - mp[pi, 0], self.corners[ti, 1] - mp[pi, 1]) \
                if len(ti) else np.zeros(0)
            cuts = np.searchsorted(pi, np.arange(len(miss) + 1)).tolist()
            for j, i in enumerate(miss):
                entry = (float(mr[j]), ti[cuts[j]:cuts[j + 1]], w[cuts[j]:cuts[j + 1]])
                self._edge_cache[keys[i]] = entry
                got[i] = entry
        return [(g[1], g[2]) for g in got if g is not None]

    # -- queries --------------------------------------------------------------------------
    def native_outline(self, core: ModuleType) -> object:
        """The outline (:meth:`outline`) and box in the compiled core, built once."""
        if self._native_outline is None:
            a, b = self.outline() if len(self.pieces) else (np.zeros((0, 2)),) * 2
            self._native_outline = core.Outline(np.ascontiguousarray(a, dtype=float),
                                                np.ascontiguousarray(b, dtype=float),
                                                tuple(float(v) for v in self.box))
        return self._native_outline

    def made_for(self, cap: float | None) -> bool:
        """Whether the corner graph holds every edge up to ``cap`` (``None``: no graph asked)
        and :meth:`native_core` has the map with it: nothing left to make for a search of
        that reach."""
        if cap is not None and cap > self._graph_cap:
            return False
        got = self._native_core
        return got is not None and got.cap == self._graph_cap

    def native_core(self, core: ModuleType) -> object:
        """This map in the compiled core (outline, pieces, corners and the corner graph as far
        as :meth:`ensure_graph` has grown it), built once per graph."""
        got = self._native_core
        if got is None or got.cap != self._graph_cap:
            a, b = self.outline() if len(self.pieces) else (np.zeros((0, 2)),) * 2
            coords, ring_starts, poly_starts = self._rings_layout()
            got = core.ReachCore(
                np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(b, dtype=float),
                tuple(float(v) for v in self.box),
                (coords, ring_starts, poly_starts),
                (np.ascontiguousarray(self.corners, dtype=float),
                 np.ascontiguousarray(self.prev, dtype=float),
                 np.ascontiguousarray(self.next, dtype=float),
                 np.ascontiguousarray(self.owner, dtype=np.int64)),
                (np.ascontiguousarray(self._adj_ptr, dtype=np.int64),
                 np.ascontiguousarray(self._adj_nbr, dtype=np.int64),
                 np.ascontiguousarray(self._adj_w, dtype=float)),
                float(self._graph_cap))
            self._native_core = got
        return got

    def native_exclude(self, core: ModuleType, exclude: BaseGeometry, key: object) -> object:
        """``exclude`` cut to the box (widened by 0.1") in the compiled core; kept under
        ``key`` (a hashable description of it) when given."""
        got = self._native_excludes.get(key) if key is not None else None
        if got is None:
            cut = shapely.get_parts(polygonal(clipped(exclude, self.box)))
            cut = cut[shapely.get_type_id(cut) == 3] if len(cut) else cut
            if len(cut):
                _, coords, (rings, polys) = shapely.to_ragged_array(cut)
            else:
                coords, rings, polys = np.zeros((0, 2)), np.zeros(1), np.zeros(1)
            got = core.PolySet(np.ascontiguousarray(coords, dtype=float),
                               np.asarray(rings, dtype=np.int64),
                               np.asarray(polys, dtype=np.int64))
            if key is not None:
                self._native_excludes[key] = got
        return got

    def slack(self, key: object, exclude: BaseGeometry) -> np.ndarray:
        """For each corner, the radius of a disk about it lying inside ``exclude`` (0 outside).

        A wedge whose radius is at most this lies wholly in ``exclude`` and can be skipped.
        Cached under ``key`` (a hashable description of ``exclude``).
        """
        got = self._slack.get(key)
        if got is None:
            pts = shapely.points(self.corners) if len(self.corners) else np.zeros(0, object)
            inside = shapely.contains(exclude, pts) if len(pts) else np.zeros(0, bool)
            got = np.zeros(len(self.corners))
            if inside.any():
                # distance to the boundary through an STRtree of its segments (the boundary
                # of a whole army's engagement areas has thousands of vertices)
                xy, idx = shapely.get_coordinates(shapely.get_parts(exclude.boundary),
                                                  return_index=True)
                same = idx[1:] == idx[:-1]
                tree = shapely.STRtree(segments(xy[:-1][same], xy[1:][same]))
                where, dist = tree.query_nearest(pts[inside], return_distance=True,
                                                 all_matches=False)
                got[np.nonzero(inside)[0][where[0]]] = dist
            self._slack[key] = got
        return got

    def native_slack(self, core: ModuleType, key: object, exclude: BaseGeometry) -> np.ndarray:
        """:meth:`slack` by the compiled core (a tenth of GEOS's time), on ``exclude`` as
        :meth:`native_exclude` keeps it under ``key``: cut to the box widened by 0.1", so a
        corner within 0.1" of the box's edge may get less than :meth:`slack` (the cut's edge
        counts as boundary), never more; every wedge it lets be skipped lies inside
        ``exclude``. Cached under ``key``."""
        got = self._native_slack.get(key)
        if got is None:
            got = core.corner_slack(self.native_core(core),  # type: ignore[attr-defined]
                                    self.native_exclude(core, exclude, key))
            self._native_slack[key] = got
        return got

    def disk(self, p: tuple[float, float], distance: float,
             sources: Sequence[tuple[float, float, float]] = (), start: float = 0.0,
             bends: int = 2, base: GeodesicDisk | None = None) -> GeodesicDisk:
        """The reachable set from ``p`` within ``distance``: Dijkstra now, region on demand.

        ``start`` is the distance already travelled at ``p``; ``sources`` are more points
        ``(x, y, d0)`` reached already at ``d0`` (free points; one that stands in a piece is
        dropped, which can only make the set smaller). ``bends=1``: paths bend at most once,
        at a corner a source sees (no corner-to-corner graph: a part of the set, cheap for a
        map used once). ``base``: a disk of this map from the same start with the first of
        ``sources``; its search is carried on from the others (the same distances).
        """
        from tabletop.geometry.geodesic import GeodesicDisk  # (it builds on this module)

        return GeodesicDisk(self, (float(p[0]), float(p[1])), float(distance), sources,
                            float(start), bends, base)

    def _away(self, k: int, p: tuple[float, float]) -> np.ndarray | None:
        """The unit normal of the line through ``p`` that separates piece ``k``'s exact
        obstacle from ``p``'s side (``None``: a grown piece whose exact shapes overlap there,
        which stays whole)."""
        kind, data = self._exact[k]
        if kind == "grown":
            # a piece grown by a turning mover's footprint: the separating axis of the two
            # exact shapes (None: they overlap, the piece stays whole)
            got = data(p)  # type: ignore[operator]
            if got is None:
                return None
            normal = np.asarray(got, dtype=float)
        elif kind == "circle":
            cxy = np.asarray(data, dtype=float)[:2]
            normal = np.array(p) - cxy
        else:
            piece: Polygon = data  # type: ignore[assignment]
            near = nearest_points(piece, Point(p))[0]
            normal = np.array([p[0] - near.x, p[1] - near.y])
            if np.hypot(*normal) < 1e-12:
                c0 = piece.centroid
                normal = np.array([p[0] - c0.x, p[1] - c0.y])
        nn = float(np.hypot(*normal))
        if nn < 1e-12:
            return np.array([1.0, 0.0])
        return normal / nn  # type: ignore[no-any-return]

    def start_cut(self, p: tuple[float, float]) -> tuple[StartCut, np.ndarray, np.ndarray,
                                                            np.ndarray, set[int]]:
        """Cut the pieces that contain ``p``; return the extra corners and the removed ones."""
        q = StartCut()
        extra: list[np.ndarray] = []
        extra_prev: list[np.ndarray] = []
        extra_next: list[np.ndarray] = []
        removed: set[int] = set()
        if not len(self.pieces) or not shapely.intersects_xy(self.union(), p[0], p[1]):
            # (the union of the pieces is prepared: the usual answer, outside, is quick)
            z = np.zeros((0, 2))
            return q, z, z, z, removed
        hits = self.tree.query(Point(p), predicate="intersects")
        for k in hits:
            k = int(k)
            normal = self._away(k, p)
            if normal is None:
                continue
            # keep the part of the piece behind the line through p, normal pointing out
            big = 4.0 * (self.width + self.height)
            t = np.array([-normal[1], normal[0]])
            half = Polygon([np.array(p) + t * big, np.array(p) + t * big - normal * big,
                            np.array(p) - t * big - normal * big, np.array(p) - t * big])
            cut = self.pieces[k].intersection(half)
            if cut.is_empty or cut.geom_type != "Polygon" or cut.area <= 0:
                cut_ring = np.zeros((0, 2))
            else:
                cut_ring = ring_of(cut)
            q.changed[k] = cut_ring
            q.eroded[k] = cut.buffer(-ERODE, join_style="mitre") if len(cut_ring) else Polygon()
            mine = np.nonzero(self.owner == k)[0]
            if len(mine):
                beyond = (self.corners[mine] - np.array(p)) @ normal > 1e-12
                removed.update(int(ci) for ci in mine[beyond])
            # the new corners of the cut piece: its vertices on the cut line
            if len(cut_ring):
                on_line = np.abs((cut_ring - np.array(p)) @ normal) <= 1e-9
                pr = np.roll(cut_ring, 1, axis=0)
                nx = np.roll(cut_ring, -1, axis=0)
                for m in np.nonzero(on_line)[0]:
                    extra.append(cut_ring[m])
                    extra_prev.append(pr[m])
                    extra_next.append(nx[m])
        if extra:
            return (q, np.array(extra), np.array(extra_prev), np.array(extra_next), removed)
        z = np.zeros((0, 2))
        return q, z, z, z, removed


@lru_cache(maxsize=32)
def reach_map(width: float, height: float, radius: float,
              circles: tuple[tuple[float, float, float], ...],
              polygons: tuple[tuple[tuple[float, float], ...], ...]) -> ReachMap:
    """A cached :class:`ReachMap` for these (hashable) inputs.

    Enemies and terrain do not move during a player's own movement phase, so every pick-up of
    that phase with the same base radius finds the same map (its inflated pieces, corners and
    visibility graph) here. Geometry lives only in this cache, never in the game state.
    """
    return ReachMap(width, height, radius, circles, polygons)

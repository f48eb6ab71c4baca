"""Exact reachability of a translating disk among obstacles (configuration space).

The mover is a disk of radius ``r`` that translates; rotation is free. Working with its centre,
every obstacle is inflated by ``r`` (a Minkowski sum with the disk) and the battlefield shrinks
to the box ``[r, W - r] x [r, H - r]``. The reachable set from ``p`` within ``D`` is the
geodesic disk of the free space; shortest paths bend only at convex corners of the inflated
obstacles (Lozano-Perez and Wesley 1979). See ``shared/reference/geometry.md``.

Construction (all of it conservative: nothing here ever makes the free space larger):

1. *Inflation.* A round obstacle of radius ``re`` becomes a regular polygon of
   :data:`CIRCLE_SEGMENTS` vertices **circumscribed** about the circle of radius ``re + r``
   (every edge tangent to it, vertices ``(re + r) * (1 / cos(pi / n) - 1)`` outside it). A
   polygon obstacle is cut into convex pieces (constrained Delaunay triangles merged while
   their union stays convex; convex polygons stay whole) and each piece is grown by
   :func:`offset_convex`: straight edges exactly at ``r``, corners by tangent segments
   turning at most pi / 16 (vertices at most ``r * (1 / cos(pi / 32) - 1)`` outside the
   arc), so it never under-inflates. Every inflated piece is convex.
2. *Corners.* The vertices of the pieces that lie in the box and inside no other piece are
   the bend candidates.
3. *Tangent visibility graph* (once per obstacle set, cached on the :class:`ReachMap`): an
   edge ``u-v`` is kept only when the line ``uv`` is locally tangent at both ends (both ring
   neighbours on one side) and the open segment meets no piece, tested in one vectorised
   call against the union of the pieces eroded by :data:`ERODE` (prepared once).
4. *Per query* (start ``p``, limit ``D``): edges from ``p`` to the corners it sees, Dijkstra
   (``heapq``) stopped at ``D``: distance and parent of every reached corner.
5. *Region*: one wedge per reached corner ``v``, a sector of radius ``D - d(v)`` between the
   continuation of ``parent -> v`` and the obstacle edge at ``v`` (``p`` gets the full disk),
   each clipped by the shadows of the pieces it meets (the region behind a convex piece seen
   from the wedge's apex: the convex hull of the piece and far points on the rays through it).
   The wedges' arcs are **inscribed** polygons (chord sag at most :data:`ARC_TOLERANCE`), so
   the region never exceeds the true geodesic disk. The union of the clipped wedges, cut to
   the box, is the geodesic disk (the union-of-circular-visibility-regions description of
   J. Wang, arXiv 1210.7638).
   Two shortcuts leave the result unchanged: a run of unshadowed wedges wrapping one piece
   is one polygon (consecutive wedges meet exactly on the ray through the next corner), and
   wedges or shadows lying wholly inside the caller's excluded set (the end rules) are
   dropped before the overlays.
   When the start lies in no piece (the usual case), the clipped wedges are built without
   overlays (:meth:`GeodesicDisk._rays`): rays from each apex stop at the first edge of the
   union of the pieces (its outline is built once per obstacle set) facing the apex, cast
   at the arc's sample angles and on both sides of every direction where the visible
   boundary can change (outline vertices and crossings of edges with the wedge's circle).
   Between two neighbouring rays the visible part is convex, so each outline lies inside
   the true visible region and differs from it only by the inscribed arcs; the wedges of
   every run then merge into one polygon, and only the final union is an overlay.
6. *Point query*: ``d(x) = min(d(v) + |x - v|)`` over reached nodes ``v`` that see ``x``; the
   path follows the parents back to ``p``.

Start inside an inflated piece: a mover in base contact with an obstacle stands inside the
piece's circumscribed polygon (which is slightly larger than the circle). Such a piece is cut,
for that query, by the half-plane through ``p`` facing away from the obstacle (the tangent
line of the true inflated shape), which still contains the true inflated obstacle.

Error bounds: the free space is smaller than the true free space by at most
``(re + r) * (1 / cos(pi / CIRCLE_SEGMENTS) - 1)`` near round obstacles and
``r * (1 / cos(pi / 32) - 1)`` at the corners of polygons (their straight edges are exact);
the erosion used in the blocking test lets a segment through gaps narrower than
``2 * ERODE`` (1e-7 inch, far below the rules tolerance).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

__all__ = [
    "ARC_TOLERANCE",
    "BUFFER_QUAD_SEGS",
    "CIRCLE_SEGMENTS",
    "ERODE",
    "GeodesicDisk",
    "ReachMap",
    "ccw",
    "clipped",
    "conservative_buffer",
    "convex_pieces",
    "disk_sum",
    "disk_sum_pieces",
    "offset_convex",
    "offset_pieces",
    "reach_map",
    "ring_polygons",
]

CIRCLE_SEGMENTS = 32
"""Vertices of the circumscribed polygon that stands in for an inflated round obstacle."""

BUFFER_QUAD_SEGS = 8
"""``quad_segs`` of the conservative buffer of polygon obstacles."""

ARC_TOLERANCE = 0.002
"""Largest chord sag of the inscribed arcs of the wedges, inches."""

ERODE = 1e-7
"""Pieces are shrunk by this much for the blocking test, so that touching is not blocking."""

SHADOW_SLOTS = 9
"""Far points per shadow (angular step at most pi / 8)."""

_TURN_TOL = 1e-10

_AXES = np.array([0.0, 0.5 * math.pi, math.pi, 1.5 * math.pi])
"""Directions of the axis extremes of a circle (bounding boxes of sectors)."""


def conservative_buffer(geom: BaseGeometry, distance: float, *,
                        quad_segs: int = BUFFER_QUAD_SEGS) -> BaseGeometry:
    """Buffer ``geom`` by ``distance`` so that the result contains the exact buffer.

    shapely puts the arc vertices on the circle, so its chords cut inside; buffering by
    ``distance / cos(pi / (4 * quad_segs))`` moves every chord out to at least ``distance``.
    The excess is at most ``distance * (1 / cos(pi / (4 quad_segs)) - 1)``.
    """
    if distance <= 0:
        return geom
    return geom.buffer(distance / math.cos(math.pi / (4 * quad_segs)), quad_segs=quad_segs)


def disk_sum(geom: BaseGeometry, distance: float, *, quad_segs: int = BUFFER_QUAD_SEGS
             ) -> BaseGeometry:
    """The polygon ``geom`` grown by ``distance`` (Minkowski sum with a disk), never smaller.

    Like :func:`conservative_buffer` at the corners (tangent segments, ``quad_segs`` per
    quarter turn), but the straight edges lie exactly at ``distance``: the polygon is cut
    into convex pieces and each is grown by :func:`offset_convex`. For polygons with few
    vertices (terrain, zones, boxes); the union of the pieces is the only overlay.
    """
    if distance <= 0:
        return geom
    pieces = disk_sum_pieces(geom, distance, quad_segs=quad_segs)
    if len(pieces):
        try:
            out = shapely.union_all(pieces)
            if out.is_valid:
                return out
        except shapely.errors.GEOSException:
            pass
    # nothing to cut, or pieces GEOS cannot join: the buffer, made conservative
    return conservative_buffer(geom, distance, quad_segs=quad_segs)


def disk_sum_pieces(geom: BaseGeometry, distance: float, *,
                    quad_segs: int = BUFFER_QUAD_SEGS) -> np.ndarray:
    """The convex pieces of :func:`disk_sum` before their union (for a caller that unions
    many of them at once)."""
    return offset_pieces([_ring(p) for p in convex_pieces(geom)], distance,
                         quad_segs=quad_segs)


def offset_pieces(rings: Sequence[np.ndarray], distance: float, *,
                  quad_segs: int = BUFFER_QUAD_SEGS) -> np.ndarray:
    """Convex rings (vertices, either orientation) each grown by ``distance``
    (:func:`offset_convex`, corners turning at most ``pi / (2 quad_segs)``), as polygons:
    their union is the union of the rings grown by the disk, never smaller."""
    return ring_polygons([offset_convex(ccw(r), distance, max_step=math.pi / (2 * quad_segs))
                          for r in rings])


def offset_convex(coords: np.ndarray, distance: float, *,
                  max_step: float = math.pi / 16) -> np.ndarray:
    """Circumscribed outline of a convex polygon grown by ``distance`` (Minkowski sum, disk).

    ``coords`` are the vertices in counter-clockwise order (positive shoelace area). The
    straight edges lie exactly at ``distance``; each round corner is replaced by tangent
    segments turning at most ``max_step``, whose vertices lie at most
    ``distance * (1 / cos(max_step / 2) - 1)`` outside the true arc. The result therefore
    contains the exact offset and is never smaller.
    """
    e = np.roll(coords, -1, axis=0) - coords
    ln = np.hypot(e[:, 0], e[:, 1])
    keep = ln > 1e-12
    coords, e, ln = coords[keep], e[keep], ln[keep]
    normal = np.column_stack([e[:, 1], -e[:, 0]]) / ln[:, None]
    a_out = np.arctan2(normal[:, 1], normal[:, 0])
    a_in = np.roll(a_out, 1)
    turn = np.mod(a_out - a_in, 2 * math.pi)
    # a vertex turning the other way by a rounding error (a piece that is convex only up to
    # it): one vertex where the two offset edges meet, not a loop around the corner
    turn = np.where(turn > math.pi, turn - 2 * math.pi, turn)
    # m tangent segments per vertex, their outer corners at mid-step angles
    m = np.maximum(1, np.ceil(turn / max_step - 1e-9)).astype(np.int64)
    step = turn / m
    at = np.repeat(np.arange(len(coords)), m)
    k = np.arange(len(at)) - np.repeat(np.cumsum(m) - m, m)
    ang = a_in[at] + step[at] * (k + 0.5)
    rho = distance / np.cos(step[at] / 2)
    out = coords[at].astype(float)
    out[:, 0] += rho * np.cos(ang)
    out[:, 1] += rho * np.sin(ang)
    # corners that turn by a rounding error (an edge of 1e-250 dropped above) can give the
    # same point twice: a ring with a zero-length edge is invalid
    nxt = np.roll(out, -1, axis=0)
    return out[np.abs(out - nxt).max(axis=1) > 1e-12] if len(out) > 3 else out


@lru_cache(maxsize=4096)
def convex_pieces(poly: Polygon) -> tuple[Polygon, ...]:
    """Cut a polygon into convex pieces whose union is the polygon (triangles unless convex).

    Cached (geometries are immutable and hashable): terrain is cut once per program, not once
    per phase and base size."""
    return tuple(_convex_pieces(poly))


def _convex_pieces(poly: Polygon) -> list[Polygon]:
    poly = shapely.make_valid(poly) if not poly.is_valid else poly
    polys = [g for g in getattr(poly, "geoms", [poly]) if g.geom_type == "Polygon"]
    out: list[Polygon] = []
    for p in polys:
        if p.is_empty or p.area <= 0:
            continue
        if not p.interiors and abs(p.convex_hull.area - p.area) <= 1e-12 * max(1.0, p.area):
            out.append(p)
            continue
        tris = [t for t in shapely.constrained_delaunay_triangles(p).geoms if t.area > 0]
        merged = _merge_convex(tris)
        # the pieces must make up the polygon; if merging lost any of it, the triangles do
        whole = abs(sum(q.area for q in merged) - p.area) <= 1e-9 * max(1.0, p.area)
        # (a merge of a sliver of no area can leave an empty collection: it covers nothing)
        out.extend(q for q in (merged if whole else tris) if q.geom_type == "Polygon"
                   and q.area > 0)
    return out


def _merge_convex(parts: list[Polygon]) -> list[Polygon]:
    """Greedily merge neighbouring convex pieces while their union stays convex.

    Fewer pieces mean fewer corners and shadows (an L-shaped wall becomes two rectangles
    instead of four triangles); the union of the pieces is unchanged.

    The merges are those of scanning the pairs ``(i, j)``, ``i < j``, in order and merging the
    first that can be merged, again and again until none can. A pair that cannot be merged
    never can later (the test depends on its two pieces only), so each pair is tested once, and
    after a merge into ``i`` the only new pairs before ``(i, i + 1)`` are those of the new
    piece: the scan goes on from the first earlier piece that merges with it, else from ``i``.
    """
    parts = list(parts)
    ids = list(range(len(parts)))  # a piece's identity: a new one for each merged piece
    fresh = len(parts)
    boxes = [p.bounds for p in parts]
    failed: set[tuple[int, int]] = set()

    def merged(a: int, b: int) -> Polygon | None:
        key = (ids[a], ids[b])
        if key in failed:
            return None
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
        # (boxes apart: no shared edge nor point, the first test of _merged)
        hull = _merged(parts[a], parts[b]) if ax0 <= bx1 and bx0 <= ax1 and \
            ay0 <= by1 and by0 <= ay1 else None
        if hull is None:
            failed.add(key)
        return hull

    def merge(a: int, b: int, hull: Polygon) -> None:
        nonlocal fresh
        parts[a], ids[a], boxes[a] = hull, fresh, hull.bounds
        fresh += 1
        del parts[b], ids[b], boxes[b]

    def first(pairs: Iterable[tuple[int, int]]) -> tuple[int, int, Polygon] | None:
        for a, b in pairs:
            hull = merged(a, b)
            if hull is not None:
                return a, b, hull
        return None

    i = 0
    while i < len(parts) - 1:
        found = first((i, j) for j in range(i + 1, len(parts)))
        if found is None:
            i += 1
            continue
        while found is not None:
            a, b, hull = found
            merge(a, b, hull)
            i = a
            # the new pairs before (i, i + 1): those of the new piece
            found = first((e, i) for e in range(i))
    return parts


def _merged(a: Polygon, b: Polygon) -> Polygon | None:
    """The union of convex pieces ``a`` and ``b``, normalised, when it is convex, else
    ``None``."""
    if a.intersection(b).length <= 0 and not a.touches(b):
        return None
    u = a.union(b)
    # (the pieces of a triangulation only share edges: a union that is not the sum of both is
    # GEOS rounding a vertex 1 ulp off a line, and its hull would drop one of them)
    if u.geom_type != "Polygon" or abs(u.area - a.area - b.area) > 1e-9 * max(1.0, u.area):
        return None
    hull = u.convex_hull
    if hull.area - u.area <= 1e-12 * max(1.0, hull.area):
        return shapely.normalize(hull)
    return None


def ccw(coords: np.ndarray) -> np.ndarray:
    """Vertices (no repeated first point) in counter-clockwise order (positive shoelace
    area), as a new float array."""
    c = np.array(coords, dtype=float)
    x, y = c[:, 0], c[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    return c if area > 0 else c[::-1].copy()


def _ring(poly: Polygon) -> np.ndarray:
    c = np.asarray(poly.exterior.coords)[:-1]
    # drop repeated vertices
    keep = np.ones(len(c), bool)
    keep[1:] = np.any(np.abs(np.diff(c, axis=0)) > 1e-12, axis=1)
    return ccw(c[keep])


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


def _sign(v: np.ndarray) -> np.ndarray:
    return np.where(v > _TURN_TOL, 1, np.where(v < -_TURN_TOL, -1, 0))


def _tangent(u: np.ndarray, v: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether the line ``u -> v`` leaves both neighbours ``a`` and ``b`` of ``u`` on one side."""
    d = v - u
    dn = _norm(d[..., 0], d[..., 1])
    dn = np.where(dn == 0, 1.0, dn)
    ea, eb = a - u, b - u
    na = _norm(ea[..., 0], ea[..., 1])
    nb = _norm(eb[..., 0], eb[..., 1])
    ca = (d[..., 0] * ea[..., 1] - d[..., 1] * ea[..., 0]) / (dn * np.where(na == 0, 1, na))
    cb = (d[..., 0] * eb[..., 1] - d[..., 1] * eb[..., 0]) / (dn * np.where(nb == 0, 1, nb))
    return _sign(ca) * _sign(cb) >= 0


_CONE_MARGIN = 1e-6
"""Radians by which :func:`_tangent_cones` widens each cone (far more than the
``_TURN_TOL`` of :func:`_tangent` allows a line to cut into its corner's angle)."""


def _tangent_cones(u: np.ndarray, a: np.ndarray, b: np.ndarray, cap: float
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
    free = (_norm(ea[:, 0], ea[:, 1]) <= 1e-12) | (_norm(eb[:, 0], eb[:, 1]) <= 1e-12)
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


def _search(keys: np.ndarray, values: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted(keys, values, side)``, searching the values in sorted order (faster)."""
    if len(values) < 256:
        return np.searchsorted(keys, values, side)  # type: ignore[call-overload,no-any-return]
    order = np.argsort(values)
    out = np.empty(len(values), dtype=np.int64)
    out[order] = np.searchsorted(keys, values[order], side)  # type: ignore[call-overload]
    return out


def _norm(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``hypot(x, y)`` for moderate values (inches): several times faster than ``np.hypot``."""
    return np.sqrt(x * x + y * y)


def _segments(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return shapely.linestrings(np.stack([a, b], axis=1))


@dataclass
class _Query:
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
                 bounds: tuple[float, float, float, float] | None = None) -> None:
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
                rings.append(offset_convex(_ring(piece), r) if r > 0 else _ring(piece))
                self._exact.append(("polygon", piece))
        # pieces already grown by the mover (the layers of a turning mover): each with what
        # separates it from a pose in contact (tabletop.geometry.cspace.separation)
        for ring, how in grown:
            rings.append(np.asarray(ring, dtype=float))
            self._exact.append(("grown", how))
        self.rings = rings
        self.pieces = [Polygon(c) for c in rings]
        self.piece_tree = shapely.STRtree(self.pieces)
        self._outline: tuple[np.ndarray, np.ndarray, shapely.STRtree, BaseGeometry] | None = \
            None
        self._eroded_all: BaseGeometry | None = None
        self._corners()
        self._graph_cap = 0.0
        self._adj_ptr = np.zeros(len(self.corners) + 1, dtype=np.int64)
        self._adj_nbr = np.zeros(0, dtype=np.int64)
        self._adj_w = np.zeros(0)
        self._slack: dict[object, np.ndarray] = {}
        self._adj_lists: list[list[tuple[int, float]]] | None = None
        self._adj_lists_cap = -1.0
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._outline_columns: tuple[np.ndarray, ...] | None = None
        self._corner_tree: shapely.STRtree | None = None
        self._edge_cache: dict[tuple[float, float], tuple[float, np.ndarray, np.ndarray]] = {}
        self._free_parts: np.ndarray | None = None

    @cached_property
    def tree(self) -> shapely.STRtree:
        """The pieces shrunk by :data:`ERODE`, in an STRtree (built when first asked: only a
        start standing in a piece needs it, to find and cut those pieces)."""
        return shapely.STRtree(shapely.buffer(np.asarray(self.pieces, dtype=object), -ERODE,
                                              join_style="mitre"))

    # -- corners --------------------------------------------------------------------------
    def _corners(self) -> None:
        xs, prevs, nexts, owner, vidx = [], [], [], [], []
        for i, c in enumerate(self.rings):
            xs.append(c)
            vidx.append(np.arange(len(c)))
            prevs.append(np.roll(c, 1, axis=0))
            nexts.append(np.roll(c, -1, axis=0))
            owner.append(np.full(len(c), i))
        if not xs:
            self.corners = np.zeros((0, 2))
            self.prev = self.next = self.corners
            self.owner = np.zeros(0, dtype=np.int64)
            self._circle_corner = np.zeros((0, CIRCLE_SEGMENTS), dtype=np.int64)
            return
        pts = np.concatenate(xs)
        prv = np.concatenate(prevs)
        nxt = np.concatenate(nexts)
        own = np.concatenate(owner)
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
            # a vertex is on no other piece's boundary unless it lies in the union shrunk
            # by ERODE (one prepared point-in-area test; the seam where two pieces only
            # overlap by less than ERODE is inside the union, and no path turns there)
            keep[idx[shapely.intersects_xy(self._eroded_union(), pts[idx, 0],
                                           pts[idx, 1])]] = False
        self.corners = pts[keep]
        self.prev = prv[keep]
        self.next = nxt[keep]
        self.owner = own[keep]
        vid = np.concatenate(vidx)[keep]
        nc = len(self._circles)
        table = np.full((nc, CIRCLE_SEGMENTS), -1, dtype=np.int64)
        isc = self.owner < nc
        table[self.owner[isc], vid[isc]] = np.nonzero(isc)[0]
        self._circle_corner = table

    def outline(self) -> tuple[np.ndarray, np.ndarray, shapely.STRtree, BaseGeometry]:
        """The boundary of the union of the pieces as directed edges ``a[k] -> b[k]``.

        Every edge has the union on its left and free space on its right (exterior rings
        counter-clockwise, holes clockwise); its vertices include the points where the
        outlines of overlapping pieces cross. Built once per obstacle set, with an ``STRtree``
        of the edges, and the union itself (prepared).
        """
        if self._outline is None:
            u = shapely.orient_polygons(shapely.union_all(self.pieces), exterior_cw=False)
            rings = shapely.get_rings(shapely.get_parts(u))
            xy, idx = shapely.get_coordinates(rings, return_index=True)
            same = idx[1:] == idx[:-1]
            a, b = xy[:-1][same], xy[1:][same]
            keep = np.hypot(*(b - a).T) > 0
            a, b = a[keep], b[keep]
            shapely.prepare(u)
            self._outline = (a, b, shapely.STRtree(_segments(a, b)), u)
        return self._outline

    def free_parts(self) -> np.ndarray:
        """The parts of the free space: the box minus the union of the pieces, one polygon
        per connected part (prepared, built once)."""
        if self._free_parts is None:
            free = self.box_polygon.difference(self.outline()[3]) if len(self.pieces) else \
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
            a, b = self.outline()[:2]
            d = b - a
            self._outline_columns = tuple(np.ascontiguousarray(c) for c in (
                a[:, 0], a[:, 1], b[:, 0], b[:, 1], d[:, 0], d[:, 1]))
        return self._outline_columns

    # -- the corner-to-corner graph ------------------------------------------------------
    def _ensure_graph(self, cap: float) -> None:
        if cap <= self._graph_cap:
            return
        cap = max(cap, 2 * self._graph_cap)
        n = len(self.corners)
        c = self.corners
        cand_i: list[np.ndarray] = []
        cand_j: list[np.ndarray] = []
        # 1. circle to circle: only near the four bitangents of each pair of circles
        circ = self._circles
        nc = len(circ)
        table = self._circle_corner
        if nc > 1:
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
            cones, which = _tangent_cones(c[gen], self.prev[gen], self.next[gen], cap)
            hit, jj = shapely.STRtree(shapely.points(c)).query(cones, predicate="intersects")
            cand_i.append(gen[which[hit]])
            cand_j.append(jj)
        i = np.concatenate(cand_i) if cand_i else np.zeros(0, dtype=np.int64)
        j = np.concatenate(cand_j) if cand_j else np.zeros(0, dtype=np.int64)
        if len(i):
            # the per-pair tests first (they do not depend on the pair's order), then one
            # copy of each surviving pair
            keep = (i != j) & (_norm(*(c[j] - c[i]).T) <= cap)
            i, j = i[keep], j[keep]
            t = _tangent(c[i], c[j], self.prev[i], self.next[i]) & \
                _tangent(c[j], c[i], self.prev[j], self.next[j])
            i, j = i[t], j[t]
            key = np.unique(np.minimum(i, j) * n + np.maximum(i, j))
            i, j = key // n, key % n
        if len(i):
            blocked = self._blocked(c[i], c[j], None)
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

    def _adjacency(self) -> list[list[tuple[int, float]]]:
        """The corner graph as Python lists of (neighbour, length) per corner, built once."""
        if self._adj_lists is None or len(self._adj_lists) != len(self.corners) or \
                self._adj_lists_cap != self._graph_cap:
            ptr = self._adj_ptr.tolist()
            pairs = list(zip(self._adj_nbr.tolist(), self._adj_w.tolist(), strict=True))
            self._adj_lists = [pairs[ptr[i]:ptr[i + 1]] for i in range(len(self.corners))]
            self._adj_lists_cap = self._graph_cap
        return self._adj_lists

    def _blocked(self, a: np.ndarray, b: np.ndarray, q: _Query | None) -> np.ndarray:
        """Whether each segment ``a[k] - b[k]`` meets the interior of a piece."""
        out = np.zeros(len(a), bool)
        if not len(a) or not len(self.pieces):
            return out
        segs = _segments(a, b)
        if q is None or not q.changed:
            # one prepared polygon: the union of the pieces shrunk by ERODE
            return shapely.intersects(self._eroded_union(), segs)
        # the start stands in some pieces: those are replaced by their cut versions
        si, pi = self.tree.query(segs, predicate="intersects")
        changed = np.array(sorted(q.changed))
        si = si[~np.isin(pi, changed)]
        for poly in q.eroded.values():
            out |= shapely.intersects(segs, poly)
        out[si] = True
        return out

    def _eroded_union(self) -> BaseGeometry:
        """The union of the pieces shrunk by :data:`ERODE` (prepared, built once).

        A segment meets it exactly when it meets the interior of a piece, up to the erosion
        (and for the seam where two pieces only touch, which it crosses as blocked).
        """
        if self._eroded_all is None:
            g = self.outline()[3].buffer(-ERODE, join_style="mitre")
            shapely.prepare(g)
            self._eroded_all = g
        return self._eroded_all

    # -- per-query helpers ----------------------------------------------------------------
    def _node_buffers(self, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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

    def _corners_near(self, p: tuple[float, float], radius: float) -> np.ndarray:
        """Indices (ascending) of the corners within ``radius`` of ``p``."""
        if not len(self.corners):
            return np.zeros(0, dtype=np.int64)
        if self._corner_tree is None:
            self._corner_tree = shapely.STRtree(shapely.points(self.corners))
        cand = np.sort(self._corner_tree.query(shapely.box(
            p[0] - radius, p[1] - radius, p[0] + radius, p[1] + radius)))
        c = self.corners[cand]
        return cand[_norm(c[:, 0] - p[0], c[:, 1] - p[1]) <= radius]

    def _free_edges(self, pts: np.ndarray, radii: np.ndarray
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
                keep = _norm(c[:, 0] - mp[pi, 0], c[:, 1] - mp[pi, 1]) <= mr[pi]
                pi, ti = pi[keep], ti[keep]
                keep = _tangent(self.corners[ti], mp[pi], self.prev[ti], self.next[ti])
                pi, ti = pi[keep], ti[keep]
                if len(ti):
                    keep = ~self._blocked(mp[pi], self.corners[ti], None)
                    pi, ti = pi[keep], ti[keep]
            else:
                pi = ti = np.zeros(0, dtype=np.int64)
            w = _norm(self.corners[ti, 0] - mp[pi, 0], self.corners[ti, 1] - mp[pi, 1]) \
                if len(ti) else np.zeros(0)
            cuts = np.searchsorted(pi, np.arange(len(miss) + 1)).tolist()
            for j, i in enumerate(miss):
                entry = (float(mr[j]), ti[cuts[j]:cuts[j + 1]], w[cuts[j]:cuts[j + 1]])
                self._edge_cache[keys[i]] = entry
                got[i] = entry
        return [(g[1], g[2]) for g in got if g is not None]

    # -- queries --------------------------------------------------------------------------
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
                tree = shapely.STRtree(_segments(xy[:-1][same], xy[1:][same]))
                where, dist = tree.query_nearest(pts[inside], return_distance=True,
                                                 all_matches=False)
                got[np.nonzero(inside)[0][where[0]]] = dist
            self._slack[key] = got
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
        return GeodesicDisk(self, (float(p[0]), float(p[1])), float(distance), sources,
                            float(start), bends, base)

    def _start_query(self, p: tuple[float, float]) -> tuple[_Query, np.ndarray, np.ndarray,
                                                            np.ndarray, set[int]]:
        """Cut the pieces that contain ``p``; return the extra corners and the removed ones."""
        q = _Query()
        extra: list[np.ndarray] = []
        extra_prev: list[np.ndarray] = []
        extra_next: list[np.ndarray] = []
        removed: set[int] = set()
        if not len(self.pieces) or not shapely.intersects_xy(self.outline()[3], p[0], p[1]):
            # (the union of the pieces is prepared: the usual answer, outside, is quick)
            z = np.zeros((0, 2))
            return q, z, z, z, removed
        hits = self.tree.query(Point(p), predicate="intersects")
        for k in hits:
            k = int(k)
            kind, data = self._exact[k]
            if kind == "grown":
                # a piece grown by a turning mover's footprint: the separating axis of the two
                # exact shapes (None: they overlap, the piece stays whole)
                got = data(p)  # type: ignore[operator]
                if got is None:
                    continue
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
                normal = np.array([1.0, 0.0])
            else:
                normal = normal / nn
            # keep the part of the piece behind the line through p, normal pointing out
            big = 4.0 * (self.width + self.height)
            t = np.array([-normal[1], normal[0]])
            half = Polygon([np.array(p) + t * big, np.array(p) + t * big - normal * big,
                            np.array(p) - t * big - normal * big, np.array(p) - t * big])
            cut = self.pieces[k].intersection(half)
            if cut.is_empty or cut.geom_type != "Polygon" or cut.area <= 0:
                cut_ring = np.zeros((0, 2))
            else:
                cut_ring = _ring(cut)
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


class _WithExtra(Sequence[list[tuple[int, float]]]):
    """The corner graph's adjacency plus a query's own edges (a start inside a piece)."""

    def __init__(self, adj: list[list[tuple[int, float]]],
                 extra: dict[int, list[tuple[int, float]]], n: int, total: int) -> None:
        self._adj, self._extra, self._n, self._total = adj, extra, n, total

    def __len__(self) -> int:
        return self._total

    def __getitem__(self, u: int) -> list[tuple[int, float]]:  # type: ignore[override]
        own = self._adj[u] if u < self._n else []
        more = self._extra.get(u)
        return own + more if more else own


@dataclass
class _Wedges:
    """The start's disk (row 0) and one wedge per reached corner, as arrays.

    A wedge is the sector of ``radius`` about ``apex`` from angle ``start`` turning by
    ``sweep`` (signed); ``own`` is the piece of its corner (-1: none), ``query`` marks the
    start's disk, ``node`` the corner's row in :class:`GeodesicDisk`.
    """

    apex: np.ndarray
    radius: np.ndarray
    start: np.ndarray
    sweep: np.ndarray
    own: np.ndarray
    query: np.ndarray
    node: np.ndarray

    def __len__(self) -> int:
        return len(self.radius)

    def take(self, keep: np.ndarray) -> _Wedges:
        """The wedges selected by ``keep`` (a mask or indices)."""
        return _Wedges(self.apex[keep], self.radius[keep], self.start[keep], self.sweep[keep],
                       self.own[keep], self.query[keep], self.node[keep])


def _polygons(coords: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Polygons from consecutive runs of ``sizes`` rows of ``coords``."""
    return shapely.polygons(shapely.linearrings(
        coords, indices=np.repeat(np.arange(len(sizes)), sizes)))


def ring_polygons(rings: Sequence[np.ndarray]) -> np.ndarray:
    """One polygon per ring (an array of vertices), in one array call."""
    if not len(rings):
        return np.zeros(0, dtype=object)
    return _polygons(np.concatenate(rings), np.array([len(r) for r in rings]))


@dataclass
class Distances:
    """:meth:`GeodesicDisk.distances` of the points ``pts`` from ``disk``: the lengths ``out``
    and, per point, the largest length among its candidates ``tau`` (what a later round
    compares with)."""

    pts: np.ndarray
    disk: GeodesicDisk
    out: np.ndarray
    tau: np.ndarray


class GeodesicDisk:
    """Points reachable from ``p`` by a free path of length at most ``distance``.

    Attributes
    ----------
    nodes : ndarray (k, 2)
        The start (row 0) and every reached bend corner.
    dist : ndarray (k,)
        Their geodesic distances.
    parent : ndarray (k,)
        Index of each node's predecessor on its shortest path (-1 for the start).
    """

    def __init__(self, rm: ReachMap, p: tuple[float, float], distance: float,
                 sources: Sequence[tuple[float, float, float]] = (), start: float = 0.0,
                 bends: int = 2, base: GeodesicDisk | None = None) -> None:
        self.rm, self.p, self.distance = rm, p, distance
        self._start, self._bends = start, bends
        if bends > 1:
            rm._ensure_graph(distance)
        q, extra, eprev, enext, removed = rm._start_query(p)
        self._q = q
        n = len(rm.corners)
        m = len(extra)
        # more points reached already (a turning mover's switch points, each with its own
        # distance): free points of this map; one standing in a piece adds nothing
        more = [(float(x), float(y), float(d0)) for x, y, d0 in sources if d0 < distance]
        if more and len(rm.pieces):
            free = ~shapely.intersects_xy(rm._eroded_union(), [x for x, _, _ in more],
                                          [y for _, y, _ in more])
            x0, y0, x1, y1 = rm.box
            more = [src for src, ok in zip(more, free.tolist(), strict=True) if ok and
                    x0 - 1e-9 <= src[0] <= x1 + 1e-9 and y0 - 1e-9 <= src[1] <= y1 + 1e-9]
        ns = len(more)
        # the same search with more sources (a turning mover's next round of turn nodes):
        # ``base``'s labels stand, only the new sources' edges are found and relaxed from
        old = base._more_of(self, more) if base is not None else None
        # node numbering: 0..n-1 corners, n = p, n+1.. extra corners, then the other sources
        # (in reused buffers: the corner arrays are large and copying them per pick-up costs
        # more than the rest)
        allc, allprev, allnext, owner = rm._node_buffers(m + ns)
        allc[n] = allprev[n] = allnext[n] = p
        owner[n:] = -1
        if m:
            allc[n + 1:n + 1 + m], allprev[n + 1:n + 1 + m], allnext[n + 1:n + 1 + m] = \
                extra, eprev, enext
            # which piece the extra corners belong to (for the shadow exclusion)
            for e in range(m):
                for k, ring in q.changed.items():
                    if len(ring) and np.min(np.hypot(*(ring - extra[e]).T)) < 1e-9:
                        owner[n + 1 + e] = k
        total = n + 1 + m + ns
        src_rows = list(range(n + 1 + m, total))
        if ns:
            pts = np.array([(x, y) for x, y, _ in more])
            allc[n + 1 + m:total] = allprev[n + 1 + m:total] = allnext[n + 1 + m:total] = pts
        start0: dict[int, float] = {n: float(start)}
        start0.update({r: d0 for r, (_, _, d0) in zip(src_rows, more, strict=True)})
        # edges from the start, the extra corners and the other sources to the corners nearby
        if old is None:
            extra_adj: dict[int, list[tuple[int, float]]] = {}
            todo = [n, *range(n + 1, n + 1 + m), *src_rows]
            near = rm._corners_near(p, distance - start + 1e-9)
            if m:
                mine = n + 1 + np.nonzero(_norm(*(extra - np.array(p)).T) <= distance + 1e-9)[0]
                near = np.concatenate([near, [n], mine])
            if removed:
                near = near[~np.isin(near, list(removed))]
        else:
            extra_adj = dict(old[2])
            todo = src_rows[len(old[3]) - 1:]
        new_rows = [r for r in todo if r in start0 and r != n]
        # a free source's edges do not depend on the start when the start cut no piece (a
        # turning mover's turn nodes are the same points from pick-up to pick-up)
        reuse = not m and not removed and not q.changed
        if reuse and new_rows:
            radii = distance - np.array([start0[s] for s in new_rows]) + 1e-9
            for s, (tgt, w) in zip(new_rows, rm._free_edges(allc[new_rows], radii),
                                   strict=True):
                extra_adj[s] = list(zip(tgt.tolist(), w.tolist(), strict=True))
        for s in todo:
            if reuse and s != n:
                continue
            if s in start0 and s != n:
                near_s = rm._corners_near(tuple(allc[s]), distance - start0[s] + 1e-9)
                if removed:
                    near_s = near_s[~np.isin(near_s, list(removed))]
                if m:
                    near_s = np.concatenate([near_s, np.arange(n + 1, n + 1 + m)])
            else:
                near_s = near
            tgt = near_s[near_s != s]
            if not len(tgt):
                continue
            a = np.broadcast_to(allc[s], (len(tgt), 2))
            ok = _tangent(allc[tgt], a, allprev[tgt], allnext[tgt])
            corner = s not in start0
            if corner:
                ok &= _tangent(a, allc[tgt], allprev[s][None, :], allnext[s][None, :])
            tgt = tgt[ok]
            if not len(tgt):
                continue
            blocked = rm._blocked(np.broadcast_to(allc[s], (len(tgt), 2)), allc[tgt], q)
            tgt = tgt[~blocked]
            w = _norm(*(allc[tgt] - allc[s]).T)
            for t, ww in zip(tgt.tolist(), w.tolist(), strict=True):
                extra_adj.setdefault(s, []).append((t, ww))
                if corner:
                    extra_adj.setdefault(t, []).append((s, ww))
        # Dijkstra with a limit (dicts: only the corners within reach are ever touched),
        # seeded with the sources' own edges; corners have the cached graph's edges (plus, for
        # a start inside a piece, those to and from the cut piece's new corners)
        adj = rm._adjacency() if bends > 1 else [[] for _ in range(n)]
        edges: Sequence[Sequence[tuple[int, float]]] = \
            adj if not m else _WithExtra(adj, extra_adj, n, total)
        if old is None:
            dl: dict[int, float] = dict.fromkeys(removed, -1.0)
            dl.update(start0)
            par: dict[int, int] = dict.fromkeys(start0, -1)
            seeds = list(start0)
        else:
            dl, par = dict(old[0]), dict(old[1])
            seeds = todo
            for r in seeds:
                dl[r] = start0[r]
                par[r] = -1
        heap: list[tuple[float, int]] = []
        lim = distance + 1e-12
        pop, push, get = heapq.heappop, heapq.heappush, dl.get
        inf = math.inf
        for src in seeds:
            d0 = start0[src]
            for j, wt in extra_adj.get(src, ()):
                dj = d0 + wt
                if dj <= lim and dj < get(j, inf):
                    dl[j] = dj
                    par[j] = src
                    push(heap, (dj, j))
        while heap:
            du, u = pop(heap)
            if du > dl[u]:
                continue
            for j, wt in edges[u]:
                dj = du + wt
                if dj <= lim and dj < get(j, inf):
                    dl[j] = dj
                    par[j] = u
                    push(heap, (dj, j))
        self._search: tuple[dict[int, float], dict[int, int], dict[int, list[tuple[int, float]]],
                            dict[int, float]] = (dict(dl), dict(par), extra_adj, start0)
        """The search's labels, parents, the sources' edges and the sources (for a search
        with more sources from the same start, :meth:`_more_of`)."""
        for dnode in removed:
            del dl[dnode]
            par.pop(dnode, None)
        for src in start0:
            del dl[src]
        # renumber: row 0 = p, then the other sources, then the reached nodes in index order
        order = np.concatenate([[n], src_rows, np.sort(np.fromiter(
            dl, dtype=np.int64, count=len(dl)))]).astype(np.int64)
        olist = order.tolist()
        row = {k: i for i, k in enumerate(olist)}
        row[-1] = -1
        self.n_sources = 1 + ns
        """Rows ``0 .. n_sources - 1`` are the sources (the start first)."""
        self.nodes = allc[order]
        self.dist = np.array([start0[k] for k in olist[:1 + ns]] +
                             [dl[k] for k in olist[1 + ns:]])
        if len(rm.pieces) and bool(rm._blocked(self.nodes[:1], self.nodes[:1] + 1e-9, q)[0]):
            # a start inside a piece its query leaves whole (a turning mover's footprint
            # overlapping an obstacle, not touching it): no path leaves it, so its disk has
            # no room either (its wedge held points no witness reached)
            self.dist[0] = distance
        self.parent = np.array([row[par[k]] for k in olist], dtype=np.int64)
        self.corner_index = np.where(order < n, order, -1)
        self._prev = allprev[order]
        self._next = allnext[order]
        self._owner = owner[order]
        self._geometry: dict[object, BaseGeometry] = {}

    def _more_of(self, new: GeodesicDisk, more: list[tuple[float, float, float]]
                 ) -> tuple[dict[int, float], dict[int, int], dict[int, list[tuple[int, float]]],
                            dict[int, float]] | None:
        """This search's state when ``new`` is the same search with more sources: the same
        map, start, distance and bends, and this disk's sources the first of ``more``."""
        k = self.n_sources - 1
        if new.rm is not self.rm or new.p != self.p or new.distance != self.distance or \
                new._start != self._start or new._bends != self._bends or len(more) < k:
            return None
        for i, (x, y, d0) in enumerate(more[:k], start=1):
            if self.nodes[i, 0] != x or self.nodes[i, 1] != y or self.dist[i] != d0:
                return None
        return self._search

    # -- point queries -------------------------------------------------------------------
    def _best(self, x: float, y: float) -> tuple[float, int]:
        X = np.array([x, y])
        dd = self.dist + _norm(*(self.nodes - X).T)
        cand = np.nonzero(dd <= self.distance + 1e-6)[0]
        if not len(cand):
            return math.inf, -1
        cand = cand[np.argsort(dd[cand])]
        blocked = self.rm._blocked(self.nodes[cand], np.broadcast_to(X, (len(cand), 2)), self._q)
        ok = cand[~blocked]
        if not len(ok):
            return math.inf, -1
        x0, y0, x1, y1 = self.rm.box
        tol = 1e-9
        if not (x0 - tol <= x <= x1 + tol and y0 - tol <= y <= y1 + tol):
            return math.inf, -1
        return float(dd[ok[0]]), int(ok[0])

    def distances(self, pts: np.ndarray, tries: int = 8,
                  since: Distances | None = None) -> Distances:
        """A length of a free path to each of ``pts`` within the limit (``inf``: none found).

        For many points at once (a turning mover's turn nodes): each point tries the ``tries``
        nodes whose straight continuation to it is shortest and takes the best one it sees, so
        the answer is the length of a real path, never shorter than the geodesic distance and
        equal to it unless the nearest nodes are all hidden (then possibly longer or ``inf``).

        ``since``: the answer for the same points from a disk of the same search with fewer
        sources (the round before, :meth:`_more_of`); only the points that one of the nodes
        new or nearer since then comes among the ``tries`` nearest of are tried again (the
        others keep their candidates, so their answer).
        """
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        before = since.disk if since is not None and since.pts.shape == pts.shape and \
            np.array_equal(since.pts, pts) else None
        mine = list(zip(self.nodes[1:self.n_sources, 0].tolist(),
                        self.nodes[1:self.n_sources, 1].tolist(),
                        self.dist[1:self.n_sources].tolist(), strict=True))
        if since is None or before is None or before._more_of(self, mine) is None:
            out, tau = self._distances(pts, tries)
            return Distances(pts, self, out, tau)
        # the nodes new or nearer since: the sources added, the corners now reached sooner,
        # any other node (a cut piece's corner) to be safe
        old = np.full(max(len(self.rm.corners), 1), np.inf)
        oc = before.corner_index >= 0
        old[before.corner_index[oc]] = before.dist[oc]
        ci = self.corner_index
        changed = np.where(ci >= 0, self.dist < old[np.maximum(ci, 0)], True)
        changed[:before.n_sources] = False
        out, tau = since.out.copy(), since.tau.copy()
        c = np.nonzero(changed)[0]
        if not len(c):
            return Distances(pts, self, out, tau)
        dd = self.dist[c][None, :] + _norm(pts[:, None, 0] - self.nodes[None, c, 0],
                                           pts[:, None, 1] - self.nodes[None, c, 1])
        again = np.nonzero(dd.min(axis=1) <= tau)[0]
        if len(again):
            out[again], tau[again] = self._distances(pts[again], tries)
        return Distances(pts, self, out, tau)

    def _distances(self, pts: np.ndarray, tries: int) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`distances` of every point, and the largest length among each point's
        candidates (``inf`` when every node is one, ``-inf`` off the box: no node counts)."""
        out = np.full(len(pts), np.inf)
        tau = np.full(len(pts), np.inf)
        if not len(pts):
            return out, tau
        x0, y0, x1, y1 = self.rm.box
        tol = 1e-9
        inside = (pts[:, 0] >= x0 - tol) & (pts[:, 0] <= x1 + tol) & \
            (pts[:, 1] >= y0 - tol) & (pts[:, 1] <= y1 + tol)
        dd = self.dist[None, :] + _norm(pts[:, None, 0] - self.nodes[None, :, 0],
                                        pts[:, None, 1] - self.nodes[None, :, 1])
        dd[~inside] = np.inf
        k = min(tries, dd.shape[1])
        cand = np.argpartition(dd, k - 1, axis=1)[:, :k] if k < dd.shape[1] else \
            np.broadcast_to(np.arange(dd.shape[1]), dd.shape)
        cd = np.take_along_axis(dd, cand, axis=1)
        if k < dd.shape[1]:
            tau[inside] = cd[inside].max(axis=1)
        tau[~inside] = -np.inf
        # the nearest candidate of each point first: only those it does not see try the rest
        # (the same answer, the least of the free candidates' lengths, for fewer tests)
        first = np.argmin(cd, axis=1)
        rows = np.arange(len(pts))
        c0 = cd[rows, first]
        pi = np.nonzero(c0 <= self.distance + 1e-6)[0]
        if not len(pi):
            return out, tau
        blocked = self.rm._blocked(self.nodes[cand[pi, first[pi]]], pts[pi], self._q)
        out[pi[~blocked]] = c0[pi[~blocked]]
        again = np.zeros(len(pts), bool)
        again[pi[blocked]] = True
        cd[rows, first] = np.inf
        ok = (cd <= self.distance + 1e-6) & again[:, None]
        pi, ci = np.nonzero(ok)
        if len(pi):
            blocked = self.rm._blocked(self.nodes[cand[pi, ci]], pts[pi], self._q)
            free = ~blocked
            np.minimum.at(out, pi[free], cd[pi[free], ci[free]])
        return out, tau

    def distance_to(self, x: float, y: float) -> float:
        """Geodesic distance from the start to ``(x, y)``; ``inf`` beyond the limit."""
        return self._best(x, y)[0]

    def path_to(self, x: float, y: float) -> list[tuple[float, float]] | None:
        """The shortest path from the start to ``(x, y)`` (start first), or ``None``.

        With several sources the path begins at the one it comes from
        (:meth:`path_from_source`)."""
        got = self.path_from_source(x, y)
        return None if got is None else got[1]

    def path_from_source(self, x: float, y: float
                         ) -> tuple[int, list[tuple[float, float]]] | None:
        """The source row (0: the start) and the shortest path from it to ``(x, y)``."""
        _, k = self._best(x, y)
        if k < 0:
            return None
        pts = [(float(x), float(y))]
        while k >= 0:
            pts.append((float(self.nodes[k, 0]), float(self.nodes[k, 1])))
            src = k
            k = int(self.parent[k])
        pts.reverse()
        if len(pts) > 1 and pts[-1] == pts[-2]:
            pts.pop()
        return src, pts

    # -- the region ----------------------------------------------------------------------
    def region(self, exclude: BaseGeometry | None = None, exclude_key: object = None
               ) -> BaseGeometry:
        """The geodesic disk as a polygon (inscribed arcs), minus ``exclude`` if given.

        ``exclude_key`` (hashable) names ``exclude`` so that the corners whose wedge lies
        wholly inside it are found once per obstacle set and skipped.
        """
        key = exclude_key if exclude is not None else None
        got = self._geometry.get(key)
        if got is None:
            # no distance to move (M 0): the disk is its centre, no area
            got = self._build(exclude, exclude_key) if self.distance > 0 else Polygon()
            self._geometry[key] = got
        return got

    def _reach_cap(self, apex: np.ndarray) -> np.ndarray:
        """The largest radius a disk about each of ``apex`` needs on the map's box: the
        farthest corner of the box, and twice :data:`ARC_TOLERANCE` more, so that even the
        chords of its inscribed arcs pass outside the box. A wedge cut to it is the same
        inside the box (and the region is cut to the box): a move of 1,000,000" was a
        polygon of 50,000 points per disk."""
        x0, y0, x1, y1 = self.rm.box
        fx = np.maximum(np.abs(apex[:, 0] - x0), np.abs(apex[:, 0] - x1))
        fy = np.maximum(np.abs(apex[:, 1] - y0), np.abs(apex[:, 1] - y1))
        return np.sqrt(fx * fx + fy * fy) + 2.0 * ARC_TOLERANCE

    def _dominated_sources(self) -> np.ndarray:
        """Which sources (rows ``0 .. n_sources - 1``; never the first) have a disk that the
        rest of the region holds: another node ``u`` of the search sees the source ``s`` and
        reaches it sooner by more than twice :data:`ARC_TOLERANCE` (``d_u + |us| < d_s - 2
        ARC_TOLERANCE``), and no node's path comes through ``s``.

        Without ``s`` every label and parent stands (a path through ``s`` would be longer
        than the one through ``u``), and every point ``q`` that ``s`` sees within its radius
        is within the limit by that margin through ``u`` and ``s``, so the region of the
        other wedges, whose inscribed arcs lie within :data:`ARC_TOLERANCE` of the true
        reach, holds the disk of ``s``: the region is the same set without it (up to GEOS's
        rounding where wedges of two apexes meet along one edge: slivers of 1e-8 sq in, none of
        it farther than :data:`~tabletop.geometry.tolerance.EPS`). (A turning
        mover's layers gain hundreds of turn nodes as sources, a third of them held by
        others: a needle's 24 layers at 7.5 degrees, 9,400 sources, 3,500 of them.)
        """
        ns = self.n_sources
        out = np.zeros(ns, bool)
        if ns < 2:
            return out
        through = np.zeros(len(self.nodes), bool)
        through[self.parent[self.parent >= 0]] = True
        rows = np.nonzero(~through[1:ns])[0] + 1
        if not len(rows):
            return out
        margin = 2.0 * ARC_TOLERANCE
        # each source tries the few nodes nearest by ``d_u + |us|`` that beat it by the margin
        tries = 4
        # (in chunks of about 2 million pairs)
        for chunk in np.array_split(rows, len(rows) * len(self.nodes) // 2_000_000 + 1):
            if not len(chunk):
                continue
            pts = self.nodes[chunk]
            dd = self.dist[None, :] + _norm(pts[:, None, 0] - self.nodes[None, :, 0],
                                            pts[:, None, 1] - self.nodes[None, :, 1])
            dd[np.arange(len(chunk)), chunk] = np.inf
            k = min(tries, dd.shape[1])
            cand = np.argpartition(dd, k - 1, axis=1)[:, :k] if k < dd.shape[1] else \
                np.broadcast_to(np.arange(dd.shape[1]), dd.shape)
            cd = np.take_along_axis(dd, cand, axis=1)
            si, ci = np.nonzero(cd < self.dist[chunk][:, None] - margin)
            if not len(si):
                continue
            free = ~self.rm._blocked(self.nodes[cand[si, ci]], pts[si], self._q)
            out[chunk[np.unique(si[free])]] = True
        return out

    def _wedges(self, slack: np.ndarray | None, ahead: bool = False, outer: bool = False
                ) -> tuple[_Wedges, np.ndarray, np.ndarray]:
        """The start's disk and one wedge per reached corner, with their outlines.

        A wedge turns from the continuation of ``parent -> v`` towards the obstacle side
        (where ``v``'s ring neighbours lie) until the first obstacle edge at ``v``. With
        ``ahead``, an edge of ``v`` straight along the continuation ends the turn at once (no
        wedge: its turn would run through the piece, which the rays of :meth:`_rays` must
        not see); otherwise such a wedge turns on to the other edge and relies on the
        shadows of the pieces.

        Returns the wedges and their outlines: the rows ``sizes[i]`` of ``coords`` after
        those of the wedges before ``i``. The outlines are inscribed (arcs with a sag of at
        most :data:`ARC_TOLERANCE`) or, with ``outer``, a few points around each sector (its
        arc by tangents turning at most pi / 4): enough to test whether a wedge lies in a set.
        """
        # the sources' disks (the start first): full disks, no apex; a source whose disk the
        # others' reach holds adds nothing
        src_rows = np.nonzero(~self._dominated_sources())[0]
        ns = len(src_rows)
        srcp = self.nodes[src_rows]
        srad = np.minimum(self.distance - self.dist[src_rows], self._reach_cap(srcp))
        if outer:
            # a source's disk is never tested: its outline is the square around it
            sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
            n0 = np.full(ns, 4, dtype=np.int64)
            disk = (srcp[:, None, :] + srad[:, None, None] * sq[None]).reshape(-1, 2)
        else:
            step0 = 2.0 * np.arccos(np.maximum(-1.0, 1.0 - ARC_TOLERANCE /
                                               np.maximum(srad, 1e-9)))
            n0 = np.maximum(3, np.ceil(2 * math.pi / step0)).astype(np.int64)
            wd = np.repeat(np.arange(ns), n0)
            jj = np.arange(len(wd)) - np.repeat(np.cumsum(n0) - n0, n0)
            ang0 = jj * (2 * math.pi / n0[wd])
            disk = np.column_stack([srcp[wd, 0] + srad[wd] * np.cos(ang0),
                                    srcp[wd, 1] + srad[wd] * np.sin(ang0)])
        only = (_Wedges(srcp.copy(), srad, np.zeros(ns), np.full(ns, 2 * math.pi),
                        np.full(ns, -1), np.ones(ns, bool), src_rows.astype(np.int64)),
                disk, n0)
        k = np.arange(self.n_sources, len(self.nodes))
        if not len(k):
            return only
        rho = self.distance - self.dist[k]
        ok = rho > 1e-9
        ci = self.corner_index[k]
        if slack is not None:
            ok &= ~((ci >= 0) & (rho <= slack[np.maximum(ci, 0)]))
        v = self.nodes[k]
        d = v - self.nodes[self.parent[k]]
        dn = _norm(d[:, 0], d[:, 1])
        ok &= dn > 1e-12
        d = d / np.where(dn > 0, dn, 1.0)[:, None]
        e1, e2 = self._prev[k] - v, self._next[k] - v
        c1 = d[:, 0] * e1[:, 1] - d[:, 1] * e1[:, 0]
        c2 = d[:, 0] * e2[:, 1] - d[:, 1] * e2[:, 0]
        side = np.where(np.abs(c1) > 1e-12, np.sign(c1), np.where(np.abs(c2) > 1e-12,
                                                                   np.sign(c2), 0.0))
        ok &= side != 0
        p1 = np.arctan2(side * c1, d[:, 0] * e1[:, 0] + d[:, 1] * e1[:, 1])
        p2 = np.arctan2(side * c2, d[:, 0] * e2[:, 0] + d[:, 1] * e2[:, 1])
        if ahead:
            # an edge straight ahead (the path runs on along it) leaves no wedge at all
            sweep = np.minimum(np.where(p1 > -1e-9, p1, np.inf),
                               np.where(p2 > -1e-9, p2, np.inf))
            ok &= np.isfinite(sweep) & (sweep > 1e-9)
        else:
            sweep = np.minimum(np.where(p1 > 1e-12, p1, np.inf),
                               np.where(p2 > 1e-12, p2, np.inf))
            ok &= np.isfinite(sweep)
        if not ok.any():
            return only
        k, rho, v, d, side, sweep = k[ok], rho[ok], v[ok], d[ok], side[ok], sweep[ok]
        rho = np.minimum(rho, self._reach_cap(v))
        start = np.arctan2(d[:, 1], d[:, 0])
        sweep = side * sweep
        if outer:
            # apex, arc start, tangent corners at the middle of each step, arc end
            nseg = np.maximum(1, np.ceil(np.abs(sweep) / (0.25 * math.pi))).astype(np.int64)
            size = nseg + 3
            offs = np.concatenate([[0], np.cumsum(size)])
            w_of = np.repeat(np.arange(len(k)), size)
            j = np.arange(offs[-1]) - offs[w_of]
            h = sweep[w_of] / nseg[w_of]
            last = j == size[w_of] - 1
            ang = start[w_of] + np.where(last, sweep[w_of], h * np.maximum(j - 1.5, 0.0))
            rr = np.where(j == 0, 0.0, np.where((j == 1) | last, rho[w_of],
                                                 rho[w_of] / np.cos(0.5 * h)))
        else:
            step = 2.0 * np.arccos(np.maximum(-1.0, 1.0 - ARC_TOLERANCE /
                                              np.maximum(rho, 1e-9)))
            nseg = np.maximum(1, np.ceil(np.abs(sweep) / step)).astype(np.int64)
            size = nseg + 2
            offs = np.concatenate([[0], np.cumsum(size)])
            w_of = np.repeat(np.arange(len(k)), size)
            j = np.arange(offs[-1]) - offs[w_of]
            ang = start[w_of] + sweep[w_of] * (np.maximum(j - 1, 0) / nseg[w_of])
            rr = np.where(j == 0, 0.0, rho[w_of])
        pts = np.empty((len(ang), 2))
        pts[:, 0] = v[w_of, 0] + rr * np.cos(ang)
        pts[:, 1] = v[w_of, 1] + rr * np.sin(ang)
        w0 = only[0]
        wedges = _Wedges(np.concatenate([w0.apex, v]), np.concatenate([w0.radius, rho]),
                         np.concatenate([w0.start, start]), np.concatenate([w0.sweep, sweep]),
                         np.concatenate([w0.own, self._owner[k]]),
                         np.concatenate([w0.query, np.zeros(len(k), bool)]),
                         np.concatenate([w0.node, k]))
        return wedges, np.concatenate([disk, pts]), np.concatenate([n0, size])

    def _rays(self, wedges: _Wedges) -> tuple[list[np.ndarray], np.ndarray]:
        """Each wedge's visible part as a star-shaped outline (apex first, then its rays).

        Rays leave the apex at the arc's sample angles and just before and after every
        direction in which something changes: a vertex of the obstacles' outline within
        reach, or a point where an outline edge crosses the wedge's circle. Each ray stops at
        the first outline edge facing the apex, or at the radius. Between two neighbouring
        rays nothing changes, so the visible part there is convex (the sector cut by the
        half-planes of the edges it meets) and the chord between the rays' ends lies inside
        it: the outline never exceeds the true visible region, and it differs from it only
        by the inscribed arcs. The start's disk (wedge 0) has no apex and goes all round.

        (Written for few NumPy calls on short arrays: x and y are separate columns.)
        """
        tree, union = self.rm.outline()[2:]
        ex0, ey0, ex1, ey1, edx, edy = self.rm.outline_columns()
        nw = len(wedges)
        apex, rho, start, sweep = wedges.apex, wedges.radius, wedges.start, wedges.sweep
        apx, apy = apex[:, 0].copy(), apex[:, 1].copy()
        side = np.where(sweep < 0, -1.0, 1.0)
        span = np.abs(sweep)
        full = wedges.query
        span[full] = 2 * math.pi
        two_pi = 2 * math.pi
        eps = 1e-9
        # bounding boxes of the sectors: apex, arc ends and the arc's axis extremes
        ang = np.empty((nw, 6))
        ang[:, 0] = start
        ang[:, 1] = start + sweep
        ang[:, 2:] = _AXES
        inside = np.ones((nw, 6), bool)
        inside[:, 2:] = np.mod(side[:, None] * (_AXES[None, :] - start[:, None]),
                               two_pi) <= span[:, None]
        bxs = np.where(inside, apx[:, None] + rho[:, None] * np.cos(ang), apx[:, None])
        bys = np.where(inside, apy[:, None] + rho[:, None] * np.sin(ang), apy[:, None])
        wi, ei = tree.query(shapely.box(np.minimum(bxs.min(axis=1), apx),
                                        np.minimum(bys.min(axis=1), apy),
                                        np.maximum(bxs.max(axis=1), apx),
                                        np.maximum(bys.max(axis=1), apy)))
        # per (wedge, edge) pair: P - A, Q - A and the edge vector d
        Ax, Ay = apx[wi], apy[wi]
        px, py = ex0[ei] - Ax, ey0[ei] - Ay
        qx, qy = ex1[ei] - Ax, ey1[ei] - Ay
        dx, dy = edx[ei], edy[ei]
        dl2 = dx * dx + dy * dy
        dl = np.sqrt(dl2)
        # edges facing the apex that come within its radius
        sfoot = np.clip(-(px * dx + py * dy) / dl2, 0.0, 1.0)
        fx, fy = px + sfoot * dx, py + sfoot * dy
        near = np.sqrt(fx * fx + fy * fy)
        front = ((px * dy - py * dx) < -1e-12 * dl) & (near < rho[wi])
        # a wedge whose apex touches the outline other than by its own two edges (another
        # piece through the corner) tests its rays' first steps for entering the obstacles
        touch = near < 1e-6
        touching = np.zeros(nw, bool)
        cone_w: list[int] = []
        cone_a: list[float] = []
        cone_n: list[float] = []
        if touch.any():
            tw = wi[touch]
            ed = np.column_stack([dx[touch], dy[touch]]) / dl[touch, None]
            at_p = _norm(px[touch], py[touch]) <= 1e-12
            at_q = _norm(qx[touch], qy[touch]) <= 1e-12
            nodes = wedges.node[tw]
            At = apex[tw]
            own_dirs = []
            for nb in (self._prev[nodes], self._next[nodes]):
                e = nb - At
                own_dirs.append(e / np.maximum(np.hypot(e[:, 0], e[:, 1]), 1e-300)[:, None])
            out_dir = np.where(at_p[:, None], ed, -ed)
            par = [np.abs(out_dir[:, 0] * o[:, 1] - out_dir[:, 1] * o[:, 0]) <= 1e-9
                   for o in own_dirs]
            par = [pp & (out_dir[:, 0] * o[:, 0] + out_dir[:, 1] * o[:, 1] > 0)
                   for pp, o in zip(par, own_dirs, strict=True)]
            own_edge = (at_p | at_q) & (par[0] | par[1]) & ~full[tw]
            touching[tw[~own_edge]] = True
            # the obstacles' angular cones at apexes on the outline: counter-clockwise from
            # each edge leaving the apex to the nearest edge arriving there
            oang = np.arctan2(out_dir[:, 1], out_dir[:, 0])
            # an apex inside an edge (a start in contact with a wall's face) has the half
            # plane on the edge's left as its cone: its sides, along the face, are events,
            # so the rays along the face are cast (issue 12: no ray ran along it)
            inner = ~(at_p | at_q)
            for w in np.unique(tw[touching[tw]]).tolist():
                mine = tw == w
                outs = oang[mine & at_p]
                ins = oang[mine & at_q]
                if len(outs) and len(ins):
                    width = np.mod(ins[None, :] - outs[:, None], 2 * math.pi).min(axis=1)
                    cone_w.extend([w] * len(outs))
                    cone_a.extend(outs.tolist())
                    cone_n.extend(width.tolist())
                faces = np.arctan2(ed[mine & inner, 1], ed[mine & inner, 0])
                cone_w.extend([w] * len(faces))
                cone_a.extend(faces.tolist())
                cone_n.extend([math.pi] * len(faces))
        f = np.nonzero(front)[0]
        wi, ei = wi[f], ei[f]
        px, py, qx, qy, dx, dy = px[f], py[f], qx[f], qy[f], dx[f], dy[f]
        nf = len(wi)
        # angles of both ends in each wedge's frame (0 at its start, growing with its turn)
        sw, s0w = np.concatenate([side[wi], side[wi]]), np.concatenate([start[wi], start[wi]])
        ph = np.mod(sw * (np.arctan2(np.concatenate([py, qy]), np.concatenate([px, qx])) - s0w),
                    two_pi)
        phP, phQ = ph[:nf], ph[nf:]
        # events: outline vertices within reach, crossings of edges and circles
        rP2, rQ2 = px * px + py * py, qx * qx + qy * qy
        r2 = rho[wi] ** 2
        a2 = dx * dx + dy * dy
        b2 = dx * px + dy * py
        disc = b2 * b2 - a2 * (rP2 - r2)
        sq = np.sqrt(np.maximum(disc, 0.0))
        sol = np.concatenate([(-b2 - sq) / a2, (-b2 + sq) / a2])
        both = np.arange(2 * nf)
        both[nf:] -= nf
        crossing = (sol > 0) & (sol < 1) & (disc > 0)[both]
        k, sol = both[crossing], sol[crossing]
        cw = wi[k]
        cph = np.mod(side[cw] * (np.arctan2(py[k] + sol * dy[k], px[k] + sol * dx[k]) -
                                 start[cw]), two_pi)
        inP, inQ = rP2 < r2, rQ2 < r2
        ev_w = [wi[inP], wi[inQ], cw]
        ev_phi = [phP[inP], phQ[inQ], cph]
        if cone_w:
            # the sides of the obstacles' cones at the apex
            cwn = np.array(cone_w * 2, dtype=np.int64)
            ca = np.concatenate([np.array(cone_a), np.array(cone_a) + np.array(cone_n)])
            ev_w.append(cwn)
            ev_phi.append(np.mod(side[cwn] * (ca - start[cwn]), two_pi))
        evw = np.concatenate(ev_w)
        evp = np.concatenate(ev_phi)
        # arc samples (the ends nudged inside the wedge)
        step = 2.0 * np.arccos(np.maximum(-1.0, 1.0 - ARC_TOLERANCE / np.maximum(rho, 1e-9)))
        nseg = np.maximum(1, np.ceil(span / step)).astype(np.int64)
        nseg[full] = np.maximum(3, nseg[full])
        cnt = nseg + 1
        cnt[full] = nseg[full]
        aw = np.repeat(np.arange(nw), cnt)
        j = np.arange(len(aw)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
        # rays, per wedge in angular order
        rw = np.concatenate([aw, evw, evw])
        rp = np.concatenate([span[aw] * j / nseg[aw], evp - eps, evp + eps])
        # the start's disk wraps round; a wedge's rays stay just inside its two sides
        at0 = full[rw]
        rp0 = np.mod(rp[at0], two_pi)
        rp = np.minimum(np.maximum(rp, eps), span[rw] - eps)
        rp[at0] = rp0
        # one sort key per ray: the wedge, then the angle (< 8) within it
        keys = rw * 8.0 + rp
        order = np.argsort(keys)
        keys = keys[order]
        fresh = np.ones(len(keys), bool)
        fresh[1:] = keys[1:] != keys[:-1]
        order, keys = order[fresh], keys[fresh]
        rw, rp = rw[order], rp[order]
        theta = start[rw] + side[rw] * rp
        ux, uy = np.cos(theta), np.sin(theta)
        R = rho[rw]
        hit = np.full(len(rw), -1, dtype=np.int64)
        if nf:
            # the rays each front edge spans (its shorter angular interval); an interval that
            # wraps past 0 is two ranges: (hi, 2 pi) and [0, lo)
            lo, hi = np.minimum(phP, phQ), np.maximum(phP, phQ)
            wrap = hi - lo > math.pi
            base = wi * 8.0
            s0 = _search(keys, np.where(wrap, base + hi, base + lo), "right")
            left = _search(keys, np.concatenate([np.where(wrap, base + 8.0, base + hi),
                                                 base, base + lo]), "left")
            s1, s2, s3 = left[:nf], left[nf:2 * nf], left[2 * nf:]
            starts = np.concatenate([s0, np.where(wrap, s2, 0)])
            counts = np.maximum(np.concatenate([s1 - s0, np.where(wrap, s3 - s2, 0)]), 0)
            pe = np.repeat(both, counts)
            pr = np.arange(len(pe)) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
            ddx, ddy = dx[pe], dy[pe]
            den = ux[pr] * ddy - uy[pr] * ddx
            num = px[pe] * ddy - py[pe] * ddx
            t = np.full(len(pe), np.inf)
            np.divide(num, den, out=t, where=np.abs(den) > 1e-300)
            t[t <= 0] = np.inf
            # the nearest edge of each ray, if nearer than its radius
            best = R.copy()
            np.minimum.at(best, pr, t)
            won = (t == best[pr]) & (t < R[pr])
            R = best
            hit[pr[won]] = ei[pe[won]]
        if touching.any():
            tr = np.nonzero(touching[rw])[0]
            tw_r = rw[tr]
            blocked = shapely.contains_xy(union, apx[tw_r] + 1e-6 * ux[tr],
                                          apy[tw_r] + 1e-6 * uy[tr])
            th_r = theta[tr]
            for w, a0, width in zip(cone_w, cone_a, cone_n, strict=True):
                into = np.mod(th_r - a0, 2 * math.pi)
                blocked |= (tw_r == w) & (into > 0) & (into < width)
            R[tr[blocked]] = 0.0
            hit[tr[blocked]] = -1
        X = apx[rw] + R * ux
        Y = apy[rw] + R * uy
        # ends of rays at an outline vertex are that vertex; inner rays of a run on one edge
        # and points that repeat their predecessor are dropped
        on = np.nonzero(hit >= 0)[0]
        he = hit[on]
        xo, yo = X[on], Y[on]
        snaps = [_norm(xo - cx[he], yo - cy[he]) <= 1e-7 for cx, cy in ((ex0, ey0), (ex1, ey1))]
        snaps[1] &= ~snaps[0]  # the edge's start wins when both ends are that close
        for snap, (cx, cy) in zip(snaps, ((ex0, ey0), (ex1, ey1)), strict=True):
            X[on[snap]] = cx[he[snap]]
            Y[on[snap]] = cy[he[snap]]
        same_w = np.zeros(len(rw), bool)
        same_w[1:] = rw[1:] == rw[:-1]
        run = hit >= 0
        run[1:-1] &= (hit[1:-1] == hit[:-2]) & (hit[1:-1] == hit[2:]) & same_w[1:-1] & \
            same_w[2:]
        run[0] = run[-1] = False
        keep = ~run
        keep[1:] &= ~(same_w[1:] & (_norm(X[1:] - X[:-1], Y[1:] - Y[:-1]) <= 1e-9))
        rw, X, Y = rw[keep], X[keep], Y[keep]
        # apex first (not for the sources' disks)
        apexed = (~full).astype(np.int64)
        sizes = np.bincount(rw, minlength=nw) + apexed
        ends = np.cumsum(sizes)
        begin = ends - sizes
        first = np.searchsorted(rw, np.arange(nw), "left")
        out = np.empty((int(ends[-1]) if nw else 0, 2))
        rows = begin[rw] + apexed[rw] + (np.arange(len(rw)) - first[rw])
        out[rows, 0] = X
        out[rows, 1] = Y
        out[begin[~full]] = apex[~full]
        ends = ends.tolist()
        return [out[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)], touching

    def _build_swept(self, exclude: BaseGeometry | None, exclude_key: object
                     ) -> BaseGeometry:
        """:meth:`_build` by casting rays (no shadow overlays); the start is in no piece."""
        rm = self.rm
        slack = rm.slack(exclude_key, exclude) if exclude is not None and \
            exclude_key is not None and len(rm.corners) else None
        wedges, flat, sizes = self._wedges(slack, ahead=True, outer=True)
        if exclude is not None and not exclude.is_empty and len(wedges) > 1:
            # wedges wholly inside the excluded set add nothing (the start's disk stays)
            keep = ~shapely.contains(exclude, _polygons(flat, sizes)) | wedges.query
            wedges = wedges.take(keep)
        coords, touching = self._rays(wedges)
        merged, members = self._chains(wedges, coords, np.ones(len(wedges), bool)) \
            if len(wedges) > 1 else ([], np.zeros(0, dtype=np.int64))
        keepw = np.array([len(c) >= 3 for c in coords])
        if len(members):
            keepw[members] = False
        kept = [c for c, k in zip(coords, keepw.tolist(), strict=True) if k]
        if not kept and not merged:
            return Polygon()  # (a start stuck in a piece: no room)
        polys = _polygons(np.concatenate(kept), np.array([len(c) for c in kept])) if kept \
            else np.zeros(0, dtype=object)
        # rays stopped at the apex can pinch an outline
        odd = touching[keepw]
        if odd.any():
            bad = np.nonzero(odd)[0]
            bad = bad[~shapely.is_valid(polys[bad])]
            polys[bad] = shapely.make_valid(polys[bad])
        if merged:
            polys = np.concatenate([polys, np.array(merged, dtype=object)])
        try:
            raw = _union_wedges(polys)
        except shapely.errors.GEOSException:
            raw = None
        if raw is None or not raw.is_valid:
            # an outline from an apex a hair off the obstacles' outline (a turn node) can be
            # invalid without touching it: all of them made valid (the same point sets)
            raw = _union_wedges(shapely.make_valid(polys))
        return self._finish(raw, exclude)

    def _whole(self) -> BaseGeometry | None:
        """The disk when it is every part of the free space that holds a source (exactly,
        no inscribed arcs), or ``None`` when that is not known.

        Known when the search is complete (the corner graph, the start in no piece) and
        every node it reached has more left of the distance than its way to the farthest
        corner of the box: every point of those parts is seen from the last bend of its
        shortest path (a corner the search reached, or a source), and is within what is left
        there. A move far longer than the battlefield (M 1,000,000") is then one overlay,
        not the union of a visibility polygon per corner (the same set, without the
        inscribed arcs' sag).
        """
        rm = self.rm
        if self._bends < 2 or self._q.changed:
            return None
        x0, y0, x1, y1 = rm.box
        far = self._reach_cap(self.nodes) - 2.0 * ARC_TOLERANCE
        if x1 < x0 or y1 < y0 or bool((self.dist + far > self.distance).any()):
            return None
        parts = rm.free_parts()
        if not len(parts):
            return None
        src = self.nodes[:self.n_sources]
        mine = np.zeros(len(parts), bool)
        for k, g in enumerate(parts):
            mine[k] = bool(shapely.intersects_xy(g, src[:, 0], src[:, 1]).any())
        if not mine.any():
            return None
        return shapely.union_all(parts[mine]) if mine.sum() > 1 else parts[mine][0]

    def _build(self, exclude: BaseGeometry | None, exclude_key: object) -> BaseGeometry:
        rm = self.rm
        whole = self._whole()
        if whole is not None:
            return self._finish(whole, exclude)
        if len(rm.pieces) and not self._q.changed:
            return self._build_swept(exclude, exclude_key)
        slack = rm.slack(exclude_key, exclude) if exclude is not None and \
            exclude_key is not None and len(rm.corners) else None
        wedges, flat, sizes = self._wedges(slack)
        polys = _polygons(flat, sizes)
        ends = np.cumsum(sizes).tolist()
        coords = [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
        if exclude is not None and not exclude.is_empty:
            # wedges wholly inside the excluded set add nothing
            keep = ~shapely.contains(exclude, polys) | wedges.query
            polys = polys[keep]
            wedges = wedges.take(keep)
            coords = [c for c, k in zip(coords, keep.tolist(), strict=True) if k]
        if not len(rm.pieces):
            raw = shapely.union_all(polys)
            return self._finish(raw, exclude)
        # shadows
        pieces_now = list(rm.rings)
        for k, ring in self._q.changed.items():
            pieces_now[k] = ring
        wi, pi = rm.piece_tree.query(polys, predicate="intersects")
        keep = wedges.own[wi] != pi
        wi, pi = wi[keep], pi[keep]
        counts = np.bincount(wi, minlength=len(wedges))
        merged, members = self._chains(wedges, coords, counts == 0)
        if len(members):
            keepw = np.ones(len(wedges), bool)
            keepw[members] = False
            remap = np.cumsum(keepw) - 1
            sel = keepw[wi]
            wi, pi = remap[wi[sel]], pi[sel]
            polys = polys[keepw]
            wedges = wedges.take(keepw)
        # the start's own shadows use the cut pieces; others the full ones
        if len(wi):
            kmax = max(len(r) for r in pieces_now)
            nrows = len(wi)
            verts = np.empty((nrows, kmax, 2))
            valid = np.ones(nrows, bool)
            for row, (w, k) in enumerate(zip(wi.tolist(), pi.tolist(), strict=True)):
                ring = pieces_now[k] if wedges.query[w] else rm.rings[k]
                if not len(ring):
                    valid[row] = False
                    verts[row] = 0.0
                    continue
                verts[row, :len(ring)] = ring
                verts[row, len(ring):] = ring[-1]
            apex = wedges.apex[wi]
            rho = wedges.radius[wi]
            rel = verts - apex[:, None, :]
            rr = np.hypot(rel[..., 0], rel[..., 1])
            cen = rel.mean(axis=1)
            base = np.arctan2(cen[:, 1], cen[:, 0])
            ang = np.arctan2(rel[..., 1], rel[..., 0]) - base[:, None]
            ang = (ang + math.pi) % (2 * math.pi) - math.pi
            # vertices at the apex have no direction
            at_apex = rr < 1e-9
            lo = np.where(at_apex, np.inf, ang).min(axis=1)
            hi = np.where(at_apex, -np.inf, ang).max(axis=1)
            valid &= np.isfinite(lo) & np.isfinite(hi)
            lo = np.where(valid, lo, 0.0)
            hi = np.where(valid, hi, 0.0)
            spread = hi - lo
            fstep = spread / (SHADOW_SLOTS - 1)
            far = np.maximum(rho / np.cos(fstep / 2), rr.max(axis=1)) * (1 + 1e-9) + 1e-9
            t = np.linspace(0.0, 1.0, SHADOW_SLOTS)
            fang = base[:, None] + lo[:, None] + spread[:, None] * t[None, :]
            fpts = apex[:, None, :] + far[:, None, None] * np.stack(
                [np.cos(fang), np.sin(fang)], axis=-1)
            allpts = np.concatenate([verts, fpts], axis=1)
            hulls = shapely.convex_hull(shapely.multipoints(allpts))
            if exclude is not None and not exclude.is_empty:
                # a shadow wholly inside the excluded set changes nothing
                valid &= ~shapely.contains(exclude, hulls)
            hulls = np.where(valid, hulls, None)
            wi, pi, hulls = wi[valid], pi[valid], hulls[valid]
            if len(wi):
                counts = np.bincount(wi, minlength=len(wedges))
                width = int(counts.max())
                grid = np.full((len(wedges), width), None, dtype=object)
                order = np.argsort(wi, kind="stable")
                wi_s = wi[order]
                starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
                col = np.arange(len(wi_s)) - starts[wi_s]
                grid[wi_s, col] = hulls[order]
                shadow = shapely.union_all(grid, axis=1)
                has = counts > 0
                polys = polys.copy()
                polys[has] = shapely.difference(polys[has], shadow[has])
        if merged:
            polys = np.concatenate([polys, np.array(merged, dtype=object)])
        if exclude is not None and not exclude.is_empty and len(polys) > 1:
            polys = polys[~shapely.contains(exclude, polys)]
        raw = shapely.union_all(polys)
        return self._finish(raw, exclude)

    def _chains(self, wedges: _Wedges, coords: list[np.ndarray], clean: np.ndarray
                ) -> tuple[list[BaseGeometry], np.ndarray]:
        """Merge runs of unshadowed wedges that wrap one piece into single polygons.

        When ``v[i+1]`` follows ``v[i]`` on a piece's ring and its shortest path comes from
        ``v[i]``, wedge ``i`` ends on the ray through ``v[i+1]`` exactly where wedge ``i + 1``
        begins, so the union of the run is the polygon ``v[1]``, the arcs in order, then the
        ring back from ``v[m]`` to ``v[2]``. Wedges that meet other pieces are left alone.
        """
        nodes, own = wedges.node, wedges.own
        ok = clean & (own >= 0) & ~wedges.query
        wedge_of = np.full(len(self.nodes), -1, dtype=np.int64)
        wedge_of[nodes[ok]] = np.nonzero(ok)[0]
        par = self.parent[nodes]
        j = np.where(ok & (par >= 0), wedge_of[np.maximum(par, 0)], -1)
        ok &= j >= 0
        jj = np.maximum(j, 0)
        ok &= ok[jj] & (own[jj] == own)
        pc = self.nodes[np.maximum(par, 0)]
        adj = (np.hypot(*(pc - self._prev[nodes]).T) <= 1e-12) | \
            (np.hypot(*(pc - self._next[nodes]).T) <= 1e-12)
        ok &= adj
        child = np.nonzero(ok)[0]
        # one child per parent wedge (the first)
        _, first = np.unique(j[child], return_index=True)
        child = child[first]
        nxt: dict[int, int] = dict(zip(j[child].tolist(), child.tolist(), strict=True))
        has_prev = set(child.tolist())
        runs: list[list[int]] = []
        rings: list[np.ndarray] = []
        for head in nxt:
            if head in has_prev:
                continue
            run = [head]
            while run[-1] in nxt:
                run.append(nxt[run[-1]])
            ring = [coords[run[0]][:1]]
            ring.extend(coords[i][1:] for i in run)
            ring.extend(coords[i][:1] for i in reversed(run[1:]))
            runs.append(run)
            rings.append(np.concatenate(ring))
        if not runs:
            return [], np.zeros(0, dtype=np.int64)
        polys = _polygons(np.concatenate(rings), np.array([len(r) for r in rings]))
        # a run whose outline crosses itself stays as separate wedges (the final union joins
        # them)
        valid = shapely.is_valid(polys).tolist()
        merged: list[BaseGeometry] = [g for g, ok in zip(polys, valid, strict=True) if ok]
        members = [w for run, ok in zip(runs, valid, strict=True) if ok for w in run]
        return merged, np.array(members, dtype=np.int64)

    def _finish(self, raw: BaseGeometry, exclude: BaseGeometry | None) -> BaseGeometry:
        x0, y0, x1, y1 = self.rm.box
        b = raw.bounds
        out = raw if b[0] >= x0 and b[1] >= y0 and b[2] <= x1 and b[3] <= y1 else \
            raw.intersection(self.rm.box_polygon)
        if exclude is not None and not exclude.is_empty and not out.is_empty:
            out = out.difference(clipped(exclude, out.bounds))
        return _polygonal(out)


def _union_wedges(polys: np.ndarray) -> BaseGeometry:
    """The union of the clipped wedges, the start's disk first."""
    if len(polys) > 2:
        # pieces inside the start's own visible disk add nothing to the union
        shapely.prepare(polys[0])
        inside = shapely.contains(polys[0], polys[1:])
        polys = np.concatenate([polys[:1], polys[1:][~inside]])
    return shapely.union_all(polys)


def clipped(geom: BaseGeometry, bounds: tuple[float, float, float, float],
             pad: float = 0.1) -> BaseGeometry:
    """``geom`` cut to the rectangle ``bounds`` grown by ``pad``, for overlays inside ``bounds``.

    Overlays cost by the vertices of both operands; a large excluded set (the engagement
    regions of a whole army) is cut first by GEOS's rectangle clipping, which is linear. The
    clip is the same point set inside the rectangle; its topology is not guaranteed, so an
    invalid clip falls back on ``geom`` itself.
    """
    try:
        clip = shapely.clip_by_rect(geom, bounds[0] - pad, bounds[1] - pad, bounds[2] + pad,
                                    bounds[3] + pad)
    except shapely.errors.GEOSException:
        # GEOS's rectangle clipping can fail on a valid input (a ring it cuts to 3 points)
        return geom
    return clip if shapely.is_valid(clip) else geom


def _polygonal(g: BaseGeometry) -> BaseGeometry:
    """Keep the polygons of ``g`` (drop stray lines and points of overlays)."""
    if g.is_empty:
        return Polygon()
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = [p for p in shapely.get_parts(g) if p.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(parts) if parts else Polygon()


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

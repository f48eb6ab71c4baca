"""The configuration space of a mover that translates and turns in place (issue 12).

A pose is ``(x, y, facing)``. A facing ``f`` (degrees) turns the footprint's own frame by ``f``:
a local point ``(u, v)`` lies at ``(u cos f - v sin f, u sin f + v cos f)`` from the centre
(:meth:`tabletop.geometry.footprints.Footprint.placed`), so a growing facing is a growing angle
in board coordinates (clockwise on the y-down board).

This module holds the pieces the layered zone engine (:mod:`tabletop.geometry.turning`) and the
path checks build on, all pure geometry:

- :func:`pieces_at`: the footprint's convex pieces at a facing (an oval as a circumscribed
  polygon, so never smaller than the base);
- :func:`grow`: obstacles grown by a footprint at a fixed facing (the configuration-space
  obstacle of a translating footprint: ``A (+) -F``, exact for convex polygon pieces, tangent
  arcs around round obstacles);
- :func:`separation`: a half-plane through a pose's centre that contains the grown obstacle,
  from a separating axis of the two exact shapes (for a start in contact);
- :func:`sweep_pieces`: convex pieces that contain the area a footprint covers while turning
  through an interval of facings (conservative, for drawing);
- :func:`swept_pieces`: the area a footprint covers while turning through an interval of
  facings, exactly up to circumscribed arcs (the turn regions of
  :mod:`tabletop.geometry.turning`);
- :func:`turn_hits`: the exact test of a turn in place against polygons, circles and the
  battlefield's edge (vertex arcs against edges and edge offsets, analytic).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry.footprints import Footprint, Hull, Round
from tabletop.geometry.minkowski import offset_convex
from tabletop.geometry.polygons import ccw, convex_pieces

__all__ = [
    "ENGINE_SEGMENTS",
    "NOTCH_TOLERANCE",
    "SWEEP_TOLERANCE",
    "Obstacle",
    "angle_between",
    "clear_footprint_caches",
    "convex_sum",
    "grow",
    "period",
    "pieces_at",
    "separation",
    "sweep_pieces",
    "swept_pieces",
    "thin_edges",
    "translated",
    "turn_hits",
    "turn_meets",
    "turn_steps",
    "turned",
]

ENGINE_SEGMENTS = 32
"""Vertices of the circumscribed polygon of an oval mover in the zone engine.

Its vertices lie at most ``rho_max * (1 / cos(pi / 32) - 1)`` outside the oval (``rho_max =
a**2 / b``, the largest radius of curvature: 0.0098" for a 60x35 mm oval), on the safe side; the
exact checks use a finer polygon whose vertex count is a multiple (an even one) of this, which
lies inside it."""

SWEEP_TOLERANCE = 0.01
"""How far the pieces of :func:`sweep_pieces` may lie outside the area swept by a turn, inches
(they only draw why a turn is refused: the turn test itself is exact)."""

NOTCH_TOLERANCE = 0.002
"""How shallow (inches) the notches of a turn's swept area may be for :func:`swept_pieces` to
take its convex hull instead (one piece): a nearly round oval sweeps an area with hundreds of
shallow notches, each a convex piece and a Minkowski sum more. The hull lies at most this much
outside the swept area, less than the engine's polygon of an oval already lies outside the
oval (:data:`ENGINE_SEGMENTS`); deeper notches (a 60x35 mm oval turning 7.5 degrees: 0.005",
any rectangle) are kept."""

Obstacle = tuple[str, object]
"""``("polygon", ring)`` with a counter-clockwise ``(k, 2)`` array of a convex piece, or
``("circle", (x, y, r))``."""


def turned(pts: np.ndarray, facing: float) -> np.ndarray:
    """Points of a footprint's own frame turned to ``facing`` (degrees), about the origin."""
    a = math.radians(facing)
    c, s = math.cos(a), math.sin(a)
    out = np.empty_like(pts, dtype=float)
    out[..., 0] = pts[..., 0] * c - pts[..., 1] * s
    out[..., 1] = pts[..., 0] * s + pts[..., 1] * c
    return out


def angle_between(f0: float, f1: float) -> float:
    """The signed turn from facing ``f0`` to ``f1`` the shorter way, in (-180, 180] degrees."""
    d = (f1 - f0) % 360.0
    return d - 360.0 if d > 180.0 else d


@lru_cache(maxsize=256)
def period(fp: Footprint) -> float:
    """360 degrees, or 180 for a footprint that looks the same turned half round (ovals,
    rectangles, hulls symmetric about their centre)."""
    if isinstance(fp, Round):
        return 360.0
    if isinstance(fp, Hull):
        pts = np.array(fp.points, dtype=float)
        a = np.round(pts, 9)
        b = np.round(-pts, 9)
        same = {tuple(p) for p in a.tolist()} == {tuple(p) for p in b.tolist()}
        return 180.0 if same else 360.0
    return 180.0


@lru_cache(maxsize=256)
def _local(fp: Footprint, segments: int) -> tuple[np.ndarray, ...]:
    """Convex pieces of the footprint in its own frame (counter-clockwise vertices)."""
    poly = fp.local_polygon(segments=segments)
    return tuple(ccw(np.asarray(p.exterior.coords)[:-1]) for p in convex_pieces(poly))


@lru_cache(maxsize=1024)
def pieces_at(fp: Footprint, facing: float, segments: int = ENGINE_SEGMENTS
              ) -> tuple[np.ndarray, ...]:
    """The footprint's convex pieces at ``facing``, centred on the origin (never smaller than
    the base: an oval is its circumscribed polygon of ``segments`` vertices)."""
    return tuple(turned(p, facing) for p in _local(fp, segments))


# --------------------------------------------------------------------------------------------
# obstacles grown by a footprint
# --------------------------------------------------------------------------------------------
def grow(obstacles: Sequence[Obstacle], foot: Sequence[np.ndarray], *,
         max_step: float = math.pi / 16) -> tuple[list[np.ndarray], list[tuple[int, int]]]:
    """Centres at which a footprint made of the convex ``foot`` pieces meets an obstacle.

    For each obstacle piece ``A`` and footprint piece ``F`` the grown piece is ``A (+) -F``:
    the exact sum of two convex polygons (:func:`convex_sum`) for a polygon, the offset of ``-F`` by
    the radius for a circle (straight edges exact, corners by tangent segments turning at most
    ``max_step``: never smaller). Returns the rings (counter-clockwise) and, for each, the
    indices ``(obstacle, foot piece)`` it comes from.
    """
    rings: list[np.ndarray] = []
    pairs: list[tuple[int, int]] = []
    # a circle's grown piece is the footprint piece's offset by its radius, moved to its
    # centre: one offset per piece and radius (an army's bases share a few radii)
    offsets: dict[tuple[int, float], np.ndarray] = {}
    for i, (kind, data) in enumerate(obstacles):
        for j, f in enumerate(foot):
            if kind == "circle":
                x, y, r = cast(tuple[float, float, float], data)
                ring = offsets.get((j, float(r)))
                if ring is None:
                    ring = offsets[(j, float(r))] = \
                        offset_convex(-f, float(r), max_step=max_step) if r > 0 else -f
                rings.append(ring + np.array([x, y]))
            else:
                rings.append(convex_sum(np.asarray(data, dtype=float), -f))
            pairs.append((i, j))
    return rings, pairs


def translated(geom: BaseGeometry, shifts: np.ndarray) -> np.ndarray:
    """Copies of ``geom`` moved by each row of ``shifts`` (``(n, 2)``), in one array call:
    the regions of many models on one footprint are one region moved to each."""
    shifts = np.asarray(shifts, dtype=float).reshape(-1, 2)
    copies = np.full(len(shifts), geom, dtype=object)
    add = np.repeat(shifts, shapely.get_num_coordinates(geom), axis=0)
    return cast(np.ndarray, shapely.transform(copies, lambda c: c + add))


def convex_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Minkowski sum of two convex polygons (counter-clockwise vertices), exactly: their
    edges merged by direction from the lowest vertices (``O(n + m)``, not the hull of all
    ``n * m`` vertex sums)."""
    def start(c: np.ndarray) -> np.ndarray:
        # the lowest vertex, the leftmost of a bottom edge level up to rounding (starting at
        # its right end would shift the whole sum by the edge)
        y = c[:, 1]
        low = y <= y.min() + 1e-12 * max(1.0, float(np.abs(c).max()))
        k = int(np.nonzero(low)[0][np.argmin(c[low, 0])])
        return np.concatenate([c[k:], c[:k]])

    a, b = start(np.asarray(a, float)), start(np.asarray(b, float))
    # (slices, not np.roll: the sum is built per friend, model and facing, and np.roll's
    # overhead was a third of it)
    ea = np.concatenate([a[1:], a[:1]]) - a
    eb = np.concatenate([b[1:], b[:1]]) - b
    e = np.concatenate([ea, eb])
    ang = np.mod(np.arctan2(e[:, 1], e[:, 0]), 2 * math.pi)
    # from the lowest vertex the edges of a convex ring turn from 0 to 2 pi; an edge at 2 pi
    # (a rounding of 0) goes first
    ang = np.where(ang > 2 * math.pi - 1e-12, 0.0, ang)
    order = np.argsort(ang, kind="stable")
    out = a[0] + b[0] + np.concatenate([[[0.0, 0.0]], np.cumsum(e[order], axis=0)[:-1]])
    return out


def separation(obstacle: Obstacle, piece: np.ndarray, tol: float = 1e-9
               ) -> np.ndarray | None:
    """A unit normal ``n`` of a line separating ``obstacle`` from the placed convex ``piece``.

    The obstacle lies on the side ``x . n <= c`` and the piece on ``x . n >= c``; for the
    grown piece ``A (+) -F`` and the centre ``p`` of a pose whose footprint piece is ``piece``,
    the half-plane ``(q - p) . n <= 0`` then contains the whole grown piece (a start in
    contact cuts the grown piece along it). ``None`` when they overlap by more than ``tol``.
    """
    kind, data = obstacle
    if kind == "circle":
        x, y, r = cast(tuple[float, float, float], data)
        c = np.array([x, y], dtype=float)
        poly = Polygon(piece)
        if poly.contains(shapely.Point(c)):
            return None
        q = nearest_points(poly, shapely.Point(c))[0]
        v = np.array([q.x, q.y]) - c
        d = float(np.hypot(*v))
        if d < r - tol or d == 0.0:
            return None
        return v / d
    a = np.asarray(data, dtype=float)
    na = _normals(a)
    nf = _normals(piece)
    # axes normal to the obstacle's edges (pointing out of it), then to the piece's edges
    # (pointing into it): the gap between the two shapes' projections on each
    gap_a = (piece @ na.T).min(axis=0) - (a * na).sum(axis=1)
    gap_f = (a @ nf.T).min(axis=0) - (piece * nf).sum(axis=1)
    ka, kf = int(np.argmax(gap_a)), int(np.argmax(gap_f))
    if gap_a[ka] >= gap_f[kf]:
        best, n = float(gap_a[ka]), na[ka]
    else:
        best, n = float(gap_f[kf]), -nf[kf]
    if best < -tol:
        return None
    return n


def _normals(ring: np.ndarray) -> np.ndarray:
    """Outward unit normals of a counter-clockwise ring's edges (one per vertex, from it)."""
    e = np.roll(ring, -1, axis=0) - ring
    n = np.column_stack([e[:, 1], -e[:, 0]])
    ln = np.hypot(n[:, 0], n[:, 1])
    return n / np.where(ln > 1e-300, ln, 1.0)[:, None]


# --------------------------------------------------------------------------------------------
# turning in place
# --------------------------------------------------------------------------------------------
def turn_steps(radius: float, turn: float, tol: float = SWEEP_TOLERANCE) -> int:
    """Sub-steps of a turn by ``turn`` degrees for :func:`sweep_pieces`: a power of two, each
    of ``delta`` radians with ``radius * delta * (1 + delta / 8) <= tol``."""
    if radius <= 0 or turn == 0:
        return 1
    step = tol / radius
    step = tol / (radius * (1.0 + step / 8.0))
    need = max(1, math.ceil(math.radians(abs(turn)) / step))
    return 1 << (need - 1).bit_length()


def sweep_pieces(foot: Sequence[np.ndarray], f0: float, turn: float, *,
                 tol: float = SWEEP_TOLERANCE) -> list[np.ndarray]:
    """Convex pieces covering the area the ``foot`` pieces (facing 0, centred on the origin)
    cover while turning from facing ``f0`` by ``turn`` degrees (signed, below 180).

    Over a sub-step of ``delta`` from ``a`` to ``b`` every point of a piece ``P`` moves along
    an arc inside the triangle of its two ends and the meeting point of their tangents, which
    lies at ``1 / cos(delta / 2)`` times its radius at the middle angle; so the convex hull of
    ``P`` at ``a``, at ``b`` and at the middle angle scaled by ``1 / cos(delta / 2)`` contains
    the swept area. It lies within ``P``'s largest move (``2 r sin(delta / 2)``) plus the
    tangents' reach (``r (1 / cos(delta / 2) - 1)``) of it, at most ``r delta (1 + delta / 8)``
    (``tol``, :func:`turn_steps`): the hull fills the notch where two turned copies of a long
    straight side cross.
    """
    radius = max(float(np.hypot(p[:, 0], p[:, 1]).max()) for p in foot)
    n = turn_steps(radius, turn, tol)
    step = turn / n
    scale = 1.0 / math.cos(math.radians(abs(step)) / 2.0)
    pts: list[np.ndarray] = []
    for p in foot:
        for k in range(n):
            a = f0 + k * step
            pts.append(np.concatenate([turned(p, a), turned(p, a + step),
                                       scale * turned(p, a + step / 2)]))
    idx = np.repeat(np.arange(len(pts)), [len(x) for x in pts])
    hulls = shapely.orient_polygons(shapely.convex_hull(shapely.multipoints(
        np.concatenate(pts), indices=idx)), exterior_cw=False)
    return [np.asarray(h.exterior.coords)[:-1] for h in hulls]


SECTOR_STEP = math.pi / 32
"""Largest turn of the tangent segments that circumscribe a vertex's arc in
:func:`swept_pieces` (they lie at most ``rho * (1 / cos(pi / 64) - 1)``, 0.0012 ``rho``, outside
it)."""


@lru_cache(maxsize=256)
def swept_pieces(fp: Footprint, f0: float, f1: float, segments: int = ENGINE_SEGMENTS
                 ) -> tuple[np.ndarray, ...]:
    """Convex pieces (counter-clockwise, about the centre) whose union is the area the
    footprint covers while turning in place from facing ``f0`` to ``f1 > f0`` (less than 180
    degrees), never smaller than it.

    A footprint star-shaped about its centre (every edge seen from the centre from inside:
    rectangles, ovals, convex and most other hulls) covers at a direction the largest of its
    radii over the turn, which its radial function takes at an end of the turn or at a vertex
    turning through that direction (along an edge the radius is ``p / cos``, largest at an end).
    So the swept area is exactly the footprint at ``f0``, at ``f1`` and, for each vertex ``v``,
    the sector of radius ``|v|`` it turns through: the sectors' arcs are circumscribed by
    tangents turning at most :data:`SECTOR_STEP`. Any other footprint gets the convex hulls
    of :func:`sweep_pieces`, as they are, within an eighth of the most a point of it moves in
    the turn (``radius * turn / 8``, at least :data:`SWEEP_TOLERANCE`): a tolerance that
    shrinks with the turn, so turn regions still close in on the layers' free space as the
    facing step shrinks, and at most 16 hulls a piece for any turn (an L-shaped hull turning 15
    degrees within 0.01" took 128 a piece, 37,000 Minkowski sums for one board's turn
    regions: 4.4 s). A star-shaped footprint's union is cut into convex pieces for the
    Minkowski sums of :func:`grow`.
    """
    turn = f1 - f0
    if not 0.0 < turn < 180.0:
        raise ValueError(f"a turn of {turn} degrees: swept_pieces needs 0 < f1 - f0 < 180")
    # the sweep of a turn from f0 is the sweep of the same turn from 0, turned to f0: the
    # steps of a facing grid share one, made once (the zone engine's threads ask for the
    # steps at once, and two could each make it: 18 ms of Python for a 60x35 mm oval turning
    # 30 degrees, holding the interpreter)
    with _SWEEPS:
        base = _swept_from_zero(fp, turn, segments)
    return tuple(turned(p, f0) for p in base)


_SWEEPS = threading.RLock()
"""Held while :func:`_swept_from_zero` answers, so that threads asking for the same turn wait
for the one making it."""


def clear_footprint_caches() -> None:
    """Forget the footprints' pieces and the areas their turns sweep, kept per base and facing
    (:func:`pieces_at`, :func:`swept_pieces`): a benchmark's cold zone makes them again, as
    the first zone of a new program does."""
    for cached in (_local, pieces_at, swept_pieces, _swept_from_zero):
        cached.cache_clear()


@lru_cache(maxsize=64)
def _swept_from_zero(fp: Footprint, turn: float, segments: int) -> tuple[np.ndarray, ...]:
    """:func:`swept_pieces` of a turn from facing 0."""
    f0, f1 = 0.0, turn
    ring = ccw(np.asarray(fp.local_polygon(segments=segments).exterior.coords)[:-1])
    nxt = np.roll(ring, -1, axis=0)
    star = bool((ring[:, 0] * nxt[:, 1] - ring[:, 1] * nxt[:, 0] > 1e-12).all())
    parts: list[Polygon] = []
    if star:
        parts = [Polygon(turned(ring, f0)), Polygon(turned(ring, f1))]
        rho = np.hypot(ring[:, 0], ring[:, 1])
        beta = np.arctan2(ring[:, 1], ring[:, 0])
        span = math.radians(turn)
        m = max(1, math.ceil(span / SECTOR_STEP))
        h = span / m
        a0 = beta + math.radians(f0)
        mids = a0[:, None] + h * (np.arange(m) + 0.5)[None, :]
        for r, a, mid in zip(rho.tolist(), a0.tolist(), mids, strict=True):
            far = r / math.cos(h / 2)
            pts = [(0.0, 0.0), (r * math.cos(a), r * math.sin(a)),
                   *zip((far * np.cos(mid)).tolist(), (far * np.sin(mid)).tolist(),
                        strict=True),
                   (r * math.cos(a + span), r * math.sin(a + span))]
            parts.append(Polygon(pts))
    else:
        # already convex and covering the sweep together: the Minkowski sums take them as
        # they are (cutting their union into convex pieces again took minutes for an L-shaped
        # hull: hundreds of triangles to merge)
        tol = max(SWEEP_TOLERANCE, fp.radius * math.radians(turn) / 8.0)
        return tuple(ccw(p) for p in sweep_pieces(_local(fp, segments), f0, turn, tol=tol))
    whole = shapely.union_all(parts)
    hull = whole.convex_hull
    if _notch_depth(hull, whole) <= NOTCH_TOLERANCE:
        return (ccw(np.asarray(hull.exterior.coords)[:-1]),)
    return tuple(ccw(np.asarray(p.exterior.coords)[:-1]) for p in convex_pieces(whole))


def _notch_depth(hull: Polygon, whole: Polygon) -> float:
    """How far the convex ``hull`` of ``whole`` reaches outside it, at most.

    Each notch (a piece of the hull outside ``whole``) lies between a chord on the hull's
    boundary and a chain of ``whole``'s; a point of the notch reaches the chain along the
    perpendicular to the chord within the chain's greatest distance from the chord, which is
    at most the greatest distance of the notch's vertices from the chord segment."""
    notches = shapely.get_parts(hull.difference(whole))
    notches = notches[shapely.area(notches) > 0]
    if not len(notches):
        return 0.0
    chords = shapely.intersection(shapely.boundary(notches), hull.exterior)
    xy, which = shapely.get_coordinates(notches, return_index=True)
    return float(shapely.distance(shapely.points(xy), chords[which]).max())


def _in_arc(gamma: np.ndarray, beta: np.ndarray, turn: np.ndarray) -> np.ndarray:
    """Whether angles ``gamma`` lie on arcs from ``beta`` turning by ``turn`` (radians)."""
    two_pi = 2.0 * math.pi
    fwd = np.mod(gamma - beta, two_pi)
    back = np.mod(beta - gamma, two_pi)
    tiny = 1e-12
    return np.where(turn >= 0, fwd <= turn + tiny, back <= -turn + tiny)


def _arcs_cross_segments(c: np.ndarray, rho: np.ndarray, beta: np.ndarray, turn: float,
                         p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """For each segment ``p[k] -> q[k]``, whether some arc (centre ``c``, radii ``rho``,
    starting at angles ``beta``, turning by ``turn`` radians) meets it. Returns a mask over
    the segments."""
    if not len(rho) or not len(p):
        return np.zeros(len(p), bool)
    d = q - p                                        # (m, 2)
    w = p - c                                        # (m, 2)
    a = (d * d).sum(axis=1)[None, :]                 # (1, m)
    b = (d * w).sum(axis=1)[None, :]
    cc = (w * w).sum(axis=1)[None, :] - (rho * rho)[:, None]  # (n, m)
    disc = b * b - a * cc
    ok = (disc >= 0) & (a > 0)
    sq = np.sqrt(np.maximum(disc, 0.0))
    hit = np.zeros(disc.shape, bool)
    for sgn in (-1.0, 1.0):
        t = (-b + sgn * sq) / np.where(a > 0, a, 1.0)
        on = ok & (t >= 0) & (t <= 1)
        x = w[None, :, 0] + t * d[None, :, 0]
        y = w[None, :, 1] + t * d[None, :, 1]
        g = np.arctan2(y, x)
        hit |= on & _in_arc(g, beta[:, None], np.full_like(g, turn))
    return np.asarray(hit.any(axis=0))


def _arcs_cross_circles(c: np.ndarray, rho: np.ndarray, beta: np.ndarray, turn: float,
                        o: np.ndarray, r: np.ndarray) -> np.ndarray:
    """For each circle ``(o[k], r[k])``, whether some arc meets it (see above)."""
    if not len(rho) or not len(o):
        return np.zeros(len(o), bool)
    v = o - c
    dd = np.hypot(v[:, 0], v[:, 1])[None, :]          # (1, m)
    R = rho[:, None]
    rr = r[None, :]
    ok = (dd <= R + rr) & (dd >= np.abs(R - rr)) & (dd > 0)
    dsafe = np.where(dd > 0, dd, 1.0)
    along = (R * R - rr * rr + dd * dd) / (2 * dsafe)
    h = np.sqrt(np.maximum(R * R - along * along, 0.0))
    base = np.arctan2(v[:, 1], v[:, 0])[None, :]
    half = np.arctan2(h, along)
    hit = np.zeros(ok.shape, bool)
    for sgn in (-1.0, 1.0):
        g = base + sgn * half
        hit |= ok & _in_arc(g, beta[:, None], np.full_like(g, turn))
    return np.asarray(hit.any(axis=0))


class _Turning:
    """A footprint turning in place, placed: its vertices' radii and angles about the centre,
    its edges (outward normals: every piece counter-clockwise) and its pieces as polygons."""

    def __init__(self, foot: Sequence[np.ndarray], centre: tuple[float, float], f0: float,
                 turn: float) -> None:
        self.c = np.array([float(centre[0]), float(centre[1])])
        self.tr = math.radians(turn)
        placed = [turned(p, f0) + self.c for p in foot]
        rel = np.concatenate(placed) - self.c
        self.rho = np.hypot(rel[:, 0], rel[:, 1])
        self.beta = np.arctan2(rel[:, 1], rel[:, 0])
        self.reach = float(self.rho.max())
        self.fp_p = np.concatenate(placed)
        self.fp_q = np.concatenate([np.roll(pl, -1, axis=0) for pl in placed])
        self.foot_polys = [Polygon(pl) for pl in placed]

    def meets_edges(self, op: np.ndarray, oq: np.ndarray, tol: float) -> bool:
        """Whether it meets the edges ``op -> oq`` of an obstacle (outside the footprint at
        the start): a vertex of the footprint, moving along its arc, crosses one, or an end
        of one (turning the other way in the footprint's frame) crosses an edge of the
        footprint."""
        if _arcs_cross_segments(self.c, self.rho, self.beta, self.tr, op, oq).any():
            return True
        orel = op - self.c
        orho = np.hypot(orel[:, 0], orel[:, 1])
        near = orho <= self.reach + tol
        if not near.any():
            return False
        obeta = np.arctan2(orel[near, 1], orel[near, 0])
        return bool(_arcs_cross_segments(self.c, orho[near], obeta, -self.tr, self.fp_p,
                                         self.fp_q).any())


def thin_edges(ring: np.ndarray, tol: float = 1e-6, poly: Polygon | None = None
               ) -> tuple[Polygon, BaseGeometry, np.ndarray, np.ndarray] | None:
    """An obstacle ring as :func:`turn_hits` tests it: its polygon (``poly``, when made
    already), the polygon shrunk by ``tol`` and that one's edges ``p -> q``; ``None`` where
    nothing is left of it."""
    poly = Polygon(ring) if poly is None else poly
    thin = poly.buffer(-tol, join_style="mitre")
    if thin.is_empty:
        return None
    rings = [np.asarray(r.coords)[:-1] for r in shapely.get_rings(shapely.get_parts(thin))]
    return (poly, thin, np.concatenate(rings),
            np.concatenate([np.roll(r, -1, axis=0) for r in rings]))


def turn_hits(foot: Sequence[np.ndarray], centre: tuple[float, float], f0: float, turn: float,
              polygons: Sequence[np.ndarray] = (),
              circles: Sequence[tuple[float, float, float]] = (),
              bounds: tuple[float, float, float, float] | None = None, *, tol: float = 1e-6
              ) -> tuple[list[int], list[int], bool]:
    """What a footprint turning in place from ``f0`` by ``turn`` degrees (signed) runs into.

    ``foot`` are its convex pieces in its own frame (facing 0); ``polygons`` are obstacle
    rings (any simple polygons), ``circles`` ``(x, y, r)``; ``bounds`` the battlefield
    ``(x0, y0, x1, y1)`` the footprint must stay inside. Contact is allowed: obstacles are
    shrunk by ``tol`` (the rules tolerance) first.

    Exact for polygons and circles: a turning footprint first meets a polygon when one of its
    vertices, moving along a circular arc, crosses an edge, or a vertex of the polygon (turning
    the other way in the footprint's frame) crosses one of its edges; it first meets a circle
    when a vertex's arc crosses the circle or the circle's centre crosses an edge moved out by
    the radius; it leaves the battlefield when a vertex's arc does. An overlap at ``f0``
    counts too.

    Returns the indices of the polygons and of the circles it meets, and whether it leaves
    ``bounds``.
    """
    return _turn_hits(_Turning(foot, centre, f0, turn), polygons, circles, bounds, tol)


def _turn_hits(t: _Turning, polygons: Sequence[np.ndarray],
               circles: Sequence[tuple[float, float, float]],
               bounds: tuple[float, float, float, float] | None, tol: float
               ) -> tuple[list[int], list[int], bool]:
    """:func:`turn_hits` of the turning footprint ``t``."""
    cx, cy = float(t.c[0]), float(t.c[1])
    hit_polys: list[int] = []
    for k, ring in enumerate(polygons):
        poly = Polygon(ring)
        if poly.distance(shapely.Point(cx, cy)) > t.reach + tol:
            continue
        got = thin_edges(ring, tol, poly)
        if got is None:
            continue
        _, thin, op, oq = got
        if any(fpoly.intersects(thin) for fpoly in t.foot_polys) or t.meets_edges(op, oq, tol):
            hit_polys.append(k)
    hit_circles: list[int] = []
    for k, (ox, oy, orad) in enumerate(circles):
        r = float(orad) - tol
        o = np.array([float(ox), float(oy)])
        dist_c = float(np.hypot(*(o - t.c)))
        if dist_c > t.reach + r:
            continue
        if r <= 0:
            continue
        if any(fpoly.distance(shapely.Point(o)) < r for fpoly in t.foot_polys):
            hit_circles.append(k)
            continue
        if _arcs_cross_circles(t.c, t.rho, t.beta, t.tr, o[None, :], np.array([r])).any():
            hit_circles.append(k)
            continue
        # the circle's centre against the footprint's edges moved out by its radius
        e = t.fp_q - t.fp_p
        ln = np.hypot(e[:, 0], e[:, 1])
        okk = ln > 1e-15
        nrm = np.column_stack([e[okk, 1], -e[okk, 0]]) / ln[okk, None]
        # outward normals: every piece is counter-clockwise
        sp, sq = t.fp_p[okk] + r * nrm, t.fp_q[okk] + r * nrm
        ob = math.atan2(o[1] - cy, o[0] - cx)
        if _arcs_cross_segments(t.c, np.array([dist_c]), np.array([ob]), -t.tr, sp, sq).any():
            hit_circles.append(k)
    leaves = False
    if bounds is not None:
        x0, y0, x1, y1 = bounds
        lo_x, hi_x, lo_y, hi_y = _arc_extents(t.rho, t.beta, t.tr)
        leaves = bool((cx + lo_x < x0 - tol).any() or (cx + hi_x > x1 + tol).any()
                      or (cy + lo_y < y0 - tol).any() or (cy + hi_y > y1 + tol).any())
    return hit_polys, hit_circles, leaves


def turn_meets(foot: Sequence[np.ndarray], centre: tuple[float, float], f0: float, turn: float,
               thin: Sequence[tuple[Polygon, BaseGeometry, np.ndarray, np.ndarray]] = (),
               circles: Sequence[tuple[float, float, float]] = (),
               bounds: tuple[float, float, float, float] | None = None, *, tol: float = 1e-6
               ) -> bool:
    """Whether :func:`turn_hits` finds anything, the obstacle polygons given as
    :func:`thin_edges` of each (made once for many turns) and tested all at once: an overlap
    at ``f0`` with any, then the arcs against all their edges together (each test of
    :func:`turn_hits`, over every polygon: the same answer)."""
    t = _Turning(foot, centre, f0, turn)
    if thin:
        polys = np.array([g[0] for g in thin], dtype=object)
        near = shapely.distance(polys, shapely.Point(float(t.c[0]), float(t.c[1]))) \
            <= t.reach + tol
        kept = [g for g, k in zip(thin, near.tolist(), strict=True) if k]
        if kept:
            thins = np.array([g[1] for g in kept], dtype=object)
            if shapely.intersects(np.array(t.foot_polys, dtype=object)[:, None],
                                  thins[None, :]).any():
                return True
            if t.meets_edges(np.concatenate([g[2] for g in kept]),
                             np.concatenate([g[3] for g in kept]), tol):
                return True
    _, hit_circles, leaves = _turn_hits(t, (), circles, bounds, tol)
    return bool(hit_circles or leaves)


def _arc_extents(rho: np.ndarray, beta: np.ndarray, turn: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Smallest and largest x and y offsets of arcs about the origin (radii ``rho`` from
    angles ``beta`` turning by ``turn``)."""
    end = beta + turn
    xs = np.stack([rho * np.cos(beta), rho * np.cos(end)])
    ys = np.stack([rho * np.sin(beta), rho * np.sin(end)])
    lo_x, hi_x = xs.min(axis=0), xs.max(axis=0)
    lo_y, hi_y = ys.min(axis=0), ys.max(axis=0)
    t = np.full_like(beta, turn)
    for ang, which in ((0.0, "hx"), (math.pi, "lx"), (0.5 * math.pi, "hy"), (1.5 * math.pi, "ly")):
        inside = _in_arc(np.full_like(beta, ang), beta, t)
        if which == "hx":
            hi_x = np.where(inside, rho, hi_x)
        elif which == "lx":
            lo_x = np.where(inside, -rho, lo_x)
        elif which == "hy":
            hi_y = np.where(inside, rho, hi_y)
        else:
            lo_y = np.where(inside, -rho, lo_y)
    return lo_x, hi_x, lo_y, hi_y

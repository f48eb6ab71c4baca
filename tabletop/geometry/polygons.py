"""Polygon tools of the zone engine: convex pieces, rings as arrays, polygons from arrays in
one call, clipping for cheap overlays.

Pure helpers with no notion of a mover: :mod:`tabletop.geometry.minkowski` grows what these
cut, :mod:`tabletop.geometry.visibility` and :mod:`tabletop.geometry.wedges` build their
polygons with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from types import ModuleType

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.engine import core

__all__ = [
    "Outline",
    "ccw",
    "clipped",
    "convex_pieces",
    "flat_triangles",
    "merge_convex",
    "merge_convex_native",
    "norm",
    "outline_of",
    "polygonal",
    "ring_of",
    "ring_polygons",
    "segments",
    "sized_polygons",
]


class Outline(tuple[tuple[float, float], ...]):
    """A polygon's exterior as a tuple of points that computes its hash once.

    A plain tuple hashes every vertex each time it is hashed; the zone engine's per-phase
    caches are keyed by the terrain's outlines and the models', so every pick-up on a new game
    state (after each move) hashed them all again, and compared them. An outline made once (a
    piece's, a placed model's) is the same object in the next key: its hash is kept and the
    comparison stops at its identity. Equal to, and hashed as, the plain tuple of its points."""

    _hash: int

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            self._hash = tuple.__hash__(self)
            return self._hash


def outline_of(shape: BaseGeometry) -> Outline:
    """A polygon's exterior as a tuple of points (no repeated first point)."""
    xy = shapely.get_coordinates(shape.exterior)[:-1]  # type: ignore[attr-defined]
    return Outline(map(tuple, xy.tolist()))


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
        cut = shapely.get_parts(shapely.constrained_delaunay_triangles(p))
        cut = cut[shapely.area(cut) > 0]
        xy = shapely.get_coordinates(cut).reshape(len(cut), 4, 2)[:, :3]
        tris = cut.tolist()
        by_edges = not flat_triangles(xy).any()
        mod = core()
        merged = (merge_convex_native(mod, tris, xy) if by_edges and mod is not None
                  else merge_convex(tris, by_edges=by_edges))
        # the pieces must make up the polygon; if merging lost any of it, the triangles do
        whole = abs(sum(q.area for q in merged) - p.area) <= 1e-9 * max(1.0, p.area)
        # (a merge of a sliver of no area can leave an empty collection: it covers nothing)
        out.extend(q for q in (merged if whole else tris) if q.geom_type == "Polygon"
                   and q.area > 0)
    return out


def merge_convex_native(mod: ModuleType, tris: list[Polygon], xy: np.ndarray
                        ) -> list[Polygon]:
    """:func:`merge_convex` by edges in the compiled core (``merge_triangles``): the same
    merges and the same pieces bit for bit (a merged piece is its hull, normalised as GEOS
    normalises it), without a Python dictionary or a GEOS overlay a pair. Where the core
    refuses (past its limits), :func:`merge_convex` answers. ``xy``: the triangles'
    vertices, (n, 3, 2)."""
    try:
        which, coords, sizes = mod.merge_triangles(np.ascontiguousarray(xy).reshape(-1, 2))
    except mod.NativeError:
        return merge_convex(tris, by_edges=True)
    # (shapely's linearrings closes each ring)
    hulls = iter(sized_polygons(coords, sizes).tolist() if len(sizes) else ())
    return [tris[k] if k >= 0 else next(hulls) for k in which.tolist()]


def merge_convex(parts: list[Polygon], *, by_edges: bool = False) -> list[Polygon]:
    """Greedily merge neighbouring convex pieces while their union stays convex.

    Fewer pieces mean fewer corners and shadows (an L-shaped wall becomes two rectangles
    instead of four triangles); the union of the pieces is unchanged.

    The merges are those of scanning the pairs ``(i, j)``, ``i < j``, in order and merging the
    first that can be merged, again and again until none can. A pair that cannot be merged
    never can later (the test depends on its two pieces only), so each pair is tested once, and
    after a merge into ``i`` the only new pairs before ``(i, i + 1)`` are those of the new
    piece: the scan goes on from the first earlier piece that merges with it, else from ``i``.

    ``by_edges``: the pieces are the triangles of a triangulation in which every edge inside
    the polygon is a whole edge of the two triangles on either side (no vertex inside another
    triangle's edge). Two pieces made of them then meet along a stretch of boundary only where
    they share a whole edge, the same two vertices, and only such pairs are handed to GEOS's
    overlays (:func:`_merged`): the same merges, without the overlays of the many pairs whose
    boxes meet but whose pieces do not (the pieces' edges are kept with the vertices the
    merged hulls leave out on a straight side).
    """
    parts = list(parts)
    ids = list(range(len(parts)))  # a piece's identity: a new one for each merged piece
    fresh = len(parts)
    boxes = [p.bounds for p in parts]
    failed: set[tuple[int, int]] = set()
    # by_edges: each piece's ring (each vertex's next), the piece each edge is of, each
    # piece's neighbours
    rings = {k: _ring_map(p) for k, p in enumerate(parts)} if by_edges else {}
    owner = {e: k for k, r in rings.items() for e in r.items()}
    nbrs = {k: {owner[v, u] for u, v in r.items() if (v, u) in owner}
            for k, r in rings.items()}

    def merged(a: int, b: int) -> Polygon | None:
        key = (ids[a], ids[b])
        if key in failed:
            return None
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
        # (boxes apart: no shared edge nor point, the first test of _merged)
        hull = None
        if ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1 and (
                not by_edges or (key[1] in nbrs[key[0]] and not _turns_right(
                    rings[key[0]], rings[key[1]],
                    (min(ax0, bx0), min(ay0, by0), max(ax1, bx1), max(ay1, by1))))):
            hull = _merged(parts[a], parts[b])
        if hull is None:
            failed.add(key)
        return hull

    def merge(a: int, b: int, hull: Polygon) -> None:
        nonlocal fresh
        if by_edges:
            # the union's ring: both rings but the edges they share
            ka, kb = ids[a], ids[b]
            ra, rb = rings.pop(ka), rings.pop(kb)
            ring = {u: v for u, v in ra.items() if rb.get(v) != u}
            ring.update((u, v) for u, v in rb.items() if ra.get(v) != u)
            for u, v in ra.items():
                if rb.get(v) == u:
                    del owner[u, v], owner[v, u]
            rings[fresh] = ring
            owner.update(dict.fromkeys(ring.items(), fresh))
            around = nbrs[fresh] = (nbrs.pop(ka) | nbrs.pop(kb)) - {ka, kb}
            for k in around:
                nbrs[k] -= {ka, kb}
                nbrs[k].add(fresh)
        parts[a], ids[a], boxes[a] = hull, fresh, hull.bounds
        fresh += 1
        del parts[b], ids[b], boxes[b]

    def first(pairs: Iterable[tuple[int, int]]) -> tuple[int, int, Polygon] | None:
        for a, b in pairs:
            hull = merged(a, b)
            if hull is not None:
                return a, b, hull
        return None

    def others(i: int, lo: int, hi: int) -> Iterable[int]:
        # the pieces in lo..hi - 1 that could merge with piece i, in order
        if not by_edges:
            return range(lo, hi)
        return sorted(j for j in (ids.index(k) for k in nbrs[ids[i]]) if lo <= j < hi)

    i = 0
    while i < len(parts) - 1:
        found = first((i, j) for j in others(i, i + 1, len(parts)))
        if found is None:
            i += 1
            continue
        while found is not None:
            a, b, hull = found
            merge(a, b, hull)
            i = a
            # the new pairs before (i, i + 1): those of the new piece
            found = first((e, i) for e in others(i, 0, i))
    return parts


Point = tuple[float, float]


def flat_triangles(xy: np.ndarray) -> np.ndarray:
    """Whether each triangle of ``xy`` ((n, 3, 2) vertices) is flat within rounding: one of
    its vertices may lie on the edge of another triangle (a triangulation's triangles then meet
    along parts of edges, as a triangle of no area dropped leaves them)."""
    a, b, c = xy[:, 0], xy[:, 1], xy[:, 2]
    ab, bc, ca = b - a, c - b, a - c
    longest = np.maximum(np.maximum((ab * ab).sum(axis=1), (bc * bc).sum(axis=1)),
                         (ca * ca).sum(axis=1))
    cross = ab[:, 0] * (c[:, 1] - a[:, 1]) - ab[:, 1] * (c[:, 0] - a[:, 0])
    return np.abs(cross) <= 1e-9 * longest


def _ring_map(p: Polygon) -> dict[Point, Point]:
    """A piece's exterior ring as each vertex's next, counter-clockwise."""
    ring = list(p.exterior.coords)[:-1]
    twice = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1],
                                                                  strict=True))
    if twice < 0:
        ring.reverse()
    return dict(zip(ring, ring[1:] + ring[:1], strict=True))


def _turns_right(a: dict[Point, Point], b: dict[Point, Point],
                 box: tuple[float, float, float, float]) -> bool:
    """Whether the union of two neighbouring convex pieces (:func:`_ring_map`, their insides
    apart, within ``box``) surely turns right where their rings join, by more than rounding:
    it is not convex, by more than :func:`_merged` allows. (Where it turns right at a vertex
    ``v`` from ``u`` to ``w``, the triangle ``u v w`` lies outside both pieces, each on the
    inner side of its edge's line, and inside their hull: the hull is larger than the union by
    that triangle's area, half the cross product.)"""
    x0, y0, x1, y1 = box
    big = max(abs(x0), abs(x1), abs(y0), abs(y1))
    slack = 2e-9 * max(1.0, (x1 - x0) * (y1 - y0)) + 1e-12 * big * big
    a_into = {v: u for u, v in a.items()}
    b_into = {v: u for u, v in b.items()}
    for p, q in a.items():
        if b.get(q) != p:
            continue
        # an edge p -> q of a, q -> p of b: the union's ring may come into p along a and go
        # on along b, and come into q along b and go on along a
        for u, v, w in ((a_into[p], p, b[p]), (b_into[q], q, a[q])):
            if a.get(w) == v or b.get(w) == v or a.get(v) == u or b.get(v) == u:
                continue  # (an edge shared too: v is inside the shared stretch)
            if (v[0] - u[0]) * (w[1] - v[1]) - (v[1] - u[1]) * (w[0] - v[0]) < -slack:
                return True
    return False


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


def ring_of(poly: Polygon) -> np.ndarray:
    c = np.asarray(poly.exterior.coords)[:-1]
    # drop repeated vertices
    keep = np.ones(len(c), bool)
    keep[1:] = np.any(np.abs(np.diff(c, axis=0)) > 1e-12, axis=1)
    return ccw(c[keep])


def norm(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``hypot(x, y)`` for moderate values (inches): several times faster than ``np.hypot``."""
    return np.sqrt(x * x + y * y)


def segments(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return shapely.linestrings(np.stack([a, b], axis=1))


def sized_polygons(coords: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Polygons from consecutive runs of ``sizes`` rows of ``coords``."""
    return shapely.polygons(shapely.linearrings(
        coords, indices=np.repeat(np.arange(len(sizes)), sizes)))


def ring_polygons(rings: Sequence[np.ndarray]) -> np.ndarray:
    """One polygon per ring (an array of vertices), in one array call."""
    if not len(rings):
        return np.zeros(0, dtype=object)
    return sized_polygons(np.concatenate(rings), np.array([len(r) for r in rings]))


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


def polygonal(g: BaseGeometry) -> BaseGeometry:
    """Keep the polygons of ``g`` (drop stray lines and points of overlays)."""
    if g.is_empty:
        return Polygon()
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = [p for p in shapely.get_parts(g) if p.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(parts) if parts else Polygon()

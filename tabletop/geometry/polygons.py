"""Polygon tools of the zone engine: convex pieces, rings as arrays, polygons from arrays in
one call, clipping for cheap overlays.

Pure helpers with no notion of a mover: :mod:`tabletop.geometry.minkowski` grows what these
cut, :mod:`tabletop.geometry.visibility` and :mod:`tabletop.geometry.wedges` build their
polygons with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

__all__ = [
    "ccw",
    "clipped",
    "convex_pieces",
    "norm",
    "polygonal",
    "ring_of",
    "ring_polygons",
    "segments",
    "sized_polygons",
]


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

"""Minkowski sums with a disk, never smaller than the exact sum.

:func:`conservative_buffer` moves shapely's chords out; :func:`disk_sum` grows a polygon piece
by piece with straight edges exactly at the distance (:func:`offset_convex`), and
:func:`offset_pieces` grows convex rings for a caller that unions many at once. (The sums of
two polygons are :func:`tabletop.geometry.cspace.convex_sum`.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.polygons import ccw, convex_pieces, ring_of, ring_polygons

__all__ = [
    "BUFFER_QUAD_SEGS",
    "conservative_buffer",
    "disk_sum",
    "disk_sum_pieces",
    "offset_convex",
    "offset_pieces",
]

BUFFER_QUAD_SEGS = 8
"""``quad_segs`` of the conservative buffer of polygon obstacles."""


def conservative_buffer(geom: BaseGeometry, distance: float, *,
                        quad_segs: int = BUFFER_QUAD_SEGS) -> BaseGeometry:
    """Buffer ``geom`` by ``distance`` so that the result contains the exact buffer.

    shapely puts the arc vertices on the circle, so its chords cut inside. GEOS rounds the
    number of segments of a corner to the nearest, so a corner's segments each turn up to 1.5
    times the quarter turn's ``pi / (2 quad_segs)``: buffering by ``distance / cos(3 pi / (8
    quad_segs))`` moves every chord out to at least ``distance`` (by ``cos(pi / (4
    quad_segs))``, as before, a chord of a corner turning 1.5 steps reached up to 0.15 % of
    the distance inside at 16 segments). The excess is at most ``distance * (1 / cos(3 pi /
    (8 quad_segs)) - 1)``.
    """
    if distance <= 0:
        return geom
    return geom.buffer(distance / math.cos(3 * math.pi / (8 * quad_segs)), quad_segs=quad_segs)


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
    return offset_pieces([ring_of(p) for p in convex_pieces(geom)], distance,
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

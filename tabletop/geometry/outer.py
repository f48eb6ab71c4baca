"""Reach that is never smaller than the true one: the geometry of threat ranges.

A legal zone must never show a point a model cannot reach, so the zone engine errs inwards
(obstacles drawn a little larger, arcs inscribed). A threat range must never leave out a point an
enemy can reach, so everything here errs outwards, by bounded amounts:

*Free space* (:func:`outer_map`)
    A :class:`~tabletop.geometry.visibility.ReachMap` built with the mover's radius and every
    round obstacle's radius multiplied by :data:`INSCRIBE` (``cos(pi / 32)``): the map's
    32-gon about an inflated circle then has its vertices *on* the true circle (inscribed, not
    circumscribed), and a polygon grown by the smaller radius has its corner vertices on the true
    rounded corners and its straight edges ``r (1 - INSCRIBE)`` (0.5 % of ``r``) inside the true
    ones. Every obstacle of the map lies inside the true obstacle and the map's box contains the
    true one, so the map's free space contains the true free space: a gap the base passes is
    open in the map, and a map path is never longer than the true one.
*Regions* (:func:`reach_from_points`, :func:`reach_from_region`)
    The engine's geodesic disks have inscribed arcs (chord sag at most
    :data:`~tabletop.geometry.wedges.ARC_TOLERANCE`) and exact shadows, so a disk asked for
    ``D + ARC_TOLERANCE`` contains the true disk of radius ``D`` of its map.
*Sources on a region's boundary* (:func:`reach_from_region`)
    The points within geodesic distance ``D`` of a region ``Z`` are reached by paths that leave
    ``Z`` through its boundary. Points are sampled along every ring of ``Z`` at most
    ``spacing`` apart (and at its corners); every boundary point lies within ``spacing / 2`` of a
    sample *along the ring*, which is a free path, so the disk of radius ``D + spacing / 2``
    about the samples contains every point within ``D`` of ``Z`` (and nothing farther than
    ``D + spacing / 2`` from it).
*Growth* (:func:`grow`)
    Buffers whose chords are moved out (:func:`~tabletop.geometry.minkowski.conservative_buffer`).

No ruleset is read here: what blocks a path, where a move may not end and how far, arrive as
arguments (the threat ranges of wh40k-11e build them, :mod:`tabletop.rulesets.wh40k_11e.threat`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry.footprints import Footprint, Oval, Round
from tabletop.geometry.minkowski import conservative_buffer
from tabletop.geometry.polygons import polygonal
from tabletop.geometry.visibility import CIRCLE_SEGMENTS, ReachMap
from tabletop.geometry.wedges import ARC_TOLERANCE

__all__ = [
    "CORNER",
    "GROW_TOLERANCE",
    "INSCRIBE",
    "SLACK",
    "boundary_samples",
    "grow",
    "inner_radius",
    "inscribed_footprint",
    "outer_map",
    "reach_from_points",
    "reach_from_region",
    "sharp_corners",
]

INSCRIBE = math.cos(math.pi / CIRCLE_SEGMENTS)
"""Factor on the radii of an outer map (module docstring): 0.99518."""
SLACK = ARC_TOLERANCE
"""Added to every disk's radius so that its inscribed arcs enclose the true reach, inches."""
CORNER = 5.0
"""Boundary vertices turning by more than this (degrees) are samples too."""
INSCRIBED_SEGMENTS = 64
"""Vertices of the inscribed polygon of a round or oval outline (:func:`inscribed_footprint`)."""


def inner_radius(fp: Footprint) -> float:
    """The radius of the largest disc about the footprint's centre that lies inside it: a round
    base's radius, half an oval's width, the distance from a hull's centre to its outline (0
    when the centre lies outside it). Wherever the footprint goes, this disc goes too."""
    if isinstance(fp, Round):
        return float(fp.radius)
    poly = fp.local_polygon()
    centre = Point(0.0, 0.0)
    if not poly.contains(centre):
        return 0.0
    d = float(centre.distance(poly.exterior))
    if isinstance(fp, Oval):
        # the polygon is circumscribed: the oval's own half width is the exact answer
        d = min(d, min(fp.length_mm, fp.width_mm) / 25.4 / 2.0)
    return d


def inscribed_footprint(fp: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """The footprint placed at ``at`` and ``facing`` as a polygon inside the true outline (a
    round or oval base's polygon with its vertices on the outline; a rectangle or hull as it
    is)."""
    n = INSCRIBED_SEGMENTS
    if isinstance(fp, Round | Oval):
        poly = fp.placed(at[0], at[1], facing, segments=n)
        k = math.cos(math.pi / n)
        return affinity.scale(poly, k, k, origin=(at[0], at[1]))
    return fp.placed(at[0], at[1], facing)


@lru_cache(maxsize=16)
def outer_map(width: float, height: float, radius: float,
              circles: tuple[tuple[float, float, float], ...],
              polygons: tuple[tuple[tuple[float, float], ...], ...]) -> ReachMap:
    """A reach map for a round mover of ``radius`` whose free space contains the true one
    (module docstring): round obstacles ``(x, y, radius)`` and polygons as given (a polygon that
    stands for a round or oval outline should be inscribed in it, :func:`inscribed_footprint`).
    Cached by its inputs."""
    k = INSCRIBE
    return ReachMap(width, height, radius * k, [(x, y, re * k) for x, y, re in circles],
                    polygons)


def _free(rm: ReachMap, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pts`` moved out of the map's pieces where they stand a hair inside one (the rounding of
    an overlay), with the distance each was moved: the search drops a source inside a piece."""
    moved = np.zeros(len(pts))
    if not len(pts) or not len(rm.pieces):
        return pts, moved
    inside = shapely.intersects_xy(rm.eroded_union(), pts[:, 0], pts[:, 1])
    if not inside.any():
        return pts, moved
    pts = pts.copy()
    edge = rm.union().boundary
    for i in np.nonzero(inside)[0]:
        near = nearest_points(edge, Point(pts[i]))[0]
        moved[i] = math.dist((near.x, near.y), pts[i])
        pts[i] = (near.x, near.y)
    return pts, moved


def reach_from_points(rm: ReachMap, points: Sequence[tuple[float, float]], distance: float, *,
                      offsets: Sequence[float] | None = None, exclude: BaseGeometry | None = None,
                      exclude_key: object = None) -> BaseGeometry:
    """Every point of the map within geodesic ``distance`` of one of ``points`` (less its own
    offset, default 0: a point reached already), minus ``exclude``; never smaller than the true
    set of ``rm``, larger by at most :data:`SLACK` (plus how far a point standing a hair inside
    a piece was moved out).

    A point standing deep inside a piece starts no path (nothing leaves it)."""
    if not len(points) or distance < 0:
        return Polygon()
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    off = np.zeros(len(pts)) if offsets is None else np.asarray(offsets, dtype=float)
    pts, moved = _free(rm, pts)
    off = off - moved
    keep = off < distance
    if not keep.any():
        return Polygon()
    pts, off = pts[keep], off[keep]
    first = int(np.argmin(off))
    rest = [(float(x), float(y), float(o)) for i, ((x, y), o) in enumerate(zip(
        pts.tolist(), off.tolist(), strict=True)) if i != first]
    disk = rm.disk((float(pts[first, 0]), float(pts[first, 1])), float(distance) + SLACK,
                   sources=rest, start=float(off[first]))
    return polygonal(disk.region(exclude, exclude_key))


def sharp_corners(ring: BaseGeometry, cos_corner: float, *, convex: bool = False
                  ) -> np.ndarray:
    """The vertices of ``ring`` where it turns by more than the angle whose cosine is
    ``cos_corner`` (an ``(n, 2)`` array); with ``convex``, only those turning left (the convex
    corners of a region on the ring's left, as :func:`shapely.orient_polygons` makes exteriors)."""
    c = shapely.get_coordinates(ring)[:-1]
    if len(c) < 3:
        return np.zeros((0, 2))
    a = c - np.roll(c, 1, axis=0)
    b = np.roll(c, -1, axis=0) - c
    na, nb = np.hypot(*a.T), np.hypot(*b.T)
    ok = (na > 0) & (nb > 0)
    cos = np.einsum("ij,ij->i", a, b) / np.where(ok, na * nb, 1.0)
    keep = ok & (cos < cos_corner)
    if convex:
        keep &= a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0] > 0  # the region on the left
    return c[keep]


def boundary_samples(region: BaseGeometry, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Points on every ring of ``region`` at most ``spacing`` apart along it, each with how far
    along the ring the boundary points it stands for lie (``spacing / 2``), and the convex
    corners of the region that turn by more than :data:`CORNER` degrees (0: a corner stands for
    itself; a reflex corner is never where a shortest path leaves a region)."""
    pts: list[np.ndarray] = []
    cover: list[np.ndarray] = []
    cos_corner = math.cos(math.radians(CORNER))
    oriented = shapely.orient_polygons(region, exterior_cw=False)
    for ring in shapely.get_rings(shapely.get_parts(oriented)):
        length = float(ring.length)
        n = max(math.ceil(length / spacing), 3)
        pts.append(shapely.get_coordinates(shapely.line_interpolate_point(
            ring, np.linspace(0.0, length, n, endpoint=False))))
        cover.append(np.full(n, length / n / 2.0))
        corner = sharp_corners(ring, cos_corner, convex=True)
        pts.append(corner)
        cover.append(np.zeros(len(corner)))
    if not pts:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(pts), np.concatenate(cover)


def reach_from_region(rm: ReachMap, region: BaseGeometry, distance: float, spacing: float,
                      samples: tuple[np.ndarray, np.ndarray] | None = None,
                      within: BaseGeometry | None = None) -> BaseGeometry:
    """Every point of the map within geodesic ``distance`` of ``region`` (the region itself
    left out), never smaller: the disks of radius ``distance + spacing / 2`` about
    :func:`boundary_samples` (module docstring), so at most ``spacing / 2 + SLACK`` larger in
    distance. ``region`` must lie in the map's free space (its boundary may touch the pieces).
    ``samples``: :func:`boundary_samples` of ``region`` and ``spacing``, computed already;
    ``within``: only that part of the answer is needed (a sample farther than ``distance``
    plus its cover from it is left out)."""
    if region.is_empty:
        return Polygon()
    pts, cover = boundary_samples(region, spacing) if samples is None else samples
    if within is not None:
        if within.is_empty:
            return Polygon()
        keep = shapely.dwithin(within, shapely.points(pts), distance + cover + SLACK)
        pts, cover = pts[keep], cover[keep]
    return reach_from_points(rm, [tuple(p) for p in pts.tolist()], distance,
                             offsets=(-cover).tolist())


GROW_TOLERANCE = 0.005
"""Most a grown region's vertices lie outside the exact Minkowski sum, inches."""


def grow(region: BaseGeometry, distance: float, tolerance: float = GROW_TOLERANCE
         ) -> BaseGeometry:
    """``region`` grown by ``distance`` (Minkowski sum with a disk), never smaller; its
    vertices lie at most ``tolerance`` outside the exact sum (the arcs' chords are moved out)."""
    if region.is_empty:
        return Polygon()
    if distance <= 0:
        return region
    # the buffer grows by distance / cos(theta), theta = 3 pi / (8 quad_segs) (a corner's
    # segment turns up to 1.5 quarter-turn steps), its vertices that far out: theta for
    # tolerance
    theta = math.acos(1.0 / (1.0 + tolerance / distance))
    quad_segs = max(2, math.ceil(3.0 * math.pi / (8.0 * theta)))
    return polygonal(conservative_buffer(region, distance, quad_segs=quad_segs))

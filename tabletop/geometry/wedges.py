"""The region of a geodesic disk: wedges about the reached corners, clipped to what they see.

One wedge per reached corner ``v``, a sector of radius ``D - d(v)`` between the continuation of
``parent -> v`` and the obstacle edge at ``v`` (each source gets the full disk), each clipped
by the shadows of the pieces it meets (the region behind a convex piece seen from the wedge's
apex: the convex hull of the piece and far points on the rays through it). The wedges' arcs
are **inscribed** polygons (chord sag at most :data:`ARC_TOLERANCE`), so the region never
exceeds the true geodesic disk. The union of the clipped wedges, cut to the box, is the
geodesic disk (the union-of-circular-visibility-regions description of J. Wang, arXiv
1210.7638).

Two shortcuts leave the result unchanged: a run of unshadowed wedges wrapping one piece is one
polygon (consecutive wedges meet exactly on the ray through the next corner), and wedges or
shadows lying wholly inside the caller's excluded set (the end rules) are dropped before the
overlays.

When the start lies in no piece (the usual case), the clipped wedges are built without
overlays: :func:`~tabletop.geometry.rays.visible_outlines` casts rays from each apex to the
first edge of the obstacles' outline; the wedges of every run then merge into one polygon, and
only the final union is an overlay.

:func:`build_region` is the entry point (:meth:`tabletop.geometry.geodesic.GeodesicDisk.region`
calls it and caches its answer).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry import engine
from tabletop.geometry.polygons import clipped, norm, polygonal, sized_polygons
from tabletop.geometry.rays import visible_outlines

if TYPE_CHECKING:
    from tabletop.geometry.geodesic import GeodesicDisk

__all__ = [
    "ARC_TOLERANCE",
    "SHADOW_SLOTS",
    "Wedges",
    "build_region",
    "held_sources",
    "kept_polygons",
    "native_layer_region",
    "native_layer_regions",
    "native_polygons",
    "native_search_region",
    "native_union",
    "ragged_polygons",
    "region_row",
    "wedges_of",
    "whole_region",
]

ARC_TOLERANCE = 0.002
"""Largest chord sag of the inscribed arcs of the wedges, inches."""
SHADOW_SLOTS = 9
"""Far points per shadow (angular step at most pi / 8)."""


@dataclass
class Wedges:
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

    def take(self, keep: np.ndarray) -> Wedges:
        """The wedges selected by ``keep`` (a mask or indices)."""
        return Wedges(self.apex[keep], self.radius[keep], self.start[keep], self.sweep[keep],
                       self.own[keep], self.query[keep], self.node[keep])


def _reach_cap(disk: GeodesicDisk, apex: np.ndarray) -> np.ndarray:
    """The largest radius a disk about each of ``apex`` needs on the map's box: the
    farthest corner of the box, and twice :data:`ARC_TOLERANCE` more, so that even the
    chords of its inscribed arcs pass outside the box. A wedge cut to it is the same
    inside the box (and the region is cut to the box): a move of 1,000,000" was a
    polygon of 50,000 points per disk."""
    x0, y0, x1, y1 = disk.rm.box
    fx = np.maximum(np.abs(apex[:, 0] - x0), np.abs(apex[:, 0] - x1))
    fy = np.maximum(np.abs(apex[:, 1] - y0), np.abs(apex[:, 1] - y1))
    return np.sqrt(fx * fx + fy * fy) + 2.0 * ARC_TOLERANCE


def held_sources(disk: GeodesicDisk) -> np.ndarray:
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
    ns = disk.n_sources
    out = np.zeros(ns, bool)
    if ns < 2:
        return out
    through = np.zeros(len(disk.nodes), bool)
    through[disk.parent[disk.parent >= 0]] = True
    rows = np.nonzero(~through[1:ns])[0] + 1
    if not len(rows):
        return out
    margin = 2.0 * ARC_TOLERANCE
    # each source tries the few nodes nearest by ``d_u + |us|`` that beat it by the margin
    tries = 4
    # (in chunks of about 2 million pairs)
    for chunk in np.array_split(rows, len(rows) * len(disk.nodes) // 2_000_000 + 1):
        if not len(chunk):
            continue
        pts = disk.nodes[chunk]
        dd = disk.dist[None, :] + norm(pts[:, None, 0] - disk.nodes[None, :, 0],
                                        pts[:, None, 1] - disk.nodes[None, :, 1])
        dd[np.arange(len(chunk)), chunk] = np.inf
        k = min(tries, dd.shape[1])
        cand = np.argpartition(dd, k - 1, axis=1)[:, :k] if k < dd.shape[1] else \
            np.broadcast_to(np.arange(dd.shape[1]), dd.shape)
        cd = np.take_along_axis(dd, cand, axis=1)
        si, ci = np.nonzero(cd < disk.dist[chunk][:, None] - margin)
        if not len(si):
            continue
        free = ~disk.rm.blocked(disk.nodes[cand[si, ci]], pts[si], disk.cut)
        out[chunk[np.unique(si[free])]] = True
    return out


def wedges_of(disk: GeodesicDisk, slack: np.ndarray | None, ahead: bool = False,
              outer: bool = False) -> tuple[Wedges, np.ndarray, np.ndarray]:
    """The start's disk and one wedge per reached corner, with their outlines.

    A wedge turns from the continuation of ``parent -> v`` towards the obstacle side
    (where ``v``'s ring neighbours lie) until the first obstacle edge at ``v``. With
    ``ahead``, an edge of ``v`` straight along the continuation ends the turn at once (no
    wedge: its turn would run through the piece, which the rays of
    :func:`~tabletop.geometry.rays.visible_outlines` must
    not see); otherwise such a wedge turns on to the other edge and relies on the
    shadows of the pieces.

    Returns the wedges and their outlines: the rows ``sizes[i]`` of ``coords`` after
    those of the wedges before ``i``. The outlines are inscribed (arcs with a sag of at
    most :data:`ARC_TOLERANCE`) or, with ``outer``, a few points around each sector (its
    arc by tangents turning at most pi / 4): enough to test whether a wedge lies in a set.
    """
    w0, outline0, n0 = _source_disks(disk, outer)
    turns = _corner_turns(disk, slack, ahead)
    if turns is None:
        return w0, outline0, n0
    k, v, rho, start, sweep = turns
    pts, size = _sector_outlines(v, rho, start, sweep, outer)
    wedges = Wedges(np.concatenate([w0.apex, v]), np.concatenate([w0.radius, rho]),
                    np.concatenate([w0.start, start]), np.concatenate([w0.sweep, sweep]),
                    np.concatenate([w0.own, disk.owner[k]]),
                    np.concatenate([w0.query, np.zeros(len(k), bool)]),
                    np.concatenate([w0.node, k]))
    return wedges, np.concatenate([outline0, pts]), np.concatenate([n0, size])


def _source_disks(disk: GeodesicDisk, outer: bool) -> tuple[Wedges, np.ndarray, np.ndarray]:
    """The sources' disks (the start first) as wedges, with their outlines (:func:`wedges_of`):
    full disks, no apex; a source whose disk the others' reach holds adds nothing."""
    src_rows = np.nonzero(~held_sources(disk))[0]
    ns = len(src_rows)
    srcp = disk.nodes[src_rows]
    srad = np.minimum(disk.distance - disk.dist[src_rows], _reach_cap(disk, srcp))
    if outer:
        # a source's disk is never tested: its outline is the square around it
        sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
        n0 = np.full(ns, 4, dtype=np.int64)
        outline0 = (srcp[:, None, :] + srad[:, None, None] * sq[None]).reshape(-1, 2)
    else:
        step0 = 2.0 * np.arccos(np.maximum(-1.0, 1.0 - ARC_TOLERANCE /
                                           np.maximum(srad, 1e-9)))
        n0 = np.maximum(3, np.ceil(2 * math.pi / step0)).astype(np.int64)
        wd = np.repeat(np.arange(ns), n0)
        jj = np.arange(len(wd)) - np.repeat(np.cumsum(n0) - n0, n0)
        ang0 = jj * (2 * math.pi / n0[wd])
        outline0 = np.column_stack([srcp[wd, 0] + srad[wd] * np.cos(ang0),
                                    srcp[wd, 1] + srad[wd] * np.sin(ang0)])
    return (Wedges(srcp.copy(), srad, np.zeros(ns), np.full(ns, 2 * math.pi),
                   np.full(ns, -1), np.ones(ns, bool), src_rows.astype(np.int64)),
            outline0, n0)


def _corner_turns(disk: GeodesicDisk, slack: np.ndarray | None, ahead: bool
                  ) -> tuple[np.ndarray, ...] | None:
    """The reached corners that cast a wedge and their wedges: node rows ``k``, apexes
    ``v``, radii, start angles and signed sweeps (``None``: no corner casts one).

    A corner whose disk lies in the excluded set (its radius at most ``slack``) casts none;
    ``ahead`` as in :func:`wedges_of`."""
    k = np.arange(disk.n_sources, len(disk.nodes))
    if not len(k):
        return None
    rho = disk.distance - disk.dist[k]
    ok = rho > 1e-9
    ci = disk.corner_index[k]
    if slack is not None:
        ok &= ~((ci >= 0) & (rho <= slack[np.maximum(ci, 0)]))
    v = disk.nodes[k]
    d = v - disk.nodes[disk.parent[k]]
    dn = norm(d[:, 0], d[:, 1])
    ok &= dn > 1e-12
    d = d / np.where(dn > 0, dn, 1.0)[:, None]
    e1, e2 = disk.prev[k] - v, disk.next[k] - v
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
        return None
    k, rho, v, d, side, sweep = k[ok], rho[ok], v[ok], d[ok], side[ok], sweep[ok]
    rho = np.minimum(rho, _reach_cap(disk, v))
    return k, v, rho, np.arctan2(d[:, 1], d[:, 0]), side * sweep


def _sector_outlines(v: np.ndarray, rho: np.ndarray, start: np.ndarray, sweep: np.ndarray,
                     outer: bool) -> tuple[np.ndarray, np.ndarray]:
    """The sectors' outlines, apex first (:func:`wedges_of`), and each one's size."""
    if outer:
        # apex, arc start, tangent corners at the middle of each step, arc end
        nseg = np.maximum(1, np.ceil(np.abs(sweep) / (0.25 * math.pi))).astype(np.int64)
        size = nseg + 3
        offs = np.concatenate([[0], np.cumsum(size)])
        w_of = np.repeat(np.arange(len(v)), size)
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
        w_of = np.repeat(np.arange(len(v)), size)
        j = np.arange(offs[-1]) - offs[w_of]
        ang = start[w_of] + sweep[w_of] * (np.maximum(j - 1, 0) / nseg[w_of])
        rr = np.where(j == 0, 0.0, rho[w_of])
    pts = np.empty((len(ang), 2))
    pts[:, 0] = v[w_of, 0] + rr * np.cos(ang)
    pts[:, 1] = v[w_of, 1] + rr * np.sin(ang)
    return pts, size


def _build_swept(disk: GeodesicDisk, exclude: BaseGeometry | None, exclude_key: object
                 ) -> BaseGeometry:
    """:meth:`_build` by casting rays (no shadow overlays); the start is in no piece."""
    rm = disk.rm
    with_slack = exclude is not None and exclude_key is not None and len(rm.corners) > 0
    core = engine.core()
    if core is not None:
        got = native_search_region(core, disk, exclude, exclude_key, rm.native_slack(
            core, exclude_key, exclude) if with_slack else None)
        if got is not None:
            return got[0]
    slack = rm.slack(exclude_key, exclude) if with_slack else None
    wedges, flat, sizes = wedges_of(disk, slack, ahead=True, outer=True)
    if exclude is not None and not exclude.is_empty and len(wedges) > 1:
        # wedges wholly inside the excluded set add nothing (the start's disk stays)
        keep = ~shapely.contains(exclude, sized_polygons(flat, sizes)) | wedges.query
        wedges = wedges.take(keep)
    if core is not None:
        return _native_swept(core, disk, wedges, exclude, exclude_key)
    coords, touching = visible_outlines(disk, wedges, ARC_TOLERANCE)
    merged, members = _chains(disk, wedges, coords, np.ones(len(wedges), bool)) \
        if len(wedges) > 1 else ([], np.zeros(0, dtype=np.int64))
    keepw = np.array([len(c) >= 3 for c in coords])
    if len(members):
        keepw[members] = False
    kept = [c for c, k in zip(coords, keepw.tolist(), strict=True) if k]
    if not kept and not merged:
        return Polygon()  # (a start stuck in a piece: no room)
    polys = sized_polygons(np.concatenate(kept), np.array([len(c) for c in kept])) if kept \
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
    return _finish(disk, raw, exclude)


Box = tuple[float, float, float, float]


def native_search_region(core: ModuleType, disk: GeodesicDisk, exclude: BaseGeometry | None,
                          exclude_key: object, slack: np.ndarray | None,
                          friends: object | None = None
                          ) -> tuple[BaseGeometry, Box | None] | None:
    """:func:`_build_swept` wholly in the compiled core, from the disk's search (done there or
    here): the wedges (the sources the rest holds left out), their stars, the union and the
    cut, as the core's pick-up builds a round mover's region (:mod:`tabletop.geometry.pickup`),
    then cut by ``friends`` (a clip set kept in the core, filled by the non-zero rule) where
    given; with the box of the region before the cuts (``None`` where it is empty). ``None``
    where the core refuses the map or the search (the caller builds the wedges)."""
    got = _search_region(core, disk, exclude, exclude_key, slack, friends, keep=False)
    if got is None:
        return None
    (coords, rings, polys), whole, _ = got
    return native_polygons(coords, rings, polys), whole


def _search_region(core: ModuleType, disk: GeodesicDisk, exclude: BaseGeometry | None,
                   exclude_key: object, slack: np.ndarray | None, friends: object | None,
                   keep: bool) -> tuple[Any, Box | None, object | None] | None:
    """The core's ``search_region`` of ``disk`` (``None``: refused), its box as floats."""
    try:
        args = _search_args(core, disk, exclude, exclude_key, slack, friends, None)
        ragged, whole, kept = core.search_region(*args[:11], keep,  # type: ignore[attr-defined]
                                                 args[11])
    except core.NativeError:  # type: ignore[attr-defined]
        return None
    return ragged, _box(whole), kept


def _search_args(core: ModuleType, disk: GeodesicDisk, exclude: BaseGeometry | None,
                 exclude_key: object, slack: np.ndarray | None, friends: object | None,
                 fixed: object | None) -> tuple[Any, ...]:
    """The core's ``search_region`` arguments of ``disk`` from the map to ``fixed``, ``keep``
    left out (a row of its ``search_regions``); raises the core's ``NativeError`` where it
    refuses the map or the excluded set."""
    rm = disk.rm
    mine = rm.native_core(core)
    ex = rm.native_exclude(core, exclude, exclude_key) if exclude is not None and \
        not exclude.is_empty else None
    return (mine, np.ascontiguousarray(disk.nodes, dtype=float),
            np.ascontiguousarray(disk.dist, dtype=float),
            np.ascontiguousarray(disk.parent, dtype=np.int64),
            np.ascontiguousarray(disk.corner_index, dtype=np.int64), int(disk.n_sources),
            float(disk.distance), int(disk.bends), ex,
            None if slack is None else np.ascontiguousarray(slack, dtype=float), friends, fixed)


def _box(whole: Any) -> Box | None:
    """A box from the core as floats (``None`` stays)."""
    return None if whole is None else \
        (float(whole[0]), float(whole[1]), float(whole[2]), float(whole[3]))


def native_layer_region(disk: GeodesicDisk, exclude: BaseGeometry | None, exclude_key: object,
                        friends: object | None, fixed: object | None = None
                        ) -> tuple[object, Box | None] | None:
    """The region of ``disk`` minus ``exclude`` (as :meth:`GeodesicDisk.region
    <tabletop.geometry.geodesic.GeodesicDisk.region>` builds it on the native engine) and
    minus ``friends`` and ``fixed`` where given (clip sets kept in the compiled core:
    :func:`~tabletop.zones.end.native_models_pieces`' sums,
    :func:`~tabletop.zones.end.native_models_union`'s union), cut in the core from the region
    it made (one overlay, the sums filled by the non-zero rule: no union of them, no GEOS
    overlay), and kept there (a ``PolySet`` for :func:`native_union`; no polygons of it
    in Python: :func:`kept_polygons` makes them); with the box of the region before the cuts
    (``None``: empty). ``None`` where the core does not build this disk's region (the Python
    engine, a start in a piece, a search that covers whole free parts, an input past the
    core's limits): the caller cuts ``disk.region`` itself."""
    core = engine.core()
    row = region_row(core, disk, exclude, exclude_key, friends, fixed)
    if core is None or row is None:
        return None
    try:
        _, whole, kept = core.search_region(*row[:11], True, row[11])  # type: ignore[attr-defined]
    except core.NativeError:  # type: ignore[attr-defined]
        return None
    return kept, _box(whole)


RegionAsk: TypeAlias = \
    "tuple[GeodesicDisk, BaseGeometry | None, object, object | None, object | None]"
"""What :func:`native_layer_regions` takes of each region: :func:`native_layer_region`'s
arguments."""


def native_layer_regions(asks: Sequence[RegionAsk]) -> list[tuple[object, Box | None] | None]:
    """:func:`native_layer_region` of each of ``asks`` (the same answers), in one call of the
    compiled core on its own threads (:func:`~tabletop.geometry.engine.call_threads`): no
    Python runs beside it, so no thread waits for the interpreter's lock or takes the
    interpreter's data from another processor's cache, as a thread of Python's per region
    does. ``None`` for each region the core does not build (as :func:`native_layer_region`
    answers ``None``), all of them where the call fails."""
    core = engine.core()
    out: list[tuple[object, Box | None] | None] = [None] * len(asks)
    rows, which = [], []
    for i, ask in enumerate(asks):
        row = region_row(core, *ask)
        if row is not None:
            rows.append(row)
            which.append(i)
    if not rows:
        return out
    try:
        got = core.search_regions(rows, engine.call_threads())  # type: ignore[union-attr]
    except core.NativeError:  # type: ignore[union-attr]
        return out  # (a panic in the core: each region built the caller's way)
    for i, g in zip(which, got, strict=True):
        if g is not None:
            out[i] = (g[0], _box(g[1]))
    return out


def region_row(core: ModuleType | None, disk: GeodesicDisk, exclude: BaseGeometry | None,
                exclude_key: object, friends: object | None, fixed: object | None
                ) -> tuple[Any, ...] | None:
    """The compiled core's ``search_region`` arguments (from the map to ``fixed``, ``keep``
    left out: a row of its ``search_regions``) for :func:`native_layer_region` of these, or
    ``None`` where the core does not build the region (its docstring)."""
    if core is None or disk.distance <= 0 or not len(disk.rm.pieces) or disk.cut.changed or \
            whole_region(disk) is not None:
        return None
    rm = disk.rm
    slack = rm.native_slack(core, exclude_key, exclude) if exclude is not None and \
        exclude_key is not None and len(rm.corners) else None
    try:
        return _search_args(core, disk, exclude, exclude_key, slack, friends, fixed)
    except core.NativeError:  # type: ignore[attr-defined]
        return None


def ragged_polygons(geoms: Sequence[BaseGeometry]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The polygons of ``geoms`` (their parts; empty ones and any lines or points left out) in
    shapely's ragged layout, as the compiled core reads a set of polygons."""
    polys = [p for g in geoms if not g.is_empty for p in shapely.get_parts(g)
             if p.geom_type == "Polygon" and not p.is_empty]
    if not polys:
        return np.zeros((0, 2)), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    _, coords, (rings, starts) = shapely.to_ragged_array(np.asarray(polys, dtype=object))
    return (np.ascontiguousarray(coords, dtype=float), rings.astype(np.int64),
            starts.astype(np.int64))


def native_union(kept: Sequence[object], more: Sequence[BaseGeometry],
                 bounds: Box) -> BaseGeometry | None:
    """The union of regions kept in the compiled core (``kept``: :func:`native_layer_region`'s;
    a turning mover's layers, adjacent facings next to each other) and of the polygons
    ``more``, in one call of the core: pairwise on its integer grid of ``bounds`` (the
    battlefield), no polygons of the parts in Python, one valid answer (the same point set as
    GEOS's union of them up to that grid: within 1.5e-7"). ``None`` where the core refuses
    (the caller unions them itself: :func:`kept_polygons`)."""
    core = engine.core()
    if core is None:
        return None
    try:
        got = core.union_regions([float(v) for v in bounds], list(kept),  # type: ignore[attr-defined]
                                 ragged_polygons(more), engine.call_threads())
    except core.NativeError:  # type: ignore[attr-defined]
        return None
    return native_polygons(*got)


def kept_polygons(kept: object) -> BaseGeometry:
    """A region kept in the compiled core (:func:`native_layer_region`'s) as a shapely
    geometry."""
    return native_polygons(*kept.polygons())  # type: ignore[attr-defined]


def _native_swept(core: ModuleType, disk: GeodesicDisk, wedges: Wedges,
                  exclude: BaseGeometry | None, exclude_key: object) -> BaseGeometry:
    """:func:`_build_swept`'s rays, union and cut in the compiled core
    (:mod:`tabletop.geometry.engine`): the same construction, the stars cast against the
    box's edges too (so no cut to the box), on an integer grid of 1e-7"."""
    rm = disk.rm
    ex = rm.native_exclude(core, exclude, exclude_key) if exclude is not None and \
        not exclude.is_empty else None
    nodes = wedges.node
    coords, rings, polys = core.swept_region(
        rm.native_outline(core), np.ascontiguousarray(wedges.apex, dtype=float),
        np.ascontiguousarray(wedges.radius, dtype=float),
        np.ascontiguousarray(wedges.start, dtype=float),
        np.ascontiguousarray(wedges.sweep, dtype=float),
        np.ascontiguousarray(wedges.query, dtype=bool),
        np.ascontiguousarray(disk.prev[nodes], dtype=float),
        np.ascontiguousarray(disk.next[nodes], dtype=float), ex)
    return native_polygons(coords, rings, polys)


def native_polygons(coords: np.ndarray, rings: np.ndarray, polys: np.ndarray) -> BaseGeometry:
    """The compiled core's polygons (shapely's ragged layout, disjoint) as one geometry."""
    if len(polys) < 2:
        return Polygon()
    parts = shapely.from_ragged_array(shapely.GeometryType.POLYGON, coords, (rings, polys))
    if len(parts) == 1 and parts[0].is_valid:
        # (one polygon: a round pick-up's usual answer; the scalar test is a quarter of the
        # array's)
        return parts[0]
    if len(parts) > 1:
        out = shapely.multipolygons(parts)
        if out.is_valid:
            # (valid parts that share no stretch of edge, all but about one answer in two
            # hundred: one test of the whole, not a test of each part as well)
            return out
    bad = ~shapely.is_valid(parts)
    if bad.any():
        # (the core cuts rings that touch themselves at a vertex, native/src/pinches.rs; an
        # intersection rounded to its grid can still leave a ring crossing itself by a unit
        # or two, about one polygon in ten of a bike's pick-up, or a hole along its exterior):
        # the same point set, valid: the exterior minus the holes, each made valid ("structure";
        # GEOS's default, from the rings' linework, dropped a wall's hole that shared a stretch
        # of the exterior: 15.6 sq in inside a wall in an Outrider's zone)
        fixed = shapely.get_parts(shapely.make_valid(parts[bad], method="structure"))
        fixed = fixed[shapely.get_type_id(fixed) == shapely.GeometryType.POLYGON]
        parts = np.concatenate([parts[~bad], fixed])
    if len(parts) == 1:
        return parts[0]
    out = shapely.multipolygons(parts)
    # parts that share a stretch of edge (Clipper2 may leave two so): joined
    return out if out.is_valid else polygonal(shapely.union_all(parts))


def whole_region(disk: GeodesicDisk) -> BaseGeometry | None:
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
    rm = disk.rm
    if disk.bends < 2 or disk.cut.changed:
        return None
    x0, y0, x1, y1 = rm.box
    # (every point has a corner of the box at least half its diagonal away: a move shorter
    # than that never reaches past the box, and the nodes need not be looked at)
    if x1 < x0 or y1 < y0 or disk.distance < 0.5 * math.hypot(x1 - x0, y1 - y0):
        return None
    far = _reach_cap(disk, disk.nodes) - 2.0 * ARC_TOLERANCE
    if bool((disk.dist + far > disk.distance).any()):
        return None
    parts = rm.free_parts()
    if not len(parts):
        return None
    src = disk.nodes[:disk.n_sources]
    mine = np.zeros(len(parts), bool)
    for k, g in enumerate(parts):
        mine[k] = bool(shapely.intersects_xy(g, src[:, 0], src[:, 1]).any())
    if not mine.any():
        return None
    return shapely.union_all(parts[mine]) if mine.sum() > 1 else parts[mine][0]


def build_region(disk: GeodesicDisk, exclude: BaseGeometry | None, exclude_key: object
                 ) -> BaseGeometry:
    """The region of ``disk`` minus ``exclude`` (:meth:`GeodesicDisk.region
    <tabletop.geometry.geodesic.GeodesicDisk.region>`): the free space itself when the search
    is complete and reaches past the box (:func:`whole_region`), else by casting rays when
    the start stands in no piece (:func:`_build_swept`), else the wedges cut by the shadows
    of the pieces they meet (:func:`_build_shadowed`)."""
    whole = whole_region(disk)
    if whole is not None:
        return _finish(disk, whole, exclude)
    if len(disk.rm.pieces) and not disk.cut.changed:
        return _build_swept(disk, exclude, exclude_key)
    return _build_shadowed(disk, exclude, exclude_key)


def _build_shadowed(disk: GeodesicDisk, exclude: BaseGeometry | None, exclude_key: object
                    ) -> BaseGeometry:
    """:func:`build_region` by overlays: each wedge minus the shadows of the pieces it meets
    (a start that stands in a piece, whose cut pieces the outline does not know)."""
    rm = disk.rm
    slack = rm.slack(exclude_key, exclude) if exclude is not None and \
        exclude_key is not None and len(rm.corners) else None
    wedges, flat, sizes = wedges_of(disk, slack)
    polys = sized_polygons(flat, sizes)
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
        return _finish(disk, raw, exclude)
    wi, pi = rm.piece_tree.query(polys, predicate="intersects")
    keep = wedges.own[wi] != pi
    wi, pi = wi[keep], pi[keep]
    counts = np.bincount(wi, minlength=len(wedges))
    merged, members = _chains(disk, wedges, coords, counts == 0)
    if len(members):
        keepw = np.ones(len(wedges), bool)
        keepw[members] = False
        remap = np.cumsum(keepw) - 1
        sel = keepw[wi]
        wi, pi = remap[wi[sel]], pi[sel]
        polys = polys[keepw]
        wedges = wedges.take(keepw)
    if len(wi):
        wi, hulls = _shadows(disk, wedges, wi, pi, exclude)
        if len(wi):
            polys = _minus_shadows(polys, wi, hulls)
    if merged:
        polys = np.concatenate([polys, np.array(merged, dtype=object)])
    if exclude is not None and not exclude.is_empty and len(polys) > 1:
        polys = polys[~shapely.contains(exclude, polys)]
    raw = shapely.union_all(polys)
    return _finish(disk, raw, exclude)


def _shadows(disk: GeodesicDisk, wedges: Wedges, wi: np.ndarray, pi: np.ndarray,
             exclude: BaseGeometry | None) -> tuple[np.ndarray, np.ndarray]:
    """The shadow of piece ``pi[k]`` seen from the apex of wedge ``wi[k]`` (the convex hull of
    the piece and far points on the rays through it), for each pair that casts one and whose
    shadow is not wholly inside ``exclude``: the pairs' wedges and the shadows.

    The start's own shadows use the pieces its query cut; others the full ones."""
    rm = disk.rm
    pieces_now = list(rm.rings)
    for k, ring in disk.cut.changed.items():
        pieces_now[k] = ring
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
    return wi[valid], hulls[valid]


def _minus_shadows(polys: np.ndarray, wi: np.ndarray, hulls: np.ndarray) -> np.ndarray:
    """Each wedge ``polys[w]`` minus the union of its shadows (``hulls[k]`` of ``wi[k] ==
    w``), one overlay call for all."""
    counts = np.bincount(wi, minlength=len(polys))
    width = int(counts.max())
    grid = np.full((len(polys), width), None, dtype=object)
    order = np.argsort(wi, kind="stable")
    wi_s = wi[order]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    col = np.arange(len(wi_s)) - starts[wi_s]
    grid[wi_s, col] = hulls[order]
    shadow = shapely.union_all(grid, axis=1)
    has = counts > 0
    polys = polys.copy()
    polys[has] = shapely.difference(polys[has], shadow[has])
    return polys


def _chains(disk: GeodesicDisk, wedges: Wedges, coords: list[np.ndarray], clean: np.ndarray
            ) -> tuple[list[BaseGeometry], np.ndarray]:
    """Merge runs of unshadowed wedges that wrap one piece into single polygons.

    When ``v[i+1]`` follows ``v[i]`` on a piece's ring and its shortest path comes from
    ``v[i]``, wedge ``i`` ends on the ray through ``v[i+1]`` exactly where wedge ``i + 1``
    begins, so the union of the run is the polygon ``v[1]``, the arcs in order, then the
    ring back from ``v[m]`` to ``v[2]``. Wedges that meet other pieces are left alone.
    """
    nodes, own = wedges.node, wedges.own
    ok = clean & (own >= 0) & ~wedges.query
    wedge_of = np.full(len(disk.nodes), -1, dtype=np.int64)
    wedge_of[nodes[ok]] = np.nonzero(ok)[0]
    par = disk.parent[nodes]
    j = np.where(ok & (par >= 0), wedge_of[np.maximum(par, 0)], -1)
    ok &= j >= 0
    jj = np.maximum(j, 0)
    ok &= ok[jj] & (own[jj] == own)
    pc = disk.nodes[np.maximum(par, 0)]
    adj = (np.hypot(*(pc - disk.prev[nodes]).T) <= 1e-12) | \
        (np.hypot(*(pc - disk.next[nodes]).T) <= 1e-12)
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
    polys = sized_polygons(np.concatenate(rings), np.array([len(r) for r in rings]))
    # a run whose outline crosses itself stays as separate wedges (the final union joins
    # them)
    valid = shapely.is_valid(polys).tolist()
    merged: list[BaseGeometry] = [g for g, ok in zip(polys, valid, strict=True) if ok]
    members = [w for run, ok in zip(runs, valid, strict=True) if ok for w in run]
    return merged, np.array(members, dtype=np.int64)


def _finish(disk: GeodesicDisk, raw: BaseGeometry, exclude: BaseGeometry | None) -> BaseGeometry:
    x0, y0, x1, y1 = disk.rm.box
    b = raw.bounds
    out = raw if b[0] >= x0 and b[1] >= y0 and b[2] <= x1 and b[3] <= y1 else \
        raw.intersection(disk.rm.box_polygon)
    if exclude is not None and not exclude.is_empty and not out.is_empty:
        out = out.difference(clipped(exclude, out.bounds))
    return polygonal(out)


def _union_wedges(polys: np.ndarray) -> BaseGeometry:
    """The union of the clipped wedges, the start's disk first."""
    if len(polys) > 2:
        # pieces inside the start's own visible disk add nothing to the union
        shapely.prepare(polys[0])
        inside = shapely.contains(polys[0], polys[1:])
        polys = np.concatenate([polys[:1], polys[1:][~inside]])
    return shapely.union_all(polys)

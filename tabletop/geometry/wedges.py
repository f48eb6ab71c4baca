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
overlays (:func:`_rays`): rays from each apex stop at the first edge of the union of the pieces
(its outline is built once per obstacle set) facing the apex, cast at the arc's sample angles
and on both sides of every direction where the visible boundary can change (outline vertices
and crossings of edges with the wedge's circle). Between two neighbouring rays the visible part
is convex, so each outline lies inside the true visible region and differs from it only by the
inscribed arcs; the wedges of every run then merge into one polygon, and only the final union
is an overlay.

:func:`build_region` is the entry point (:meth:`tabletop.geometry.geodesic.GeodesicDisk.region`
calls it and caches its answer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.polygons import clipped, norm, polygonal, sized_polygons

if TYPE_CHECKING:
    from tabletop.geometry.geodesic import GeodesicDisk

__all__ = [
    "ARC_TOLERANCE",
    "SHADOW_SLOTS",
    "Wedges",
    "build_region",
    "held_sources",
    "wedges_of",
    "whole_region",
]

ARC_TOLERANCE = 0.002
"""Largest chord sag of the inscribed arcs of the wedges, inches."""
SHADOW_SLOTS = 9
"""Far points per shadow (angular step at most pi / 8)."""
_AXES = np.array([0.0, 0.5 * math.pi, math.pi, 1.5 * math.pi])
"""Directions of the axis extremes of a circle (bounding boxes of sectors)."""


def _search(keys: np.ndarray, values: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted(keys, values, side)``, searching the values in sorted order (faster)."""
    if len(values) < 256:
        return np.searchsorted(keys, values, side)  # type: ignore[call-overload,no-any-return]
    order = np.argsort(values)
    out = np.empty(len(values), dtype=np.int64)
    out[order] = np.searchsorted(keys, values[order], side)  # type: ignore[call-overload]
    return out


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
    wedge: its turn would run through the piece, which the rays of :func:`_rays` must
    not see); otherwise such a wedge turns on to the other edge and relies on the
    shadows of the pieces.

    Returns the wedges and their outlines: the rows ``sizes[i]`` of ``coords`` after
    those of the wedges before ``i``. The outlines are inscribed (arcs with a sag of at
    most :data:`ARC_TOLERANCE`) or, with ``outer``, a few points around each sector (its
    arc by tangents turning at most pi / 4): enough to test whether a wedge lies in a set.
    """
    # the sources' disks (the start first): full disks, no apex; a source whose disk the
    # others' reach holds adds nothing
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
    only = (Wedges(srcp.copy(), srad, np.zeros(ns), np.full(ns, 2 * math.pi),
                    np.full(ns, -1), np.ones(ns, bool), src_rows.astype(np.int64)),
            outline0, n0)
    k = np.arange(disk.n_sources, len(disk.nodes))
    if not len(k):
        return only
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
        return only
    k, rho, v, d, side, sweep = k[ok], rho[ok], v[ok], d[ok], side[ok], sweep[ok]
    rho = np.minimum(rho, _reach_cap(disk, v))
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
    wedges = Wedges(np.concatenate([w0.apex, v]), np.concatenate([w0.radius, rho]),
                     np.concatenate([w0.start, start]), np.concatenate([w0.sweep, sweep]),
                     np.concatenate([w0.own, disk.owner[k]]),
                     np.concatenate([w0.query, np.zeros(len(k), bool)]),
                     np.concatenate([w0.node, k]))
    return wedges, np.concatenate([outline0, pts]), np.concatenate([n0, size])


def _rays(disk: GeodesicDisk, wedges: Wedges) -> tuple[list[np.ndarray], np.ndarray]:
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
    tree, union = disk.rm.outline()[2:]
    ex0, ey0, ex1, ey1, edx, edy = disk.rm.outline_columns()
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
        at_p = norm(px[touch], py[touch]) <= 1e-12
        at_q = norm(qx[touch], qy[touch]) <= 1e-12
        nodes = wedges.node[tw]
        At = apex[tw]
        own_dirs = []
        for nb in (disk.prev[nodes], disk.next[nodes]):
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
    snaps = [norm(xo - cx[he], yo - cy[he]) <= 1e-7 for cx, cy in ((ex0, ey0), (ex1, ey1))]
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
    keep[1:] &= ~(same_w[1:] & (norm(X[1:] - X[:-1], Y[1:] - Y[:-1]) <= 1e-9))
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


def _build_swept(disk: GeodesicDisk, exclude: BaseGeometry | None, exclude_key: object
                 ) -> BaseGeometry:
    """:meth:`_build` by casting rays (no shadow overlays); the start is in no piece."""
    rm = disk.rm
    slack = rm.slack(exclude_key, exclude) if exclude is not None and \
        exclude_key is not None and len(rm.corners) else None
    wedges, flat, sizes = wedges_of(disk, slack, ahead=True, outer=True)
    if exclude is not None and not exclude.is_empty and len(wedges) > 1:
        # wedges wholly inside the excluded set add nothing (the start's disk stays)
        keep = ~shapely.contains(exclude, sized_polygons(flat, sizes)) | wedges.query
        wedges = wedges.take(keep)
    coords, touching = _rays(disk, wedges)
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
    far = _reach_cap(disk, disk.nodes) - 2.0 * ARC_TOLERANCE
    if x1 < x0 or y1 < y0 or bool((disk.dist + far > disk.distance).any()):
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
    <tabletop.geometry.geodesic.GeodesicDisk.region>`)."""
    rm = disk.rm
    whole = whole_region(disk)
    if whole is not None:
        return _finish(disk, whole, exclude)
    if len(rm.pieces) and not disk.cut.changed:
        return _build_swept(disk, exclude, exclude_key)
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
    # shadows
    pieces_now = list(rm.rings)
    for k, ring in disk.cut.changed.items():
        pieces_now[k] = ring
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
    return _finish(disk, raw, exclude)


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

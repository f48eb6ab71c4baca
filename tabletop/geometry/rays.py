"""What the apex of each wedge sees: star-shaped outlines cast by rays, with no overlay.

Rays from each apex stop at the first edge of the union of the obstacles' pieces (its outline
is built once per obstacle set, :meth:`ReachMap.outline
<tabletop.geometry.visibility.ReachMap.outline>`) facing the apex, cast at the arc's sample
angles and on both sides of every direction where the visible boundary can change (outline
vertices and crossings of edges with the wedge's circle). Between two neighbouring rays the
visible part is convex, so each outline lies inside the true visible region and differs from
it only by the inscribed arcs (:func:`visible_outlines`; the wedges are
:mod:`tabletop.geometry.wedges`').
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop.geometry.polygons import norm

if TYPE_CHECKING:
    from tabletop.geometry.geodesic import GeodesicDisk
    from tabletop.geometry.wedges import Wedges

__all__ = ["visible_outlines"]

_AXES = np.array([0.0, 0.5 * math.pi, math.pi, 1.5 * math.pi])
"""Directions of the axis extremes of a circle (bounding boxes of sectors)."""


def visible_outlines(disk: GeodesicDisk, wedges: Wedges, arc_tolerance: float
                     ) -> tuple[list[np.ndarray], np.ndarray]:
    """Each wedge's visible part as a star-shaped outline (apex first, then its rays).

    Rays leave the apex at the arc's sample angles and just before and after every
    direction in which something changes: a vertex of the obstacles' outline within
    reach, or a point where an outline edge crosses the wedge's circle. Each ray stops at
    the first outline edge facing the apex, or at the radius. Between two neighbouring
    rays nothing changes, so the visible part there is convex (the sector cut by the
    half-planes of the edges it meets) and the chord between the rays' ends lies inside
    it: the outline never exceeds the true visible region, and it differs from it only
    by the inscribed arcs (chord sag at most ``arc_tolerance``). The sources' disks have no
    apex and go all round.

    Returns the outlines and which wedges touch the obstacles' outline at their apex (other
    than by their own corner's two edges: their outlines may pinch).

    (Written for few NumPy calls on short arrays: x and y are separate columns.)
    """
    fr = _Frame.of(wedges)
    pairs, front, touch = _facing_pairs(disk, fr)
    touching, cones = _apex_cones(disk, wedges, fr, pairs.take(touch))
    pairs = pairs.take(np.nonzero(front)[0])
    # angles of both ends in each wedge's frame (0 at its start, growing with its turn)
    nf = len(pairs.wi)
    wi = pairs.wi
    sw = np.concatenate([fr.side[wi], fr.side[wi]])
    s0w = np.concatenate([fr.start[wi], fr.start[wi]])
    ph = np.mod(sw * (np.arctan2(np.concatenate([pairs.py, pairs.qy]),
                                 np.concatenate([pairs.px, pairs.qx])) - s0w), _TWO_PI)
    phP, phQ = ph[:nf], ph[nf:]
    rw, rp, keys = _ray_angles(fr, arc_tolerance, *_events(fr, pairs, phP, phQ, cones))
    theta = fr.start[rw] + fr.side[rw] * rp
    ux, uy = np.cos(theta), np.sin(theta)
    R, hit = _cast(fr, pairs, phP, phQ, keys, rw, ux, uy)
    if touching.any():
        _stop_at_the_apex(disk, fr, touching, cones, rw, theta, ux, uy, R, hit)
    return _outlines(disk, fr, rw, fr.apx[rw] + R * ux, fr.apy[rw] + R * uy, hit), touching


_TWO_PI = 2 * math.pi
_RAY_EPS = 1e-9
"""Radians by which rays stay off an event's direction and inside a wedge's sides."""


@dataclass
class _Frame:
    """The wedges as :func:`_rays` reads them: apexes as columns, each wedge's turn as a side
    (+1 counter-clockwise) and a span (a source's disk goes all round)."""

    apex: np.ndarray
    apx: np.ndarray
    apy: np.ndarray
    rho: np.ndarray
    start: np.ndarray
    sweep: np.ndarray
    side: np.ndarray
    span: np.ndarray
    full: np.ndarray

    @classmethod
    def of(cls, wedges: Wedges) -> _Frame:
        apex, sweep = wedges.apex, wedges.sweep
        span = np.abs(sweep)
        full = wedges.query
        span[full] = _TWO_PI
        return cls(apex, apex[:, 0].copy(), apex[:, 1].copy(), wedges.radius, wedges.start,
                   sweep, np.where(sweep < 0, -1.0, 1.0), span, full)

    def __len__(self) -> int:
        return len(self.rho)


@dataclass
class _Pairs:
    """Pairs of a wedge ``wi`` and an outline edge ``ei``: the edge's ends ``P - A``,
    ``Q - A`` from the wedge's apex ``A`` and its vector ``d = Q - P``."""

    wi: np.ndarray
    ei: np.ndarray
    px: np.ndarray
    py: np.ndarray
    qx: np.ndarray
    qy: np.ndarray
    dx: np.ndarray
    dy: np.ndarray

    def take(self, keep: np.ndarray) -> _Pairs:
        """The pairs selected by ``keep`` (a mask or indices)."""
        return _Pairs(self.wi[keep], self.ei[keep], self.px[keep], self.py[keep],
                      self.qx[keep], self.qy[keep], self.dx[keep], self.dy[keep])


def _facing_pairs(disk: GeodesicDisk, fr: _Frame) -> tuple[_Pairs, np.ndarray, np.ndarray]:
    """Every pair of a wedge and an outline edge whose bounding boxes meet, and which of them
    face the apex within its radius (``front``) or pass within 1e-6" of it (``touch``)."""
    tree = disk.rm.edge_tree()
    ex0, ey0, ex1, ey1, edx, edy = disk.rm.outline_columns()
    apx, apy, rho, start, side = fr.apx, fr.apy, fr.rho, fr.start, fr.side
    # bounding boxes of the sectors: apex, arc ends and the arc's axis extremes
    ang = np.empty((len(fr), 6))
    ang[:, 0] = start
    ang[:, 1] = start + fr.sweep
    ang[:, 2:] = _AXES
    inside = np.ones((len(fr), 6), bool)
    inside[:, 2:] = np.mod(side[:, None] * (_AXES[None, :] - start[:, None]),
                           _TWO_PI) <= fr.span[:, None]
    bxs = np.where(inside, apx[:, None] + rho[:, None] * np.cos(ang), apx[:, None])
    bys = np.where(inside, apy[:, None] + rho[:, None] * np.sin(ang), apy[:, None])
    wi, ei = tree.query(shapely.box(np.minimum(bxs.min(axis=1), apx),
                                    np.minimum(bys.min(axis=1), apy),
                                    np.maximum(bxs.max(axis=1), apx),
                                    np.maximum(bys.max(axis=1), apy)))
    Ax, Ay = apx[wi], apy[wi]
    pairs = _Pairs(wi, ei, ex0[ei] - Ax, ey0[ei] - Ay, ex1[ei] - Ax, ey1[ei] - Ay,
                   edx[ei], edy[ei])
    px, py, dx, dy = pairs.px, pairs.py, pairs.dx, pairs.dy
    dl2 = dx * dx + dy * dy
    dl = np.sqrt(dl2)
    # edges facing the apex that come within its radius
    sfoot = np.clip(-(px * dx + py * dy) / dl2, 0.0, 1.0)
    fx, fy = px + sfoot * dx, py + sfoot * dy
    near = np.sqrt(fx * fx + fy * fy)
    front = ((px * dy - py * dx) < -1e-12 * dl) & (near < rho[wi])
    return pairs, front, near < 1e-6


_Cones = tuple[list[int], list[float], list[float]]
"""Angular cones of the obstacles at apexes on the outline: wedge, first side, width."""


def _apex_cones(disk: GeodesicDisk, wedges: Wedges, fr: _Frame, pairs: _Pairs
                ) -> tuple[np.ndarray, _Cones]:
    """The wedges whose apex touches the outline other than by its own two edges (another
    piece through the corner: they test their rays' first steps for entering the obstacles),
    and the obstacles' cones at those apexes. ``pairs``: the edges passing through apexes."""
    touching = np.zeros(len(fr), bool)
    cone_w: list[int] = []
    cone_a: list[float] = []
    cone_n: list[float] = []
    if not len(pairs.wi):
        return touching, (cone_w, cone_a, cone_n)
    tw = pairs.wi
    dl = np.sqrt(pairs.dx * pairs.dx + pairs.dy * pairs.dy)
    ed = np.column_stack([pairs.dx, pairs.dy]) / dl[:, None]
    at_p = norm(pairs.px, pairs.py) <= 1e-12
    at_q = norm(pairs.qx, pairs.qy) <= 1e-12
    nodes = wedges.node[tw]
    At = fr.apex[tw]
    own_dirs = []
    for nb in (disk.prev[nodes], disk.next[nodes]):
        e = nb - At
        own_dirs.append(e / np.maximum(np.hypot(e[:, 0], e[:, 1]), 1e-300)[:, None])
    out_dir = np.where(at_p[:, None], ed, -ed)
    par = [np.abs(out_dir[:, 0] * o[:, 1] - out_dir[:, 1] * o[:, 0]) <= 1e-9
           for o in own_dirs]
    par = [pp & (out_dir[:, 0] * o[:, 0] + out_dir[:, 1] * o[:, 1] > 0)
           for pp, o in zip(par, own_dirs, strict=True)]
    own_edge = (at_p | at_q) & (par[0] | par[1]) & ~fr.full[tw]
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
            width = np.mod(ins[None, :] - outs[:, None], _TWO_PI).min(axis=1)
            cone_w.extend([w] * len(outs))
            cone_a.extend(outs.tolist())
            cone_n.extend(width.tolist())
        faces = np.arctan2(ed[mine & inner, 1], ed[mine & inner, 0])
        cone_w.extend([w] * len(faces))
        cone_a.extend(faces.tolist())
        cone_n.extend([math.pi] * len(faces))
    return touching, (cone_w, cone_a, cone_n)


def _events(fr: _Frame, pairs: _Pairs, phP: np.ndarray, phQ: np.ndarray, cones: _Cones
            ) -> tuple[np.ndarray, np.ndarray]:
    """The directions (wedge, angle in its frame) in which what a wedge sees can change:
    outline vertices within reach, crossings of edges and circles, the sides of the
    obstacles' cones at the apex."""
    wi, px, py, qx, qy, dx, dy = pairs.wi, pairs.px, pairs.py, pairs.qx, pairs.qy, pairs.dx, \
        pairs.dy
    nf = len(wi)
    rP2, rQ2 = px * px + py * py, qx * qx + qy * qy
    r2 = fr.rho[wi] ** 2
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
    cph = np.mod(fr.side[cw] * (np.arctan2(py[k] + sol * dy[k], px[k] + sol * dx[k]) -
                                fr.start[cw]), _TWO_PI)
    inP, inQ = rP2 < r2, rQ2 < r2
    ev_w = [wi[inP], wi[inQ], cw]
    ev_phi = [phP[inP], phQ[inQ], cph]
    cone_w, cone_a, cone_n = cones
    if cone_w:
        # the sides of the obstacles' cones at the apex
        cwn = np.array(cone_w * 2, dtype=np.int64)
        ca = np.concatenate([np.array(cone_a), np.array(cone_a) + np.array(cone_n)])
        ev_w.append(cwn)
        ev_phi.append(np.mod(fr.side[cwn] * (ca - fr.start[cwn]), _TWO_PI))
    return np.concatenate(ev_w), np.concatenate(ev_phi)


def _ray_angles(fr: _Frame, arc_tolerance: float, evw: np.ndarray, evp: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rays, per wedge in angular order: their wedge, angle in its frame and sort key.

    The arc's samples (its ends nudged inside the wedge) and a ray on each side of every
    event."""
    span, full, eps = fr.span, fr.full, _RAY_EPS
    step = 2.0 * np.arccos(np.maximum(-1.0, 1.0 - arc_tolerance / np.maximum(fr.rho, 1e-9)))
    nseg = np.maximum(1, np.ceil(span / step)).astype(np.int64)
    nseg[full] = np.maximum(3, nseg[full])
    cnt = nseg + 1
    cnt[full] = nseg[full]
    aw = np.repeat(np.arange(len(fr)), cnt)
    j = np.arange(len(aw)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    rw = np.concatenate([aw, evw, evw])
    rp = np.concatenate([span[aw] * j / nseg[aw], evp - eps, evp + eps])
    # the start's disk wraps round; a wedge's rays stay just inside its two sides
    at0 = full[rw]
    rp0 = np.mod(rp[at0], _TWO_PI)
    rp = np.minimum(np.maximum(rp, eps), span[rw] - eps)
    rp[at0] = rp0
    # one sort key per ray: the wedge, then the angle (< 8) within it
    keys = rw * 8.0 + rp
    order = np.argsort(keys)
    keys = keys[order]
    fresh = np.ones(len(keys), bool)
    fresh[1:] = keys[1:] != keys[:-1]
    order, keys = order[fresh], keys[fresh]
    return rw[order], rp[order], keys


def _cast(fr: _Frame, pairs: _Pairs, phP: np.ndarray, phQ: np.ndarray, keys: np.ndarray,
          rw: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each ray's length (to the nearest front edge it meets, else the radius) and the edge
    it stops at (-1: none)."""
    R = fr.rho[rw]
    hit = np.full(len(rw), -1, dtype=np.int64)
    nf = len(pairs.wi)
    if not nf:
        return R, hit
    # the rays each front edge spans (its shorter angular interval); an interval that
    # wraps past 0 is two ranges: (hi, 2 pi) and [0, lo)
    lo, hi = np.minimum(phP, phQ), np.maximum(phP, phQ)
    wrap = hi - lo > math.pi
    base = pairs.wi * 8.0
    s0 = _search(keys, np.where(wrap, base + hi, base + lo), "right")
    left = _search(keys, np.concatenate([np.where(wrap, base + 8.0, base + hi),
                                         base, base + lo]), "left")
    s1, s2, s3 = left[:nf], left[nf:2 * nf], left[2 * nf:]
    starts = np.concatenate([s0, np.where(wrap, s2, 0)])
    counts = np.maximum(np.concatenate([s1 - s0, np.where(wrap, s3 - s2, 0)]), 0)
    both = np.arange(2 * nf)
    both[nf:] -= nf
    pe = np.repeat(both, counts)
    pr = np.arange(len(pe)) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
    ddx, ddy = pairs.dx[pe], pairs.dy[pe]
    den = ux[pr] * ddy - uy[pr] * ddx
    num = pairs.px[pe] * ddy - pairs.py[pe] * ddx
    t = np.full(len(pe), np.inf)
    np.divide(num, den, out=t, where=np.abs(den) > 1e-300)
    t[t <= 0] = np.inf
    # the nearest edge of each ray, if nearer than its radius
    best = R.copy()
    np.minimum.at(best, pr, t)
    won = (t == best[pr]) & (t < R[pr])
    hit[pr[won]] = pairs.ei[pe[won]]
    return best, hit


def _stop_at_the_apex(disk: GeodesicDisk, fr: _Frame, touching: np.ndarray, cones: _Cones,
                      rw: np.ndarray, theta: np.ndarray, ux: np.ndarray, uy: np.ndarray,
                      R: np.ndarray, hit: np.ndarray) -> None:
    """Rays of touching wedges whose first step enters the obstacles (or one of their cones
    at the apex) have no length (``R`` and ``hit`` changed in place)."""
    union = disk.rm.union()
    tr = np.nonzero(touching[rw])[0]
    tw_r = rw[tr]
    blocked = shapely.contains_xy(union, fr.apx[tw_r] + 1e-6 * ux[tr],
                                  fr.apy[tw_r] + 1e-6 * uy[tr])
    th_r = theta[tr]
    for w, a0, width in zip(*cones, strict=True):
        into = np.mod(th_r - a0, _TWO_PI)
        blocked |= (tw_r == w) & (into > 0) & (into < width)
    R[tr[blocked]] = 0.0
    hit[tr[blocked]] = -1


def _outlines(disk: GeodesicDisk, fr: _Frame, rw: np.ndarray, X: np.ndarray, Y: np.ndarray,
              hit: np.ndarray) -> list[np.ndarray]:
    """Each wedge's outline from its rays' ends ``X, Y`` (apex first, but for the sources'
    disks).

    Ends of rays at an outline vertex are that vertex; inner rays of a run on one edge are
    dropped, and then points that repeat the point kept before them (a run's last ray can end
    at the vertex its inner rays did: the vertex stays)."""
    ex0, ey0, ex1, ey1 = disk.rm.outline_columns()[:4]
    nw, full = len(fr), fr.full
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
    rw, X, Y = rw[~run], X[~run], Y[~run]
    same_w = np.zeros(len(rw), bool)
    same_w[1:] = rw[1:] == rw[:-1]
    keep = np.ones(len(rw), bool)
    keep[1:] = ~(same_w[1:] & (norm(X[1:] - X[:-1], Y[1:] - Y[:-1]) <= 1e-9))
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
    out[begin[~full]] = fr.apex[~full]
    bounds = ends.tolist()
    return [out[a:b] for a, b in zip([0, *bounds[:-1]], bounds, strict=True)]


def _search(keys: np.ndarray, values: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted(keys, values, side)``, searching the values in sorted order (faster)."""
    if len(values) < 256:
        return np.searchsorted(keys, values, side)  # type: ignore[call-overload,no-any-return]
    order = np.argsort(values)
    out = np.empty(len(values), dtype=np.int64)
    out[order] = np.searchsorted(keys, values[order], side)  # type: ignore[call-overload]
    return out

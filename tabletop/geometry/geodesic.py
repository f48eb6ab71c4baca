"""Exact reachability of a translating disk among obstacles: the geodesic disk.

The reachable set from ``p`` within ``D`` is the geodesic disk of the free space of a
:class:`~tabletop.geometry.visibility.ReachMap` (obstacles inflated by the mover); shortest
paths bend only at convex corners of the inflated obstacles (Lozano-Perez and Wesley 1979).
See the zone pipeline of the design page (``docs/design.md``).

The construction, all of it conservative (nothing here ever makes the free space larger):

1. *Inflation, corners and the tangent visibility graph*: once per obstacle set and mover
   radius, :mod:`tabletop.geometry.visibility`.
2. *Per query* (start ``p``, limit ``D``; :class:`GeodesicDisk`): edges from ``p`` (and from
   any further sources, each reached already at its own distance) to the corners it sees,
   Dijkstra (``heapq``) stopped at ``D``: distance and parent of every reached corner.
3. *Region* (:meth:`GeodesicDisk.region`): the union of one wedge per reached corner, each
   clipped to what its apex sees, cut to the box: :mod:`tabletop.geometry.wedges`.
4. *Point query*: ``d(x) = min(d(v) + |x - v|)`` over reached nodes ``v`` that see ``x``; the
   path follows the parents back to ``p``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.polygons import norm
from tabletop.geometry.visibility import ReachMap, StartCut, tangent
from tabletop.geometry.wedges import build_region

__all__ = ["Distances", "GeodesicDisk"]


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
class Distances:
    """:meth:`GeodesicDisk.distances` of the points ``pts`` from ``disk``: the lengths ``out``
    and, per point, the largest length among its candidates ``tau`` (what a later round
    compares with)."""

    pts: np.ndarray
    disk: GeodesicDisk
    out: np.ndarray
    tau: np.ndarray


def _free_sources(rm: ReachMap, sources: Sequence[tuple[float, float, float]], distance: float
                  ) -> list[tuple[float, float, float]]:
    """More points reached already (a turning mover's switch points, each with its own
    distance) that are free points of this map: one standing in a piece adds nothing."""
    more = [(float(x), float(y), float(d0)) for x, y, d0 in sources if d0 < distance]
    if more and len(rm.pieces):
        free = ~shapely.intersects_xy(rm.eroded_union(), [x for x, _, _ in more],
                                      [y for _, y, _ in more])
        x0, y0, x1, y1 = rm.box
        more = [src for src, ok in zip(more, free.tolist(), strict=True) if ok and
                x0 - 1e-9 <= src[0] <= x1 + 1e-9 and y0 - 1e-9 <= src[1] <= y1 + 1e-9]
    return more


@dataclass
class _Nodes:
    """A search's nodes: ``0 .. n - 1`` the map's corners, ``n`` the start, then the ``m``
    new corners of the pieces the start cut, then the other sources (rows ``src_rows``);
    ``start0`` maps each source to its distance at the outset.

    In the map's reused buffers (:meth:`ReachMap.node_buffers
    <tabletop.geometry.visibility.ReachMap.node_buffers>`: the corner arrays are large and
    copying them per pick-up costs more than the rest)."""

    at: np.ndarray
    prev: np.ndarray
    next: np.ndarray
    owner: np.ndarray
    n: int
    m: int
    src_rows: list[int]
    start0: dict[int, float]
    extra: np.ndarray

    @classmethod
    def lay_out(cls, rm: ReachMap, p: tuple[float, float], start: float, cut: StartCut,
                extra: tuple[np.ndarray, np.ndarray, np.ndarray],
                more: list[tuple[float, float, float]]) -> _Nodes:
        corners, eprev, enext = extra
        n, m, ns = len(rm.corners), len(corners), len(more)
        allc, allprev, allnext, owner = rm.node_buffers(m + ns)
        allc[n] = allprev[n] = allnext[n] = p
        owner[n:] = -1
        if m:
            allc[n + 1:n + 1 + m], allprev[n + 1:n + 1 + m], allnext[n + 1:n + 1 + m] = \
                corners, eprev, enext
            # which piece the extra corners belong to (for the shadow exclusion)
            for e in range(m):
                for k, ring in cut.changed.items():
                    if len(ring) and np.min(np.hypot(*(ring - corners[e]).T)) < 1e-9:
                        owner[n + 1 + e] = k
        total = n + 1 + m + ns
        src_rows = list(range(n + 1 + m, total))
        if ns:
            pts = np.array([(x, y) for x, y, _ in more])
            allc[n + 1 + m:total] = allprev[n + 1 + m:total] = allnext[n + 1 + m:total] = pts
        start0: dict[int, float] = {n: float(start)}
        start0.update({r: d0 for r, (_, _, d0) in zip(src_rows, more, strict=True)})
        return cls(allc, allprev, allnext, owner, n, m, src_rows, start0, corners)

    @property
    def total(self) -> int:
        return self.n + 1 + self.m + len(self.src_rows)


_Search = tuple[dict[int, float], dict[int, int], dict[int, list[tuple[int, float]]],
                dict[int, float]]
"""A search's labels, parents, the sources' edges and the sources."""


def _source_edges(rm: ReachMap, nodes: _Nodes, p: tuple[float, float], distance: float,
                  cut: StartCut, removed: set[int], old: _Search | None
                  ) -> tuple[dict[int, list[tuple[int, float]]], list[int]]:
    """The edges from the start, the cut pieces' new corners and the other sources to the
    corners nearby (only the new sources' with ``old``, the search carried on), and the nodes
    the search relaxes from first."""
    n, m, start0, allc = nodes.n, nodes.m, nodes.start0, nodes.at
    if old is None:
        extra_adj: dict[int, list[tuple[int, float]]] = {}
        todo = [n, *range(n + 1, n + 1 + m), *nodes.src_rows]
        near = rm.corners_near(p, distance - start0[n] + 1e-9)
        if m:
            mine = n + 1 + np.nonzero(norm(*(nodes.extra - np.array(p)).T) <=
                                      distance + 1e-9)[0]
            near = np.concatenate([near, [n], mine])
        if removed:
            near = near[~np.isin(near, list(removed))]
    else:
        extra_adj = dict(old[2])
        todo = nodes.src_rows[len(old[3]) - 1:]
    new_rows = [r for r in todo if r in start0 and r != n]
    # a free source's edges do not depend on the start when the start cut no piece (a
    # turning mover's turn nodes are the same points from pick-up to pick-up)
    reuse = not m and not removed and not cut.changed
    if reuse and new_rows:
        radii = distance - np.array([start0[s] for s in new_rows]) + 1e-9
        for s, (tgt, w) in zip(new_rows, rm.free_edges(allc[new_rows], radii), strict=True):
            extra_adj[s] = list(zip(tgt.tolist(), w.tolist(), strict=True))
    for s in todo:
        if reuse and s != n:
            continue
        if s in start0 and s != n:
            near_s = rm.corners_near(tuple(allc[s]), distance - start0[s] + 1e-9)
            if removed:
                near_s = near_s[~np.isin(near_s, list(removed))]
            if m:
                near_s = np.concatenate([near_s, np.arange(n + 1, n + 1 + m)])
        else:
            near_s = near
        _visible_edges(rm, nodes, s, near_s[near_s != s], cut, extra_adj)
    return extra_adj, todo


def _visible_edges(rm: ReachMap, nodes: _Nodes, s: int, tgt: np.ndarray, cut: StartCut,
                   extra_adj: dict[int, list[tuple[int, float]]]) -> None:
    """Add to ``extra_adj`` the edges from node ``s`` to the nodes ``tgt`` it sees along a
    line tangent at them (and at ``s``, a corner: then both ways)."""
    if not len(tgt):
        return
    allc = nodes.at
    a = np.broadcast_to(allc[s], (len(tgt), 2))
    ok = tangent(allc[tgt], a, nodes.prev[tgt], nodes.next[tgt])
    corner = s not in nodes.start0
    if corner:
        ok &= tangent(a, allc[tgt], nodes.prev[s][None, :], nodes.next[s][None, :])
    tgt = tgt[ok]
    if not len(tgt):
        return
    blocked = rm.blocked(np.broadcast_to(allc[s], (len(tgt), 2)), allc[tgt], cut)
    tgt = tgt[~blocked]
    w = norm(*(allc[tgt] - allc[s]).T)
    for t, ww in zip(tgt.tolist(), w.tolist(), strict=True):
        extra_adj.setdefault(s, []).append((t, ww))
        if corner:
            extra_adj.setdefault(t, []).append((s, ww))


def _dijkstra(rm: ReachMap, nodes: _Nodes, extra_adj: dict[int, list[tuple[int, float]]],
              todo: list[int], removed: set[int], old: _Search | None, distance: float,
              bends: int) -> tuple[dict[int, float], dict[int, int]]:
    """Dijkstra with a limit (dicts: only the corners within reach are ever touched), seeded
    with the sources' own edges; corners have the cached graph's edges (plus, for a start
    inside a piece, those to and from the cut piece's new corners). The labels and parents
    (the removed corners labelled -1)."""
    n, start0 = nodes.n, nodes.start0
    adj = rm.adjacency() if bends > 1 else [[] for _ in range(n)]
    edges: Sequence[Sequence[tuple[int, float]]] = \
        adj if not nodes.m else _WithExtra(adj, extra_adj, n, nodes.total)
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
    return dl, par


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
    n_sources : int
        Rows ``0 .. n_sources - 1`` are the sources (the start first).
    corner_index : ndarray (k,)
        Each node's corner in the map (-1: a source or a cut piece's new corner).
    prev, next, owner : ndarray
        Each node's ring neighbours and piece (-1: none), for the wedges.
    cut : StartCut
        The pieces this query cut because the start stands in them.
    bends : int
        2: paths bend at any reached corner; 1: at most once.
    """

    def __init__(self, rm: ReachMap, p: tuple[float, float], distance: float,
                 sources: Sequence[tuple[float, float, float]] = (), start: float = 0.0,
                 bends: int = 2, base: GeodesicDisk | None = None) -> None:
        self.rm, self.p, self.distance = rm, p, distance
        self._start, self.bends = start, bends
        if bends > 1:
            rm.ensure_graph(distance)
        cut, extra, eprev, enext, removed = rm.start_cut(p)
        self.cut = cut
        more = _free_sources(rm, sources, distance)
        # the same search with more sources (a turning mover's next round of turn nodes):
        # ``base``'s labels stand, only the new sources' edges are found and relaxed from
        old = base.more_of(self, more) if base is not None else None
        nodes = _Nodes.lay_out(rm, p, start, cut, (extra, eprev, enext), more)
        extra_adj, todo = _source_edges(rm, nodes, p, distance, cut, removed, old)
        dl, par = _dijkstra(rm, nodes, extra_adj, todo, removed, old, distance, bends)
        self.search_state: _Search | None = (dict(dl), dict(par), extra_adj, nodes.start0)
        """The search's labels, parents, the sources' edges and the sources (for a search
        with more sources from the same start, :meth:`more_of`)."""
        self._label(nodes, dl, par, removed)
        self._geometry: dict[object, BaseGeometry] = {}

    @classmethod
    def of_search(cls, rm: ReachMap, p: tuple[float, float], distance: float, start: float,
                  bends: int, found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
                  ) -> GeodesicDisk:
        """The disk of a search done elsewhere (the compiled core's,
        :mod:`tabletop.geometry.pickup`): ``found`` is its nodes (the sources first, then the
        reached corners in index order), distances, parents (rows, -1 for a source), each
        node's corner (-1 for a source) and how many sources it kept. The start stands in no
        piece (no cut), and the search cannot be carried on with more sources."""
        nodes, dist, parent, corner, ns = found
        self = _CoreDisk.__new__(_CoreDisk)
        self.rm, self.p, self.distance = rm, p, distance
        self._start, self.bends = start, bends
        self.cut = StartCut()
        self.search_state = None
        self.n_sources = int(ns)
        self.nodes = np.asarray(nodes, dtype=float).reshape(-1, 2)
        self.dist = np.asarray(dist, dtype=float)
        self.parent = np.asarray(parent, dtype=np.int64)
        self.corner_index = np.asarray(corner, dtype=np.int64)
        self._geometry = {}
        return self

    def _label(self, nodes: _Nodes, dl: dict[int, float], par: dict[int, int],
               removed: set[int]) -> None:
        """The reached nodes as rows: the start, then the other sources, then the reached
        corners in index order, with their distances and parents."""
        n, ns, rm = nodes.n, len(nodes.src_rows), self.rm
        for dnode in removed:
            del dl[dnode]
            par.pop(dnode, None)
        for src in nodes.start0:
            del dl[src]
        order = np.concatenate([[n], nodes.src_rows, np.sort(np.fromiter(
            dl, dtype=np.int64, count=len(dl)))]).astype(np.int64)
        olist = order.tolist()
        row = {k: i for i, k in enumerate(olist)}
        row[-1] = -1
        self.n_sources = 1 + ns
        """Rows ``0 .. n_sources - 1`` are the sources (the start first)."""
        self.nodes = nodes.at[order]
        self.dist = np.array([nodes.start0[k] for k in olist[:1 + ns]] +
                             [dl[k] for k in olist[1 + ns:]])
        if len(rm.pieces) and bool(rm.blocked(self.nodes[:1], self.nodes[:1] + 1e-9,
                                              self.cut)[0]):
            # a start inside a piece its query leaves whole (a turning mover's footprint
            # overlapping an obstacle, not touching it): no path leaves it, so its disk has
            # no room either (its wedge held points no witness reached)
            self.dist[0] = self.distance
        self.parent = np.array([row[par[k]] for k in olist], dtype=np.int64)
        self.corner_index = np.where(order < n, order, -1)
        self.prev = nodes.prev[order]
        self.next = nodes.next[order]
        self.owner = nodes.owner[order]

    def more_of(self, new: GeodesicDisk, more: list[tuple[float, float, float]]
                 ) -> _Search | None:
        """This search's state when ``new`` is the same search with more sources: the same
        map, start, distance and bends, and this disk's sources the first of ``more``."""
        k = self.n_sources - 1
        if self.search_state is None or new.rm is not self.rm or new.p != self.p or \
                new.distance != self.distance or \
                new._start != self._start or new.bends != self.bends or len(more) < k:
            return None
        for i, (x, y, d0) in enumerate(more[:k], start=1):
            if self.nodes[i, 0] != x or self.nodes[i, 1] != y or self.dist[i] != d0:
                return None
        return self.search_state

    # -- point queries -------------------------------------------------------------------
    def _best(self, x: float, y: float) -> tuple[float, int]:
        X = np.array([x, y])
        dd = self.dist + norm(*(self.nodes - X).T)
        cand = np.nonzero(dd <= self.distance + 1e-6)[0]
        if not len(cand):
            return math.inf, -1
        cand = cand[np.argsort(dd[cand])]
        blocked = self.rm.blocked(self.nodes[cand], np.broadcast_to(X, (len(cand), 2)), self.cut)
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
        sources (the round before, :meth:`more_of`); only the points that one of the nodes
        new or nearer since then comes among the ``tries`` nearest of are tried again (the
        others keep their candidates, so their answer).
        """
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        before = since.disk if since is not None and since.pts.shape == pts.shape and \
            np.array_equal(since.pts, pts) else None
        mine = list(zip(self.nodes[1:self.n_sources, 0].tolist(),
                        self.nodes[1:self.n_sources, 1].tolist(),
                        self.dist[1:self.n_sources].tolist(), strict=True))
        if since is None or before is None or before.more_of(self, mine) is None:
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
        dd = self.dist[c][None, :] + norm(pts[:, None, 0] - self.nodes[None, c, 0],
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
        dd = self.dist[None, :] + norm(pts[:, None, 0] - self.nodes[None, :, 0],
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
        blocked = self.rm.blocked(self.nodes[cand[pi, first[pi]]], pts[pi], self.cut)
        out[pi[~blocked]] = c0[pi[~blocked]]
        again = np.zeros(len(pts), bool)
        again[pi[blocked]] = True
        cd[rows, first] = np.inf
        ok = (cd <= self.distance + 1e-6) & again[:, None]
        pi, ci = np.nonzero(ok)
        if len(pi):
            blocked = self.rm.blocked(self.nodes[cand[pi, ci]], pts[pi], self.cut)
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
    def remember(self, exclude: BaseGeometry | None, exclude_key: object,
                 region: BaseGeometry) -> None:
        """Keep ``region`` as :meth:`region`'s answer for ``exclude`` (a region built
        elsewhere from this disk's search: :mod:`tabletop.geometry.pickup`)."""
        self._geometry[exclude_key if exclude is not None else None] = region

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
            got = build_region(self, exclude, exclude_key) if self.distance > 0 else Polygon()
            self._geometry[key] = got
        return got


class _CoreDisk(GeodesicDisk):
    """A disk of the compiled core's search (:meth:`GeodesicDisk.of_search`): its nodes'
    ring neighbours and pieces are looked up on first use (a pick-up that is never asked for a
    path does not pay for them)."""

    @cached_property
    def prev(self) -> np.ndarray:  # type: ignore[override]
        return self._around(self.rm.prev)

    @cached_property
    def next(self) -> np.ndarray:  # type: ignore[override]
        return self._around(self.rm.next)

    @cached_property
    def owner(self) -> np.ndarray:  # type: ignore[override]
        if not len(self.rm.corners):
            return np.full(len(self.nodes), -1, dtype=np.int64)
        return np.where(self.corner_index >= 0,
                        self.rm.owner[np.maximum(self.corner_index, 0)], -1)

    def _around(self, of: np.ndarray) -> np.ndarray:
        """``of`` (a corner's ring neighbour) at each node's corner; a source's own point."""
        if not len(self.rm.corners):
            return self.nodes.copy()
        mine = (self.corner_index >= 0)[:, None]
        return np.where(mine, of[np.maximum(self.corner_index, 0)], self.nodes)

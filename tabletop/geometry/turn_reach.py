"""The reach of a turning mover from one start pose: its layers searched from their sources,
joined where it may turn (:class:`TurnReach`, one pick-up).

The construction and its guarantee are :mod:`tabletop.geometry.turning`'s, which builds the
layers, turn regions and turn nodes this searches (once per phase, :class:`TurnMap
<tabletop.geometry.turning.TurnMap>`).

Two engines (:mod:`tabletop.geometry.engine`): the turns at the start and the exits to the hub
are found here in Python on both; the searches and the rounds of turns on the way are the
compiled core's ``turn_rounds`` (one call a pick-up) when the native engine is chosen, this
module's Python when not, and the Python's too (the reference, the fallback) when a layer's start
stands in one of its pieces (the Python search cuts such pieces per query,
:meth:`ReachMap.start_cut <tabletop.geometry.visibility.ReachMap.start_cut>`; the core does not)
or the core refuses the input (past one of its limits).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import overload

import numpy as np
import shapely

from tabletop.geometry import engine
from tabletop.geometry.cspace import angle_between
from tabletop.geometry.geodesic import Distances, GeodesicDisk
from tabletop.geometry.turning import DEFAULT_STEP, EXITS, Pose, TurnMap, facing_grid
from tabletop.geometry.visibility import ReachMap, StartCut

__all__ = ["TURN_GAIN", "TurnReach", "matched_rows"]


@dataclass
class _Source:
    """Where a layer's source comes from: the poses before it (with facings)."""

    point: tuple[float, float]
    dist: float
    _before: list[Pose] | Callable[[], list[Pose]]
    """The witness up to and including this source's pose in its layer (or how to find it:
    a turn on the way asks its first layer only when a witness through it is wanted)."""

    @property
    def before(self) -> list[Pose]:
        if callable(self._before):
            self._before = self._before()
        return self._before


@dataclass
class _LayerReach:
    facing: float
    disk: GeodesicDisk
    sources: Sequence[_Source] = field(default_factory=list)


class _CoreSources(Sequence[_Source]):
    """A layer's sources when the compiled core's rounds added many (a fine facing step adds
    tens of thousands): ``head`` as they are, then the turns on the way the layer kept (rows
    ``rows`` of the core's arrays), each made a :class:`_Source` only when asked for (a witness
    through it), not one Python object and witness closure each per pick-up."""

    def __init__(self, head: list[_Source], rows: np.ndarray,
                 make: Callable[[int], _Source]) -> None:
        self._head, self._rows, self._make = head, rows, make
        self._made: dict[int, _Source] = {}

    def __len__(self) -> int:
        return len(self._head) + len(self._rows)

    @overload
    def __getitem__(self, i: int) -> _Source: ...
    @overload
    def __getitem__(self, i: slice) -> list[_Source]: ...

    def __getitem__(self, i: int | slice) -> _Source | list[_Source]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i < len(self._head):
            return self._head[i]
        got = self._made.get(i)
        if got is None:
            got = self._made[i] = self._make(int(self._rows[i - len(self._head)]))
        return got


class TurnReach:
    """The poses reachable from a start pose within a distance (one pick-up).

    Attributes
    ----------
    layers : dict
        facing -> the layer's reach (a :class:`GeodesicDisk` from its sources).
    start_facings : list of float
        Facings the mover can turn to at the start.
    """

    def __init__(self, tm: TurnMap, start: tuple[float, float], facing: float,
                 distance: float, step: float = DEFAULT_STEP) -> None:
        self.tm, self.start, self.facing, self.distance = tm, start, float(facing), distance
        self.grid = facing_grid(tm.footprint, facing, step)
        base_grid = facing_grid(tm.footprint, 0.0, step)
        self.own_layer = tm.key(facing) not in base_grid
        """Whether the start's facing is off the grid (its layer holds only what is near)."""
        self.start_in_hub = tm.in_hub(*start)
        chains = self._start_turns()
        self._chains = chains
        self.start_facings = sorted(chains)
        self.layers: dict[float, _LayerReach] = {}
        self.hub: _LayerReach | None = None
        """The hub's reach: where the circumscribed circle stays clear all the way (any facing
        there; ``None`` when the start cannot get out to it)."""
        p = (float(start[0]), float(start[1]))
        self._rounds = distance > 0 and len(base_grid) > 1
        core = engine.core()
        if core is not None and self._native(core, p, chains, step):
            return
        for f, chain in chains.items():
            disk = self._map(f).disk(p, distance, bends=self._bends(f))
            self.layers[f] = _LayerReach(f, disk, [_Source(p, 0.0, chain)])
        if self.start_in_hub:
            self.hub = _LayerReach(self.facing, tm.hub.disk(p, distance),
                                   [_Source(p, 0.0, [(p[0], p[1], self.facing)])])
        else:
            hub_seeds, seeds = self._exits(p, lambda f: self.layers[f].disk.cut)
            if hub_seeds:
                first, rest = hub_seeds[0], hub_seeds[1:]
                hub_disk = tm.hub.disk(first.point, distance, [(*s.point, s.dist) for s in rest],
                                       start=first.dist)
                self.hub = _LayerReach(first.before[-1][2], hub_disk,
                                       [first, *_kept(rest, hub_disk)])
            for g, srcs in seeds.items():
                got = self.layers.get(g)
                if got is None:
                    self._add_sources(g, srcs)
                else:
                    # a start facing: the exits add sources to its disk
                    start_src = got.sources[0]
                    disk = self._map(g).disk(start_src.point, distance,
                                             [(*s.point, s.dist) for s in srcs])
                    self.layers[g] = _LayerReach(g, disk, [start_src, *_kept(srcs, disk)])
        if self._rounds:
            self._turns_on_the_way(step)

    def _bends(self, f: float) -> int:
        """How the paths of layer ``f`` bend: the start's own facing off the grid is a layer
        built for this start; when it may turn freely there, its paths at that facing bend once
        at most (the grid's layers have the rest)."""
        once = self.start_in_hub and self.own_layer and f == self.tm.key(self.facing)
        return 1 if once else 2

    def _map_graphed(self, distance: float, f: float | None) -> ReachMap:
        """:meth:`_map` (``None``: the hub's), its corner graph holding every edge up to
        ``distance`` when its paths bend at any corner (:meth:`_bends`; the hub's do), and,
        on the native engine, its form in the compiled core
        (:meth:`~tabletop.geometry.visibility.ReachMap.native_core`): all of it on the
        caller's thread."""
        rm = self.tm.hub if f is None else self._map(f)
        if f is None or self._bends(f) > 1:
            rm.ensure_graph(distance)
        core = engine.core()
        if core is not None:
            rm.native_core(core)
        return rm

    def _made(self, distance: float, f: float | None) -> bool:
        """Whether :meth:`_map_graphed` of ``f`` has nothing to make (its layer built, its
        graph grown to ``distance`` where it needs one, its form in the core made)."""
        tm = self.tm
        if f is None:
            return tm.hub.made_for(distance)
        near = self._layer_near(f)
        if not tm.has_layer(f, near):
            return False
        return self._map(f).made_for(distance if self._bends(f) > 1 else None)

    def _layer_near(self, f: float) -> tuple[float, float, float] | None:
        """The ``near`` of :meth:`TurnMap.layer` for layer ``f`` (the start's own facing off
        the grid: what is within reach of the start), else ``None``."""
        if self.own_layer and f == self.tm.key(self.facing):
            return (self.start[0], self.start[1], self.distance + self.tm.radius + 1e-6)
        return None

    def _map(self, f: float) -> ReachMap:
        """The layer at ``f``; the start's own facing off the grid gets only what is near."""
        return self.tm.layer(f, self._layer_near(f))

    # -- turning at the start ------------------------------------------------------------
    def _start_turns(self) -> dict[float, list[Pose]]:
        """Each facing the mover can turn to at the start, with the poses of the turn."""
        tm, (x, y), f0 = self.tm, self.start, self.facing
        k0 = tm.key(f0)
        out: dict[float, list[Pose]] = {k0: [(x, y, f0)]}
        if self.start_in_hub:
            for g in self.grid:
                if g != k0:
                    out[g] = [(x, y, f0), (x, y, f0 + angle_between(f0, g))]
            return out
        # turn one way, then the other, one grid step at a time, while the exact test allows
        order = sorted(self.grid, key=lambda g: (g - k0) % tm.period)
        for direction in (1, -1):
            seq = order[1:] if direction == 1 else order[1:][::-1]
            at, chain = f0, [(x, y, f0)]
            for g in seq:
                step = (g - at) % tm.period if direction == 1 else -((at - g) % tm.period)
                if tm.turn_blocked((x, y), at, step):
                    break
                at += step
                chain.append((x, y, at))
                if g not in out:
                    out[g] = _compact(chain)
        return out

    def _exits(self, p: tuple[float, float], cut_of: Callable[[float], StartCut | None]
               ) -> tuple[list[_Source], dict[float, list[_Source]]]:
        """A start whose circle is not clear: move out straight at a start facing to where it
        is, turn there, and seed every other layer from those points. The hub's sources
        (the first its start; none: no exit) and each grid layer's more sources; ``cut_of(f)``:
        the start's cut in the layer at start facing ``f``."""
        tm, D = self.tm, self.distance
        ang = np.arange(EXITS) * (2 * math.pi / EXITS)
        dirs = np.column_stack([np.cos(ang), np.sin(ang)])
        # where each ray first reaches the hub (the end of its first stretch outside it): the
        # same rays at every start facing, so found once
        ends = np.asarray(p) + D * dirs
        segs = shapely.linestrings(np.stack([np.broadcast_to(p, ends.shape), ends], axis=1))
        inside = shapely.intersection(segs, tm.not_hub())
        t_hub = np.full(EXITS, np.inf)
        for k, g in enumerate(inside):
            t_hub[k] = _first_exit(g, p, dirs[k], D)
        ok = np.isfinite(t_hub) & (t_hub < D)
        if not ok.any():
            return [], {}
        pts = np.asarray(p) + (t_hub + 1e-7)[:, None] * dirs
        ok &= tm.hub_mask(pts[:, 0], pts[:, 1])
        if not ok.any():
            return [], {}
        idx = np.nonzero(ok)[0]
        found: list[_Source] = []
        # the model's own facing first: an exit found from several facings keeps the fewest
        # turns
        own = tm.key(self.facing)
        for f in sorted(self.start_facings, key=lambda g: abs(angle_between(own, g))):
            rm = self._map(f)
            blocked = rm.blocked(np.broadcast_to(p, (len(idx), 2)), pts[idx], cut_of(f))
            x0, y0, x1, y1 = rm.box
            for k, b in zip(idx.tolist(), blocked.tolist(), strict=True):
                q = (float(pts[k, 0]), float(pts[k, 1]))
                if b or not (x0 <= q[0] <= x1 and y0 <= q[1] <= y1):
                    continue
                chain = list(self._chains[f])
                found.append(_Source(q, float(t_hub[k] + 1e-7),
                                     [*chain, (q[0], q[1], chain[-1][2])]))
        if not found:
            return [], {}
        # the same exit from several start facings: the shortest
        found.sort(key=lambda s: s.dist)
        unique: dict[tuple[float, float], _Source] = {}
        for src in found:
            unique.setdefault((round(src.point[0], 9), round(src.point[1], 9)), src)
        found = list(unique.values())
        seeds: dict[float, list[_Source]] = {}
        for g in self.grid:
            srcs = [_Source(s.point, s.dist, [*s.before, (*s.point,
                                                          s.before[-1][2] + angle_between(
                                                              s.before[-1][2], g))])
                    for s in found if s.before[-1][2] % self.tm.period != g]
            if srcs:
                seeds[g] = srcs
        return found, seeds

    # -- turning on the way --------------------------------------------------------------
    def _turn_plan(self, step: float) -> tuple[tuple[float, ...], np.ndarray, np.ndarray,
                                               np.ndarray, list[float],
                                               dict[float, np.ndarray]] | None:
        """The turn nodes within reach (:meth:`TurnMap.turn_nodes`: their grid, points and
        runs), the layers that take part (the grid's facings, then the start's own off the
        grid; a tie goes to the first) and which nodes each may turn at; ``None``: no node."""
        tm, D = self.tm, self.distance
        x, y = self.start
        nodes = tm.turn_nodes(step, (x - D, y - D, x + D, y + D))
        near = np.nonzero(np.hypot(nodes.xy[:, 0] - x, nodes.xy[:, 1] - y) < D)[0]
        if not len(near):
            return None
        xy, lo, n = nodes.xy[near], nodes.lo[near], nodes.n[near]
        keys = [*nodes.grid, *([tm.key(self.facing)] if self.own_layer else [])]
        usable = {f: nodes.usable(f, tm.period)[near] for f in keys}
        return nodes.grid, xy, lo, n, keys, usable

    def _native(self, core: ModuleType, p: tuple[float, float],
                chains: dict[float, list[Pose]], step: float) -> bool:
        """The searches and the turns on the way in the compiled core (module docstring):
        the same layers, sources and witnesses as the Python's. ``False`` (nothing set) when
        it leaves them to the Python: a layer's start stands in a piece, or it refused."""
        tm, D = self.tm, self.distance
        seeds: dict[float, list[_Source]] = {f: [_Source(p, 0.0, chain)]
                                             for f, chain in chains.items()}
        hub_seeds = [_Source(p, 0.0, [(p[0], p[1], self.facing)])] if self.start_in_hub \
            else []
        if not self.start_in_hub:
            # (a start standing in a piece of a start layer is the Python's: the core answers
            # None below, before these exits are used)
            more_hub, more = self._exits(p, lambda f: None)
            hub_seeds = more_hub
            for g, srcs in more.items():
                seeds.setdefault(g, []).extend(srcs)
        plan = self._turn_plan(step) if self._rounds else None
        if plan is None:
            grid: tuple[float, ...] = ()
            xy, lo, n = np.zeros((0, 2)), np.zeros(0, np.int64), np.zeros(0, np.int64)
            keys: list[float] = []
            usable: dict[float, np.ndarray] = {}
        else:
            grid, xy, lo, n, keys, usable = plan
        # the layers that can have a reach: the seeded ones and those that may turn somewhere
        order = [f for f in keys if f in seeds or usable[f].any()]
        order += [f for f in seeds if f not in order]
        # the layers not built yet are built on threads (the core's sums and corner graphs),
        # and their graphs grown to this move and put in the core there too (the hub's last,
        # if it is used); those made already are taken here (no task on the threads to wait on)
        wanted: list[float | None] = [*order, *([None] if hub_seeds else [])]
        todo = [f for f in wanted if not self._made(D, f)]
        made = dict(zip(todo, engine.native_map(partial(self._map_graphed, D), todo),
                        strict=True))
        maps = [made[f] if f in made else self._map_graphed(D, f) for f in wanted]
        bends = [self._bends(f) for f in order]
        src_rows = [np.array([(*s.point, s.dist) for s in seeds.get(f, [])],
                             dtype=float).reshape(-1, 3) for f in order]
        ok = np.zeros((len(order) + 1, len(xy)), bool)
        for i, f in enumerate(order):
            if f in usable:
                ok[i] = usable[f]
        if hub_seeds:
            bends.append(2)
            src_rows.append(np.array([(*s.point, s.dist) for s in hub_seeds], dtype=float))
        else:
            ok = ok[:-1]
        try:
            got = core.turn_rounds([rm.native_core(core) for rm in maps], src_rows, bends,
                                   np.ascontiguousarray(xy, dtype=float), ok, float(D),
                                   len(grid) + 2 if plan is not None else 0, TURN_GAIN,
                                   engine.call_threads())
        except core.NativeError:
            return False
        if got is None:
            return False
        searches, created, (a_layer, a_node, a_dist, a_from, a_row, a_ptr, a_pts) = got
        a_node = np.asarray(a_node, dtype=np.int64)
        a_dist = np.asarray(a_dist, dtype=float)
        # the sources the rounds added, by layer (in the core's order within each): a fine
        # step adds tens of thousands, made Python objects only when a witness wants one
        by_layer = np.argsort(np.asarray(a_layer, dtype=np.int64), kind="stable")
        cuts = np.searchsorted(np.asarray(a_layer, dtype=np.int64)[by_layer],
                               np.arange(len(order) + 2))

        def added(k: int) -> _Source:
            i = int(a_node[k])
            x, y = float(xy[i, 0]), float(xy[i, 1])
            return _Source((x, y), float(a_dist[k]), partial(
                self._turned_native, x, y, order[int(a_from[k])], int(a_row[k]),
                (a_pts, int(a_ptr[k]), int(a_ptr[k + 1])), order[int(a_layer[k])], grid,
                int(lo[i]), int(n[i])))

        layers: dict[float, _LayerReach] = {}
        # in the Python's order: the seeded layers, then those the rounds created
        for f in [*seeds, *(order[i] for i in created)]:
            j = order.index(f)
            found = searches[j]
            if found is None:
                continue
            head = seeds.get(f, [])
            rows = by_layer[cuts[j]:cuts[j + 1]]
            if not head and not len(rows):
                continue
            first = head[0] if head else added(int(rows[0]))
            if not head:
                head, rows = [first], rows[1:]
            disk = GeodesicDisk.of_search(maps[j], first.point, D, first.dist, bends[j], found)
            kept_head, kept_rows = _kept_rows(head[1:], xy[a_node[rows]], disk)
            layers[f] = _LayerReach(f, disk, _CoreSources([first, *kept_head], rows[kept_rows],
                                                          added))
        self.layers = layers
        if hub_seeds:
            first = hub_seeds[0]
            disk = GeodesicDisk.of_search(tm.hub, first.point, D, first.dist, 2, searches[-1])
            self.hub = _LayerReach(first.before[-1][2], disk,
                                   [first, *_kept(hub_seeds[1:], disk)])
        return True

    def _turns_on_the_way(self, step: float) -> None:
        """Turns at the turn nodes (:meth:`TurnMap.turn_nodes`): a node that one layer reaches
        sooner than another layer of its run becomes a source of that layer, its witness the
        first layer's path there and the turn; round after round (a turn of several steps on
        the way takes a round each) until no layer gains."""
        plan = self._turn_plan(step)
        if plan is None:
            return
        grid, xy, lo, n, keys, usable = plan
        D = self.distance
        dist = {f: np.full(len(xy), np.inf) for f in keys}
        used = {f: np.zeros(len(xy), bool) for f in keys}
        changed = set(self.layers)
        # each layer's answer at its nodes, carried from round to round (a round's few new
        # sources change the answer of few nodes)
        last: dict[float, Distances] = {}
        for _ in range(len(grid) + 2):
            for f in changed:
                m = usable[f]
                if f in self.layers and m.any():
                    last[f] = self.layers[f].disk.distances(xy[m], since=last.get(f))
                    dist[f][m] = last[f].out
            stack = np.stack([dist[f] for f in keys])
            best = stack.min(axis=0)
            arg = stack.argmin(axis=0)
            gains: dict[float, np.ndarray] = {}
            for f in keys:
                g = usable[f] & ~used[f] & (best < D - 1e-6) & (best + TURN_GAIN < dist[f])
                if g.any():
                    gains[f] = np.nonzero(g)[0]
            if not gains:
                return
            # the layers as they are now, which gave these distances: a turn node's witness is
            # its first layer's path as it was then (the layer as it is later may reach the node
            # through a source of the node's own second layer, whose witness comes back through
            # the node: a witness that never ended, a RecursionError)
            snapshot = dict(self.layers)
            for f, ids in gains.items():
                used[f][ids] = True
                srcs = [_Source((float(xy[i, 0]), float(xy[i, 1])), float(best[i]),
                                partial(self._turned, float(xy[i, 0]), float(xy[i, 1]),
                                        snapshot.get(keys[int(arg[i])]), keys[int(arg[i])], f,
                                        grid, int(lo[i]), int(n[i])))
                        for i in ids.tolist()]
                self._add_sources(f, srcs)
            changed = set(gains)

    def _turned(self, x: float, y: float, lay: _LayerReach | None, f1: float, f2: float,
                grid: tuple[float, ...], lo: int, n: int) -> list[Pose]:
        """The witness of a turn node: layer ``f1``'s path to ``(x, y)`` (``lay``: that layer
        when the node was found), then the turn to ``f2``."""
        before = _witness_in(lay, x, y)
        # the node's distance was that of a path in f1's reach: the witness exists
        assert before is not None
        return [*before, *_turn_poses((x, y), before[-1][2], f1, f2, grid, self.tm.period,
                                      lo, n)]

    def _turned_native(self, x: float, y: float, f1: float, src_row: int,
                       path: tuple[np.ndarray, int, int], f2: float, grid: tuple[float, ...],
                       lo: int, n: int) -> list[Pose]:
        """The witness of a turn node the compiled core found: layer ``f1``'s path to
        ``(x, y)`` from its source row ``src_row`` (``path``: rows ``a .. b`` of the core's
        points, the source and the nodes on the way, as that layer's search was in that
        round), then the turn to ``f2``."""
        pts_all, a, b = path
        pts = [(float(u), float(v)) for u, v in pts_all[a:b].tolist()]
        before = _poses_from(self.layers[f1].sources[src_row], [*pts, (x, y)])
        return [*before, *_turn_poses((x, y), before[-1][2], f1, f2, grid, self.tm.period,
                                      lo, n)]

    def _add_sources(self, f: float, srcs: list[_Source]) -> None:
        """Layer ``f``'s reach again with ``srcs`` among its sources (its search carried on
        from them)."""
        got = self.layers.get(f)
        every = [*(got.sources if got is not None else []), *srcs]
        first, rest = every[0], every[1:]
        once = self.start_in_hub and self.own_layer and f == self.tm.key(self.facing)
        disk = self._map(f).disk(first.point, self.distance, [(*s.point, s.dist) for s in rest],
                                 start=first.dist, bends=1 if once else 2,
                                 base=got.disk if got is not None else None)
        self.layers[f] = _LayerReach(f, disk, [first, *_kept(rest, disk)])

    # -- point queries -------------------------------------------------------------------
    def reach_of(self, x: float, y: float) -> list[tuple[float, float]]:
        """``(facing, distance)`` of every layer that reaches ``(x, y)`` within the limit."""
        out = []
        for f, lay in self.layers.items():
            d = lay.disk.distance_to(x, y)
            if math.isfinite(d) and d <= self.distance + 1e-6:
                out.append((f, d))
        return out

    def witness(self, x: float, y: float, facing: float | None) -> list[Pose] | None:
        """The poses of a path to ``(x, y)`` in the layer at ``facing`` (``None``: the hub),
        or ``None``."""
        return _witness_in(self.hub if facing is None else self.layers.get(self.tm.key(facing)),
                           x, y)


def _witness_in(lay: _LayerReach | None, x: float, y: float) -> list[Pose] | None:
    """The poses of a path to ``(x, y)`` in the layer ``lay``, or ``None``."""
    if lay is None:
        return None
    got = lay.disk.path_from_source(x, y)
    if got is None:
        return None
    src_row, pts = got
    return _poses_from(lay.sources[src_row], pts)


def _poses_from(src: _Source, pts: list[tuple[float, float]]) -> list[Pose]:
    """The poses of a path in a layer from its source ``src``: ``pts`` (the source first, a
    last point repeating the one before it dropped) at the source's facing."""
    if len(pts) > 1 and pts[-1] == pts[-2]:
        pts = pts[:-1]
    f = src.before[-1][2]
    poses = list(src.before)
    for px, py in pts[1:]:
        poses.append((px, py, f))
    return _compact(poses)


TURN_GAIN = 1e-3
"""How much sooner (inches) another layer must reach a turn node for it to become a source."""


def _turn_poses(at: tuple[float, float], current: float, f1: float, f2: float,
                grid: tuple[float, ...], per: float, lo: int, n: int) -> list[Pose]:
    """The poses of a turn in place at ``at`` from ``f1`` (the mover's facing ``current``,
    the same modulo the period) to ``f2`` through a node's run: one pose per grid facing on
    the way, so each piece turns the short way."""
    k = len(grid)
    step = per / k
    if n >= k:
        d = (f2 - f1 + per / 2) % per - per / 2
        mids = [current + d / 2] if abs(abs(d) - 180.0) < 1e-9 else []
        return [(at[0], at[1], m) for m in [*mids, current + d]]
    a0 = grid[lo]
    v1 = a0 + (f1 - a0) % per
    v2 = a0 + (f2 - a0) % per
    lo_v, hi_v = (v1, v2) if v1 <= v2 else (v2, v1)
    inner = [a0 + i * step for i in range(n + 1) if lo_v + 1e-9 < a0 + i * step < hi_v - 1e-9]
    seq = inner if v1 <= v2 else inner[::-1]
    return [(at[0], at[1], current + (v - v1)) for v in [*seq, v2]]


def _kept_rows(head: list[_Source], more: np.ndarray, disk: GeodesicDisk
               ) -> tuple[list[_Source], np.ndarray]:
    """:func:`_kept` of ``head`` followed by sources at the points ``more`` (rows of an
    ``(m, 2)`` array): the kept ones of ``head``, and the indices of the kept rows of
    ``more``, in the disk's row order."""
    if int(disk.n_sources) - 1 == len(head) + len(more):
        # (every source kept: a search only drops sources, keeping the others' order)
        return list(head), np.arange(len(more))
    mine = np.array([s.point for s in head], dtype=float).reshape(-1, 2)
    every = np.concatenate([mine, np.asarray(more, dtype=float).reshape(-1, 2)])
    idx = matched_rows(every, disk.nodes[1:disk.n_sources])
    return [head[k] for k in idx[idx < len(head)].tolist()], idx[idx >= len(head)] - len(head)


def matched_rows(every: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Which of the points ``every`` (``(n, 2)``) a search kept as its sources ``rows`` (the
    points it did not drop, in order): their indices, each row matched to the next point of
    ``every`` within 1e-12 of it, one by one. Vectorised where every
    row is a point of ``every`` exactly, at increasing places (the core keeps its sources'
    coordinates as they were given, in their order): the same indices."""
    every = np.asarray(every, dtype=float).reshape(-1, 2)
    rows = np.asarray(rows, dtype=float).reshape(-1, 2)
    if len(rows) == len(every) and bool((np.abs(rows - every) < 1e-12).all()):
        return np.arange(len(every))  # every source kept
    if len(rows) and len(every):
        order = np.lexsort((every[:, 1], every[:, 0]))
        ex, ey = every[order, 0], every[order, 1]
        # each row at the first place of its point (lexsort is stable): increasing, that is
        # the earliest place after the row before, what matching one by one finds
        lo = np.searchsorted(ex, rows[:, 0], side="left")
        hi = np.searchsorted(ex, rows[:, 0], side="right")
        pos = lo.copy()
        for k in np.nonzero(hi - lo > 1)[0].tolist():
            pos[k] = lo[k] + np.searchsorted(ey[lo[k]:hi[k]], rows[k, 1], side="left")
        pos = np.minimum(pos, len(every) - 1)
        idx = order[pos]
        if bool((ex[pos] == rows[:, 0]).all()) and bool((ey[pos] == rows[:, 1]).all()) and \
                (len(idx) < 2 or bool((np.diff(idx) > 0).all())):
            return idx.astype(np.int64)
    out = []
    j = 0
    rl = rows.tolist()
    for k, (x, y) in enumerate(every.tolist()):
        if j < len(rl) and abs(rl[j][0] - x) < 1e-12 and abs(rl[j][1] - y) < 1e-12:
            out.append(k)
            j += 1
    return np.array(out, dtype=np.int64)


def _kept(srcs: Sequence[_Source], disk: GeodesicDisk) -> list[_Source]:
    """The sources the disk kept (it drops those inside a piece), in its row order."""
    return _kept_rows(list(srcs), np.zeros((0, 2)), disk)[0]


def _first_exit(g: shapely.Geometry, p: tuple[float, float], d: np.ndarray, D: float) -> float:
    """How far along the ray from ``p`` in direction ``d`` the part of ``g`` (the ray's
    intersection with the hub's pieces) that starts at ``p`` ends."""
    if g.is_empty:
        return 0.0
    best = math.inf
    for part in shapely.get_parts(g):
        c = shapely.get_coordinates(part)
        if not len(c):
            continue
        t = (c - np.asarray(p)) @ d
        if t.min() <= 1e-9:
            best = min(best, float(t.max()))
    return best if math.isfinite(best) else 0.0


def _compact(poses: list[Pose]) -> list[Pose]:
    """Drop repeated poses."""
    out: list[Pose] = []
    for q in poses:
        if out and math.dist(out[-1][:2], q[:2]) <= 1e-12 and \
                abs(angle_between(out[-1][2], q[2])) <= 1e-9:
            continue
        out.append(q)
    return out

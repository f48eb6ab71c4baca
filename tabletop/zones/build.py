"""The Python engine's zones: per-phase geometry kept per board, and the zone of one query.

The legal zone of a mover is the set of base-centre positions it can reach and end at:

*reach*
    some chain of straight lines of total length at most the query's limit keeps the base off
    the board's path models and pieces and inside the battlefield;
*end*
    the base overlaps no other model and no end piece, lies wholly on the battlefield, and is
    more than the board's clearance from every enemy base.

Non-round movers turn as they move (straight lines at a fixed facing, turns in place): their
zone is built over facing layers, turn regions and turn nodes (:mod:`tabletop.geometry.turning`,
:func:`turning_zone`): every point of it has a witness path that
:func:`~tabletop.zones.paths.check_path` accepts, and it approaches the true zone from inside
as the facing step shrinks; the end test uses the exact footprint at the facing the path ends
at.

Caching: enemies and terrain do not move during the player's own movement phase, so the
inflated obstacles, their corners and visibility graph
(:func:`tabletop.geometry.visibility.reach_map`) and the static end region (enemies' clearance
areas, terrain: :func:`tabletop.zones.end.static_end`) are kept in LRU caches keyed by id-free
hashable inputs (positions, base sizes, terrain outlines). On top of them, a small memo keyed by
the identity of the query's :class:`~tabletop.zones.query.Board` keeps the way to those caches,
so a pick-up on the same board hashes nothing large (:class:`IdentityMemo`); a new board whose
path models, enemies and pieces are the same objects (a friend moved: the ruleset keeps the
bodies of the units a move left as they were) finds a round mover's phase by their identities
(:func:`phase_geometry`). A pick-up then costs the Dijkstra, the wedges and one overlay with
the end region. No geometry is ever stored in the query; :func:`clear_caches` forgets
everything.
"""

from __future__ import annotations

import contextlib
import math
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from types import ModuleType
from typing import Any, ClassVar, cast

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.geometry import engine
from tabletop.geometry.cspace import clear_footprint_caches
from tabletop.geometry.footprints import (
    Footprint,
    Round,
    circumscribed_rings,
)
from tabletop.geometry.geodesic import GeodesicDisk
from tabletop.geometry.polygons import clipped, convex_pieces, polygonal
from tabletop.geometry.sums import native_common
from tabletop.geometry.turn_reach import TurnReach
from tabletop.geometry.turning import (
    NEAR_MARGIN,
    TurnMap,
    facing_grid,
    held_by,
    layer_step,
    turn_map,
)
from tabletop.geometry.visibility import ReachMap, reach_map
from tabletop.geometry.wedges import (
    RegionAsk,
    kept_polygons,
    native_layer_regions,
    native_union,
)
from tabletop.zones.end import (
    BodyKey,
    body_key,
    clear_end_caches,
    facing_key,
    models_region,
    native_end,
    native_models_pieces,
    native_models_union,
    outline_of,
    static_end,
)
from tabletop.zones.query import Board, Body, MoveQuery
from tabletop.zones.zone import Zone

__all__ = [
    "PATH_SEGMENTS",
    "IdentityMemo",
    "Phase",
    "TurnPhase",
    "clear_caches",
    "friend_keys",
    "hub_end",
    "phase_geometry",
    "round_zone",
    "turn_end",
    "turn_phase",
    "turning_zone",
    "zone_of",
]

PATH_SEGMENTS = 64
"""Vertices of the circumscribed polygon of a non-round base as a path obstacle.

Its vertices lie at most ``a * (1 / cos(pi / 64) - 1)`` (0.0021" for a 90 mm oval) outside
the base, on the safe side; the 256-vertex outline made every corner of it a bend candidate
and blew the visibility graph up on real layouts (O(corners^2) candidate edges)."""


class IdentityMemo:
    """Work that depends only on an object (a board, a game state, a unit), kept while that
    object lives: at most ``slots`` objects, the least recently used forgotten first.

    Objects compared by identity (frozen, so their work never goes stale): a pick-up on the
    same object finds it here without rebuilding or hashing anything large, in one dict
    look-up however many slots. An object that cannot be weakly referenced (a tuple, such as
    the terrain of a game state, which states made from one another share) is held strongly:
    at most ``slots`` of them."""

    _every: ClassVar[weakref.WeakSet[IdentityMemo]] = weakref.WeakSet()

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._known: OrderedDict[int, tuple[Callable[[], Any], dict[object, Any]]] = \
            OrderedDict()
        IdentityMemo._every.add(self)

    def of(self, obj: object) -> dict[object, Any]:
        """The memo of ``obj`` (a new, empty one the first time)."""
        key = id(obj)
        known = self._known
        got = known.get(key)
        if got is not None and got[0]() is obj:
            if len(known) > 1:
                with contextlib.suppress(KeyError):  # (another thread forgot it)
                    known.move_to_end(key)
            return got[1]
        memo: dict[object, Any] = {}
        try:
            # (forgotten when the object goes: its id may then name another)
            ref: Callable[[], Any] = weakref.ref(obj, partial(self._gone, key))
        except TypeError:  # a tuple: held, as the slots allow
            ref = partial(_same, obj)
        known[key] = (ref, memo)
        with contextlib.suppress(KeyError):  # (a key kept for a gone object is moved last)
            known.move_to_end(key)
        while len(known) > self.slots:
            with contextlib.suppress(KeyError):
                known.popitem(last=False)
        return memo

    def _gone(self, key: int, ref: object) -> None:
        got = self._known.get(key)
        if got is not None and got[0] is ref:
            self._known.pop(key, None)

    def clear(self) -> None:
        """Forget everything."""
        self._known.clear()

    @classmethod
    def clear_all(cls) -> None:
        """Forget everything every memo holds (:func:`clear_caches`)."""
        for memo in list(cls._every):
            memo.clear()


def _same(obj: object) -> object:
    return obj


_BOARDS = IdentityMemo(8)
"""The per-board memos (a board per game state and kind of mover)."""


class _Key:
    """A hashable key that computes its (large) hash once."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: tuple[object, ...]) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Key) and self._hash == other._hash
                                 and self.value == other.value)


def _reach_inputs(board: Board, radius: float) -> tuple[Any, ...]:
    """The hashable inputs of the board's reach map for a mover of ``radius``."""
    memo = _BOARDS.of(board)
    got = memo.get("reach")
    if got is None:
        circles = []
        polys = []
        for o in board.path_models:
            if isinstance(o.footprint, Round):
                circles.append((o.at[0], o.at[1], o.footprint.radius))
            else:
                polys.append(_placed_outline(o.footprint, o.at, o.facing))
        for t in board.path_pieces:
            polys.append(t.ring)
        got = (tuple(sorted(circles)), tuple(sorted(polys)))
        memo["reach"] = got
    return (float(board.width), float(board.depth), float(radius), *got)


@lru_cache(maxsize=1024)
def _placed_outline(base: Footprint, at: tuple[float, float], facing: float
                    ) -> tuple[tuple[float, float], ...]:
    """A non-round path model's outline (its circumscribed polygon of :data:`PATH_SEGMENTS`
    vertices) as a hashable tuple."""
    return outline_of(base.placed(at[0], at[1], facing, segments=PATH_SEGMENTS))


def _ends(board: Board, mover: Body) -> tuple[tuple[BodyKey, ...], tuple[Any, ...]]:
    """The enemies (but the mover) and end pieces as the end regions' hashable inputs."""
    # sorted by place and facing (a cheap key; ties keep the board's order)
    enemies = tuple(sorted((body_key(o) for o in board.enemies if o.id != mover.id),
                           key=lambda k: (k[0], k[2])))
    terrain = tuple(sorted(t.ring for t in board.end_pieces))
    return enemies, terrain


@dataclass(frozen=True)
class Phase:
    """The per-phase geometry of a round mover: its reach map (the free space), where it may
    not end whoever else moves (enemies' clearance areas and end pieces, prepared) and that
    set's cache key."""

    reach: ReachMap
    exclude: BaseGeometry
    key: object


def phase_geometry(q: MoveQuery) -> Phase:
    """The per-phase geometry of the mover of ``q`` (:class:`Phase`).

    It depends on the board and on what the mover is (base and facing), not on which model it
    is or where it stands.
    """
    base = q.mover.footprint
    fkey = facing_key(base, q.mover.facing)
    who = ("phase", base, fkey)
    memo = _BOARDS.of(q.board)
    got = memo.get(who)
    if got is None:
        def build() -> Phase:
            rm = reach_map(*_reach_inputs(q.board, base.radius))
            enemies, terrain = _ends(q.board, q.mover)
            static = static_end(base, fkey, enemies, terrain, q.board.clearance)
            return Phase(rm, static,
                         _Key(("end", base, fkey, enemies, terrain, q.board.clearance)))

        got = _standing_phase(q.board, q.mover, ("round", base, fkey), build)
        memo[who] = got
    return cast(Phase, got)


def _standing_phase(board: Board, mover: Body, which: tuple[object, ...],
                    build: Callable[[], Any]) -> Any:
    """The phase ``which`` (a kind of mover, its footprint and facing or step) of ``board``:
    the one kept for a board of the same standing models and pieces (:func:`_standing`; a new
    board each game state, and a friend of the mover moved), else ``build()``'s, kept."""
    held, key = _standing(board, mover)
    key = (*key, *which)
    kept = _STANDING_PHASES.get(key)
    if kept is not None:  # (ids of live objects, the kept ones held: the same objects)
        with contextlib.suppress(KeyError):  # (another thread forgot it)
            _STANDING_PHASES.move_to_end(key)
        return kept[1]
    got = build()
    _STANDING_PHASES[key] = (held, got)
    while len(_STANDING_PHASES) > _PHASE_SLOTS:
        with contextlib.suppress(KeyError):
            _STANDING_PHASES.popitem(last=False)
    return got


def _standing(board: Board, mover: Body) -> tuple[tuple[tuple[object, ...], ...],
                                                  tuple[object, ...]]:
    """What a phase of ``board`` depends on besides the mover's footprint and facing: its
    path models and pieces, its enemies (the mover left out) and end pieces, as those tuples
    and a key of their members' identities (the tuples held with the key, so that no id in it
    names another object while it is kept; Bodies and Pieces are frozen), with the box and
    clearance."""
    enemies = tuple(o for o in board.enemies if o.id != mover.id)
    held = (board.path_models, board.path_pieces, enemies, board.end_pieces)
    return held, (board.width, board.depth, board.clearance,
                  *(tuple(map(id, part)) for part in held))


def _friends_region(q: MoveQuery, near: BaseGeometry, facing: float | None = None
                    ) -> BaseGeometry:
    """Overlap regions of the non-enemy models close enough to matter (the mover at
    ``facing``, default its own)."""
    if near.is_empty:
        return Polygon()
    base = q.mover.footprint
    fkey = facing_key(base, q.mover.facing if facing is None else facing)
    return models_region(friend_keys(q, near.bounds), base, fkey, 0.0)


def friend_keys(q: MoveQuery, bounds: tuple[float, float, float, float]
                ) -> tuple[BodyKey, ...]:
    """The keys of the non-enemy models (the mover left out) some facing of the mover could
    touch while its centre is in the box ``bounds`` (``x0, y0, x1, y1``)."""
    x0, y0, x1, y1 = bounds
    keys = []
    base = q.mover.footprint
    for o in q.board.friends:
        if o.id == q.mover.id:
            continue
        reach = o.footprint.radius + base.radius + 1e-6
        if o.at[0] < x0 - reach or o.at[0] > x1 + reach or o.at[1] < y0 - reach or \
                o.at[1] > y1 + reach:
            continue
        keys.append(body_key(o))
    return tuple(keys)


def round_zone(q: MoveQuery) -> Zone:
    """The zone of a round mover: its geodesic disk minus the end regions."""
    ph = phase_geometry(q)
    disk = ph.reach.disk((float(q.mover.at[0]), float(q.mover.at[1])), float(q.limit))
    geom = disk.region(ph.exclude, ph.key)
    friends = _friends_region(q, geom)
    if not friends.is_empty:
        geom = geom.difference(friends)
    return Zone(q, polygonal(geom), disk=disk)


# --------------------------------------------------------------------------------------------
# zones of non-round movers: layers of facings (tabletop.geometry.turning)
# --------------------------------------------------------------------------------------------
@dataclass
class TurnPhase:
    """The per-phase geometry of a turning mover: its layers and, per facing, where it may
    not end (built on first use)."""

    tm: TurnMap
    grid: tuple[float, ...]
    enemies: tuple[BodyKey, ...]
    terrain: tuple[tuple[tuple[float, float], ...], ...]
    clearance: float
    key: _Key
    ends: dict[object, tuple[BaseGeometry, _Key]] = field(default_factory=dict)
    near_ends: dict[tuple[float, float, float, float], object] = field(default_factory=dict)
    """The disks ``(facing, x, y, reach)`` of the ends made near a start (their keys in
    ``ends``), the last first."""
    hub_end: tuple[BaseGeometry, _Key] | None = None
    terrain_polygons: np.ndarray | None = None
    """``terrain`` as shapely polygons, one array (built on first use)."""


_PHASES: dict[_Key, TurnPhase] = {}
"""The turning movers' phases by value (oldest first), for boards that differ only in the
moving side's models."""
_PHASE_SLOTS = 8
_STANDING_PHASES: OrderedDict[tuple[object, ...], tuple[tuple[tuple[object, ...], ...], Any]] = \
    OrderedDict()
"""The phases of round and turning movers (:func:`phase_geometry`, :func:`turn_phase`) by the
identities of what they depend on (:func:`_standing`) and which phase, least recently used
first: at most ``_PHASE_SLOTS`` (what they hold is kept by the value-keyed caches too)."""


def turn_phase(q: MoveQuery, step: float) -> TurnPhase:
    """The per-phase geometry of the turning mover of ``q`` at facing step ``step``."""
    base = q.mover.footprint
    who = ("turn", base, step)
    memo = _BOARDS.of(q.board)
    got = memo.get(who)
    if got is None:
        def build() -> TurnPhase:
            W, H, _, circles, polys = _reach_inputs(q.board, base.radius)
            tm = turn_map(W, H, base, circles, polys)
            enemies, terrain = _ends(q.board, q.mover)
            # the same phase on a new board object of equal standing models (made anew, not
            # kept: a state loaded again): the end regions built for it still hold
            key = _Key(("turn-end", base, step, tm, enemies, terrain, q.board.clearance))
            found = _PHASES.get(key)
            if found is None:
                found = TurnPhase(tm, facing_grid(base, 0.0, step), enemies, terrain,
                                  q.board.clearance, key)
                _PHASES[key] = found
                while len(_PHASES) > _PHASE_SLOTS:
                    del _PHASES[next(iter(_PHASES))]
            return found

        got = _standing_phase(q.board, q.mover, ("turn", base, step), build)
        memo[who] = got
    return cast(TurnPhase, got)


def turn_end(ph: TurnPhase, base: Footprint, facing: float,
             near: tuple[float, float, float] | None = None) -> tuple[BaseGeometry, _Key]:
    """Where the mover at ``facing`` may not end: enemies' clearance areas and terrain
    (static, prepared), and its key.

    With ``near = (x, y, reach)`` (the start's own facing off the grid, new for every model),
    only what can reach into the disk of radius ``reach`` about ``(x, y)``, where that layer's
    region lies: exact there, and a fraction of the board's work. What it makes there reaches
    :data:`~tabletop.geometry.turning.NEAR_MARGIN` farther and answers every later ``near``
    whose disk it holds at that facing (the last few kept).
    """
    k = ph.tm.key(facing)
    enemies, terrain = ph.enemies, ph.terrain
    disk = None
    if near is not None:
        x, y, reach = near
        # one made for a disk that holds this one answers the same here (what it has more
        # lies farther off); each is made for NEAR_MARGIN more, so that the next models of
        # a unit find it
        held = held_by(ph.near_ends, k, near, ph.ends)
        if held is not None:
            return ph.ends[held]
        reach += NEAR_MARGIN
        disk = (k, x, y, reach)
        r = base.radius + reach + ph.clearance + 1e-3
        enemies = tuple(e for e in enemies if math.dist(e[0], (x, y)) <= r + e[1].radius)
        if ph.terrain_polygons is None:
            ph.terrain_polygons = np.array([Polygon(t) for t in terrain], dtype=object)
        # the pieces within reach (one vectorised distance: the same test as each alone)
        close = shapely.distance(ph.terrain_polygons, Point(x, y)) <= base.radius + reach + 1e-3
        terrain = tuple(t for t, k in zip(terrain, close.tolist(), strict=True) if k)
    which = (k, enemies, terrain) if near is not None else k
    got = ph.ends.get(which)
    if got is None:
        got = (static_end(base, k, enemies, terrain, ph.clearance), _Key(("at", ph.key, which)))
        if near is not None:
            # one per start facing: keep the last few
            for old in [w for w in ph.ends if isinstance(w, tuple)][:-3]:
                del ph.ends[old]
        ph.ends[which] = got
    if disk is not None:
        ph.near_ends = {disk: which, **dict(list(ph.near_ends.items())[:3])}
    return got


def hub_end(ph: TurnPhase, base: Footprint) -> tuple[BaseGeometry, _Key]:
    """Where a mover whose circumscribed circle is clear (so it may turn to any facing) may
    not end: where every grid facing breaks the end rules (within the hub's box)."""
    if ph.hub_end is None:
        core = engine.core()
        kept = [native_end(base, ph.tm.key(m), ph.enemies, ph.terrain, ph.clearance)
                for m in ph.grid] if core is not None else []
        stuck: BaseGeometry | None = None
        if core is not None and all(k is not None for k in kept):
            # every facing's region as the core keeps it: one call, no polygons converted
            try:
                stuck = native_common(core, ph.tm.hub.box, kept)
            except core.NativeError:
                stuck = None  # past the core's limits (a battlefield a mile wide): Python
        if stuck is None:
            stuck = box(*ph.tm.hub.box)
            for m in ph.grid:
                xm = turn_end(ph, base, m)[0]
                stuck = stuck.intersection(clipped(xm, stuck.bounds)) if not xm.is_empty \
                    else Polygon()
                if stuck.is_empty:
                    break
        stuck = polygonal(stuck)
        shapely.prepare(stuck)
        ph.hub_end = (stuck, _Key(("hub", ph.key)))
    return ph.hub_end


def _near_friends(q: MoveQuery, near: BaseGeometry) -> BaseGeometry:
    """Where some facing of the mover could touch a non-enemy model: the friends' circles
    grown by the mover's circumscribed radius (a superset, circumscribed polygons). The
    union of the circles of the friends of another footprint than the mover's (as a rule
    other units, which stand while a unit moves) is kept for the next pick-up
    (:func:`_circles_union`)."""
    if near.is_empty:
        return Polygon()
    own, other = _friend_circles(q, near)
    if not own:
        return _circles_union(tuple(other))
    parts = list(_circles(own))
    if other:
        parts.append(_circles_union(tuple(other)))
    return shapely.union_all(parts)


def _native_near_friends(core: ModuleType, q: MoveQuery, near: BaseGeometry) -> object | None:
    """:func:`_near_friends`' circles as a clip set kept in the compiled core, not unioned
    (its cut fills them by the non-zero rule); ``None`` for none."""
    own, other = _friend_circles(q, near) if not near.is_empty else ([], [])
    if not own and not other:
        return None
    pts = _circle_rings(own + other)
    n, m = pts.shape[:2]
    return core.PolySet(np.ascontiguousarray(pts.reshape(-1, 2)),  # type: ignore[attr-defined]
                        np.arange(0, n * m + 1, m, dtype=np.int64),
                        np.arange(n + 1, dtype=np.int64))


def _friend_circles(q: MoveQuery, near: BaseGeometry
                    ) -> tuple[list[tuple[tuple[float, float], float]],
                               list[tuple[tuple[float, float], float]]]:
    """The circles (centre, radius) of :func:`_near_friends`: those of the mover's footprint
    and those of another."""
    x0, y0, x1, y1 = near.bounds
    base = q.mover.footprint
    own: list[tuple[tuple[float, float], float]] = []
    other: list[tuple[tuple[float, float], float]] = []
    for o in q.board.friends:
        if o.id == q.mover.id:
            continue
        r = o.footprint.radius + base.radius + 1e-6
        if o.at[0] < x0 - r or o.at[0] > x1 + r or o.at[1] < y0 - r or o.at[1] > y1 + r:
            continue
        (own if o.footprint == base else other).append((o.at, r))
    return own, other


def _circle_rings(circles: Sequence[tuple[tuple[float, float], float]]) -> np.ndarray:
    """The vertices of the circumscribed 32-gons of ``circles`` (centre, radius)."""
    return circumscribed_rings(np.array([c for c, _ in circles], dtype=float).reshape(-1, 2),
                               np.array([r for _, r in circles], dtype=float), segments=32)


def _circles(circles: Sequence[tuple[tuple[float, float], float]]) -> np.ndarray:
    """:func:`_circle_rings` as polygons."""
    pts = _circle_rings(circles)
    return shapely.polygons(pts) if len(pts) else np.zeros(0, dtype=object)


@lru_cache(maxsize=32)
def _circles_union(circles: tuple[tuple[tuple[float, float], float], ...]) -> BaseGeometry:
    """GEOS's union of :func:`_circles` of ``circles`` (kept: the friends that stand)."""
    return shapely.union_all(_circles(circles)) if circles else Polygon()


def turning_zone(q: MoveQuery) -> Zone:
    """The zone of a non-round mover (module docstring; :mod:`tabletop.geometry.turning`).

    Each layer's reach minus the end rules at its facing, and the hub's reach (its
    circumscribed circle clear all the way, so any facing at the end) minus where every grid
    facing breaks them; within reach of a friendly model only the layers count, each at its
    own facing.
    """
    mover = q.mover
    base, start = mover.footprint, (float(mover.at[0]), float(mover.at[1]))
    step = layer_step(base, None if q.step is None else float(q.step))
    ph = turn_phase(q, step)
    own = None if ph.tm.key(mover.facing) in ph.grid else (*start, q.limit)
    # the turn regions the nodes lie on, the grid's facings' end regions (each built once a
    # phase) begun on threads while the reach is searched (the searches' own Python leaves a
    # processor idle)
    ph.tm.begin_turn_nodes(step)
    ends = engine.native_later(lambda f: turn_end(ph, base, f),
                               [f for f in ph.grid if ph.tm.key(f) not in ph.ends])
    # and then the hub's (where every grid facing breaks them), from those (on the Python
    # engine: made below only if the hub is reached)

    def hub_after_ends(_: None) -> tuple[BaseGeometry, _Key]:
        ends()
        return hub_end(ph, base)

    hub_ends = engine.native_later(hub_after_ends, [None])
    try:
        reach = TurnReach(ph.tm, start, mover.facing, q.limit, step)
    except BaseException:
        with contextlib.suppress(Exception):
            ends()  # (the threads write the phase's end regions: none left running)
        raise
    ends()
    if reach.hub is not None:
        hub_ends()
    # within reach of a friend the end facing matters: there the mover may end only at the
    # facing a layer arrives at, clear of the friends (the hub's any-facing end is given up
    # there: on the safe side). The friends near the move's box: a circle that misses it
    # misses every layer's region, so a layer is cut where the friends near all the regions'
    # box would cut it
    x, y, d = start[0], start[1], float(q.limit)
    move_box = box(x - d, y - d, x + d, y + d)
    # on the native engine the friends near the move are cut in the core from each layer's
    # region as it makes it (the same set: it cuts by those whose boxes meet the region's);
    # their circles (the same friends) are made only for the Python engine's cut
    move_keys = friend_keys(q, move_box.bounds)
    core = engine.core()
    near_keys = move_keys if core is not None else ()
    near_move = Polygon() if not move_keys or near_keys else _near_friends(q, move_box)
    # the friends of another footprint than the mover's (as a rule other units, which stand
    # while a unit moves) are cut as their union at each facing, kept for the next pick-up
    # (native_models_union; a union of more friends cuts the same where only those near
    # reach); those of the mover's footprint (as a rule its unit's other models, which move
    # between its pick-ups) as their sums. Either way the same cut
    own_keys = tuple(k for k in near_keys if k[1] == base)
    other_keys = tuple(k for k in near_keys if k[1] != base)
    other_around: tuple[BodyKey, ...] = ()
    standing: frozenset[BodyKey] = frozenset()
    if other_keys:
        # the union is made of those near the moves of the mover and of each friend of its
        # footprint near it (its unit, as a rule), so that their pick-ups meet it made
        xs = [x, *(k[0][0] for k in own_keys)]
        ys = [y, *(k[0][1] for k in own_keys)]
        other_around = tuple(k for k in friend_keys(q, (min(xs) - d, min(ys) - d,
                                                         max(xs) + d, max(ys) + d))
                             if k[1] != base)
        # (a kept union of more answers while all of those stand where it has them)
        standing = frozenset(body_key(o) for o in q.board.friends
                             if o.id != mover.id and o.footprint != base)

    def layer_ask(ask: tuple[float, Any, BaseGeometry, object]) -> RegionAsk | None:
        # a layer's region as the core builds it: minus its end rules, and minus the friends
        # where they come near (None: the core cannot hold a friends' clip set)
        f, lay, excl, key = ask
        pieces = native_models_pieces(own_keys, base, f) if own_keys else None
        fixed = native_models_union(other_keys, base, f, other_around, standing) \
            if other_keys else None
        if (pieces is None and own_keys) or (fixed is None and other_keys):
            return None
        return (lay.disk, excl, key, pieces, fixed)

    def layer_python(ask: tuple[float, Any, BaseGeometry, object]
                     ) -> tuple[tuple[float, float, float, float] | None, object]:
        # a layer's region minus its end rules, and minus the friends where they come near
        # (where the core does not build it); with the box of its region before the friends'
        # cut (None: empty)
        f, lay, excl, key = ask
        g = lay.disk.region(excl, key)
        whole = None if g.is_empty else g.bounds
        if g.is_empty or not move_keys:
            return whole, g
        circles = near_move if not near_keys else _near_friends(q, move_box)  # (core refused)
        if not circles.intersects(g):
            return whole, g
        return whole, g.difference(_friends_region(q, g, f))

    asks = [(f, lay, *turn_end(ph, base, f, own if f == ph.tm.key(mover.facing) else None))
            for f, lay in reach.layers.items()]

    def hub_ask(disk: GeodesicDisk) -> RegionAsk:
        # the hub's region as the core builds it: minus where it may not end, and minus the
        # friends' circles near the move (it takes those near the region: those farther off
        # leave it as it is)
        excl, key = hub_end(ph, base)
        assert core is not None
        near = _native_near_friends(core, q, move_box) if move_keys else None
        return (disk, excl, key, near, None)

    def hub_python(disk: GeodesicDisk) -> tuple[tuple[float, float, float, float] | None,
                                                 object]:
        # the hub's region minus where it may not end, and minus the friends near it (where
        # the core does not build it); with its box as a layer's
        excl, key = hub_end(ph, base)
        hub = disk.region(excl, key)
        near = _near_friends(q, hub) if not hub.is_empty else Polygon()
        cut = hub.difference(near) if not hub.is_empty and not near.is_empty else hub
        return (None if cut.is_empty else cut.bounds), cut

    bounds = (0.0, 0.0, float(q.board.width), float(q.board.depth))

    # the layers by facing (adjacent facings' regions, most alike, are unioned first) and
    # the hub's last
    items: list[tuple[float, Any, BaseGeometry, object] | None] = [
        *sorted(asks, key=lambda a: a[0])]
    if reach.hub is not None:
        items.append(None)
    hub_disk = reach.hub.disk if reach.hub is not None else None
    built: list[tuple[object, tuple[float, float, float, float] | None] | None]
    if core is not None:
        # on the native engine every region in one call of the core, on its threads (no
        # Python beside it: a thread of Python's per region waits for the interpreter's lock
        # and takes its data from the other processor's cache, some 1.5-2 ms of CPU a cached
        # pick-up), kept there for the union below (pairwise, adjacent facings first, no
        # polygons of the layers in Python); a region the core does not build is the Python's
        region_asks = [hub_ask(hub_disk) if item is None else layer_ask(item)  # type: ignore[arg-type]
                       for item in items]
        made = iter(native_layer_regions([a for a in region_asks if a is not None]))
        built = [next(made) if a is not None else None for a in region_asks]
    else:
        built = [None] * len(items)
    answers = [(g[1], g[0]) if g is not None
               else hub_python(hub_disk) if item is None  # type: ignore[arg-type]
               else layer_python(item)
               for item, g in zip(items, built, strict=True)]
    regions = [a[1] for a in answers if a[0] is not None]
    kept = [g for g in regions if not isinstance(g, BaseGeometry)]
    parts = [g for g in regions if isinstance(g, BaseGeometry)]
    # the union of the layers (in the core where it keeps them; else GEOS's)
    geom = native_union(kept, parts, bounds) if kept else None
    if geom is None:
        parts.extend(kept_polygons(k) for k in kept)
        geom = shapely.union_all(parts) if parts else Polygon()
    return Zone(q, polygonal(geom), turning=(reach, ph))


def zone_of(q: MoveQuery) -> Zone:
    """The legal zone of ``q`` (the Python engine); a turning mover's zone is kept per board
    (the window's every drag of the same model on the same board)."""
    if isinstance(q.mover.footprint, Round):
        return round_zone(q)
    memo = _BOARDS.of(q.board)
    which = ("zone", q)
    got = memo.get(which)
    if got is None:
        got = turning_zone(q)
        memo[which] = got
    return cast(Zone, got)


def clear_caches() -> None:
    """Forget every cached zone input: per-board memos and the value-keyed caches."""
    IdentityMemo.clear_all()
    _PHASES.clear()
    _STANDING_PHASES.clear()
    clear_end_caches()
    clear_footprint_caches()
    for cached in (reach_map, convex_pieces, _placed_outline, turn_map, _circles_union):
        cached.cache_clear()

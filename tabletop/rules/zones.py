"""Legal move zones, shortest legal paths and path validation for wh40k-11e models.

The legal zone of a model for a move is the set of base-centre positions, keeping the model's
facing, that it can reach and end at (issue 3, "Definition"):

*reach*
    some chain of straight lines of total length at most ``D`` keeps the base off the path
    obstacles: enemy models (none in Desperate Escape; a MONSTER or VEHICLE mover in a normal
    or advance move passes over models that are neither), impassable terrain, dense terrain
    the model cannot cross (INFANTRY, BEASTS, SWARM and MOBILE cross dense features; other
    models only features with ``height <= 2``) and the outside of the battlefield;
*end*
    the base overlaps no other model and no terrain feature (light, dense, impassable; an
    ``area`` has no effect), lies wholly on the battlefield, and is more than 2" from every
    enemy base (normal, advance and fall-back moves).

``D`` is the model's own M, M plus the advance roll, or M for a fall-back move.

Approximations (all of them on the safe side, never permissive):

- The zone's polygon (:attr:`Zone.geometry`) uses circumscribed polygons for every round
  outline it removes and inscribed arcs for the reach limit, so it lies inside the true zone;
  its area is within about 0.05 % of the true area (see ``tests/test_zones_oracle.py``).
- Point decisions (:meth:`Zone.contains`, :meth:`Zone.explain`, :func:`validate_path`) use
  exact distances: analytic circles, exact polygon distances, and the geodesic distance of
  :mod:`tabletop.geometry.geodesic` (whose obstacles are circumscribed, so it is never shorter
  than the true one).
- Non-round movers turn as they move (straight lines at a fixed facing, turns in place): their
  zone is built over facing layers, turn regions and turn nodes
  (:mod:`tabletop.geometry.turning`, :func:`_turning_zone`): every point of it has a witness
  path that :func:`validate_path` accepts, and it approaches the true zone from inside as the
  facing step shrinks; the end test uses the exact footprint at the facing the path ends at.
  End regions for non-round footprints are Minkowski sums computed piecewise: both shapes are
  cut into convex pieces and each pair of pieces gives the convex hull of its vertex sums
  (exact for convex pieces).
- :func:`validate_path` sweeps a round base exactly (segment-to-circle and segment-to-polygon
  distances); a non-round base is swept at the facing of each line (the convex hull of its two
  placements per convex piece) and each turn by the exact test of its vertices' arcs against
  edges and of circles against edges moved out by their radius: actual motions, hence never
  permissive.

Caching (issue item 4): enemies and terrain do not move during the player's own movement
phase, so the inflated obstacles, their corners and visibility graph
(:func:`tabletop.geometry.visibility.reach_map`) and the static end region (enemies' engagement
areas, terrain) are kept in module-level LRU caches keyed by id-free hashable inputs (positions,
base sizes, terrain outlines). On top of them, a small memo keyed by the identity of the (frozen)
state object keeps the board's lists and the way to those caches, so a pick-up on the same
state hashes nothing large (:func:`_memo`). A pick-up then costs the Dijkstra, the wedges and
one overlay with the end region. No geometry is ever stored in the game state;
:func:`clear_caches` forgets everything.
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, cast

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.errors import UserError, describe, ident, idents, quote
from tabletop.geometry.cspace import (
    angle_between,
    convex_sum,
    pieces_at,
    sweep_pieces,
    turn_hits,
    turned,
)
from tabletop.geometry.footprints import (
    EXACT_SEGMENTS,
    ROUND_SEGMENTS,
    Footprint,
    Oval,
    Round,
    circumscribed_circle,
    extent,
    footprint_distance,
)
from tabletop.geometry.geodesic import GeodesicDisk
from tabletop.geometry.minkowski import (
    conservative_buffer,
    disk_sum,
    disk_sum_pieces,
    offset_pieces,
)
from tabletop.geometry.polygons import ccw, clipped, convex_pieces, ring_polygons
from tabletop.geometry.tolerance import EPS, mm
from tabletop.geometry.turn_reach import TurnReach
from tabletop.geometry.turning import facing_grid, layer_step, turn_map
from tabletop.geometry.visibility import reach_map
from tabletop.rules import rulings
from tabletop.rules.actions import MAX_NUMBER, MAX_PATH_POINTS
from tabletop.rules.violation import Violation
from tabletop.state import GameState, Model, Unit

__all__ = [
    "MAX_ROLL",
    "MODES",
    "MOVES",
    "PathCheck",
    "PathResult",
    "Violation",
    "Zone",
    "clear_caches",
    "legal_zone",
    "setup_zone",
    "validate_path",
]

MOVES = ("normal", "advance", "fall-back")
"""Move types with a legal zone."""
MODES = ("ordered-retreat", "desperate-escape")
"""Fall-back modes."""
MAX_ROLL = 36
"""Largest advance roll accepted, after modifiers (the smallest is 1)."""
END_SEGMENTS = 128
"""Vertices of the circumscribed polygons of round end regions (radius excess 0.03 %)."""
END_QUAD_SEGS = 16
"""``quad_segs`` of the conservative buffers of the end regions."""
END_OVAL_SEGMENTS = 64
"""Vertices of the circumscribed polygon of an oval mover in its end regions: at most
``rho_max * (1 / cos(pi / 64) - 1)`` outside the oval (0.0024" for a 60x35 mm oval, 0.0037"
for 90x52.5 mm), on the safe side; the exact point test (8192 vertices) lies inside it."""
SNAP_MARGIN = 0.05
"""Points farther than this outside the zone polygon are decided without the exact test."""
PATH_SEGMENTS = 64
"""Vertices of the circumscribed polygon of a non-round base as a path obstacle.

Its vertices lie at most ``a * (1 / cos(pi / 64) - 1)`` (0.0021" for a 90 mm oval) outside
the base, on the safe side; the 256-vertex outline made every corner of it a bend candidate
and blew the visibility graph up on real layouts (O(corners^2) candidate edges)."""


# --------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------
class PathResult(NamedTuple):
    """A shortest path: its points (start first) and its length, inches.

    Points are ``(x, y)``, or ``(x, y, facing)`` for a model that turns as it moves."""

    points: tuple[tuple[float, ...], ...]
    length: float


@dataclass(frozen=True)
class PathCheck:
    """The verdict on a drawn path: every violation, the length and the limit."""

    points: tuple[tuple[float, ...], ...]
    length: float
    limit: float
    violations: tuple[Violation, ...] = ()

    @property
    def legal(self) -> bool:
        """Whether the path breaks no rule."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"legal": self.legal, "length": round(self.length, 6), "limit": self.limit,
                "path": [list(p) for p in self.points],
                "reasons": [v.to_json() for v in self.violations]}


def _fmt(d: float) -> str:
    return f'{d:.2f}"'


# --------------------------------------------------------------------------------------------
# the situation of one mover
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Other:
    id: str
    enemy: bool
    big: bool
    base: Footprint
    at: tuple[float, float]
    facing: float

    def key(self) -> tuple[object, ...]:
        f = 0.0 if isinstance(self.base, Round) else self.facing
        return (self.at, self.base, f)

    @property
    def exact(self) -> Polygon:
        return _placed(self.base, self.at, self.facing)


@dataclass
class _Situation:
    state: GameState
    unit: Unit
    model: Model
    move: str
    mode: str | None
    limit: float
    others: list[_Other] = field(default_factory=list)
    path_models: list[_Other] = field(default_factory=list)
    path_terrain: list[tuple[str, str, Polygon]] = field(default_factory=list)
    end_terrain: list[tuple[str, str, Polygon]] = field(default_factory=list)
    path_key: tuple[object, ...] = ()
    """What decides :attr:`path_models` and :attr:`path_terrain` besides the board."""

    @property
    def base(self) -> Footprint:
        return self.model.base

    @property
    def facing(self) -> float:
        return self.model.facing

    @property
    def radius(self) -> float:
        return self.model.base.radius

    @property
    def start(self) -> tuple[float, float]:
        assert self.model.at is not None
        return (float(self.model.at[0]), float(self.model.at[1]))

    @property
    def width(self) -> float:
        return self.state.battlefield.width

    @property
    def depth(self) -> float:
        return self.state.battlefield.depth


def _find(state: GameState, model_id: str) -> tuple[Unit, Model]:
    try:
        return state.model(model_id)
    except KeyError:
        raise UserError(f"no model {quote(str(model_id))} in this scenario (a wh40k model id is "
                        "needed)") from None


_BOARDS: list[tuple[weakref.ref[GameState], dict[object, Any]]] = []
_BOARD_SLOTS = 4
"""How many recent states keep their :func:`_memo`."""


def _memo(state: GameState) -> dict[object, Any]:
    """Work that depends only on the board of ``state``, kept while that object lives.

    States are immutable, so a pick-up on the same state object (every pick-up until a model
    of the phase is moved) finds the other models and the per-phase geometry here without
    rebuilding or hashing them; a new state starts empty and falls back on the value-keyed
    caches (:func:`reach_map`, :func:`_static_end`).
    """
    for ref, known in _BOARDS:
        if ref() is state:
            return known
    memo: dict[object, Any] = {}
    _BOARDS[:] = [(r, m) for r, m in _BOARDS if r() is not None][:_BOARD_SLOTS - 1]
    _BOARDS.insert(0, (weakref.ref(state), memo))
    return memo


def clear_caches() -> None:
    """Forget every cached zone input: per-board memos and the value-keyed caches.

    Never needed in play (the caches are keyed by everything they depend on); for benchmarks
    that time a cold start and for tests that patch a rules constant.
    """
    _BOARDS.clear()
    _PHASES.clear()
    for cached in (reach_map, _static_end, _local_region, _mover_pieces, convex_pieces):
        cached.cache_clear()


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


def _everyone(state: GameState, player: str) -> list[_Other]:
    """Every model on the battlefield, marked enemy or not for ``player`` (memoised)."""
    memo = _memo(state)
    everyone = memo.get(("others", player))
    if everyone is None:
        everyone = []
        big: dict[str, bool] = {}
        for u, m in state.placed_models():
            assert m.at is not None
            if u.id not in big:
                big[u.id] = any(u.has(k) for k in rulings.BIG)
            everyone.append(_Other(m.id, u.player != player, big[u.id], m.base,
                                   (float(m.at[0]), float(m.at[1])), float(m.facing)))
        memo[("others", player)] = everyone
    return everyone


def _others(state: GameState, unit: Unit, model: Model) -> list[_Other]:
    """Every other model on the battlefield, marked enemy or not for ``unit``'s player."""
    return [o for o in _everyone(state, unit.player) if o.id != model.id]


def _situation(state: GameState, model_id: str, move: str, roll: int | None,
               mode: str | None, fly: bool = False) -> _Situation:
    unit, model = _find(state, model_id)
    if move not in MOVES:
        raise UserError(f"unknown move {quote(str(move))}: write one of {', '.join(MOVES)}")
    if model.at is None:
        raise UserError(f"model {quote(model_id)} is not on the battlefield")
    if move == "advance":
        if roll is None:
            raise UserError("an advance move needs the advance roll (--roll N)")
        if (not isinstance(roll, int | np.integer) or isinstance(roll, bool)
                or not 1 <= roll <= MAX_ROLL):
            raise UserError(f"an advance roll is a whole number from 1 to {MAX_ROLL}, not "
                            f"{describe(roll)}")
    elif roll is not None:
        raise UserError(f"a roll only applies to an advance move, not to a {move} move")
    if move == "fall-back":
        if mode is None:
            mode = "desperate-escape" if unit.battle_shocked else "ordered-retreat"
        if mode not in MODES:
            raise UserError(f"unknown fall-back mode {quote(str(mode))}: write one of "
                            f"{', '.join(MODES)}")
        if mode == "ordered-retreat" and unit.battle_shocked:
            raise UserError(f"unit {quote(unit.id)} is battle-shocked: it can only fall back by "
                            "Desperate Escape")
    elif mode is not None:
        raise UserError(f"a mode only applies to a fall-back move, not to a {move} move")
    if fly and not unit.has(rulings.FLY):
        raise UserError(f"unit {quote(unit.id)} cannot take to the skies: only a unit with the "
                        f"{rulings.FLY} keyword can (leave out fly / --fly)")
    m = unit.move_of(model)
    limit = m + float(roll) if move == "advance" and roll is not None else m
    if fly:  # taking to the skies: 2" less unless HOVER, over every model and all terrain
        limit = max(limit - fly_penalty(unit), 0.0)
    sit = _Situation(state, unit, model, move, mode, float(limit))
    sit.others = _others(state, unit, model)
    big_mover = any(unit.has(k) for k in rulings.BIG)
    over_small = big_mover and move in ("normal", "advance")
    crosses_dense = any(unit.has(k) for k in rulings.DENSE_CROSSERS)
    sit.path_key = (unit.player, mode == "desperate-escape", over_small, crosses_dense, fly)
    # the enemies in the way depend on the board and the mover's kind, not on the mover
    memo = _memo(state)
    path_models = memo.get(("path", sit.path_key))
    if path_models is None:
        path_models = [o for o in _everyone(state, unit.player) if o.enemy and not fly
                       and mode != "desperate-escape" and not (over_small and not o.big)]
        memo[("path", sit.path_key)] = path_models
    sit.path_models = list(path_models)
    for t in state.terrain:
        if t.kind in rulings.END_TERRAIN:
            sit.end_terrain.append((t.id, t.kind, t.shape))
        if not fly and (t.kind == "impassable" or (t.kind == "dense" and not crosses_dense
                                                   and t.height > rulings.DENSE_LOW)):
            sit.path_terrain.append((t.id, t.kind, t.shape))
    return sit


def fly_penalty(unit: Unit) -> float:
    """What taking to the skies costs ``unit``: ``FLY_PENALTY`` inches, none with HOVER."""
    return 0.0 if unit.has(rulings.HOVER) else rulings.FLY_PENALTY


# --------------------------------------------------------------------------------------------
# end regions (centre positions excluded at the end of a move)
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _mover_pieces(base: Footprint, facing: float) -> tuple[np.ndarray, ...]:
    """Convex pieces of the mover's footprint reflected through its centre (``-F``); an oval
    as its circumscribed polygon of :data:`END_OVAL_SEGMENTS` vertices."""
    if facing % 360.0:
        # the pieces at facing 0, turned: a footprint is cut into pieces once, not once per
        # facing (a 40-pointed star's end regions at 24 facings took 0.65 s of cutting)
        return tuple(turned(p, facing) for p in _mover_pieces(base, 0.0))
    poly = base.placed(0.0, 0.0, 0.0, segments=END_OVAL_SEGMENTS)
    return tuple(-np.asarray(p.exterior.coords)[:-1] for p in convex_pieces(poly))


def _minkowski(geom: Polygon, pieces: Sequence[np.ndarray]) -> BaseGeometry:
    """``geom`` (+) the shape made of ``pieces``: the exact sum of each convex pair."""
    sums = [convex_sum(ccw(np.asarray(g.exterior.coords)[:-1]), ccw(b))
            for g in convex_pieces(geom) for b in pieces]
    if not sums:
        return Polygon()
    return shapely.union_all(ring_polygons(sums))


def _grow(geom: Polygon, base: Footprint, facing: float, extra: float) -> BaseGeometry:
    """Centres at which the mover's footprint comes within ``extra`` of ``geom`` (0: overlaps)."""
    if isinstance(base, Round):
        return disk_sum(geom, base.radius + extra, quad_segs=END_QUAD_SEGS)
    grown = _minkowski(geom, _mover_pieces(base, facing))
    return conservative_buffer(grown, extra, quad_segs=END_QUAD_SEGS) if extra > 0 else grown


@lru_cache(maxsize=256)
def _local_region(obase: Footprint, ofacing: float, base: Footprint, facing: float,
                  extra: float) -> BaseGeometry:
    """:func:`_other_region` of a model standing at the origin (per footprint and facing).

    The region is a Minkowski sum, so a model elsewhere gets it translated: non-round movers
    and models pay for the sums once per (footprint, facing) pair, not once per model.
    """
    if isinstance(obase, Round):
        # a disk of radius re about the centre: grow the reflected mover by re + extra, each
        # of its convex pieces (the union of their sums is the sum of their union, which
        # would be cut into pieces again)
        return shapely.union_all(offset_pieces(_mover_pieces(base, facing),
                                               obase.radius + extra, quad_segs=END_QUAD_SEGS))
    return _grow(obase.placed(0.0, 0.0, ofacing), base, facing, extra)


def _other_region(o: tuple[object, ...], base: Footprint, facing: float,
                  extra: float) -> BaseGeometry:
    at, obase, ofacing = o
    assert isinstance(at, tuple) and isinstance(obase, Footprint)
    if isinstance(obase, Round) and isinstance(base, Round):
        return circumscribed_circle(at[0], at[1], obase.radius + base.radius + extra,
                                    segments=END_SEGMENTS)
    local = _local_region(obase, float(ofacing), base, facing, extra)  # type: ignore[arg-type]
    shift = np.array([float(at[0]), float(at[1])])
    return shapely.transform(local, lambda c: c + shift)


@lru_cache(maxsize=64)
def _static_end(base: Footprint, facing: float,
                enemies: tuple[tuple[object, ...], ...],
                terrain: tuple[tuple[tuple[float, float], ...], ...]) -> BaseGeometry:
    """Union of the enemies' engagement regions and the terrain features' overlap regions."""
    parts = [_other_region(e, base, facing, rulings.ENGAGEMENT_RANGE) for e in enemies]
    for t in terrain:
        if isinstance(base, Round):
            # the terrain's grown convex pieces join the one union below
            parts.extend(disk_sum_pieces(Polygon(t), base.radius, quad_segs=END_QUAD_SEGS))
        else:
            parts.append(_grow(Polygon(t), base, facing, 0.0))
    if not parts:
        return Polygon()
    u = shapely.union_all(parts)
    shapely.prepare(u)
    return u


def _end_box(base: Footprint, facing: float, width: float, depth: float
             ) -> tuple[float, float, float, float]:
    """Centres at which the footprint lies wholly on the battlefield."""
    if isinstance(base, Round):
        r = base.radius
        return (r, r, width - r, depth - r)
    x0, y0, x1, y1 = base.placed(0.0, 0.0, facing).bounds
    return (-x0, -y0, width - x1, depth - y1)


def _facing_key(base: Footprint, facing: float) -> float:
    return 0.0 if isinstance(base, Round) else float(facing)


# --------------------------------------------------------------------------------------------
# exact point tests
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _placed(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """A placed footprint for contact decisions: an oval as its fine circumscribed polygon
    (:data:`~tabletop.geometry.footprints.EXACT_SEGMENTS`, within 4e-7" of it)."""
    segs = EXACT_SEGMENTS if isinstance(base, Oval) else ROUND_SEGMENTS
    return base.placed(at[0], at[1], facing, segments=segs)


def _exact_self(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    return _placed(base, (float(at[0]), float(at[1])), float(facing))


@lru_cache(maxsize=64)
def _thin(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """The placed footprint shrunk by the rules tolerance (contact is not overlap), prepared:
    one end test asks it about every model and piece nearby."""
    if isinstance(base, Oval):
        # an oval scaled by 1 - EPS / a about its centre lies between 0.58 EPS (b / a of it,
        # at the ends) and EPS inside (its polygon 4e-7 outside the oval); buffering the
        # 8192-gon costs 2 ms a model
        k = 1.0 - EPS / (mm(max(base.length_mm, base.width_mm)) / 2.0)
        g = affinity.scale(_placed(base, at, facing), k, k, origin=at)
    else:
        g = _placed(base, at, facing).buffer(-EPS, join_style="mitre")
    shapely.prepare(g)
    return g


def _thin_self(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    return _thin(base, (float(at[0]), float(at[1])), float(facing))


def _overlaps_model(base: Footprint, at: tuple[float, float], facing: float, o: _Other) -> bool:
    if isinstance(base, Round) and isinstance(o.base, Round):
        return math.dist(at, o.at) < base.radius + o.base.radius - EPS
    if isinstance(base, Round):
        poly = o.exact
        return bool(poly.contains(Point(at))) or poly.distance(Point(at)) < base.radius - EPS
    mine = _thin_self(base, at, facing)
    if isinstance(o.base, Round):
        return bool(mine.contains(Point(o.at))) or mine.distance(Point(o.at)) < o.base.radius
    return bool(mine.intersects(o.exact))


def _overlaps_shape(base: Footprint, at: tuple[float, float], facing: float,
                    shape: BaseGeometry) -> bool:
    if isinstance(base, Round):
        return bool(shape.contains(Point(at))) or shape.distance(Point(at)) < base.radius - EPS
    return bool(_thin_self(base, at, facing).intersects(shape))


def _end_violations(sit: _Situation, x: float, y: float, *, facing: float | None = None,
                    engagement: bool = True, ignore_engaged: frozenset[str] = frozenset()
                    ) -> list[Violation]:
    """Every end rule ``(x, y)`` breaks with the model at ``facing`` (default: its own)."""
    at = (float(x), float(y))
    base, mid = sit.base, sit.model.id
    facing = sit.facing if facing is None else float(facing)
    out: list[Violation] = []
    # exact extents (an oval's polygon would reach a little beyond it)
    ex0, ey0, ex1, ey1 = extent(base, facing)
    over = max(-(x + ex0), -(y + ey0), x + ex1 - sit.width, y + ey1 - sit.depth)
    if over > EPS:
        out.append(Violation(
            "off-battlefield",
            f"the base of {ident(mid)} would stick {_fmt(over)} off the battlefield",
            (mid,), over, 0.0, sit.state.battlefield.polygon.exterior))
    reach = base.radius + rulings.ENGAGEMENT_RANGE + EPS
    for o in sit.others:
        if abs(o.at[0] - at[0]) > reach + o.base.radius or \
                abs(o.at[1] - at[1]) > reach + o.base.radius:
            continue
        if _overlaps_model(base, at, facing, o):
            out.append(Violation(
                "overlap-model", f"the base of {ident(mid)} would overlap model {ident(o.id)}",
                (mid, o.id), 0.0, 0.0, o.exact))
        elif engagement and o.enemy and o.id not in ignore_engaged:
            d = footprint_distance(base, at, facing, o.base, o.at, o.facing)
            if d <= rulings.ENGAGEMENT_RANGE + EPS:
                out.append(Violation(
                    "engaged", f"{ident(mid)} would end {_fmt(d)} from enemy model {ident(o.id)}: "
                    f"it must end more than {_fmt(rulings.ENGAGEMENT_RANGE)} away", (mid, o.id), d,
                    rulings.ENGAGEMENT_RANGE,
                    o.exact.buffer(rulings.ENGAGEMENT_RANGE, quad_segs=32)))
    for tid, kind, shape in sit.end_terrain:
        if _overlaps_shape(base, at, facing, shape):
            out.append(Violation(
                "overlap-terrain",
                f"the base of {ident(mid)} would overlap {kind} terrain {ident(tid)}",
                (mid, tid), 0.0, 0.0, shape))
    return out


# --------------------------------------------------------------------------------------------
# the zone
# --------------------------------------------------------------------------------------------
def _query_point(x: Any, y: Any) -> tuple[float, float]:
    """``(x, y)`` as floats, or :class:`UserError` unless both are finite numbers of at most
    :data:`~tabletop.rules.actions.MAX_NUMBER` in size."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError, OverflowError):  # not a number, or an int beyond any float
        fx = fy = math.nan
    if not (abs(fx) <= MAX_NUMBER and abs(fy) <= MAX_NUMBER):
        raise UserError(f"a point is [x, y], two finite numbers of at most {MAX_NUMBER:,.0f} in "
                        f"size, not {describe([x, y])}")
    return fx, fy


Pose = tuple[float, float, float]
"""``(x, y, facing)``."""


class _EndPose(NamedTuple):
    facing: float
    poses: list[Pose]


def _compact_poses(poses: Sequence[Pose]) -> list[Pose]:
    """Drop repeated poses and join consecutive turns in place that go the same way (up to
    less than half a turn each): the exact turn test answers the same for the joined turn."""
    out: list[Pose] = []
    for q in poses:
        q = (float(q[0]), float(q[1]), float(q[2]))
        if out and math.dist(out[-1][:2], q[:2]) <= 1e-12:
            if abs(angle_between(out[-1][2], q[2])) <= 1e-9:
                continue
            if len(out) >= 2 and math.dist(out[-2][:2], q[:2]) <= 1e-12:
                a = angle_between(out[-2][2], out[-1][2])
                b = angle_between(out[-1][2], q[2])
                if a * b > 0 and abs(a + b) < 180.0 - 1e-9:
                    out[-1] = q
                    continue
        out.append(q)
    return out


class Zone:
    """A legal zone: where a model may end its move (or be set up).

    Attributes
    ----------
    geometry : shapely geometry
        The zone in inches (polygonised, inside the true zone).
    max_distance : float
        The move's limit ``D`` (0 for a set-up zone).
    model, move : str
        The model and the move type (``"ingress"`` or ``"disembark"`` for set-up zones).
    mode : str or None
        The fall-back or disembark mode.
    """

    def __init__(self, sit: _Situation, geometry: BaseGeometry, disk: GeodesicDisk | None,
                 *, kind: str, setup_checks: Any = None,
                 turning: tuple[TurnReach, _TurnPhase] | None = None) -> None:
        self._sit = sit
        self.geometry = geometry
        shapely.prepare(self.geometry)
        self._disk = disk
        self._turning = turning
        self.model = sit.model.id
        self.move = kind
        self.mode = sit.mode
        self.max_distance = sit.limit if disk is not None or turning is not None else 0.0
        self._setup_checks = setup_checks
        self._near_geometry: BaseGeometry | None = None
        self._pose_memo: tuple[tuple[float, float], _EndPose | None] | None = None

    def __repr__(self) -> str:
        return (f"Zone(model={self.model!r}, move={self.move!r}, "
                f"max_distance={self.max_distance}, area={self.area:.3f})")

    @property
    def _near(self) -> BaseGeometry:
        """The zone grown by :data:`SNAP_MARGIN` (built on first use, prepared)."""
        if self._near_geometry is None:
            g = self.geometry.buffer(SNAP_MARGIN, quad_segs=2) if not self.geometry.is_empty \
                else Polygon()
            shapely.prepare(g)
            self._near_geometry = g
        return self._near_geometry

    @property
    def area(self) -> float:
        """Area of :attr:`geometry`, square inches."""
        return float(self.geometry.area)

    @property
    def start(self) -> tuple[float, float] | None:
        """Where the model stands (``None`` for a set-up zone)."""
        return self._sit.start if self._disk is not None or self._turning else None

    @property
    def turns(self) -> bool:
        """Whether the model turns as it moves (a non-round base): paths carry facings."""
        return self._turning is not None

    def contains(self, x: float, y: float) -> bool:
        """Whether ``(x, y)`` is a legal end point (exact test near the zone's boundary)."""
        x, y = _query_point(x, y)
        if shapely.contains_xy(self.geometry, x, y):
            return True
        if not shapely.contains_xy(self._near, x, y):
            return False
        return not self.explain(x, y)

    def explain(self, x: float, y: float) -> list[Violation]:
        """Every reason why ``(x, y)`` is not a legal end point (empty when it is legal)."""
        x, y = _query_point(x, y)
        if self._turning is not None:
            return self._turning_reasons(x, y)
        if self._disk is None:
            return list(self._setup_checks(float(x), float(y)))
        out = _end_violations(self._sit, x, y)
        if not any(v.rule == "off-battlefield" for v in out):
            out.extend(self._reach_violations(float(x), float(y)))
        return out

    def _reach_violations(self, x: float, y: float) -> list[Violation]:
        assert self._disk is not None
        sit, mid = self._sit, self.model
        d = self._disk.distance_to(x, y)
        if math.isfinite(d) and d <= sit.limit + EPS:
            return []
        straight = math.dist(sit.start, (x, y))
        r = sit.radius
        if min(x - r, y - r, sit.width - r - x, sit.depth - r - y) < -EPS:
            return [Violation(
                "unreachable", f"no legal path reaches this point: the base of {ident(mid)} (its "
                f"circumscribed circle of radius {_fmt(r)}, used for paths) would cross the "
                "battlefield edge", (mid,), straight, sit.limit,
                sit.state.battlefield.polygon.exterior)]
        if straight > sit.limit + EPS:
            return [Violation(
                "too-far", f"{ident(mid)} would move {_fmt(straight)} in a straight line, "
                f"more than its {_fmt(sit.limit)} {sit.move} move", (mid,), straight, sit.limit,
                LineString([sit.start, (x, y)]))]
        blockers = _segment_blockers(sit, sit.start, (x, y))
        if blockers:
            names = idents(b.models[1] for b in blockers)
            msg = (f"no legal path of {_fmt(sit.limit)} or less reaches this point: the straight "
                   f"line is blocked by {names}, and the way around is longer")
            geom = shapely.union_all([b.geometry for b in blockers if b.geometry is not None])
            return [Violation("unreachable", msg, (mid, *(b.models[1] for b in blockers)),
                                  straight, sit.limit, geom)]
        return [Violation(
            "unreachable", f"no legal path of {_fmt(sit.limit)} or less reaches this point "
            "(the base cannot fit through)", (mid,), straight, sit.limit, None)]

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The legal point closest to ``(x, y)`` (the point itself when it is legal)."""
        x, y = _query_point(x, y)
        if self.contains(x, y):
            return (float(x), float(y))
        if self.geometry.is_empty:
            if self._disk is not None:
                return self._sit.start
            return (float(x), float(y))
        for inset in (0.0, 1e-4, 1e-3, 1e-2):
            g = self.geometry if inset == 0 else self.geometry.buffer(-inset)
            if g.is_empty:
                break
            q = nearest_points(g, Point(x, y))[0]
            if self.contains(q.x, q.y):
                return (float(q.x), float(q.y))
        q = nearest_points(self.geometry, Point(x, y))[0]
        return (float(q.x), float(q.y))

    def path_to(self, x: float, y: float) -> PathResult | None:
        """The shortest path the model can travel to ``(x, y)`` within its move, or ``None``.

        The path only follows the reach rule; whether ``(x, y)`` is a legal end point is
        :meth:`contains`. A set-up zone has no path.

        A model that turns as it moves (a non-round base) gets its witness: points ``(x, y,
        facing)``, a turn in place being two consecutive points with the same ``x, y`` (each
        turn the shorter way); it ends at :meth:`facing_at`, or, where no facing there is a
        legal end, at the facing of the layer that reaches it.
        """
        x, y = _query_point(x, y)
        if self._turning is not None:
            pose = self._end_pose(x, y)
            poses = pose.poses if pose is not None else self._any_arrival(x, y)
            if poses is None:
                return None
            length = sum(math.dist(a[:2], b[:2]) for a, b in itertools.pairwise(poses))
            # facings in [0, 360), as stored (a model facing 1,000,000 degrees that turned on
            # the way gave witnesses past the limit of a path's numbers)
            return PathResult(tuple((px, py, pf % 360.0) for px, py, pf in poses), length)
        if self._disk is None:
            return None
        pts = self._disk.path_to(x, y)
        if pts is None:
            return None
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(pts))
        if length > self._sit.limit + EPS:
            return None
        return PathResult(tuple(pts), length)

    def facing_at(self, x: float, y: float) -> float | None:
        """The facing the model would end at on ``(x, y)``: the legal one closest to its
        current facing (``None`` where no facing is a legal end). A round base keeps its own."""
        x, y = _query_point(x, y)
        if self._turning is None:
            return self._sit.facing if self.contains(x, y) else None
        pose = self._end_pose(x, y)
        return None if pose is None else pose.facing % 360.0

    # -- non-round movers ----------------------------------------------------------------
    def _arrivals(self, x: float, y: float) -> list[tuple[float, list[Pose]]]:
        """The distance and the witness of every layer that reaches ``(x, y)``."""
        assert self._turning is not None
        reach = self._turning[0]
        out = []
        for f in [*reach.layers, *([None] if reach.hub is not None else [])]:
            poses = reach.witness(x, y, f)
            if poses is not None:
                d = sum(math.dist(a[:2], b[:2]) for a, b in itertools.pairwise(poses))
                if d <= self._sit.limit + EPS:
                    out.append((d, poses))
        return out

    def _any_arrival(self, x: float, y: float) -> list[Pose] | None:
        got = self._arrivals(x, y)
        return min(got, key=lambda a: a[0])[1] if got else None

    def _end_pose(self, x: float, y: float) -> _EndPose | None:
        """The legal end facing closest to the model's own at ``(x, y)``, with its witness."""
        if self._pose_memo is not None and self._pose_memo[0] == (x, y):
            return self._pose_memo[1]
        got = self._find_end_pose(x, y)
        self._pose_memo = ((x, y), got)
        return got

    def _find_end_pose(self, x: float, y: float) -> _EndPose | None:
        # lazily, the layers whose facing is nearest the model's own first: the window asks
        # this for the ghost under the pointer every frame
        assert self._turning is not None
        reach, ph = self._turning
        sit = self._sit
        own, per, limit = sit.facing, ph.tm.period, sit.limit + EPS

        def near_own(f: float) -> float:
            return f + per * round(angle_between(f, own) / per)

        def arrival(f: float | None) -> list[Pose] | None:
            poses = reach.witness(x, y, f)
            if poses is None or sum(math.dist(a[:2], b[:2]) for a, b in
                                    itertools.pairwise(poses)) > limit:
                return None
            return poses

        layers = sorted(reach.layers, key=lambda f: abs(angle_between(own, near_own(f))))
        if ph.tm.in_hub(x, y):
            # the circle is clear: any arrival, then the facing nearest the model's own
            first = next((p for f in ([None] if reach.hub is not None else []) + layers
                          if (p := arrival(f)) is not None), None)
            if first is None:
                return None
            for g in sorted({own, *(near_own(v) for v in reach.grid)},
                            key=lambda g: abs(angle_between(own, g))):
                if not _end_violations(sit, x, y, facing=g):
                    return _EndPose(g, _compact_poses([*first, (x, y, g)]))
            return None
        for f in layers:
            poses = arrival(f)
            if poses is not None and not _end_violations(sit, x, y, facing=poses[-1][2]):
                return _EndPose(poses[-1][2], _compact_poses(poses))
        return None

    def _turning_reasons(self, x: float, y: float) -> list[Violation]:
        """Why ``(x, y)`` is not a legal end of a turning mover: the end rules at the facing
        it would arrive at (the closest to its own), or why no facing reaches it."""
        if self._end_pose(x, y) is not None:
            return []
        sit, mid = self._sit, self.model
        arrivals = self._arrivals(x, y)
        if arrivals:
            best = min((abs(angle_between(sit.facing, p[-1][2])), p[-1][2]) for _, p in
                       arrivals)[1]
            return _end_violations(sit, x, y, facing=best)
        out = _end_violations(sit, x, y)
        straight = math.dist(sit.start, (x, y))
        if straight > sit.limit + EPS:
            out.append(Violation(
                "too-far", f"{ident(mid)} would move {_fmt(straight)} in a straight line, "
                f"more than its {_fmt(sit.limit)} {sit.move} move", (mid,), straight, sit.limit,
                LineString([sit.start, (x, y)])))
        else:
            step = self._turning[1].grid[1] - self._turning[1].grid[0] if \
                self._turning and len(self._turning[1].grid) > 1 else 180.0
            out.append(Violation(
                "unreachable", f"no legal path of {_fmt(sit.limit)} or less reaches this point "
                f"at any facing {ident(mid)} can turn to (facings every {step:g} degrees): the "
                "base cannot fit through on the way", (mid,), straight, sit.limit, None))
        return out

    def to_geojson(self) -> dict[str, Any]:
        """The zone as one GeoJSON Feature (scenario inches)."""
        return {"type": "Feature", "geometry": shapely.geometry.mapping(self.geometry),
                "properties": {"model": self.model, "move": self.move,
                               "max_distance": self.max_distance, "area": self.area}}


def _segment_blockers(sit: _Situation, a: tuple[float, float], b: tuple[float, float]
                      ) -> list[Violation]:
    """Path obstacles that the circumscribed circle of the mover meets along ``a - b``."""
    mid, r = sit.model.id, sit.radius
    seg = LineString([a, b]) if math.dist(a, b) > 0 else Point(a)
    out = []
    for o in sit.path_models:
        if isinstance(o.base, Round):
            d = float(seg.distance(Point(o.at))) - o.base.radius
        else:
            d = float(seg.distance(o.exact))
        if d < r - EPS:
            out.append(Violation(
                "crosses-enemy", f"{ident(mid)} would pass over enemy model {ident(o.id)}",
                (mid, o.id), max(d - r, 0.0), 0.0,
                seg.buffer(r, quad_segs=16).intersection(o.exact)))
    for tid, kind, shape in sit.path_terrain:
        d = float(seg.distance(shape))
        if d < r - EPS:
            why = "impassable" if kind == "impassable" else \
                f"dense and taller than {_fmt(rulings.DENSE_LOW)}, which {ident(mid)} cannot cross"
            out.append(Violation(
                "crosses-terrain", f"{ident(mid)} would cross terrain {ident(tid)} ({why})",
                (mid, tid), max(d - r, 0.0), 0.0,
                seg.buffer(r, quad_segs=16).intersection(shape)))
    return out


def _reach_inputs(sit: _Situation) -> tuple[Any, ...]:
    circles = []
    polys = []
    for o in sit.path_models:
        if isinstance(o.base, Round):
            circles.append((o.at[0], o.at[1], o.base.radius))
        else:
            polys.append(tuple(tuple(map(float, c)) for c in o.base.placed(
                o.at[0], o.at[1], o.facing, segments=PATH_SEGMENTS).exterior.coords[:-1]))
    for _, _, shape in sit.path_terrain:
        polys.append(tuple(tuple(map(float, c)) for c in shape.exterior.coords[:-1]))
    return (float(sit.width), float(sit.depth), float(sit.radius), tuple(sorted(circles)),
            tuple(sorted(polys)))


def _phase(sit: _Situation, fkey: float) -> tuple[Any, BaseGeometry, _Key]:
    """The per-phase geometry of this mover's situation: reach map, static end region, key.

    It depends on the board and on what the mover is (player, base, facing, which models and
    terrain stop it), not on which model it is or where it stands.
    """
    who = ("phase", sit.path_key, sit.base, fkey)
    memo = _memo(sit.state)
    got = memo.get(who)
    if got is None:
        rm = reach_map(*_reach_inputs(sit))
        # sorted by place and facing (a cheap key; ties keep the state's order)
        enemies = tuple(sorted((o.key() for o in sit.others if o.enemy),
                               key=lambda k: (k[0], k[2])))
        terrain = tuple(sorted(tuple(tuple(map(float, c)) for c in shape.exterior.coords[:-1])
                               for _, _, shape in sit.end_terrain))
        static = _static_end(sit.base, fkey, enemies, terrain)
        got = (rm, static, _Key(("end", sit.base, fkey, enemies, terrain)))
        memo[who] = got
    return got


def _friends_region(sit: _Situation, near: BaseGeometry, facing: float | None = None
                    ) -> BaseGeometry:
    """Overlap regions of the non-enemy models close enough to matter (the mover at
    ``facing``, default its own)."""
    if near.is_empty:
        return Polygon()
    x0, y0, x1, y1 = near.bounds
    parts = []
    fkey = _facing_key(sit.base, sit.facing if facing is None else facing)
    memo = _memo(sit.state)
    friends = memo.get(("friends", sit.unit.player))
    if friends is None:
        friends = [o for o in _everyone(sit.state, sit.unit.player) if not o.enemy]
        memo[("friends", sit.unit.player)] = friends
    for o in friends:
        if o.id == sit.model.id:
            continue
        reach = o.base.radius + sit.radius + 1e-6
        if o.at[0] < x0 - reach or o.at[0] > x1 + reach or o.at[1] < y0 - reach or \
                o.at[1] > y1 + reach:
            continue
        parts.append(_other_region(o.key(), sit.base, fkey, 0.0))
    return shapely.union_all(parts) if parts else Polygon()


# --------------------------------------------------------------------------------------------
# zones of non-round movers: layers of facings (tabletop.geometry.turning)
# --------------------------------------------------------------------------------------------
@dataclass
class _TurnPhase:
    """The per-phase geometry of a turning mover: its layers and, per facing, where it may
    not end (built on first use)."""

    tm: Any
    grid: tuple[float, ...]
    enemies: tuple[tuple[object, ...], ...]
    terrain: tuple[tuple[tuple[float, ...], ...], ...]
    key: _Key
    ends: dict[object, tuple[BaseGeometry, _Key]] = field(default_factory=dict)
    hub_end: tuple[BaseGeometry, _Key] | None = None


def _turn_phase(sit: _Situation, step: float) -> _TurnPhase:
    who = ("turn", sit.path_key, sit.base, step)
    memo = _memo(sit.state)
    got = memo.get(who)
    if got is None:
        W, H, _, circles, polys = _reach_inputs(sit)
        tm = turn_map(W, H, sit.base, circles, polys)
        enemies = tuple(sorted((o.key() for o in sit.others if o.enemy),
                               key=lambda k: (k[0], k[2])))
        terrain = tuple(sorted(tuple(tuple(map(float, c)) for c in shape.exterior.coords[:-1])
                               for _, _, shape in sit.end_terrain))
        # the same phase on a new board object (a model of the moving side moved): enemies
        # and terrain stand where they stood, so the end regions built for it still hold
        key = _Key(("turn-end", sit.base, step, tm, enemies, terrain))
        got = _PHASES.get(key)
        if got is None:
            got = _TurnPhase(tm, facing_grid(sit.base, 0.0, step), enemies, terrain, key)
            _PHASES[key] = got
            while len(_PHASES) > _PHASE_SLOTS:
                del _PHASES[next(iter(_PHASES))]
        memo[who] = got
    return got


_PHASES: dict[_Key, _TurnPhase] = {}
"""The turning movers' phases by value (oldest first), for boards that differ only in the
moving side's models."""
_PHASE_SLOTS = 8


def _turn_end(ph: _TurnPhase, base: Footprint, facing: float,
              near: tuple[float, float, float] | None = None) -> tuple[BaseGeometry, _Key]:
    """Where the mover at ``facing`` may not end: enemies' engagement and terrain (static,
    prepared), and its key.

    With ``near = (x, y, reach)`` (the start's own facing off the grid, new for every model),
    only what can reach into the disk of radius ``reach`` about ``(x, y)``, where that layer's
    region lies: exact there, and a fraction of the board's work.
    """
    k = ph.tm.key(facing)
    enemies, terrain = ph.enemies, ph.terrain
    if near is not None:
        x, y, reach = near
        r = base.radius + reach + rulings.ENGAGEMENT_RANGE + 1e-3
        enemies = tuple(e for e in enemies if math.dist(cast(tuple[float, float], e[0]), (x, y))
                        <= r + cast(Footprint, e[1]).radius)
        pt = Point(x, y)
        terrain = tuple(t for t in terrain if Polygon(t).distance(pt) <= base.radius + reach
                        + 1e-3)
    which = (k, enemies, terrain) if near is not None else k
    got = ph.ends.get(which)
    if got is None:
        got = (_static_end(base, k, enemies, terrain), _Key(("at", ph.key, which)))
        if near is not None:
            # one per start facing: keep the last few
            for old in [w for w in ph.ends if isinstance(w, tuple)][:-3]:
                del ph.ends[old]
        ph.ends[which] = got
    return got


def _hub_end(ph: _TurnPhase, base: Footprint) -> tuple[BaseGeometry, _Key]:
    """Where a mover whose circumscribed circle is clear (so it may turn to any facing) may
    not end: where every grid facing breaks the end rules (within the hub's box)."""
    if ph.hub_end is None:
        stuck: BaseGeometry = box(*ph.tm.hub.box)
        for m in ph.grid:
            xm = _turn_end(ph, base, m)[0]
            stuck = stuck.intersection(clipped(xm, stuck.bounds)) if not xm.is_empty else \
                Polygon()
            if stuck.is_empty:
                break
        stuck = _clean(stuck)
        shapely.prepare(stuck)
        ph.hub_end = (stuck, _Key(("hub", ph.key)))
    return ph.hub_end


def _near_friends(sit: _Situation, near: BaseGeometry) -> BaseGeometry:
    """Where some facing of the mover could touch a non-enemy model: the friends' circles
    grown by the mover's circumscribed radius (a superset, circumscribed polygons)."""
    if near.is_empty:
        return Polygon()
    x0, y0, x1, y1 = near.bounds
    memo = _memo(sit.state)
    friends = memo.get(("friends", sit.unit.player))
    if friends is None:
        friends = [o for o in _everyone(sit.state, sit.unit.player) if not o.enemy]
        memo[("friends", sit.unit.player)] = friends
    parts = []
    for o in friends:
        if o.id == sit.model.id:
            continue
        r = o.base.radius + sit.radius + 1e-6
        if o.at[0] < x0 - r or o.at[0] > x1 + r or o.at[1] < y0 - r or o.at[1] > y1 + r:
            continue
        parts.append(circumscribed_circle(o.at[0], o.at[1], r, segments=32))
    return shapely.union_all(parts) if parts else Polygon()


def _turning_zone(sit: _Situation, kind: str, step: float | None = None) -> Zone:
    """The zone of a non-round mover (module docstring; :mod:`tabletop.geometry.turning`).

    Each layer's reach minus the end rules at its facing, and the hub's reach (its
    circumscribed circle clear all the way, so any facing at the end) minus where every grid
    facing breaks them; within reach of a friendly model only the layers count, each at its
    own facing.
    """
    step = layer_step(sit.base, step)
    ph = _turn_phase(sit, step)
    reach = TurnReach(ph.tm, sit.start, sit.facing, sit.limit, step)
    regions: dict[float, BaseGeometry] = {}
    own = None if ph.tm.key(sit.facing) in ph.grid else (*sit.start, sit.limit)
    for f, lay in reach.layers.items():
        excl, key = _turn_end(ph, sit.base, f, own if f == ph.tm.key(sit.facing) else None)
        g = lay.disk.region(excl, key)
        if not g.is_empty:
            regions[f] = g
    parts = list(regions.values())
    near = _near_friends(sit, box(*shapely.total_bounds(parts))) if parts else Polygon()
    if not near.is_empty:
        # within reach of a friend the end facing matters: there the mover may end only at
        # the facing a layer arrives at, clear of the friends (the hub's any-facing end is
        # given up there: on the safe side)
        shapely.prepare(near)
        parts = [g.difference(_friends_region(sit, g, f)) if near.intersects(g) else g
                 for f, g in regions.items()]
    if reach.hub is not None:
        hub = reach.hub.disk.region(*_hub_end(ph, sit.base))
        if not hub.is_empty and not near.is_empty:
            hub = hub.difference(near)
        if not hub.is_empty:
            parts.append(hub)
    geom = shapely.union_all(parts) if parts else Polygon()
    return Zone(sit, _clean(geom), None, kind=kind, turning=(reach, ph))


def legal_zone(state: GameState, model_id: str, move: str, *, roll: int | None = None,
               mode: str | None = None, fly: bool = False, step: float | None = None
               ) -> Zone:
    """The legal zone of ``model_id`` for ``move`` (see the module docstring).

    Parameters
    ----------
    state : GameState
        The board, with every model where it stands.
    model_id : str
        A wh40k model on the battlefield.
    move : {"normal", "advance", "fall-back"}
    roll : int, optional
        The advance roll (required for ``"advance"``).
    mode : {"ordered-retreat", "desperate-escape"}, optional
        Fall-back mode; default Ordered Retreat, or Desperate Escape if battle-shocked.
    fly : bool
        The unit takes to the skies (a FLY unit, rulings): its move is 2" shorter unless it has
        HOVER and passes over every model and all terrain; where it may end does not change.
    step : float, optional
        For a model on a non-round base, the facing step of its layers in degrees (default
        15, 30 for ovals; :mod:`tabletop.geometry.turning`): smaller is closer to the true zone
        and slower. Between 1 and 90.

    Raises
    ------
    UserError
        Unknown model, move or mode, missing roll, model not on the battlefield.
    """
    sit = _situation(state, model_id, move, roll, mode, fly)
    if step is not None and (isinstance(step, bool) or not (isinstance(step, int | float)
                                                            and 1.0 <= step <= 90.0)):
        raise UserError(f"a facing step is a number of degrees from 1 to 90, not "
                        f"{describe(step)}")
    if not isinstance(sit.base, Round):
        # the same model picked up again on the same board (the window's every drag of it)
        memo = _memo(state)
        which = ("zone", model_id, move, roll, sit.mode, fly, step)
        got = memo.get(which)
        if got is None:
            got = _turning_zone(sit, move, None if step is None else float(step))
            memo[which] = got
        return cast(Zone, got)
    fkey = _facing_key(sit.base, sit.facing)
    rm, static, key = _phase(sit, fkey)
    disk = rm.disk(sit.start, sit.limit)
    geom = disk.region(static, key)
    friends = _friends_region(sit, geom)
    if not friends.is_empty:
        geom = geom.difference(friends)
    return Zone(sit, _clean(geom), disk, kind=move)


def _clean(g: BaseGeometry) -> BaseGeometry:
    if g.is_empty:
        return Polygon()
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon"]
    return shapely.union_all(parts) if parts else Polygon()


# --------------------------------------------------------------------------------------------
# validate a drawn path
# --------------------------------------------------------------------------------------------
def _sweep(sit: _Situation, a: tuple[float, float], b: tuple[float, float],
           facing: float | None = None) -> BaseGeometry:
    """The area the base covers moving from ``a`` to ``b`` at ``facing`` (default its own)."""
    if isinstance(sit.base, Round):
        if math.dist(a, b) == 0:
            return Point(a).buffer(sit.radius, quad_segs=32)
        return LineString([a, b]).buffer(sit.radius, quad_segs=32)
    pa = _exact_self(sit.base, a, sit.facing if facing is None else facing)
    off = np.array([b[0] - a[0], b[1] - a[1]])
    parts = []
    for p in convex_pieces(pa):
        c = np.asarray(p.exterior.coords)[:-1]
        parts.append(MultiPoint(np.vstack([c, c + off])).convex_hull)
    return shapely.union_all(parts)


def _segment_violations(sit: _Situation, a: tuple[float, float], b: tuple[float, float],
                        k: int, facing: float | None = None) -> list[Violation]:
    mid = sit.model.id
    facing = sit.facing if facing is None else facing
    out: list[Violation] = []
    where = f"on line {k + 1} of the path"
    if isinstance(sit.base, Round):
        r = sit.radius
        seg = LineString([a, b]) if math.dist(a, b) > 0 else Point(a)
        for o in sit.path_models:
            if isinstance(o.base, Round):
                d = float(seg.distance(Point(o.at))) - o.base.radius - r
            else:
                d = float(seg.distance(o.exact)) - r
            if d < -EPS:
                out.append(Violation(
                    "crosses-enemy",
                    f"{ident(mid)} would pass over enemy model {ident(o.id)} {where}",
                    (mid, o.id), d, 0.0, _sweep(sit, a, b).intersection(o.exact)))
        for tid, kind, shape in sit.path_terrain:
            d = float(seg.distance(shape)) - r
            if d < -EPS:
                out.append(_terrain_violation(sit, tid, kind, shape, d, a, b, where))
        x0, y0, x1, y1 = (r, r, sit.width - r, sit.depth - r)
        over = max(max(x0 - p[0], y0 - p[1], p[0] - x1, p[1] - y1) for p in (a, b))
    else:
        # the convex pieces translate: each sweeps the hull of its two placements (exact; an
        # oval as its fine polygon, within 4e-7")
        sweep = _sweep(sit, a, b, facing)
        thin = sweep.buffer(-EPS, join_style="mitre")
        for o in sit.path_models:
            if isinstance(o.base, Round):
                c = Point(o.at)
                hit = bool(sweep.contains(c)) or sweep.distance(c) < o.base.radius - EPS
            else:
                hit = bool(thin.intersects(o.exact))
            if hit:
                out.append(Violation(
                    "crosses-enemy",
                    f"{ident(mid)} would pass over enemy model {ident(o.id)} {where}",
                    (mid, o.id), None, None, sweep.intersection(o.exact)))
        for tid, kind, shape in sit.path_terrain:
            if thin.intersects(shape):
                out.append(_terrain_violation(sit, tid, kind, shape, 0.0, a, b, where, facing))
        # exact extents at both ends (the sweep of a translation spans them)
        ex0, ey0, ex1, ey1 = extent(sit.base, facing)
        over = max(max(-(p[0] + ex0), -(p[1] + ey0), p[0] + ex1 - sit.width,
                       p[1] + ey1 - sit.depth) for p in (a, b))
    if over > EPS:
        out.append(Violation(
            "leaves-battlefield", f"the base of {ident(mid)} would leave the battlefield {where}",
            (mid,), over, 0.0, _sweep(sit, a, b, facing)))
    return out


def _terrain_violation(sit: _Situation, tid: str, kind: str, shape: BaseGeometry, d: float,
                       a: tuple[float, float], b: tuple[float, float], where: str,
                       facing: float | None = None) -> Violation:
    mid = sit.model.id
    why = "impassable" if kind == "impassable" else \
        f"dense and taller than {_fmt(rulings.DENSE_LOW)}, which {ident(mid)} cannot cross"
    return Violation("crosses-terrain",
                     f"{ident(mid)} would cross terrain {ident(tid)} ({why}) {where}",
                     (mid, tid), d, 0.0, _sweep(sit, a, b, facing).intersection(shape))


def turn_violations(sit: _Situation, at: tuple[float, float], f0: float, f1: float,
                    where: str) -> list[Violation]:
    """Everything a turn in place at ``at`` from ``f0`` to ``f1`` (the shorter way) runs into.

    Exact (:func:`tabletop.geometry.cspace.turn_hits`: vertex arcs against edges), the base as
    its fine polygon; contact is allowed. Each violation carries the area the turn sweeps
    over the obstacle (conservative, for drawing).
    """
    turn = angle_between(f0, f1)
    base, mid = sit.base, sit.model.id
    if isinstance(base, Round) or abs(turn) <= 1e-12:
        return []
    foot = pieces_at(base, 0.0, EXACT_SEGMENTS)
    reach = base.radius * 1.001 + 1e-6
    near_models = [o for o in sit.path_models
                   if math.dist(o.at, at) <= reach + o.base.radius]
    circles = [(o.at[0], o.at[1], o.base.radius) for o in near_models
               if isinstance(o.base, Round)]
    round_ids = [o for o in near_models if isinstance(o.base, Round)]
    poly_models = [o for o in near_models if not isinstance(o.base, Round)]
    near_terrain = [t for t in sit.path_terrain if t[2].distance(Point(at)) <= reach]
    rings = [np.asarray(o.exact.exterior.coords)[:-1] for o in poly_models] + \
        [np.asarray(t[2].exterior.coords)[:-1] for t in near_terrain]
    hp, hc, leaves = turn_hits(foot, at, f0, turn, rings, circles,
                               (0.0, 0.0, sit.width, sit.depth))
    if not (hp or hc or leaves):
        return []
    swept = shapely.union_all([Polygon(p + np.asarray(at)) for p in
                               sweep_pieces(pieces_at(base, 0.0), f0, turn)])
    out: list[Violation] = []
    how = f"turning from {f0 % 360:g} to {f1 % 360:g} degrees {where}"
    for k in hp:
        if k < len(poly_models):
            o = poly_models[k]
            out.append(Violation("crosses-enemy", f"{ident(mid)} would pass over enemy model "
                                 f"{ident(o.id)} {how}", (mid, o.id), None, None,
                                 swept.intersection(o.exact)))
        else:
            tid, kind, shape = near_terrain[k - len(poly_models)]
            why = "impassable" if kind == "impassable" else \
                f"dense and taller than {_fmt(rulings.DENSE_LOW)}, which {ident(mid)} cannot cross"
            out.append(Violation("crosses-terrain", f"{ident(mid)} would cross terrain "
                                 f"{ident(tid)} ({why}) {how}", (mid, tid), None, None,
                                 swept.intersection(shape)))
    for k in hc:
        o = round_ids[k]
        out.append(Violation("crosses-enemy",
                             f"{ident(mid)} would pass over enemy model {ident(o.id)} {how}",
                             (mid, o.id), None, None, swept.intersection(o.exact)))
    if leaves:
        out.append(Violation("leaves-battlefield", f"the base of {ident(mid)} would leave the "
                             f"battlefield {how}", (mid,), None, None, swept))
    return out


def _poses(sit: _Situation, points: Sequence[Sequence[float]]) -> list[Pose]:
    """The poses a path passes through, the start first.

    Each point ``(x, y)`` or ``(x, y, facing)`` means: move straight there keeping the facing,
    then (with a facing) turn in place to it, the shorter way. A point where the model stands
    already (the start, or the point before) is a turn alone.
    """
    sx, sy = sit.start
    out: list[Pose] = [(sx, sy, float(sit.facing))]
    for p in points:
        if len(p) not in (2, 3):
            raise UserError(f"a path point is [x, y] or [x, y, facing], not {describe(p)}")
        x, y = _query_point(p[0], p[1])
        if len(p) == 3:
            _query_point(p[2], 0.0)
        cur = out[-1][2]
        # a point where the model stands already is a turn alone (no line of no length)
        if math.dist((x, y), out[-1][:2]) > EPS:
            out.append((x, y, cur))
        if len(p) == 3 and abs(angle_between(cur, float(p[2]))) > 1e-12:
            out.append((out[-1][0], out[-1][1], float(p[2])))
    return out


def validate_path(state: GameState, model_id: str, move: str,
                  points: Sequence[Sequence[float]], *, roll: int | None = None,
                  mode: str | None = None, fly: bool = False) -> PathCheck:
    """Check a drawn path of straight lines and turns for ``model_id`` making ``move``.

    ``points`` are ``(x, y)`` or ``(x, y, facing)``: the base moves straight to each point at
    its current facing, then turns in place to the facing given (the shorter way); a turn alone
    is a point at the same place with a new facing. The path may begin with the model's
    position (its facing, if given, a turn at the start); otherwise it starts there.

    The swept area of the base along each line is tested exactly (not by sampling), each turn
    by the exact test of :func:`turn_violations`, the length of the lines (turns cost nothing)
    against the limit ``D``, and the end against the end rules at the final facing.

    ``fly``: the unit takes to the skies, as in :func:`legal_zone`.

    Returns
    -------
    PathCheck
        ``legal``, ``length``, ``limit`` and every violation with its geometry; ``points``
        carry facings when the base turns or the path gave any.
    """
    sit = _situation(state, model_id, move, roll, mode, fly)
    if len(points) > MAX_PATH_POINTS:
        raise UserError(f"a path has at most {MAX_PATH_POINTS:,} points, not {len(points):,}")
    poses = _poses(sit, points)
    length = sum(math.dist(a[:2], b[:2]) for a, b in itertools.pairwise(poses))
    out: list[Violation] = []
    mid = sit.model.id
    if length > sit.limit + EPS:
        line = [p[:2] for p in poses]
        out.append(Violation(
            "path-too-long", f"the path of {ident(mid)} is {_fmt(length)} long, more than its "
            f"{_fmt(sit.limit)} {move} move", (mid,), length, sit.limit, LineString(line)
            if len({tuple(q) for q in line}) > 1 else None))
    line_no = 0
    along = 0.0
    for a, b in itertools.pairwise(poses):
        if math.dist(a[:2], b[:2]) > 0 or a[2] == b[2]:
            out.extend(_segment_violations(sit, a[:2], b[:2], line_no, a[2]))
            line_no += 1
            along += math.dist(a[:2], b[:2])
        else:
            out.extend(turn_violations(sit, a[:2], a[2], b[2], f"after {_fmt(along)} of its path"
                                       if line_no else "at the start"))
    end = poses[-1]
    out.extend(_end_violations(sit, end[0], end[1], facing=end[2]))
    with_facing = not isinstance(sit.base, Round) or any(len(p) == 3 for p in points)
    pts: tuple[tuple[float, ...], ...] = tuple(poses) if with_facing else \
        tuple((x, y) for x, y, _ in poses)
    return PathCheck(pts, length, sit.limit, tuple(out))


# --------------------------------------------------------------------------------------------
# set-up zones
# --------------------------------------------------------------------------------------------
def setup_zone(state: GameState, model_id: str, kind: str, *, mode: str | None = None) -> Zone:
    """Where ``model_id`` may be set up: ``kind`` is ``"ingress"`` or ``"disembark"``.

    Ingress (rulings): wholly within 6" of a battlefield edge, more than 8" from every enemy
    model, not in the enemy deployment zone before battle round 3, from battle round 2; with
    ``mode="deep-strike"`` anywhere more than 8" from every enemy model, from battle round 2.
    Disembark: wholly within 3" of the transport (``mode`` ``"rapid"`` or ``"tactical"``,
    the default) or 6" (``"combat"``, ``"emergency"``); not within engagement range of enemy
    models except, in combat mode, of those the transport is engaged with. Both: no overlap
    with any model or terrain feature, wholly on the battlefield. The zone has no reach part
    (``path_to`` is ``None``); non-round bases use the exact footprint at the model's facing,
    except for the disembark range, measured with the circumscribed circle (never permissive).
    """
    unit, model = _find(state, model_id)
    if kind not in ("ingress", "disembark"):
        raise UserError(f"unknown set-up {quote(str(kind))}: write ingress or disembark")
    if model.at is not None:
        # measure from a copy of the state without this model on the board
        model = Model(model.id, model.base, None, model.facing, model.wounds, model.M)
        state = state.with_model(model)
    sit = _Situation(state, unit, model, kind, mode, 0.0)
    sit.others = _others(state, unit, model)
    sit.end_terrain = [(t.id, t.kind, t.shape) for t in state.terrain
                       if t.kind in rulings.END_TERRAIN]
    base, facing = model.base, model.facing
    fkey = _facing_key(base, facing)
    W, H = state.battlefield.width, state.battlefield.depth
    geom: BaseGeometry = box(*_end_box(base, facing, W, H))
    removed: list[BaseGeometry] = []
    for o in sit.others:
        removed.append(_other_region(o.key(), base, fkey, 0.0))
    for _, _, shape in sit.end_terrain:
        removed.append(_grow(shape, base, fkey, 0.0))
    mid = model.id
    checks: list[Any] = []
    if kind == "ingress":
        rnd = state.battle.round
        enemy_player = state.opponent(unit.player)
        edge = rulings.INGRESS_EDGE
        deep = mode == "deep-strike"  # anywhere more than 8" from enemies (docs/rulings.md)
        inner = box(edge, edge, W - edge, H - edge) if W > 2 * edge and H > 2 * edge \
            and not deep else Polygon()
        if not inner.is_empty:
            removed.append(_grow(inner, base, fkey, 0.0))
        for o in sit.others:
            if o.enemy:
                removed.append(_other_region(o.key(), base, fkey, rulings.INGRESS_ENEMY))
        dz = None if deep else enemy_player.zone_polygon
        if dz is not None and rnd < rulings.INGRESS_ZONE_FROM_ROUND:
            removed.append(_grow(dz, base, fkey, 0.0))
        if rnd < rulings.INGRESS_FIRST_ROUND:
            geom = Polygon()

        def ingress_checks(x: float, y: float) -> list[Violation]:
            at = (x, y)
            out = []
            if rnd < rulings.INGRESS_FIRST_ROUND:
                out.append(Violation(
                    "ingress-round", f"ingress moves are allowed from battle round "
                    f"{rulings.INGRESS_FIRST_ROUND} (this is round {rnd})", (mid,)))
            if not inner.is_empty and _overlaps_shape(base, at, facing, inner):
                out.append(Violation(
                    "ingress-edge", f"{ident(mid)} must be set up wholly within "
                    f"{_fmt(rulings.INGRESS_EDGE)} of a battlefield edge", (mid,), None,
                    rulings.INGRESS_EDGE, inner))
            for o in sit.others:
                if not o.enemy:
                    continue
                d = footprint_distance(base, at, facing, o.base, o.at, o.facing)
                if d <= rulings.INGRESS_ENEMY + EPS:
                    out.append(Violation(
                        "ingress-enemy",
                        f"{ident(mid)} would be {_fmt(d)} from enemy model {ident(o.id)}: "
                        f"it must be more than {_fmt(rulings.INGRESS_ENEMY)} away", (mid, o.id), d,
                        rulings.INGRESS_ENEMY, o.exact.buffer(rulings.INGRESS_ENEMY, quad_segs=32)))
            if dz is not None and rnd < rulings.INGRESS_ZONE_FROM_ROUND and \
                    _overlaps_shape(base, at, facing, dz):
                out.append(Violation(
                    "ingress-zone",
                    f"{ident(mid)} would be in {ident(enemy_player.id)}'s deployment zone "
                    f"before battle round {rulings.INGRESS_ZONE_FROM_ROUND}",
                    (mid, enemy_player.id),
                    None, None, dz))
            return out + _end_violations(sit, x, y, engagement=False)
        checks.append(ingress_checks)
    else:
        if not unit.transport:
            raise UserError(f"unit {quote(unit.id)} is not embarked in a transport")
        try:
            tunit = state.unit(unit.transport)
        except KeyError:
            raise UserError(f"transport {quote(str(unit.transport))} of unit {quote(unit.id)} is "
                            "not in the scenario") from None
        if not isinstance(tunit, Unit) or not any(m.at is not None for m in tunit.models):
            raise UserError(f"transport {quote(str(unit.transport))} is not on the battlefield")
        dmode = mode or "tactical"
        if dmode not in rulings.DISEMBARK_RANGE:
            raise UserError(f"unknown disembark mode {quote(str(dmode))}: write one of "
                            f"{', '.join(rulings.DISEMBARK_RANGE)}")
        rng = rulings.DISEMBARK_RANGE[dmode]
        tmodels = [m for m in tunit.models if m.at is not None]
        tshape = shapely.union_all([
            _exact_self(m.base, (float(m.at[0]), float(m.at[1])), m.facing)  # type: ignore[index]
            for m in tmodels])
        R = base.radius
        # inscribed buffer: a little smaller than the true region, never permissive
        geom = geom.intersection(tshape.buffer(rng - R, quad_segs=32)) if rng > R \
            else Polygon()
        tids = {m.id for m in tmodels}
        engaged_with_transport = frozenset(
            o.id for o in sit.others if o.enemy and any(
                footprint_distance(m.base, m.at, m.facing, o.base, o.at, o.facing)  # type: ignore[arg-type]
                <= rulings.ENGAGEMENT_RANGE + EPS for m in tmodels))
        ignore = engaged_with_transport if dmode == "combat" else frozenset()
        for o in sit.others:
            if o.enemy and o.id not in ignore:
                removed.append(_other_region(o.key(), base, fkey, rulings.ENGAGEMENT_RANGE))

        def disembark_checks(x: float, y: float) -> list[Violation]:
            d = float(tshape.distance(Point(x, y))) + R
            out = []
            if d > rng + EPS:
                out.append(Violation(
                    "disembark-range", f"{ident(mid)} must be set up wholly within {_fmt(rng)} of "
                    f"transport {ident(unit.transport)} ({dmode} disembark)",
                    (mid, *sorted(tids)), d, rng, tshape.buffer(rng, quad_segs=32)))
            return out + _end_violations(sit, x, y, ignore_engaged=ignore)
        checks.append(disembark_checks)
    if removed and not geom.is_empty:
        geom = geom.difference(shapely.union_all(removed))
    return Zone(sit, _clean(geom), None, kind=kind, setup_checks=checks[0])

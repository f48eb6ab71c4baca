"""Threat ranges and safe ground of wh40k-11e: where an enemy unit can charge next turn, and
where a unit may end its move out of reach (the docs' rulings, "Threat ranges and charges").

The Charge phase is not simulated; a threat range applies these rules of it (:data:`RULES`)
to where the unit's models could be after their next Movement phase:

1. *The move.* An unengaged unit makes a normal move: each model ends anywhere in its legal
   zone (its path keeps off the other side's models, except that a MONSTER or VEHICLE passes
   over models that are neither; off impassable terrain and dense terrain it cannot cross; it
   ends more than 2" from the other side's models, on no terrain feature). A FLY unit may take to
   the skies. An engaged unit falls back (or stays and fights) and cannot charge; an advancing
   unit cannot charge either (its zone is drawn, no bands).
2. *The charge.* A roll of ``X`` (2D6, no modifiers, no re-rolls) may target a unit within
   ``X`` inches (closest bases, in a straight line; 12" at most); each model moves up to ``X``
   along a path that keeps its base off what a normal move keeps it off (no model is passed
   over: the MONSTER and VEHICLE exception is for normal and advance moves; a FLY unit may take
   to the skies, 2" less unless HOVER, over every model and all terrain) and ends with its base
   within engagement range (2") of the target's, on no terrain feature, wholly on the
   battlefield. A 2 never charges: the target would have to be within 2" already, and an engaged
   unit cannot declare a charge.

Not applied, each of which could only make a band smaller: coherency after either move, the
charging unit's other models (where they end, in the way), every model ending closer to a
target, ending engaged with no unit that is not a target; the other units of the charging side
may have moved out of the way (they stop no end position). Units in strategic reserves and
embarked units are not counted (an arrival followed by a charge is not simulated).

What is computed (each step errs on the side of showing more, :mod:`tabletop.geometry.outer`):

- ``Z``: every point where a model of the unit can end its move (the engine's reach on a map
  whose free space contains the true one, minus where it may not end, drawn inside the true
  forbidden areas). A model on a non-round base moves as the largest disc inside its base (it
  goes wherever the base goes) and engages as its circumscribed circle.
- ``R(X)``: where a model can end a charge of ``X``. (a) A single path of ``M + X`` from where
  the models stand reaches every charge end; it is exact where the point of the path at ``M``
  may end a move. (b) Where that point may not (within engagement range of the other side, on a
  wall the model crosses: the move must stop short) deeper than :data:`DEEP` from where it may,
  the points within ``X`` of that place are in doubt, and there a path of ``X`` from the
  boundary of ``Z`` decides (sources every :data:`SPACING` inches, each reaching ``X + SPACING /
  2``; every charge end lies within ``X`` of ``Z``). For a MONSTER or VEHICLE the points only a
  path over the other side's small models reaches within ``M + X`` are in doubt too (it may pass
  over them in its move, not in its charge). So ``R(X)`` holds every charge end, is exact where
  nothing stops a move short, within ``DEEP * pi / 2`` where the move could stop that little
  short, and within ``SPACING / 2`` of a roll where (b) decides. What a smaller roll reaches a
  larger one does. A FLY unit adds one path of
  ``M + X - 2"`` over everything (HOVER: no 2"), covering every way of taking to the skies in
  the move, the charge or both: there a band may be up to 2" too generous.
- ``engage``: ``R(X)`` grown by the circumscribed radius and engagement range; ``declare``: ``Z``
  grown by the circumscribed radius and ``X``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError, quote
from tabletop.geometry.footprints import Footprint, Round, circumscribed_circle, footprint_distance
from tabletop.geometry.outer import (
    SLACK,
    boundary_samples,
    grow,
    inner_radius,
    inscribed_footprint,
    outer_map,
    reach_from_points,
    reach_from_region,
)
from tabletop.geometry.polygons import clipped, polygonal
from tabletop.geometry.tolerance import EPS, mm
from tabletop.geometry.visibility import ReachMap
from tabletop.rules.threat import (
    MAX_ROLL,
    MIN_ROLL,
    ChargeBand,
    Odds,
    SafeGround,
    SafeModel,
    Threat,
)
from tabletop.rulesets.wh40k_11e import rulings, zones
from tabletop.rulesets.wh40k_11e import rulings as rules11
from tabletop.rulesets.wh40k_11e.paths import move_cap
from tabletop.state import GameState, Model, Unit

__all__ = ["ADVANCE_ROLL", "MOVES", "RULES", "SPACING", "clear_caches", "engaged", "safe_ground",
           "unit_threat"]

DEEP = 0.05
"""A place a move reaches and may not end, within this of one where it may, lets a single path
of ``M + X`` stand (it is at most ``DEEP * pi / 2`` too generous there), inches."""
SPACING = 0.25
"""Inches between the sources on the boundary of ``Z`` (module docstring): where a move must
stop short, a band may hold points up to half of it farther than its roll reaches."""
ADVANCE_ROLL = 6
"""The advance roll of the advance zone drawn (the most it could move; no charge after it)."""
MOVES = ("normal", "advance", "fall-back")
"""The moves safe ground answers for."""
NAME = "wh40k-11e"
ENGAGED = "engaged: it falls back (or stays and fights) and cannot declare a charge"

RULES = (
    "the Charge phase is not simulated: threat ranges apply these of its rules (the docs' "
    "rulings, 'Threat ranges and charges')",
    "its next Movement phase: a normal move (each model anywhere in its legal zone); an engaged "
    "unit falls back and cannot charge; no charge after an advance",
    "charge roll 2D6 (no modifiers, no re-rolls): a target within the roll (closest bases, "
    "straight line) and within 12\"; a 2 never charges",
    "each model moves up to the roll, its base kept off what a normal move keeps it off (no "
    "model passed over; FLY may take to the skies, 2\" less unless HOVER)",
    "the charge ends with the base within 2\" of the target's, on no terrain feature, wholly "
    "on the battlefield",
    "not applied (each could only make a band smaller): coherency, the unit's other models, "
    "ending closer to a target, engaging no unit that is not a target",
)


# --------------------------------------------------------------------------------------------
# the board as the charging side sees it
# --------------------------------------------------------------------------------------------
def _unit(state: GameState, unit_id: str) -> Unit:
    try:
        unit = state.unit(unit_id)
    except KeyError:
        raise UserError(f"no unit {quote(str(unit_id))} in this scenario") from None
    if not isinstance(unit, Unit):
        raise UserError(f"{quote(str(unit_id))} is not a unit of models")
    return unit


def _without(state: GameState, gone: Iterable[str]) -> GameState:
    gone = set(gone)
    if not gone:
        return state
    return dataclasses.replace(state, units=tuple(u for u in state.units if u.id not in gone))


def _foes(state: GameState, player: str) -> list[tuple[Unit, Model]]:
    """The placed models of every other player."""
    return [(u, m) for u, m in state.placed_models() if u.player != player]


def engaged(state: GameState, unit: Unit) -> bool:
    """Whether a model of ``unit`` is within engagement range of a model of another player."""
    own = [m for m in unit.models if m.at is not None]
    reach = rulings.ENGAGEMENT_RANGE + EPS
    for _, e in _foes(state, unit.player):
        assert e.at is not None
        for m in own:
            assert m.at is not None
            if math.dist(m.at, e.at) - m.base.radius - e.base.radius > reach:
                continue
            if footprint_distance(m.base, m.at, m.facing, e.base, e.at, e.facing) <= reach:
                return True
    return False


def _obstacles(foes: Sequence[tuple[Unit, Model]], big_only: bool
               ) -> tuple[tuple[tuple[float, float, float], ...],
                          tuple[tuple[tuple[float, float], ...], ...]]:
    """The other side's models as obstacles of an outer map: circles, and polygons inside the
    non-round bases (``big_only``: only MONSTER and VEHICLE models)."""
    circles = []
    polys = []
    for u, m in foes:
        if big_only and not any(u.has(k) for k in rulings.BIG):
            continue
        assert m.at is not None
        if isinstance(m.base, Round):
            circles.append((float(m.at[0]), float(m.at[1]), float(m.base.radius)))
        else:
            p = inscribed_footprint(m.base, (float(m.at[0]), float(m.at[1])), float(m.facing))
            polys.append(tuple((float(x), float(y)) for x, y in p.exterior.coords[:-1]))
    return tuple(sorted(circles)), tuple(sorted(polys))


def _blocking_terrain(state: GameState, crosses_dense: bool
                      ) -> tuple[tuple[tuple[float, float], ...], ...]:
    out = []
    for t in state.terrain:
        if t.kind == "impassable" or (t.kind == "dense" and not crosses_dense
                                      and t.height > rulings.DENSE_LOW):
            out.append(tuple((float(x), float(y)) for x, y in t.shape.exterior.coords[:-1]))
    return tuple(sorted(out))


def _end_terrain(state: GameState) -> tuple[tuple[tuple[float, float], ...], ...]:
    return tuple(sorted(tuple((float(x), float(y)) for x, y in t.shape.exterior.coords[:-1])
                        for t in state.terrain if t.kind in rulings.END_TERRAIN))


@lru_cache(maxsize=32)
def _terrain_region(terrain: tuple[tuple[tuple[float, float], ...], ...], r: float
                    ) -> BaseGeometry:
    """Centres at which a disc of radius ``r`` overlaps a terrain feature: drawn inside (the
    buffer's arcs are inscribed)."""
    if not terrain:
        return Polygon()
    g = shapely.union_all([Polygon(t).buffer(r, quad_segs=16) if r > 0 else Polygon(t)
                           for t in terrain])
    shapely.prepare(g)
    return g


@lru_cache(maxsize=32)
def _no_end(circles: tuple[tuple[float, float, float], ...],
            polys: tuple[tuple[tuple[float, float], ...], ...],
            terrain: tuple[tuple[tuple[float, float], ...], ...], r: float) -> BaseGeometry:
    """Where a disc of radius ``r`` may not end a move: within engagement range of the other
    side's models (``circles``, ``polys`` inside their bases) or on a terrain feature; drawn
    inside the true set."""
    er = rulings.ENGAGEMENT_RANGE
    n = 64
    k = math.cos(math.pi / n)
    parts = [circumscribed_circle(x, y, (re + r + er) * k, segments=n) for x, y, re in circles]
    parts += [Polygon(p).buffer(r + er, quad_segs=16) for p in polys]
    parts.append(_terrain_region(terrain, r))
    g = shapely.union_all(parts)
    shapely.prepare(g)
    return g


@dataclass(frozen=True)
class _Group:
    """Models of the unit that move alike: one base, one M."""

    base: Footprint
    M: float
    starts: tuple[tuple[float, float], ...]

    @property
    def r_in(self) -> float:
        return inner_radius(self.base)

    @property
    def r_out(self) -> float:
        return float(self.base.radius)


def _groups(unit: Unit) -> list[_Group]:
    by: dict[tuple[Footprint, float], list[tuple[float, float]]] = {}
    for m in unit.models:
        if m.at is None:
            continue
        by.setdefault((m.base, unit.move_of(m)), []).append((float(m.at[0]), float(m.at[1])))
    return [_Group(b, M, tuple(s)) for (b, M), s in by.items()]


@dataclass(frozen=True)
class _Maps:
    """The outer maps of a group: its move, its charge, and taking to the skies (``None``
    unless FLY)."""

    move: ReachMap
    charge: ReachMap
    sky: ReachMap | None
    penalty: float
    no_end: BaseGeometry
    no_end_key: object
    terrain: BaseGeometry


def _maps(board: GameState, unit: Unit, g: _Group) -> _Maps:
    foes = _foes(board, unit.player)
    big = any(unit.has(k) for k in rulings.BIG)
    crosses = any(unit.has(k) for k in rulings.DENSE_CROSSERS)
    blocks = _blocking_terrain(board, crosses)
    W, H = float(board.battlefield.width), float(board.battlefield.depth)
    r = g.r_in
    circles, polys = _obstacles(foes, big_only=False)
    charge = outer_map(W, H, r, circles, polys + blocks)
    if big:
        bc, bp = _obstacles(foes, big_only=True)
        move = outer_map(W, H, r, bc, bp + blocks)
    else:
        move = charge
    sky = outer_map(W, H, r, (), ()) if unit.has(rulings.FLY) else None
    penalty = zones.fly_penalty(unit)
    terrain = _end_terrain(board)
    no_end = _no_end(circles, polys, terrain, r)
    return _Maps(move, charge, sky, penalty, no_end, ("threat-no-end", circles, polys, terrain, r),
                 _terrain_region(terrain, r))


def _minus(a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    if a.is_empty or b.is_empty:
        return a
    return polygonal(a.difference(clipped(b, a.bounds)))


def _union(parts: Iterable[BaseGeometry]) -> BaseGeometry:
    ps = [p for p in parts if not p.is_empty]
    if not ps:
        return Polygon()
    return ps[0] if len(ps) == 1 else polygonal(shapely.union_all(ps))


def _reach(rm: ReachMap, starts: Sequence[tuple[float, float]], d: float) -> BaseGeometry:
    return reach_from_points(rm, starts, d) if d >= 0 else Polygon()


def clear_caches() -> None:
    """Forget the outer maps and end regions kept between threats (benchmarks of a cold start;
    never needed in play: they are keyed by everything they depend on)."""
    outer_map.cache_clear()
    _no_end.cache_clear()
    _terrain_region.cache_clear()


# --------------------------------------------------------------------------------------------
# threat
# --------------------------------------------------------------------------------------------
def unit_threat(state: GameState, unit_id: str, *, max_roll: int = MAX_ROLL,
                rolls: Sequence[int] | None = None, without: Iterable[str] = (),
                spacing: float = SPACING, advance: bool = True) -> Threat:
    """The threat of ``unit_id`` (module docstring) with its bands of ``rolls`` (default 2 to
    ``max_roll``); ``without``: units left off the board (a unit about to move away)."""
    t0 = time.perf_counter()
    unit = _unit(state, unit_id)
    if unit.location != "battlefield" or not any(m.at is not None for m in unit.models):
        where = {"strategic-reserves": "in strategic reserves",
                 "embarked": f"embarked in {quote(str(unit.transport))}"}.get(
            unit.location, f"not on the battlefield ({unit.location})")
        raise UserError(f"unit {quote(unit.id)} is {where}: threat ranges are for units on the "
                        "battlefield (an arrival followed by a charge is not simulated)")
    board = _without(state, without)
    todo = sorted(set(range(MIN_ROLL, max_roll + 1) if rolls is None else rolls))
    if any(not MIN_ROLL <= x <= MAX_ROLL for x in todo):
        raise UserError(f"a charge roll is from {MIN_ROLL} to {MAX_ROLL}")
    groups = _groups(unit)
    if engaged(board, unit):
        zone = _union(_fall_back(board, unit, g) for g in groups)
        return Threat(NAME, unit.id, unit.player, "fall-back", False, ENGAGED,
                      _on_board(board, zone), None, (), RULES,
                      seconds=time.perf_counter() - t0)
    zone_parts: list[BaseGeometry] = []
    adv_parts: list[BaseGeometry] = []
    engage: dict[int, list[BaseGeometry]] = {x: [] for x in todo}
    declare: dict[int, list[BaseGeometry]] = {x: [] for x in todo}
    for g in groups:
        mp = _maps(board, unit, g)
        z, adv, bands = _group_bands(mp, g, todo, spacing, advance)
        zone_parts.append(z)
        if adv is not None:
            adv_parts.append(adv)
        for x, (e, d) in bands.items():
            engage[x].append(e)
            declare[x].append(d)
    bands_out: list[ChargeBand] = []
    below: BaseGeometry | None = None
    for x in todo:  # ascending
        e = _union(engage[x])
        # whatever a roll reaches, a higher roll reaches too (a charge goes up to the roll): the
        # bands nest by construction, not by how each roll's outer outline happens to fall (the
        # outlines of two rolls may each be generous by up to half the source spacing in
        # different places)
        e = e if below is None else _union([e, below])
        below = e
        bands_out.append(ChargeBand(x, _on_board(board, e), _on_board(board, _union(declare[x]))))
    out = tuple(bands_out)
    notes: tuple[str, ...] = ()
    if unit.has(rulings.FLY):
        notes = ("FLY: each move and each charge also as taking to the skies",)
    return Threat(NAME, unit.id, unit.player, "normal", True, "", _union(zone_parts),
                  _union(adv_parts) if advance else None, out, RULES, notes,
                  seconds=time.perf_counter() - t0)


def _on_board(board: GameState, g: BaseGeometry) -> BaseGeometry:
    if g.is_empty:
        return g
    return polygonal(shapely.clip_by_rect(g, 0.0, 0.0, board.battlefield.width,
                                          board.battlefield.depth))


def _fall_back(board: GameState, unit: Unit, g: _Group) -> BaseGeometry:
    """Where the group's models could end a fall back (Desperate Escape, through the other
    side's models, when it is battle-shocked)."""
    mp = _maps(board, unit, g)
    if unit.battle_shocked:
        W, H = float(board.battlefield.width), float(board.battlefield.depth)
        rm = outer_map(W, H, g.r_in, (), _blocking_terrain(
            board, any(unit.has(k) for k in rulings.DENSE_CROSSERS)))
    else:
        rm = mp.move if not any(unit.has(k) for k in rulings.BIG) else mp.charge
    return _minus(_reach(rm, g.starts, g.M), mp.no_end)


def _group_bands(mp: _Maps, g: _Group, rolls: Sequence[int], spacing: float, advance: bool
                 ) -> tuple[BaseGeometry, BaseGeometry | None,
                            dict[int, tuple[BaseGeometry, BaseGeometry]]]:
    """The move zone ``Z``, the advance zone and per roll ``(engage, declare)`` of one group
    (module docstring)."""
    reach = _reach(mp.move, g.starts, g.M)
    sky = mp.sky
    if sky is not None:
        reach = _union([reach, _reach(sky, g.starts, g.M - mp.penalty)])
    z = _minus(reach, mp.no_end)
    adv = _minus(_reach(mp.move, g.starts, g.M + ADVANCE_ROLL), mp.no_end) if advance else None
    # where one path of M + X may be too generous (module docstring): beyond the places a move
    # reaches and may not end, deeper than DEEP from where it may
    deep = _minus(polygonal(reach.intersection(clipped(mp.no_end, reach.bounds))),
                  grow(z, DEEP)) if not reach.is_empty else Polygon()
    samples = boundary_samples(z, spacing) if not z.is_empty else None
    grow_e = g.r_out + rulings.ENGAGEMENT_RANGE + EPS
    out: dict[int, tuple[BaseGeometry, BaseGeometry]] = {}
    for x in rolls:
        if x <= MIN_ROLL or z.is_empty:
            out[x] = (Polygon(), Polygon())
            continue
        r = _reach(mp.move, g.starts, g.M + x)
        if sky is not None:
            r = _union([r, _reach(sky, g.starts, g.M + x - mp.penalty)])
        doubt = grow(deep, x + SLACK)
        if mp.move is not mp.charge:
            # a MONSTER or VEHICLE: where only a path over the other side's small models gets
            # within M + X (such a path may pass over them in the move, not in the charge)
            doubt = _union([doubt, _minus(r, _reach(mp.charge, g.starts, g.M + x))])
        if not doubt.is_empty:
            assert samples is not None
            # the part of the doubt in reach asks for sources; the whole is taken off, so that
            # no sliver of the single path's rim is left where the two outlines run together
            asked = polygonal(doubt.intersection(r))
            two = reach_from_region(mp.charge, z, x, spacing, samples, within=asked)
            if sky is not None and x - mp.penalty >= 0:
                two = _union([two, reach_from_region(
                    sky, z, x - mp.penalty, spacing, samples, within=asked)])
            r = _minus(r, _minus(doubt, two))
        r = _minus(_union([r, z]), mp.terrain)
        out[x] = (grow(r, grow_e), grow(z, g.r_out + x + EPS))
    return z, adv, out


# --------------------------------------------------------------------------------------------
# safe ground
# --------------------------------------------------------------------------------------------
def _zone(state: GameState, model_id: str, move: str, roll: int | None) -> BaseGeometry:
    from tabletop.rulesets.wh40k_11e.tools import ModelDrag

    sel = state.battle.selection
    unit, _ = state.model(model_id)
    if sel is not None and sel.unit == unit.id and sel.move == move:
        z = ModelDrag().zone(state, model_id)
        if z is not None:
            return z.geometry
    return zones.legal_zone(state, model_id, move, roll=roll).geometry


def _marker(state: GameState, objective: int, r_in: float) -> BaseGeometry:
    """Centres of a base whose inner disc has radius ``r_in`` within range of the objective
    marker (drawn inside: a point counts only if the base is in range)."""
    x, y = state.objectives[objective - 1]
    reach = rules11.OBJECTIVE_RANGE + mm(rules11.OBJECTIVE_MARKER_MM) / 2.0 + r_in
    n = 128
    return circumscribed_circle(float(x), float(y), reach * math.cos(math.pi / n), segments=n)


def safe_ground(state: GameState, unit_id: str, move: str, odds: Odds, *,
                model: str | None = None, roll: int | None = None,
                objective: int | None = None, spacing: float = SPACING) -> SafeGround:
    """Where the models of ``unit_id`` (or ``model`` alone) may end ``move`` (``roll``: the
    advance roll) and be out of every enemy unit's charge at ``odds``.

    Each enemy unit on the battlefield is taken as it would stand with this unit gone (it
    moves away: the enemy may pass and end where it stood, and is no longer engaged with it).
    A model's base is threatened when it reaches into a band's ``engage`` and, unless another
    model of its unit could make the unit a target, into its ``declare`` too; a non-round base
    counts as its circumscribed circle. ``objective`` (1-based): only within range of that
    marker, the base's inner disc within 3" of it.
    """
    t0 = time.perf_counter()
    unit = _unit(state, unit_id)
    if move not in MOVES:
        raise UserError(f"safe ground is for a move of {', '.join(MOVES)}, not "
                        f"{quote(str(move))}")
    if move == "advance" and roll is None:
        raise UserError("an advance needs its roll (--roll N)")
    if objective is not None and not 1 <= objective <= len(state.objectives):
        raise UserError(f"objective {objective}: the scenario has "
                        f"{len(state.objectives)} objective markers (1 to "
                        f"{len(state.objectives)})")
    placed = [m for m in unit.models if m.at is not None]
    if model is not None:
        mine = [m for m in placed if m.id == model]
        if not mine:
            raise UserError(f"no model {quote(str(model))} of unit {quote(unit.id)} on the "
                            "battlefield")
    else:
        mine = placed
    if not mine:
        raise UserError(f"unit {quote(unit.id)} has no model on the battlefield")
    zones_of = {m.id: _zone(state, m.id, move, roll) for m in mine}
    worst = odds.worst
    board = _without(state, {unit.id})
    counted: list[str] = []
    skipped: list[tuple[str, str]] = []
    threats: list[Threat] = []
    where = _union(zones_of.values())
    for u in state.units:
        if u.player == unit.player or not isinstance(u, Unit):
            continue
        if u.location != "battlefield" or not any(m.at is not None for m in u.models):
            skipped.append((u.id, "not on the battlefield: an arrival and charge is not "
                                  "simulated"))
            continue
        if worst < MIN_ROLL + 1:
            skipped.append((u.id, "no roll counts at these odds"))
            continue
        if engaged(board, u):
            skipped.append((u.id, ENGAGED))
            continue
        far = _beyond(u, worst, where, max(m.base.radius for m in mine))
        if far is not None:
            skipped.append((u.id, far))
            continue
        th = unit_threat(board, u.id, rolls=(worst,), spacing=spacing, advance=False)
        if not th.charges:
            skipped.append((u.id, th.reason))
            continue
        counted.append(u.id)
        threats.append(th)
    alone = len(placed) == 1
    out = []
    grown: dict[float, list[tuple[BaseGeometry, BaseGeometry]]] = {}
    for m in mine:
        r = float(m.base.radius)
        if r not in grown:
            grown[r] = []
            for th in threats:
                b = th.band(worst)
                assert b is not None
                grown[r].append((grow(b.engage, r), grow(b.declare, r)))
        hit = []
        for th, (e, d) in zip(threats, grown[r], strict=True):
            if e.is_empty:
                continue
            if not alone and _others_declare(unit, m, move, roll, th.band(worst)):
                hit.append(e)
            elif not d.is_empty:
                hit.append(polygonal(e.intersection(d)))
        z = zones_of[m.id]
        safe = _minus(z, _union(hit))
        if objective is not None:
            safe = polygonal(safe.intersection(_marker(state, objective, inner_radius(m.base))))
        out.append(SafeModel(m.id, z, safe))
    notes = ["a non-round base counts as its circumscribed circle"] if any(
        not isinstance(m.base, Round) for m in mine) else []
    return SafeGround(NAME, unit.id, move, odds, objective, tuple(out), tuple(counted),
                      tuple(skipped), RULES, tuple(notes), time.perf_counter() - t0,
                      tuple(threats))


def _beyond(enemy: Unit, worst: int, where: BaseGeometry, r_mine: float) -> str | None:
    """Why ``enemy`` cannot reach ``where`` with a charge of ``worst`` whatever the board
    holds (straight lines), or ``None``."""
    if where.is_empty:
        return "nothing to reach"
    far = 0.0
    near = math.inf
    for m in enemy.models:
        if m.at is None:
            continue
        reach = enemy.move_of(m) + worst + m.base.radius + rulings.ENGAGEMENT_RANGE + r_mine
        gap = float(where.distance(Point(m.at))) - reach
        near = min(near, gap)
        far = max(far, reach)
    if near > EPS:
        return f"out of reach: more than {far:.1f}\" (M + {worst} + bases + 2\") away"
    return None


def _others_declare(unit: Unit, m: Model, move: str, roll: int | None,
                    band: ChargeBand | None) -> bool:
    """Whether another model of ``unit`` could stand within ``band.declare`` after the move
    (straight reach about where it stands: never less than its zone), making the unit a target
    whatever ``m`` does."""
    if band is None or band.declare.is_empty:
        return False
    for o in unit.models:
        if o.id == m.id or o.at is None:
            continue
        cap = move_cap(unit, o, move, roll) if move in MOVES else 0.0
        if Point(o.at).distance(band.declare) <= cap + o.base.radius + EPS:
            return True
    return False

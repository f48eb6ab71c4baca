"""t9a-2, the Movement phase of rank-and-file blocks (seed 001): rally, flee, manoeuvres.

The selected block is moved live in the state (the window draws it where it stands); the
selection keeps its start pose and the staged manoeuvres, so undo replays from the start.

Rulings (``docs/rulings.md``, t9a-2) are the named constants of :mod:`.rulings`. Block flags used
here: ``moved`` (moved this phase), ``marched``, ``reformed``, ``no-shooting``, ``shaken``,
``rallied``; ``charging`` and ``engaged`` come from the scenario.

Entry points: :func:`act` (every action but ``next``), the step handlers :func:`rally_step` and
:func:`end_of_turn`. Range queries for the window: :func:`block_geom`, :func:`straight_range`,
:func:`wheel_range`, :func:`outer_arc_length`, :func:`end_violations`, :func:`preview`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError, ident, quote
from tabletop.geometry.blocks import (
    BlockGeom,
    bottleneck_assignment,
    clear_of,
    flee_clear_distance,
    furthest_straight,
    model_sweeps,
    overlaps,
    straight_sweep,
    wheel_limits,
    wheel_sweep,
)
from tabletop.geometry.tolerance import EPS
from tabletop.rules.dice import Dice, stand, stood, stood_event
from tabletop.rules.result import ActionResult
from tabletop.rules.turns import TriggerContext
from tabletop.rulesets.t9a_2 import rulings
from tabletop.state import Block, GameState, Selection

__all__ = [
    "act",
    "block_geom",
    "end_of_turn",
    "end_violations",
    "flee_move",
    "is_decimated",
    "march_test_enemies",
    "obstacles",
    "outer_arc_length",
    "preview",
    "rally_discipline",
    "rally_step",
    "straight_range",
    "wheel_range",
]

MOVES = ("advance", "march", "reform")
MANOEUVRES = ("forward", "backward", "sideways", "wheel", "reform")

Result = tuple[GameState, bool, list[str], list[dict[str, Any]]]


# -- blocks and obstacles -----------------------------------------------------------------
def block_geom(block: Block) -> BlockGeom:
    """The geometry of ``block`` as it stands (bases, boundary, arcs, moves)."""
    return block.geom


def _blocks(state: GameState) -> list[Block]:
    return [u for u in state.units if isinstance(u, Block)]


def _block(state: GameState, unit_id: object) -> Block:
    if not isinstance(unit_id, str):
        raise UserError("field 'unit' must be a unit id (a string)")
    try:
        u = state.unit(unit_id)
    except KeyError:
        raise UserError(f"unknown unit {quote(str(unit_id))}") from None
    if not isinstance(u, Block):
        raise UserError(f"unit {quote(str(unit_id))} is not a t9a-2 block")
    return u


def obstacles(state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
    """Every other unit's boundary and every impassable terrain piece, labelled."""
    out: list[tuple[str, BaseGeometry]] = []
    for b in _blocks(state):
        if b.id != unit_id:
            out.append((f"unit {ident(b.id)}", block_geom(b).polygon))
    for t in state.terrain:
        if t.kind == "impassable":
            out.append((f"impassable terrain {ident(t.id)}", t.shape))
    return out


def _union(obs: list[tuple[str, BaseGeometry]]) -> BaseGeometry:
    return shapely.union_all([g for _, g in obs]) if obs else Polygon()


def _outside(state: GameState) -> BaseGeometry:
    """Everything off the battlefield (a wide frame around it)."""
    bf = state.battlefield.polygon
    return bf.buffer(1000.0, join_style="mitre").difference(bf)


# -- rally, march test ----------------------------------------------------------------------
def is_decimated(block: Block) -> bool:
    """Whether ``block`` has 25% or fewer of its starting models (rulings: Decimated)."""
    return block.models <= rulings.DECIMATED_FRACTION * block.start_models + EPS


def rally_discipline(block: Block) -> int:
    """The Discipline a Rally Test needs: half, rounded up, when Decimated."""
    return math.ceil(block.Dis / 2) if is_decimated(block) else block.Dis


def march_test_enemies(state: GameState, block: Block) -> list[str]:
    """Ids of non-fleeing enemy units within the March Test range of ``block``."""
    poly = block_geom(block).polygon
    return [b.id for b in _blocks(state)
            if b.player != block.player and not b.fleeing
            and poly.distance(block_geom(b).polygon) <= rulings.MARCH_TEST_RANGE + EPS]


def flee_move(state: GameState, unit_id: str, dice: Dice) -> tuple[GameState, list[dict[str, Any]]]:
    """The Flee Move of ``unit_id`` (2D6): pivot away from the closest enemy, then straight on.

    The move is extended by the minimum needed to end more than 1" from every unit and impassable
    terrain; models passing through an enemy unit or impassable terrain take Dangerous Terrain (3)
    tests; each friendly unit passed through then takes a Panic test (:func:`panic_test`: a
    failure makes it flee in turn). Touching the battlefield edge destroys the unit where it
    touches (:func:`_fled_off`).
    """
    block = _block(state, unit_id)
    g = block_geom(block)
    events: list[dict[str, Any]] = []
    enemies = [b for b in _blocks(state) if b.player != block.player]
    facing = g.facing
    away_from = None
    if enemies:
        closest = min(enemies, key=lambda b: math.hypot(b.at[0] - g.at[0], b.at[1] - g.at[1]))
        dx, dy = g.at[0] - closest.at[0], g.at[1] - closest.at[1]
        if math.hypot(dx, dy) > EPS:
            facing = math.degrees(math.atan2(dx, -dy)) % 360.0
        away_from = closest.id
    pivoted = g.pivoted(facing)
    dd = dice.take(2)
    events.append({"kind": "roll", "what": "flee", "unit": unit_id, "dice": dd})
    rolled = float(sum(dd))
    obs = obstacles(state, unit_id)
    dist = flee_clear_distance(pivoted, rolled, [o for _, o in obs], rulings.UNIT_SPACING)
    end = pivoted.moved("forward", dist)
    events.append({"kind": "flee", "unit": unit_id, "away_from": away_from, "facing": facing,
                   "rolled": rolled, "distance": dist, "extended": dist - rolled})
    path = shapely.union(straight_sweep(pivoted, end), g.polygon)
    bf = state.battlefield.polygon
    if not path.within(bf) or path.distance(bf.exterior) <= EPS:
        state, ev = _fled_off(state, block, pivoted, dice)
        return state, events + ev
    # Dangerous Terrain (3): per model, once per feature passed through
    starts, ends = pivoted.model_polygons(), end.model_polygons()
    model_paths = [shapely.convex_hull(shapely.union(a, b)) for a, b in zip(starts, ends,
                                                                            strict=True)]
    features = [(f"unit {ident(b.id)}", block_geom(b).polygon) for b in enemies]
    features += [(f"impassable terrain {ident(t.id)}", t.shape) for t in state.terrain
                 if t.kind == "impassable"]
    for label, shape in features:
        touched = [i for i, mp in enumerate(model_paths) if overlaps(mp, shape)]
        events += _dangerous(unit_id, label, touched, rulings.FLEE_DANGEROUS_TERRAIN, dice)
    events += _dangerous_terrain(state, unit_id, model_paths, dice)
    sweep = straight_sweep(pivoted, end)
    passed_through = [b.id for b in _blocks(state)
                      if b.player == block.player and b.id != unit_id
                      and overlaps(sweep, block_geom(b).polygon)]
    state = state.with_unit(replace(block, at=end.at, facing=end.facing % 360.0))
    for friend in passed_through:
        state, ev = panic_test(state, friend, f"unit {ident(unit_id)} fled through it", dice)
        events += ev
    return state, events


def _edge_contact(g: BlockGeom, width: float, depth: float) -> float:
    """How far ``g`` moves forwards before its boundary touches the battlefield edge (0 when it
    touches or crosses it already)."""
    fx, fy = g.forward
    best = math.inf
    for cx, cy in g.corners.values():
        for c, d, hi in ((cx, fx, width), (cy, fy, depth)):
            if c <= EPS or c >= hi - EPS:
                return 0.0
            if d > EPS:
                best = min(best, (hi - c) / d)
            elif d < -EPS:
                best = min(best, -c / d)
    return best


def _fled_off(state: GameState, block: Block, pivoted: BlockGeom, dice: Dice
              ) -> tuple[GameState, list[dict[str, Any]]]:
    """A flee that reaches the battlefield edge: the unit is destroyed where it touches it.

    Rulings: it first resolves the Panic tests of the friends it passed through on the way to the
    edge; then every friendly unit within :data:`~.rulings.PANIC_RANGE` of where it was destroyed
    takes a Panic test.
    """
    t = _edge_contact(pivoted, state.battlefield.width, state.battlefield.depth)
    there = pivoted.moved("forward", t)
    sweep = straight_sweep(pivoted, there)
    friends = [b for b in _blocks(state) if b.player == block.player and b.id != block.id]
    passed_through = [b.id for b in friends if overlaps(sweep, block_geom(b).polygon)]
    events: list[dict[str, Any]] = [{"kind": "destroyed", "unit": block.id,
                                     "reason": "fled into the battlefield edge",
                                     "at": list(there.at), "facing": there.facing % 360.0}]
    state = replace(state, units=tuple(u for u in state.units if u.id != block.id))
    for friend in passed_through:
        state, ev = panic_test(state, friend, f"unit {ident(block.id)} fled through it", dice)
        events += ev
    near = [b.id for b in _blocks(state) if b.player == block.player
            and there.polygon.distance(block_geom(b).polygon) <= rulings.PANIC_RANGE + EPS]
    for friend in near:
        state, ev = panic_test(state, friend, f"unit {ident(block.id)} was destroyed within "
                               f"{rulings.PANIC_RANGE:g}\" of it, fleeing off the battlefield",
                               dice)
        events += ev
    return state, events


def panic_test(state: GameState, unit_id: str, cause: str, dice: Dice
               ) -> tuple[GameState, list[dict[str, Any]]]:
    """A Panic test of ``unit_id`` (a Discipline test, 2D6 <= Dis); failed, the unit flees.

    A unit that is already fleeing (or was destroyed by a flee before its turn came) takes none.
    """
    try:
        block = _block(state, unit_id)
    except UserError:
        return state, []
    if block.fleeing:
        return state, []
    dd = dice.take(2)
    passed = sum(dd) <= block.Dis
    events: list[dict[str, Any]] = [
        {"kind": "roll", "what": "panic", "unit": unit_id, "dice": dd},
        {"kind": "panic-test", "unit": unit_id, "cause": cause, "dice": dd, "Dis": block.Dis,
         "passed": passed}]
    if not passed:
        state = state.with_unit(replace(block, fleeing=True))
        state, ev = flee_move(state, unit_id, dice)
        events += ev
    return state, events


def _dangerous(unit_id: str, label: str, touched: list[int], value: int, dice: Dice
               ) -> list[dict[str, Any]]:
    """Dangerous Terrain (value) tests: one D6 per model touching the feature, hit on <= value."""
    if not touched:
        return []
    dt = dice.take(len(touched))
    return [{"kind": "roll", "what": "dangerous-terrain", "unit": unit_id, "dice": dt},
            {"kind": "dangerous-terrain", "unit": unit_id, "feature": label, "value": value,
             "models": touched, "dice": dt, "hits": sum(1 for v in dt if v <= value)}]


def _dangerous_terrain(state: GameState, unit_id: str, model_paths: list[BaseGeometry],
                       dice: Dice) -> list[dict[str, Any]]:
    """Tests for every piece of ``dangerous`` terrain the models' paths touch (once per piece)."""
    out: list[dict[str, Any]] = []
    for t in state.terrain:
        if t.kind == "dangerous":
            touched = [i for i, mp in enumerate(model_paths) if mp.intersects(t.shape)]
            x = t.dangerous if t.dangerous is not None else rulings.DANGEROUS_TERRAIN_VALUE
            out += _dangerous(unit_id, f"dangerous terrain {ident(t.id)}", touched, x, dice)
    return out


def _rally_all(state: GameState, dice: Dice) -> tuple[GameState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for uid in [b.id for b in _blocks(state)
                if b.player == state.battle.active_player and b.fleeing]:
        try:
            block = _block(state, uid)
        except UserError:
            continue  # destroyed by an earlier flee
        target = rally_discipline(block)
        dd = dice.take(2)
        passed = sum(dd) <= target
        events.append({"kind": "roll", "what": "rally", "unit": uid, "dice": dd})
        events.append({"kind": "rally", "unit": uid, "dice": dd, "Dis": target,
                       "decimated": is_decimated(block), "passed": passed})
        if passed:
            flags = tuple(dict.fromkeys((*block.flags, "shaken", "rallied", "no-shooting")))
            state = state.with_unit(replace(block, fleeing=False, flags=flags))
        else:
            state, ev = flee_move(state, uid, dice)
            events.extend(ev)
    return state, events


# -- moving -------------------------------------------------------------------------------
def _eligibility(state: GameState, block: Block, move: str) -> list[str]:
    reasons = []
    if block.player != state.battle.active_player:
        reasons.append(f"unit {ident(block.id)} belongs to {ident(block.player)}, not the active "
                       "player")
    if "moved" in block.flags:
        reasons.append(f"unit {ident(block.id)} has already moved this phase (once per phase)")
    if block.fleeing:
        reasons.append(f"unit {ident(block.id)} is fleeing: it moves only by fleeing")
    for flag, words in (("charging", "declared a charge this turn"),
                        ("engaged", "is engaged in combat")):
        if flag in block.flags:
            reasons.append(f"unit {ident(block.id)} {words}")
    if "shaken" in block.flags and not (move == "reform" and "rallied" in block.flags):
        reasons.append(f"unit {ident(block.id)} has Shaken models until the end of the player turn"
                       + (" (a rallied unit may only reform)" if "rallied" in block.flags
                          else ""))
    return reasons


def _start_geom(state: GameState, sel: Selection) -> BlockGeom:
    block = _block(state, sel.unit)
    _uid, at, facing = sel.start[0]
    assert at is not None
    files = sel.files if sel.files is not None else block.files
    return replace(block_geom(block), at=(float(at[0]), float(at[1])), facing=float(facing),
                   files=files)


def _cap(block: Block, sel: Selection, kind: str) -> float:
    """The displacement cap of the move so far (kind: the direction class)."""
    if sel.move == "advance":
        if kind == "reform":
            return block.Mar
        return block.Adv if kind == "forward" else block.Adv / 2.0
    if sel.move == "march":
        return block.Adv if sel.mode == "march-test-failed" else block.Mar
    return block.Mar


def move_cap(state: GameState, kind: str) -> float:
    """The displacement cap of the selected block's move for a manoeuvre of ``kind``.

    ``kind``: ``forward``, ``backward``, ``sideways`` or ``reform``. Advance Rate forwards, half
    of it backwards and sideways, March Rate for a March (the Advance Rate after a failed March
    Test) and for a Reform; 0 when no block is selected.
    """
    sel = state.battle.selection
    if sel is None:
        return 0.0
    block = state.unit(sel.unit)
    if not isinstance(block, Block):
        return 0.0
    return float(_cap(block, sel, kind))


def _kind(action: Mapping[str, Any]) -> str:
    do = action["do"]
    if do in ("forward", "wheel"):
        return "forward"
    if do == "sideways":
        return "sideways-right" if float(action["distance"]) >= 0 else "sideways-left"
    return str(do)


def _apply_manoeuvre(g: BlockGeom, action: Mapping[str, Any]) -> BlockGeom:
    do = action["do"]
    if do == "forward":
        return g.moved("forward", float(action["distance"]))
    if do == "backward":
        return g.moved("backward", float(action["distance"]))
    if do == "sideways":
        return g.moved("sideways", float(action["distance"]))
    if do == "wheel":
        return g.wheeled(float(action["angle"]))
    return g.reformed(int(action["files"]), float(action.get("facing", g.facing)))


def _sweep(g: BlockGeom, action: Mapping[str, Any]) -> BaseGeometry | None:
    do = action["do"]
    if do == "wheel":
        return wheel_sweep(g, float(action["angle"]))
    if do == "reform":
        return None
    return straight_sweep(g, _apply_manoeuvre(g, action))


def _move_reasons(state: GameState, sel: Selection, start: BlockGeom, end: BlockGeom,
                  kind: str) -> list[str]:
    block = _block(state, sel.unit)
    reasons = []
    cap = _cap(block, sel, kind)
    swift = _swift_reform_geom(state, sel)
    if swift is not None or (sel.move == "advance" and kind == "reform"):
        # Swift Reform: March Rate from before the reform, the Advance cap from after it
        total = bottleneck_assignment(start.centres, end.centres)
        if total > block.Mar + EPS:
            reasons.append(f"a model's centre would end {total:.2f}\" from where it stood before "
                           f"the Swift Reform, more than the March Rate of {block.Mar:g}\"")
        if swift is not None:
            start = swift
    if sel.move == "advance" and kind == "reform":
        disp = 0.0
    elif sel.move == "reform" or start.files != end.files:
        disp = bottleneck_assignment(start.centres, end.centres)
    else:
        disp = float(start.displacements(end).max())
    if disp > cap + EPS:
        what = {"advance": "Advance", "march": "March", "reform": "March"}[sel.move]
        if sel.move == "advance" and kind != "forward":
            what = "half the Advance"
        if sel.move == "march" and sel.mode == "march-test-failed":
            what = "Advance (failed March Test)"
        reasons.append(f"a model's centre would end {disp:.2f}\" from where it started, more than "
                       f"the {what} Rate of {cap:g}\"")
    if not end.polygon.within(state.battlefield.polygon.buffer(EPS, join_style="mitre")):
        reasons.append(f"unit {ident(block.id)} would leave the battlefield")
    return reasons


def end_violations(state: GameState) -> list[str]:
    """Why the selected block may not end its move where it stands now (empty: it may)."""
    sel = state.battle.selection
    if sel is None:
        return ["no unit is selected"]
    block = _block(state, sel.unit)
    poly = block_geom(block).polygon
    reasons = []
    for label, geom in obstacles(state, block.id):
        d = poly.distance(geom)
        if not clear_of(poly, geom, rulings.UNIT_SPACING):
            reasons.append(f"unit {ident(block.id)} would end {d:.2f}\" from {label}; it must "
                           f"end more than {rulings.UNIT_SPACING:g}\" away")
    return reasons


def _current_kind(sel: Selection) -> str | None:
    """The direction class of the staged manoeuvres (a leading Swift Reform does not count)."""
    kinds = [_kind(a) for a in sel.staged if not (sel.move == "advance" and a["do"] == "reform")]
    return kinds[-1] if kinds else None


def _swift_reform_geom(state: GameState, sel: Selection) -> BlockGeom | None:
    """The block right after a Swift Reform staged first in an Advance Move, if any."""
    if sel.move != "advance" or not sel.staged or sel.staged[0]["do"] != "reform":
        return None
    return _apply_manoeuvre(_start_geom(state, sel), sel.staged[0])


def _stage(state: GameState, action: Mapping[str, Any]) -> Result:
    sel = state.battle.selection
    do = action["do"]
    if sel is None:
        return state, False, ["select a unit before moving it"], []
    block = _block(state, sel.unit)
    if do == "reform" and "facing" not in action:  # the facing it has: staged explicitly
        action = {**action, "facing": float(block.facing)}
    # field types
    if do in ("forward", "backward", "sideways"):
        v = action.get("distance")
        if not isinstance(v, int | float) or isinstance(v, bool):
            raise UserError(f"{do}: field 'distance' must be a number")
        if do != "sideways" and v < 0:
            return state, False, [f"{do}: the distance must not be negative"], []
    elif do == "wheel":
        v = action.get("angle")
        if not isinstance(v, int | float) or isinstance(v, bool):
            raise UserError("wheel: field 'angle' must be a number")
    elif do == "reform":
        f, fc = action.get("files"), action.get("facing", block.facing)
        if not isinstance(f, int) or isinstance(f, bool):
            raise UserError("reform: field 'files' must be an integer")
        if not isinstance(fc, int | float) or isinstance(fc, bool):
            raise UserError("reform: field 'facing' must be a number")
        if not 1 <= f <= block.models:
            return state, False, [f"reform: {f} files is not a formation of {block.models} "
                                  "models"], []
    # the kind of move allows this manoeuvre?
    kind = _kind(action)
    if sel.move == "reform" and do != "reform":
        return state, False, ["a Reform only rebuilds the unit about its centre; no other "
                              "manoeuvre"], []
    if sel.move != "reform" and do == "reform":
        swift = (sel.move == "advance" and rulings.SWIFT_REFORM in block.flags and not sel.staged)
        if not swift:
            return state, False, [f"reform is not part of a {sel.move} move: select the unit "
                                  "with move \"reform\" (only a unit with Swift Reform may "
                                  "reform first in an Advance Move)"], []
    if sel.move == "reform" and sel.staged:
        return state, False, ["the unit has already been reformed: undo it first"], []
    if sel.move == "march" and kind != "forward":
        return state, False, ["a March Move goes forwards only (with wheels)"], []
    prev = _current_kind(sel)
    if sel.move == "advance" and prev is not None and prev != kind:
        return state, False, [f"an Advance Move goes in one direction only: this move already "
                              f"went {prev.replace('-', ' ')}, not {kind.replace('-', ' ')}"], []
    legs = _leg_reasons(block, sel, action, kind)
    if legs:
        return state, False, legs, []
    start = _start_geom(state, sel)
    here = block_geom(block)
    end = _apply_manoeuvre(here, action)
    reasons = _move_reasons(state, sel, start, end, kind)
    sweep = _sweep(here, action)
    if sweep is not None:
        for label, geom in obstacles(state, block.id):
            if overlaps(sweep, geom):
                reasons.append(f"the unit would move through {label}")
        if overlaps(sweep, _outside(state)):
            reasons.append("the unit would move off the battlefield")
    if reasons:
        return state, False, reasons, []
    new_block = replace(block, at=end.at, facing=end.facing % 360.0, files=end.files)
    new_sel = replace(sel, staged=(*sel.staged, dict(action)))
    st = state.with_unit(new_block)
    st = replace(st, battle=replace(st.battle, selection=new_sel))
    info: dict[str, Any] = {"kind": "manoeuvre", "unit": block.id, "do": do,
                            "at": list(end.at), "facing": end.facing % 360.0}
    if do == "wheel":
        info["outer_arc"] = here.outer_arc_length(float(action["angle"]))
    return st, True, [], [info]


def _leg_reasons(block: Block, sel: Selection, action: Mapping[str, Any], kind: str
                 ) -> list[str]:
    """The checks of a manoeuvre that need no geometry, made before any swept area is built.

    Rulings: each wheel turns at most :data:`~.rulings.WHEEL_MAX` degrees, and the legs of one
    direction add up to at most its rate (:data:`~.rulings.LEGS_AT_MOST_RATE`).
    """
    do = action["do"]
    if do == "wheel":
        angle = float(action["angle"])
        if abs(angle) > rulings.WHEEL_MAX + EPS:
            return [f"a wheel turns at most {rulings.WHEEL_MAX:g} degrees, not {angle:g}"]
        return []
    if do not in ("forward", "backward", "sideways") or not rulings.LEGS_AT_MOST_RATE:
        return []
    total = _legs((*sel.staged, action), do)
    cap = _cap(block, sel, kind)
    if total > cap + EPS:
        what = "forward legs" if do == "forward" else f"{do} legs"
        return [f"the {what} of this move would add up to {total:.2f}\", more than the "
                f"{_rate_name(sel, kind)} of {cap:g}\""]
    return []


def _legs(staged: Sequence[Mapping[str, Any]], do: str) -> float:
    """The length of the ``do`` legs (``forward``, ``backward``, ``sideways``) of ``staged``."""
    return sum(abs(float(a["distance"])) for a in staged if a["do"] == do)


def _rate_name(sel: Selection, kind: str) -> str:
    if sel.move == "advance":
        return "Advance Rate" if kind == "forward" else "half Advance Rate"
    if sel.move == "march" and sel.mode == "march-test-failed":
        return "Advance Rate (failed March Test)"
    return "March Rate"


def _replay(state: GameState, sel: Selection, staged: tuple[dict[str, object], ...]
            ) -> GameState:
    g = _start_geom(state, sel)
    for a in staged:
        g = _apply_manoeuvre(g, a)
    block = _block(state, sel.unit)
    st = state.with_unit(replace(block, at=g.at, facing=g.facing % 360.0, files=g.files))
    return replace(st, battle=replace(st.battle, selection=replace(sel, staged=staged)))


def _select(state: GameState, action: Mapping[str, Any], dice: Dice) -> Result:
    block = _block(state, action.get("unit"))
    move = action.get("move")
    if move not in MOVES:
        raise UserError(f"select: field 'move' must be one of {', '.join(MOVES)}")
    if state.battle.step != "move-units":
        return state, False, ["units are selected in the Move Units step of the Movement "
                              "phase"], []
    if state.battle.selection is not None:
        return state, False, [f"unit {ident(state.battle.selection.unit)} is still selected: "
                              "commit or reset it first"], []
    reasons = _eligibility(state, block, str(move))
    kept = stood(state, block.id, "march-test")
    failed_before = kept is not None and sum(kept) > block.Dis
    if failed_before and move != "march" and rulings.FAILED_MARCH_TEST_MARCHES_AT_ADVANCE:
        # the seed: "if the test is failed, the unit still marches"; the failure stands
        reasons.append(f"unit {ident(block.id)} failed its March Test this phase: it still "
                       f"marches, capped at its Advance Rate of {block.Adv:g}\" (the dice stand)")
    if reasons:
        return state, False, reasons, []
    events: list[dict[str, Any]] = []
    mode = None
    roll_total = None
    if move == "march":
        near = march_test_enemies(state, block)
        if near or kept is not None:
            if kept is not None:
                dd = list(kept)
                events.append(stood_event(block.id, "march-test", dd))
            else:
                dd = dice.take(2)
                state = stand(state, block.id, "march-test", dd)
                events.append({"kind": "roll", "what": "march-test", "unit": block.id,
                               "dice": dd})
            roll_total = sum(dd)
            passed = roll_total <= block.Dis
            events.append({"kind": "march-test", "unit": block.id, "dice": dd, "Dis": block.Dis,
                           "enemies": near, "passed": passed})
            if not passed:
                if not rulings.FAILED_MARCH_TEST_MARCHES_AT_ADVANCE:
                    st = dice.commit(state)
                    return st, True, [], [*events, {"kind": "march-refused", "unit": block.id}]
                mode = "march-test-failed"
    sel = Selection(unit=block.id, move=str(move), mode=mode, roll=roll_total,
                    start=((block.id, (float(block.at[0]), float(block.at[1])),
                            float(block.facing)),), files=block.files)
    st = replace(state, battle=replace(state.battle, selection=sel))
    return dice.commit(st), True, [], events


def _commit(state: GameState, dice: Dice) -> Result:
    sel = state.battle.selection
    if sel is None:
        return state, False, ["no unit is selected"], []
    block = _block(state, sel.unit)
    start = _start_geom(state, sel)
    here = block_geom(block)
    kind = _current_kind(sel) or "forward"
    reasons = _move_reasons(state, sel, start, here, kind) if sel.staged else []
    if sel.staged:
        reasons += end_violations(state)
    if reasons:
        back = replace(block, at=start.at, facing=start.facing, files=start.files)
        st = state.with_unit(back)
        st = replace(st, battle=replace(st.battle, selection=None))
        return st, False, [*reasons, f"unit {ident(block.id)} goes back to where it started"], []
    events: list[dict[str, Any]] = []
    if sel.move == "march" and sel.staged:
        g = start
        paths: list[BaseGeometry] = [shapely.Polygon() for _ in range(g.models)]
        for a in sel.staged:
            nxt = _apply_manoeuvre(g, a)
            ang = float(a["angle"]) if a["do"] == "wheel" else 0.0  # type: ignore[arg-type]
            paths = [shapely.union(p, q) for p, q in zip(paths, model_sweeps(g, nxt, ang),
                                                         strict=True)]
            g = nxt
        events += _dangerous_terrain(state, block.id, paths, dice)
    extra = {"advance": ("moved",), "march": ("moved", "marched", "no-shooting"),
             "reform": ("moved", "reformed", "no-shooting")}[sel.move]
    flags = tuple(dict.fromkeys((*block.flags, *extra)))
    st = state.with_unit(replace(block, flags=flags))
    st = replace(st, battle=replace(st.battle, selection=None))
    events.append({"kind": "moved", "unit": block.id, "move": sel.move, "at": list(here.at),
                   "facing": here.facing, "files": here.files})
    return dice.commit(st), True, [], events


def rally_step(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
               ) -> tuple[GameState, list[dict[str, Any]]]:
    """The Rally Fleeing Units step: every fleeing unit of the active player tests; a failure
    flees."""
    return _rally_all(state, ctx.dice)


def end_of_turn(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                ) -> tuple[GameState, list[dict[str, Any]]]:
    """The end of the player turn: the per-turn flags of every block expire."""
    units = tuple(replace(u, flags=tuple(f for f in u.flags if f not in rulings.TURN_FLAGS))
                  if isinstance(u, Block) else u for u in state.units)
    return replace(state, units=units), []


def act(state: GameState, action: Mapping[str, Any]) -> ActionResult:
    """Apply one t9a-2 action of ``docs/actions.md`` other than ``next``.

    A refused action (``ok`` false) returns the state unchanged, except a refused ``commit``,
    which puts the unit back where it started and clears the selection (the unit may be selected
    again). Dice taken from the seed are recorded in ``battle.dice_used``.
    """
    new, ok, reasons, events = _act(state, action, Dice(state, action.get("dice")))
    return ActionResult(new, ok, tuple(reasons), tuple(events))


def _act(state: GameState, action: Mapping[str, Any], dice: Dice) -> Result:
    do = action.get("do")
    if do == "select":
        return _select(state, action, dice)
    if state.battle.phase != "movement":
        return state, False, ["units move in the Movement phase"], []
    if do in MANOEUVRES:
        return _stage(state, action)
    if do == "commit":
        return _commit(state, dice)
    sel = state.battle.selection
    if sel is None:
        return state, False, ["no unit is selected"], []
    if do == "cancel":
        # the window's Esc: a unit that has not manoeuvred yet is free to be selected again
        # (rulings, dice stand: a March Test taken stands for the phase)
        if sel.staged:
            return state, False, [f"unit {ident(sel.unit)} has staged manoeuvres: put them back "
                                  "(reset) before cancelling its selection"], []
        st = replace(state, battle=replace(state.battle, selection=None))
        return st, True, [], [{"kind": "cancel", "unit": sel.unit}]
    if do == "undo" and not sel.staged:
        return state, False, ["nothing to undo"], []
    return _replay(state, sel, sel.staged[:-1] if do == "undo" else ()), True, [], []


# -- range queries for the window ---------------------------------------------------------
def _cap_check(state: GameState, kind: str) -> Callable[[BlockGeom], bool]:
    sel = state.battle.selection
    assert sel is not None
    start = _start_geom(state, sel)
    return lambda g: not _move_reasons(state, sel, start, g, kind)


def straight_range(state: GameState, direction: str, sign: float = 1.0) -> float:
    """Furthest legal straight move of the selected block from where it stands now.

    ``direction``: ``forward``, ``backward`` or ``sideways`` (``sign`` -1: to its left). The move
    stops before its swept area overlaps another unit, impassable terrain or the battlefield edge
    and before any model's centre passes its cap; the end may still be within 1" of something
    (see :func:`end_violations`). 0 when the move type does not allow that direction.
    """
    sel = state.battle.selection
    if sel is None or sel.move == "reform":
        return 0.0
    kind = {"forward": "forward", "backward": "backward"}.get(
        direction, "sideways-right" if sign >= 0 else "sideways-left")
    if sel.move == "march" and kind != "forward":
        return 0.0
    prev = _current_kind(sel)
    if sel.move == "advance" and prev is not None and prev != kind:
        return 0.0
    block = _block(state, sel.unit)
    g = block_geom(block)
    obs = shapely.union(_union(obstacles(state, block.id)), _outside(state))
    limit = 2.0 * max(block.Mar, block.Adv) + 1.0
    if rulings.LEGS_AT_MOST_RATE:
        used = _legs(sel.staged, "sideways" if kind.startswith("sideways") else kind)
        limit = min(limit, max(_cap(block, sel, kind) - used, 0.0))
    return furthest_straight(g, direction, limit, obs, sign=sign,  # type: ignore[arg-type]
                             cap=_cap_check(state, kind))


def wheel_range(state: GameState) -> tuple[float, float]:
    """Range ``(most anticlockwise, most clockwise)`` of legal wheel angles (degrees) of the
    selected block from where it stands: the swept area stays clear and every model's centre
    within the cap. ``(0, 0)`` when wheels are not allowed now.
    """
    sel = state.battle.selection
    if sel is None or sel.move == "reform":
        return (0.0, 0.0)
    prev = _current_kind(sel)
    if sel.move == "advance" and prev not in (None, "forward"):
        return (0.0, 0.0)
    block = _block(state, sel.unit)
    obs = shapely.union(_union(obstacles(state, block.id)), _outside(state))
    return wheel_limits(block_geom(block), obs, max_angle=rulings.WHEEL_MAX,
                        cap=_cap_check(state, "forward"))


def outer_arc_length(state: GameState, unit_id: str, angle: float) -> float:
    """Arc length (inches) travelled by the outer front corner of ``unit_id`` wheeling ``angle``
    degrees: shown for information, not charged (rulings)."""
    return block_geom(_block(state, unit_id)).outer_arc_length(angle)



def preview(state: GameState, action: Mapping[str, Any]) -> dict[str, Any]:
    """What a manoeuvre of the selected block would do, without doing it (for live dragging).

    Returns ``{"ok", "reasons", "geom", "end_reasons", "outer_arc"}``: whether the manoeuvre
    may be staged and why not, the block's geometry after it (:class:`BlockGeom`, also when
    refused, to draw a ghost), why the block could not end its move there (the 1" rule), and
    the outer front corner's arc for a wheel (information).
    """
    sel = state.battle.selection
    if sel is None or action.get("do") not in MANOEUVRES:
        return {"ok": False, "reasons": ["no unit is selected"] if sel is None else
                [f"{action.get('do')!r} is not a manoeuvre"], "geom": None, "end_reasons": [],
                "outer_arc": 0.0}
    here = block_geom(_block(state, sel.unit))
    _, ok, reasons, _ = _stage(state, action)
    geom = _apply_manoeuvre(here, action)
    moved = state.with_unit(replace(_block(state, sel.unit), at=geom.at, facing=geom.facing,
                                    files=geom.files))
    arc = here.outer_arc_length(float(action["angle"])) if action["do"] == "wheel" else 0.0
    return {"ok": ok, "reasons": reasons, "geom": geom, "end_reasons": end_violations(moved),
            "outer_arc": arc}

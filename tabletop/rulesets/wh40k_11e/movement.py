"""wh40k-11e, the Movement phase (seed 000): move types, the unit's move as a transaction.

Public API for a front end (all pure; states are immutable):

- :func:`eligible_moves` ``(state, unit_id) -> list[(move, ok, reason)]``;
- :func:`select`, :func:`stage_move`, :func:`stage_place`, :func:`undo`, :func:`reset`,
  :func:`commit` -> :class:`~tabletop.rules.result.ActionResult`;
- :func:`commit_check` ``(state) -> list[Violation]``: what a commit would refuse, now;
- :func:`allocate_mortal_wounds`, :func:`hazard_rolls`, :func:`emergency_disembark`.

The rulings are named constants of :mod:`tabletop.rulesets.wh40k_11e.rulings`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from tabletop.errors import ident, idents, quote
from tabletop.geometry.footprints import Round, footprint_distance
from tabletop.geometry.tolerance import EPS
from tabletop.rules.dice import Dice, roll, stand, stood, stood_event
from tabletop.rules.result import ActionResult, Refusal
from tabletop.rules.turns import Point as StepPoint
from tabletop.rules.turns import TriggerContext
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import checks, rulings, zones
from tabletop.rulesets.wh40k_11e.checks import (
    exact_polygon,
    fmt,
    footprint_overlaps,
    half_extents,
)
from tabletop.rulesets.wh40k_11e.command import battle_shock_roll
from tabletop.rulesets.wh40k_11e.paths import check_path, move_cap, path_length
from tabletop.state import GameState, Model, Selection, Unit

__all__ = [
    "MODES",
    "MOVE_TYPES",
    "allocate_mortal_wounds",
    "board",
    "cancel",
    "commit",
    "commit_check",
    "eligible_moves",
    "emergency_disembark",
    "hazard_rolls",
    "is_engaged",
    "reset",
    "select",
    "stage_move",
    "stage_place",
    "undo",
]

MOVE_TYPES = ("remain-stationary", "normal", "advance", "fall-back", "disembark", "ingress")
"""Move types of the Move Units step, in the seed's order (09.02)."""
MODES: dict[str, tuple[str, ...]] = {
    "fall-back": ("ordered-retreat", "desperate-escape"),
    "disembark": ("rapid", "tactical", "combat"),
    "ingress": ("strategic-reserves", "deep-strike"),
}
MOVING = ("normal", "advance", "fall-back")
SETTING_UP = ("ingress", "disembark")

# Flags (effects until the end of the turn), visible to the view.
F_SELECTED = "selected"
F_STATIONARY = "remained-stationary"
F_NORMAL = "normal-move"
F_ADVANCED = "advanced"
F_FELL_BACK = "fell-back"
F_INGRESSED = "ingressed"
F_DEEP_STRUCK = "deep-struck"
"""The unit's ingress move this phase was a Deep Strike (its passengers keep its limits)."""
F_DISEMBARKED = "disembarked"
F_EMBARKED = "embarked-this-phase"
F_SET_UP = "set-up"
F_THEN_MOVE = "disembark-then-move"
F_NO_CHARGE = "no-charge"
F_NO_SHOOT = "no-shoot"
F_NO_ACTION = "no-action"
F_FLYING = "took-to-the-skies"
"""The unit takes (took) to the skies in its move this turn (FLY, rulings)."""
F_WRECK = "destroyed"
"""A transport destroyed while units were embarked in it: it stays, its models where they stood,
until its passengers have made their emergency disembark (18.05), then it is removed."""


# -- small helpers --------------------------------------------------------------------------------

def _unit(state: GameState, unit_id: str) -> Unit:
    u = state.unit(unit_id)
    if not isinstance(u, Unit):
        raise Refusal(f"{ident(unit_id)} is not a wh40k-11e unit")
    return u


def _add_flags(unit: Unit, *flags: str) -> Unit:
    return replace(unit, flags=unit.flags + tuple(f for f in flags if f not in unit.flags))


def _drop_flags(unit: Unit, *flags: str) -> Unit:
    return replace(unit, flags=tuple(f for f in unit.flags if f not in flags))


def _set_battle(state: GameState, **kw: Any) -> GameState:
    return replace(state, battle=replace(state.battle, **kw))


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def is_engaged(state: GameState, unit: Unit) -> bool:
    """Whether ``unit`` is engaged (a model within 2" of an enemy model)."""
    return checks.is_engaged(state, unit)


def _on_battlefield(unit: Unit) -> bool:
    return unit.location == "battlefield" and any(m.at is not None for m in unit.models)


# -- mortal wounds and hazard rolls (06.02, 06.03) ---------------------------------------------

def allocate_mortal_wounds(state: GameState, unit_id: str, n: int, *, by: str | None = None
                           ) -> tuple[GameState, list[dict[str, Any]]]:
    """Allocate ``n`` mortal wounds one at a time (``docs/rulings.md``), removing dead models.

    Order: a wounded non-CHARACTER model, any non-CHARACTER model, a wounded CHARACTER, any
    CHARACTER. Keywords belong to the unit here, so all its models are CHARACTERs or none are.
    Among equals the program picks the model with fewest wounds left, then the last listed.
    ``by``: what inflicted them, in words ("a hazard roll"), recorded on the ``destroyed``
    events.
    """
    cause = {"by": by} if by else {}
    unit = _unit(state, unit_id)
    if unit.starting_strength is None:
        unit = replace(unit, starting_strength=unit.strength)
    models = list(unit.models)
    wounds = {m.id: unit.wounds_of(m) for m in models}
    taken: dict[str, int] = {}
    order: list[str] = []
    events: list[dict[str, Any]] = []
    for _ in range(n):
        alive = [m for m in models if wounds[m.id] > 0]
        if not alive:
            break
        wounded = [m for m in alive if wounds[m.id] < unit.W]
        pool = wounded or alive
        target = min(reversed(pool), key=lambda m: wounds[m.id])
        wounds[target.id] -= 1
        if target.id not in taken:
            order.append(target.id)
        taken[target.id] = taken.get(target.id, 0) + 1
    for mid in order:
        events.append({"kind": "mortal-wounds", "unit": unit_id, "model": mid,
                       "wounds": taken[mid]})
        if wounds[mid] <= 0:
            events.append({"kind": "destroyed", "model": mid, **cause})
    survivors = tuple(replace(m, wounds=(None if wounds[m.id] == unit.W else wounds[m.id]))
                      if m.id in taken else m for m in models if wounds[m.id] > 0)
    if not survivors:
        riders = passengers(state, unit_id)
        events.append({"kind": "destroyed", "unit": unit_id, **cause,
                       **({"passengers": riders} if riders else {})})
        if riders:  # 18.05: it stays until its passengers have disembarked
            return state.with_unit(_add_flags(unit, F_WRECK)), events
        return replace(state, units=tuple(u for u in state.units if u.id != unit_id)), events
    unit = replace(unit, models=survivors)
    return state.with_unit(unit), events


def hazard_rolls(state: GameState, unit_id: str, dice: Dice, *, what: str = "hazard",
                 modifier: int = 0) -> tuple[GameState, list[dict[str, Any]]]:
    """One hazard roll per model, made together; failures inflict mortal wounds."""
    unit = _unit(state, unit_id)
    values, ev = roll(dice, len(unit.models), what, unit_id)
    if modifier:
        ev["modifier"] = modifier
    failed = sum(1 for v in values if v + modifier <= rulings.HAZARD_FAIL_MAX)
    ev["failed"] = failed
    events: list[dict[str, Any]] = [ev]
    big = unit.has("MONSTER") or unit.has("VEHICLE")  # keywords are per unit here
    per = rulings.HAZARD_MW_BIG if big else rulings.HAZARD_MW
    if failed:
        state, more = allocate_mortal_wounds(state, unit_id, failed * per,
                                             by=f"a hazard roll ({what.replace('-', ' ')})")
        events += more
    return state, events


def desperate_escape_test(state: GameState, unit_id: str, ctx: TriggerContext, *,
                          modifier: int = 0) -> tuple[GameState, list[dict[str, Any]]]:
    """09.07.01: a Desperate Escape test forced by a stratagem or ability: one hazard roll per
    model (``modifier`` added to each), then a battle-shock roll if the unit survives."""
    state, events = hazard_rolls(state, unit_id, ctx.dice, what="desperate-escape-test",
                                 modifier=modifier)
    if _alive(state, unit_id):
        state, more = battle_shock_roll(state, unit_id, ctx)
        events += more
    return state, events


def flying(unit: Unit) -> bool:
    """Whether ``unit`` takes to the skies in the move it is making."""
    return F_FLYING in unit.flags


def _alive(state: GameState, unit_id: str) -> bool:
    """Whether ``unit_id`` is still in the game (a destroyed transport waiting for its
    passengers to disembark is not)."""
    return any(u.id == unit_id and F_WRECK not in u.flags for u in state.units)


# -- eligibility (09.02-09.07, 18.04, 20.04) ------------------------------------------------------

def _transport_state(state: GameState, unit: Unit) -> tuple[Unit | None, str]:
    if unit.transport is None:
        return None, "it is not embarked in a transport"
    try:
        t = _unit(state, unit.transport)
    except KeyError:
        return None, f"its transport {ident(unit.transport)} is not on the battlefield"
    if not _on_battlefield(t):
        return None, f"its transport {ident(t.id)} is not on the battlefield"
    return t, ""


def disembark_mode(state: GameState, unit: Unit, *, fit: bool = True
                   ) -> tuple[str | None, str]:
    """The disembark mode that applies first (18.04, modes in order, seed 000 09.02.02), with
    why; ``None`` and the reason when the unit cannot disembark.

    Rapid: the transport made a normal or ingress move this phase. Tactical: it remained
    stationary or has not moved yet, and the unit can be set up wholly within 3" of it (a set-up
    :func:`tactical_set_up` finds). Combat: otherwise. A transport that advanced or fell back
    allows no disembark. ``fit=False`` skips the search (tactical or combat: ``"tactical"``).
    """
    t, why = _transport_state(state, unit)
    if t is None:
        return None, why
    if F_ADVANCED in t.flags or F_FELL_BACK in t.flags:
        return None, f"its transport {ident(t.id)} " + (
            "advanced" if F_ADVANCED in t.flags else "fell back") + " this phase"
    if F_NORMAL in t.flags or F_INGRESSED in t.flags:
        return "rapid", f"its transport {ident(t.id)} made a normal or ingress move this phase"
    if not fit or tactical_set_up(state, unit, t) is not None:
        return "tactical", f"it can be set up wholly within 3\" of {ident(t.id)}"
    return "combat", f"no set-up of it wholly within 3\" of {ident(t.id)} was found"


def tactical_set_up(state: GameState, unit: Unit, transport: Unit
                    ) -> dict[str, tuple[float, float]] | None:
    """A set-up of ``unit`` wholly within 3" of ``transport``, unengaged and in coherency, or
    ``None`` when this search finds none.

    Greedy: each model in turn at the legal spot of its set-up zone (the models placed so far
    where they stand) closest to the transport's centre for the first, to the centre of the
    models placed so far for the others; models on one round base share one zone, less a disk
    around each model placed. The set-up found is then checked exactly (as a commit would), so
    it proves that tactical disembark applies; one the search misses could exist in rare tight
    spots, so :func:`commit_check` also refuses a combat disembark whose models all stand wholly
    within 3" and unengaged.
    """
    base = unit.models[0].base
    alike = isinstance(base, Round) and all(m.base == base for m in unit.models)
    gap = 2.0 * base.radius / math.cos(math.pi / 64)  # circumscribes the 64-gon of buffer()
    placed: dict[str, tuple[float, float]] = {}
    free = None
    board = state
    hull = [tm.at for tm in transport.models if tm.at is not None]
    for m in unit.models:
        pts = list(placed.values()) or hull
        aim = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if free is None or not alike:
            zone = zones.setup_zone(board, m.id, "disembark", mode="tactical")
            x, y = zone.nearest(*aim)
            if zone.geometry.is_empty or not zone.contains(x, y):
                return None
            free = zone.geometry
        elif free.is_empty:
            return None
        else:
            q = nearest_points(free, Point(aim))[0]
            x, y = q.x, q.y
        if alike:  # the next models may not stand on this one
            free = free.difference(Point(x, y).buffer(gap, quad_segs=16))
        placed[m.id] = (x, y)
        board = board.with_model(replace(m, at=(x, y)))
    set_up = replace(_unit(board, unit.id), location="battlefield")
    board = board.with_unit(set_up)
    if not _tactical_after_all(board, set_up, transport) or any(
            check(board, set_up) for check in (checks.overlap_violations, checks.edge_violations,
                                               checks.terrain_violations)) \
            or checks.coherency_violations(set_up):
        return None
    return placed


def _not_my_move(state: GameState, unit: Unit) -> str:
    b = state.battle
    if b.phase != "movement" or (b.step or "start") != "move-units":
        return "units are selected to move in the Move Units step of the Movement phase"
    waiting = blocked(state, {"do": "select", "unit": unit.id})
    if waiting:
        return waiting
    if unit.player != b.active_player:
        return (f"{ident(unit.id)} belongs to {ident(unit.player)}, not to the active player "
                f"{ident(b.active_player)}")
    if b.selection is not None and b.selection.unit != unit.id:
        return f"{ident(b.selection.unit)} is moving: commit or reset its move first"
    if b.selection is not None:
        return f"{ident(unit.id)} is already moving"
    return ""


def eligible_moves(state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
    """Each move type with whether ``unit_id`` may make it now and, if not, why.

    For the window's list of move types (greyed with the reason when not eligible).
    """
    unit = _unit(state, unit_id)
    general = _not_my_move(state, unit)
    then_move = F_THEN_MOVE in unit.flags
    out: list[tuple[str, bool, str]] = []
    for move in MOVE_TYPES:
        why = general
        if not why and F_SELECTED in unit.flags and not (then_move and move in
                                                         ("normal", "advance")):
            why = f"{ident(unit.id)} has already been selected to move this phase"
            if move == "normal" and F_NORMAL in unit.flags:
                why = f"{ident(unit.id)} has already made a normal move this phase (09.05.01)"
        if not why:
            why = _move_reason(state, unit, move)
        out.append((move, not why, why))
    return out


def _move_reason(state: GameState, unit: Unit, move: str) -> str:
    if move == "remain-stationary":
        return ""
    if move in ("normal", "advance"):
        if not _on_battlefield(unit):
            return f"{ident(unit.id)} is not on the battlefield"
        if is_engaged(state, unit):
            return f"{ident(unit.id)} is engaged: only a fall-back move or remaining stationary"
        return ""
    if move == "fall-back":
        if not _on_battlefield(unit):
            return f"{ident(unit.id)} is not on the battlefield"
        if not is_engaged(state, unit):
            return f"{ident(unit.id)} is not engaged: a fall-back move needs an engaged unit"
        return ""
    if move == "disembark":
        if unit.location != "embarked":
            return f"{ident(unit.id)} is not embarked in a transport"
        if F_EMBARKED in unit.flags:
            return f"{ident(unit.id)} embarked this phase"
        mode, why = disembark_mode(state, unit, fit=False)
        return "" if mode else f"{ident(unit.id)} cannot disembark: {why}"
    if move == "ingress":
        if unit.location != "strategic-reserves":
            return f"{ident(unit.id)} is not in strategic reserves"
        if state.battle.round < rulings.INGRESS_FIRST_ROUND:
            return (f"no ingress move before battle round {rulings.INGRESS_FIRST_ROUND} "
                    f"(this is round {state.battle.round})")
        return ""
    return f"unknown move type {quote(str(move))}"


# -- the selection as a transaction --------------------------------------------------------------

def _snapshot(unit: Unit) -> dict[str, Any]:
    """What a refused commit restores of ``unit`` besides its models' places (JSON-like)."""
    snap: dict[str, Any] = {"battle_shocked": unit.battle_shocked, "flags": list(unit.flags),
                            "location": unit.location}
    if unit.transport is not None:
        snap["transport"] = unit.transport
    return snap


def _restore(state: GameState) -> GameState:
    """The state after a refused commit: the selected unit's models back where they started, the
    unit as it was before it was selected, the selection gone.

    Rulings ("Dice stand"): casualties stay removed and the dice are not rewound; the rolls the
    unit made stand for a new selection (``battle.rolls``).
    """
    sel = state.battle.selection
    assert sel is not None
    unit = _unit(state, sel.unit)
    snap: dict[str, Any] = dict(sel.before or {})
    start = {mid: (at, facing) for mid, at, facing in sel.start}
    models = tuple(replace(m, at=start[m.id][0], facing=start[m.id][1]) if m.id in start else m
                   for m in unit.models)
    unit = replace(unit, battle_shocked=bool(snap.get("battle_shocked", unit.battle_shocked)),
                   flags=tuple(snap.get("flags", unit.flags)),
                   location=snap.get("location", unit.location),
                   transport=snap.get("transport", unit.transport), models=models)
    return _set_battle(state.with_unit(unit), selection=None)


def select(state: GameState, unit_id: str, move: str, *, mode: str | None = None,
           dice: Sequence[int] | None = None, fly: bool = False) -> ActionResult:
    """Select ``unit_id`` to move with ``move`` (and ``mode``), resolving what comes before moving.

    Remain stationary ends at once. An advance makes its advance roll; a Desperate Escape makes
    its hazard rolls (models destroyed are removed); the other moves open a selection that model
    moves or placements are staged into, then committed. ``fly``: a FLY unit takes to the skies
    in a normal, advance or fall-back move (flag ``took-to-the-skies``).
    """
    try:
        return _select(state, unit_id, move, mode, Dice(state, dice), fly)
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), tuple(r.events),
                            tuple(r.violations))


def _select(state: GameState, unit_id: str, move: str, mode: str | None, dice: Dice,
            fly: bool = False) -> ActionResult:
    unit = _unit(state, unit_id)
    reasons = {m: why for m, ok, why in eligible_moves(state, unit_id) if not ok}
    if move not in MOVE_TYPES:
        raise Refusal(f"unknown move type {move!r}; one of " + ", ".join(MOVE_TYPES))
    if move in reasons:
        raise Refusal(f"{ident(unit_id)} cannot make {_a(move)} move: {reasons[move]}")
    if mode is not None and mode not in MODES.get(move, ()):
        raise Refusal(f"{_a(move)} move has no mode {quote(str(mode))}" + (
            "; modes: " + ", ".join(MODES[move]) if move in MODES else ""))
    if fly and not unit.has(rulings.FLY):
        raise Refusal(f"{ident(unit_id)} cannot take to the skies: it has no FLY keyword")
    if fly and move not in MOVING:
        raise Refusal(f"a unit takes to the skies in a normal, advance or fall-back move, not "
                      f"{_a(move)} move")
    events: list[dict[str, Any]] = [{"kind": "select", "unit": unit_id, "move": move,
                                     **({"fly": True} if fly else {})}]
    before = _snapshot(unit)
    if move == "remain-stationary":
        state = state.with_unit(_add_flags(unit, F_SELECTED, F_STATIONARY))
        events.append({"kind": "remain-stationary", "unit": unit_id})
        return ActionResult(state, True, (), tuple(events))
    roll_value: int | None = None
    if move == "advance":
        kept = stood(state, unit_id, "advance")
        if kept is not None:
            values = list(kept)
            events.append(stood_event(unit_id, "advance", values))
        else:
            values, ev = roll(dice, 1, "advance", unit_id)
            state = stand(state, unit_id, "advance", values)
            events.append(ev)
        roll_value = values[0]
    elif move == "fall-back":
        if mode is None:
            mode = "desperate-escape" if unit.battle_shocked else "ordered-retreat"
        if mode == "ordered-retreat" and unit.battle_shocked:
            raise Refusal(f"{ident(unit_id)} is battle-shocked: Ordered Retreat is not allowed, "
                          "Desperate Escape is compulsory")
        kept = stood(state, unit_id, "desperate-escape") if mode == "desperate-escape" else None
        if kept is not None:
            events.append(stood_event(unit_id, "desperate-escape", kept))
        elif mode == "desperate-escape":
            modifier = 0
            if unit.battle_shocked and any(eu.has(rulings.BANE_OF_COWARDS)
                                           for _, eu, *_ in checks.engaged_with(state, unit)):
                modifier = -1
            state, hz = hazard_rolls(state, unit_id, dice, what="desperate-escape",
                                     modifier=modifier)
            state = stand(state, unit_id, "desperate-escape", hz[0]["dice"])
            events += hz
            if not _alive(state, unit_id):
                return ActionResult(dice.commit(state), True, (), tuple(events))
            unit = _unit(state, unit_id)
    elif move == "disembark":
        auto, why = disembark_mode(state, unit)
        if mode is None:
            mode = auto
        elif mode != auto and not (mode == "tactical" and auto == "combat"):
            # a player may claim a tactical set-up the search missed: its commit checks it
            raise Refusal(f"{ident(unit_id)} must use {auto} disembark, the first mode that "
                          f"applies (18.04): {why}")
    elif move == "ingress":
        if mode is None:
            mode = "strategic-reserves"
        if mode == "deep-strike" and not unit.has(rulings.DEEP_STRIKE):
            raise Refusal(f"{ident(unit_id)} does not have Deep Strike")
    if mode is not None:
        events[0]["mode"] = mode
    unit = _add_flags(unit, F_SELECTED, *((F_FLYING,) if fly else ()))
    state = state.with_unit(unit)
    sel = Selection(unit=unit_id, move=move, mode=mode, roll=roll_value,
                    start=tuple((m.id, m.at, m.facing) for m in unit.models),
                    before=before)
    state = dice.commit(state)
    state = _set_battle(state, selection=sel)
    return ActionResult(state, True, (), tuple(events))


def _selection(state: GameState) -> Selection:
    sel = state.battle.selection
    if sel is None:
        raise Refusal("no unit is selected to move: select one first")
    return sel


def _model_of_selection(state: GameState, sel: Selection, model_id: str) -> tuple[Unit, Model]:
    try:
        unit, model = state.model(model_id)
    except KeyError:
        raise Refusal(f"model {ident(model_id)} is not on the battlefield any more") from None
    if unit.id != sel.unit:
        raise Refusal(f"{ident(model_id)} belongs to {ident(unit.id)}, not to the moving unit "
                      f"{ident(sel.unit)}")
    return unit, model


def _model_path(sel: Selection, model_id: str) -> list[tuple[float, ...]]:
    """The model's path so far: its start and the points of its staged moves, a point
    ``(x, y, facing)`` turning it there (a move's ``facing`` is a turn at its end)."""
    start = next(at for mid, at, _ in sel.start if mid == model_id)
    pts: list[tuple[float, ...]] = [start] if start is not None else []
    for a in sel.staged:
        if a.get("model") == model_id and a.get("do") == "move":
            path: Any = a["path"]
            pts += [tuple(float(v) for v in p) for p in path]
            turn: Any = a.get("facing")
            if turn is not None:
                pts.append((pts[-1][0], pts[-1][1], float(turn)))
    return pts


def _staged_state(state: GameState, sel: Selection, staged: Sequence[Mapping[str, Any]]
                  ) -> GameState:
    """``state`` with the selected unit's models at their start, then ``staged`` replayed."""
    if sel.move in SETTING_UP:
        return _set_battle(state, selection=replace(sel, staged=tuple(dict(a) for a in staged)))
    unit = _unit(state, sel.unit)
    pos = {mid: (at, facing) for mid, at, facing in sel.start}
    for a in staged:
        mid = str(a["model"])
        at, facing = pos[mid]
        if a["do"] == "move":
            p = a["path"][-1]
            at = (float(p[0]), float(p[1]))
            for q in a["path"]:
                if len(q) == 3:
                    facing = float(q[2]) % 360.0
        else:
            p = a["at"]
            at = (float(p[0]), float(p[1]))
        if a.get("facing") is not None:
            facing = float(a["facing"]) % 360.0
        pos[mid] = (at, facing)
    models = tuple(replace(m, at=pos[m.id][0], facing=pos[m.id][1]) if m.id in pos else m
                   for m in unit.models)
    state = state.with_unit(replace(unit, models=models))
    return _set_battle(state, selection=replace(sel, staged=tuple(dict(a) for a in staged)))


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def board(state: GameState) -> GameState:
    """The battlefield as it would be if the selected unit's move ended now.

    Models being set up (ingress, disembark) stay off the battlefield in the saved state until
    the commit (a unit is either set up or not); their staged placements are in the selection.
    This state has them placed, with the unit on the battlefield: draw it, check it.
    """
    sel = state.battle.selection
    if sel is None or sel.move not in SETTING_UP:
        return state
    unit = _unit(state, sel.unit)
    pos: dict[str, tuple[tuple[float, float], float | None]] = {}
    for a in sel.staged:
        p: Any = a["at"]
        f: Any = a.get("facing")
        pos[str(a["model"])] = ((float(p[0]), float(p[1])),
                                None if f is None else float(f) % 360.0)
    models = tuple(replace(m, at=pos[m.id][0], facing=_or(pos[m.id][1], m.facing))
                   if m.id in pos else m for m in unit.models)
    return state.with_unit(replace(unit, models=models, location="battlefield"))


def stage_move(state: GameState, model_id: str, path: Sequence[Sequence[float]],
               facing: float | None = None) -> ActionResult:
    """Stage one model move of the selected unit: straight lines through ``path``.

    A point ``[x, y, facing]`` turns the model there, and ``facing`` turns it at the end; a
    turn sweeps the base round (checked like the lines). The model's whole path since the unit
    was selected is checked (length against its cap, enemy models, edge, terrain).
    """
    try:
        sel = _selection(state)
        if sel.move not in MOVING:
            raise Refusal(f"{_a(sel.move)} move sets models up: use place, not move")
        unit, model = _model_of_selection(state, sel, model_id)
        new = [tuple(float(v) for v in p) for p in path]
        full = _model_path(sel, model_id) + new
        if facing is not None:
            full.append((full[-1][0], full[-1][1], float(facing)))
        board = _staged_state(state, sel, [a for a in sel.staged if a.get("model") != model_id])
        fly = flying(unit)
        vs = check_path(board, model_id, sel.move, full, roll=sel.roll, mode=sel.mode, fly=fly)
        if vs:
            raise Refusal([v.message for v in vs], vs)
        action: dict[str, Any] = {"do": "move", "model": model_id, "path": [list(p) for p in new]}
        if facing is not None:
            action["facing"] = float(facing)
        new_state = _staged_state(state, sel, [*sel.staged, action])
        cap = move_cap(unit, model, sel.move, sel.roll, fly)
        ev = {"kind": "move", "model": model_id, "to": list(new[-1][:2]),
              "length": round(path_length(full), 6), "max": cap}
        return ActionResult(new_state, True, (), (ev,))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), (), tuple(r.violations))


def stage_place(state: GameState, model_id: str, at: Sequence[float],
                facing: float | None = None) -> ActionResult:
    """Stage setting up one model of the selected unit (ingress, disembark)."""
    try:
        sel = _selection(state)
        if sel.move not in SETTING_UP:
            raise Refusal(f"{_a(sel.move)} move moves models: use move, not place")
        _model_of_selection(state, sel, model_id)
        action: dict[str, Any] = {"do": "place", "model": model_id,
                                  "at": [float(at[0]), float(at[1])]}
        if facing is not None:
            action["facing"] = float(facing)
        staged = [a for a in sel.staged if a.get("model") != model_id] + [action]
        new_state = _staged_state(state, sel, staged)
        view = board(new_state)
        _, placed = view.model(model_id)
        vs = _placement_violations(view, sel, [placed])
        if vs:
            raise Refusal([v.message for v in vs], vs)
        return ActionResult(new_state, True, (),
                            ({"kind": "place", "model": model_id, "at": action["at"]},))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), (), tuple(r.violations))


def undo(state: GameState) -> ActionResult:
    """Take back the selected unit's last staged model move or placement."""
    try:
        sel = _selection(state)
        if not sel.staged:
            raise Refusal(f"nothing to undo for {ident(sel.unit)}")
        last = sel.staged[-1]
        return ActionResult(_staged_state(state, sel, sel.staged[:-1]), True, (),
                            ({"kind": "undo", "model": last.get("model")},))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons))


def cancel(state: GameState) -> ActionResult:
    """Take back the selection of a unit none of whose models has moved or been set up yet: the
    unit is free to be selected again, for any move type (the window's Esc).

    Rulings ("Dice stand"): as after a refused commit, casualties stay removed, the dice are not
    rewound and the unit's rolls stand for a new selection (an advance selected again keeps its
    roll).
    """
    try:
        sel = _selection(state)
        if sel.staged:
            raise Refusal(f"{ident(sel.unit)} has staged moves: put them back (reset) before "
                          "cancelling its selection")
        return ActionResult(_restore(state), True, (), ({"kind": "cancel", "unit": sel.unit},))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons))


def reset(state: GameState) -> ActionResult:
    """Put every model of the selected unit back where it started (the unit stays selected)."""
    try:
        sel = _selection(state)
        return ActionResult(_staged_state(state, sel, ()), True, (),
                            ({"kind": "reset", "unit": sel.unit},))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons))


# -- end-of-move checks ---------------------------------------------------------------------------

def _wholly_within(model: Model, target: Any, limit: float) -> tuple[bool, float]:
    """Whether every point of ``model``'s base is within ``limit`` of the convex ``target``.

    Round base outside the target: farthest distance = centre distance + radius (exact for a
    convex target). Otherwise the farthest vertex of the measuring polygon (exact for polygons).
    """
    assert model.at is not None
    if isinstance(model.base, Round) and not target.contains(Point(model.at)):
        far = float(target.distance(Point(model.at))) + model.base.radius
    else:
        poly = exact_polygon(model)
        far = max(float(target.distance(Point(p))) for p in poly.exterior.coords)
    return far <= limit + EPS, far


def _edge_far(state: GameState, model: Model) -> float:
    """How far the farthest point of the base is from its nearest battlefield edge."""
    assert model.at is not None
    hx, hy = half_extents(model)
    x, y = model.at
    return min(x + hx, state.battlefield.width - x + hx, y + hy,
               state.battlefield.depth - y + hy)


def _placement_violations(state: GameState, sel: Selection, models: Sequence[Model]
                          ) -> list[Violation]:
    """Set-up rules of an ingress or disembark for ``models`` (already placed in ``state``)."""
    unit = _unit(state, sel.unit)
    out: list[Violation] = []
    me = unit.player
    enemies = [(u, m) for u, m in state.placed_models() if u.player != me]
    enemy_zone = state.opponent(me).zone_polygon
    limits_from: str | None = None
    if sel.move == "ingress":
        limits_from = sel.mode or "strategic-reserves"
    elif sel.move == "disembark":
        t = _unit(state, unit.transport or "")
        tpoly = t.models[0].footprint if len(t.models) == 1 else None
        limit = rulings.DISEMBARK_RANGE[sel.mode or "tactical"]
        for m in models:
            assert m.at is not None
            far_ok = False
            far = math.inf
            for tm in t.models:
                if tm.at is None:
                    continue
                ok, d = _wholly_within(m, exact_polygon(tm), limit)
                far = min(far, d)
                far_ok = far_ok or ok
            if not far_ok:
                out.append(Violation("disembark-range",
                                     f"{ident(m.id)} must be set up wholly within {fmt(limit)} of "
                                     f"{ident(t.id)} (its farthest point is {fmt(far)} away)",
                                     (m.id, t.id), far, limit, tpoly))
        if sel.mode == "rapid" and F_INGRESSED in t.flags:
            # the transport's own arrival limits (``docs/rulings.md``, disembark)
            limits_from = "deep-strike" if F_DEEP_STRUCK in t.flags else "strategic-reserves"
    if limits_from is not None:
        for m in models:
            assert m.at is not None
            if limits_from == "strategic-reserves" and sel.move == "ingress":
                far = _edge_far(state, m)
                if far > rulings.INGRESS_EDGE + EPS:
                    out.append(Violation("ingress-edge",
                                         f"{ident(m.id)} must be wholly within 6\" of a "
                                         "battlefield edge (its farthest point is "
                                         f"{fmt(far)} from the nearest edge)", (m.id,), far,
                                         rulings.INGRESS_EDGE,
                                         m.footprint))
            for eu, e in enemies:
                assert e.at is not None
                d = footprint_distance(m.base, m.at, m.facing, e.base, e.at, e.facing)
                if d <= rulings.INGRESS_ENEMY + EPS:
                    _, line = checks.closest(m, e)
                    out.append(Violation("setup-enemy",
                                         f"{ident(m.id)} must be set up more than 8\" from "
                                         f"every enemy model: {ident(e.id)} ({ident(eu.id)}) "
                                         f"is {fmt(d)} away",
                                         (m.id, e.id), d, rulings.INGRESS_ENEMY, line))
            if (limits_from == "strategic-reserves" and enemy_zone is not None
                    and state.battle.round < rulings.INGRESS_ZONE_FROM_ROUND
                    and footprint_overlaps(m, enemy_zone)):
                out.append(Violation("ingress-zone",
                                     f"{ident(m.id)} may not be set up in the enemy "
                                     "deployment zone before battle round "
                                     f"{rulings.INGRESS_ZONE_FROM_ROUND}",
                                     (m.id,), None, None,
                                     exact_polygon(m).intersection(enemy_zone)))
    return out


def commit_check(state: GameState) -> list[Violation]:
    """Every condition the selected unit's move fails if it ended now (empty: it may commit).

    Coherency (2" to one other model, 9" to every other), no overlapping bases, the battlefield
    edge, no base partway through a terrain feature, the set-up rules of an ingress or disembark,
    and the move type's After Moving condition "unengaged" (combat disembark: engaged only with
    units its transport is engaged with).
    """
    sel = state.battle.selection
    if sel is None:
        return []
    state = board(state)
    unit = _unit(state, sel.unit)
    out: list[Violation] = []
    if sel.move in SETTING_UP:
        missing = [m.id for m in unit.models if m.at is None]
        if missing:
            out.append(Violation("unplaced", "every model must be set up: "
                                 + idents(missing) + " not placed yet", tuple(missing)))
    out += checks.coherency_violations(unit)
    out += checks.overlap_violations(state, unit)
    out += checks.edge_violations(state, unit)
    out += checks.terrain_violations(state, unit)
    if sel.move in SETTING_UP:
        out += _placement_violations(state, sel, [m for m in unit.models if m.at is not None])
    allowed: list[str] = []
    if sel.move == "disembark" and sel.mode == "combat" and unit.transport:
        t = _unit(state, unit.transport)
        allowed = sorted({eu.id for _, eu, *_ in checks.engaged_with(state, t)})
        if not out and _tactical_after_all(state, unit, t):
            out.append(Violation(
                "disembark-mode", f"every model of {ident(unit.id)} is set up wholly within "
                f"{fmt(rulings.DISEMBARK_RANGE['tactical'])} of {ident(t.id)} and unengaged: "
                "tactical disembark applies first, not combat (18.04); select it with mode "
                "\"tactical\"", tuple(m.id for m in unit.models)))
    out += checks.engagement_violations(state, unit, allowed=allowed)
    return out


def _tactical_after_all(state: GameState, unit: Unit, transport: Unit) -> bool:
    """Whether ``unit``, as placed, shows a tactical set-up: wholly within 3" and unengaged."""
    limit = rulings.DISEMBARK_RANGE["tactical"]
    hull = [exact_polygon(tm) for tm in transport.models if tm.at is not None]
    return not checks.engaged_with(state, unit) and all(
        any(_wholly_within(m, h, limit)[0] for h in hull)
        for m in unit.models if m.at is not None)


def commit(state: GameState, *, dice: Sequence[int] | None = None,
           embark: str | None = None) -> ActionResult:
    """End the selected unit's move.

    If any end-of-move check fails, every model goes back to where it started and the unit is
    no longer selected (it may be selected again), and the refusal lists every failed condition;
    the dice stand (rulings): casualties stay removed and the rolls are reused by a new
    selection. Otherwise the move's effects apply: flags until the end of the
    turn, the Desperate Escape battle-shock roll, a combat disembark's hazard rolls.
    ``embark``: after a normal, advance or fall-back move, embark in that transport.
    """
    try:
        sel = _selection(state)
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons))
    vs = commit_check(state)
    if embark is not None:
        vs += embark_violations(state, sel, embark)
    if vs:
        back = _restore(state)
        reasons = [f"{ident(sel.unit)} cannot end its {sel.move} move: " + v.message for v in vs]
        reasons.append(f"every model of {ident(sel.unit)} goes back to where it started; "
                       f"{ident(sel.unit)} may be selected again")
        return ActionResult(back, False, tuple(reasons),
                            ({"kind": "refused", "unit": sel.unit, "move": sel.move},),
                            tuple(vs))
    state = board(state)
    d = Dice(state, dice)
    events: list[dict[str, Any]] = []
    unit = _unit(state, sel.unit)
    flags: tuple[str, ...] = (F_SELECTED,)
    if sel.move == "normal":
        flags += (F_NORMAL,)
    elif sel.move == "advance":
        flags += (F_ADVANCED, F_NO_CHARGE, F_NO_ACTION)
    elif sel.move == "fall-back":
        flags += (F_FELL_BACK, F_NO_SHOOT, F_NO_CHARGE, F_NO_ACTION)
    elif sel.move == "ingress":
        flags += (F_INGRESSED, F_SET_UP, *((F_DEEP_STRUCK,) if sel.mode == "deep-strike" else ()))
        unit = replace(unit, location="battlefield")
    elif sel.move == "disembark":
        flags += (F_DISEMBARKED, F_SET_UP)
        if sel.mode in ("rapid", "combat"):
            flags += (F_NO_CHARGE,)
        if sel.mode == "tactical":
            flags += (F_THEN_MOVE,)
        unit = replace(unit, location="battlefield", transport=None)
    unit = _add_flags(unit, *flags)
    if sel.move in MOVING:
        unit = _drop_flags(unit, F_THEN_MOVE)
    state = state.with_unit(unit)
    state = _set_battle(state, selection=None)
    events.append({"kind": "commit", "unit": sel.unit, "move": sel.move,
                   **({"mode": sel.mode} if sel.mode else {})})
    ctx = TriggerContext(_point_now(state), d)
    if sel.move == "fall-back" and sel.mode == "desperate-escape" and not unit.battle_shocked:
        state, ev = battle_shock_roll(state, sel.unit, ctx)
        events += ev
    if sel.move == "disembark" and sel.mode == "combat":
        state, ev = hazard_rolls(state, sel.unit, d, what="combat-disembark")
        events += ev
        if _alive(state, sel.unit):
            u = _unit(state, sel.unit)
            state = state.with_unit(replace(u, battle_shocked=True))
            events.append({"kind": "battle-shocked", "unit": sel.unit})
    if embark is not None and _alive(state, sel.unit):
        u = _unit(state, sel.unit)
        state = state.with_unit(replace(
            _add_flags(u, F_EMBARKED), location="embarked", transport=embark,
            models=tuple(replace(m, at=None) for m in u.models)))
        events.append({"kind": "embark", "unit": sel.unit, "transport": embark})
    return ActionResult(d.commit(state), True, (), tuple(events))


def _point_now(state: GameState) -> StepPoint:
    return StepPoint(state.battle.phase, state.battle.step or "")


def embark_violations(state: GameState, sel: Selection, transport_id: str) -> list[Violation]:
    """18.02: after a normal, advance or fall-back move, every model within 3" of the transport,
    and the unit not set up on the battlefield this turn."""
    out: list[Violation] = []
    unit = _unit(state, sel.unit)
    if sel.move not in MOVING:
        return [Violation("embark", f"a unit may embark only after a normal, advance or "
                          f"fall-back move, not a {sel.move} move")]
    try:
        t = _unit(state, transport_id)
    except KeyError:
        return [Violation("embark", f"no transport {ident(transport_id)}")]
    if not t.has("TRANSPORT") or t.player != unit.player or not _on_battlefield(t):
        return [Violation("embark", f"{ident(transport_id)} is not a friendly TRANSPORT on the "
                          "battlefield")]
    if F_SET_UP in unit.flags:
        out.append(Violation("embark", f"{ident(unit.id)} was set up on the battlefield this turn"))
    for m in unit.models:
        if m.at is None:
            continue
        best = min(checks.closest(m, tm) for tm in t.models if tm.at is not None)
        if best[0] > rulings.EMBARK_RANGE + EPS:
            out.append(Violation("embark", f"{ident(m.id)} is {fmt(best[0])} from "
                                           f"{ident(transport_id)}; "
                                 "every model must be within 3\" to embark", (m.id,),
                                 best[0], rulings.EMBARK_RANGE, best[1]))
    return out


# -- steps that resolve automatically ------------------------------------------------------------

def end_move_units(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                   ) -> tuple[GameState, list[dict[str, Any]]]:
    """09.02.01: every unit not selected to move this phase remains stationary."""
    events: list[dict[str, Any]] = []
    me = state.battle.active_player
    for u in state.units:
        if isinstance(u, Unit) and u.player == me and F_SELECTED not in u.flags:
            state = state.with_unit(_add_flags(u, F_SELECTED, F_STATIONARY))
            events.append({"kind": "remain-stationary", "unit": u.id})
    return state, events


def restore_coherency(state: GameState, unit_id: str, chosen: Sequence[str] = ()
                      ) -> tuple[GameState, list[dict[str, Any]]]:
    """End of turn (03.03): remove models one at a time until the unit is in coherency.

    The controlling player chooses which: the models of ``chosen`` go first, in that order,
    while the unit is still out of coherency; then, if it still is, the program removes the
    model named in most coherency violations (ties: the last listed).
    """
    events: list[dict[str, Any]] = []
    mine = [mid for mid in chosen if any(m.id == mid for m in _unit(state, unit_id).models)]
    while True:
        unit = _unit(state, unit_id)
        vs = checks.coherency_violations(unit)
        if not vs:
            return state, events
        placed = [m for m in unit.models if m.at is not None]
        pick = next((m for mid in mine for m in placed if m.id == mid), None)
        if pick is not None:
            mine.remove(pick.id)
            victim = pick
        else:
            count: dict[str, int] = {}
            for v in vs:
                for mid in v.models:
                    count[mid] = count.get(mid, 0) + 1
            victim = max(reversed(placed), key=lambda m: count.get(m.id, 0))
        unit = replace(unit, starting_strength=unit.strength,
                       models=tuple(m for m in unit.models if m.id != victim.id))
        state = state.with_unit(unit)
        events.append({"kind": "destroyed", "model": victim.id, "reason": "coherency",
                       **({"chosen": True} if victim is pick else {})})


def end_of_turn(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                ) -> tuple[GameState, list[dict[str, Any]]]:
    """End of turn: coherency for both players' units (``action["remove"]``: the models their
    players choose to remove first), flags expire, and at the end of battle round 3 units still
    in strategic reserves are destroyed (with units embarked in them).

    A model of ``remove`` must belong to a unit out of coherency now (Refusal otherwise)."""
    events: list[dict[str, Any]] = []
    chosen = [str(m) for m in action.get("remove") or ()]
    for mid in chosen:
        try:
            unit, _ = state.model(mid)
        except KeyError:
            raise Refusal(f"remove: {ident(mid)} is not on the battlefield any more") from None
        if not checks.coherency_violations(unit):
            raise Refusal(f"remove: {ident(mid)} belongs to {ident(unit.id)}, which is in "
                          "coherency; only models of a unit out of coherency are removed at the "
                          "end of the turn")
    for u in list(state.units):
        if isinstance(u, Unit) and _on_battlefield(u):
            state, ev = restore_coherency(state, u.id, chosen)
            events += ev
    state = replace(state, units=tuple(replace(u, flags=()) if u.flags else u
                                       for u in state.units))
    last = state.players[1].id == state.battle.active_player
    if last and state.battle.round >= rulings.RESERVES_LAST_ROUND:
        doomed = {u.id for u in state.units if isinstance(u, Unit)
                  and u.location == "strategic-reserves"}
        doomed |= {u.id for u in state.units if isinstance(u, Unit)
                   and u.location == "embarked" and u.transport in doomed}
        for uid in sorted(doomed):
            events.append({"kind": "destroyed", "unit": uid, "reason": "still in strategic "
                           f"reserves at the end of battle round {state.battle.round}"})
        state = replace(state, units=tuple(u for u in state.units if u.id not in doomed))
    return state, events






def blocked(state: GameState, action: Mapping[str, Any]) -> str:
    """Why ``action`` must wait for something the rules make happen first ("" when it need not).

    A destroyed transport's passengers make their emergency disembark before anything else
    (18.05); a unit that made a tactical disembark makes its normal or advance move right after
    it (18.04), before another unit is selected or the step ends.
    """
    do, unit = action.get("do"), action.get("unit")
    for w in state.units:
        if isinstance(w, Unit) and F_WRECK in w.flags:
            riders = passengers(state, w.id)
            if do == "emergency-disembark" and unit in riders:
                return ""
            return (f"{ident(w.id)} was destroyed: " + idents(riders) + " must make an emergency "
                    "disembark first (18.05)")
    follow = _follow_up(state)
    if follow is not None and state.battle.selection is None and do in ("select", "next") \
            and unit != follow:
        return (f"{ident(follow)} made a tactical disembark: it makes its normal or advance move "
                "now, before another unit moves or the step ends (18.04)")
    return ""


def _follow_up(state: GameState) -> str | None:
    """The unit of the active player that owes the move of its tactical disembark, if any."""
    for u in state.units:
        if isinstance(u, Unit) and u.player == state.battle.active_player \
                and F_THEN_MOVE in u.flags:
            return u.id
    return None


def passengers(state: GameState, transport_id: str) -> list[str]:
    """The units embarked in ``transport_id``."""
    return [u.id for u in state.units if isinstance(u, Unit) and u.location == "embarked"
            and u.transport == transport_id]


def emergency_disembark(state: GameState, unit_id: str,
                        placements: Mapping[str, Sequence[float]], *,
                        dice: Sequence[int] | None = None) -> ActionResult:
    """18.05: the transport of ``unit_id`` is destroyed; set the unit up around it.

    ``placements`` maps model ids to ``[x, y]`` (or ``[x, y, facing]``); each must be wholly
    within 6" of the transport, not overlapping and unengaged, and as close as possible to it:
    a model whose base could stand more than :data:`~.rulings.AS_CLOSE_AS_POSSIBLE` closer
    (a free spot of its set-up zone, the other models where they were placed) is refused, and so
    is leaving out a model that could be set up; the models left out are destroyed. Then one
    hazard roll per model set up; the unit becomes battle-shocked and cannot charge this turn.

    A transport the rules destroyed (:func:`allocate_mortal_wounds`) waits, marked destroyed,
    until its passengers have made this move; a transport still in the game (destroyed by
    something the program does not simulate) is destroyed by it. Once no unit is embarked in it
    the transport is removed.
    """
    try:
        return _emergency(state, unit_id, placements, Dice(state, dice))
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), tuple(r.events),
                            tuple(r.violations))


def _emergency(state: GameState, unit_id: str, placements: Mapping[str, Sequence[float]],
               dice: Dice) -> ActionResult:
    unit = _unit(state, unit_id)
    if state.battle.selection is not None:
        raise Refusal(f"{ident(state.battle.selection.unit)} is moving: commit or reset its move "
                      "first")
    if unit.location != "embarked" or unit.transport is None:
        raise Refusal(f"{ident(unit_id)} is not embarked in a transport")
    t, why = _transport_state(state, unit)
    if t is None:
        raise Refusal(f"{ident(unit_id)} cannot make an emergency disembark: {why}")
    own = {m.id: m for m in unit.models}
    strangers = [mid for mid in placements if mid not in own]
    if strangers:
        raise Refusal(idents(strangers) + f" not a model of {ident(unit_id)}")
    events: list[dict[str, Any]] = []
    if F_WRECK not in t.flags:
        state = state.with_unit(_add_flags(t, F_WRECK))
        events.append({"kind": "destroyed", "unit": t.id, "passengers": passengers(state, t.id),
                       "reason": "its passengers make an emergency disembark"})
    events.append({"kind": "emergency-disembark", "unit": unit_id, "transport": t.id})
    kept = [replace(own[mid], at=(float(p[0]), float(p[1])),
                    facing=float(p[2]) if len(p) > 2 else own[mid].facing)
            for mid, p in placements.items()]
    left = [m for m in unit.models if m.id not in placements]
    # the set-up as the zone engine sees it: still embarked, the placed models on the board
    setup = state.with_unit(replace(unit, models=(*kept, *left)))
    vs = _emergency_violations(setup, unit_id, t, kept, left)
    if vs:
        raise Refusal([v.message for v in vs], vs)
    for m in left:
        events.append({"kind": "destroyed", "model": m.id,
                       "reason": f"cannot be set up within 6\" of {ident(t.id)}"})
    board = state.with_unit(replace(unit, models=tuple(kept), location="battlefield",
                                    transport=None, starting_strength=unit.strength))
    if kept:
        board, ev = hazard_rolls(board, unit_id, dice, what="emergency-disembark")
        events += ev
    if _alive(board, unit_id):
        u = _unit(board, unit_id)
        board = board.with_unit(replace(_add_flags(u, F_NO_CHARGE, F_SET_UP), battle_shocked=True))
        events.append({"kind": "battle-shocked", "unit": unit_id})
    elif not kept:
        board = replace(board, units=tuple(x for x in board.units if x.id != unit_id))
        events.append({"kind": "destroyed", "unit": unit_id})
    if not passengers(board, t.id):
        board = replace(board, units=tuple(x for x in board.units if x.id != t.id))
        events.append({"kind": "removed", "unit": t.id,
                       "reason": "destroyed; its passengers have disembarked"})
    return ActionResult(dice.commit(board), True, (), tuple(events))


def _emergency_violations(setup: GameState, unit_id: str, t: Unit, kept: Sequence[Model],
                          left: Sequence[Model]) -> list[Violation]:
    """Why an emergency set-up is refused: the set-up rules (wholly within 6", on the
    battlefield, on no model or terrain, unengaged, in coherency), "as close as possible", and
    models left out that could be set up."""
    limit = rulings.DISEMBARK_RANGE["emergency"]
    placed = replace(_unit(setup, unit_id), models=tuple(kept), location="battlefield")
    board = setup.with_unit(placed)
    vs: list[Violation] = []
    hull = [tm for tm in t.models if tm.at is not None]
    for m in kept:
        near = [_wholly_within(m, exact_polygon(tm), limit) for tm in hull]
        if not any(okk for okk, _ in near):
            far = min(d for _, d in near)
            vs.append(Violation("disembark-range", f"{ident(m.id)} must be set up wholly within "
                                f"{fmt(limit)} of {ident(t.id)} (its farthest point is {fmt(far)} "
                                "away)", (m.id, t.id), far, limit))
    vs += checks.overlap_violations(board, placed)
    vs += checks.edge_violations(board, placed)
    vs += checks.terrain_violations(board, placed)
    vs += checks.engagement_violations(board, placed)
    vs += checks.coherency_violations(placed)  # a set-up ends in coherency (03.02)
    if vs:
        return vs
    shape = shapely.union_all([exact_polygon(tm) for tm in hull])
    for m in kept:
        zone = zones.setup_zone(setup, m.id, "disembark", mode="emergency")
        free = _closest_free(zone, shape)
        if free is None:
            continue
        here = min(checks.closest(m, tm)[0] for tm in hull)
        there = min(footprint_distance(m.base, free, m.facing, tm.base, tm.at, tm.facing)
                    for tm in hull if tm.at is not None)
        if there < here - rulings.AS_CLOSE_AS_POSSIBLE:
            vs.append(Violation("not-closest", f"{ident(m.id)} must be set up as close as "
                                f"possible to {ident(t.id)}: it is {fmt(here)} away, but "
                                f"({free[0]:.2f}, {free[1]:.2f}) is free {fmt(there)} away",
                                (m.id, t.id), here, there))
    for m in left:
        free = _closest_free(zones.setup_zone(setup, m.id, "disembark", mode="emergency"), shape)
        if free is not None:
            vs.append(Violation("not-placed", f"{ident(m.id)} can be set up (at ({free[0]:.2f}, "
                                f"{free[1]:.2f}), for one): only models that cannot be set up "
                                "are destroyed", (m.id, t.id)))
    return vs


def _closest_free(zone: zones.Zone, shape: Any) -> tuple[float, float] | None:
    """The point of ``zone`` closest to ``shape`` (exactly legal), or ``None`` if it is empty."""
    if zone.geometry.is_empty:
        return None
    q = nearest_points(zone.geometry, shape)[0]
    x, y = zone.nearest(q.x, q.y)
    return (x, y) if zone.contains(x, y) else None

"""wh40k-11e, the Movement phase (seed 000): the unit's move as a transaction.

Public API for a front end (all pure; states are immutable):

- :func:`select`, :func:`stage_move`, :func:`stage_place`, :func:`undo`, :func:`reset`,
  :func:`cancel`, :func:`commit` -> :class:`~tabletop.rules.result.ActionResult`;
- :func:`commit_check` ``(state) -> list[Violation]``: what a commit would refuse, now;
- :func:`board`: the battlefield as it would be if the move ended now.

The rest of the phase: :mod:`.flags` (move types, flags), :mod:`.eligibility` (which moves a
unit may make), :mod:`.casualties` (mortal wounds, hazard rolls), :mod:`.setups` (set-up and
embark rules), :mod:`.emergency` (emergency disembark), :mod:`.steps` (what resolves on its
own). The rulings are named constants of :mod:`tabletop.rulesets.wh40k_11e.rulings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tabletop.errors import ident, idents, quote
from tabletop.rules.dice import Dice, roll, stand, stood, stood_event
from tabletop.rules.result import ActionResult, Refusal
from tabletop.rules.turns import Point as StepPoint
from tabletop.rules.turns import TriggerContext
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import checks, rulings
from tabletop.rulesets.wh40k_11e.casualties import hazard_rolls
from tabletop.rulesets.wh40k_11e.checks import (
    fmt,
)
from tabletop.rulesets.wh40k_11e.command import battle_shock_roll
from tabletop.rulesets.wh40k_11e.eligibility import disembark_mode, eligible_moves
from tabletop.rulesets.wh40k_11e.flags import (
    F_ADVANCED,
    F_DEEP_STRUCK,
    F_DISEMBARKED,
    F_EMBARKED,
    F_FELL_BACK,
    F_FLYING,
    F_INGRESSED,
    F_NO_ACTION,
    F_NO_CHARGE,
    F_NO_SHOOT,
    F_NORMAL,
    F_SELECTED,
    F_SET_UP,
    F_STATIONARY,
    F_THEN_MOVE,
    MODES,
    MOVE_TYPES,
    MOVING,
    SETTING_UP,
    add_flags,
    alive,
    article,
    drop_flags,
    flying,
    set_battle,
    unit_of,
)
from tabletop.rulesets.wh40k_11e.paths import check_path, move_cap, path_length
from tabletop.rulesets.wh40k_11e.setups import (
    embark_violations,
    placement_violations,
    tactical_after_all,
)
from tabletop.state import GameState, Model, Selection, Unit

__all__ = ["board", "cancel", "commit", "commit_check", "reset", "select", "stage_move",
           "stage_place", "undo"]


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
    unit = unit_of(state, sel.unit)
    snap: dict[str, Any] = dict(sel.before or {})
    start = {mid: (at, facing) for mid, at, facing in sel.start}
    models = tuple(replace(m, at=start[m.id][0], facing=start[m.id][1]) if m.id in start else m
                   for m in unit.models)
    unit = replace(unit, battle_shocked=bool(snap.get("battle_shocked", unit.battle_shocked)),
                   flags=tuple(snap.get("flags", unit.flags)),
                   location=snap.get("location", unit.location),
                   transport=snap.get("transport", unit.transport), models=models)
    return set_battle(state.with_unit(unit), selection=None)


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
    unit = unit_of(state, unit_id)
    reasons = {m: why for m, ok, why in eligible_moves(state, unit_id) if not ok}
    if move not in MOVE_TYPES:
        raise Refusal(f"unknown move type {move!r}; one of " + ", ".join(MOVE_TYPES))
    if move in reasons:
        raise Refusal(f"{ident(unit_id)} cannot make {article(move)} move: {reasons[move]}")
    if mode is not None and mode not in MODES.get(move, ()):
        raise Refusal(f"{article(move)} move has no mode {quote(str(mode))}" + (
            "; modes: " + ", ".join(MODES[move]) if move in MODES else ""))
    if fly and not unit.has(rulings.FLY):
        raise Refusal(f"{ident(unit_id)} cannot take to the skies: it has no FLY keyword")
    if fly and move not in MOVING:
        raise Refusal(f"a unit takes to the skies in a normal, advance or fall-back move, not "
                      f"{article(move)} move")
    events: list[dict[str, Any]] = [{"kind": "select", "unit": unit_id, "move": move,
                                     **({"fly": True} if fly else {})}]
    before = _snapshot(unit)
    if move == "remain-stationary":
        state = state.with_unit(add_flags(unit, F_SELECTED, F_STATIONARY))
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
            if not alive(state, unit_id):
                return ActionResult(dice.commit(state), True, (), tuple(events))
            unit = unit_of(state, unit_id)
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
    unit = add_flags(unit, F_SELECTED, *((F_FLYING,) if fly else ()))
    state = state.with_unit(unit)
    sel = Selection(unit=unit_id, move=move, mode=mode, roll=roll_value,
                    start=tuple((m.id, m.at, m.facing) for m in unit.models),
                    before=before)
    state = dice.commit(state)
    state = set_battle(state, selection=sel)
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
        return set_battle(state, selection=replace(sel, staged=tuple(dict(a) for a in staged)))
    unit = unit_of(state, sel.unit)
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
    return set_battle(state, selection=replace(sel, staged=tuple(dict(a) for a in staged)))


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
    unit = unit_of(state, sel.unit)
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
            raise Refusal(f"{article(sel.move)} move sets models up: use place, not move")
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
            raise Refusal(f"{article(sel.move)} move moves models: use move, not place")
        _model_of_selection(state, sel, model_id)
        action: dict[str, Any] = {"do": "place", "model": model_id,
                                  "at": [float(at[0]), float(at[1])]}
        if facing is not None:
            action["facing"] = float(facing)
        staged = [a for a in sel.staged if a.get("model") != model_id] + [action]
        new_state = _staged_state(state, sel, staged)
        view = board(new_state)
        _, placed = view.model(model_id)
        vs = placement_violations(view, sel, [placed])
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
    unit = unit_of(state, sel.unit)
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
        out += placement_violations(state, sel, [m for m in unit.models if m.at is not None])
    allowed: list[str] = []
    if sel.move == "disembark" and sel.mode == "combat" and unit.transport:
        t = unit_of(state, unit.transport)
        allowed = sorted({eu.id for _, eu, *_ in checks.engaged_with(state, t)})
        if not out and tactical_after_all(state, unit, t):
            out.append(Violation(
                "disembark-mode", f"every model of {ident(unit.id)} is set up wholly within "
                f"{fmt(rulings.DISEMBARK_RANGE['tactical'])} of {ident(t.id)} and unengaged: "
                "tactical disembark applies first, not combat (18.04); select it with mode "
                "\"tactical\"", tuple(m.id for m in unit.models)))
    out += checks.engagement_violations(state, unit, allowed=allowed)
    return out


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
    unit = unit_of(state, sel.unit)
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
    unit = add_flags(unit, *flags)
    if sel.move in MOVING:
        unit = drop_flags(unit, F_THEN_MOVE)
    state = state.with_unit(unit)
    state = set_battle(state, selection=None)
    events.append({"kind": "commit", "unit": sel.unit, "move": sel.move,
                   **({"mode": sel.mode} if sel.mode else {})})
    ctx = TriggerContext(_point_now(state), d)
    if sel.move == "fall-back" and sel.mode == "desperate-escape" and not unit.battle_shocked:
        state, ev = battle_shock_roll(state, sel.unit, ctx)
        events += ev
    if sel.move == "disembark" and sel.mode == "combat":
        state, ev = hazard_rolls(state, sel.unit, d, what="combat-disembark")
        events += ev
        if alive(state, sel.unit):
            u = unit_of(state, sel.unit)
            state = state.with_unit(replace(u, battle_shocked=True))
            events.append({"kind": "battle-shocked", "unit": sel.unit})
    if embark is not None and alive(state, sel.unit):
        u = unit_of(state, sel.unit)
        state = state.with_unit(replace(
            add_flags(u, F_EMBARKED), location="embarked", transport=embark,
            models=tuple(replace(m, at=None) for m in u.models)))
        events.append({"kind": "embark", "unit": sel.unit, "transport": embark})
    return ActionResult(d.commit(state), True, (), tuple(events))


def _point_now(state: GameState) -> StepPoint:
    return StepPoint(state.battle.phase, state.battle.step or "")


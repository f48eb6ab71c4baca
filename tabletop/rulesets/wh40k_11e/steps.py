"""wh40k-11e: the steps that resolve on their own (units not selected remain stationary, the
end of the turn: coherency, expiring flags, reserves destroyed) and what must happen before
anything else (an emergency disembark, a tactical disembark's move).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tabletop.errors import ident, idents
from tabletop.rules.result import Refusal
from tabletop.rules.turns import TriggerContext
from tabletop.rulesets.wh40k_11e import checks, rulings
from tabletop.rulesets.wh40k_11e.flags import (
    F_SELECTED,
    F_STATIONARY,
    F_THEN_MOVE,
    F_WRECK,
    add_flags,
    on_battlefield,
    passengers,
    unit_of,
)
from tabletop.state import GameState, Unit

__all__ = ["blocked", "end_move_units", "end_of_turn", "restore_coherency"]


def end_move_units(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                   ) -> tuple[GameState, list[dict[str, Any]]]:
    """09.02.01: every unit not selected to move this phase remains stationary."""
    events: list[dict[str, Any]] = []
    me = state.battle.active_player
    for u in state.units:
        if isinstance(u, Unit) and u.player == me and F_SELECTED not in u.flags:
            state = state.with_unit(add_flags(u, F_SELECTED, F_STATIONARY))
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
    mine = [mid for mid in chosen if any(m.id == mid for m in unit_of(state, unit_id).models)]
    while True:
        unit = unit_of(state, unit_id)
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
        if isinstance(u, Unit) and on_battlefield(u):
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


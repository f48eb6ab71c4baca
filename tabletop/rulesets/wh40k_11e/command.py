"""wh40k-11e, the Command phase (seed 004): Core CP, half-strength and battle-shock rolls.

- :func:`half_strength`, :func:`needs_battle_shock_roll`: who rolls in the Battle-shock step;
- :func:`battle_shock_roll`: one roll (2D6 >= Ld), also made by triggered rules and by a
  Desperate Escape;
- :func:`gain_core_cp`, :func:`battle_shock_step`: the handlers of those two steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletop.errors import ident
from tabletop.rules.dice import roll
from tabletop.rules.result import Refusal
from tabletop.rules.turns import TriggerContext
from tabletop.rulesets.wh40k_11e import rulings
from tabletop.state import GameState, Unit

__all__ = [
    "INSANE_BRAVERY",
    "battle_shock_roll",
    "battle_shock_step",
    "gain_core_cp",
    "half_strength",
    "needs_battle_shock_roll",
]

INSANE_BRAVERY = "insane-bravery"
"""The once-per-battle stratagem, recorded in the player's ``used`` list."""


# -- half-strength and battle-shock (08.03, rules appendix) -------------------------------------

def half_strength(unit: Unit) -> str | None:
    """``"at"``, ``"below"`` or ``None``: the rulings' ``2 * remaining <= starting strength``.

    Starting strength 1: remaining wounds against W. Otherwise remaining models against the
    starting strength.
    """
    if not unit.models:
        return "below"
    if unit.strength == 1:
        left, whole = unit.wounds_of(unit.models[0]), unit.W
    else:
        left, whole = len(unit.models), unit.strength
    if 2 * left == whole:
        return "at"
    if 2 * left < whole:
        return "below"
    return None


def needs_battle_shock_roll(unit: Unit) -> bool:
    """08.03: a roll for a unit that is battle-shocked and/or at or below half-strength."""
    return bool(unit.models) and (unit.battle_shocked or half_strength(unit) is not None)


def best_ld(unit: Unit) -> int:
    """The unit's leadership target (the best, i.e. lowest, of its models' Ld; one Ld per unit)."""
    return unit.Ld


def battle_shock_roll(state: GameState, unit_id: str, ctx: TriggerContext, *,
                      auto_pass: bool = False) -> tuple[GameState, list[dict[str, Any]]]:
    """One battle-shock roll (2D6 >= Ld) for ``unit_id``.

    In the Battle-shock step (``ctx.point`` is ``command.battle-shock``) a unit that was
    battle-shocked and passes recovers, and a unit rolls at most once, whatever forces the roll
    (08.03.01: a second roll is not made, an event ``no-roll`` says so); everywhere else a pass
    changes nothing. A failure makes the unit battle-shocked. ``auto_pass``: the roll succeeds
    without dice (Insane Bravery).
    """
    unit = state.unit(unit_id)
    assert isinstance(unit, Unit)
    in_step = ctx.point.phase == "command" and ctx.point.step == "battle-shock"
    if in_step and unit_id in ctx.rolled:
        return state, [{"kind": "no-roll", "what": "battle-shock", "unit": unit_id,
                        "reason": f"{ident(unit_id)} has made its battle-shock roll of this "
                                  "Battle-shock step (08.03.01)"}]
    ld = best_ld(unit)
    if auto_pass:
        dice: list[int] = []
        passed = True
        events: list[dict[str, Any]] = []
    else:
        dice, ev = roll(ctx.dice, 2, "battle-shock", unit_id)
        passed = sum(dice) >= ld
        events = [ev]
    if in_step:
        ctx.rolled.add(unit_id)
    was = unit.battle_shocked
    now = (False if in_step else was) if passed else True
    events.append({"kind": "battle-shock", "unit": unit_id, "dice": dice, "Ld": ld,
                   "passed": passed, "battle_shocked": now,
                   **({"auto": "insane-bravery"} if auto_pass else {})})
    if now != was:
        state = state.with_unit(replace(unit, battle_shocked=now))
    return state, events


def gain_core_cp(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                 ) -> tuple[GameState, list[dict[str, Any]]]:
    """08.02: both players gain 1 CP."""
    events = []
    players = []
    for p in state.players:
        q = replace(p, cp=p.cp + rulings.CORE_CP)
        players.append(q)
        events.append({"kind": "cp", "player": p.id, "gained": rulings.CORE_CP, "cp": q.cp})
    return replace(state, players=(players[0], players[1])), events


def battle_shock_step(state: GameState, ctx: TriggerContext, action: Mapping[str, Any]
                      ) -> tuple[GameState, list[dict[str, Any]]]:
    """08.03: one battle-shock roll per unit of the active player that needs one.

    Units that already rolled in this step (a triggered rule, 08.03.01) do not roll again.
    ``action["insane-bravery"]`` names a unit whose roll succeeds automatically (1CP, once per
    battle).
    """
    events: list[dict[str, Any]] = []
    me = state.battle.active_player
    brave = action.get("insane-bravery")
    rolling = [u for u in state.units if isinstance(u, Unit) and u.player == me
               and needs_battle_shock_roll(u) and u.id not in ctx.rolled]
    if brave is not None:
        if brave not in [u.id for u in rolling]:
            raise Refusal(f"Insane Bravery: {ident(brave)} makes no battle-shock roll in this step")
        p = state.player(me)
        if INSANE_BRAVERY in p.used:
            raise Refusal("Insane Bravery can be used once per battle; it was used already")
        if p.cp < rulings.INSANE_BRAVERY_CP:
            raise Refusal(f"Insane Bravery costs {rulings.INSANE_BRAVERY_CP}CP; {ident(me)} has "
                          f"{p.cp}CP")
        q = replace(p, cp=p.cp - rulings.INSANE_BRAVERY_CP, used=(*p.used, INSANE_BRAVERY))
        state = replace(state, players=tuple(q if x.id == me else x  # type: ignore[arg-type]
                                             for x in state.players))
        events.append({"kind": "cp", "player": me, "gained": -rulings.INSANE_BRAVERY_CP, "cp": q.cp,
                       "stratagem": "insane-bravery"})
    for u in rolling:
        state, ev = battle_shock_roll(state, u.id, ctx, auto_pass=(u.id == brave))
        events += ev
    return state, events

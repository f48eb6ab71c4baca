"""wh40k-11e: mortal wounds and hazard rolls (06.02, 06.03), and the Desperate Escape test
(09.07.01).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.rules.dice import Dice, roll
from tabletop.rules.turns import TriggerContext
from tabletop.rulesets.wh40k_11e import rulings
from tabletop.rulesets.wh40k_11e.command import battle_shock_roll
from tabletop.rulesets.wh40k_11e.flags import (
    F_WRECK,
    add_flags,
    alive,
    passengers,
    unit_of,
)
from tabletop.state import GameState

__all__ = ["allocate_mortal_wounds", "desperate_escape_test", "hazard_rolls"]


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
    unit = unit_of(state, unit_id)
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
            return state.with_unit(add_flags(unit, F_WRECK)), events
        return replace(state, units=tuple(u for u in state.units if u.id != unit_id)), events
    unit = replace(unit, models=survivors)
    return state.with_unit(unit), events


def hazard_rolls(state: GameState, unit_id: str, dice: Dice, *, what: str = "hazard",
                 modifier: int = 0) -> tuple[GameState, list[dict[str, Any]]]:
    """One hazard roll per model, made together; failures inflict mortal wounds."""
    unit = unit_of(state, unit_id)
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
    if alive(state, unit_id):
        state, more = battle_shock_roll(state, unit_id, ctx)
        events += more
    return state, events


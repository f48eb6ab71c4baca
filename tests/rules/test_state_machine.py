"""Any game the rules can reach can be saved, refusals change nothing, and play is deterministic.

A hypothesis state machine plays the shipped scenarios of both rulesets with actions drawn from
each ruleset's own action schema (select, move, place, forward, wheel, reform, commit, undo, reset,
next ...), mostly plausible and sometimes hostile. After every action the state must save as
TOML and as JSON to a file that loads back, with every check, to an identical state; a refused
action that rolled no die must leave the state as it was (a refused commit: the unit where it
stood before its selection, as the rules put it back); and at the end the same actions
replayed from the same scenario must give the same bytes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tabletop import rulesets
from tabletop.errors import UserError
from tabletop.scenario.io import dumps_scenario
from tabletop.state import GameState, Unit

from support import hostile


def _models(state: GameState, unit_id: str) -> list[Any]:
    """The models of a wh40k unit, or a t9a block as one model (id, at, facing)."""
    unit = next((u for u in state.units if u.id == unit_id), None)
    return list(unit.models) if isinstance(unit, Unit) else [unit] if unit is not None else []


class Game(RuleBasedStateMachine):
    """One game from a shipped scenario, action by action."""

    @initialize(name=st.sampled_from(hostile.NAMES))
    def start(self, name: str) -> None:
        self.initial = hostile.shipped_state(name)
        self.state = self.initial
        self.actions: list[dict[str, object]] = []

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        action = data.draw(hostile.action(self.state), label="action")
        try:
            result = rulesets.apply_action(self.state, action)
        except UserError:
            event(f"{action['do']}: malformed")
            return  # malformed for this state: an error, and nothing to undo
        event(f"{action['do']}: {'ok' if result.ok else 'refused'}")
        if not result.ok:
            sel = self.state.battle.selection
            if action["do"] == "commit" and sel is not None:
                # a refused commit puts the unit back where it was before its selection
                assert result.state.battle.selection is None
                back = {m.id: (m.at, m.facing) for m in _models(result.state, sel.unit)}
                assert all(back.get(mid, (at, facing)) == (at, facing)
                           for mid, at, facing in sel.start), result.reasons
            elif result.state.battle.dice_used == self.state.battle.dice_used:
                assert result.state == self.state, result.reasons  # dice stand (rulings)
        self.actions.append(action)
        self.state = result.state

    @invariant()
    def saves_and_loads_back(self) -> None:
        hostile.assert_saves(self.state)

    def teardown(self) -> None:
        if not hasattr(self, "initial"):
            return
        final, _ = rulesets.apply_actions(self.initial, self.actions)
        assert dumps_scenario(final) == dumps_scenario(self.state)


Game.TestCase.settings = settings(max_examples=30, stateful_step_count=40, deadline=None,
                                  suppress_health_check=list(HealthCheck))
test_game = pytest.mark.slow(Game.TestCase)

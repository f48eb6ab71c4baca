"""Every registered ruleset keeps the Ruleset contract, on every shipped scenario of it.

As OpenSpiel's API test and Gymnasium's ``check_env``: one check
(:func:`tabletop.rules.conformance.check_ruleset`) for every game. A third ruleset added to the
registry is parametrized here at once and fails until it ships a scenario and keeps the contract;
the rulesets below that break one promise each show that the check notices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from types import MappingProxyType
from typing import Any

import pytest

from tabletop import rulesets
from tabletop.rules.conformance import REQUIRED_ACTIONS, check_ruleset, moving_state
from tabletop.rules.result import ActionResult
from tabletop.rules.turns import TriggerRegistry
from tabletop.rulesets.wh40k_11e import Wh40k11e
from tabletop.scenario.io import load_scenario
from tabletop.state import GameState


def _shipped() -> dict[str, list[str]]:
    """The shipped scenarios by the ruleset they play."""
    found: dict[str, list[str]] = {name: [] for name in rulesets.names()}
    for entry in sorted(resources.files("tabletop").joinpath("scenarios").iterdir(),
                        key=lambda e: e.name):
        if entry.name.endswith((".toml", ".json")):
            state = load_scenario(entry.name)
            found.setdefault(state.ruleset, []).append(entry.name)
    return found


SHIPPED = _shipped()
CASES = [(name, scenario) for name in rulesets.names()
         for scenario in (SHIPPED[name] or ["(none shipped)"])]


@pytest.mark.parametrize(("name", "scenario"), CASES)
def test_every_ruleset_keeps_the_contract_on_its_shipped_games(name: str, scenario: str) -> None:
    assert SHIPPED[name], f"{name} ships no scenario to check it on (tabletop/scenarios/)"
    state = load_scenario(scenario)
    assert check_ruleset(rulesets.get(name), state) == []


@pytest.mark.parametrize("name", rulesets.names())
def test_some_shipped_game_of_every_ruleset_has_a_unit_to_move(name: str) -> None:
    """So the select round trips of the check run for every ruleset, not only its refusals."""
    r = rulesets.get(name)
    assert any(moving_state(r, load_scenario(s)) is not None for s in SHIPPED[name])


# -- rulesets that break one promise each ------------------------------------------------------
DEMO = load_scenario("demo.toml")


class _ClaimsIngress(Wh40k11e):
    """Calls every unit eligible to come in from reserves, which select then refuses."""

    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        return [(m, ok or m == "ingress", why) for m, ok, why
                in super().eligible_moves(state, unit_id)]


class _NextMidMove(Wh40k11e):
    """Goes on to the next step while a unit is still moving."""

    def next(self, state: GameState, action: Mapping[str, Any],
             triggers: TriggerRegistry | None = None) -> ActionResult:
        sel = state.battle.selection
        if sel is not None:
            state = replace(state, battle=replace(state.battle, selection=None))
        return super().next(state, action, triggers)


class _DisplayFails(Wh40k11e):
    def display(self, state: GameState) -> GameState:
        raise RuntimeError("no board")


class _NoReasons(Wh40k11e):
    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        return [(m, ok, "") for m, ok, _ in super().eligible_moves(state, unit_id)]


class _AcceptsTheOpponent(Wh40k11e):
    """Lets a player select the opponent's unit."""

    def on_action(self, state: GameState, action: Mapping[str, Any],
                  triggers: TriggerRegistry | None) -> ActionResult:
        if action["do"] == "select" and state.unit(action["unit"]).player != \
                state.battle.active_player:
            return ActionResult(state, True, ())
        return super().on_action(state, action, triggers)


@pytest.mark.parametrize(("broken", "says"), [
    (_ClaimsIngress(), "was refused though eligible"),
    (_NextMidMove(), "next while a unit is moving was not refused"),
    (_DisplayFails(), "display failed"),
    (_NoReasons(), "eligibility gives no reason"),
    (_AcceptsTheOpponent(), "selecting the opponent's unit"),
])
def test_the_check_notices_a_broken_promise(broken: Wh40k11e, says: str) -> None:
    problems = check_ruleset(broken, DEMO, units=1)
    assert any(says in p for p in problems), problems


def test_a_ruleset_without_the_common_actions_is_told_which() -> None:
    class Bare(Wh40k11e):
        actions = MappingProxyType({k: v for k, v in Wh40k11e.actions.items()
                                    if k not in ("undo", "cancel")})

    assert check_ruleset(Bare(), DEMO) == ["lacks the actions undo, cancel"]
    assert set(REQUIRED_ACTIONS) <= set(rulesets.get("t9a-2").actions)


def test_a_game_of_another_ruleset_is_refused() -> None:
    assert check_ruleset(rulesets.get("t9a-2"), DEMO) == [
        "the state plays 'wh40k-11e', not 't9a-2'"]

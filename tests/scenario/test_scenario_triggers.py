"""Rules a scenario attaches to points of the turn (``[[triggers]]``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.errors import UserError
from tabletop.rulesets import apply_action
from tabletop.scenario.io import dumps_scenario, loads_scenario

SCENARIO = """
format = 1
name = "Trigger"
ruleset = "wh40k-11e"

[battle]
round = 2
active_player = "red"
phase = "command"
seed = 1

[[players]]
id = "red"

[[players]]
id = "blue"

[[units]]
id = "squad"
player = "red"
keywords = ["INFANTRY"]
M = 6
W = 2
Ld = 6
OC = 2
models = [{ id = "s1", base = "32mm", at = [20.0, 22.0] }]

[[triggers]]
at = "at the start of the Movement phase"
effect = "gain-cp"
target = "blue"
amount = 2
name = "Supply drop"
"""


def test_a_scenario_trigger_fires_at_its_point_and_survives_saving() -> None:
    state = loads_scenario(SCENARIO, fmt="toml", source="trigger.toml")
    assert state.triggers == ({"at": "at the start of the Movement phase", "effect": "gain-cp",
                               "name": "Supply drop", "target": "blue", "amount": 2},)
    for fmt in ("toml", "json"):
        assert loads_scenario(dumps_scenario(state, fmt), fmt=fmt) == state
    fired = []
    while state.battle.phase != "movement" or state.battle.step != "move-units":
        res = apply_action(state, {"do": "next"})
        fired += [e for e in res.events if e["kind"] == "trigger"]
        state = res.state
    assert fired == [{"kind": "trigger", "name": "Supply drop", "at": "movement.start"}]
    assert state.player("blue").cp == 1 + 2  # Core CP, then the trigger


@pytest.mark.parametrize(("table", "message"), [
    ('at = "at the start of the Lunch phase"\neffect = "note"\ntext = "x"',
     "trigger.toml: triggers[0].at: unknown phase"),
    ('at = "movement.start"\neffect = "gain-cp"',
     'trigger.toml: triggers[0]: a "gain-cp" trigger needs `target`'),
    ('at = "movement.start"\neffect = "flag"\nunit = "ghost"\nflag = "x"',
     'trigger.toml: triggers[0].unit: unknown unit "ghost"'),
    ('at = "movement.start"\neffect = "gain-cp"\ntarget = "green"',
     'trigger.toml: triggers[0].target: unknown player "green"'),
    ('at = "movement.start"\neffect = "explode"',
     "trigger.toml: triggers[0].effect:"),
])
def test_bad_triggers_are_named(table: str, message: str, tmp_path: Path) -> None:
    text = SCENARIO.split("[[triggers]]")[0] + "[[triggers]]\n" + table + "\n"
    with pytest.raises(UserError) as err:
        loads_scenario(text, fmt="toml", source="trigger.toml")
    assert any(line.startswith(message) for line in err.value.lines), err.value.lines

"""End of turn, coherency (11e 03.03): the controlling player chooses which models are removed
(``{"do": "next", "remove": [...]}``), through action files as in the window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.geometry.footprints import parse_base
from tabletop.rulesets import apply_action
from tabletop.scenario.io import save_scenario
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Unit

B32 = parse_base("32mm")


def line_state(step: str = "end") -> GameState:
    """Red's 8 models in a line 1.5" apart: a1 and a8 are 9.24" apart (more than 9")."""
    line = Unit("line", "red", ("INFANTRY",), 6, 1, 7, 1,
                tuple(Model(f"a{i}", B32, at=(2.0 + 1.5 * (i - 1), 10.0)) for i in range(1, 9)))
    pair = Unit("pair", "red", ("INFANTRY",), 6, 1, 7, 1,
                (Model("p1", B32, at=(2.0, 20.0)), Model("p2", B32, at=(3.5, 20.0))))
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 1, (Model("f1", B32, at=(40.0, 30.0)),))
    return GameState("coherency", "wh40k-11e", Battle(2, "red", "movement", step=step),
                     (Player("red"), Player("blue")), Battlefield(60.0, 44.0),
                     units=(line, pair, foe))


def removed(res) -> list[tuple[str, bool]]:  # type: ignore[no-untyped-def]
    return [(str(e["model"]), bool(e.get("chosen"))) for e in res.events
            if e.get("kind") == "destroyed" and e.get("reason") == "coherency"]


def test_without_a_choice_the_program_removes_one_model() -> None:
    res = apply_action(line_state(), {"do": "next"})
    assert res.ok and removed(res) == [("a8", False)]


def test_the_players_choice_goes_first_and_only_as_far_as_needed() -> None:
    res = apply_action(line_state(), {"do": "next", "remove": ["a1", "a2"]})
    assert res.ok, res.reasons
    assert removed(res) == [("a1", True)]  # coherent again: a2 stays
    ids = [m.id for m in res.state.unit("line").models]  # type: ignore[union-attr]
    assert "a1" not in ids and "a2" in ids and "a8" in ids


def test_a_choice_in_a_unit_in_coherency_or_before_the_end_is_refused() -> None:
    res = apply_action(line_state(), {"do": "next", "remove": ["p1"]})
    assert not res.ok and "in coherency" in res.reasons[0]
    early = line_state("move-units")
    res = apply_action(early, {"do": "next", "remove": ["a1"]})
    assert not res.ok and "does not end" in res.reasons[0]
    assert res.state is early
    with pytest.raises(UserError, match="model ids"):
        apply_action(line_state(), {"do": "next", "remove": ["nobody"]})


def test_the_choice_replays_from_an_action_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "line.toml"
    save_scenario(line_state(), scenario)
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([{"do": "next", "remove": ["a1"]}]))
    assert main(["apply", str(scenario), str(actions)]) == 0
    out = json.loads(capsys.readouterr().out)
    events = out["results"][0]["events"]
    assert {"kind": "destroyed", "model": "a1", "reason": "coherency", "chosen": True} in events

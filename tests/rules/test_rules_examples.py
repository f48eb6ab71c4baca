"""Each example of spec/examples driven through an action file of tests/actions with
``tabletop apply``; saving between actions changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.rulesets import apply_actions
from tabletop.scenario.io import dumps_scenario, load_scenario

from support.paths import ACTIONS, SPEC_EXAMPLES

EXAMPLES = SPEC_EXAMPLES
ACTIONS = ACTIONS


def _example(name: str) -> Path:
    path = EXAMPLES / name
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    return path


def _apply(capsys: pytest.CaptureFixture[str], scenario: Path, actions: Path,
           *extra: str) -> dict[str, object]:
    assert main(["apply", str(scenario), str(actions), *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _events(result: dict[str, object], kind: str) -> list[dict[str, object]]:
    return [e for e in result["events"] if e["kind"] == kind]  # type: ignore[union-attr,index]


def test_command_phase_example(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "after.toml"
    res = _apply(capsys, _example("command-phase.toml"), ACTIONS / "command-phase.json",
                 "-o", str(out))
    results = res["results"]
    assert all(r["ok"] for r in results)  # type: ignore[union-attr]
    cp = _events(results[1], "cp")  # type: ignore[index]
    assert [(e["player"], e["cp"]) for e in cp] == [("red", 1), ("blue", 5)]
    shocks = _events(results[2], "battle-shock")  # type: ignore[index]
    assert [e["unit"] for e in shocks] == ["scouts", "guard", "bikers", "tank"]
    assert all(sum(e["dice"]) >= e["Ld"] if e["passed"] else sum(e["dice"]) < e["Ld"]
               for e in shocks)  # type: ignore[operator]
    state = load_scenario(out)
    scouts = state.unit("scouts")
    passed = shocks[0]["passed"]
    assert scouts.battle_shocked is (not passed)  # type: ignore[union-attr]
    assert res["state"] == {"round": 3, "active_player": "red", "phase": "movement",
                            "step": "start"}


@pytest.mark.parametrize("name", ["fall-back.toml", "fall-back.json"])
def test_fall_back_example(capsys: pytest.CaptureFixture[str], name: str) -> None:
    res = _apply(capsys, _example(name), ACTIONS / "fall-back.json")
    oks = [r["ok"] for r in res["results"]]  # type: ignore[union-attr]
    assert oks == [True, False, False, True, False, True, False,
                   True, True, True, True, True, True, True, True]
    r = res["results"]
    assert "engaged" in r[1]["reasons"][0] and "engaged" in r[2]["reasons"][0]  # type: ignore
    assert "m1" in " ".join(r[4]["reasons"])  # type: ignore[index]
    assert any("sq2" in x and "unengaged" in x for x in r[6]["reasons"])  # type: ignore[index]
    assert _events(r[13], "commit")[0]["mode"] == "ordered-retreat"  # type: ignore[index]


def test_fall_back_desperate_escape(capsys: pytest.CaptureFixture[str]) -> None:
    res = _apply(capsys, _example("fall-back.toml"), ACTIONS / "fall-back-desperate.json")
    r = res["results"]
    assert all(x["ok"] for x in r)  # type: ignore[union-attr]
    assert _events(r[1], "mortal-wounds") == [  # type: ignore[index]
        {"kind": "mortal-wounds", "unit": "squad", "model": "sq5", "wounds": 1}]
    assert _events(r[1], "destroyed") == [  # type: ignore[index]
        {"kind": "destroyed", "model": "sq5", "by": "a hazard roll (desperate escape)"}]
    shock = _events(r[6], "battle-shock")[0]  # type: ignore[index]
    assert shock["dice"] == [3, 4] and shock["passed"] is True


def test_reserves_and_transport_example(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    out = tmp_path / "after.json"
    res = _apply(capsys, _example("reserves-and-transport.toml"),
                 ACTIONS / "reserves-and-transport.json", "-o", str(out))
    r = res["results"]
    oks = [x["ok"] for x in r]  # type: ignore[union-attr]
    refused = [i for i, x in enumerate(oks) if not x]
    assert refused == [0, 3, 6, 29]
    assert "enemy deployment zone" in r[3]["reasons"][0]  # type: ignore[index]
    assert "ruin-north-wall" in r[29]["reasons"][0]  # type: ignore[index]
    assert _events(r[20], "commit")[0]["mode"] == "tactical"  # type: ignore[index]
    state = load_scenario(out)
    assert state.unit("reserve-squad").location == "battlefield"  # type: ignore[union-attr]
    assert state.unit("passengers").location == "battlefield"  # type: ignore[union-attr]
    assert "advanced" in state.unit("passengers").flags


@pytest.mark.parametrize(("scenario", "actions"), [
    ("fall-back.toml", "fall-back.json"),
    ("fall-back.toml", "fall-back-desperate.json"),
    ("reserves-and-transport.toml", "reserves-and-transport.json"),
    ("command-phase.toml", "command-phase.json"),
])
def test_one_by_one_with_saves_gives_the_same_file(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, scenario: str,
                                                   actions: str) -> None:
    src = _example(scenario)
    acts = json.loads((ACTIONS / actions).read_text())
    all_at_once = tmp_path / "all.toml"
    _apply(capsys, src, ACTIONS / actions, "-o", str(all_at_once))
    current = src
    for i, a in enumerate(acts):
        one = tmp_path / f"a{i}.json"
        one.write_text(json.dumps([a]))
        nxt = tmp_path / f"s{i}.toml"
        _apply(capsys, current, one, "-o", str(nxt))
        current = nxt
    assert current.read_text() == all_at_once.read_text()
    state, _ = apply_actions(load_scenario(src), acts)
    assert dumps_scenario(state) == all_at_once.read_text()


def test_malformed_action_file_exits_2_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = _example("fall-back.toml")
    bad = tmp_path / "bad.json"
    out = tmp_path / "out.toml"
    for text, words in [("[{\"do\": \"next\"}, {\"do\": \"jump\"}]", "action 1"),
                        ("[{\"do\": \"select\", \"unit\": \"nobody\", \"move\": \"normal\"}]",
                         "unit"),
                        ("not json", "invalid JSON")]:
        bad.write_text(text)
        assert main(["apply", str(src), str(bad), "-o", str(out)]) == 2
        assert words in capsys.readouterr().err
        assert not out.exists()


def test_user_triggers_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    trig = tmp_path / "t.json"
    trig.write_text(json.dumps([{"at": "at the start of the Movement phase", "name": "beacon",
                                 "effect": "gain-cp", "target": "red", "amount": 2}]))
    acts = tmp_path / "a.json"
    acts.write_text(json.dumps([{"do": "next"}]))
    res = _apply(capsys, _example("fall-back.toml"), acts, "--triggers", str(trig))
    cp = _events(res["results"][0], "cp")  # type: ignore[index]
    assert cp == [{"kind": "cp", "player": "red", "gained": 2, "cp": 4}]


def test_t9a_actions_go_to_the_t9a_rules(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    acts = tmp_path / "t9a.json"
    acts.write_text(json.dumps([{"do": "next"}, {"do": "next"},
                                {"do": "select", "unit": "knights", "move": "march"},
                                {"do": "forward", "distance": 2.0},
                                {"do": "wheel", "angle": "left"}]))
    assert main(["apply", str(_example("t9a-lines.toml")), str(acts)]) == 2
    assert "action 4" in capsys.readouterr().err
    acts.write_text(json.dumps([{"do": "next"}, {"do": "next"},
                                {"do": "select", "unit": "knights", "move": "march"},
                                {"do": "forward", "distance": 2.0}]))
    res = _apply(capsys, _example("t9a-lines.toml"), acts)
    assert [r["ok"] for r in res["results"]][:2] == [True, True]  # type: ignore[index]
    assert res["state"]["phase"] == "movement"  # type: ignore[index]

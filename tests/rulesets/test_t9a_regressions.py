"""t9a-2 faults of issue #13, each a regression test played through an action file.

The docstrings quote seed 001 (the Russian text of the Movement phase) with a gloss, and the
ruling of ``spec/rulings.md`` that settles what the seed leaves open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.action_files import block, events, play, t9a

NEAR_ENEMY = block("e", "red", at=(30.0, 22.0))
"""An enemy within 8" of a blue block at (30, 30): a march needs a March Test."""


def _marching(tmp_path: Path, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rock = {"id": "rock", "kind": "impassable",
            "polygon": [[32.5, 24.0], [34.0, 24.0], [34.0, 25.5], [32.5, 25.5]]}
    return play(tmp_path, t9a([block("u"), NEAR_ENEMY], terrain=[rock]), actions)["results"]


def test_a_failed_march_test_stands_after_a_refused_commit(tmp_path: Path) -> None:
    """Seed 001: "Если тест провален, то подразделение все равно совершает Марш, но его дальность
    уменьшается до значения показателя Скорости Наступления" (if the test is failed, the unit
    still marches, but its distance is reduced to its Advance Rate). Rulings, "Dice stand": a
    failed March Test still caps the march at the Advance Rate whatever move type is chosen next.
    """
    r = _marching(tmp_path, [
        {"do": "select", "unit": "u", "move": "march", "dice": [6, 6]},  # 12 > Dis 7: failed
        {"do": "forward", "distance": 5.0},
        {"do": "commit"},  # ends 0.53" from the rock: refused, the unit goes back
        {"do": "select", "unit": "u", "move": "advance"},
        {"do": "select", "unit": "u", "move": "march", "dice": [1, 1]},
        {"do": "forward", "distance": 5.5},
        {"do": "forward", "distance": 4.0},
    ])
    assert events(r[0], "march-test")[0]["passed"] is False
    assert r[1]["ok"] and not r[2]["ok"]
    assert not r[3]["ok"] and "failed its March Test" in r[3]["reasons"][0]
    assert r[4]["ok"] and events(r[4], "roll") == []  # no new test: the dice stand
    assert events(r[4], "stood") == [{"kind": "stood", "what": "march-test", "unit": "u",
                                      "dice": [6, 6]}]
    assert events(r[4], "march-test")[0]["passed"] is False
    assert not r[5]["ok"] and "Advance Rate (failed March Test) of 5" in r[5]["reasons"][0]
    assert r[6]["ok"]


def test_a_passed_march_test_is_not_taken_again(tmp_path: Path) -> None:
    """Rulings, "Dice stand": a March Test is made once per unit per phase."""
    r = _marching(tmp_path, [
        {"do": "select", "unit": "u", "move": "march", "dice": [1, 2]},
        {"do": "forward", "distance": 5.0},
        {"do": "commit"},
        {"do": "select", "unit": "u", "move": "march", "dice": [6, 6]},
        {"do": "forward", "distance": 6.0},
    ])
    assert not r[2]["ok"] and r[3]["ok"] and events(r[3], "roll") == []
    assert events(r[3], "march-test")[0]["passed"] is True
    assert r[4]["ok"]  # the March Rate of 10, not the Advance Rate


@pytest.mark.parametrize("angle", [350.0, -350.0, 180.5, 1e6, -1e6])  # beyond: exit 2
def test_a_wheel_turns_at_most_180_degrees_before_any_swept_area_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, angle: float) -> None:
    """Seed 001: "Во время движения вперед подразделение может пройти расстояние, не
    превышающее показатель Скорости Наступления этого подразделения, и может совершать любое
    количество Поворотов" (moving forwards, the unit may go a distance not exceeding its Advance
    Rate and make any number of wheels). Rulings: each wheel turns at most 180 degrees; four
    wheels of 350 degrees no longer let a forward Advance end behind its start, and a wheel of a
    million degrees is refused before its swept area (a vertex per degree) is built."""
    from tabletop.rulesets.t9a_2 import movement

    def no_sweep(*args: object, **kw: object) -> object:
        raise AssertionError("a swept area was built for a refused wheel")

    monkeypatch.setattr(movement, "wheel_sweep", no_sweep)
    r = play(tmp_path, t9a([block("u")]), [
        {"do": "select", "unit": "u", "move": "advance"},
        *[{"do": "wheel", "angle": angle}] * 4,
    ])["results"]
    assert r[0]["ok"]
    for res in r[1:]:
        assert not res["ok"] and "at most 180 degrees" in res["reasons"][0]


def test_an_about_face_inside_an_advance_keeps_the_forward_legs_within_the_rate(
        tmp_path: Path) -> None:
    """Seed 001, as above: forwards "a distance not exceeding the Advance Rate". Rulings: the
    forward legs of one move add up to at most the rate (forward 3, wheel 180, forward 3 with an
    Advance Rate of 5 moved a single model 6" forwards), and the per-model displacement cap
    still applies."""
    one = block("u", models=1, files=1)
    r = play(tmp_path, t9a([one]), [
        {"do": "select", "unit": "u", "move": "advance"},
        {"do": "forward", "distance": 3.0},
        {"do": "wheel", "angle": 180.0},
        {"do": "forward", "distance": 3.0},
        {"do": "forward", "distance": 2.0},
        {"do": "commit"},
    ])["results"]
    assert [x["ok"] for x in r] == [True, True, True, False, True, True]
    assert "forward legs of this move would add up to 6.00\"" in r[3]["reasons"][0]
    assert "Advance Rate of 5" in r[3]["reasons"][0]


def test_a_unit_fleeing_off_the_board_panics_the_friends_it_passed_and_those_near(
        tmp_path: Path) -> None:
    """Seed 001: "Если это движение приводит подразделение в контакт с краем стола и далее,
    подразделение считается уничтоженным ... это может вызвать тест на панику у расположенных
    рядом дружественных подразделений" (if the move brings the unit into contact with the table
    edge, it is destroyed ... this may cause Panic tests of friendly units nearby). Rulings: it
    first resolves the Panic tests of the friends it passed through; then every friendly unit
    within 6" of where it was destroyed takes a Panic test."""
    units = [block("runner", at=(30.0, 40.0), fleeing=True), block("e", "red", at=(30.0, 20.0)),
             block("f1", at=(30.0, 44.0)), block("f2", at=(37.0, 46.0)),
             block("far", at=(60.0, 10.0))]
    # rally 6+6 fails; flee 6+6 reaches the edge; f1: passed through (1+1), then near (1+1);
    # f2: near (1+1); "far" is more than 6" away and takes none
    res = play(tmp_path, t9a(units, step="rally"),
               [{"do": "next", "dice": [6, 6, 6, 6, 1, 1, 1, 1, 1, 1]}])["results"][0]
    assert res["ok"]
    gone = [e for e in events(res, "destroyed") if e.get("unit") == "runner"]
    assert gone and gone[0]["reason"] == "fled into the battlefield edge"
    tests = [(e["unit"], e["cause"]) for e in events(res, "panic-test")]
    assert tests == [("f1", "unit runner fled through it"),
                     ("f1", "unit runner was destroyed within 6\" of it, fleeing off the "
                            "battlefield"),
                     ("f2", "unit runner was destroyed within 6\" of it, fleeing off the "
                            "battlefield")]


def test_dangerous_terrain_reads_its_x(tmp_path: Path) -> None:
    """Seed 001 names Dangerous Terrain (3) for flees; the scenario format gives a ``dangerous``
    piece its X with the key ``dangerous`` (1 to 5, default 1), which was refused as unknown."""
    marsh = {"id": "marsh", "kind": "dangerous", "dangerous": 3,
             "polygon": [[28.0, 24.0], [32.0, 24.0], [32.0, 26.0], [28.0, 26.0]]}
    r = play(tmp_path, t9a([block("u")], terrain=[marsh]), [
        {"do": "select", "unit": "u", "move": "march"},
        {"do": "forward", "distance": 8.0},
        {"do": "commit", "dice": [3, 4, 1, 6, 5]},
    ])["results"]
    assert all(x["ok"] for x in r)
    test = events(r[2], "dangerous-terrain")[0]
    assert test["feature"] == "dangerous terrain marsh" and test["value"] == 3
    assert test["hits"] == 2  # 3 and 1 are at most 3


def test_dangerous_x_is_only_for_dangerous_terrain(tmp_path: Path) -> None:
    import tomli_w

    from tabletop.errors import UserError
    from tabletop.scenario.io import loads_scenario

    doc = t9a([block("u")], terrain=[{"id": "rocks", "kind": "impassable", "dangerous": 2,
                                      "polygon": [[0, 0], [1, 0], [1, 1]]}])
    with pytest.raises(UserError) as err:
        loads_scenario(tomli_w.dumps(doc), fmt="toml", source="x.toml")
    assert any("terrain[0]" in line and 'kind "dangerous"' in line for line in err.value.lines)


def test_a_reform_without_a_facing_keeps_the_units_facing(tmp_path: Path) -> None:
    """spec/actions.md: ``{"do": "reform", "files": n, "facing": f}``, ``facing`` optional (the
    fuzz tests found a reform without it raising KeyError); the staged reform is saved with the
    facing it kept, so the game saved mid-move loads back."""
    out = play(tmp_path, t9a([block("u", models=6, files=3, facing=90.0)]), [
        {"do": "select", "unit": "u", "move": "reform"},
        {"do": "reform", "files": 2},
    ], "-o", str(tmp_path / "mid.toml"))
    assert all(x["ok"] for x in out["results"])
    assert events(out["results"][1], "manoeuvre")[0]["facing"] == 90.0
    from tabletop.scenario.io import load_scenario

    sel = load_scenario(tmp_path / "mid.toml").battle.selection
    assert sel is not None and sel.staged[0]["facing"] == 90.0

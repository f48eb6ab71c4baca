"""wh40k-11e faults of issue #13, each a regression test played through an action file.

The docstrings quote seeds 000 (Movement phase) and 004 (Command phase) and the ruling of
``spec/rulings.md`` that settles what the seeds leave open.
"""

from __future__ import annotations

from pathlib import Path

from action_files import events, play, squad, wh40k

MOB = squad("mob", "blue", [(23.0, 20.0), (23.0, 21.4), (23.0, 22.8)])
"""An enemy unit engaging a red squad standing at x = 20 (1.74" apart, within 2")."""


def _engaged_squad(W: int = 1, **kw: object) -> dict[str, object]:
    return squad("sq", "red", [(20.0, 20.0), (20.0, 21.4), (20.0, 22.8), (18.7, 21.4),
                               (18.7, 22.8)], W=W, **kw)


def test_an_action_naming_a_model_killed_earlier_is_refused_and_the_file_goes_on(
        tmp_path: Path) -> None:
    """Seed 000, 09.07: "Desperate Escape: ... Make a hazard roll for each model in your unit
    (06.03)." Rulings: forms of actions are checked against the state the action file starts
    from; an action that names a unit or model destroyed since is refused by the rules, with the
    reason, and later actions still run."""
    out = play(tmp_path, wh40k([_engaged_squad(), MOB]), [
        {"do": "select", "unit": "sq", "move": "fall-back", "mode": "desperate-escape",
         "dice": [6, 6, 6, 6, 1]},
        {"do": "move", "model": "sq5", "path": [[14.0, 22.8]]},
        {"do": "move", "model": "sq1", "path": [[15.0, 20.0]]},
    ])
    first, gone, later = out["results"]
    assert first["ok"] and any(e.get("model") == "sq5" for e in events(first, "destroyed"))
    assert not gone["ok"]
    assert gone["reasons"] == ["sq5 was destroyed by a hazard roll (desperate escape) in action 0"]
    assert later["ok"]


def test_a_destroyed_unit_named_later_is_refused_with_the_cause(tmp_path: Path) -> None:
    """As above, for a whole unit: the hazard rolls of a Desperate Escape kill the lone model of
    a unit; selecting the unit again is refused, not a file error."""
    lone = squad("solo", "red", [(20.0, 20.0)])
    out = play(tmp_path, wh40k([lone, squad("foe", "blue", [(21.6, 20.0)])]), [
        {"do": "select", "unit": "solo", "move": "fall-back", "mode": "desperate-escape",
         "dice": [1]},
        {"do": "select", "unit": "solo", "move": "normal"},
    ])
    assert out["results"][1]["reasons"] == [
        "solo was destroyed by a hazard roll (desperate escape) in action 0"]


def test_an_advance_roll_stands_after_a_refused_commit(tmp_path: Path) -> None:
    """Seed 000, 09.06: "Before Moving: Make an advance roll by rolling one D6." Rulings, "Dice
    stand": a roll made for a unit's move is made once per unit per phase; if the move is refused
    the models go back, the dice are not rolled again, and an advance keeps its roll."""
    lone = squad("a", "red", [(10.0, 10.0)])
    foe = squad("foe", "blue", [(20.0, 10.0)])
    out = play(tmp_path, wh40k([lone, foe]), [
        {"do": "select", "unit": "a", "move": "advance", "dice": [1]},
        {"do": "move", "model": "a1", "path": [[17.0, 10.0]]},  # 7" = M 6 + 1, ends engaged
        {"do": "commit"},
        {"do": "select", "unit": "a", "move": "advance", "dice": [6]},  # the 1 stands
        {"do": "move", "model": "a1", "path": [[17.5, 10.0]]},  # 7.5" > 7"
        {"do": "move", "model": "a1", "path": [[15.5, 13.0]]},
        {"do": "commit"},
    ])
    r = out["results"]
    assert [x["ok"] for x in r] == [True, True, False, True, False, True, True]
    assert events(r[3], "roll") == []
    assert events(r[3], "stood") == [{"kind": "stood", "what": "advance", "unit": "a",
                                      "dice": [1]}]
    assert "7.00\" advance move" in " ".join(r[4]["reasons"])


def test_desperate_escape_casualties_stay_and_its_hazard_rolls_are_not_made_again(
        tmp_path: Path) -> None:
    """Seed 000, 09.07, as above. Rulings, "Dice stand": if the move is refused, casualties stay
    removed and a Desperate Escape makes no new hazard rolls."""
    out = play(tmp_path, wh40k([_engaged_squad(), MOB]), [
        {"do": "select", "unit": "sq", "move": "fall-back", "mode": "desperate-escape",
         "dice": [1, 1, 6, 6, 6]},
        {"do": "commit"},  # still engaged: refused
        {"do": "select", "unit": "sq", "move": "fall-back", "mode": "desperate-escape",
         "dice": [6, 6, 6, 6, 6]},
    ], "-o", str(tmp_path / "after.toml"))
    first, refused, again = out["results"]
    dead = [e["model"] for e in events(first, "destroyed")]
    assert len(dead) == 2 and not refused["ok"]
    assert again["ok"] and events(again, "roll") == [] and events(again, "mortal-wounds") == []
    assert events(again, "stood")[0]["dice"] == [1, 1, 6, 6, 6]
    saved = (tmp_path / "after.toml").read_text(encoding="utf-8")
    assert all(f'id = "{m}"' not in saved for m in dead)

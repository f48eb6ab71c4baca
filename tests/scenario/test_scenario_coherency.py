"""`tabletop check` warns about units out of coherency (valid files, exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.rulesets import apply_action
from tabletop.scenario.io import load_scenario, save_scenario

HEAD = """format = 1
name = "coherency"
ruleset = "wh40k-11e"

[battle]
round = 2
active_player = "red"
phase = "movement"
step = "move-units"

[[players]]
id = "red"

[[players]]
id = "blue"
"""


def unit(uid: str, xs: list[float], *, player: str = "red", y: float = 10.0,
         extra: str = "") -> str:
    models = ",\n".join(f'  {{ id = "{uid}{i}", base = "32mm", at = [{x}, {y}] }}'
                        for i, x in enumerate(xs, 1))
    return (f'\n[[units]]\nid = "{uid}"\nname = "{uid.title()} Squad"\nplayer = "{player}"\n'
            f'keywords = ["INFANTRY"]\nM = 6\nW = 1\nLd = 7\nOC = 1\n{extra}models = [\n'
            f'{models},\n]\n')


def check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    f = tmp_path / "s.toml"
    f.write_text(text)
    rc = main(["check", str(f)])
    captured = capsys.readouterr()
    assert captured.out.strip() == f"{f}: ok"
    return rc, captured.err.strip().splitlines()


def test_a_unit_out_of_coherency_gets_one_warning_line_naming_models_and_distances(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a is a line with a 3" gap after a3 (a4 not within 2" of anyone); b is fine; c spans 11"
    text = HEAD + unit("a", [2, 3.5, 5, 9.3]) + unit("b", [2, 3.5], y=20.0) + unit(
        "c", [20, 21.5, 23, 24.5, 26, 27.5, 29, 30.5, 32.3], y=30.0)
    rc, err = check(tmp_path, text, capsys)
    assert rc == 0
    assert len(err) == 2, err
    a, c = err
    assert "warning: units[0]: a (A Squad) is out of coherency" in a
    assert 'a4 is not within 2" of another model (closest a3 at 3.04")' in a
    assert "the end of the turn would remove 1 model (a4)" in a
    assert "warning: units[2]" in c and 'c1 and c9 are 11.04" apart (more than 9")' in c
    assert "and " in c and "more" in c  # pairs beyond the first three are counted


def test_coherent_units_reserves_and_the_unit_being_moved_get_no_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reserves = ('\n[[units]]\nid = "r"\nplayer = "red"\nkeywords = ["INFANTRY"]\nM = 6\nW = 1\n'
                'Ld = 7\nOC = 1\nlocation = "strategic-reserves"\nmodels = [\n'
                '  { id = "r1", base = "32mm" },\n  { id = "r2", base = "32mm" },\n]\n')
    text = HEAD + unit("m", [2, 3.5]) + reserves + unit("b", [2, 3.5], y=20.0)
    rc, err = check(tmp_path, text, capsys)
    assert rc == 0 and err == []
    # saved in the middle of a move that leaves m2 out of coherency: the commit will judge it
    state = load_scenario(tmp_path / "s.toml")
    for action in ({"do": "select", "unit": "m", "move": "normal"},
                   {"do": "move", "model": "m2", "path": [[8.5, 10.0]]}):
        res = apply_action(state, action)
        assert res.ok, res.reasons
        state = res.state
    save_scenario(state, tmp_path / "mid.toml")
    assert main(["check", str(tmp_path / "mid.toml")]) == 0
    assert capsys.readouterr().err == ""

"""``tabletop scenarios`` and ``play --list``: the shipped scenarios, found without the README."""

from __future__ import annotations

import pytest

from tabletop.cli import main


def test_scenarios_lists_every_shipped_one(capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.scenario.io import shipped_names

    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for name in shipped_names():
        assert f"  {name}  " in out
    assert "t9a-2" in out and "Battle lines" in out
    assert main(["play", "--list"]) == 0
    assert capsys.readouterr().out == out


def test_play_help_names_the_t9a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "t9a-lines.toml" in text and "tabletop scenarios" in text

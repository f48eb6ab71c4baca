"""``tabletop zone`` and ``tabletop path``: taking to the skies (``--fly``) and the facing step of
a turning model (``--step``); bad values exit 2 naming what is accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shapely
import shapely.geometry

from tabletop.cli import main
from tabletop.scenario.io import save_scenario

from support.zones_boards import rect, state, unit

WALL = rect("wall", "impassable", 23.0, 10.0, 24.0, 30.0)


def _file(tmp_path: Path, *units) -> str:  # type: ignore[no-untyped-def]
    f = tmp_path / "board.toml"
    save_scenario(state(list(units), [WALL]), f)
    return str(f)


def _out(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_fly_reaches_behind_a_wall(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _file(tmp_path, unit("j", "red", [("j1", 20.0, 20.0)], M=12,
                             keywords=("INFANTRY", "FLY")))
    args = ["path", f, "--model", "j1", "--move", "normal", "--to", "29,20"]
    assert main(args) == 0
    walk = _out(capsys)
    assert not walk["legal"] and walk["reasons"][0]["rule"] == "unreachable"
    assert main([*args, "--fly"]) == 0
    fly = _out(capsys)
    assert fly["legal"] and fly["length"] == pytest.approx(9.0)
    # over the wall in a straight line, 2" less than M: 10" reach
    assert main([*args[:-1], "30.6,20", "--fly"]) == 0
    assert not _out(capsys)["legal"]
    zones = {}
    for extra in ([], ["--fly"]):
        assert main(["zone", f, "--model", "j1", "--move", "normal", *extra]) == 0
        zones[bool(extra)] = _out(capsys)
    behind = shapely.Point(29.0, 20.0)
    assert zones[True]["properties"]["max_distance"] == 10.0
    assert shapely.geometry.shape(zones[True]["geometry"]).contains(behind)
    assert not shapely.geometry.shape(zones[False]["geometry"]).contains(behind)


def test_fly_without_the_keyword_exits_2(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    f = _file(tmp_path, unit("i", "red", [("i1", 20.0, 20.0)]))
    for cmd in (["zone"], ["path"]):
        extra = ["--to", "21,20"] if cmd == ["path"] else []
        assert main([*cmd, f, "--model", "i1", "--move", "normal", "--fly", *extra]) == 2
        err = capsys.readouterr().err
        assert "cannot take to the skies" in err and "FLY keyword" in err


def test_a_finer_step_for_a_turning_model(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    f = _file(tmp_path, unit("r", "red", [("r1", 20.0, 20.0)], base="rect 25x50mm",
                             keywords=("MOUNTED",), M=6, facing=40.0))
    areas = {}
    for step in ("30", "7.5"):
        assert main(["zone", f, "--model", "r1", "--move", "normal", "--step", step]) == 0
        areas[step] = _out(capsys)["properties"]["area"]
    assert areas["7.5"] >= areas["30"] * (1 - 1e-9)
    assert main(["path", f, "--model", "r1", "--move", "normal", "--to", "22.3,20",
                 "--step", "7.5"]) == 0
    assert _out(capsys)["legal"]


@pytest.mark.parametrize("bad", ["0", "90.5", "abc", "nan", "-15", "inf"])
def test_a_bad_step_exits_2_naming_what_is_accepted(tmp_path: Path, bad: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    f = _file(tmp_path, unit("r", "red", [("r1", 20.0, 20.0)], base="rect 25x50mm"))
    for cmd in ("zone", "path"):
        extra = ["--to", "21,20"] if cmd == "path" else []
        with pytest.raises(SystemExit) as exc:
            main([cmd, f, "--model", "r1", "--move", "normal", "--step", bad, *extra])
        assert exc.value.code == 2
        assert "degrees from 1 to 90" in capsys.readouterr().err

"""``tabletop path`` to a point that is no legal end: the reasons in words (no geometry dumped)
and the nearest legal end with its path, which the rules accept."""

from __future__ import annotations

import json
import math

import pytest

import tabletop
from tabletop.cli import main
from tabletop.scenario.io import load_scenario, shipped


def _path(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["path", *args]) == 0
    out = capsys.readouterr().out
    assert "POLYGON" not in out and "LINESTRING" not in out
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("model", "to"), [("int1", (30.0, 30.0)),    # among enemies, too far
                                           ("int1", (200.0, 30.0)),   # off the battlefield
                                           ("lr1", (40.0, 12.0))])    # a hull that turns
def test_unreachable_point_gives_nearest_legal_end_and_its_path(
        capsys: pytest.CaptureFixture[str], model: str, to: tuple[float, float]) -> None:
    res = _path(capsys, "demo.toml", "--model", model, "--move", "normal",
                "--to", f"{to[0]},{to[1]}")
    assert res["legal"] is False and res["path"] == []
    reasons = res["reasons"]
    assert isinstance(reasons, list) and reasons
    assert all("geometry" not in r and r["message"] for r in reasons)
    near = res["nearest"]
    assert isinstance(near, dict)
    x, y = near["at"]
    assert near["away"] == pytest.approx(math.dist((x, y), to), abs=1e-5)
    assert near["path"][-1][:2] == pytest.approx([x, y], abs=1e-5)
    st = load_scenario(shipped("demo.toml"))
    zone = tabletop.legal_zone(st, model, "normal")
    assert zone.contains(x, y)
    # nothing legal is much closer: the zone's own nearest point
    assert math.dist(zone.nearest(*to), to) == pytest.approx(near["away"], abs=1e-3)
    check = tabletop.validate_path(st, model, "normal", near["path"])
    assert check.legal, check.violations


def test_legal_point_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    res = _path(capsys, "demo.toml", "--model", "int1", "--move", "normal", "--to", "11.5,8.5")
    assert res["legal"] is True and res["reasons"] == [] and "nearest" not in res
    assert res["path"][-1] == [11.5, 8.5]

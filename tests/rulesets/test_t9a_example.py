"""t9a-lines.toml through action files, and every real unit profile as a block."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.rulesets.t9a_2 import movement as t9a

from support.t9a_support import EXAMPLE, SHARED, act, block, load_example, state

pytestmark = pytest.mark.skipif(not EXAMPLE.exists(), reason="../shared is absent")

PROFILES = SHARED / "data" / "t9a" / "t9a_2nd_ed_models_adv_mar_base.csv"


def _apply(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           actions: list[dict[str, Any]]) -> dict[str, Any]:
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(actions), encoding="utf-8")
    out = tmp_path / "result.toml"
    assert main(["apply", str(EXAMPLE), str(path), "-o", str(out)]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    data["out"] = out
    return data


def _events(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in result["events"] if e["kind"] == kind]


def test_march_test_for_spearmen_not_knights(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = _apply(tmp_path, capsys, [
        {"do": "next"}, {"do": "next", "dice": [2, 2]},
        {"do": "select", "unit": "spearmen", "move": "march", "dice": [6, 6]},
        {"do": "forward", "distance": 4.5},
        {"do": "forward", "distance": 4.0},
        {"do": "commit"},
        {"do": "select", "unit": "knights", "move": "march"},
        {"do": "forward", "distance": 16.0},
        {"do": "commit"},
    ])
    res = data["results"]
    mt = _events(res[2], "march-test")
    assert len(mt) == 1 and mt[0]["passed"] is False and mt[0]["enemies"] == ["warband"]
    assert res[3]["ok"] is False and "failed March Test" in res[3]["reasons"][0]
    assert res[4]["ok"] and res[5]["ok"]
    assert res[6]["ok"] and not _events(res[6], "march-test")
    assert res[7]["ok"] and res[8]["ok"], res
    assert data["state"]["step"] == "move-units"
    from tabletop.scenario.io import load_scenario
    final = load_scenario(data["out"])
    assert final.unit("knights").at == pytest.approx((60.0, 24.0))
    assert "marched" in final.unit("spearmen").flags


@pytest.mark.parametrize(("dice", "passed"), [([2, 2], True), ([3, 2], False)])
def test_archers_rally_on_discipline_4(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       dice: list[int], passed: bool) -> None:
    data = _apply(tmp_path, capsys, [{"do": "next"}, {"do": "next", "dice": dice}])
    rally = _events(data["results"][1], "rally")
    assert len(rally) == 1
    assert rally[0]["unit"] == "archers" and rally[0]["Dis"] == 4 and rally[0]["decimated"]
    assert rally[0]["passed"] is passed
    assert bool(_events(data["results"][1], "flee")) is not passed


def test_example_loads_and_blocks_are_clear() -> None:
    st = load_example()
    assert t9a.march_test_enemies(st, st.unit("spearmen")) == ["warband"]
    assert t9a.march_test_enemies(st, st.unit("knights")) == []


_NUM = re.compile(r'^\s*(\d+(?:\.\d+)?)"?\s*$')
_BASE = re.compile(r"^\s*(\d+)\s*[x×]\s*(\d+)\s*$")


def _profiles() -> list[Any]:
    if not PROFILES.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{PROFILES} is absent"))]
    out = []
    with PROFILES.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            adv, mar, base = _NUM.match(row["Adv"]), _NUM.match(row["Mar"]), _BASE.match(
                row["Base"])
            if adv and mar and base:
                out.append(pytest.param((float(adv.group(1)), float(mar.group(1)),
                                         f"rect {base.group(1)}x{base.group(2)}mm"),
                                        id=f"{row['catalogue']}:{row['model']}"))
    return out


@pytest.mark.parametrize("profile", _profiles())
def test_profile_blocks_load_and_move(profile: tuple[float, float, str] | None) -> None:
    assert profile is not None
    adv, mar, base = profile
    u = block("u", Adv=adv, Mar=mar, base=base, models=10, files=5, at=(36.0, 40.0))
    g = t9a.block_geom(u)
    assert len(g.model_polygons()) == 10
    assert g.polygon.area == pytest.approx(sum(p.area for p in g.model_polygons()))
    st = state(u, size=(72.0, 72.0))
    for move, rate in (("advance", adv), ("march", mar)):
        s, ok, r, _ = act(st, {"do": "select", "unit": "u", "move": move})
        assert ok, r
        assert t9a.straight_range(s, "forward") == pytest.approx(rate, abs=1e-6)
        s, ok, r, _ = act(s, {"do": "forward", "distance": rate})
        assert ok, r
        _, ok, r, _ = act(s, {"do": "forward", "distance": 0.01})
        assert not ok
        s, ok, r, _ev = act(s, {"do": "commit"})
        assert ok, r
        assert s.unit("u").at == pytest.approx((36.0, 40.0 - rate))


def test_profiles_file_has_plain_rows() -> None:
    if not PROFILES.exists():
        pytest.skip(f"{PROFILES} is absent")
    assert len(_profiles()) >= 140  # 144 of the 210 rows have plain numbers and a base

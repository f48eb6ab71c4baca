"""``tabletop threat`` and ``tabletop safe``: the documented shapes, the pictures, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import shape

from tabletop.cli import main
from tabletop.rulesets.wh40k_11e.threat import unit_threat
from tabletop.scenario.io import load_scenario, shipped

from support.pngio import read_png

DEMO = str(shipped("demo.toml"))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_threat_json_is_the_documented_shape_and_the_window_geometry(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "threat", DEMO, "--unit", "hormagaunts", "--format", "json",
                        "--charge-odds", "7+")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "tabletop-threat/1" and doc["ruleset"] == "wh40k-11e"
    assert doc["unit"] == "hormagaunts" and doc["move"] == "normal" and doc["charges"]
    assert any("not simulated" in r for r in doc["rules"])
    assert [b["roll"] for b in doc["bands"]] == list(range(2, 8))
    assert [b["chance_exact"] for b in doc["bands"]][:3] == ["1", "35/36", "11/12"]
    th = unit_threat(load_scenario(shipped("demo.toml")), "hormagaunts", max_roll=7)
    for b, want in zip(doc["bands"][1:], th.bands[1:], strict=True):
        got = shape(b["charge"])
        # the written region holds the computed one and is within the rounding of it
        assert want.charge.difference(got).area < 1e-9
        assert got.difference(want.charge).area < 0.002 * want.charge.length
    assert shape(doc["bands"][0]["charge"]).is_empty


def test_threat_geojson_features(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "threat", DEMO, "--unit", "warriors")
    assert code == 0
    doc = json.loads(out)
    assert doc["type"] == "FeatureCollection" and doc["properties"]["unit"] == "warriors"
    kinds = [f["properties"]["kind"] for f in doc["features"]]
    assert kinds[:2] == ["move", "advance"] and kinds.count("charge") == 11
    charges = [f for f in doc["features"] if f["properties"]["kind"] == "charge"]
    assert [f["properties"]["roll"] for f in charges] == list(range(12, 1, -1))
    assert charges[0]["properties"]["chance_exact"] == "1/36"
    assert _run(capsys, "threat", DEMO, "--unit", "warriors")[1] == out  # the same, byte for byte


def test_threat_of_an_engaged_unit_and_of_a_t9a_block(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, out, _ = _run(capsys, "threat", DEMO, "--unit", "genestealers", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and not doc["charges"] and doc["bands"] == []
    assert "cannot declare a charge" in doc["reason"]
    code, out, err = _run(capsys, "threat", str(shipped("t9a-lines.toml")), "--unit", "x")
    assert code == 2 and not out and "t9a-2 answers no threat ranges" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("args", "says"), [
    (["--unit", "nobody"], 'no unit "nobody"'),
    (["--unit", "bladeguard"], "in strategic reserves"),
    (["--unit", "warriors", "--charge-odds", "14+"], "is no odds for --charge-odds"),
    (["--unit", "warriors", "--format", "png"], "needs an output file"),
])
def test_threat_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                      says: str) -> None:
    code, out, err = _run(capsys, "threat", DEMO, *args)
    assert code == 2 and not out and says in err and len(err.strip().splitlines()) == 1


def test_threat_png_draws_the_bands_under_the_models(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "threat.png"
    code, said, _ = _run(capsys, "threat", DEMO, "--unit", "warriors", "--format", "png",
                         "-o", str(out))
    assert code == 0 and "wrote" in said
    plain = tmp_path / "plain.png"
    assert main(["show", DEMO, "-o", str(plain)]) == 0
    a, b = read_png(out), read_png(plain)
    assert a.shape[1] == b.shape[1] and a.shape[0] > b.shape[0]  # the legend below
    board = a[: b.shape[0]].astype(int) - b.astype(int)
    assert (np.abs(board).sum(axis=2) > 30).mean() > 0.2  # a fifth of the board shaded


def test_safe_json_geojson_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "safe", DEMO, "--model", "lt1", "--move", "normal",
                        "--odds", "9+")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "tabletop-safe/1" and doc["unit"] == "lieutenant"
    assert doc["odds"]["need"] == 9 and doc["odds"]["text"] == "safe unless 9+ is rolled (28%)"
    (m,) = doc["models"]
    zone, safe = shape(m["zone"]), shape(m["safe"])
    assert safe.difference(zone).area < 1e-9 and 0 < m["safe_area"] <= m["zone_area"]
    assert shapely.is_valid(safe)
    code, out, _ = _run(capsys, "safe", DEMO, "--unit", "intercessors", "--move", "advance",
                        "--roll", "3", "--objective", "2", "--format", "geojson")
    doc = json.loads(out)
    assert code == 0 and doc["properties"]["objective"] == 2
    assert [f["properties"]["kind"] for f in doc["features"]][:2] == ["zone", "safe"]
    png = tmp_path / "safe.png"
    code, _, _ = _run(capsys, "safe", DEMO, "--model", "lt1", "--move", "normal", "--format",
                         "png", "-o", str(png))
    assert code == 0 and png.stat().st_size > 1000


@pytest.mark.parametrize(("args", "says"), [
    (["--model", "nobody", "--move", "normal"], 'no model "nobody"'),
    (["--model", "lt1", "--move", "charge"], "safe ground answers normal, advance, fall-back"),
    (["--model", "lt1", "--move", "advance"], "needs its roll"),
    (["--model", "lt1", "--move", "normal", "--odds", "lots"], "is no odds for --odds"),
    (["--model", "lt1", "--move", "normal", "--objective", "0"], "objective 0"),
])
def test_safe_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                    says: str) -> None:
    code, out, err = _run(capsys, "safe", DEMO, *args)
    assert code == 2 and not out and says in err and len(err.strip().splitlines()) == 1

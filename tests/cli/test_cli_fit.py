"""``tabletop fit``: narrow passages and whether a base gets through each (issue 12, item 4)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tabletop import validate_path
from tabletop.cli import main
from tabletop.geometry.footprints import Hull, parse_base
from tabletop.geometry.passages import least_width, passages, width_across
from tabletop.scenario.io import load_scenario

from support.pngio import read_png

SCENARIO = """
format = 1
name = "Fit"
ruleset = "wh40k-11e"
[battle]
round = 2
active_player = "red"
phase = "movement"
[[players]]
id = "red"
[[players]]
id = "blue"
[[terrain]]
id = "w1"
kind = "impassable"
polygon = [[10.0, 21.0], [29.25, 21.0], [29.25, 23.0], [10.0, 23.0]]
[[terrain]]
id = "w2"
kind = "impassable"
polygon = [[30.75, 21.0], [50.0, 21.0], [50.0, 23.0], [30.75, 23.0]]
[[terrain]]
id = "pillar"
kind = "dense"
height = 4.0
polygon = [[50.9, 21.0], [52.0, 21.0], [52.0, 23.0], [50.9, 23.0]]
[[terrain]]
id = "rock"
kind = "impassable"
polygon = [[20.0, 30.0], [24.0, 30.0], [24.0, 33.0], [20.0, 33.0]]
[[terrain]]
id = "crate"
kind = "impassable"
polygon = [[25.2, 31.0], [27.0, 30.0], [28.0, 32.0], [26.2, 33.0]]
[[units]]
id = "tank"
player = "red"
keywords = ["VEHICLE"]
M = 10
W = 10
Ld = 6
OC = 3
[[units.models]]
id = "t1"
base = "hull"
at = [40.0, 8.0]
hull = [[-2.0, -3.5], [2.0, -3.5], [2.0, 3.5], [-2.0, 3.5]]
[[units]]
id = "bikes"
player = "red"
keywords = ["MOUNTED"]
M = 12
W = 3
Ld = 6
OC = 2
models = [{ id = "b1", base = "oval 60x35mm", at = [30.0, 18.0], facing = 90.0 }]
"""


@pytest.fixture
def fit_file(tmp_path: Path) -> Path:
    f = tmp_path / "fit.toml"
    f.write_text(SCENARIO)
    return f


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["fit", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_oval_passes_the_gap_lengthwise(fit_file: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(fit_file), "--base", "oval 60x35mm", "--format", "json")
    assert code == 0
    ans = json.loads(out)
    by = {tuple(p["between"]): p for p in ans["passages"]}
    gap = by[("w1", "w2")]
    assert gap["width"] == pytest.approx(1.5) and gap["passes"]
    assert gap["facing"] % 180 == pytest.approx(0.0)
    assert gap["needs"] == pytest.approx(35 / 25.4)
    # it fits up to 17.9 degrees off the gap (2 sqrt(b^2 cos^2 + a^2 sin^2) = 1.5)
    lo, hi = gap["facings"]
    assert hi - lo == pytest.approx(2 * 17.95, abs=0.2)
    assert not by[("w2", "pillar")]["passes"] and by[("w2", "pillar")]["facings"] is None
    assert not by[("rock", "crate")]["passes"]
    # the path checker agrees: straight through the gap at the facing fit gave, not across
    st = load_scenario(fit_file)
    assert validate_path(st, "b1", "normal", [(30.0, 18.0, gap["facing"]), (30.0, 26.0)]).legal
    assert not validate_path(st, "b1", "normal", [(30.0, 26.0)]).legal


def test_a_unit_id_gives_the_hull_and_its_keywords(fit_file: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(fit_file), "--base", "tank")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{fit_file}: base hull of t1 (tank): 7 passages")
    assert "dense terrain taller than 2\"" in lines[0]
    text = "\n".join(lines[1:])
    assert "w1 - w2 at (29.25, 22.00)-(30.75, 22.00): too narrow at every facing" in text
    assert "w1 - rock" in text and "passes facing 90 degrees" in text
    assert "but w1 shuts it" in text
    # --at: only what is near, nearest first
    code, out, _ = run(capsys, str(fit_file), "--base", "t1", "--at", "51,22")
    assert code == 0 and "w2 - pillar" in out.splitlines()[1]
    assert "rock" not in out


def test_png_draws_every_passage(fit_file: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "fit.png"
    code, out, _ = run(capsys, str(fit_file), "--base", "rect 25x50mm", "--format", "png",
                       "-o", str(png))
    assert code == 0 and out.startswith("wrote ")
    img = read_png(png)
    assert img.shape[0] > 800 and img.shape[1] > 1200
    # the green of a passage it gets through is drawn
    assert ((img[..., 0] == 90) & (img[..., 1] == 230) & (img[..., 2] == 120)).any()


@pytest.mark.parametrize(("args", "says"), [
    (["--base", "33 mm"], 'unknown base "33 mm"; write "32mm", "oval 60x35mm", '
                          '"rect 25x50mm" or "hull", or the id of a unit or model'),
    (["--base", "hull"], "a hull needs its polygon"),
    (["--base", "32mm", "--limit", "-1"], "--limit"),
    (["--base", "32mm", "--format", "png"], "--format png needs an output file"),
    (["--base", "32mm", "--at", "nan,3"], 'argument --at: "nan,3" is not a point: write X,Y in '
                                          "inches, e.g. 30.5,22"),
])
def test_bad_input_exits_2_naming_what_is_accepted(fit_file: Path, args: list[str], says: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(fit_file), *args)
    assert code == 2 and says in err and out == ""


def test_widths_are_exact() -> None:
    oval, rect = parse_base("oval 60x35mm"), parse_base("rect 25x50mm")
    assert least_width(oval)[0] == pytest.approx(35 / 25.4)
    assert least_width(rect)[0] == pytest.approx(25 / 25.4)
    a, b = 30 / 25.4, 17.5 / 25.4
    for f in (0.0, 20.0, 45.0, 90.0):
        want = 2 * math.sqrt((b * math.cos(math.radians(f))) ** 2 +
                             (a * math.sin(math.radians(f))) ** 2)
        assert width_across(oval, f, 0.0) == pytest.approx(want)
    tri = Hull(((-1.0, -1.0), (1.0, -1.0), (0.0, 2.0)))
    w, _ = least_width(tri)
    sampled = min(width_across(tri, 0.0, math.radians(d / 20)) for d in range(7200))
    assert sampled - 2e-3 <= w <= sampled  # (the width has a kink at its least)
    assert passages(60, 44, [], oval) == []

"""Two drafts compared (#29 item 3): ``tabletop survey diff A B`` on hand-made boards.

The board of :func:`support.survey_boards.gap_board` (two dense ruins 2.2" apart, the west one
2" from the left edge, the east one 3" from the right edge) and its drafts:

- the east ruin moved 1" east: the middle gap (3.2") opens for a 60 mm vehicle and stops being
  marginal for a 50 mm one; the gap at the right edge (2") closes for 60 mm and becomes
  marginal for 50 mm; infantry goes over both ruins: nothing changes for it;
- on open ground, an impassable wall across red's way out: red's phases to the objective and
  the centre grow, blue's do not;
- a terrain area moved (no effect on movement): no movement difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.survey.compare import boards_of
from tabletop.survey.diff import diff_boards
from tabletop.survey.jobs import plan_scenarios
from tabletop.survey.report import sorted_bases

from support.survey_boards import (
    board_text,
    gap_board,
    rect,
    round_base,
    survey_in_process,
    vehicle_base,
)

BASES = [round_base(32), vehicle_base(50), vehicle_base(60)]
AREA = [("area-1", "area", rect(20, 16, 24, 18))]
MOVED_AREA = [("area-1", "area", rect(21, 16, 25, 18))]
WALL = [("wall", "impassable", rect(8, 4, 22, 5))]


def boards(tmp_path: Path, a: str, b: str, reach: list[str]):  # type: ignore[no-untyped-def]
    files = []
    for name, text in (("a", a), ("b", b)):
        f = tmp_path / f"{name}.toml"
        f.write_text(text, encoding="utf-8")
        files.append(f)
    survey = survey_in_process(plan_scenarios(files, BASES, reach_bases=reach),
                               tmp_path / "s")
    found = {x.info.layout: x for x in boards_of(survey, sorted_bases(survey))}
    return found["a"], found["b"]


def test_a_ruin_moved_an_inch_opens_one_gap_and_closes_another(tmp_path: Path) -> None:
    a, b = boards(tmp_path, gap_board(extra=AREA), gap_board(east_x=17.1, extra=AREA), [])
    d = diff_boards(a, b)
    assert not d.empty and d.terrain == {"added": [], "removed": [], "moved": ["east"]}
    got = {(g.a, g.b): (g.before, g.after, g.changes) for g in d.gaps}
    assert got[("east", "west")][2] == {"opened": ["60mm"], "no longer marginal": ["50mm"]}
    assert got[("east", "west")][:2] == pytest.approx((2.2, 3.2))
    assert got[("east", "right edge")][2] == {"now marginal": ["50mm"], "closed": ["60mm"]}
    assert len(d.gaps) == 2     # nothing for the 32 mm infantry, nothing at the left edge
    lines = d.lines()
    assert lines[0] == "a -> b" and lines[1] == "terrain: moved east"
    assert any(line.startswith('gap ') and 'east - west (2.20" -> 3.20"): opened for 60mm'
               in line for line in lines)


def open_board(extra: list[tuple[str, str, list[tuple]]]) -> str:
    return board_text(30, 20, extra, {"red": rect(0, 0, 30, 3), "blue": rect(0, 17, 30, 20)},
                      [(15, 10)])


@pytest.mark.slow
def test_a_wall_across_the_way_out_costs_red_a_phase(tmp_path: Path) -> None:
    a, b = boards(tmp_path, open_board([]), open_board(WALL), ["32mm"])
    d = diff_boards(a, b)
    # red's 32 mm base (centre at y <= 3 - r) went straight to the objective (15, 10): within
    # 3" + 20 mm + r after 3.21", one move; to the centre, the same point, within 3" + r after
    # 4". Now around the wall's corner (8, 5): straight up 2.63", 0.65" of arc of radius r,
    # then 8.58" along the tangent towards (15, 10), 11.85" in all: 7.44" to the objective
    # (two moves of 5 or 6", one of 8), 8.22" to the centre (two of 8", one of 10)
    assert d.phases == ["red, 32mm, M=5: the centre 1 -> 2 phases",
                        "red, 32mm, M=5: objective 1 1 -> 2 phases",
                        "red, 32mm, M=6: the centre 1 -> 2 phases",
                        "red, 32mm, M=6: objective 1 1 -> 2 phases",
                        "red, 32mm, M=8: the centre 1 -> 2 phases"]
    assert d.terrain["added"] == ["wall"]


@pytest.mark.slow
def test_an_area_moved_is_no_movement_difference(tmp_path: Path) -> None:
    a, b = boards(tmp_path, gap_board(extra=AREA), gap_board(extra=MOVED_AREA), ["32mm"])
    d = diff_boards(a, b)
    assert d.empty
    assert d.lines()[1] == "no movement difference (terrain moved area-1)"
    same = diff_boards(a, a)
    assert same.empty and same.lines()[1] == "no movement difference"


@pytest.mark.slow
@pytest.mark.processes
def test_the_command_exits_0_without_a_difference_and_1_with_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = (tmp_path / f"{n}.toml" for n in "abc")
    a.write_text(gap_board(extra=AREA), encoding="utf-8")
    b.write_text(gap_board(extra=MOVED_AREA), encoding="utf-8")
    c.write_text(gap_board(east_x=17.1, extra=AREA), encoding="utf-8")
    common = ["--bases", "32mm,60mm", "--reach-bases", "32mm", "--workers", "1",
              "--no-progress"]
    assert main(["survey", "diff", str(a), str(b), *common]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{a} -> {b}", "no movement difference (terrain moved area-1)"]
    picture = tmp_path / "diff.svg"
    assert main(["survey", "diff", str(a), str(c), *common, "-o", str(picture)]) == 1
    out = capsys.readouterr().out
    assert "opened for 60mm" in out and "closed for 60mm" in out
    assert picture.read_text(encoding="utf-8").startswith("<svg")


def test_bad_diff_command_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.toml"
    a.write_text(gap_board(), encoding="utf-8")
    for argv, said in (
            (["survey", "diff", str(a)], "survey diff: give two layouts or two scenario files"),
            (["survey", "diff", str(a), str(a), "-o", "x.pdf"], "the picture of a diff is"),
            (["survey", "diff", str(a), "some-layout"], "give two scenario files or two "
                                                         "layout ids, not one of each"),
            (["survey", "diff", str(a), "gone.toml"], "gone.toml: no such scenario file")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], err

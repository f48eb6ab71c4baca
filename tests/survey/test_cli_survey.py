"""``tabletop survey`` (issue 16): bad input exits 2 with one clear line; a real survey of two
layouts runs, resumes and writes its report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tabletop.cli import main

from support.paths import KDC_DATA

DATA = KDC_DATA
LAYOUTS = DATA / "terrain-layouts.json"
needs_data = pytest.mark.skipif(not LAYOUTS.exists(), reason=f"40kdc data not at {DATA}")


def _fails(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_bad_command_lines_say_what_is_accepted(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    afile = tmp_path / "out.txt"
    afile.write_text("x")
    assert _fails(capsys, ["survey", "L.json", "-o", str(tmp_path / "o"), "--workers", "0"]) \
        == "--workers 0: give a whole number of at least 1"
    assert _fails(capsys, ["survey", "L.json", "M.json", "-o", "o"]).startswith(
        "survey: give at most one LAYOUTS.json, not 2 files")
    assert _fails(capsys, ["survey", "L.json", "-o", "o", "--margin", "-1"]) == \
        "--margin -1: give inches from 0 to 100"
    assert _fails(capsys, ["survey", "L.json", "-o", "o", "--all-pairings", "--deployments",
                           "x"]).startswith("--all-pairings: pairs every layout")
    assert _fails(capsys, ["survey", "--card", "x"]) == \
        "--card: give -o CARD.html, CARD.pdf or CARD.png, the card to write"
    assert _fails(capsys, ["survey", "--card", "x", "-o", "card.txt"]) == \
        "-o card.txt: a card is written as .html, .pdf, .png; give a file name ending so"
    assert _fails(capsys, ["survey", "L.json"]) == \
        "survey: give -o OUT_DIR, the folder to write the survey in"
    assert _fails(capsys, ["survey", "L.json", "-o", str(afile)]) == \
        f"-o {afile}: is a file; give the folder to write the survey in (made if missing)"
    assert _fails(capsys, ["survey", "L.json", "-o", "o", "--executor", "local",
                           "--scheduler", "tcp://h:8786"]) == \
        "--scheduler: names a Dask scheduler; use it with --executor dask"
    assert _fails(capsys, ["survey", "--report", str(tmp_path)]) == \
        f"--report {tmp_path}: no survey there (no plan.json); give the OUT_DIR of a tabletop " \
        "survey run"
    assert _fails(capsys, ["survey", "L.json", "--report", str(tmp_path)]).startswith(
        "--report OUT_DIR: rebuilds the report of a survey already run")
    assert not (tmp_path / "o").exists()


def test_dask_without_the_cluster_extra(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    line = _fails(capsys, ["survey", "L.json", "-o", str(tmp_path / "o"), "--executor", "dask"])
    assert line == ('--executor dask needs Dask: pip install -e ".[cluster]" in a checkout, or '
                    'pip install "tabletop-zones[cluster]"')


@needs_data
def test_unknown_ids_and_bad_bases_name_what_is_accepted(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    out = str(tmp_path / "o")
    line = _fails(capsys, ["survey", str(LAYOUTS), "--layouts", "gw-11e-crucible,nowhere",
                           "-o", out])
    assert line.startswith(f'{LAYOUTS}: no layout "nowhere"; the file has gw-11e-crucible, ')
    line = _fails(capsys, ["survey", str(LAYOUTS), "--deployments", "dawn", "-o", out])
    assert line.startswith(f'{DATA / "deployment-patterns.json"}: no deployment map "dawn"; '
                           "the file has tipping-point, ")
    line = _fails(capsys, ["survey", str(LAYOUTS), "--bases", "32mm,hexagon", "-o", out])
    assert line.startswith('--bases: "hexagon" is not a base: ')
    assert '"32mm"' in line and "Land Raider hull" in line
    line = _fails(capsys, ["survey", str(LAYOUTS), "--measures", "reach,speed", "-o", out])
    assert line == '--measures: "speed" is not a measure; give some of gap-fit, reach, advance-odds'
    line = _fails(capsys, ["survey", str(tmp_path / "none.json"), "-o", out])
    assert "none.json" in line
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
@needs_data
def test_a_survey_of_one_layout_runs_and_a_rerun_does_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "survey"
    argv = ["survey", str(LAYOUTS), "--layouts", "take-and-hold-mirror-1,gw-11e-crucible",
            "--deployments", "tipping-point", "--bases", "32mm,60mm", "--measures",
            "gap-fit,advance-odds", "-o", str(out), "--workers", "2"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("survey of 2 layouts x 1 deployment map x 2 bases: 12 jobs (gap-fit 4, "
                        f"advance-odds 8) into {out}/ on 2 local workers")
    assert lines[1].startswith("12 jobs: 0 done before, 12 run (0 failed) in ")
    assert lines[2:] == [f"results: {out}/results/", f"report: {out}/report.html"]
    assert len(list((out / "results").glob("*.json"))) == 12
    page = (out / "report.html").read_text()
    assert "gw-11e-crucible" in page
    (out / "report.html").unlink()
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[1] == "12 jobs: 12 done before, nothing to run"
    assert (out / "report.html").is_file()
    (out / "report.html").unlink()
    assert main(["survey", "--report", str(out)]) == 0
    assert capsys.readouterr().out == f"report: {out}/report.html\n"
    assert (out / "report.html").read_text() == page


def test_the_command_lines_defaults_are_the_surveys() -> None:
    """The command line states the survey's defaults without importing it (--help stays
    fast): they must agree."""
    from tabletop.cli import survey as cli
    from tabletop.survey.card import PAPERS
    from tabletop.survey.compare import GAP_MARGIN
    from tabletop.survey.publish import REACH_BASES

    assert cli.PAPERS == tuple(PAPERS) and cli.GAP_MARGIN == GAP_MARGIN
    assert cli.REACH_BASES == REACH_BASES

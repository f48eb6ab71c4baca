"""The layout survey on the current community data: its boards are the current layouts with
their walls, its catalogue the data's bases with their counts, and it runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.survey import current
from tabletop.survey.jobs import plan_dataset, run_job

from support.current_data import needs_wh40kdc

pytestmark = needs_wh40kdc


def test_the_catalogue_is_every_distinct_base_of_the_data_with_its_units() -> None:
    cat = current.catalogue()
    by = {e["name"]: e for e in cat}
    assert by["32mm"]["keywords"] == ["INFANTRY"]
    assert by["oval 170x109mm"]["keywords"] == ["VEHICLE"]
    assert by["Falcon hull"]["units"] == 1 and isinstance(by["Falcon hull"]["spec"], list)
    assert by["Rhino hull (stand-in)"]["sources"] == {"fallback": by["Rhino hull (stand-in)"][
        "units"]}
    assert by["oval 170x109mm"]["width"] == pytest.approx(109 / 25.4, abs=1e-6)


def test_the_current_datas_plan_defaults_to_its_catalogue() -> None:
    plan = plan_dataset(layouts=["bm-take-vs-take-01"], reach_bases=["32mm"])
    assert [b["name"] for b in plan["bases"]] == [e["name"] for e in current.catalogue()]
    assert plan["catalogue"]["source"].startswith("wh40kdc ")
    assert plan["catalogue"]["distinct"] == len(plan["bases"])
    board = plan["boards"]["bm-take-vs-take-01__tipping-point"]
    assert any("--wall-" in t["id"] for t in board["terrain"])


def test_gap_fit_finds_the_knights_hand_measured_gap_on_the_current_data() -> None:
    plan = plan_dataset(layouts=["bm-assets-vs-assets-01"],
                        bases=[e for e in current.catalogue() if e["name"] == "oval 170x109mm"])
    (job,) = [j for j in plan["jobs"] if j["measure"] == "gap-fit"]
    result = run_job(job)
    assert result["ok"], result["error"]
    walls = {"area-07--feature-3--wall-2", "area-08--feature-2--wall-1"}
    (gap,) = [p for p in result["value"]["passages"] if {p["a"], p["b"]} == walls]
    assert gap["width"] == pytest.approx(3.2485, abs=1e-6) and not gap["passes"]


def test_survey_without_a_layouts_file_runs_on_the_current_data(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "survey"
    assert main(["survey", "--layouts", "bm-take-vs-take-01", "--measures", "gap-fit",
                 "--bases", "32mm,oval 170x109mm,Falcon hull", "--workers", "1",
                 "--no-progress", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 layout x 1 deployment map x 3 bases: 3 jobs" in said, said
    plan = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    assert plan["boards"]["bm-take-vs-take-01__tipping-point"]["source"].startswith("wh40kdc")
    results = [json.loads(p.read_text(encoding="utf-8")) for p in (out / "results").iterdir()]
    assert len(results) == 3 and all(r["ok"] for r in results)
    assert (out / "report.html").is_file()


def _layout_ids() -> list[str]:
    from tabletop.importers import battlefields, dataset

    return battlefields.layout_ids() if dataset.available() else []


@pytest.fixture(scope="module")
def knight() -> list[dict[str, Any]]:
    """The catalogue's entry of the Knight's oval."""
    return [e for e in current.catalogue() if e["name"] == "oval 170x109mm"]


@pytest.mark.parametrize("layout_id", _layout_ids())
def test_every_current_layout_is_surveyed_and_fit_with_its_walls(
        layout_id: str, knight: list[dict[str, Any]]) -> None:
    """The survey's gap-fit job on each of the 46 layouts for the Knight's oval (what ``tabletop
    fit --base "oval 170x109mm"`` answers too: both are the pieces that stop the base and the
    passages between them): answered, stopped only by the dense wall sections and solid
    features (light walls stop nobody), with passages between walls, some too narrow."""
    plan = plan_dataset(layouts=[layout_id], bases=knight, reach_bases=[])
    (job,) = [j for j in plan["jobs"] if j["measure"] == "gap-fit"]
    result = run_job(job)
    assert result["ok"], result["error"]
    value = result["value"]
    assert value["stops"] == 'impassable terrain and dense terrain taller than 2"'
    (board,) = plan["boards"].values()
    kinds = {t["id"]: t["kind"] for t in board["terrain"]}
    assert value["stopped_by"] and {kinds[t] for t in value["stopped_by"]} == {"dense"}
    walls = [p for p in value["passages"] if p["b"] is not None and p["edge"] is None]
    assert walls, layout_id
    assert all(p["width"] > 0 for p in value["passages"])
    assert any(not p["passes"] for p in value["passages"])

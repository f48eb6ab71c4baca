"""Plans as organisers make them (#29 item 4), set-up marks, and the measures' new answers.

Hand-made layouts with two deployment maps: the default plan takes each layout's own map,
``all_pairings`` every map, ``reach_bases`` runs reach for a few bases only; a scenario file is
a board of its own. Set-up marks against the published keystone cases and a hand-made board.
On the open board of the core tests: phases to the board's centre, the least advance roll
that reaches each objective, and the clearance and facing range of a pass.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tabletop.errors import UserError
from tabletop.geometry.tolerance import mm
from tabletop.scenario.io import loads_scenario
from tabletop.survey import parse_bases, plan, run_job
from tabletop.survey.jobs import plan_scenarios
from tabletop.survey.measures import MARKER_RADIUS
from tabletop.survey.setup import edge_marks, keystone_marks, mark_text

from support.paths import KDC_DATA
from support.survey_boards import board_text, fake_data, job, rect, round_base


# --------------------------------------------------------------------------------------------
# plans
# --------------------------------------------------------------------------------------------
def test_each_layout_gets_its_own_map_by_default(tmp_path: Path) -> None:
    path = fake_data(tmp_path, ["a", "b"], own={"a": "dep", "b": "other"})
    p = plan(path, bases=parse_bases("32mm,60mm"))
    assert sorted((b["layout"], b["deployment"], b["own"]) for b in p["boards"].values()) == \
        [("a", "dep", True), ("b", "other", True)]
    assert len(p["jobs"]) == 2 * 2 * 5
    every = plan(path, bases=parse_bases("32mm"), all_pairings=True)
    assert sorted((b["layout"], b["deployment"], b["own"]) for b in every["boards"].values()) \
        == [("a", "dep", True), ("a", "other", False), ("b", "dep", False),
            ("b", "other", True)]
    asked = plan(path, bases=parse_bases("32mm"), deployments=["other"])
    assert sorted((b["layout"], b["own"]) for b in asked["boards"].values()) == \
        [("a", False), ("b", True)]
    for info in p["boards"].values():
        assert info["mission"] == "take-vs-take" and info["setup_source"] == "keystones"
        assert info["source"] == "40kdc"


def test_a_layout_without_its_own_map_says_what_to_give(tmp_path: Path) -> None:
    path = fake_data(tmp_path, ["a", "b"], own={"a": "dep", "b": None})
    with pytest.raises(UserError, match=r'layout "b" names no deployment map.*--all-pairings'):
        plan(path, bases=parse_bases("32mm"))
    path = fake_data(tmp_path, ["a"], own={"a": "gone"})
    with pytest.raises(UserError, match=r'the deployment map "gone", which .* does not have'):
        plan(path, bases=parse_bases("32mm"))


def test_reach_bases_keep_reach_and_odds_to_those_bases(tmp_path: Path) -> None:
    path = fake_data(tmp_path, ["a"])
    p = plan(path, bases=parse_bases("32mm,60mm,oval 170x109mm"), reach_bases=["32mm"])
    got = sorted((j["base"]["name"], j["measure"]) for j in p["jobs"])
    assert got == sorted([(n, "gap-fit") for n in ("32mm", "60mm", "oval 170x109mm")]
                         + [("32mm", m) for m in ("reach", "advance-odds") for _ in (0, 1)])
    with pytest.raises(UserError, match='--reach-bases: "Knight" is not a base'):
        plan(path, bases=parse_bases("32mm"), reach_bases=["Knight"])
    # a reach base the catalogue lacks is added to it
    p = plan(path, bases=parse_bases("32mm"), reach_bases=["Land Raider hull", "90mm"])
    assert [b["name"] for b in p["bases"]] == ["32mm", "Land Raider hull", "90mm"]
    assert sum(j["measure"] == "reach" for j in p["jobs"]) == 2 * 2


def test_a_scenario_file_is_a_board_measured_from_its_nearest_edges(tmp_path: Path) -> None:
    text = board_text(30, 20, [("west", "dense", rect(2, 5, 8.5, 15)),
                               ("east", "dense", rect(20, 1.5, 27, 6))],
                      {"north": rect(0, 0, 30, 3), "south": rect(0, 17, 30, 20)}, [(15, 10)])
    draft = tmp_path / "draft-2.toml"
    draft.write_text(text, encoding="utf-8")
    p = plan_scenarios([draft], parse_bases("32mm"))
    (info,) = p["boards"].values()
    assert (info["layout"], info["deployment"], info["source"]) == ("draft-2", "own", "scenario")
    assert info["setup_source"] == "nearest edges"
    assert sorted({j["side"] for j in p["jobs"]} - {None}) == ["north", "south"]
    marks = {(m["piece"], m["edge"]): m["distance"] for m in info["setup"]}
    assert marks == {("west", "left"): 2.0, ("west", "top"): 5.0,
                     ("east", "right"): 3.0, ("east", "top"): 1.5}


# --------------------------------------------------------------------------------------------
# set-up marks
# --------------------------------------------------------------------------------------------
KEYSTONE_CASES = KDC_DATA / "conformance_terrain-keystones_cases.json"


@pytest.mark.skipif(not KEYSTONE_CASES.is_file(), reason=f"no 40kdc data at {KDC_DATA}")
def test_keystone_marks_are_the_published_measurements_at_their_points() -> None:
    cases = json.loads(KEYSTONE_CASES.read_text(encoding="utf-8"))
    for case in cases:
        if "error" in case["expected"]:
            continue
        size = (case["board"]["width"], case["board"]["height"]) if "board" in case \
            else (60.0, 44.0)
        marks = keystone_marks(case["layout"], case["templates"], board=size)
        want = case["expected"]["measurements"]
        assert [(m["piece"], m["edge"]) for m in marks] == \
            [(w["piece_id"], w["edge"]) for w in want]
        for m, w in zip(marks, want, strict=True):
            assert m["distance"] == pytest.approx(w["distance"], abs=5e-4)
            x, y = m["at"]
            # the point measured is that far from its edge
            along = {"left": x, "right": size[0] - x, "top": y, "bottom": size[1] - y}[m["edge"]]
            assert along == pytest.approx(m["distance"], abs=1e-6)


def test_mark_text_orders_the_edges() -> None:
    state = loads_scenario(board_text(30, 20, [("p", "light", rect(25, 16, 29, 18.5))],
                                      {"a": rect(0, 0, 30, 3), "b": rect(0, 17, 30, 20)}, []))
    assert mark_text(edge_marks(state)) == 'right 1.00", bottom 1.50"'


# --------------------------------------------------------------------------------------------
# the measures' new answers
# --------------------------------------------------------------------------------------------
def test_phases_to_the_centre_on_open_ground() -> None:
    """40" x 16", red's zone x <= 6: the 32 mm base starts at x <= 6 - r and reaches the
    centre (20, 8) when its edge is within 3" of it: 11" to go."""
    text = board_text(40, 16, [], {"red": rect(0, 0, 6, 16), "blue": rect(34, 0, 40, 16)},
                      [(4.0, 8.0)])
    res = run_job(job(text, round_base(32), "reach", "red", moves=[5, 6, 8], phases=1))
    assert res["ok"], res["error"]
    assert res["value"]["centre"] == {"5": 3, "6": 2, "8": 2}
    assert res["value"]["moves"]["5"] == [0]


def test_least_advance_roll_to_each_objective() -> None:
    """From red's start nearest the centre (x = 6.5 - r), an advance of 6 + k" on open ground
    reaches a marker d" away when d - 6 - k <= 3 + 20 mm + r."""
    r = mm(16)
    objectives = [(4.0, 8.0), (20.3, 8.0), (31.7, 3.1)]
    text = board_text(40, 16, [], {"red": rect(0, 0, 6.5, 16), "blue": rect(34, 0, 40, 16)},
                      objectives)
    res = run_job(job(text, round_base(32), "advance-odds", "red", M=6, start=None))
    assert res["ok"], res["error"]
    v = res["value"]
    sx, sy = v["start"]
    want = []
    for x, y in objectives:
        need = math.hypot(x - sx, y - sy) - 6 - 3 - MARKER_RADIUS - r
        k = max(1, math.ceil(need))
        want.append(k if k <= 6 else None)
    assert want == [1, 5, None]
    assert v["objectives"] == want
    # the centre (20, 8): 13.5 + r away, within 3 + r from a roll of 5
    assert v["centre"] == 5


def test_a_pass_has_its_clearance_and_its_range_of_facings() -> None:
    text = board_text(30, 20, [("west", "impassable", rect(5, 5, 13.9, 15)),
                               ("east", "impassable", rect(16.1, 5, 25, 15))],
                      {"red": rect(0, 0, 30, 3), "blue": rect(0, 17, 30, 20)}, [(15, 10)])
    res = run_job(job(text, round_base(50, ("VEHICLE",)), "gap-fit"))
    gap = next(p for p in res["value"]["passages"] if {p["a"], p["b"]} == {"west", "east"})
    assert gap["passes"] and gap["spare"] == pytest.approx(2.2 - mm(50), abs=1e-6)  # 0.23"
    assert gap["facings"] is None
    oval = parse_bases("oval 90x52.5mm")[0]
    res = run_job(job(text, oval, "gap-fit"))
    gap = next(p for p in res["value"]["passages"] if {p["a"], p["b"]} == {"west", "east"})
    assert gap["spare"] == pytest.approx(2.2 - mm(52.5), abs=1e-6)
    # the oval's width across the neck, 2 sqrt(b^2 cos^2 t + a^2 sin^2 t), is at most 2.2"
    # for t up to 15.18 degrees either side of its roomiest facing (found to 0.1 degree)
    a, b = mm(45), mm(26.25)
    t = math.degrees(math.asin(math.sqrt((1.1 ** 2 - b ** 2) / (a ** 2 - b ** 2))))
    lo, hi = gap["facings"]
    assert hi - lo == pytest.approx(2 * t, abs=0.25) and hi - lo <= 2 * t

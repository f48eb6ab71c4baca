"""The survey core (issue 16, item 1): catalogue, plan, jobs, measures and balance.

Hand-made boards with known answers (a 2.2" gap, open ground), reach against fast marching on
a walled board, advance odds, errors as data, and one real 40kdc layout (skipped without the
data). Every board is small and every test takes seconds.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from tabletop.errors import UserError
from tabletop.geometry.tolerance import mm
from tabletop.scenario.io import loads_scenario
from tabletop.survey import balance, catalogue, measures, parse_bases, plan, run_job
from tabletop.survey.jobs import REACH_PARAMS, safe_id

from support.paths import KDC_DATA
from support.survey_boards import board_text, fake_data, job, rect, round_base

DATA = KDC_DATA
needs_data = pytest.mark.skipif(not (DATA / "terrain-layouts.json").is_file(),
                                reason=f"the 40kdc data is not beside the repository ({DATA})")


# --------------------------------------------------------------------------------------------
# gap-fit
# --------------------------------------------------------------------------------------------
def test_a_2_2_inch_gap_passes_50mm_not_60mm() -> None:
    text = board_text(30, 20, [("west", "dense", rect(5, 5, 13.9, 15)),
                               ("east", "dense", rect(16.1, 5, 25, 15))],
                      {"red": rect(0, 0, 30, 3), "blue": rect(0, 17, 30, 20)}, [(15, 10)])
    out = {}
    for d in (50, 60):
        r = run_job(job(text, round_base(d, ("VEHICLE",)), "gap-fit"))
        assert r["ok"], r["error"]
        gap = [p for p in r["value"]["passages"] if {p["a"], p["b"]} == {"west", "east"}]
        assert len(gap) == 1 and gap[0]["width"] == pytest.approx(2.2)
        assert gap[0]["neck"][0][1] == pytest.approx(10) and gap[0]["facing"] is None
        out[d] = gap[0]["passes"]
    assert out == {50: True, 60: False}
    # the same walls do not stop infantry (it crosses dense terrain): no passage to list
    r = run_job(job(text, round_base(50), "gap-fit"))
    assert r["ok"] and r["value"]["passages"] == []


def test_gap_fit_of_an_oval_gives_the_facing() -> None:
    text = board_text(30, 20, [("west", "impassable", rect(5, 5, 13.9, 15)),
                               ("east", "impassable", rect(16.1, 5, 25, 15))],
                      {"red": rect(0, 0, 30, 3), "blue": rect(0, 17, 30, 20)}, [(15, 10)])
    oval = parse_bases("oval 90x52.5mm")[0]
    r = run_job(job(text, oval, "gap-fit"))
    gap = next(p for p in r["value"]["passages"] if {p["a"], p["b"]} == {"west", "east"})
    # 52.5 mm = 2.07" fits the 2.2" gap with the short axis across it, the long axis along y
    assert gap["passes"] and gap["facing"] in (0.0, 180.0)
    assert gap["needs"] == pytest.approx(mm(52.5))


# --------------------------------------------------------------------------------------------
# reach
# --------------------------------------------------------------------------------------------
def open_board(objectives):
    return board_text(40, 16, [], {"red": rect(0, 0, 6, 16), "blue": rect(34, 0, 40, 16)},
                      objectives)


def test_open_board_phases_are_the_geodesic_distance_over_M() -> None:
    base = round_base(32)
    r = mm(32) / 2
    objectives = [(20.3, 8.0), (31.7, 3.1), (12.2, 14.0), (4.0, 8.0)]
    text = open_board(objectives)
    res = run_job(job(text, base, "reach", "red", moves=[5, 6, 8], phases=3,
                      objective_range=3.0))
    assert res["ok"], res["error"]
    v = res["value"]
    within = 3.0 + mm(20) + r
    for m in ("5", "6", "8"):
        M = float(m)
        want = []
        for x, _y in objectives:
            # the start region is x <= 6 - r (the base wholly in the zone): open ground
            d = max(0.0, math.hypot(max(0.0, x - (6 - r)), 0.0) - within)
            want.append(math.ceil(d / M - 1e-9) if d > 0 else 0)
        assert v["moves"][m] == want, (m, v["moves"][m], want)
    # the area after k moves: the strip x <= 6 - r + kM on the board (r from each edge)
    for m in ("5", "6"):
        M = float(m)
        for k, area in enumerate(v["area"][m], start=1):
            width = min(6 - r + k * M, 40 - r) - r
            assert area == pytest.approx(width * (16 - 2 * r), rel=2e-3)
    assert len(v["rings"]["6"]) == 3
    ring = shapely.from_wkt(v["rings"]["6"][0])
    assert ring.area == pytest.approx(v["area"]["6"][0], rel=1e-3)


def test_reach_is_capped_and_null_beyond() -> None:
    base = round_base(32)
    text = open_board([(39.0, 8.0)])
    board = loads_scenario(text)
    got = measures.reach(board, base, "red", moves=[5], phases=3, cap=4)
    # 39 - 6 + r - 3.79 - r ~ 29.2": 6 moves of 5", beyond the cap of 4
    assert got["moves"]["5"] == [None]
    got = measures.reach(board, base, "red", moves=[5], phases=3, cap=12)
    assert got["moves"]["5"] == [6]


def test_reach_against_fast_marching_on_a_walled_board() -> None:
    """The region after k moves against scikit-fmm's distance from the start region (the
    walls are impassable, so every free point is a legal end and k moves = distance k M)."""
    skfmm = pytest.importorskip("skfmm")
    W, H = 24.0, 16.0
    walls = [("w1", "impassable", rect(8, 0, 9, 7)), ("w2", "impassable", rect(8, 9.5, 9, 16)),
             ("w3", "impassable", rect(14, 4, 15, 12))]
    text = board_text(W, H, walls, {"red": rect(0, 0, 3, 16), "blue": rect(21, 0, 24, 16)},
                      [(20, 8)])
    base = round_base(32)
    board = loads_scenario(text)
    M = 5.0
    got = measures.reach(board, base, "red", moves=[M], phases=2, rings=M, cap=2)
    r = mm(32) / 2
    h = 0.04
    xs = np.arange(h / 2, W, h)
    ys = np.arange(h / 2, H, h)
    X, Y = np.meshgrid(xs, ys)
    free = (X >= r) & (X <= W - r) & (Y >= r) & (Y <= H - r)
    for _, _, poly in walls:
        g = shapely.Polygon(poly).buffer(r, quad_segs=32)
        free &= ~shapely.contains_xy(g, X, Y)
    start = measures.start_region(board, base, "red")
    phi = np.where(shapely.contains_xy(start, X, Y), -1.0, 1.0) * np.ones_like(X)
    d = np.asarray(skfmm.distance(np.ma.MaskedArray(phi, ~free), dx=h).filled(np.inf))
    for k, wkt in enumerate(got["rings"]["5"], start=1):
        region = shapely.from_wkt(wkt)
        oracle = free & (d <= k * M)
        area = oracle.sum() * h * h
        assert region.area == pytest.approx(area, rel=0.01), k
        inside = shapely.contains_xy(region.buffer(1e-3), X, Y)
        # every cell the oracle finds well within reach is in the region, and no region cell
        # lies well beyond the oracle's reach (fast marching is off by about a cell)
        assert not (free & (d <= k * M - 0.15) & ~inside).any()
        assert not (inside & (d > k * M + 0.15)).any()


def test_written_rings_are_valid_and_never_inside_a_wall() -> None:
    """A reach ring as a result writes it (simplified, 3 decimals) holds no point the base
    cannot stand on: the region wraps round the walls' grown corners, and a plain
    simplification's chords cut into them (0.002 sq in inside a grown corner on this board,
    on either engine), while rounding made rings cross themselves."""
    W, H = 24.0, 16.0
    walls = [("w1", "impassable", rect(8, 0, 9, 7)), ("w2", "impassable", rect(8, 9.5, 9, 16)),
             ("w3", "impassable", rect(14, 4, 15, 12))]
    text = board_text(W, H, walls, {"red": rect(0, 0, 3, 16), "blue": rect(21, 0, 24, 16)},
                      [(20, 8)])
    r = mm(32) / 2
    got = measures.reach(loads_scenario(text), round_base(32), "red", moves=[5], phases=2,
                         rings=5, cap=2)
    # the walls grown by the base's radius (inscribed arcs: every point of it is illegal)
    grown = shapely.union_all([shapely.Polygon(p).buffer(r, quad_segs=32) for _, _, p in walls])
    for wkt in got["rings"]["5"]:
        ring = shapely.from_wkt(wkt)
        assert ring.is_valid, shapely.is_valid_reason(ring)
        assert ring.intersection(grown).area < 1e-9
        assert ring.area > 50
    # the written form of a region lies inside it, within the simplification of its boundary
    g = shapely.Point(10, 8).buffer(6).difference(shapely.box(8, 0, 9, 7).buffer(r))
    w = measures.written_region(g)
    assert w.is_valid and w.difference(g).area < 1e-12
    assert shapely.hausdorff_distance(w, g) <= measures.SIMPLIFY + 2e-3


def test_moves_compose_one_by_one_across_terrain_a_model_may_not_end_on() -> None:
    """A barricade 1.6" deep across the way: infantry crosses it but may not stop on it, so
    two moves of 3" from just behind it reach less far than one path of 6"."""
    text = board_text(20, 10, [("bar", "light", rect(6.0, 0, 7.6, 10))],
                      {"red": rect(0, 0, 4.5, 10), "blue": rect(16, 0, 20, 10)}, [(15, 5)])
    base = round_base(32)
    board = loads_scenario(text)
    r = mm(32) / 2
    got = measures.reach(board, base, "red", moves=[3], phases=2, rings=3, cap=2)
    two = shapely.from_wkt(got["rings"]["3"][1])
    # the start region ends at x = 4.5 - r; a first move of 3" may not end on the barricade
    # (x from 6 - r to 7.6 + r), so it stops at 6 - r; the second reaches 9 - r (past it),
    # where one path of 6" would reach 10.5 - r
    assert two.bounds[2] == pytest.approx(9.0 - r, abs=0.06)
    assert two.bounds[2] < 4.5 - r + 6 - 0.5


def test_an_oval_turns_to_pass_a_corridor_its_circle_would_not() -> None:
    """A 2.2" corridor 6" long: a 90x52.5 mm oval (2.07" wide) goes through lengthwise, at a
    facing of its layers, and reaches the objective beyond in one move; a 100 mm base (3.94")
    and the oval's own circumscribed circle (90 mm) cannot."""
    walls = [("top", "impassable", rect(10, 0, 16, 6.9)),
             ("bottom", "impassable", rect(10, 9.1, 16, 16))]
    text = board_text(24, 16, walls, {"red": rect(0, 0, 8, 16), "blue": rect(21, 0, 24, 16)},
                      [(20, 8)])
    board = loads_scenario(text)
    oval = parse_bases("oval 90x52.5mm")[0]
    # facing 90: the long axis along x, 1.77" each way; the zone ends at x = 8 - 1.77 and the
    # base is within 3" of the marker from x = 20 - 3 - 20 mm - 1.77: 8.21" apart
    got = measures.reach(board, oval, "red", moves=[9, 8], phases=1, rings=9, cap=1)
    assert got["moves"] == {"9": [1], "8": [None]}
    assert shapely.from_wkt(got["rings"]["9"][0]).bounds[2] == pytest.approx(8 - mm(45) + 9,
                                                                             abs=0.02)
    for d in (100, 90):
        got = measures.reach(board, round_base(d, ("VEHICLE",)), "red", moves=[10],
                             phases=1, cap=1)
        assert got["moves"]["10"] == [None]


# --------------------------------------------------------------------------------------------
# advance odds
# --------------------------------------------------------------------------------------------
def test_advance_odds_are_nested_and_grow_with_the_roll() -> None:
    text = board_text(40, 20, [("block", "impassable", rect(18, 6, 20, 14))],
                      {"red": rect(0, 0, 8, 20), "blue": rect(32, 0, 40, 20)}, [(20, 10)])
    res = run_job(job(text, round_base(32), "advance-odds", "red", M=6, start=None))
    assert res["ok"], res["error"]
    v = res["value"]
    bands = v["bands"]
    assert [b["roll"] for b in bands] == [1, 2, 3, 4, 5, 6]
    assert [b["p"] for b in bands] == pytest.approx([(7 - k) / 6 for k in range(1, 7)])
    geoms = [shapely.from_wkt(b["wkt"]) for b in bands]
    areas = [g.area for g in geoms]
    assert all(a < b for a, b in itertools.pairwise(areas))
    for a, b in itertools.pairwise(geoms):
        assert a.difference(b.buffer(0.02)).area < 1e-3          # nested
    # the chance of each roll adds up to 1 where every roll reaches (next to the start)
    start = Point(v["start"])
    assert geoms[0].contains(start.buffer(0.5))
    p_exact = [b["p"] - (bands[i + 1]["p"] if i < 5 else 0.0) for i, b in enumerate(bands)]
    assert sum(p for p, g in zip(p_exact, geoms, strict=True) if g.contains(start)) == \
        pytest.approx(1.0)
    # the start: red's legal start position nearest the centre (20, 10)
    assert v["start"][0] == pytest.approx(8 - mm(16), abs=2e-3)
    assert v["start"][1] == pytest.approx(10, abs=2e-3)


# --------------------------------------------------------------------------------------------
# errors as data, determinism
# --------------------------------------------------------------------------------------------
def test_a_bad_job_comes_back_as_data() -> None:
    text = open_board([(20, 8)])
    bad = [
        job(text, round_base(32), "reach", "green", **REACH_PARAMS),
        job(text, round_base(32), "teleport", "red"),
        job("format = 1\n[[[", round_base(32), "gap-fit"),
        job(text, {"name": "x", "spec": "potato"}, "gap-fit"),
        {"id": "empty"},
    ]
    for j in bad:
        r = run_job(j)
        assert r["ok"] is False and r["value"] is None
        assert "\n" not in r["error"] and "Traceback" not in r["error"]
        assert re.match(r"^[A-Za-z]+(Error|Exception)?: ", r["error"]), r["error"]
        assert "scenario" not in r["job"]
        json.dumps(r)
    # a base too big for the zone: an error, not a crash
    huge = round_base(400)
    r = run_job(job(open_board([(20, 8)]), huge, "reach", "red", **REACH_PARAMS))
    assert not r["ok"] and "fits nowhere" in r["error"]


def test_results_do_not_depend_on_the_order_jobs_run_in() -> None:
    from tabletop.survey import jobs as jobs_mod
    from tabletop.zones import clear_caches

    text = board_text(30, 16, [("w", "dense", rect(12, 3, 13, 13))],
                      {"red": rect(0, 0, 5, 16), "blue": rect(25, 0, 30, 16)}, [(15, 8)])
    js = [job(text, round_base(d, kw), m, s, **p)
          for d, kw in ((32, ("INFANTRY",)), (60, ("VEHICLE",)))
          for m, s, p in (("gap-fit", None, {}),
                          ("reach", "red", {"moves": [6], "phases": 2}),
                          ("advance-odds", "blue", {"M": 6, "start": None}))]
    first = [run_job(j)["value"] for j in js]
    clear_caches()
    jobs_mod.scenario_board.cache_clear()
    second = [run_job(j)["value"] for j in reversed(js)][::-1]
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


# --------------------------------------------------------------------------------------------
# catalogue, bases, ids
# --------------------------------------------------------------------------------------------
def test_built_in_catalogue_and_parse_bases() -> None:
    cat = catalogue(None)
    assert len(cat) == 20
    names = [e["name"] for e in cat]
    assert "32mm" in names and "Land Raider hull" in names and "Rhino hull" in names
    lr = next(e for e in cat if e["name"] == "Land Raider hull")
    assert lr["width"] == pytest.approx(5.5) and lr["keywords"] == ["VEHICLE"]
    assert isinstance(lr["spec"], list) and len(lr["spec"]) == 8
    for e in cat:
        assert set(e) >= {"name", "spec", "units", "width", "length"}
        assert e["width"] <= e["length"] + 1e-9
        json.dumps(e)
    got = parse_bases("32mm, Land Raider hull, oval 60x35mm,  rect 25x50mm")
    assert [e["name"] for e in got] == ["32mm", "Land Raider hull", "oval 60x35mm",
                                        "rect 25x50mm"]
    assert got[0]["keywords"] == ["INFANTRY"]
    for bad in ("32mm, potato", "", "oval 60mm", "-5mm"):
        with pytest.raises(UserError, match="--bases"):
            parse_bases(bad)


def test_safe_ids() -> None:
    assert safe_id("take-and-hold-mirror-1") == "take-and-hold-mirror-1"
    hostile = ["../../etc/passwd", "a b", "a-b", "", ".", "x" * 500, "ü\n\x1b[2J", "a__b"]
    got = [safe_id(h) for h in hostile]
    assert len(set(got)) == len(got)
    for g in got:
        assert re.fullmatch(r"[A-Za-z0-9._-]{1,80}", g) and not g.startswith(".")
        assert "__" not in g


# --------------------------------------------------------------------------------------------
# plan and balance
# --------------------------------------------------------------------------------------------
def test_plan_of_hand_made_layouts(tmp_path: Path) -> None:
    path = fake_data(tmp_path, ["plain", "bad id/../x", "bad id/../x "])
    try:
        p = plan(path, bases=parse_bases("32mm,60mm"))
    except UserError as exc:  # the fake data does not match the importer's format
        pytest.fail(str(exc))
    assert p["version"] == 1 and len(p["boards"]) == 3
    assert len(p["jobs"]) == 3 * 2 * 5
    ids = [j["id"] for j in p["jobs"]]
    assert len(set(ids)) == len(ids)
    for j in p["jobs"]:
        assert re.fullmatch(r"[A-Za-z0-9._-]+", j["id"])
        assert j["board"] in p["boards"]
        assert j["measure"] in ("gap-fit", "reach", "advance-odds")
        assert (j["side"] is None) == (j["measure"] == "gap-fit")
        json.dumps(j)
    state = loads_scenario(p["jobs"][0]["scenario"])
    assert len(state.terrain) == 1 and len(state.objectives) == 5
    info = p["boards"][p["jobs"][0]["board"]]
    assert set(info["zones"]) == {"red", "blue"} and len(info["objectives"]) == 5
    assert shapely.from_wkt(info["terrain"][0]["wkt"]).area == pytest.approx(16)
    adv = [j for j in p["jobs"] if j["measure"] == "advance-odds"]
    assert all(j["params"]["M"] == 6 and len(j["params"]["start"]) == 2 for j in adv)
    with pytest.raises(UserError, match="no layout"):
        plan(path, layouts=["nope"])
    with pytest.raises(UserError, match="no deployment map"):
        plan(path, deployments=["nope"])


def test_balance_puts_the_sides_side_by_side() -> None:
    text = board_text(40, 16, [("w", "impassable", rect(10, 0, 11, 12))],
                      {"red": rect(0, 0, 6, 16), "blue": rect(34, 0, 40, 16)},
                      [(20, 2), (20, 14)])
    results = []
    for side in ("red", "blue"):
        j = job(text, round_base(32), "reach", side, moves=[6], phases=2)
        j["id"] = f"t-reach-{side}"
        results.append(run_job(j))
    results.append({"id": "x", "job": {"measure": "reach"}, "ok": False, "error": "E: x",
                    "value": None, "seconds": 0})
    rows = balance(results)
    assert len(rows) == 1
    row = rows[0]
    assert row["sides"] == ["red", "blue"] and row["M"] == 6.0
    pr, pb = row["phases"]["red"], row["phases"]["blue"]
    # red must go around the wall to reach the top objective; blue has open ground
    assert pr[0] > pb[0] and row["phase_diff"][0] == pr[0] - pb[0]
    assert row["imbalance"] == sum(abs(a - b) for a, b in zip(pr, pb, strict=True))
    assert row["area_diff"][0] == pytest.approx(row["area"]["red"][0] -
                                                row["area"]["blue"][0], abs=1e-3)
    assert balance(results[:1]) == []


# --------------------------------------------------------------------------------------------
# real data
# --------------------------------------------------------------------------------------------
@needs_data
def test_a_real_40kdc_layout() -> None:
    cat = catalogue(DATA / "units_11e_provisional_all.csv")
    assert len(cat) == 20
    assert cat[0]["name"] == "40mm" and cat[0]["units"] == 202
    assert cat[1]["name"] == "32mm" and cat[1]["units"] == 172
    bases = [e for e in cat if e["name"] in ("32mm", "Land Raider hull")]
    p = plan(DATA / "terrain-layouts.json", layouts=["take-and-hold-mirror-1"],
             deployments=["hammer-and-anvil"], bases=parse_bases("32mm, Land Raider hull"))
    assert len(p["jobs"]) == 10
    assert p["bases"] == bases       # --bases get the unit data's counts and keywords
    by = {(j["base"]["name"], j["measure"], j["side"]): j for j in p["jobs"]}
    gap = run_job(by[("Land Raider hull", "gap-fit", None)])
    assert gap["ok"] and gap["value"]["passages"]
    widths = [q["width"] for q in gap["value"]["passages"]]
    assert widths == sorted(widths)
    # a Land Raider (5.5" wide) passes no gap narrower than 5.5"
    assert not any(q["passes"] for q in gap["value"]["passages"] if q["width"] < 5.5)
    reach = run_job({**by[("32mm", "reach", "red")],
                     "params": {"moves": [6], "phases": 3, "objective_range": 3.0}})
    assert reach["ok"], reach["error"]
    phases = reach["value"]["moves"]["6"]
    objectives = reach["value"]["objectives"]
    assert len(phases) == 5 and all(isinstance(n, int) for n in phases)
    # never fewer phases than the straight line allows
    start = measures.start_region(loads_scenario(by[("32mm", "reach", "red")]["scenario"]),
                                  bases[0], "red")
    for (x, y), n in zip(objectives, phases, strict=True):
        straight = max(0.0, start.distance(Point(x, y)) - 3 - mm(20) - mm(16))
        assert n >= math.ceil(straight / 6 - 1e-9)
    areas = reach["value"]["area"]["6"]
    assert areas == sorted(areas) and areas[0] > reach["value"]["start_area"]


def test_a_move_on_open_ground_is_the_region_grown_by_the_disk() -> None:
    """With nothing that stops the mover, :func:`measures.grow` is one buffer within the box:
    it holds what the engine's multi-source disk from the region's boundary reaches (the
    independent construction used where pieces stand) and never more than the exact set (every
    point within ``M`` of the region, inside the box), the arcs' sag at most the engine's."""
    from shapely.geometry import Polygon, box

    from tabletop.geometry.visibility import reach_map
    from tabletop.geometry.wedges import ARC_TOLERANCE

    rm = reach_map(30.0, 20.0, 0.63, (), ())
    assert not len(rm.pieces)
    region = Polygon([(3, 3), (9, 3), (9, 5), (5, 5), (5, 9), (3, 9)])   # an L
    exclude = box(12, 2, 14, 18)
    got = measures.grow(rm, region, 6.0, exclude, ("t", 1))
    pts = measures.boundary_samples(region, rm.box)
    disk = rm.disk((float(pts[0, 0]), float(pts[0, 1])), 6.0,
                   sources=[(float(x), float(y), 0.0) for x, y in pts[1:]])
    sampled = disk.region(exclude, ("t", 1)).union(region)
    # (both inscribe the arcs, with vertices in other places: within one sag of each other)
    assert sampled.difference(got.buffer(ARC_TOLERANCE)).area < 1e-9
    assert got.area >= sampled.area
    # (a buffer of 256 segments a quarter is inscribed too: grown by more than its sag, 3e-5")
    exact = region.buffer(6.0 + 1e-4, quad_segs=256).intersection(box(*rm.box))
    assert got.difference(exact).area < 1e-9
    assert got.intersection(exclude).area < 1e-9
    sag = exact.difference(exclude).difference(got).area
    assert sag <= ARC_TOLERANCE * exact.length

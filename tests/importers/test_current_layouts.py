"""The current community layouts (``wh40kdc``): every layout imports, its walls become wall
sections where the data's own resolver puts them, and they stop what the rules say."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from tabletop.cli import main
from tabletop.geometry.footprints import parse_base
from tabletop.geometry.passages import passages
from tabletop.importers import battlefields, dataset
from tabletop.importers.kdc_layouts import Affine, centroid
from tabletop.rulesets.blockers import blocking_pieces
from tabletop.scenario.checks import check_state
from tabletop.scenario.io import dumps_scenario, load_scenario, loads_scenario

from support.current_data import needs_wh40kdc

pytestmark = needs_wh40kdc
if dataset.available():
    from wh40kdc.terrain import footprint_vertices

KNIGHT = "oval 170x109mm"
"""A Questoris Knight's oval: 109 mm (4.291") across its short axis."""


def _ids() -> list[str]:
    return battlefields.layout_ids() if dataset.available() else []


def test_the_data_has_46_layouts_each_with_its_map_and_matchup() -> None:
    lays = battlefields.layouts()
    assert len(lays) == 46, [lay.id for lay in lays]
    assert all(lay.deployment in battlefields.deployment_ids() for lay in lays)
    assert sum(lay.mission_matchup is not None for lay in lays) == 45  # KOTC has none
    assert {(lay.width, lay.depth) for lay in lays} == {(60.0, 44.0), (36.0, 36.0)}


@pytest.mark.parametrize("layout_id", _ids())
def test_every_layout_imports_as_a_valid_scenario(layout_id: str) -> None:
    board = battlefields.board(layout_id)
    state = board.state
    assert check_state(state) == []
    back = loads_scenario(dumps_scenario(state), source=f"{layout_id}.toml")
    assert back == state
    assert state.data is not None and state.data.layout == layout_id
    assert state.data.deployment == board.layout.deployment
    assert len(state.objectives) >= 5
    assert {p.id for p in state.players if p.zone_polygon is not None} == {"red", "blue"}
    kinds = {t.kind for t in state.terrain}
    assert kinds <= {"area", "dense", "light"} and "area" in kinds and "dense" in kinds


def _resolved_walls(layout_id: str) -> list[tuple[str, float, list[tuple[float, float]], bool]]:
    """``(piece id, thickness, points, has upper floor)`` of every wall the data's resolver
    gives for the layout."""
    record = dataset.by_id("terrain_layouts")[layout_id]
    templates = dataset.raw()["terrain_templates"]
    out = []
    for r in dataset.require().terrain.resolve_layout(record, templates):
        for w in r.get("walls") or []:
            out.append((r["id"], float(w["thickness"]),
                        [(p["x"], p["y"]) for p in w["points"]], False))
    return out


@pytest.mark.parametrize("layout_id", _ids())
def test_wall_sections_cover_the_resolvers_walls_at_their_thickness(layout_id: str) -> None:
    """Checked against the resolver's wall polylines point by point, not with the buffer the
    importer builds: along every run, a point just inside half the thickness on either side is
    in the sections of that wall, a point just outside is in none of them (away from the run's
    ends, where another run of the same wall may continue)."""
    state = battlefields.layout_state(layout_id)
    by_piece: dict[str, list[Polygon]] = {}
    for t in state.terrain:
        if "--wall-" in t.id:
            by_piece.setdefault(t.id.split("--wall-")[0], []).append(t.shape)
    walls = _resolved_walls(layout_id)
    assert walls or layout_id == "kotc-colosseum"  # its walls are solid features (below)
    seen = set()
    for piece, thick, pts, _ in walls:
        seen.add(piece)
        sections = unary_union(by_piece[piece])
        closed = math.dist(pts[0], pts[-1]) < 1e-6
        for a, b in itertools.pairwise(pts):
            length = math.dist(a, b)
            ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
            for f in (0.3, 0.5, 0.7):
                if length * min(f, 1 - f) < thick:  # near a corner
                    continue
                mx, my = a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
                for side in (-1, 1):
                    nx, ny = -uy * side, ux * side
                    inner = Point(mx + nx * (thick / 2 - 1e-3), my + ny * (thick / 2 - 1e-3))
                    outer = Point(mx + nx * (thick / 2 + 1e-3), my + ny * (thick / 2 + 1e-3))
                    assert sections.contains(inner), (piece, a, b)
                    if not closed:  # a closed wall without a floor is a solid block
                        assert not sections.contains(outer), (piece, a, b)
        if not closed:
            area = sum(math.dist(a, b) for a, b in itertools.pairwise(pts)) * thick
            # mitred corners add at most a square of the thickness each, flat ends nothing
            assert area - 1e-4 <= sections.area <= area + (len(pts) - 2) * thick ** 2 + 1e-4
    assert seen == set(by_piece)
    # a feature without walls is solid: its section is the resolver's footprint
    record = dataset.by_id("terrain_layouts")[layout_id]
    mine = {t.id: t for t in state.terrain}
    for r in dataset.require().terrain.resolve_layout(record, dataset.raw()["terrain_templates"]):
        if r["piece_type"] == "feature" and not r.get("walls"):
            want = Polygon([(v["x"], v["y"]) for v in r["vertices"]])
            assert mine[r["id"]].shape.symmetric_difference(want).area < 1e-5, r["id"]


@pytest.mark.parametrize("layout_id", _ids())
def test_the_resolvers_placement_matches_an_independent_transform(layout_id: str) -> None:
    """Placement, rotation and mirror: the walls and footprints the resolver gives are the
    templates' own walls and footprints carried by the older importer's affine transform
    (written apart from wh40kdc, and checked on the older data's conformance cases), and the
    upper floors the importer places by the same chain sit on their ground footprints (some
    reach over the wall round them, by half its thickness)."""
    record = dataset.by_id("terrain_layouts")[layout_id]
    templates = dataset.by_id("terrain_templates")
    resolved = dataset.require().terrain.resolve_layout(record, dataset.raw()["terrain_templates"])
    pieces = record["pieces"]
    areas = {p["id"]: p for p in pieces if p.get("id")}
    k = 0
    for piece in pieces:
        jobs = []
        t = templates.get(piece.get("template", ""))
        if piece.get("parent_area_id"):
            jobs.append((piece, t, [piece, areas[piece["parent_area_id"]]]))
        else:
            jobs.append((piece, t, [piece]))
            for feat in (t or {}).get("features") or []:
                jobs.append((feat, templates[feat["template"]], [feat, piece]))
        for obj, tmpl, chain in jobs:
            r = resolved[k]
            k += 1
            ground = obj.get("footprint") or tmpl["footprint"]
            local = [(v["x"], v["y"]) for v in footprint_vertices(ground)]
            cx, cy = centroid(local, "footprint")
            aff = Affine()
            for c in chain:
                aff = aff.then(Affine.placement((c["position"]["x"], c["position"]["y"]),
                                                c.get("rotation_degrees") or 0.0,
                                                c.get("mirror") or "none"))
            got = [aff.apply((x - cx, y - cy)) for x, y in local]
            want = [(v["x"], v["y"]) for v in r["vertices"]]
            assert max(math.dist(p, q) for p, q in zip(got, want, strict=True)) < 5e-4
            for w_t, w_r in zip((tmpl or {}).get("walls") or [], r.get("walls") or [],
                                strict=True):
                mine = [aff.apply((p["x"] - cx, p["y"] - cy)) for p in w_t["points"]]
                theirs = [(p["x"], p["y"]) for p in w_r["points"]]
                assert max(math.dist(p, q) for p, q in zip(mine, theirs, strict=True)) < 5e-4
                assert w_r["thickness"] == w_t["thickness"]
            upper = (tmpl or {}).get("upper_floor")
            if upper:
                floor = Polygon(battlefields.placed_floor(ground, upper["footprint"], chain))
                # within the ground footprint, or over the wall round it (half its thickness)
                reach = max([w["thickness"] / 2 for w in tmpl.get("walls") or []], default=0)
                assert Polygon(want).buffer(reach + 1e-3, join_style="mitre").contains(floor)
    assert k == len(resolved)


def test_a_ruin_is_walls_around_open_ground_with_its_upper_floor_kept() -> None:
    state = battlefields.layout_state("bm-take-vs-take-01")
    ruin = [t for t in state.terrain if t.id.startswith("area-01--feature-")]
    assert {t.kind for t in ruin} == {"dense"}
    assert all(not t.height_known and t.height == 3.0 for t in ruin)
    # the towers are hollow (an upper floor above open ground): two sections each, with room
    # inside; the generators and pipes (closed walls, no floor) are solid blocks
    floors = {f.id: f for f in state.floors}
    assert len(floors) == 10 and all(f.roof and f.level == 1 for f in floors.values())
    towers = [f for f in floors if f.startswith(("area-07--feature-3", "area-15--feature-3"))]
    assert len(towers) == 2
    for fid in towers:
        piece = fid.split("--floor")[0]
        sections = [t for t in state.terrain if t.id.startswith(piece + "--wall-")]
        assert len(sections) == 2
        inside = floors[fid].polygon
        room = Polygon(inside).buffer(-0.3)
        assert not room.is_empty
        assert not any(t.shape.intersects(room) for t in sections)


def test_the_knight_is_stopped_by_a_hand_measured_gap_between_two_walls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Assets vs Assets 01, between the tower of the Long Line Tower (area-07, placed at
    (11.951737, 6.506812) turned 180 degrees) and the GH ruin of Big Rect EF GH (area-08, at
    (9.724717, 14.423961), not turned). Measured by hand from the templates:

    - the tower (2" x 2.5", its walls 0.5" thick round its outline) sits at (-0.046763,
      0.005312) in its area's frame; its wall at local y = -1.25 lands, turned 180 degrees, at
      y = 6.506812 + 1.25 - 0.005312 = 7.7515, its far face at 7.7515 + 0.25 = 8.0015, for x
      from 11.951737 + 0.046763 - 1 - 0.25 = 10.7485 to 13.2485;
    - the GH ruin (3" x 6") sits at (3.775283, 0.076039); its wall along the far side (local
      y = -3) lands at y = 14.423961 + 0.076039 - 3 = 11.5, its near face at 11.25, for x from
      9.724717 + 3.775283 - 1.5 = 12.0 to 15.0 (and the mitred corner to 15.25).

    So the walls face each other over x = 12.0 to 13.2485 with 11.25 - 8.0015 = 3.2485" between
    them: less than the Knight's 4.291" short axis, more than a 32 mm base."""
    path = tmp_path / "ava1.toml"
    assert main(["new", "--layout", "bm-assets-vs-assets-01", "-o", str(path)]) == 0
    state = load_scenario(path)
    pieces, _ = blocking_pieces(state, ("VEHICLE",))
    ids = ("area-07--feature-3--wall-2", "area-08--feature-2--wall-1")
    found = [p for p in passages(60, 44, pieces, parse_base(KNIGHT))
             if set(p.between) == set(ids)]
    assert len(found) == 1
    gap = found[0]
    assert gap.width == pytest.approx(3.2485, abs=1e-6)
    (ax, ay), (_bx, by) = gap.neck
    assert 12.0 - 1e-6 <= ax <= 13.2485 + 1e-6 and {round(ay, 4), round(by, 4)} == {8.0015, 11.25}
    assert not gap.passes and gap.facings is None
    assert gap.needs == pytest.approx(109 / 25.4)
    infantry = [p for p in passages(60, 44, pieces, parse_base("32mm"), limit=4.3)
                if set(p.between) == set(ids)]
    assert infantry[0].passes
    capsys.readouterr()
    assert main(["fit", str(path), "--base", KNIGHT, "--at", "12.6,9.6", "--format", "json"]) == 0
    assert '"area-07--feature-3--wall-2"' in capsys.readouterr().out
    # heights the data lacks are a stated rule: a scenario that calls them 1.5" lets the
    # Knight over both walls (dense sections of 2" or less stop nobody)
    low = loads_scenario(path.read_text(encoding="utf-8").replace(
        "ruleset = ", "unknown_height = 1.5\nruleset = ", 1), source="low.toml")
    assert all(t.height == 1.5 for t in low.terrain if not t.height_known)
    assert not [p for p in passages(60, 44, blocking_pieces(low, ("VEHICLE",))[0],
                                    parse_base(KNIGHT)) if set(p.between) == set(ids)]


def test_new_lists_the_layouts_and_refuses_unknown_ids(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--list"]) == 0
    out = capsys.readouterr().out
    assert "bm-take-vs-take-01" in out and "kotc-colosseum" in out and "tipping-point" in out
    assert main(["new", "--layout", "bm-take-vs-take-1", "-o", str(tmp_path / "x.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith('--layout: no layout "bm-take-vs-take-1" in wh40kdc') and \
        "bm-take-vs-take-01" in err and err.count("\n") == 1
    assert main(["new", "--layout", "bm-take-vs-take-01", "--deployment", "dawn",
                 "-o", str(tmp_path / "x.toml")]) == 2
    assert "dawn-of-war" in capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()
    assert main(["new", "--layout", "bm-take-vs-take-01", "--deployment", "dawn-of-war",
                 "-o", str(tmp_path / "x.toml")]) == 0
    state = load_scenario(tmp_path / "x.toml")
    assert state.data is not None and state.data.deployment == "dawn-of-war"
    assert state.data.mission_matchup == "take-and-hold-vs-take-and-hold"


def test_fit_names_the_catalogues_hulls_and_runs_the_whole_catalogue(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``fit --base`` takes a hull of the catalogue by name (the Falcon's traced hull, the
    stand-in), ``--catalogue`` answers for every distinct base of the data with its keywords:
    the hand-measured 3.2485" gap stops the Knight's oval and the Falcon, not an infantryman."""
    from tabletop.survey import current

    path = tmp_path / "ava1.toml"
    assert main(["new", "--layout", "bm-assets-vs-assets-01", "-o", str(path)]) == 0
    gap = {"area-07--feature-3--wall-2", "area-08--feature-2--wall-1"}
    capsys.readouterr()
    assert main(["fit", str(path), "--base", "falcon HULL", "--at", "12.6,9.6",
                 "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["base"] == "Falcon hull"
    (neck,) = [p for p in answer["passages"] if set(p["between"]) == gap]
    assert not neck["passes"] and neck["width"] == pytest.approx(3.2485, abs=1e-6)
    assert main(["fit", str(path), "--catalogue", "--at", "12.6,9.6", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    cat = current.catalogue()
    assert [b["base"] for b in got["bases"]] == [e["name"] for e in cat]
    assert got["catalogue"]["distinct"] == len(cat) and got["catalogue"]["source"] == \
        f"wh40kdc {dataset.version()}"
    by = {b["base"]: b for b in got["bases"]}
    for name in ("oval 170x109mm", "Falcon hull", "Rhino hull (stand-in)"):
        assert [p["passes"] for p in by[name]["passages"] if set(p["between"]) == gap] == \
            [False], name
    assert by["32mm"]["keywords"] == ["INFANTRY"] and by["32mm"]["passages"] == []
    assert main(["fit", str(path), "--catalogue", "--at", "12.6,9.6"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert len(text) == 1 + len(cat)
    assert text[0].endswith(f'the {len(cat)} distinct bases of the units of wh40kdc '
                            f'{dataset.version()} (keywords: those of most units on the base), '
                            'the passages within 12" of 12.6,9.6 that stop each')
    assert any(line.startswith("oval 170x109mm") and "too narrow" in line for line in text)
    assert main(["fit", str(path), "--base", "Falcn hull"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and '"Falcon hull"' in err and "a hull of the catalogue" in err
    assert main(["fit", str(path), "--catalogue", "--format", "png", "-o",
                 str(tmp_path / "x.png")]) == 2
    assert "--format png" in capsys.readouterr().err and not (tmp_path / "x.png").exists()

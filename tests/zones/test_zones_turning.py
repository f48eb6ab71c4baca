"""Zones of models that turn as they move (issue 12): hand-computed cases and the four faults.

Vehicles, bikes and monsters on non-round bases move by straight lines at a fixed facing and
turns in place (``shared/spec/rulings.md``); their zone is where some reachable facing is a
legal end. Every zone point must have a witness path that the exact checks accept.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import box

from tabletop import legal_zone, validate_path
from tabletop.cli import main
from tabletop.geometry.cspace import angle_between
from tabletop.geometry.footprints import mm

from support.turning import HULL_4X7, hull_unit, witnesses_hold
from support.zones_boards import R32, rect, state, unit


# -- hand-computed ----------------------------------------------------------------------------
def gap_walls(gap: float, y0: float = 21.0, y1: float = 23.0, cx: float = 30.0) -> list:  # type: ignore[type-arg]
    """Two long impassable walls across the board with a gap of ``gap`` centred on ``cx``."""
    return [rect("w1", "impassable", 1.0, y0, cx - gap / 2, y1),
            rect("w2", "impassable", cx + gap / 2, y0, 59.0, y1)]


def test_oval_passes_a_gap_lengthwise_not_across() -> None:
    # a 60x35 mm oval is 1.38" across and 2.36" long: a 1.5" gap lets it through lengthwise
    st = state([unit("a", "red", [("mv", 30.0, 18.0)], base="oval 60x35mm", facing=90.0,
                     keywords=("MOUNTED",), M=8)], gap_walls(1.5))
    zone = legal_zone(st, "mv", "normal")
    assert zone.contains(30.0, 26.0)
    path = zone.path_to(30.0, 26.0)
    assert path is not None
    # through the gap the facing is along it (0 or 180); it turns back to 90 in the open
    facings = {round(p[2] % 180.0, 6) for p in path.points[1:-1]}
    assert facings == {0.0}, path.points
    assert zone.facing_at(30.0, 26.0) == pytest.approx(90.0)
    assert validate_path(st, "mv", "normal", path.points).legal
    # across (facing 90, no turn) the same straight line is refused: it crosses the walls
    across = validate_path(st, "mv", "normal", [(30.0, 26.0)])
    assert {v.rule for v in across.violations} == {"crosses-terrain"}
    # and a gap narrower than the oval (1.3") stops it at every facing
    st2 = state([unit("a", "red", [("mv", 30.0, 18.0)], base="oval 60x35mm", facing=90.0,
                      keywords=("MOUNTED",), M=8)], gap_walls(1.3))
    zone2 = legal_zone(st2, "mv", "normal")
    assert not zone2.contains(30.0, 26.0)
    assert any(v.rule == "unreachable" for v in zone2.explain(30.0, 26.0))


def test_rect_passes_a_gap_only_when_turned() -> None:
    # 25 mm frontage (0.98"), 50 mm depth (1.97"): a 1.2" gap in a wall along x lets it through
    # facing along y only; it starts at 90 (1.97" across the gap) and must turn
    st = state([unit("a", "red", [("mv", 30.0, 18.0)], base="rect 25x50mm", facing=90.0,
                     keywords=("MOUNTED",), M=8)], gap_walls(1.2))
    zone = legal_zone(st, "mv", "normal")
    assert zone.contains(30.0, 25.5)
    path = zone.path_to(30.0, 25.5)
    assert path is not None
    assert path.points[0] == (30.0, 18.0, 90.0)
    assert any(a[:2] == b[:2] and a[2] != b[2] for a, b in itertools.pairwise(path.points))
    assert validate_path(st, "mv", "normal", path.points).legal
    assert not validate_path(st, "mv", "normal", [(30.0, 25.5)]).legal
    witnesses_hold(st, zone, 25)


def test_hull_along_the_board_edge_keeps_its_full_strip() -> None:
    # a 4x7" hull lying along the top edge (facing 90: its 7" along x), touching it; its own
    # facing is exact, so it may slide along the edge all the way its move allows
    st = state([hull_unit("a", (30.0, 2.0), 90.0, M=10)])
    zone = legal_zone(st, "mv", "normal")
    strip = box(20.5, 2.0, 39.5, 2.5)
    assert zone.geometry.intersection(strip).area == pytest.approx(strip.area, rel=1e-3)
    assert zone.contains(39.9, 2.0) and zone.contains(20.1, 2.0)
    assert not zone.contains(30.0, 1.99)
    assert zone.facing_at(38.0, 2.0) == pytest.approx(90.0)
    # it cannot turn where it stands (its corners would leave the battlefield) ...
    turn = validate_path(st, "mv", "normal", [(30.0, 2.0, 100.0)])
    assert [v.rule for v in turn.violations] == ["leaves-battlefield", "off-battlefield"]
    # ... but it turns once it has moved out far enough, and every point has its witness
    witnesses_hold(st, zone, 30)


def test_a_turn_blocked_in_a_corridor_is_refused_with_its_reason() -> None:
    # a 4x7" hull in a 4.2" corridor (walls 0.1" off its sides): it can drive along it, not turn
    walls = [rect("wl", "impassable", 27.0, 10.0, 27.9, 34.0),
             rect("wr", "impassable", 32.1, 10.0, 33.0, 34.0)]
    st = state([hull_unit("a", (30.0, 22.0), 0.0, M=10)], walls)
    check = validate_path(st, "mv", "normal", [(30.0, 22.0, 20.0)])
    assert not check.legal
    (v,) = [v for v in check.violations if v.rule == "crosses-terrain"][:1]
    assert "turning from 0 to 20 degrees" in v.message and v.geometry is not None
    assert v.geometry.area > 0
    # a turn of 1 degree fits (3.5 * sin(1) + 2 cos(1) - 2 = 0.061 < 0.1)
    assert validate_path(st, "mv", "normal", [(30.0, 22.0, 1.0)]).legal
    zone = legal_zone(st, "mv", "normal")
    assert zone.contains(30.0, 15.0) and zone.contains(30.0, 29.0)
    assert zone.facing_at(30.0, 29.0) in (0.0, pytest.approx(0.0))


def test_paths_with_facings_are_checked_as_sweeps() -> None:
    st = state([hull_unit("a", (30.0, 22.0), 0.0, M=10),
                unit("b", "blue", [("e1", 36.0, 22.0)], keywords=("VEHICLE",))])
    # turning to 90 swings the hull's 3.5" end over the enemy's base 6" away? no: 4.03" reach
    ok = validate_path(st, "mv", "normal", [(30.0, 22.0, 90.0), (30.0, 30.0)])
    assert ok.legal and ok.length == pytest.approx(8.0)
    assert ok.points[1] == (30.0, 22.0, 90.0) and ok.points[-1] == (30.0, 30.0, 90.0)
    # moving next to the enemy first, then turning, sweeps over it
    bad = validate_path(st, "mv", "normal", [(32.5, 22.0), (32.5, 22.0, 90.0)])
    assert any(v.rule == "crosses-enemy" and "turning" in v.message for v in bad.violations)
    # two-value paths keep working (no turn, the model's facing)
    old = validate_path(st, "mv", "normal", [(30.0, 27.0)])
    assert old.legal and old.points[-1] == (30.0, 27.0, 0.0)


# -- the four faults ------------------------------------------------------------------------------
def test_hull_touching_a_corner_at_the_start_is_not_permissive() -> None:
    # the hull's side touches a block's corner: its circumscribed circle overlaps the block; the
    # old engine cut the circle's polygon with the wrong half-plane and let paths through it
    block = rect("blk", "impassable", 32.0, 18.0, 36.0, 20.0)
    st = state([hull_unit("a", (30.0, 22.0), 0.0, M=8)], [block])
    zone = legal_zone(st, "mv", "normal")
    assert witnesses_hold(st, zone, 40) == 40
    # a point just past the block's corner is reached only around it
    assert not validate_path(st, "mv", "normal", [(33.0, 16.0)]).legal
    res = zone.path_to(33.0, 16.0)
    if res is not None:
        assert validate_path(st, "mv", "normal", res.points).legal


@pytest.mark.slow
def test_bike_in_base_contact_falling_back_has_legal_witnesses() -> None:
    # an oval in base contact with two enemies (distance 0): ordered retreat
    a, b = mm(60) / 2, mm(35) / 2
    st = state([unit("a", "red", [("mv", 30.0, 22.0)], base="oval 60x35mm", facing=0.0,
                     keywords=("MOUNTED",), M=8),
                unit("b", "blue", [("e1", 30.0 + b + R32, 22.0), ("e2", 30.0, 22.0 - a - R32)])])
    zone = legal_zone(st, "mv", "fall-back")
    assert zone.area > 20
    assert witnesses_hold(st, zone, 40, move="fall-back") == 40


def test_round_base_touching_a_wall_face_keeps_its_half_disk() -> None:
    # a 32 mm base in contact with a long wall: its zone is the half disk (no ray ran along the
    # face, and 1.2-1.6 % was lost)
    for y_end in (34.0, 22.0):  # a face, then a convex corner at the start's level
        wall = rect("w", "impassable", 20.0, 10.0, 21.0, y_end)
        st = state([unit("a", "red", [("mv", 21.0 + R32, 22.0)])], [wall])
        zone = legal_zone(st, "mv", "normal")
        moved = state([unit("a", "red", [("mv", 21.0 + R32 + 1e-3, 22.0)])], [wall])
        ref = legal_zone(moved, "mv", "normal").area
        assert zone.area >= ref * (1 - 0.0005), (y_end, zone.area, ref)
    half = math.pi * 36 / 2
    wall = rect("w", "impassable", 20.0, 10.0, 21.0, 34.0)
    zone = legal_zone(state([unit("a", "red", [("mv", 21.0 + R32, 22.0)])], [wall]), "mv",
                      "normal")
    assert half * (1 - 0.001) <= zone.area <= half * (1 + 1e-9)


@pytest.mark.slow
def test_oval_touching_the_battlefield_edge_moves_along_it() -> None:
    # the sweep's bounds came from a polygon 9e-5" outside the oval, against a 1e-6" tolerance
    b = mm(60) / 2
    for facing, at, to in ((0.0, (mm(35) / 2, 22.0), (mm(35) / 2, 27.0)),
                           (90.0, (30.0, mm(35) / 2), (35.0, mm(35) / 2)),
                           (0.0, (20.0, b), (25.0, b))):
        st = state([unit("a", "red", [("mv", *at)], base="oval 60x35mm", facing=facing,
                         keywords=("MOUNTED",), M=8)])
        check = validate_path(st, "mv", "normal", [to])
        assert check.legal, [v.message for v in check.violations]
        zone = legal_zone(st, "mv", "normal")
        assert zone.contains(*to)
        witnesses_hold(st, zone, 15)


@pytest.mark.parametrize("angle", [0.0, 2.8, 5.625, 16.875, 28.125, 45.0])
def test_gap_between_enemies_a_hair_wider_than_the_base_stays_open(angle: float) -> None:
    # two lines of 32 mm enemies with a gap 0.01" wider than the mover; the 32-sided
    # circumscribed circles (0.006" too big at a vertex) closed it at some orientations
    a = math.radians(angle)
    u, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    half = R32 + (2 * R32 + 0.01) / 2
    enemies = []
    for k in range(4):
        for s in (1, -1):
            d = half + k * 2 * R32
            enemies.append((f"e{k}{s}", 30 + s * d * u[0], 22 + s * d * u[1]))
    st = state([unit("a", "red", [("mv", 30 + 3 * n[0], 22 + 3 * n[1])], M=12),
                unit("b", "blue", enemies)])
    zone = legal_zone(st, "mv", "fall-back", mode="ordered-retreat")
    far = (30 - 3 * n[0], 22 - 3 * n[1])
    path = zone.path_to(*far)
    assert path is not None and path.length == pytest.approx(6.0, abs=1e-6)


def test_move_action_turns_along_its_path_and_saves(tmp_path: Path) -> None:
    from dataclasses import replace

    from tabletop.rulesets import apply_actions
    from tabletop.scenario.io import load_scenario, save_scenario

    # the rect must turn to pass the 1.2" gap: staged with facings, checked as sweeps
    st = state([unit("a", "red", [("mv", 30.0, 18.0)], base="rect 25x50mm", facing=90.0,
                     keywords=("MOUNTED",), M=8)], gap_walls(1.2))
    st = replace(st, battle=replace(st.battle, step="move-units"))
    straight = [{"do": "select", "unit": "a", "move": "normal"},
                {"do": "move", "model": "mv", "path": [[30.0, 25.5]]}]
    _, res = apply_actions(st, straight)
    assert not res[1].ok and any("cross terrain" in r for r in res[1].reasons)
    turned = [{"do": "select", "unit": "a", "move": "normal"},
              {"do": "move", "model": "mv", "path": [[30.0, 18.0, 0.0], [30.0, 25.5]],
               "facing": 90.0}]
    end, res = apply_actions(st, turned)
    assert all(r.ok for r in res), [r.reasons for r in res]
    model = end.model("mv")[1]
    assert model.at == (30.0, 25.5) and model.facing == 90.0
    assert res[1].events[0]["to"] == [30.0, 25.5]
    # a saved game in the middle of the move loads back to the same staged path
    f = tmp_path / "mid.toml"
    save_scenario(end, f)
    back = load_scenario(f)
    assert back.battle.selection is not None
    assert [list(p) for p in back.battle.selection.staged[0]["path"]] == [[30.0, 18.0, 0.0],
                                                                          [30.0, 25.5]]
    # a turn that sweeps over the wall is refused with the reason
    blocked = [{"do": "select", "unit": "a", "move": "normal"},
               {"do": "move", "model": "mv", "path": [[30.0, 20.5], [30.0, 20.5, 0.0]]}]
    _, res = apply_actions(st, blocked)
    assert not res[1].ok and any("turning" in r for r in res[1].reasons)


def test_cli_path_prints_facings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.scenario.io import save_scenario

    st = state([unit("a", "red", [("mv", 30.0, 18.0)], base="oval 60x35mm", facing=90.0,
                     keywords=("MOUNTED",), M=8)], gap_walls(1.5))
    f = tmp_path / "gap.toml"
    save_scenario(st, f)
    assert main(["path", str(f), "--model", "mv", "--move", "normal", "--to", "30,26"]) == 0
    ans = json.loads(capsys.readouterr().out)
    assert ans["legal"] and all(len(p) == 3 for p in ans["path"])
    assert ans["facing"] == pytest.approx(90.0)
    assert abs(angle_between(ans["path"][2][2], 0.0)) % 180 == pytest.approx(0.0)


# -- speed without changing the zone ----------------------------------------------------------
def test_the_end_region_of_an_off_grid_facing_is_built_near_the_start_only() -> None:
    # a tank at 37 degrees (off the 15-degree grid) among enemies and terrain near and far:
    # its own facing's end region holds only what reaches within D of the start, and is the
    # board's one there
    from tabletop.rulesets.wh40k_11e.zones import move_query
    from tabletop.zones import turn_end, turn_phase

    enemies = unit("b", "blue", [(f"e{i}", x, y) for i, (x, y) in enumerate(
        [(30.0, 30.5), (38.0, 22.0), (20.0, 12.0), (50.0, 40.0), (5.0, 5.0), (44.0, 8.0),
         # beyond D + both radii, within 2" more: its engagement region reaches the disk
         (16.5, 22.0)])])
    walls = [rect("near", "impassable", 24.0, 14.0, 26.0, 18.0),
             rect("mid", "area", 36.0, 28.0, 40.0, 30.0),
             rect("far", "impassable", 52.0, 2.0, 56.0, 6.0)]
    st = state([hull_unit("a", (30.0, 22.0), 37.0, M=8.0), enemies], walls)
    q = move_query(st, "mv", "normal")
    ph = turn_phase(q, 15.0)
    whole = turn_end(ph, q.mover.footprint, 37.0)[0]
    near = turn_end(ph, q.mover.footprint, 37.0, (30.0, 22.0, 8.0))[0]
    disk = shapely.Point(30.0, 22.0).buffer(8.0 + 0.01, quad_segs=64)
    assert whole.intersection(disk).symmetric_difference(near.intersection(disk)).area < 1e-9
    # something far off was left out
    assert near.area < whole.area - 1.0
    assert not near.intersects(shapely.Point(5.0, 5.0).buffer(3.0))


def test_the_next_model_at_the_same_facing_takes_the_start_layer_made_and_its_zone() -> None:
    # two bikes of a unit at 37 degrees (off the 30-degree grid of ovals), 2.5" apart, among
    # walls and enemies near and far: the first pick-up makes the layer and the end region
    # of its own facing near its start with NEAR_MARGIN more, which hold the second model's
    # disk; the second takes them (nothing made anew), and its zone is the one computed from
    # nothing. A model 6" off is farther than the margin: its own are made for it
    from tabletop.geometry.turning import NEAR_MARGIN
    from tabletop.rulesets.wh40k_11e.zones import move_query
    from tabletop.zones import clear_caches, turn_end, turn_phase

    bikes = unit("a", "red", [("b1", 30.0, 22.0), ("b2", 32.0, 23.5), ("b3", 36.0, 22.0)],
                 base="oval 60x35mm", keywords=("MOUNTED",), M=8.0, facing=37.0)
    enemies = unit("e", "blue", [("e1", 30.0, 33.5), ("e2", 44.0, 20.0), ("e3", 5.0, 5.0)])
    walls = [rect("near", "impassable", 24.0, 14.0, 26.0, 18.0),
             rect("mid", "area", 36.0, 28.0, 40.0, 30.0),
             rect("far", "impassable", 52.0, 2.0, 56.0, 6.0)]
    st = state([bikes, enemies], walls)
    clear_caches()
    legal_zone(st, "b1", "normal")
    q = move_query(st, "b2", "normal")
    ph = turn_phase(q, 30.0)
    tm, fp = ph.tm, q.mover.footprint
    reach = 8.0 + tm.radius + 1e-6
    first = (30.0, 22.0)
    assert math.dist(first, (32.0, 23.5)) < NEAR_MARGIN < math.dist(first, (36.0, 22.0))
    assert tm.has_layer(37.0, (32.0, 23.5, reach))
    assert not tm.has_layer(37.0, (36.0, 22.0, reach))
    layer, end = tm.layer(37.0, (32.0, 23.5, reach)), turn_end(ph, fp, 37.0, (32.0, 23.5, 8.0))
    second = legal_zone(st, "b2", "normal").geometry
    assert tm.layer(37.0, (32.0, 23.5, reach)) is layer
    assert turn_end(ph, fp, 37.0, (32.0, 23.5, 8.0)) is end
    clear_caches()
    fresh = legal_zone(st, "b2", "normal").geometry
    assert second.symmetric_difference(fresh).area < 1e-9 and fresh.area > 20.0
    # the third model's disk is not held: its own are made, and its zone is as from nothing
    third = legal_zone(st, "b3", "normal").geometry
    clear_caches()
    assert third.symmetric_difference(legal_zone(st, "b3", "normal").geometry).area < 1e-9


def test_a_turning_zone_is_computed_once_per_board_and_model() -> None:
    from dataclasses import replace

    st = state([hull_unit("a", (30.0, 22.0), 37.0, M=8.0)],
               [rect("w", "impassable", 24.0, 14.0, 26.0, 18.0)])
    z = legal_zone(st, "mv", "normal")
    assert legal_zone(st, "mv", "normal") is z
    assert legal_zone(st, "mv", "normal", step=7.5) is not z
    assert legal_zone(st, "mv", "advance", roll=3).max_distance == 11.0
    # another board (a model moved) gets its own zone
    moved = replace(st, units=(hull_unit("a", (31.0, 22.0), 37.0, M=8.0),))
    z2 = legal_zone(moved, "mv", "normal")
    assert z2 is not z and z2.start == (31.0, 22.0)


def test_a_new_board_with_only_the_moving_sides_models_moved_keeps_the_phase() -> None:
    from dataclasses import replace

    from tabletop.rulesets.wh40k_11e.zones import move_query
    from tabletop.zones import clear_caches, turn_phase

    walls = [rect("w", "impassable", 24.0, 14.0, 26.0, 18.0)]
    enemy = unit("b", "blue", [("e1", 36.0, 24.0)])
    friend = unit("f", "red", [("f1", 22.0, 26.0)])
    tank = hull_unit("a", (30.0, 22.0), 37.0, M=8.0)
    st = state([tank, friend, enemy], walls)
    ph = turn_phase(move_query(st, "mv", "normal"), 15.0)
    friend_moved = replace(st, units=(tank, unit("f", "red", [("f1", 23.0, 27.0)]), enemy))
    assert turn_phase(move_query(friend_moved, "mv", "normal"), 15.0) is ph
    enemy_moved = replace(st, units=(tank, friend, unit("b", "blue", [("e1", 36.0, 25.0)])))
    assert turn_phase(move_query(enemy_moved, "mv", "normal"), 15.0) is not ph
    # and the zone on the new board is the one computed from nothing
    z = legal_zone(friend_moved, "mv", "normal").geometry
    clear_caches()
    fresh = legal_zone(replace(friend_moved), "mv", "normal").geometry
    assert z.symmetric_difference(fresh).area < 1e-9 and z.area > 10.0


def test_turn_nodes_are_built_only_near_the_pick_up_and_the_same_as_the_whole_boards() -> None:
    # a battlefield a mile wide (a fuzzed file) had millions of turn nodes along its edges:
    # they are built in tiles near the pick-up, and those near it are the whole board's
    from tabletop.geometry.footprints import Hull, parse_base
    from tabletop.geometry.turning import TurnMap

    circles = [(20.0, 20.0, 0.63), (26.0, 21.0, 1.0), (31.0, 24.0, 0.5)]
    polys = [((10.0, 10.0), (14.0, 10.0), (14.0, 12.0), (10.0, 12.0)),
             ((40.0, 30.0), (46.0, 30.0), (46.0, 30.4), (40.4, 30.4), (40.4, 34.0), (40.0, 34.0))]
    for fp in (parse_base("oval 60x35mm"), Hull(HULL_4X7)):
        whole = TurnMap(60.0, 44.0, fp, circles, polys).turn_nodes(15.0)
        tm = TurnMap(60.0, 44.0, fp, circles, polys)
        seen = 0
        for x, y, d in [(22.0, 20.0, 6.0), (44.0, 32.0, 12.0), (1.0, 1.0, 3.0)]:
            part = tm.turn_nodes(15.0, (x - d, y - d, x + d, y + d))
            a = np.hypot(whole.xy[:, 0] - x, whole.xy[:, 1] - y) < d
            b = np.hypot(part.xy[:, 0] - x, part.xy[:, 1] - y) < d
            seen += int(a.sum())
            assert np.array_equal(whole.xy[a], part.xy[b])
            assert np.array_equal(whole.lo[a], part.lo[b]) and np.array_equal(whole.n[a], part.n[b])
        assert seen > 100
    st = state([hull_unit("tank", (30.0, 22.0), 90.0), unit("e", "blue", [("e1", 36.0, 22.0)])],
               width=999_999.0, depth=999_999.0)
    assert legal_zone(st, "mv", "normal").area > 0


def test_a_witness_of_a_model_facing_a_million_degrees_keeps_its_facings_in_range() -> None:
    # fuzzing: a bike facing 1,000,000 degrees (a number a file may hold) that turned on the way
    # got a witness facing 1,000,140 degrees, past the limit of a path's numbers, and
    # validate_path refused its own zone's witness
    from dataclasses import replace

    from tabletop.geometry.footprints import parse_base

    bike = unit("bike", "red", [("b1", 20.0, 20.0)], keywords=("MOUNTED",), M=12.0,
                facing=1_000_000.0)
    bike = replace(bike, models=(replace(bike.models[0], base=parse_base("oval 35x60mm")),))
    st = state([bike, unit("e", "blue", [("e1", 27.0, 20.0)])],
               [rect("w", "impassable", 22.0, 14.0, 22.5, 26.0)])
    zone = legal_zone(st, "b1", "normal")
    checked = 0
    for x, y in [(25.0, 17.0), (26.0, 24.0), (24.0, 12.0), (18.0, 28.0)]:
        found = zone.path_to(x, y) if zone.contains(x, y) else None
        if found is None:
            continue
        assert all(0.0 <= p[2] < 360.0 for p in found.points)
        assert validate_path(st, "b1", "normal", found.points).legal
        checked += 1
    assert checked


def test_a_start_overlapping_an_enemy_gets_no_zone_without_witnesses() -> None:
    # a 25x50 mm rect 0.002" into an enemy's base (a hand-built state: a file like it is
    # refused as overlapping bases) had a 275 sq in zone whose points no path reached: its
    # start stood inside a grown piece its query left whole, and that disk's wedge was kept
    from dataclasses import replace

    from tabletop.geometry.footprints import parse_base

    def zone_at(ex: float):  # type: ignore[no-untyped-def]
        u = unit("m", "red", [("m1", 20.0, 20.0)], keywords=("MOUNTED",), M=10.0)
        u = replace(u, models=(replace(u.models[0], base=parse_base("rect 25x50mm")),))
        st = state([u, unit("e", "blue", [("e1", ex, 20.0)])])
        return st, legal_zone(st, "m1", "normal")

    _, stuck = zone_at(21.12)
    assert stuck.area == 0 and not stuck.contains(20.0, 25.0)
    st, touching = zone_at(20.0 + 12.5 / 25.4 + 16 / 25.4 + 1e-9)  # in contact: it moves
    assert touching.contains(20.0, 25.0)
    found = touching.path_to(20.0, 25.0)
    assert found is not None and validate_path(st, "m1", "normal", found.points).legal


def test_a_footprint_nearly_as_round_as_its_circle_gets_one_layer() -> None:
    # a hull 0.0002" across (found by fuzzing: 24 layers of a 2,000-corner visibility graph at
    # a 7.5-degree step, 3.4 s) turns where its circle is clear: one grid facing, whatever
    # the step; its zone is the round zone of its circle within the tolerance
    from tabletop.geometry.footprints import Hull, parse_base
    from tabletop.geometry.turning import nearly_round

    tiny = ((-1e-4, -1e-4), (1e-4, -1e-4), (1e-4, 1e-4), (-1e-4, 1e-4))
    assert nearly_round(Hull(tiny))
    assert not nearly_round(parse_base("oval 32x31.9mm"))  # 0.002" off its circle
    assert not nearly_round(Hull(HULL_4X7))
    blocks = [rect("b1", "impassable", 33.0, 18.0, 36.0, 26.0),
              rect("b2", "impassable", 24.0, 25.0, 29.0, 27.0)]
    enemy = unit("e", "blue", [("e1", 30.0, 17.0), ("e2", 31.4, 17.0)])
    st = state([hull_unit("a", (30.0, 22.0), 10.0, M=6, keywords=("INFANTRY",), points=tiny),
                enemy], blocks)
    zone = legal_zone(st, "mv", "normal", step=7.5)
    reach = zone.reach
    assert len(reach.layers) <= 2  # facing 0 and its own
    assert witnesses_hold(st, zone, 40) == 40
    dot = state([unit("a", "red", [("mv", 30.0, 22.0)], base=f"{2e-4 * math.sqrt(2) * 25.4}mm",
                      M=6), enemy], blocks)
    ref = legal_zone(dot, "mv", "normal")
    assert zone.geometry.symmetric_difference(ref.geometry).area < 0.02

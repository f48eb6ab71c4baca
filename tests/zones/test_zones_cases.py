"""Hand-computed legal zones: open ground, a wall and its shadow, gaps, the spec examples."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, box

from tabletop import legal_zone, setup_zone, validate_path
from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.geometry.footprints import circumscribed_circle
from tabletop.geometry.wedges import ARC_TOLERANCE

from support.paths import SPEC_EXAMPLES
from support.zones_boards import R32, rect, state, unit

EXAMPLES = SPEC_EXAMPLES


def lens(r1: float, r2: float, d: float) -> float:
    """Area of the intersection of two disks with centres ``d`` apart."""
    if d >= r1 + r2:
        return 0.0
    if d <= abs(r1 - r2):
        return math.pi * min(r1, r2) ** 2
    a1 = r1 * r1 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    a2 = r2 * r2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    k = 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))
    return a1 + a2 - k


def segment_area(radius: float, h: float) -> float:
    """Area of the part of a disk beyond a chord at distance ``h`` from its centre."""
    return radius * radius * math.acos(h / radius) - h * math.sqrt(radius * radius - h * h)


def close(area: float, true: float) -> None:
    """The zone never exceeds the true area and is within 0.2 % of it."""
    assert area <= true * (1 + 1e-9)
    assert area >= true * (1 - 0.002), (area, true)


def test_open_ground_disk() -> None:
    st = state([unit("a", "red", [("mv", 30.0, 22.0)])])
    zone = legal_zone(st, "mv", "normal")
    close(zone.area, math.pi * 36)
    assert zone.max_distance == 6.0
    assert zone.contains(35.99, 22.0) and not zone.contains(36.01, 22.0)
    assert zone.path_to(34.0, 25.0) == ((30.0, 22.0), (34.0, 25.0)) or \
        zone.path_to(34.0, 25.0).length == pytest.approx(5.0)


def test_open_ground_clipped_by_battlefield() -> None:
    st = state([unit("a", "red", [("mv", 3.0, 22.0)])])
    zone = legal_zone(st, "mv", "advance", roll=3)
    D = 9.0
    close(zone.area, math.pi * D * D - segment_area(D, 3.0 - R32))
    [v] = zone.explain(0.5, 22.0)
    assert v.rule == "off-battlefield"


def test_open_ground_engagement_buffers() -> None:
    st = state([unit("a", "red", [("mv", 30.0, 22.0)]),
                unit("b", "blue", [("e1", 35.0, 22.0), ("e2", 30.0, 16.5)])])
    zone = legal_zone(st, "mv", "normal")
    rho = 2 * R32 + 2.0
    true = math.pi * 36 - lens(6.0, rho, 5.0) - lens(6.0, rho, 5.5)
    close(zone.area, true)
    # exact decisions at the engagement boundary
    x_edge = 35.0 - rho
    assert zone.contains(x_edge - 1e-4, 22.0)
    reasons = zone.explain(x_edge + 1e-4, 22.0)
    assert [v.rule for v in reasons] == ["engaged"]
    assert reasons[0].models == ("mv", "e1")
    assert reasons[0].distance == pytest.approx(2.0 - 1e-4, abs=1e-9)


def test_pick_ups_on_one_board_see_each_other() -> None:
    """Zones of different models on the same state object (the per-board memo) exclude
    each other's bases, and equal the zones computed on a fresh copy of the board."""
    import dataclasses

    from tabletop.zones import clear_caches

    st = state([unit("a", "red", [("m1", 30.0, 22.0), ("m2", 31.4, 22.0)]),
                unit("b", "blue", [("e1", 36.0, 22.0)])])
    first, second = legal_zone(st, "m1", "normal"), legal_zone(st, "m2", "normal")
    assert not first.contains(31.4, 22.0) and not second.contains(30.0, 22.0)
    assert [v.rule for v in second.explain(30.0, 22.0)] == ["overlap-model"]
    clear_caches()
    fresh = legal_zone(dataclasses.replace(st), "m2", "normal")
    assert shapely.equals_exact(shapely.normalize(fresh.geometry),
                                shapely.normalize(second.geometry), 1e-9)


def _wall_state() -> tuple[object, tuple[float, float]]:
    wall = rect("wall", "impassable", 32.0, 10.0, 32.5, 30.0)
    st = state([unit("a", "red", [("mv", 30.0, 26.0)], M=8.0)], [wall])
    return st, (30.0, 26.0)


def _around_wall(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Analytic geodesic distance from (30, 26) around the wall's lower end (inflated by r)."""
    p = np.array([30.0, 26.0])
    c1, c2 = np.array([32.0, 30.0]), np.array([32.5, 30.0])
    r = R32

    def wrap(q: np.ndarray, c: np.ndarray, sign: float) -> tuple[np.ndarray, np.ndarray]:
        v = q - c
        dist = np.hypot(v[..., 0], v[..., 1])
        t = np.sqrt(dist * dist - r * r)
        beta = np.arctan2(v[..., 1], v[..., 0])
        tang = beta + sign * np.arccos(r / dist)
        # the arc from the tangent point to straight down (+y, angle pi/2)
        arc = np.abs(np.mod(tang - math.pi / 2 + math.pi, 2 * math.pi) - math.pi)
        return t, arc

    t1, a1 = wrap(p, c1, -1.0)
    q = np.stack([x, y], axis=-1)
    t2, a2 = wrap(q, c2, 1.0)
    return t1 + r * a1 + 0.5 + r * a2 + t2


def test_wall_shadow_and_arcs_around_its_end() -> None:
    st, _ = _wall_state()
    zone = legal_zone(st, "mv", "normal")
    # straight behind the wall: 4.5" away in a straight line, but the way round is longer
    reasons = zone.explain(34.5, 22.0)
    assert [v.rule for v in reasons] == ["unreachable"]
    assert "wall" in reasons[0].models
    # exact geodesic distances around the end: never shorter, at most 0.01" longer
    rng = np.random.default_rng(3)
    xs = rng.uniform(32.5 + R32 + 0.05, 36.0, 200)
    ys = rng.uniform(26.5, 30.0, 200)
    true = _around_wall(xs, ys)
    disk = zone.disk
    assert disk is not None
    for x, y, d in zip(xs, ys, true, strict=True):
        got = disk.distance_to(x, y)
        if d <= 8.0 - 0.02:
            assert d - 1e-9 <= got <= d + 0.01, (x, y, d, got)
        elif d > 8.0 + 0.01:
            assert not zone.contains(x, y)
    # the region behind the wall against the analytic union of arcs, on a fine grid
    h = 0.005
    gx, gy = np.meshgrid(np.arange(32.5 + R32 + h / 2, 37.0, h), np.arange(20.0 + h / 2, 30.0, h))
    inside_true = _around_wall(gx, gy) <= 8.0
    true_area = inside_true.sum() * h * h
    region = zone.geometry.intersection(box(32.5 + R32, 20.0, 37.0, 30.0))
    boundary = region.boundary.length
    assert region.area <= true_area + 0.5 * h * boundary
    assert region.area >= true_area - 0.01 * boundary, (region.area, true_area)
    inside = shapely.contains_xy(region, gx, gy)
    assert not (inside & ~inside_true).any() or \
        shapely.distance(shapely.MultiPoint(np.column_stack([gx[inside & ~inside_true],
                                                             gy[inside & ~inside_true]])),
                         shapely.MultiPoint(np.column_stack([gx[inside_true],
                                                             gy[inside_true]]))) <= 2 * h


@pytest.mark.parametrize(("gap", "passes"), [(0.5, False), (2.0, True)])
def test_gap(gap: float, passes: bool) -> None:
    left = rect("left", "impassable", 0.0, 19.5, 30.0 - gap / 2, 20.5)
    right = rect("right", "impassable", 30.0 + gap / 2, 19.5, 60.0, 20.5)
    st = state([unit("a", "red", [("mv", 30.0, 24.0)])], [left, right])
    zone = legal_zone(st, "mv", "advance", roll=3)
    assert zone.contains(30.0, 16.0) is passes
    if passes:
        path = zone.path_to(30.0, 16.0)
        assert path is not None and path.length == pytest.approx(8.0)
        assert validate_path(st, "mv", "advance", path.points, roll=3).legal
        assert zone.geometry.intersection(box(0, 0, 60, 19.5)).area > 10.0
    else:
        assert zone.geometry.intersection(box(0, 0, 60, 19.5)).area == 0.0
        assert [v.rule for v in zone.explain(30.0, 16.0)] == ["unreachable"]
        check = validate_path(st, "mv", "advance", [(30.0, 24.0), (30.0, 16.0)], roll=3)
        assert {v.rule for v in check.violations} == {"crosses-terrain"}
        assert {v.models[1] for v in check.violations} == {"left", "right"}


def test_validate_path_reports_everything() -> None:
    st = state([unit("a", "red", [("mv", 10.0, 22.0), ("f1", 14.0, 30.0)]),
                unit("b", "blue", [("e1", 13.0, 22.0)])])
    check = validate_path(st, "mv", "normal", [(10.0, 22.0), (16.0, 22.0), (14.0, 29.5)])
    rules = sorted(v.rule for v in check.violations)
    assert rules == ["crosses-enemy", "overlap-model", "path-too-long"]
    assert check.length == pytest.approx(6.0 + math.hypot(2.0, 7.5))
    for v in check.violations:
        assert v.geometry is not None and not v.geometry.is_empty
        assert v.message
    ok = validate_path(st, "mv", "normal", [(10.0, 22.0), (10.0, 17.0)])
    assert ok.legal and ok.length == pytest.approx(5.0)


def test_monster_passes_over_infantry_but_not_vehicles() -> None:
    st = state([unit("a", "red", [("mv", 10.0, 22.0)], keywords=("MONSTER",)),
                unit("b", "blue", [("e1", 14.0, 22.0)]),
                unit("c", "blue", [("v1", 14.0, 30.0)], keywords=("VEHICLE",))])
    over_inf = validate_path(st, "mv", "advance", [(10.0, 22.0), (17.5, 22.0)], roll=2)
    assert over_inf.legal
    over_veh = validate_path(st, "mv", "advance", [(10.0, 22.0), (10.0, 30.0), (17.0, 30.0)],
                             roll=6)
    assert "crosses-enemy" in {v.rule for v in over_veh.violations}
    fall = validate_path(st, "mv", "fall-back", [(10.0, 22.0), (16.0, 22.0)])
    assert "crosses-enemy" in {v.rule for v in fall.violations}


def test_dense_terrain_blocks_only_who_cannot_cross() -> None:
    wall = rect("w", "dense", 12.0, 10.0, 12.3, 34.0, height=4.0)
    low = rect("low", "dense", 12.0, 10.0, 12.3, 34.0, height=1.5)
    for keywords, terrain, crosses in [(("INFANTRY",), wall, True), (("VEHICLE",), wall, False),
                                       (("VEHICLE",), low, True), (("MOUNTED",), wall, False)]:
        st = state([unit("a", "red", [("mv", 10.0, 22.0)], keywords=keywords)], [terrain])
        zone = legal_zone(st, "mv", "normal")
        assert zone.contains(14.0, 22.0) is crosses, keywords
        # nobody ends on the wall
        assert not zone.contains(12.15, 22.0)
        assert "overlap-terrain" in {v.rule for v in zone.explain(12.15, 22.0)}


def test_non_round_base_uses_exact_footprint_at_the_end() -> None:
    st = state([unit("a", "red", [("mv", 10.0, 22.0)], base="rect 25x100mm",
                     keywords=("MOUNTED",), facing=0.0),
                unit("b", "red", [("f1", 13.0, 22.0)])])
    zone = legal_zone(st, "mv", "normal")
    half = 12.5 / 25.4
    # end test: the exact rectangle touching the friend (distance 0) is allowed
    assert zone.contains(13.0 - R32 - half - 1e-4, 22.0)
    assert not zone.contains(13.0 - R32 - half + 1e-3, 22.0)
    # the zone never holds a point whose exact footprint overlaps
    pts = np.random.default_rng(0).uniform([4, 16], [16, 28], (400, 2))
    for x, y in pts:
        if shapely.contains_xy(zone.geometry, x, y):
            assert not zone.explain(x, y)


def test_desperate_escape_contains_ordered_retreat_on_the_example() -> None:
    if not EXAMPLES.exists():
        pytest.skip("shared examples not available")
    from tabletop.scenario.io import load_scenario

    st = load_scenario(EXAMPLES / "fall-back.toml")
    ordered = legal_zone(st, "sq1", "fall-back", mode="ordered-retreat")
    desperate = legal_zone(st, "sq1", "fall-back", mode="desperate-escape")
    assert ordered.area > 5.0
    # equal up to the arcs' polygonisation (chords within ARC_TOLERANCE)
    assert ordered.geometry.difference(desperate.geometry.buffer(ARC_TOLERANCE)).area < 1e-9
    # the wall on the left is impassable: nothing beyond it
    assert ordered.geometry.intersection(box(0, 16, 24, 28)).area == 0.0
    with pytest.raises(UserError):
        legal_zone(st, "sq1", "fall-back", mode="sideways")
    with pytest.raises(UserError):
        legal_zone(st, "sq1", "advance")


def test_setup_zones_on_the_example() -> None:
    if not EXAMPLES.exists():
        pytest.skip("shared examples not available")
    from tabletop.scenario.io import load_scenario

    st = load_scenario(EXAMPLES / "reserves-and-transport.toml")
    ingress = setup_zone(st, "r1", "ingress")
    assert ingress.area > 50.0
    g = ingress.geometry
    r = R32
    # wholly within 6" of an edge, not in blue's deployment zone (x >= 42) in round 2
    assert g.intersection(box(6, 6, 54, 38).buffer(r - 1e-3)).area < 1e-9
    assert g.intersection(box(42 - r + 1e-3, 0, 60, 44)).area < 1e-9
    assert not ingress.explain(3.0, 3.0)
    assert {v.rule for v in ingress.explain(50.0, 3.0)} == {"ingress-zone"}
    assert ingress.path_to(3.0, 3.0) is None
    dis = setup_zone(st, "p1", "disembark")
    rhino = st.model("rh1")[1].footprint
    assert dis.geometry.difference(rhino.buffer(3.0 - r, quad_segs=256)).area < 1e-9
    assert dis.contains(14.0, 22.0 + 2.2 + r + 0.5)
    assert {v.rule for v in dis.explain(14.0, 22.0 + 2.2 + 3.5)} == {"disembark-range"}
    combat = setup_zone(st, "p1", "disembark", mode="combat")
    assert combat.area > dis.area


def test_cli_zone_and_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not EXAMPLES.exists():
        pytest.skip("shared examples not available")
    f = str(EXAMPLES / "fall-back.toml")
    assert main(["zone", f, "--model", "sq1", "--move", "fall-back"]) == 0
    feat = json.loads(capsys.readouterr().out)
    assert feat["type"] == "Feature"
    assert feat["properties"]["model"] == "sq1" and feat["properties"]["move"] == "fall-back"
    assert feat["properties"]["max_distance"] == 6.0
    geom = shapely.geometry.shape(feat["geometry"])
    assert geom.area == pytest.approx(feat["properties"]["area"])
    out = tmp_path / "z.wkt"
    assert main(["zone", f, "--model", "sq1", "--move", "fall-back", "--format", "wkt",
                 "-o", str(out)]) == 0
    assert shapely.from_wkt(out.read_text()).area == pytest.approx(geom.area)
    assert main(["path", f, "--model", "sq1", "--move", "fall-back", "--to", "26,16"]) == 0
    ans = json.loads(capsys.readouterr().out)
    assert ans["legal"] and ans["path"][0] == [28.0, 20.0] and ans["path"][-1] == [26.0, 16.0]
    assert main(["path", f, "--model", "sq1", "--move", "fall-back", "--to", "31,22"]) == 0
    ans = json.loads(capsys.readouterr().out)
    assert not ans["legal"] and ans["path"] == []
    assert {r["rule"] for r in ans["reasons"]} >= {"engaged"}
    assert main(["zone", f, "--model", "nobody", "--move", "normal"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_zone_is_inside_the_circumscribed_disk() -> None:
    st = state([unit("a", "red", [("mv", 30.0, 22.0)]),
                unit("b", "blue", [("e1", 33.0, 25.0)])])
    zone = legal_zone(st, "mv", "normal")
    assert zone.geometry.difference(circumscribed_circle(30.0, 22.0, 6.0)).area < 1e-9
    assert zone.nearest(40.0, 22.0) == pytest.approx((36.0, 22.0), abs=2e-3)
    assert zone.contains(*zone.nearest(40.0, 22.0))
    assert zone.contains(*zone.nearest(33.0, 25.5))
    assert Point(zone.nearest(33.0, 25.5)).distance(Point(33.0, 25.0)) >= 2 * R32 + 2.0

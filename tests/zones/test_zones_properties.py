"""Properties of legal zones on random boards (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import legal_zone, validate_path
from tabletop.geometry.footprints import circumscribed_circle
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.wedges import ARC_TOLERANCE

from support.zones_boards import random_board

SETTINGS = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

boards = st.tuples(st.integers(0, 10_000), st.sampled_from([10, 30, 80]))


def _samples(zone_geom: shapely.Geometry, seed: int, n: int, start: tuple[float, float],
             D: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array(start) + rng.uniform(-D - 1, D + 1, (n, 2))


@SETTINGS
@given(boards, st.integers(1, 6))
def test_inside_points_have_an_accepted_path(board: tuple[int, int], roll: int) -> None:
    seed, n = board
    state = random_board(seed, n)
    zone = legal_zone(state, "mv", "advance", roll=roll)
    start = state.model("mv")[1].at
    D = zone.max_distance
    pts = _samples(zone.geometry, seed, 400, start, D)
    inside = pts[shapely.contains_xy(zone.geometry, pts[:, 0], pts[:, 1])]
    for x, y in inside[:25]:
        assert zone.contains(x, y)
        res = zone.path_to(x, y)
        assert res is not None
        assert res.length <= D + EPS
        check = validate_path(state, "mv", "advance", res.points, roll=roll)
        assert check.legal, check.violations


@pytest.mark.slow
@SETTINGS
@given(boards)
def test_outside_points_have_a_reason(board: tuple[int, int]) -> None:
    seed, n = board
    state = random_board(seed, n)
    zone = legal_zone(state, "mv", "normal")
    start = state.model("mv")[1].at
    pts = _samples(zone.geometry, seed + 1, 300, start, 6.0)
    for x, y in pts:
        reasons = zone.explain(x, y)
        assert zone.contains(x, y) is (not reasons)
        if reasons:
            assert all(v.message and v.rule for v in reasons)
        else:
            # legal by the exact test: within the polygon's precision of the zone
            assert zone.geometry.distance(shapely.Point(x, y)) <= 0.01


@SETTINGS
@given(boards)
def test_zones_grow_with_distance_and_stay_in_the_disk(board: tuple[int, int]) -> None:
    seed, n = board
    state = random_board(seed, n)
    start = state.model("mv")[1].at
    prev = legal_zone(state, "mv", "normal").geometry
    for roll in (1, 3, 6):
        zone = legal_zone(state, "mv", "advance", roll=roll)
        assert prev.difference(zone.geometry.buffer(ARC_TOLERANCE)).area < 1e-9
        disk = circumscribed_circle(start[0], start[1], zone.max_distance, segments=512)
        assert zone.geometry.difference(disk).area < 1e-9
        prev = zone.geometry


@SETTINGS
@given(boards)
def test_desperate_escape_contains_ordered_retreat(board: tuple[int, int]) -> None:
    seed, n = board
    state = random_board(seed, n)
    ordered = legal_zone(state, "mv", "fall-back", mode="ordered-retreat")
    desperate = legal_zone(state, "mv", "fall-back", mode="desperate-escape")
    assert ordered.geometry.difference(desperate.geometry.buffer(ARC_TOLERANCE)).area < 1e-9
    assert desperate.area >= ordered.area - 1e-6
    assert math.isclose(ordered.max_distance, desperate.max_distance)

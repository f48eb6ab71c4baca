"""Block geometry: formation, poses, ranges and the flee extension."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from tabletop.geometry.blocks import (
    BlockGeom,
    flee_clear_distance,
    furthest_straight,
    wheel_limits,
    wheel_sweep,
)
from tabletop.geometry.tolerance import EPS, mm

W = mm(20)


def test_incomplete_last_rank_is_centred() -> None:
    g = BlockGeom(W, W, 7, 5, (10.0, 10.0), 0.0)
    assert g.ranks == 2 and g.width == pytest.approx(5 * W) and g.depth == pytest.approx(2 * W)
    rear = g.centres[5:]
    assert rear[:, 0].mean() == pytest.approx(10.0)  # centred behind the front rank
    assert rear[0, 0] == pytest.approx(10.0 - W / 2) and rear[1, 0] == pytest.approx(10.0 + W / 2)
    polys = g.model_polygons()
    for i, p in enumerate(polys):
        assert g.polygon.buffer(1e-9).contains(p)
        for q in polys[i + 1:]:
            assert p.intersection(q).area < 1e-12


def test_facing_90_looks_along_plus_x() -> None:
    g = BlockGeom(W, 2 * W, 3, 3, (10.0, 10.0), 90.0)
    assert g.forward == pytest.approx((1.0, 0.0))
    assert g.right == pytest.approx((0.0, 1.0))
    fl, fr = g.corners["fl"], g.corners["fr"]
    assert fl == pytest.approx((10.0 + W, 10.0 - 1.5 * W))
    assert fr == pytest.approx((10.0 + W, 10.0 + 1.5 * W))
    assert g.moved("forward", 2.0).at == pytest.approx((12.0, 10.0))
    assert g.moved("sideways", -1.0).at == pytest.approx((10.0, 9.0))
    # a clockwise wheel pivots on the right front corner, which stays put
    assert g.wheeled(30).corners["fr"] == pytest.approx(fr)
    assert g.wheeled(-30).corners["fl"] == pytest.approx(fl)
    assert g.wheeled(30).facing == 120.0


def test_furthest_straight_stops_at_contact() -> None:
    g = BlockGeom(W, W, 5, 5, (10.0, 10.0), 0.0)
    wall = box(5.0, 6.0, 15.0, 7.0)  # front edge at y = 10 - W/2; wall bottom at 7
    gap = (10.0 - W / 2) - 7.0
    assert furthest_straight(g, "forward", 10.0, wall) == pytest.approx(gap, abs=1e-6)
    assert furthest_straight(g, "backward", 1.5, wall) == 1.5
    # off to the side, nothing in the way
    assert furthest_straight(g, "sideways", 3.0, wall) == 3.0


def test_wheel_limits_against_a_post() -> None:
    g = BlockGeom(W, W, 5, 5, (10.0, 10.0), 0.0)
    post = box(7.5, 8.0, 7.6, 8.1)  # ahead of the left front corner
    lo, hi = wheel_limits(g, post)
    assert hi == 180.0
    assert -180.0 < lo < 0.0
    assert not wheel_sweep(g, lo).buffer(-EPS).intersects(post)
    assert wheel_sweep(g, lo - 0.01).intersects(post)


@settings(max_examples=40, deadline=None)
@given(roll=st.integers(2, 12), ox=st.floats(-3.0, 3.0), oy=st.floats(-14.0, -3.0),
       facing=st.floats(0, 360))
def test_flee_extension_is_the_minimum(roll: int, ox: float, oy: float, facing: float) -> None:
    g = BlockGeom(W, W, 10, 5, (30.0, 30.0), facing)
    ob = shapely.affinity.rotate(box(30.0 + ox - 1.5, 30.0 + oy - 0.5, 30.0 + ox + 1.5,
                                     30.0 + oy + 0.5), facing, origin=(30.0, 30.0))
    if g.polygon.intersects(ob):
        return
    t = flee_clear_distance(g, float(roll), [ob])
    assert t >= roll
    assert g.moved("forward", t).polygon.distance(ob) > 1.0 + EPS
    if t > roll:  # a little less would not do
        assert g.moved("forward", t - 1e-4).polygon.distance(ob) <= 1.0 + EPS
        # and no shorter free spot exists between the roll and t
        for k in range(50):
            s = roll + (t - roll) * k / 50
            assert g.moved("forward", s).polygon.distance(ob) <= 1.0 + EPS


def test_outer_arc_and_pivot() -> None:
    g = BlockGeom(W, W, 5, 5, (10.0, 10.0), 0.0)
    assert g.outer_arc_length(90) == pytest.approx(5 * W * math.pi / 2)
    assert g.pivoted(45).at == g.at
    r = g.reformed(1, 90)
    assert r.at == g.at and r.files == 1 and r.facing == 90

"""Footprints: parsing, placement, the never-smaller rule and distances."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from tabletop.geometry import (
    BaseParseError,
    Hull,
    Oval,
    Rect,
    Round,
    distance,
    footprint_distance,
    parse_base,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("32mm", Round(32)),
        ("28.5mm", Round(28.5)),
        ("oval 60x35mm", Oval(60, 35)),
        ("oval 170x109mm", Oval(170, 109)),
        ("rect 25x50mm", Rect(25, 50)),
    ],
)
def test_parse_accepts(text: str, expected: object) -> None:
    assert parse_base(text) == expected


@pytest.mark.parametrize(
    "text",
    ["33 mm", "33 inch", "oval 60mm", "OVAL 60x35mm", "rect 20×20mm", "square 20x20mm", "", "0mm",
     "32", " 32mm"],
)
def test_parse_refuses_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(BaseParseError) as err:
        parse_base(text)
    assert '"32mm", "oval 60x35mm", "rect 25x50mm" or "hull"' in str(err.value)


def test_the_issue_example_message() -> None:
    with pytest.raises(BaseParseError) as err:
        parse_base("33 mm")
    assert str(err.value) == (
        'unknown base "33 mm"; write "32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'
    )


def test_hull_needs_a_polygon() -> None:
    with pytest.raises(BaseParseError, match="hull"):
        parse_base("hull")
    h = parse_base("hull", ((-1, -2), (1, -2), (1, 2), (-1, 2)))
    assert isinstance(h, Hull) and h.radius == pytest.approx(math.sqrt(5))


def test_spec_round_trips() -> None:
    for text in ["32mm", "28.5mm", "oval 60x35mm", "rect 25x50mm"]:
        assert parse_base(text).spec == text


def test_facing_turns_clockwise_on_a_y_down_board() -> None:
    oval = parse_base("oval 60x35mm")
    # facing 0: long axis along y; facing 90: long axis along x
    minx, miny, maxx, maxy = oval.placed(0, 0, 0).bounds
    assert maxy - miny > maxx - minx
    minx, miny, maxx, maxy = oval.placed(0, 0, 90).bounds
    assert maxx - minx > maxy - miny
    # a hull's nose at local (0, -3) (towards the top edge) points to +x at facing 90
    hull = Hull(((0.0, -3.0), (1.0, 1.0), (-1.0, 1.0)))
    nose = max(hull.placed(10, 10, 90).exterior.coords, key=lambda p: p[0])
    assert nose == pytest.approx((13.0, 10.0))


@settings(max_examples=60, deadline=None)
@given(
    st.floats(10, 200),
    st.floats(10, 200),
    st.floats(0, 360),
    st.floats(0, 2 * math.pi),
)
def test_polygonised_round_and_oval_bases_are_never_smaller(
    a: float, b: float, facing: float, t: float
) -> None:
    """Every point of the true outline lies inside (or on) the polygon that stands for it."""
    for fp, (la, lb) in [(Round(a), (a, a)), (Oval(a, b), (a, b))]:
        poly = fp.placed(5.0, 7.0, facing)
        # a point on the true outline, facing 0: x across (width), y along (length)
        x, y = (lb / 25.4 / 2) * math.cos(t), (la / 25.4 / 2) * math.sin(t)
        f = math.radians(facing)
        px = 5.0 + x * math.cos(f) - y * math.sin(f)
        py = 7.0 + x * math.sin(f) + y * math.cos(f)
        assert poly.buffer(1e-9).contains(Point(px, py))


def test_round_round_distance_is_exact() -> None:
    r = parse_base("32mm")
    d = footprint_distance(r, (0, 0), 0, r, (3.0, 4.0), 0)
    assert d == pytest.approx(5.0 - 32 / 25.4, abs=1e-12)
    assert footprint_distance(r, (0, 0), 0, r, (1.0, 0), 0) == 0.0


def test_oval_distance_within_bound_of_analytic() -> None:
    oval, rnd = parse_base("oval 105x70mm"), parse_base("32mm")
    # facing 0: the oval's long semi-axis is along y. Round base straight below it.
    d = footprint_distance(oval, (10, 10), 0, rnd, (10, 15), 0)
    expected = 5.0 - 105 / 25.4 / 2 - 16 / 25.4
    assert expected - 1e-4 <= d <= expected + 1e-12
    # and across: the short semi-axis
    d = footprint_distance(oval, (10, 10), 0, rnd, (15, 10), 0)
    expected = 5.0 - 70 / 25.4 / 2 - 16 / 25.4
    assert expected - 1e-4 <= d <= expected + 1e-12


def test_rect_distance_is_exact() -> None:
    rect = parse_base("rect 25.4x50.8mm")  # 1" x 2"
    d = footprint_distance(rect, (0, 0), 0, rect, (3, 0), 0)
    assert d == pytest.approx(2.0, abs=1e-12)
    d = footprint_distance(rect, (0, 0), 90, rect, (3, 0), 0)  # turned: 2" across x
    assert d == pytest.approx(1.5, abs=1e-12)


def test_distance_to_terrain() -> None:
    wall = Polygon([(5, 0), (6, 0), (6, 10), (5, 10)])
    rnd = parse_base("25.4mm")  # radius 0.5
    assert distance(rnd, (3.0, 5.0), 0, wall) == pytest.approx(1.5, abs=1e-12)
    assert distance(rnd, (5.5, 5.0), 0, wall) == 0.0
    assert distance(rnd, (4.6, 5.0), 0, wall) == 0.0
    assert shapely.is_valid(parse_base("oval 60x35mm").placed(1, 1, 33))

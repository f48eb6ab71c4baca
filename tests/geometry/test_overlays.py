"""The survey's unions of large regions (:func:`tabletop.geometry.overlays.union_all`): on the
native engine the compiled core's overlay gives GEOS's point set to within its grid (no
boundary moved by more than 1.5e-7", checked both ways at 1e-6"), valid, with lines and points
dropped; on the Python engine and past the core's limits it is GEOS's union itself."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon, box

from tabletop.geometry import engine
from tabletop.geometry.overlays import union_all

native = engine.native_module()


def _regions(seed: int, n: int) -> list[shapely.Geometry]:
    """Discs, rings with holes, slivers and touching boxes: what reach fronts look like."""
    rng = np.random.default_rng(seed)
    out: list[shapely.Geometry] = []
    for _ in range(n):
        x, y = rng.uniform(0, 40, 2)
        kind = rng.integers(0, 4)
        if kind == 0:
            out.append(Point(x, y).buffer(rng.uniform(0.5, 8), quad_segs=64))
        elif kind == 1:
            r = rng.uniform(2, 8)
            out.append(Point(x, y).buffer(r).difference(Point(x, y).buffer(r * 0.5)))
        elif kind == 2:
            out.append(box(x, y, x + rng.uniform(0.001, 0.01), y + rng.uniform(3, 10)))
        else:
            w = rng.uniform(1, 5)
            out.append(shapely.union_all([box(x, y, x + w, y + w), box(x + w, y, x + 2 * w,
                                                                       y + w)]))
    return out


@pytest.mark.skipif(native is None, reason=engine.native_problem())
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40))
def test_the_cores_union_is_geos_union_within_its_grid(seed: int, n: int) -> None:
    parts = _regions(seed, n)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(engine.ENV, "python")
        want = union_all(parts)
        mp.setenv(engine.ENV, "native")
        got = union_all(parts)
    assert got.is_valid and got.geom_type in ("Polygon", "MultiPolygon")
    assert shapely.equals(want, shapely.union_all(parts))
    # the same point set to within the grid: neither reaches more than 1e-6" past the other
    assert got.difference(want.buffer(1e-6, quad_segs=2)).area <= 1e-12
    assert want.difference(got.buffer(1e-6, quad_segs=2)).area <= 1e-12
    assert abs(got.area - want.area) <= 2e-7 * want.length + 1e-9


@pytest.mark.parametrize("eng", ["python", "native"])
def test_lines_points_and_empties_are_dropped(monkeypatch: pytest.MonkeyPatch, eng: str) -> None:
    if eng == "native" and native is None:
        pytest.skip(engine.native_problem())
    monkeypatch.setenv(engine.ENV, eng)
    a, b = box(0, 0, 1, 1), box(1, 0, 2, 1)
    got = union_all([a, LineString([(5, 5), (6, 6)]), Point(9, 9), Polygon(),
                     shapely.GeometryCollection([b, Point(3, 3)])])
    assert got.geom_type == "Polygon" and abs(got.area - 2.0) < 1e-9
    assert union_all([]).is_empty and union_all([Point(1, 1)]).is_empty
    assert shapely.equals(union_all([a]), a)


@pytest.mark.skipif(native is None, reason=engine.native_problem())
def test_past_the_cores_limit_geos_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(engine.ENV, "native")
    far = [box(0, 0, 1, 1), box(1e9, 1e9, 1e9 + 1, 1e9 + 1)]
    got = union_all(far)
    assert got.geom_type == "MultiPolygon" and abs(got.area - 2.0) < 1e-6


@pytest.mark.skipif(native is None, reason=engine.native_problem())
def test_the_core_cuts_pinched_rings_into_valid_polygons() -> None:
    """Clipper2 may answer with a ring that touches itself at a vertex (two lobes meeting at a
    point, a hole pinched off its exterior); the core cuts such rings at the vertex, so its
    polygons are valid as they come, without GEOS's make_valid."""
    assert native is not None
    lobes = [box(0, 0, 1, 1), box(1, 1, 2, 2)]
    notch = [shapely.Polygon([(0, 0), (4, 0), (4, 4), (2, 4), (2, 2), (1.5, 3), (2.5, 3),
                              (2, 2), (2, 4), (0, 4)]).buffer(0)]
    ring_hole = [box(0, 0, 4, 4).difference(shapely.Polygon([(2, 0), (1, 1), (3, 1)]))]
    # four triangles whose union Clipper2 answers with a ring through (1, 2) twice
    pinched = [shapely.Polygon(p) for p in (((0, 1), (2, 4), (1, 2)), ((1, 0), (3, 0), (1, 2)),
                                            ((2, 0), (4, 3), (4, 0)), ((3, 1), (2, 4), (1, 3)))]
    for case in (lobes, notch, ring_hole, pinched):
        parts = shapely.get_parts(np.asarray(case, dtype=object))
        _, coords, (rings, starts) = shapely.to_ragged_array(parts)
        none = (np.zeros((0, 2)), np.zeros(1, np.int64), np.zeros(1, np.int64))
        c, r, s = native.overlay("union", (0.0, 0.0, 4.0, 4.0), 1.0,
                                 (coords, rings.astype(np.int64), starts.astype(np.int64)), none)
        got = shapely.from_ragged_array(shapely.GeometryType.POLYGON, c, (r, s))
        assert shapely.is_valid(got).all(), [shapely.is_valid_reason(g) for g in got]
        # (intersections rounded to the 1e-7" grid)
        assert abs(shapely.union_all(got).area - shapely.union_all(case).area) < 1e-6
    # the two lobes: two polygons meeting at (1, 1)
    c, r, s = native.overlay("union", (0.0, 0.0, 2.0, 2.0), 1.0,
                             tuple(np.asarray(a) for a in _ragged(lobes)),
                             (np.zeros((0, 2)), np.zeros(1, np.int64), np.zeros(1, np.int64)))
    assert len(s) - 1 == 2


def _ragged(geoms: list[shapely.Geometry]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _, coords, (rings, starts) = shapely.to_ragged_array(
        shapely.get_parts(np.asarray(geoms, dtype=object)))
    return np.ascontiguousarray(coords), rings.astype(np.int64), starts.astype(np.int64)


def test_a_core_polygon_whose_hole_runs_along_its_exterior_keeps_the_hole() -> None:
    # Clipper2 may answer a hole that shares a stretch of its polygon's exterior (a wall's
    # grown outline against the board's edge of a region); GEOS calls it invalid, and its
    # default repair (from the rings' linework) dropped the hole: an Outrider's zone on the
    # demo board then held 15.6 sq in inside a wall. The exterior minus the hole, as the core
    # meant it.
    from tabletop.geometry.wedges import native_polygons

    ring = Polygon([(0, 0), (10, 0), (10, 10), (0, 10)], [[(6, 4), (10, 4), (10, 6), (6, 6)]])
    assert not ring.is_valid
    _, coords, (rings, polys) = shapely.to_ragged_array([ring, box(20, 20, 21, 21)])
    got = native_polygons(coords, rings.astype(np.int64), polys.astype(np.int64))
    assert got.is_valid
    assert got.area == pytest.approx(92.0 + 1.0)
    assert not got.contains(Point(8, 5)) and got.contains(Point(3, 5))

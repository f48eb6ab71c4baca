"""The convex pieces of a polygon as the compiled core merges its triangles
(``native.merge_triangles``) against the Python engine's merge (``merge_convex`` by edges):
the same pieces, bit for bit, in the same order, on every current layout's terrain, on the
areas turning ovals sweep and on random polygons. (``convex_pieces`` is kept per polygon
whichever engine asked first: the two must agree exactly.)"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from tabletop.geometry import cspace, engine, polygons
from tabletop.geometry.footprints import Oval, Rect
from tabletop.importers import battlefields, dataset

from support.current_data import needs_wh40kdc

native = engine.native_module()
pytestmark = pytest.mark.skipif(native is None, reason=engine.native_problem())


def _both(poly: Polygon) -> tuple[list[bytes], list[bytes]] | None:
    """The pieces of ``poly`` by the core and by Python (as WKB), or ``None`` where the
    triangulation has flat triangles (the Python merge by overlays answers on both engines)."""
    cut = shapely.get_parts(shapely.constrained_delaunay_triangles(poly))
    cut = cut[shapely.area(cut) > 0]
    xy = shapely.get_coordinates(cut).reshape(len(cut), 4, 2)[:, :3]
    if polygons.flat_triangles(xy).any():
        return None
    tris = cut.tolist()
    got = polygons.merge_convex_native(native, tris, xy)
    want = polygons.merge_convex(tris, by_edges=True)
    return [shapely.to_wkb(p) for p in got], [shapely.to_wkb(p) for p in want]


def _check(poly: Polygon) -> int:
    """How many pieces, after checking that both merges give the same."""
    both = _both(poly)
    if both is None:
        return 0
    got, want = both
    assert got == want
    return len(got)


@needs_wh40kdc
@pytest.mark.parametrize("layout_id", battlefields.layout_ids() if dataset.available() else [])
def test_every_layouts_terrain_is_cut_alike(layout_id: str) -> None:
    state = battlefields.layout_state(layout_id)
    pieces = [_check(Polygon(t.polygon)) for t in state.terrain]
    assert len(pieces) == len(state.terrain)


@pytest.mark.parametrize("fp", [Oval(60, 35), Oval(90, 52.5), Oval(75, 42), Oval(170, 109)],
                         ids=str)
@pytest.mark.parametrize("turn", [7.5, 15.0, 30.0, 45.0])
def test_swept_areas_are_cut_alike(fp: Oval, turn: float) -> None:
    # the union swept_pieces cuts, caught on its way to convex_pieces
    seen: list[Polygon] = []
    real = cspace.convex_pieces

    def spy(p: Polygon) -> tuple[Polygon, ...]:
        seen.append(p)
        return real(p)

    cspace.convex_pieces = spy  # type: ignore[assignment]
    try:
        cspace.clear_footprint_caches()
        cspace.swept_pieces(fp, 0.0, turn)
    finally:
        cspace.convex_pieces = real  # type: ignore[assignment]
        cspace.clear_footprint_caches()
    assert seen or fp not in (Oval(60, 35), Oval(90, 52.5))
    for p in seen:
        pieces = _check(p)
        # (some ovals' triangulations have flat triangles: Python's merge by overlays cuts
        # them on both engines; the bike's and the Outrider's have none)
        assert pieces > 1 or fp not in (Oval(60, 35), Oval(90, 52.5))


def test_a_rectangle_with_an_l_shaped_notch() -> None:
    poly = Polygon([(0, 0), (4, 0), (4, 1), (2, 1), (2, 3), (4, 3), (4, 4), (0, 4)])
    assert _check(poly) >= 3


@st.composite
def star_polygons(draw: st.DrawFn) -> Polygon:
    """A polygon star-shaped about the origin: radii at increasing angles (some repeated and
    some on a grid of 1/8", where triangles meet edges exactly)."""
    n = draw(st.integers(4, 40))
    angles = sorted(draw(st.lists(st.floats(0.0, 2 * math.pi, exclude_max=True), min_size=n,
                                  max_size=n, unique=True)))
    radii = draw(st.lists(st.sampled_from([0.5, 1.0, 1.0, 2.0, 3.5]) |
                          st.floats(0.2, 5.0), min_size=n, max_size=n))
    snap = draw(st.booleans())
    pts = [(r * math.cos(a), r * math.sin(a)) for a, r in zip(angles, radii, strict=True)]
    if snap:
        pts = [(round(x * 8) / 8, round(y * 8) / 8) for x, y in pts]
    return Polygon(pts)


@settings(max_examples=300, deadline=None)
@given(star_polygons())
def test_random_polygons_are_cut_alike(poly: Polygon) -> None:
    poly = shapely.make_valid(poly)
    for p in shapely.get_parts(poly):
        if p.geom_type == "Polygon" and p.area > 0:
            _check(p)


def test_rectangles_footprints_and_holes() -> None:
    ring = Rect(50.0, 25.0).local_polygon(segments=64).buffer(2.0)
    holed = ring.difference(shapely.box(-0.5, -0.3, 0.4, 0.2))
    assert _check(holed) > 1


def test_a_refusal_falls_back_on_python() -> None:
    tris = [Polygon([(0, 0), (1, 0), (1, 1)]), Polygon([(0, 0), (1, 1), (0, 1)])]
    bad = np.array([[0.0, 0.0], [np.nan, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    with pytest.raises(native.NativeError):
        native.merge_triangles(bad)
    # the merge's own fallback answers as Python does
    got = polygons.merge_convex_native(native, tris, bad.reshape(2, 3, 2))
    assert [p.wkb for p in got] == [p.wkb for p in polygons.merge_convex(tris, by_edges=True)]

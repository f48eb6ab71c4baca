"""Growing polygons by a distance (Minkowski sums with a disk): never smaller, and tight."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from tabletop.geometry.minkowski import conservative_buffer, disk_sum, offset_convex


def _ring_distances(grown: shapely.Geometry, original: shapely.Geometry) -> np.ndarray:
    """Distances to ``original`` of points all along every ring of ``grown``."""
    out = []
    for ring in shapely.get_rings(shapely.get_parts(grown)):
        c = shapely.get_coordinates(ring)
        for s in np.linspace(0.0, 1.0, 9):
            out.append(shapely.distance(original, shapely.points(c[:-1] + (c[1:] - c[:-1]) * s)))
    return np.concatenate(out)


# coordinates to a millionth of an inch, as terrain comes (the rules' tolerance): GEOS cannot
# triangulate, join or buffer a polygon with a vertex 1e-300 from another, which hypothesis
# found; disk_sum then falls back on the conservative buffer, which GEOS gets wrong too there
COORD = st.floats(0, 10).map(lambda v: round(v, 6))


@settings(max_examples=150, deadline=None)
@given(pts=st.lists(st.tuples(COORD, COORD), min_size=3, max_size=11),
       d=st.floats(0.2, 3.0), quad_segs=st.sampled_from([4, 8, 16]))
# (found by hypothesis: a sliver 2e-6" wide whose pieces GEOS cannot join; the conservative
# buffer answers, with its own, larger, corner excess)
@example(pts=[(1.0, 0.0), (0.0, 1.0), (3.0, 0.0), (1.0, 2e-06), (2.0, 0.0), (2.0, 1.0)], d=1.0,
         quad_segs=4)
def test_disk_sum_is_never_smaller_and_tight(pts: list[tuple[float, float]], d: float,
                                             quad_segs: int) -> None:
    g = shapely.make_valid(Polygon(pts))
    parts = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon" and p.area > 0.05]
    if not parts:
        return
    g = shapely.MultiPolygon(parts) if len(parts) > 1 else parts[0]
    grown = disk_sum(g, d, quad_segs=quad_segs)
    assert grown.is_valid and shapely.contains(grown, g)
    rel = _ring_distances(grown, g) / d
    # every boundary point at least d away (the sum is inside), at most the corner excess: of
    # the tangent segments, or where disk_sum fell back on the conservative buffer, of that
    assert rel.min() >= 1 - 1e-9
    fell_back = grown.equals(conservative_buffer(g, d, quad_segs=quad_segs))
    excess = 3 * math.pi / (8 * quad_segs) if fell_back else math.pi / (4 * quad_segs)
    assert rel.max() <= 1 / math.cos(excess) + 1e-9


def test_disk_sum_keeps_straight_edges_exact() -> None:
    """A terrain wall grown by a base radius: the long sides sit at exactly the radius (GEOS's
    buffer, made conservative, puts them 0.1 % of the radius further out)."""
    wall = shapely.box(10.0, 10.0, 16.0, 10.5)
    r = 16 / 25.4
    exact_side = 10.5 + r
    assert disk_sum(wall, r, quad_segs=16).bounds[3] == exact_side
    assert conservative_buffer(wall, r, quad_segs=16).bounds[3] > exact_side + 5e-4


def test_offset_convex_circumscribes_the_corners() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    ring = offset_convex(square, 0.5, max_step=math.pi / 8)
    grown = Polygon(ring)
    exact = Polygon(square).buffer(0.5, quad_segs=256)
    assert grown.buffer(1e-9).contains(exact)
    assert shapely.hausdorff_distance(grown, exact) <= 0.5 * (1 / math.cos(math.pi / 16) - 1) + 1e-9


def test_tangent_cones_hold_every_tangent_line_within_the_cap() -> None:
    # the visibility graph takes a corner's candidates from its two cones: every point a
    # tangent line from the corner reaches within the cap must lie in one of them
    from tabletop.geometry.visibility import tangent, tangent_cones

    rng = np.random.default_rng(7)
    rings = [np.column_stack([np.cos(t), np.sin(t)]) * r + c for t, r, c in [
        (np.linspace(0, 2 * np.pi, 33)[:-1], 1.3, (3.0, 4.0)),  # a grown circle's 32-gon
        (np.array([0.0, 0.5 * np.pi, np.pi, 1.5 * np.pi]), 2.0, (8.0, 2.0)),  # a square
        (np.array([0.0, 0.02, np.pi]), 3.0, (5.0, 9.0))]]  # a needle
    rings.append(np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 1.0], [1.0, 2.0]]))  # a repeat
    cap = 6.0
    for ring in rings:
        u, a, b = ring, np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)
        cones, which = tangent_cones(u, a, b, cap)
        assert shapely.is_valid(cones).all()
        for k in range(len(u)):
            v = u[k] + rng.uniform(-cap, cap, (4000, 2))
            v = v[np.hypot(*(v - u[k]).T) <= cap]
            # and points on the edges' own lines, where the test is at its tolerance
            v = np.concatenate([v, u[k] + np.outer(np.linspace(-cap, cap, 41), a[k] - u[k]),
                                u[k] + np.outer(np.linspace(-cap, cap, 41), b[k] - u[k])])
            v = v[np.hypot(*(v - u[k]).T) <= cap]
            n = len(v)
            ok = tangent(np.broadcast_to(u[k], (n, 2)), v, np.broadcast_to(a[k], (n, 2)),
                         np.broadcast_to(b[k], (n, 2)))
            inside = shapely.intersects_xy(shapely.union_all(cones[which == k]), v[:, 0], v[:, 1])
            assert not (ok & ~inside).any(), (k, v[ok & ~inside][:3])

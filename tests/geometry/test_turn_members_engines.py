"""The turn nodes' membership test on the native engine (``NativeMembers``: the even-odd
parity of a step's turn region's edges crossed by a ray, else the closest edge's distance, both
in the core's outline of it) against
GEOS's region grown by EPS (``eps_grown``, the Python engine's): the same answer for every point
but those within 1e-7" of distance EPS from the region (the grown region's corners are
chords), on regions with holes and several parts, for points on both sides of their edges."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from tabletop.geometry import engine
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.turning import NativeMembers, eps_grown, node_members

native = engine.native_module()
pytestmark = pytest.mark.skipif(native is None, reason=engine.native_problem())


def _region(seed: int) -> shapely.Geometry:
    """Boxes and disks, some cut out again: holes, notches, several parts."""
    rng = np.random.default_rng(seed)
    add = [shapely.box(*(lambda x, y: (x, y, x + rng.uniform(0.5, 6), y + rng.uniform(0.5, 6)))(
        rng.uniform(0, 20), rng.uniform(0, 20))) for _ in range(rng.integers(1, 6))]
    add += [Point(rng.uniform(0, 24), rng.uniform(0, 24)).buffer(rng.uniform(0.3, 4))
            for _ in range(rng.integers(0, 4))]
    cut = [Point(rng.uniform(0, 24), rng.uniform(0, 24)).buffer(rng.uniform(0.2, 2))
           for _ in range(rng.integers(0, 5))]
    return shapely.union_all(add).difference(shapely.union_all(cut)) if cut else \
        shapely.union_all(add)


def _points(region: shapely.Geometry, seed: int) -> np.ndarray:
    """Points on the region's boundary moved by up to 3 EPS each way, and points anywhere."""
    rng = np.random.default_rng(seed + 1000)
    edge = shapely.boundary(region)
    on = shapely.get_coordinates(shapely.line_interpolate_point(
        edge, rng.uniform(0, 1, 3000), normalized=True))
    near = on + rng.uniform(-3 * EPS, 3 * EPS, on.shape)
    verts = shapely.get_coordinates(region)
    at_verts = verts + rng.uniform(-3 * EPS, 3 * EPS, verts.shape)
    anywhere = rng.uniform(-1, 26, (2000, 2))
    return np.concatenate([near, at_verts, anywhere])


@pytest.mark.parametrize("seed", range(16))
def test_the_cores_members_are_geos_grown_region(seed: int) -> None:
    region = _region(seed)
    tester = NativeMembers.of(native, region)
    assert tester is not None
    xy = _points(region, seed)
    got = np.asarray(node_members(tester, xy))
    want = np.asarray(node_members(eps_grown(region), xy))
    d = shapely.distance(region, shapely.points(xy))
    sure = np.abs(d - EPS) > 1e-7
    assert np.array_equal(got[sure], want[sure])
    # and the points well inside, on and near the edge are members, those 2 EPS off are not
    assert got[d == 0].all()
    assert not got[d > 2 * EPS].any()


def test_an_empty_region_has_no_test() -> None:
    assert NativeMembers.of(native, shapely.Polygon()) is None
    assert node_members(eps_grown(shapely.Polygon()), np.zeros((3, 2))) is False

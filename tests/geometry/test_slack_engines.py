"""Each corner's slack in an excluded set (the radius of a disk about it inside the set) by the
compiled core (``ReachMap.native_slack``) against GEOS's (``ReachMap.slack``, the Python
engine's): never more, and the same wherever the set's cut to the box does not bring a new edge
nearer (the core's set is cut to the box widened by 0.1"); 0 exactly where GEOS says 0."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from tabletop.geometry import engine
from tabletop.geometry.visibility import ReachMap

native = engine.native_module()
pytestmark = pytest.mark.skipif(native is None, reason=engine.native_problem())


def _case(seed: int) -> tuple[ReachMap, shapely.Geometry]:
    """A board of circles and rectangles, and an excluded set: engagement areas (disks about
    some bases), a wall's band and a ring with a hole, some reaching past the board's edge."""
    rng = np.random.default_rng(seed)
    circles = [(float(rng.uniform(0, 30)), float(rng.uniform(0, 22)),
                float(rng.choice([0.63, 0.5, 1.0]))) for _ in range(rng.integers(6, 30))]
    polys = []
    for _ in range(rng.integers(0, 5)):
        x, y = float(rng.uniform(1, 26)), float(rng.uniform(1, 18))
        w, h = float(rng.uniform(0.3, 4)), float(rng.uniform(0.3, 4))
        polys.append(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
    rm = ReachMap(30.0, 22.0, float(rng.choice([0.5, 0.63, 1.2])), circles, polys)
    parts = [Point(x, y).buffer(r + float(rng.uniform(0.5, 3.0)), quad_segs=32)
             for x, y, r in circles[: len(circles) // 2]]
    parts.append(shapely.box(-1.0, 5.0, 31.0, 5.0 + float(rng.uniform(0.2, 2.0))))
    x, y = float(rng.uniform(5, 25)), float(rng.uniform(5, 17))
    parts.append(Point(x, y).buffer(4.0).difference(Point(x, y).buffer(2.0)))
    return rm, shapely.union_all(parts)


@pytest.mark.parametrize("seed", range(12))
def test_the_core_slack_is_geos_slack_but_at_the_cut(seed: int) -> None:
    rm, exclude = _case(seed)
    assert len(rm.corners)
    want = rm.slack(("test", seed), exclude)
    got = rm.native_slack(native, ("test", seed), exclude)
    assert got.shape == want.shape
    assert np.all(got <= want + 1e-12)
    assert np.all(got[want == 0.0] == 0.0)
    # where the disk of GEOS's slack lies inside the widened box, the cut adds no edge to it
    x0, y0, x1, y1 = rm.box
    c = rm.corners
    inside = (c[:, 0] - want > x0 - 0.1 + 1e-9) & (c[:, 0] + want < x1 + 0.1 - 1e-9) & \
        (c[:, 1] - want > y0 - 0.1 + 1e-9) & (c[:, 1] + want < y1 + 0.1 - 1e-9)
    np.testing.assert_allclose(got[inside], want[inside], rtol=0, atol=1e-12)
    assert (want[inside] > 0).sum() > 10  # the cases do hold corners inside the set
    assert rm.native_slack(native, ("test", seed), exclude) is got  # kept under its key


def test_no_excluded_set_no_slack() -> None:
    rm = ReachMap(20.0, 20.0, 0.5, [(10.0, 10.0, 1.0), (4.0, 4.0, 0.5)])
    got = rm.native_slack(native, "empty", shapely.Polygon())
    assert got.shape == (len(rm.corners),) and not got.any()

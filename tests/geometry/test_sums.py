"""The layouts the compiled core reads rings in (tabletop.geometry.sums)."""

from __future__ import annotations

import numpy as np
from shapely.geometry import Polygon

from tabletop.geometry.sums import polygons_layout, rings_layout


def test_polygons_are_laid_out_as_their_rings() -> None:
    a = Polygon([(0, 0), (2, 0), (2, 1)])
    b = Polygon([(5, 5), (6, 5), (6, 6), (5, 6)])
    coords, starts = polygons_layout([a, b])
    ref_coords, ref_starts = rings_layout([np.asarray(a.exterior.coords)[:-1],
                                           np.asarray(b.exterior.coords)[:-1]])
    assert starts.tolist() == ref_starts.tolist() == [0, 3, 7]
    assert np.array_equal(coords, ref_coords)
    empty, none = polygons_layout([])
    assert empty.shape == (0, 2) and none.tolist() == [0]

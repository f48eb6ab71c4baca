"""Turning movers for the zone tests: a 4x7" hull unit and the witness-path check."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from tabletop import validate_path

from support.zones_boards import rect, state, unit

HULL_4X7 = ((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5))


def hull_unit(uid: str, at: tuple[float, float], facing: float, *, M: float = 10.0,
              keywords: tuple[str, ...] = ("VEHICLE",), points=HULL_4X7):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from tabletop.geometry.footprints import Hull

    u = unit(uid, "red", [("mv", *at)], base="32mm", keywords=keywords, M=M, facing=facing)
    m = replace(u.models[0], base=Hull(points))
    return replace(u, models=(m,))


def witnesses_hold(st, zone, n: int = 40, seed: int = 0, move: str = "normal") -> int:  # type: ignore[no-untyped-def]
    """Sample ``n`` points of the zone; each must have a path that validate_path accepts."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = zone.geometry.bounds
    done = 0
    for _ in range(50 * n):
        if done == n:
            break
        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        if not shapely.contains_xy(zone.geometry, x, y):
            continue
        res = zone.path_to(x, y)
        assert res is not None, (x, y)
        check = validate_path(st, zone.model, move, res.points)
        assert check.legal, (x, y, res.points, [v.message for v in check.violations])
        assert check.length == pytest.approx(res.length)
        done += 1
    return done


def l_bend(mover, w: float, x1: float):  # type: ignore[no-untyped-def]
    """Corridor 1 along x (y from 10 to 10 + w) turning into corridor 2 along y (x from
    x1 - w to x1)."""
    y1, x0 = 10.0 + w, x1 - w
    walls = [rect("bottom", "impassable", 3, 8, x1 + 2, 10), rect("right", "impassable", x1, 8,
                                                                    x1 + 2, 42),
             rect("end", "impassable", 3, 8, 5, y1 + 2), rect("top", "impassable", 3, y1, x0,
                                                               y1 + 2),
             rect("left", "impassable", x0 - 2, y1, x0, 42)]
    return state([mover], walls)

"""Zones of turning models against an independent layered grid (``turning_oracle``).

On random boards (walls, dense terrain, enemy groups) with ovals, rectangles and hulls:

- every cell the grid's lower bound finds legal (with layers at the zone's own facings) lies in
  the zone, or within the grid's own cell of its edge (the zone is not short of what a model
  turning at those facings can reach);
- every cell of the zone lies in the grid's upper bound (the zone is not permissive);
- every sampled point of the zone has a witness path that :func:`validate_path` accepts;
- refining the facing step (30, 15, 7.5 degrees) never loses area, and brings the zone closer
  to the upper bound.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from tabletop import legal_zone
from tabletop.geometry.footprints import Hull
from tabletop.geometry.turning import default_step

from support.turning import HULL_4X7, hull_unit, witnesses_hold
from support.turning_oracle import layered_grid
from support.zones_boards import rect, state, unit

LAND_RAIDER = ((-2.5, -4.3), (2.5, -4.3), (2.75, -3.6), (2.75, 3.8), (2.5, 4.3), (-2.5, 4.3),
               (-2.75, 3.8), (-2.75, -3.6))


def board(seed: int, base: str, *, enemies: int = 12, walls: int = 4, M: float = 6.0):  # type: ignore[no-untyped-def]
    """A random board around a mover in the open: walls and dense blocks, enemy groups."""
    rng = np.random.default_rng(seed)
    sx, sy = 30.0, 22.0
    terrain = []
    for k in range(walls):
        for _ in range(100):
            cx, cy = rng.uniform(sx - 9, sx + 9), rng.uniform(sy - 9, sy + 9)
            w, h = (rng.uniform(0.4, 1.0), rng.uniform(3, 7)) if rng.random() < 0.5 else \
                (rng.uniform(3, 7), rng.uniform(0.4, 1.0))
            t = rect(f"t{k}", ["impassable", "dense"][k % 2], cx - w / 2, cy - h / 2,
                     cx + w / 2, cy + h / 2, height=4.0)
            if t.shape.distance(shapely.Point(sx, sy)) > 5.0:
                terrain.append(t)
                break
    placed = []
    centre = rng.uniform([sx - 7, sy - 7], [sx + 7, sy + 7])
    for _ in range(400):
        if len(placed) == enemies:
            break
        x, y = centre + rng.normal(0, 1.5, 2)
        if math.dist((x, y), (sx, sy)) < 7.5:
            continue
        if any(math.dist((x, y), p[1:]) < 1.3 for p in placed):
            continue
        if any(t.shape.distance(shapely.Point(x, y)) < 0.7 for t in terrain):
            continue
        placed.append((f"e{len(placed)}", x, y))
    if base.startswith("hull"):
        pts = HULL_4X7 if base == "hull" else LAND_RAIDER
        mover = hull_unit("a", (sx, sy), 0.0, M=M, points=pts)
    else:
        mover = unit("a", "red", [("mv", sx, sy)], base=base, keywords=("MOUNTED",), M=M,
                     facing=float(rng.choice([0.0, 30.0, 90.0])))
    return state([mover, unit("b", "blue", placed)], terrain)


CASES = [(1, "oval 60x35mm"), (2, "oval 90x52.5mm"), (3, "rect 25x50mm"),
         (4, "rect 50x100mm"), (5, "hull"), (6, "hull-lr")]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "base"), CASES)
def test_zone_lies_between_the_grids_bounds(seed: int, base: str) -> None:
    st = board(seed, base)
    zone = legal_zone(st, "mv", "normal")
    h = 0.2
    # the grid's layers at the zone's own facings: what is compared is the motion, not the
    # facing step (which the convergence test below refines)
    step = default_step(st.model("mv")[1].base)
    b = layered_grid(st, "mv", "normal", 6.0, h=h, dphi=step)
    # 1. what the lower bound reaches, the zone holds, and 2. nothing of it lies outside the
    # upper bound (both up to the grid's own cell)
    b.hold(zone.geometry)
    assert b.lower_area * 0.98 - h * zone.geometry.length <= zone.area <= \
        b.upper_area + h * zone.geometry.length
    # 3. witnesses
    witnesses_hold(st, zone, 12, seed=seed)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "base"), [(7, "rect 25x50mm"), (8, "hull")])
def test_refining_the_facing_step_converges(seed: int, base: str) -> None:
    st = board(seed, base, walls=5)
    areas = []
    for step in (30.0, 15.0, 7.5):
        zone = legal_zone(st, "mv", "normal", step=step)
        areas.append(zone.area)
    assert areas[0] <= areas[1] * (1 + 1e-6) and areas[1] <= areas[2] * (1 + 1e-6), areas
    b = layered_grid(st, "mv", "normal", 6.0, h=0.2, dphi=7.5)
    # the finest zone is closer to the upper bound than the coarsest
    assert b.upper_area - areas[2] <= b.upper_area - areas[0]
    assert areas[2] <= b.upper_area + 0.2 * zone.geometry.length


def test_the_land_raider_is_not_symmetric() -> None:
    from tabletop.geometry.cspace import period

    assert period(Hull(LAND_RAIDER)) == 360.0
    assert period(Hull(HULL_4X7)) == 180.0


def _dijkstra(ok: np.ndarray, start: int, side: int, h: float) -> np.ndarray:
    """The oracle's grid distances by Dijkstra over (layer, cell): steps of ``STEPS`` leave
    cells where ``ok``, turns to the neighbouring layers (cyclic) are free where ``ok`` at
    both; the plain method that ``_relax``'s sweeps must agree with."""
    import heapq

    from support.turning_oracle import STEPS

    K = ok.shape[0]
    d = np.full(ok.shape, np.inf)
    d[0, start] = 0.0
    heap = [(0.0, 0, start)]
    while heap:
        dist, k, c = heapq.heappop(heap)
        if dist > d[k, c] or not ok[k, c]:
            continue
        r, q = divmod(c, side)
        nexts = [((k + s) % K, c, 0.0) for s in (1, -1) if ok[(k + s) % K, c]]
        nexts += [(k, (r + di) * side + q + dj, math.hypot(di, dj) * h) for di, dj in STEPS
                  if 0 <= r + di < side and 0 <= q + dj < side]
        for k2, c2, w in nexts:
            if dist + w < d[k2, c2]:
                d[k2, c2] = dist + w
                heapq.heappush(heap, (dist + w, k2, c2))
    return d


@pytest.mark.parametrize("seed", range(24))
def test_the_grids_relaxation_is_dijkstras_distances(seed: int) -> None:
    from support.turning_oracle import _relax

    rng = np.random.default_rng(seed)
    K, side = int(rng.integers(1, 7)), int(rng.integers(2, 14))
    ok = rng.random((K, side * side)) < rng.uniform(0.4, 0.95)
    start = int(rng.integers(0, side * side))
    got = _relax(ok, start, side, 0.2, 1.0)
    want = _dijkstra(ok, start, side, 0.2)
    assert np.array_equal(np.isinf(got), np.isinf(want))
    assert np.allclose(got[np.isfinite(got)], want[np.isfinite(want)], rtol=0, atol=1e-12)

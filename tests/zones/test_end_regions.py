"""Two engines, one end region: where a mover may not end (``zones.end.static_end``), built by the
Python engine (sum by sum, GEOS's union) and by the compiled core (one call), on random
footprints, facings, clearances, enemies and terrain of every base shape; both against the exact
distances of the end test.

What is compared (docs: exactness and speed, "two engines"):

- the native region is never smaller than the exact one: no centre outside it, near its
  boundary or anywhere, breaks an end rule (exact distances);
- the two differ by little: the straight edges of a sum grown by the clearance ``c`` lie where
  the Python engine's conservative buffer puts them (``c' = c / cos(pi / 64)``), the native
  corners are circumscribed about the arc of radius ``c'`` (vertices ``c' / cos(pi / 64)`` out)
  where GEOS's chords (up to 1.5 times its step of ``pi / 32``: it rounds the number of segments
  of a corner) may come as near as ``c' cos(3 pi / 128)``: within :data:`BAND` times ``c`` of
  each other (0.4 %), a sliver along the corners. (So GEOS's buffer, "conservative", reaches up
  to 0.15 % of ``c`` inside the exact region at such corners: the native region does not.)
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from tabletop.geometry import engine
from tabletop.geometry.footprints import Footprint, Hull, Oval, Rect, Round
from tabletop.geometry.tolerance import EPS
from tabletop.zones import end
from tabletop.zones.end import BodyKey, end_violations, models_region, static_end
from tabletop.zones.query import Board, Body, Piece

from support.engines import on_engine

pytestmark = pytest.mark.skipif(engine.native_module() is None, reason=engine.native_problem())

KINDS = ("round", "oval", "rect", "hull", "l-hull")
BAND = (1.0 / math.cos(math.pi / 64.0)) * (1.0 / math.cos(math.pi / 64.0)
                                          - math.cos(3.0 * math.pi / 128.0))
"""How far apart the two regions may lie, a fraction of the clearance (module docstring)."""


def _footprint(rng: np.random.Generator, kind: str) -> Footprint:
    if kind == "round":
        return Round(float(rng.uniform(25.0, 100.0)))
    if kind == "oval":
        a, b = sorted(rng.uniform(30.0, 120.0, 2))
        return Oval(float(b), float(a))
    if kind == "rect":
        return Rect(float(rng.uniform(20.0, 60.0)), float(rng.uniform(20.0, 100.0)))
    w, h = rng.uniform(0.8, 2.5, 2)
    if kind == "hull":
        # a convex hull: a box with one corner cut
        c = float(rng.uniform(0.1, 0.7)) * min(w, h)
        return Hull(((-w, -h), (w - c, -h), (w, -h + c), (w, h), (-w, h)))
    t = float(rng.uniform(0.3, 0.7))
    return Hull(((-w, -h), (w, -h), (w, -h + t * h), (-w + t * w, -h + t * h), (-w + t * w, h),
                 (-w, h)))


def _board(seed: int, kind: str) -> tuple[Footprint, float, tuple[BodyKey, ...],
                                           tuple[tuple[tuple[float, float], ...], ...], float]:
    rng = np.random.default_rng(seed)
    base = _footprint(rng, kind)
    facing = 0.0 if kind == "round" else float(rng.uniform(0.0, 360.0))
    enemies = []
    for _ in range(4):
        ek = KINDS[int(rng.integers(len(KINDS)))]
        fp = _footprint(rng, ek)
        enemies.append(((float(rng.uniform(5, 25)), float(rng.uniform(5, 19))), fp,
                        0.0 if ek == "round" else float(rng.uniform(0.0, 360.0))))
    terrain = []
    for _ in range(2):
        x, y = rng.uniform(4, 24), rng.uniform(4, 18)
        w, h = rng.uniform(1, 4, 2)
        # an L-shaped piece (not convex: cut into pieces first)
        terrain.append(((x, y), (x + w, y), (x + w, y + h / 3), (x + w / 3, y + h / 3),
                        (x + w / 3, y + h), (x, y + h)))
    clearance = float(rng.choice([0.0, 0.5, 1.0, 2.0, 3.0]))
    enemies.sort(key=lambda e: e[0])
    return base, facing, tuple(enemies), tuple(tuple(map(tuple, t)) for t in terrain), clearance


def _breaks(board: Board, base: Footprint, facing: float, p: tuple[float, float]) -> bool:
    """Whether the mover at ``p`` breaks an end rule of ``board`` other than the battlefield's
    edge (the exact end test: within the clearance of an enemy, overlapping one or a piece)."""
    mover = Body("mv", base, p, facing)
    return any(v.rule != "off-battlefield"
               for v in end_violations(board, mover, p[0], p[1], facing=facing,
                                       engagement=board.clearance > 0))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", KINDS)
def test_both_engines_build_one_end_region(kind: str, seed: int) -> None:
    base, facing, enemies, terrain, clearance = _board(100 * seed + KINDS.index(kind), kind)
    with on_engine("python"):
        ref = static_end(base, facing, enemies, terrain, clearance)
    with on_engine("native"):
        got = static_end(base, facing, enemies, terrain, clearance)
    assert got.is_valid and not got.is_empty
    # within the corners' difference of each other (module docstring), the symmetric difference
    # a sliver
    assert shapely.hausdorff_distance(ref, got, densify=0.05) <= BAND * clearance + 1e-6
    sym = ref.symmetric_difference(got).area
    assert sym <= 1e-3 * max(1.0, ref.area), (sym, ref.area)
    # the native region is never smaller than the exact one: centres just outside it (and
    # anywhere outside it) break no end rule (the clearance less 2 EPS: the grid's rounding)
    board = Board(60.0, 44.0, models=tuple(Body(f"e{k}", fp, at, f, enemy=True)
                                           for k, (at, fp, f) in enumerate(enemies)),
                  end_pieces=tuple(Piece(f"t{k}", t, "impassable") for k, t in enumerate(terrain)),
                  clearance=max(0.0, clearance - 2 * EPS))
    rng = np.random.default_rng(seed)
    edge = got.boundary
    on = shapely.get_coordinates(shapely.line_interpolate_point(
        edge, rng.uniform(0.0, edge.length, 300)))
    x0, y0, x1, y1 = got.bounds
    pts = shapely.points(np.concatenate([
        on + rng.normal(0.0, 2e-3, on.shape),
        np.column_stack([rng.uniform(x0, x1, 200), rng.uniform(y0, y1, 200)])]))
    outside = pts[~shapely.intersects(got, pts)]
    assert len(outside) > 100
    for p in outside:
        assert not _breaks(board, base, facing, (p.x, p.y)), (p.x, p.y)


def test_a_refusal_of_the_core_falls_back_to_the_python_engine() -> None:
    """An input past the core's limits (a model a million inches away) gets the Python
    engine's region, not an error."""
    base = Rect(25.0, 50.0)
    enemies: tuple[BodyKey, ...] = (((1e6, 0.0), Round(32.0), 0.0), ((0.0, 0.0), Round(32.0), 0.0))
    with on_engine("native"):
        got = static_end(base, 30.0, enemies, (), 1.0)
    with on_engine("python"):
        ref = static_end(base, 30.0, enemies, (), 1.0)
    assert got.symmetric_difference(ref).area < 1e-9
    assert got.contains(Point(1e6, 0.0))
    end.clear_end_caches()


@pytest.mark.parametrize("kind", KINDS)
def test_both_engines_build_one_friends_region(kind: str) -> None:
    """The friends' overlap regions (no clearance: exact sums, or the Python engine's own
    polygons of a round model) are the same polygons on both engines, up to the grid."""
    base, facing, friends, _, _ = _board(7 + KINDS.index(kind), kind)
    with on_engine("python"):
        ref = models_region(friends, base, facing, 0.0)
    with on_engine("native"):
        got = models_region(friends, base, facing, 0.0)
        assert models_region((), base, facing, 0.0).is_empty
    assert got.is_valid and not got.is_empty
    assert shapely.hausdorff_distance(ref, got) <= 1e-6
    assert ref.symmetric_difference(got).area <= 1e-6 * ref.area

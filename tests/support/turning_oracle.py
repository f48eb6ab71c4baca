"""An independent oracle for zones of models that turn as they move: a layered grid.

Cells of ``h`` inches around the start, layers every ``dphi`` degrees of facing. Nothing of the
zone engine is used: the footprint is placed at every cell centre and tested against the
obstacles with shapely's own predicates and distances, and distances are found by relaxing
grid moves (16 neighbours) and turns between neighbouring layers with numpy.

- *Lower bound* (every cell it finds is truly legal): a move leaves a cell only if the footprint
  there, grown by ``m`` (the longest step, and the most a footprint point moves in one turn of
  ``dphi``), keeps off the path obstacles, so every step and turn is a real motion; grid paths
  are never shorter than straight lines; the end rules are tested exactly at the cell centre.
- *Upper bound* (every truly legal point lies in a cell it finds, up to the grid's own
  metric): a cell is open at a layer if the footprint shrunk by ``s = h / sqrt(2) + R * dphi / 2``
  keeps off the obstacles (any pose in the cell within ``dphi / 2`` of the layer's facing covers
  that shrunk footprint), steps cost ``1 / 1.0275`` of their length (the most a 16-neighbour
  grid path overestimates a straight line) and the limit gets ``3 h`` more; the end rules are
  tested on the shrunk footprint.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from tabletop.geometry.footprints import Hull, Oval, Round
from tabletop.state import GameState

DENSE_CROSSERS = ("INFANTRY", "BEASTS", "SWARM", "MOBILE")
BIG = ("MONSTER", "VEHICLE")
STEPS = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
         (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]
GRID_STRETCH = 1.0275
"""How much longer than a straight line a 16-neighbour grid path can be (1 / cos(13.28 deg))."""


@dataclass
class Bounds:
    """Cell centres and, per cell, whether the lower and the upper bound reach and end there."""

    X: np.ndarray
    Y: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    h: float

    @property
    def lower_area(self) -> float:
        return float(self.lower.sum()) * self.h * self.h

    @property
    def upper_area(self) -> float:
        return float(self.upper.sum()) * self.h * self.h

    def hold(self, geom) -> None:  # type: ignore[no-untyped-def]
        """Assert that ``geom`` (a zone) holds what the lower bound reaches and lies inside
        the upper bound, both up to the grid's own cell."""
        h = self.h
        inside = shapely.contains_xy(geom, self.X, self.Y)
        missed = self.lower & ~inside
        if missed.any():
            d = shapely.distance(geom, shapely.points(self.X[missed], self.Y[missed]))
            assert d.max() <= h * math.sqrt(2) / 2 + 0.01, (d.max(), int(missed.sum()))
        extra = inside & ~self.upper
        if extra.any():
            d = shapely.distance(geom.boundary, shapely.points(self.X[extra], self.Y[extra]))
            assert d.max() <= h, (d.max(), int(extra.sum()))


def _footprint(base, facing: float, inner: bool) -> Polygon:  # type: ignore[no-untyped-def]
    """The footprint at the origin: for an oval an inscribed (``inner``) or circumscribed
    polygon, from the ellipse's own equation."""
    if isinstance(base, Oval):
        a, b = base.length_mm / 25.4 / 2, base.width_mm / 25.4 / 2
        n = 64
        t = (np.arange(n) + (0.0 if inner else 0.5)) * 2 * math.pi / n
        k = 1.0 if inner else 1.0 / math.cos(math.pi / n)
        u, v = k * b * np.cos(t), k * a * np.sin(t)
    elif isinstance(base, Hull):
        u, v = np.array([p[0] for p in base.points]), np.array([p[1] for p in base.points])
    else:
        w, d = base.frontage_mm / 25.4 / 2, base.depth_mm / 25.4 / 2
        u, v = np.array([-w, w, w, -w]), np.array([-d, -d, d, d])
    f = math.radians(facing)
    return Polygon(np.column_stack([u * math.cos(f) - v * math.sin(f),
                                    u * math.sin(f) + v * math.cos(f)]))


def _period(base) -> float:  # type: ignore[no-untyped-def]
    if isinstance(base, Hull):
        pts = {(round(x, 9), round(y, 9)) for x, y in base.points}
        return 180.0 if pts == {(round(-x, 9), round(-y, 9)) for x, y in pts} else 360.0
    return 180.0


@functools.lru_cache(maxsize=4)
def layered_grid(state: GameState, model_id: str, move: str, D: float, *, h: float = 0.15,
                 dphi: float = 10.0, mode: str | None = None) -> Bounds:
    """Lower and upper bounds of the zone of a non-round model (see the module docstring);
    kept for the next test that asks the same (its arrays are read-only)."""
    unit, model = state.model(model_id)
    base = model.base
    assert not isinstance(base, Round)
    sx, sy = model.at  # type: ignore[misc]
    W, H = state.battlefield.width, state.battlefield.depth
    R = base.radius
    per = _period(base)
    K = round(per / dphi)
    facings = [model.facing + k * per / K for k in range(K)]
    n = math.ceil((D + 1.0) / h)
    ii = np.arange(-n, n + 1)
    X, Y = np.meshgrid(sx + ii * h, sy + ii * h)
    cx, cy = X.ravel(), Y.ravel()
    big_mover = any(unit.has(k) for k in BIG)
    crosses = any(unit.has(k) for k in DENSE_CROSSERS)
    path_polys, path_circles, end_polys, enemy_polys, enemy_circles = [], [], [], [], []
    for u, m in state.placed_models():
        if m.id == model_id or math.dist(m.at, (sx, sy)) > D + R + m.base.radius + 3:
            continue
        enemy = u.player != unit.player
        poly = None if isinstance(m.base, Round) else m.base.placed(*m.at, m.facing,
                                                                   segments=256)
        in_path = enemy and mode != "desperate-escape" and not (
            big_mover and move in ("normal", "advance") and not any(u.has(k) for k in BIG))
        if isinstance(m.base, Round):
            if in_path:
                path_circles.append((*m.at, m.base.radius))
            if enemy:
                enemy_circles.append((*m.at, m.base.radius))
            end_polys.append(shapely.Point(m.at).buffer(m.base.radius, quad_segs=64))
        else:
            if in_path:
                path_polys.append(poly)
            if enemy:
                enemy_polys.append(poly)
            end_polys.append(poly)
    for t in state.terrain:
        if t.kind == "area":
            continue
        shape = Polygon(t.polygon)
        end_polys.append(shape)
        if t.kind == "impassable" or (t.kind == "dense" and not crosses and t.height > 2):
            path_polys.append(shape)
    path_union = shapely.union_all(path_polys) if path_polys else None
    end_union = shapely.union_all(end_polys) if end_polys else None
    for g in (path_union, end_union):
        if g is not None:
            shapely.prepare(g)
    step_len = max(math.hypot(*s) for s in STEPS) * h
    m_lo = max(step_len, R * math.radians(dphi)) + 1e-6
    s_hi = h / math.sqrt(2) + R * math.radians(dphi) / 2
    shape = (K, len(cx))
    free_lo = np.zeros(shape, bool)
    open_hi = np.zeros(shape, bool)
    end_lo = np.zeros(shape, bool)
    end_hi = np.zeros(shape, bool)
    for k, f in enumerate(facings):
        outer = _footprint(base, f, inner=False)
        inner = _footprint(base, f, inner=True).buffer(-s_hi, join_style="mitre")
        touch = outer.buffer(-1e-7, join_style="mitre")  # contact is not overlap
        tpl = [np.asarray(outer.exterior.coords)[:-1],
               np.asarray(inner.exterior.coords)[:-1] if not inner.is_empty else None,
               np.asarray(touch.exterior.coords)[:-1]]
        placed = []
        for c in tpl:
            if c is None:
                placed.append(None)
                continue
            coords = c[None, :, :] + np.column_stack([cx, cy])[:, None, :]
            placed.append(shapely.polygons(coords))
        lo, hi, lo_touch = placed
        b0, b1 = shapely.bounds(lo), shapely.bounds(hi) if hi is not None else None
        def on_table(b: np.ndarray, margin: float) -> np.ndarray:
            return (b[:, 0] >= margin) & (b[:, 1] >= margin) & (b[:, 2] <= W - margin) & \
                (b[:, 3] <= H - margin)

        def may_end(shape: np.ndarray, touch: np.ndarray, b: np.ndarray) -> np.ndarray:
            e = on_table(b, 0.0)
            if end_union is not None:
                e &= ~shapely.intersects(touch, end_union)
            for poly in enemy_polys:
                e &= shapely.distance(shape, poly) > 2.0
            for ex, ey, er in enemy_circles:
                e &= shapely.distance(shape, shapely.Point(ex, ey)) > er + 2.0
            return e

        # lower: clear of the path obstacles by m_lo, and on the battlefield by m_lo
        ok = on_table(b0, m_lo)
        if path_union is not None:
            ok &= shapely.distance(lo, path_union) >= m_lo
        for ex, ey, er in path_circles:
            ok &= shapely.distance(lo, shapely.Point(ex, ey)) >= er + m_lo
        free_lo[k] = ok
        # lower end: exact at the centre (the circumscribed polygon)
        end_lo[k] = may_end(lo, lo_touch, b0)
        if hi is None:
            open_hi[k] = True
            end_hi[k] = True
            continue
        ok = on_table(b1, 0.0)
        if path_union is not None:
            ok &= ~shapely.intersects(hi, path_union)
        for ex, ey, er in path_circles:
            ok &= shapely.distance(hi, shapely.Point(ex, ey)) >= er
        open_hi[k] = ok
        end_hi[k] = may_end(hi, hi, b1)
    side = len(ii)
    start = n * side + n
    lo_d = _relax(free_lo, start, side, h, 1.0)
    hi_d = _relax(open_hi, start, side, h, 1.0 / GRID_STRETCH)
    lower = ((lo_d <= D + 1e-9) & end_lo).any(axis=0).reshape(X.shape)
    upper = ((hi_d <= D + 3 * h) & end_hi).any(axis=0).reshape(X.shape)
    for a in (X, Y, lower, upper):
        a.flags.writeable = False
    return Bounds(X, Y, lower, upper, h)


def _relax(can_leave: np.ndarray, start: int, side: int, h: float, scale: float
           ) -> np.ndarray:
    """Grid distances over layers from the start at layer 0: steps leave cells where
    ``can_leave``; turns between neighbouring layers (cyclic) cost nothing where ``can_leave``
    at both, so every layer of a run of such turns in a cell takes the run's least distance."""
    K = can_leave.shape[0]
    d = np.full((K, side, side), np.inf)
    ok = can_leave.reshape(K, side, side)
    r0, c0 = divmod(start, side)
    d[0, r0, c0] = 0.0
    steps = [(di, dj, math.hypot(di, dj) * h * scale) for di, dj in STEPS]
    # each run's layers and cells gathered together (in ``order``, from ``starts`` on)
    _, run = np.unique(_turn_runs(ok.reshape(K, -1)).ravel(), return_inverse=True)
    order = np.argsort(run, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(run[order]) != 0])
    while True:
        old = d.copy()
        d = np.minimum.reduceat(d.ravel()[order], starts)[run].reshape(K, side, side)
        src = np.where(ok, d, np.inf)
        for di, dj, w in steps:
            ys = slice(max(0, -di), side - max(0, di))
            yd = slice(max(0, di), side - max(0, -di))
            xs = slice(max(0, -dj), side - max(0, dj))
            xd = slice(max(0, dj), side - max(0, -dj))
            np.minimum(d[:, yd, xd], src[:, ys, xs] + w, out=d[:, yd, xd])
        if np.array_equal(old, d):
            return d.reshape(K, -1)


def _turn_runs(ok: np.ndarray) -> np.ndarray:
    """For layers x cells ``ok``, a number per layer and cell, the same exactly where a cell's
    layers are joined by turns (layer k to k + 1, the last to the first, where ``ok`` at both)."""
    K, N = ok.shape
    joined = ok & np.roll(ok, -1, axis=0)  # row k: layer k to layer k + 1
    new = np.ones((K, N), bool)
    new[1:] = ~joined[:-1]  # a run starts at layer k unless joined to layer k - 1
    run = np.cumsum(new, axis=0) - 1  # 0 .. K - 1 in each cell
    wrap = joined[-1] & (run[-1] != run[0])  # the last run is the first one's
    run = np.where(wrap[None, :] & (run == run[-1][None, :]), run[0][None, :], run)
    return run + K * np.arange(N)[None, :]

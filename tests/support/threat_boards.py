"""Boards and an independent charge oracle for the threat-range tests.

The oracle answers "can this enemy model charge a base standing there?" from the zone engine's
own pieces, independently of :mod:`tabletop.geometry.outer`: the enemy's exact legal zone
(:func:`tabletop.legal_zone`, on the board without the unit that moves away) sampled
densely, and from each sampled end the engine's geodesic disk (the inner reach map of
:func:`tabletop.geometry.visibility.reach_map`: never shorter than a true path), with the charge
rules of the docs' rulings: the target within the roll of some model of the charging unit, and
the charger's base ending within engagement range of the target's. Every "yes" it gives is a real
charge (its path is checked by :func:`tabletop.validate_path` when asked).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.footprints import Round
from tabletop.geometry.visibility import ReachMap, reach_map
from tabletop.rulesets.wh40k_11e import rulings, zones
from tabletop.state import GameState, Unit

from support.zones_boards import R32, rect, state, unit

__all__ = ["R32", "Oracle", "rect", "samples_in", "state", "unit", "without"]


def without(st: GameState, gone: Iterable[str]) -> GameState:
    """``st`` with the units ``gone`` left off."""
    g = set(gone)
    return dataclasses.replace(st, units=tuple(u for u in st.units if u.id not in g))


def samples_in(region: BaseGeometry, spacing: float, *, boundary: float | None = None
               ) -> np.ndarray:
    """Points of ``region``: a grid ``spacing`` apart, and points every ``boundary`` inches
    along its rings (default: the spacing), each a hair inside."""
    if region.is_empty:
        return np.zeros((0, 2))
    x0, y0, x1, y1 = region.bounds
    xs, ys = np.meshgrid(np.arange(x0, x1, spacing), np.arange(y0, y1, spacing))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    inside = grid[shapely.contains_xy(region, grid[:, 0], grid[:, 1])]
    rim = shapely.segmentize(region.buffer(-1e-4), boundary or spacing)
    edge = shapely.get_coordinates(rim)
    edge = edge[shapely.contains_xy(region, edge[:, 0], edge[:, 1])]
    return np.concatenate([inside, edge])


@dataclasses.dataclass
class Oracle:
    """The charges of the models of enemy unit ``unit`` on ``board`` (the board the enemy
    moves on: the unit that moves away already left off), for a roll of ``roll``."""

    board: GameState
    unit: str
    roll: int
    spacing: float = 0.25

    def __post_init__(self) -> None:
        u = self.board.unit(self.unit)
        assert isinstance(u, Unit)
        self.enemy = u
        self.ends: list[np.ndarray] = []
        self.radii: list[float] = []
        self.maps: list[ReachMap] = []
        foes = [(o, m) for o, m in self.board.placed_models() if o.player != u.player]
        for m in u.models:
            if m.at is None:
                continue
            assert isinstance(m.base, Round), "the oracle takes round chargers"
            z = zones.legal_zone(self.board, m.id, "normal").geometry
            self.ends.append(samples_in(z, self.spacing * 2, boundary=self.spacing))
            self.radii.append(float(m.base.radius))
            circles = tuple(sorted((float(o.at[0]), float(o.at[1]), float(o.base.radius))
                                   for _, o in foes if o.at is not None))
            crosses = any(u.has(k) for k in rulings.DENSE_CROSSERS)
            stops = [t for t in self.board.terrain if t.kind == "impassable" or (
                t.kind == "dense" and not crosses and t.height > rulings.DENSE_LOW)]
            polys = tuple(sorted(tuple((float(x), float(y))
                                       for x, y in t.shape.exterior.coords[:-1]) for t in stops))
            self.maps.append(reach_map(self.board.battlefield.width,
                                       self.board.battlefield.depth, float(m.base.radius),
                                       circles, polys))

    def charged(self, targets: np.ndarray, target_radius: float, *, declared: bool = False,
                ring: int = 48) -> np.ndarray:
        """Whether a round base of ``target_radius`` centred on each of ``targets`` can be
        charged on the roll. ``declared``: its unit is a target anyway (another of its models
        made it one), so only the charge move counts."""
        n = len(targets)
        out = np.zeros(n, bool)
        if not n:
            return out
        x = float(self.roll)
        er = rulings.ENGAGEMENT_RANGE
        # the target within the roll of some model of the unit (closest bases, straight)
        ok_declare = np.ones(n, bool) if declared else np.zeros(n, bool)
        if not declared:
            for ends, r in zip(self.ends, self.radii, strict=True):
                if not len(ends):
                    continue
                tree = shapely.STRtree(shapely.points(ends))
                hit = tree.query(shapely.points(targets), predicate="dwithin",
                                 distance=x + r + target_radius)
                ok_declare[np.unique(hit[0])] = True
        # the charger's base within engagement range of the target's: its centre on the circle
        # a hair inside engagement range (points on it stand for the disc: the path reaches the
        # disc through its boundary), where it may end (on no terrain feature, no model)
        ang = np.linspace(0.0, 2 * math.pi, ring, endpoint=False)
        for ends, r, rm in zip(self.ends, self.radii, self.maps, strict=True):
            rho = r + er + target_radius - 1e-3
            pts = (targets[:, None, :] + rho * np.stack([np.cos(ang), np.sin(ang)], 1)[None]
                   ).reshape(-1, 2)
            pts = np.where(self._may_end(pts, r)[:, None], pts, np.inf)
            todo = ok_declare & ~out
            if not todo.any():
                break
            for q in ends:
                near = np.hypot(*(targets - q).T) <= x + rho + 1e-9
                near &= todo & ~out
                if not near.any():
                    continue
                disk = rm.disk((float(q[0]), float(q[1])), x)
                idx = np.nonzero(near)[0]
                sub = pts.reshape(n, ring, 2)[idx].reshape(-1, 2)
                d = disk.distances(sub).out.reshape(len(idx), ring)
                out[idx[(d <= x).any(axis=1)]] = True
        return out

    def _may_end(self, pts: np.ndarray, r: float) -> np.ndarray:
        """Whether a disc of radius ``r`` may end at each of ``pts``: on no terrain feature and
        no placed model (a hair of slack for contact)."""
        blocked = [t.shape for t in self.board.terrain if t.kind in rulings.END_TERRAIN]
        blocked += [Point(m.at).buffer(m.base.radius, quad_segs=32)
                    for _, m in self.board.placed_models() if m.at is not None]
        if not blocked:
            return np.ones(len(pts), bool)
        near = shapely.union_all(blocked).buffer(r - 1e-6, quad_segs=32)
        return ~shapely.intersects_xy(near, pts[:, 0], pts[:, 1])

    def witness(self, target: Sequence[float], target_radius: float
                ) -> tuple[str, list[tuple[float, ...]]] | None:
        """A charger and its charge path (from its move's end) to engagement with a base at
        ``target``, checked by :func:`~tabletop.validate_path` as a normal move of
        the roll (its end rules aside), or ``None``."""
        x = float(self.roll)
        ang = np.linspace(0.0, 2 * math.pi, 96, endpoint=False)
        for m, ends, r, rm in zip([m for m in self.enemy.models if m.at is not None],
                                  self.ends, self.radii, self.maps, strict=True):
            rho = r + rulings.ENGAGEMENT_RANGE + target_radius - 1e-3
            pts = np.asarray(target) + rho * np.stack([np.cos(ang), np.sin(ang)], 1)
            pts = pts[self._may_end(pts, r)]
            for q in ends:
                disk = rm.disk((float(q[0]), float(q[1])), x)
                d = disk.distances(pts).out
                k = int(np.argmin(d))
                if d[k] > x:
                    continue
                path = disk.path_to(float(pts[k, 0]), float(pts[k, 1]))
                assert path is not None
                moved = self.board.with_model(dataclasses.replace(
                    m, at=(float(q[0]), float(q[1])), M=x))
                check = zones.validate_path(moved, m.id, "normal", [list(p) for p in path])
                bad = [v for v in check.violations
                       if v.rule not in ("engaged", "overlap-model", "overlap-terrain")]
                assert not bad, (q, path, [v.message for v in bad])
                return m.id, [tuple(p) for p in path]
        return None

"""Setting up an army in its deployment zone, as a player would, legally.

:func:`set_up` places each unit of an army wholly within its player's deployment zone: every
model on the battlefield, none overlapping another model or standing partway through a light,
dense or impassable terrain feature (walls and solid features; models may stand on the open
ground of a terrain area, between a ruin's walls), each unit in coherency (each model within 2"
of another of its unit, all within 9" of each other), no model within engagement range of an
enemy, and every unit at least :data:`UNIT_GAP` from the models of other units, so that units
stay apart as a player sets them up (:data:`MARGIN` when the army does not fit so). An
attached leader is set up beside its bodyguard unit, within 2" of one of its models, and the
two make one group.

Groups are set up one after another, each as near as it fits to the *front centre* of the
zone (its point nearest the middle of the battlefield), so the army stands together towards the
enemy: each model goes on a grid of :data:`GRID` (candidate spots tested exactly: the base's
footprint against the zone, the terrain and the models already placed), the first model of a
unit nearest the front centre, each next one nearest the unit's middle among the spots that
keep it coherent. Bases face the middle of the battlefield (to the nearest 45 degrees); a
non-round base that does not fit so is tried turned a quarter. When a group does not fit, the
army is set up again with the largest bases first. Every unit set up is checked again with the
rules' own checks (coherency, overlaps, terrain, battlefield edge, engagement) before the next
one; a unit that does not fit says which unit and why (:class:`UserError`), with the units set
up before it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from tabletop.errors import UserError, ident
from tabletop.geometry.footprints import Footprint, Oval, Rect, Round
from tabletop.geometry.tolerance import EPS, mm
from tabletop.rulesets.wh40k_11e import rulings
from tabletop.rulesets.wh40k_11e.checks import (
    coherency_violations,
    edge_violations,
    engagement_violations,
    overlap_violations,
    terrain_violations,
)
from tabletop.state import GameState, Model, Unit

__all__ = ["ANCHORS", "GRID", "MARGIN", "UNIT_GAP", "Group", "facing_of", "grid_points",
           "inner_radius", "set_up"]

GRID = 0.25
"""Spacing of the candidate spots, inches."""
MARGIN = 0.05
"""Inches kept between bases of one unit, and from terrain features and the zone's edge."""
UNIT_GAP = 1.0
"""Inches kept between models of different groups (a leader and its bodyguard: MARGIN)."""
ANCHORS = 40
"""Spots tried for the first model of a group (at least 3" apart) before it is said not to
fit."""
COHERENT = rulings.COHERENCY_ONE - MARGIN
SPREAD = rulings.COHERENCY_ALL - MARGIN


@dataclass(frozen=True)
class Group:
    """A unit to set up (its models with ``at`` unset) and the leaders attached to it (each a
    unit of one model), set up together."""

    unit: Unit
    leaders: tuple[Unit, ...] = ()
    name: str = ""
    """How the army list names it, for messages (default: the unit's name or id)."""


def facing_of(state: GameState, player_id: str) -> float:
    """The facing from the middle of ``player_id``'s zone towards the middle of the
    battlefield, to the nearest 45 degrees (square to the battlefield's edges or across its
    corners, as a player sets models down: a Tipping Point zone's middle lies 7 degrees off
    the line to the middle); 0 when they coincide."""
    zone = state.player(player_id).zone_polygon
    assert zone is not None
    c = zone.centroid
    dx = state.battlefield.width / 2 - c.x
    dy = state.battlefield.depth / 2 - c.y
    if math.hypot(dx, dy) < 1e-9:
        return 0.0
    return float(round(math.degrees(math.atan2(dx, -dy)) / 45.0) * 45 % 360)


def inner_radius(fp: Footprint) -> float:
    """The radius of the largest circle about the centre inside the footprint."""
    if isinstance(fp, Round):
        return fp.radius
    if isinstance(fp, Oval):
        return mm(min(fp.length_mm, fp.width_mm)) / 2.0
    if isinstance(fp, Rect):
        return mm(min(fp.frontage_mm, fp.depth_mm)) / 2.0
    poly = fp.local_polygon()
    return float(poly.exterior.distance(Point(0.0, 0.0))) if poly.contains(Point(0, 0)) else 0.0


@dataclass
class _Board:
    """What the placement tests spots against: the zone, the terrain features, models."""

    zone: Polygon
    features: BaseGeometry
    models: list[tuple[Model, int]] = field(default_factory=list)
    """Placed models with the group they belong to (-1: set up before this army)."""
    gap: float = UNIT_GAP
    """How far a model stays from the models of other units."""
    spots: dict[tuple[str, float], np.ndarray] = field(default_factory=dict)

    def allowed(self, fp: Footprint, facing: float) -> np.ndarray:
        """Grid spots where ``fp`` at ``facing`` stands wholly in the zone, off the features
        (by :data:`MARGIN`); cached per base and facing."""
        key = (fp.spec if fp.spec != "hull" else repr(fp), facing)
        if key in self.spots:
            return self.spots[key]
        r_out, r_in = fp.radius, inner_radius(fp)
        inner = self.zone.buffer(-(r_in + MARGIN))
        if not self.features.is_empty:
            inner = inner.difference(self.features.buffer(r_in + MARGIN))
        sure = self.zone.buffer(-(r_out + 2 * MARGIN))
        if not self.features.is_empty:
            sure = sure.difference(self.features.buffer(r_out + 2 * MARGIN))
        grid = grid_points(inner)
        if len(grid) and not isinstance(fp, Round):
            ok = shapely.contains_xy(sure, grid[:, 0], grid[:, 1])
            test = np.flatnonzero(~ok)
            if len(test):
                zone = self.zone.buffer(-MARGIN, join_style="mitre")
                feats = self.features.buffer(MARGIN, join_style="mitre")
                shapely.prepare(zone)
                shapely.prepare(feats)
                polys = _placed(fp, facing, grid[test])
                ok[test] = shapely.contains(zone, polys) & ~shapely.intersects(feats, polys)
            grid = grid[ok]
        self.spots[key] = grid
        return grid


def grid_points(region: BaseGeometry, step: float = GRID) -> np.ndarray:
    """The points of the grid of ``step`` (inches, on multiples of it) inside ``region``, as an
    ``(n, 2)`` array.

    >>> from shapely.geometry import box
    >>> grid_points(box(0.1, 0.1, 1.2, 0.6), 0.5).tolist()
    [[0.5, 0.5], [1.0, 0.5]]
    """
    if region.is_empty:
        return np.empty((0, 2))
    minx, miny, maxx, maxy = region.bounds
    xs = np.arange(math.ceil(minx / step) * step, maxx + 1e-9, step)
    ys = np.arange(math.ceil(miny / step) * step, maxy + 1e-9, step)
    mx, my = np.meshgrid(xs, ys)
    gx, gy = mx.ravel(), my.ravel()
    inside = shapely.contains_xy(region, gx, gy)
    return np.column_stack([gx[inside], gy[inside]])


SEGMENTS = 64
"""Vertices of the circumscribed polygon that stands in for an oval while spots are chosen
(the exact rules' checks decide afterwards)."""


@lru_cache(maxsize=256)
def _outline(fp: Footprint, facing: float) -> tuple[np.ndarray, float]:
    """The footprint at ``facing`` about the origin as polygon coordinates never smaller than
    it, and how far at most they lie outside it (0 for a rectangle or a hull)."""
    poly = fp.placed(0.0, 0.0, facing, segments=SEGMENTS)
    err = 0.0
    if isinstance(fp, Oval):
        a, b = sorted((mm(fp.length_mm) / 2, mm(fp.width_mm) / 2), reverse=True)
        err = a * a / b * (1.0 / math.cos(math.pi / SEGMENTS) - 1.0)
    return np.asarray(poly.exterior.coords), err


def _placed(fp: Footprint, facing: float, spots: np.ndarray) -> np.ndarray:
    """The footprint's polygons at every spot (shapely's vectorised constructor)."""
    coords, _ = _outline(fp, facing)
    return shapely.polygons(coords[None, :, :] + spots[:, None, :])


def _bounds(fp: Footprint, facing: float, spots: np.ndarray, other: Model, upto: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of the distance from ``fp`` at each spot to a placed model:
    exact for two round bases, else the distance between the circumscribed polygons (never
    more than the true one) and that plus how far the polygons may lie outside the bases;
    where the circumscribed circles are more than ``upto`` apart, that distance and
    infinity."""
    assert other.at is not None
    centre = np.hypot(spots[:, 0] - other.at[0], spots[:, 1] - other.at[1])
    low = np.maximum(centre - fp.radius - other.base.radius, 0.0)
    if isinstance(fp, Round) and isinstance(other.base, Round):
        return low, low
    high = np.full(len(spots), np.inf)
    near = np.flatnonzero(low <= upto)  # farther than that: the bound decides
    if not len(near):
        return low, high
    at = np.asarray(other.at, dtype=float)
    if isinstance(other.base, Round):
        coords, err = _outline(fp, facing)
        polys = shapely.polygons(coords[None, :, :] + spots[near][:, None, :])
        d = np.maximum(shapely.distance(polys, Point(at)) - other.base.radius, 0.0)
    elif isinstance(fp, Round):
        coords, err = _outline(other.base, other.facing)
        poly = shapely.polygons(coords + at)
        d = np.maximum(shapely.distance(poly, shapely.points(spots[near])) - fp.radius, 0.0)
    else:
        coords, err_a = _outline(fp, facing)
        other_coords, err_b = _outline(other.base, other.facing)
        polys = shapely.polygons(coords[None, :, :] + spots[near][:, None, :])
        d = shapely.distance(polys, shapely.polygons(other_coords + at))
        err = err_a + err_b
    low[near] = d
    high[near] = d + err
    return low, high


def _clear(fp: Footprint, facing: float, spots: np.ndarray, other: Model,
           gap: float) -> np.ndarray:
    """Where ``fp`` is surely at least ``gap`` from ``other``."""
    return _bounds(fp, facing, spots, other, gap)[0] >= gap


def _within(fp: Footprint, facing: float, spots: np.ndarray, other: Model,
            limit: float) -> np.ndarray:
    """Where ``fp`` is surely within ``limit`` of ``other``."""
    return _bounds(fp, facing, spots, other, limit)[1] <= limit


def _place_models(unit: Unit, facing: float, board: _Board, group: int, first: np.ndarray,
                  *, join: Sequence[Model] = ()) -> list[Model] | None:
    """``unit``'s models placed from the spot ``first`` (or, with ``join``, beside those
    models), each coherent with the ones before; ``None`` when some model finds no spot."""
    placed: list[Model] = []
    for m in unit.models:
        fp = m.base
        spots = board.allowed(fp, facing)
        mates = list(placed) if placed else list(join)
        if mates:  # only spots within reach of the unit's models can be coherent with them
            reach = np.zeros(len(spots), dtype=bool)
            for o in mates:
                assert o.at is not None
                reach |= np.hypot(spots[:, 0] - o.at[0], spots[:, 1] - o.at[1]) <= (
                    fp.radius + o.base.radius + COHERENT)
            spots = spots[reach]
        else:
            spots = spots[np.hypot(spots[:, 0] - first[0], spots[:, 1] - first[1]) < 1e-9]
        if not len(spots):
            return None
        ok = np.ones(len(spots), dtype=bool)
        for other, g in board.models:
            ok &= _clear(fp, facing, spots, other, MARGIN if g == group else board.gap)
        for other in placed:
            ok &= _clear(fp, facing, spots, other, MARGIN)
        cand = spots[ok]
        if not mates:
            if not len(cand):
                return None
            placed.append(replace(m, at=(float(first[0]), float(first[1])), facing=facing))
            continue
        near = np.zeros(len(cand), dtype=bool)
        for other in mates:
            near |= _within(fp, facing, cand, other, COHERENT)
        cand = cand[near]
        for other in placed:
            cand = cand[_within(fp, facing, cand, other, SPREAD)]
        if not len(cand):
            return None
        cx = sum(o.at[0] for o in mates if o.at) / len(mates)
        cy = sum(o.at[1] for o in mates if o.at) / len(mates)
        k = int(np.argmin(np.hypot(cand[:, 0] - cx, cand[:, 1] - cy)))
        placed.append(replace(m, at=(float(cand[k, 0]), float(cand[k, 1])), facing=facing))
    return placed


def _legal(state: GameState, units: Sequence[Unit], zone: Polygon) -> list[str]:
    """What the rules say against ``units`` set up in ``state`` (already holding them)."""
    out: list[str] = []
    inside = zone.buffer(EPS, join_style="mitre")
    for u in units:
        for check in (coherency_violations,):
            out.extend(v.message for v in check(u))
        for rule in (overlap_violations, edge_violations, terrain_violations,
                     engagement_violations):
            out.extend(v.message for v in rule(state, u))
        for m in u.models:
            if not inside.contains(m.footprint):
                out.append(f"{ident(m.id)} is not wholly within the deployment zone")
    return out


def set_up(state: GameState, player_id: str, groups: Sequence[Group], *,
           who: str = "", progress: Callable[[str], None] | None = None) -> GameState:
    """``state`` with every unit of ``groups`` set up in ``player_id``'s deployment zone (see
    the module docstring). ``who`` names the army in messages (``"--roster red.txt"``).

    The groups are set up in their order; when one does not fit, the army is set up again
    with the groups of the largest bases first (as a player fits the big models in before
    filling round them), then so with the units as close to each other as the models of one
    unit (:data:`MARGIN` instead of :data:`UNIT_GAP`), and only when that fails too is the
    first failure said.

    Raises
    ------
    UserError
        The player has no deployment zone, or a group does not fit: which unit, and why (its
        base fits nowhere in the zone, or no room is left after the units set up before it).
    """
    try:
        return _set_up(state, player_id, groups, who=who, progress=progress)
    except UserError as first:
        bigger = sorted(groups, key=lambda g: -max(
            m.base.local_polygon().area for u in (g.unit, *g.leaders) for m in u.models))
        if state.player(player_id).zone_polygon is None:
            raise
        same = all(a is b for a, b in zip(bigger, groups, strict=True))
        for gap in (MARGIN,) if same else (UNIT_GAP, MARGIN):
            try:
                done = _set_up(state, player_id, bigger, who=who, progress=progress, gap=gap)
                break
            except UserError:
                continue
        else:
            raise first from None
        # the scenario lists the units in the army's order still
        order = {u.id: k for k, u in enumerate(u for g in groups for u in (g.unit, *g.leaders))}
        before = len(state.units)
        added = sorted(done.units[before:], key=lambda u: order[u.id])
        return replace(done, units=(*done.units[:before], *added))


def _set_up(state: GameState, player_id: str, groups: Sequence[Group], *, who: str,
            progress: Callable[[str], None] | None, gap: float = UNIT_GAP) -> GameState:
    who = who or f"player {player_id}"
    player = state.player(player_id)
    zone = player.zone_polygon
    if zone is None:
        raise UserError(f"{who}: player {ident(player_id)} has no deployment zone; choose a "
                        "deployment map")
    zone = zone.intersection(state.battlefield.polygon)
    features = unary_union([t.shape for t in state.terrain if t.kind in rulings.END_TERRAIN])
    board = _Board(zone, features, gap=gap)
    board.models = [(m, -1) for _, m in state.placed_models()]
    facing = facing_of(state, player_id)
    mid = Point(state.battlefield.width / 2, state.battlefield.depth / 2)
    front = shapely.ops.nearest_points(zone, mid)[0]
    current = state
    for g, group in enumerate(groups):
        placed = _place_group(current, group, g, board, facing, (front.x, front.y), zone)
        if isinstance(placed, str):
            name = group.name or group.unit.name or group.unit.id
            n = len(group.unit.models)
            bases = sorted({m.base.spec for m in group.unit.models})
            raise UserError(
                f"{who}: {ident(name, name=True)} ({n} model{'s' if n != 1 else ''} on "
                f"{', '.join(bases)}) does not fit in player {ident(player_id)}'s deployment "
                f"zone: {placed}")
        current = replace(current, units=(*current.units, *placed))
        for u in placed:
            board.models.extend((m, g) for m in u.models)
        if progress is not None:
            progress(group.unit.id)
    return current


def _place_group(state: GameState, group: Group, g: int, board: _Board, facing: float,
                 front: tuple[float, float], zone: Polygon) -> list[Unit] | str:
    """The group's units placed (first spots nearest ``front``), or why they do not fit."""
    unit = group.unit
    facings = [facing] + ([(facing + 90.0) % 360.0] if any(
        not m.base.is_round for m in unit.models) else [])
    lead = unit.models[0].base
    fits_empty = False
    tried_any = False
    for f in facings:
        spots = board.allowed(lead, f)
        if not len(spots):
            continue
        fits_empty = True
        for other, _ in board.models:
            spots = spots[_clear(lead, f, spots, other, board.gap)]
        order = np.argsort(np.hypot(spots[:, 0] - front[0], spots[:, 1] - front[1]),
                           kind="stable")
        tried: list[np.ndarray] = []
        for k in order:
            anchor = spots[k]
            if any(math.hypot(*(anchor - t)) < 3.0 for t in tried):
                continue
            tried.append(anchor)
            if len(tried) > ANCHORS:
                break
            tried_any = True
            models = _place_models(unit, f, board, g, anchor)
            if models is None:
                continue
            units = [replace(unit, models=tuple(models))]
            ok = True
            mates = list(models)
            for leader in group.leaders:
                board.models.extend((m, g) for m in mates)
                got = _place_models(leader, f, board, g, anchor, join=models)
                del board.models[len(board.models) - len(mates):]
                if got is None:
                    ok = False
                    break
                units.append(replace(leader, models=tuple(got)))
                mates.extend(got)
            if not ok:
                continue
            trial = replace(state, units=(*state.units, *units))
            if not _legal(trial, units, zone):
                return units
    bases = sorted({m.base.spec for m in unit.models})
    if not fits_empty:
        return (f"its base ({', '.join(bases)}) fits nowhere wholly within the zone off the "
                "terrain features")
    n_before = len({gg for _, gg in board.models if gg >= 0})
    if not tried_any:
        return (f"no spot of the zone is left {UNIT_GAP:g}\" from the {n_before} units set up "
                "before it")
    leaders = f" with its leader{'s' if len(group.leaders) > 1 else ''} beside it" \
        if group.leaders else ""
    return (f"no room for its models in coherency (each within 2\" of another, all within "
            f"9\"){leaders}, {UNIT_GAP:g}\" from the {n_before} units set up before it, off "
            "the terrain features")

"""Checking a drawn path of straight lines and turns in place against a :class:`MoveQuery`.

The swept area of the base along each line is tested exactly (not by sampling): a round base by
segment-to-circle and segment-to-polygon distances; a non-round base at the facing of each line
(the convex hull of its two placements per convex piece, an oval as its fine polygon, within
4e-7"), each turn by the exact test of its vertices' arcs against edges and of circles against
edges moved out by their radius (:func:`tabletop.geometry.cspace.turn_hits`): actual motions,
hence never permissive. Then the length of the lines (turns cost nothing) against the limit,
and the end against the end rules at the final facing.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError, describe, ident
from tabletop.geometry.cspace import angle_between, pieces_at, sweep_pieces, turn_hits
from tabletop.geometry.footprints import EXACT_SEGMENTS, Round, extent
from tabletop.geometry.polygons import convex_pieces
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.turning import Pose
from tabletop.zones.end import end_violations, exact_shape, fmt
from tabletop.zones.query import MAX_PATH_POINTS, Body, MoveQuery, Piece, query_point
from tabletop.zones.violation import Violation

__all__ = [
    "PathCheck",
    "PathResult",
    "check_path",
    "poses_of",
    "segment_blockers",
    "turn_violations",
]


class PathResult(NamedTuple):
    """A shortest path: its points (start first) and its length, inches.

    Points are ``(x, y)``, or ``(x, y, facing)`` for a model that turns as it moves."""

    points: tuple[tuple[float, ...], ...]
    length: float


@dataclass(frozen=True)
class PathCheck:
    """The verdict on a drawn path: every violation, the length and the limit."""

    points: tuple[tuple[float, ...], ...]
    length: float
    limit: float
    violations: tuple[Violation, ...] = ()

    @property
    def legal(self) -> bool:
        """Whether the path breaks no rule."""
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"legal": self.legal, "length": round(self.length, 6), "limit": self.limit,
                "path": [list(p) for p in self.points],
                "reasons": [v.to_json() for v in self.violations]}


def _why(piece: Piece, mid: str) -> str:
    """Why ``piece`` blocks the path of ``mid``, as its :attr:`Piece.why` says."""
    return piece.why.replace("{mover}", ident(mid))


def _terrain_violation(q: MoveQuery, piece: Piece, d: float | None, swept: BaseGeometry,
                       how: str) -> Violation:
    mid = q.mover.id
    return Violation("crosses-terrain",
                     f"{ident(mid)} would cross terrain {ident(piece.id)} ({_why(piece, mid)})"
                     f"{how}", (mid, piece.id), d, 0.0 if d is not None else None,
                     swept.intersection(piece.shape))


def segment_blockers(q: MoveQuery, a: tuple[float, float], b: tuple[float, float]
                     ) -> list[Violation]:
    """Path obstacles that the circumscribed circle of the mover meets along ``a - b``."""
    mid, r = q.mover.id, q.mover.footprint.radius
    seg = LineString([a, b]) if math.dist(a, b) > 0 else Point(a)
    out = []
    for o in q.board.path_models:
        if isinstance(o.footprint, Round):
            d = float(seg.distance(Point(o.at))) - o.footprint.radius
        else:
            d = float(seg.distance(exact_shape(o.footprint, o.at, o.facing)))
        if d < r - EPS:
            out.append(Violation(
                "crosses-enemy", f"{ident(mid)} would pass over enemy model {ident(o.id)}",
                (mid, o.id), max(d - r, 0.0), 0.0, seg.buffer(r, quad_segs=16).intersection(
                    exact_shape(o.footprint, o.at, o.facing))))
    for t in q.board.path_pieces:
        d = float(seg.distance(t.shape))
        if d < r - EPS:
            out.append(_terrain_violation(q, t, max(d - r, 0.0), seg.buffer(r, quad_segs=16),
                                          ""))
    return out


def _sweep(q: MoveQuery, a: tuple[float, float], b: tuple[float, float],
           facing: float | None = None) -> BaseGeometry:
    """The area the base covers moving from ``a`` to ``b`` at ``facing`` (default its own)."""
    base = q.mover.footprint
    if isinstance(base, Round):
        if math.dist(a, b) == 0:
            return Point(a).buffer(base.radius, quad_segs=32)
        return LineString([a, b]).buffer(base.radius, quad_segs=32)
    pa = exact_shape(base, a, q.mover.facing if facing is None else facing)
    off = np.array([b[0] - a[0], b[1] - a[1]])
    parts = []
    for p in convex_pieces(pa):
        c = np.asarray(p.exterior.coords)[:-1]
        parts.append(MultiPoint(np.vstack([c, c + off])).convex_hull)
    return shapely.union_all(parts)


def _crosses(mid: str, o: Body, where: str, d: float | None, swept: BaseGeometry) -> Violation:
    return Violation("crosses-enemy",
                     f"{ident(mid)} would pass over enemy model {ident(o.id)} {where}",
                     (mid, o.id), d, 0.0 if d is not None else None,
                     swept.intersection(exact_shape(o.footprint, o.at, o.facing)))


def _segment_violations(q: MoveQuery, a: tuple[float, float], b: tuple[float, float],
                        k: int, facing: float | None = None) -> list[Violation]:
    mover, board = q.mover, q.board
    mid, base = mover.id, mover.footprint
    facing = mover.facing if facing is None else facing
    out: list[Violation] = []
    where = f"on line {k + 1} of the path"
    if isinstance(base, Round):
        r = base.radius
        seg = LineString([a, b]) if math.dist(a, b) > 0 else Point(a)
        for o in board.path_models:
            if isinstance(o.footprint, Round):
                d = float(seg.distance(Point(o.at))) - o.footprint.radius - r
            else:
                d = float(seg.distance(exact_shape(o.footprint, o.at, o.facing))) - r
            if d < -EPS:
                out.append(_crosses(mid, o, where, d, _sweep(q, a, b)))
        for t in board.path_pieces:
            d = float(seg.distance(t.shape)) - r
            if d < -EPS:
                out.append(_terrain_violation(q, t, d, _sweep(q, a, b, facing), f" {where}"))
        x0, y0, x1, y1 = (r, r, board.width - r, board.depth - r)
        over = max(max(x0 - p[0], y0 - p[1], p[0] - x1, p[1] - y1) for p in (a, b))
    else:
        # the convex pieces translate: each sweeps the hull of its two placements (exact; an
        # oval as its fine polygon, within 4e-7")
        sweep = _sweep(q, a, b, facing)
        thin = sweep.buffer(-EPS, join_style="mitre")
        for o in board.path_models:
            if isinstance(o.footprint, Round):
                c = Point(o.at)
                hit = bool(sweep.contains(c)) or sweep.distance(c) < o.footprint.radius - EPS
            else:
                hit = bool(thin.intersects(exact_shape(o.footprint, o.at, o.facing)))
            if hit:
                out.append(_crosses(mid, o, where, None, sweep))
        for t in board.path_pieces:
            if thin.intersects(t.shape):
                out.append(_terrain_violation(q, t, 0.0, _sweep(q, a, b, facing), f" {where}"))
        # exact extents at both ends (the sweep of a translation spans them)
        ex0, ey0, ex1, ey1 = extent(base, facing)
        over = max(max(-(p[0] + ex0), -(p[1] + ey0), p[0] + ex1 - board.width,
                       p[1] + ey1 - board.depth) for p in (a, b))
    if over > EPS:
        out.append(Violation(
            "leaves-battlefield", f"the base of {ident(mid)} would leave the battlefield {where}",
            (mid,), over, 0.0, _sweep(q, a, b, facing)))
    return out


def turn_violations(q: MoveQuery, at: tuple[float, float], f0: float, f1: float,
                    where: str) -> list[Violation]:
    """Everything a turn in place at ``at`` from ``f0`` to ``f1`` (the shorter way) runs into.

    Exact (:func:`tabletop.geometry.cspace.turn_hits`: vertex arcs against edges), the base as
    its fine polygon; contact is allowed. Each violation carries the area the turn sweeps
    over the obstacle (conservative, for drawing).
    """
    turn = angle_between(f0, f1)
    base, mid, board = q.mover.footprint, q.mover.id, q.board
    if isinstance(base, Round) or abs(turn) <= 1e-12:
        return []
    foot = pieces_at(base, 0.0, EXACT_SEGMENTS)
    reach = base.radius * 1.001 + 1e-6
    near_models = [o for o in board.path_models
                   if math.dist(o.at, at) <= reach + o.footprint.radius]
    circles = [(o.at[0], o.at[1], o.footprint.radius) for o in near_models
               if isinstance(o.footprint, Round)]
    round_ids = [o for o in near_models if isinstance(o.footprint, Round)]
    poly_models = [o for o in near_models if not isinstance(o.footprint, Round)]
    near_terrain = [t for t in board.path_pieces if t.shape.distance(Point(at)) <= reach]
    rings = [np.asarray(exact_shape(o.footprint, o.at, o.facing).exterior.coords)[:-1]
             for o in poly_models] + [np.asarray(t.shape.exterior.coords)[:-1]
                                      for t in near_terrain]
    hp, hc, leaves = turn_hits(foot, at, f0, turn, rings, circles,
                               (0.0, 0.0, board.width, board.depth))
    if not (hp or hc or leaves):
        return []
    swept = shapely.union_all([Polygon(p + np.asarray(at)) for p in
                               sweep_pieces(pieces_at(base, 0.0), f0, turn)])
    out: list[Violation] = []
    how = f"turning from {f0 % 360:g} to {f1 % 360:g} degrees {where}"
    for k in hp:
        if k < len(poly_models):
            out.append(_crosses(mid, poly_models[k], how, None, swept))
        else:
            out.append(_terrain_violation(q, near_terrain[k - len(poly_models)], None, swept,
                                          f" {how}"))
    for k in hc:
        out.append(_crosses(mid, round_ids[k], how, None, swept))
    if leaves:
        out.append(Violation("leaves-battlefield", f"the base of {ident(mid)} would leave the "
                             f"battlefield {how}", (mid,), None, None, swept))
    return out


def poses_of(q: MoveQuery, points: Sequence[Sequence[float]]) -> list[Pose]:
    """The poses a path passes through, the start first.

    Each point ``(x, y)`` or ``(x, y, facing)`` means: move straight there keeping the facing,
    then (with a facing) turn in place to it, the shorter way. A point where the model stands
    already (the start, or the point before) is a turn alone.
    """
    sx, sy = q.mover.at
    out: list[Pose] = [(float(sx), float(sy), float(q.mover.facing))]
    for p in points:
        if len(p) not in (2, 3):
            raise UserError(f"a path point is [x, y] or [x, y, facing], not {describe(p)}")
        x, y = query_point(p[0], p[1])
        if len(p) == 3:
            query_point(p[2], 0.0)
        cur = out[-1][2]
        # a point where the model stands already is a turn alone (no line of no length)
        if math.dist((x, y), out[-1][:2]) > EPS:
            out.append((x, y, cur))
        if len(p) == 3 and abs(angle_between(cur, float(p[2]))) > 1e-12:
            out.append((out[-1][0], out[-1][1], float(p[2])))
    return out


def check_path(q: MoveQuery, points: Sequence[Sequence[float]]) -> PathCheck:
    """Check a drawn path of straight lines and turns for the mover of ``q``.

    ``points`` are ``(x, y)`` or ``(x, y, facing)``: the base moves straight to each point at
    its current facing, then turns in place to the facing given (the shorter way); a turn alone
    is a point at the same place with a new facing. The path may begin with the model's
    position (its facing, if given, a turn at the start); otherwise it starts there.

    Returns
    -------
    PathCheck
        ``legal``, ``length``, ``limit`` and every violation with its geometry; ``points``
        carry facings when the base turns or the path gave any.
    """
    if len(points) > MAX_PATH_POINTS:
        raise UserError(f"a path has at most {MAX_PATH_POINTS:,} points, not {len(points):,}")
    poses = poses_of(q, points)
    length = sum(math.dist(a[:2], b[:2]) for a, b in itertools.pairwise(poses))
    out: list[Violation] = []
    mid = q.mover.id
    if length > q.limit + EPS:
        line = [p[:2] for p in poses]
        out.append(Violation(
            "path-too-long", f"the path of {ident(mid)} is {fmt(length)} long, more than its "
            f"{fmt(q.limit)} {q.move} move", (mid,), length, q.limit, LineString(line)
            if len({tuple(p) for p in line}) > 1 else None))
    line_no = 0
    along = 0.0
    for a, b in itertools.pairwise(poses):
        if math.dist(a[:2], b[:2]) > 0 or a[2] == b[2]:
            out.extend(_segment_violations(q, a[:2], b[:2], line_no, a[2]))
            line_no += 1
            along += math.dist(a[:2], b[:2])
        else:
            out.extend(turn_violations(q, a[:2], a[2], b[2], f"after {fmt(along)} of its path"
                                       if line_no else "at the start"))
    end = poses[-1]
    out.extend(end_violations(q.board, q.mover, end[0], end[1], facing=end[2]))
    with_facing = not isinstance(q.mover.footprint, Round) or any(len(p) == 3 for p in points)
    pts: tuple[tuple[float, ...], ...] = tuple(poses) if with_facing else \
        tuple((x, y) for x, y, _ in poses)
    return PathCheck(pts, length, q.limit, tuple(out))

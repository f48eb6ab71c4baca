"""The engine's answer: a legal zone, with exact point tests, witness paths and reasons.

The zone's polygon (:attr:`Zone.geometry`) uses circumscribed polygons for every round outline
it removes and inscribed arcs for the reach limit, so it lies inside the true zone. Point
decisions (:meth:`Zone.contains`, :meth:`Zone.explain`) are exact: analytic circles, exact
polygon distances, and the geodesic distance of :mod:`tabletop.geometry.geodesic` (whose
obstacles are circumscribed, so it is never shorter than the true one). A zone keeps its query
(plain data), never a game state.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.errors import ident, idents
from tabletop.geometry.cspace import angle_between
from tabletop.geometry.geodesic import GeodesicDisk
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.turn_reach import TurnReach
from tabletop.geometry.turning import Pose
from tabletop.zones.end import battlefield_outline, end_violations, fmt
from tabletop.zones.paths import PathResult, segment_blockers
from tabletop.zones.query import MoveQuery, PlacementQuery, query_point
from tabletop.zones.violation import Violation

if TYPE_CHECKING:
    from tabletop.zones.build import TurnPhase

__all__ = ["SNAP_MARGIN", "Zone"]

SNAP_MARGIN = 0.05
"""Points farther than this outside the zone polygon are decided without the exact test."""


class _EndPose(NamedTuple):
    facing: float
    poses: list[Pose]


def _compact_poses(poses: Sequence[Pose]) -> list[Pose]:
    """Drop repeated poses and join consecutive turns in place that go the same way (up to
    less than half a turn each): the exact turn test answers the same for the joined turn."""
    out: list[Pose] = []
    for q in poses:
        q = (float(q[0]), float(q[1]), float(q[2]))
        if out and math.dist(out[-1][:2], q[:2]) <= 1e-12:
            if abs(angle_between(out[-1][2], q[2])) <= 1e-9:
                continue
            if len(out) >= 2 and math.dist(out[-2][:2], q[:2]) <= 1e-12:
                a = angle_between(out[-2][2], out[-1][2])
                b = angle_between(out[-1][2], q[2])
                if a * b > 0 and abs(a + b) < 180.0 - 1e-9:
                    out[-1] = q
                    continue
        out.append(q)
    return out


def _length(poses: Sequence[Pose]) -> float:
    return sum(math.dist(a[:2], b[:2]) for a, b in itertools.pairwise(poses))


class Zone:
    """A legal zone: where a model may end its move (or be set up).

    Attributes
    ----------
    geometry : shapely geometry
        The zone in inches (polygonised, inside the true zone).
    max_distance : float
        The move's limit ``D`` (0 for a set-up zone).
    model, move : str
        The model and the move type (``"ingress"`` or ``"disembark"`` for set-up zones).
    mode : str or None
        The fall-back or disembark mode.
    query : MoveQuery or PlacementQuery
        What the engine was asked.
    """

    def __init__(self, query: MoveQuery | PlacementQuery, geometry: BaseGeometry, *,
                 disk: GeodesicDisk | None = None,
                 turning: tuple[TurnReach, TurnPhase] | None = None,
                 checks: Callable[[float, float], list[Violation]] | None = None) -> None:
        self.query = query
        self.geometry = geometry
        shapely.prepare(self.geometry)
        self._disk = disk
        self._turning = turning
        self._checks = checks
        self.model = query.mover.id
        self.move = query.move if isinstance(query, MoveQuery) else query.kind
        self.mode = query.mode
        self.max_distance = query.limit if isinstance(query, MoveQuery) else 0.0
        self._near_geometry: BaseGeometry | None = None
        self._pose_memo: tuple[tuple[float, float], _EndPose | None] | None = None

    def __repr__(self) -> str:
        return (f"Zone(model={self.model!r}, move={self.move!r}, "
                f"max_distance={self.max_distance}, area={self.area:.3f})")

    @property
    def _move(self) -> MoveQuery:
        assert isinstance(self.query, MoveQuery)
        return self.query

    @property
    def _near(self) -> BaseGeometry:
        """The zone grown by :data:`SNAP_MARGIN` (built on first use, prepared)."""
        if self._near_geometry is None:
            g = self.geometry.buffer(SNAP_MARGIN, quad_segs=2) if not self.geometry.is_empty \
                else Polygon()
            shapely.prepare(g)
            self._near_geometry = g
        return self._near_geometry

    @property
    def area(self) -> float:
        """Area of :attr:`geometry`, square inches."""
        return float(self.geometry.area)

    @property
    def start(self) -> tuple[float, float] | None:
        """Where the model stands (``None`` for a set-up zone)."""
        if not isinstance(self.query, MoveQuery):
            return None
        x, y = self.query.mover.at
        return (float(x), float(y))

    @property
    def turns(self) -> bool:
        """Whether the model turns as it moves (a non-round base): paths carry facings."""
        return self._turning is not None

    @property
    def reach(self) -> TurnReach | None:
        """A turning mover's reach (its layers, their searches and witnesses), else ``None``."""
        return self._turning[0] if self._turning is not None else None

    @property
    def disk(self) -> GeodesicDisk | None:
        """A round mover's geodesic disk (its search), else ``None``."""
        return self._disk

    def contains(self, x: float, y: float) -> bool:
        """Whether ``(x, y)`` is a legal end point (exact test near the zone's boundary)."""
        x, y = query_point(x, y)
        if shapely.contains_xy(self.geometry, x, y):
            return True
        if not shapely.contains_xy(self._near, x, y):
            return False
        return not self.explain(x, y)

    def explain(self, x: float, y: float) -> list[Violation]:
        """Every reason why ``(x, y)`` is not a legal end point (empty when it is legal)."""
        x, y = query_point(x, y)
        if self._turning is not None:
            return self._turning_reasons(x, y)
        if self._checks is not None:
            return list(self._checks(float(x), float(y)))
        q = self._move
        out = end_violations(q.board, q.mover, x, y)
        if not any(v.rule == "off-battlefield" for v in out):
            out.extend(self._reach_violations(float(x), float(y)))
        return out

    def _too_far(self, straight: float, x: float, y: float) -> Violation:
        q = self._move
        start = self.start
        assert start is not None
        return Violation(
            "too-far", f"{ident(q.mover.id)} would move {fmt(straight)} in a straight line, "
            f"more than its {fmt(q.limit)} {q.move} move", (q.mover.id,), straight, q.limit,
            LineString([start, (x, y)]))

    def _reach_violations(self, x: float, y: float) -> list[Violation]:
        assert self._disk is not None
        q, mid = self._move, self.model
        start = self.start
        assert start is not None
        d = self._disk.distance_to(x, y)
        if math.isfinite(d) and d <= q.limit + EPS:
            return []
        straight = math.dist(start, (x, y))
        r = q.mover.footprint.radius
        W, H = q.board.width, q.board.depth
        if min(x - r, y - r, W - r - x, H - r - y) < -EPS:
            return [Violation(
                "unreachable", f"no legal path reaches this point: the base of {ident(mid)} (its "
                f"circumscribed circle of radius {fmt(r)}, used for paths) would cross the "
                "battlefield edge", (mid,), straight, q.limit, battlefield_outline(q.board))]
        if straight > q.limit + EPS:
            return [self._too_far(straight, x, y)]
        blockers = segment_blockers(q, start, (x, y))
        if blockers:
            names = idents(b.models[1] for b in blockers)
            msg = (f"no legal path of {fmt(q.limit)} or less reaches this point: the straight "
                   f"line is blocked by {names}, and the way around is longer")
            geom = shapely.union_all([b.geometry for b in blockers if b.geometry is not None])
            return [Violation("unreachable", msg, (mid, *(b.models[1] for b in blockers)),
                              straight, q.limit, geom)]
        return [Violation(
            "unreachable", f"no legal path of {fmt(q.limit)} or less reaches this point "
            "(the base cannot fit through)", (mid,), straight, q.limit, None)]

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The legal point closest to ``(x, y)`` (the point itself when it is legal)."""
        x, y = query_point(x, y)
        if self.contains(x, y):
            return (float(x), float(y))
        if self.geometry.is_empty:
            if self._disk is not None and self.start is not None:
                return self.start
            return (float(x), float(y))
        for inset in (0.0, 1e-4, 1e-3, 1e-2):
            g = self.geometry if inset == 0 else self.geometry.buffer(-inset)
            if g.is_empty:
                break
            p = nearest_points(g, Point(x, y))[0]
            if self.contains(p.x, p.y):
                return (float(p.x), float(p.y))
        p = nearest_points(self.geometry, Point(x, y))[0]
        return (float(p.x), float(p.y))

    def path_to(self, x: float, y: float) -> PathResult | None:
        """The shortest path the model can travel to ``(x, y)`` within its move, or ``None``.

        The path only follows the reach rule; whether ``(x, y)`` is a legal end point is
        :meth:`contains`. A set-up zone has no path.

        A model that turns as it moves (a non-round base) gets its witness: points ``(x, y,
        facing)``, a turn in place being two consecutive points with the same ``x, y`` (each
        turn the shorter way); it ends at :meth:`facing_at`, or, where no facing there is a
        legal end, at the facing of the layer that reaches it.
        """
        x, y = query_point(x, y)
        if self._turning is not None:
            pose = self._end_pose(x, y)
            poses = pose.poses if pose is not None else self._any_arrival(x, y)
            if poses is None:
                return None
            # facings in [0, 360), as stored (a model facing 1,000,000 degrees that turned on
            # the way gave witnesses past the limit of a path's numbers)
            return PathResult(tuple((px, py, pf % 360.0) for px, py, pf in poses),
                              _length(poses))
        if self._disk is None:
            return None
        pts = self._disk.path_to(x, y)
        if pts is None:
            return None
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(pts))
        if length > self._move.limit + EPS:
            return None
        return PathResult(tuple(pts), length)

    def facing_at(self, x: float, y: float) -> float | None:
        """The facing the model would end at on ``(x, y)``: the legal one closest to its
        current facing (``None`` where no facing is a legal end). A round base keeps its own."""
        x, y = query_point(x, y)
        if self._turning is None:
            return self.query.mover.facing if self.contains(x, y) else None
        pose = self._end_pose(x, y)
        return None if pose is None else pose.facing % 360.0

    # -- non-round movers ----------------------------------------------------------------
    def _arrivals(self, x: float, y: float) -> list[tuple[float, list[Pose]]]:
        """The distance and the witness of every layer that reaches ``(x, y)``."""
        assert self._turning is not None
        reach = self._turning[0]
        out = []
        for f in [*reach.layers, *([None] if reach.hub is not None else [])]:
            poses = reach.witness(x, y, f)
            if poses is not None:
                d = _length(poses)
                if d <= self._move.limit + EPS:
                    out.append((d, poses))
        return out

    def _any_arrival(self, x: float, y: float) -> list[Pose] | None:
        got = self._arrivals(x, y)
        return min(got, key=lambda a: a[0])[1] if got else None

    def _end_pose(self, x: float, y: float) -> _EndPose | None:
        """The legal end facing closest to the model's own at ``(x, y)``, with its witness."""
        if self._pose_memo is not None and self._pose_memo[0] == (x, y):
            return self._pose_memo[1]
        got = self._find_end_pose(x, y)
        self._pose_memo = ((x, y), got)
        return got

    def _find_end_pose(self, x: float, y: float) -> _EndPose | None:
        # lazily, the layers whose facing is nearest the model's own first: the window asks
        # this for the ghost under the pointer every frame
        assert self._turning is not None
        reach, ph = self._turning
        q = self._move
        own, per, limit = q.mover.facing, ph.tm.period, q.limit + EPS

        def near_own(f: float) -> float:
            return f + per * round(angle_between(f, own) / per)

        def arrival(f: float | None) -> list[Pose] | None:
            poses = reach.witness(x, y, f)
            if poses is None or _length(poses) > limit:
                return None
            return poses

        layers = sorted(reach.layers, key=lambda f: abs(angle_between(own, near_own(f))))
        if ph.tm.in_hub(x, y):
            # the circle is clear: any arrival, then the facing nearest the model's own
            first = next((p for f in ([None] if reach.hub is not None else []) + layers
                          if (p := arrival(f)) is not None), None)
            if first is None:
                return None
            for g in sorted({own, *(near_own(v) for v in reach.grid)},
                            key=lambda g: abs(angle_between(own, g))):
                if not end_violations(q.board, q.mover, x, y, facing=g):
                    return _EndPose(g, _compact_poses([*first, (x, y, g)]))
            return None
        for f in layers:
            poses = arrival(f)
            if poses is not None and not end_violations(q.board, q.mover, x, y,
                                                        facing=poses[-1][2]):
                return _EndPose(poses[-1][2], _compact_poses(poses))
        return None

    def _turning_reasons(self, x: float, y: float) -> list[Violation]:
        """Why ``(x, y)`` is not a legal end of a turning mover: the end rules at the facing
        it would arrive at (the closest to its own), or why no facing reaches it."""
        if self._end_pose(x, y) is not None:
            return []
        q, mid = self._move, self.model
        arrivals = self._arrivals(x, y)
        if arrivals:
            best = min((abs(angle_between(q.mover.facing, p[-1][2])), p[-1][2]) for _, p in
                       arrivals)[1]
            return end_violations(q.board, q.mover, x, y, facing=best)
        out = end_violations(q.board, q.mover, x, y)
        start = self.start
        assert start is not None
        straight = math.dist(start, (x, y))
        if straight > q.limit + EPS:
            out.append(self._too_far(straight, x, y))
        else:
            grid = self._turning[1].grid if self._turning else ()
            step = grid[1] - grid[0] if len(grid) > 1 else 180.0
            out.append(Violation(
                "unreachable", f"no legal path of {fmt(q.limit)} or less reaches this point "
                f"at any facing {ident(mid)} can turn to (facings every {step:g} degrees): the "
                "base cannot fit through on the way", (mid,), straight, q.limit, None))
        return out

    def to_geojson(self) -> dict[str, Any]:
        """The zone as one GeoJSON Feature (scenario inches)."""
        return {"type": "Feature", "geometry": shapely.geometry.mapping(self.geometry),
                "properties": {"model": self.model, "move": self.move,
                               "max_distance": self.max_distance, "area": self.area}}

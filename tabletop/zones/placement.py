"""Where a model may be set up (a :class:`~tabletop.zones.query.PlacementQuery`): no reach,
only where its base may stand.

The zone is the battlefield box of the footprint at its facing, minus the regions of every other
model and end piece it would overlap, of the areas it must keep out of and of the models it must
keep a clearance from, cut to the shape it must stay within (an inscribed buffer of the shape by
the distance less the mover's circumscribed radius: a little smaller than the true region, never
permissive). Its point tests are exact: each rule of the query in order, then the board's end
rules.
"""

from __future__ import annotations

import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.errors import ident
from tabletop.geometry.polygons import polygonal
from tabletop.geometry.tolerance import EPS
from tabletop.zones.end import (
    body_key,
    clearance_violation,
    end_box,
    end_violations,
    exact_shape,
    facing_key,
    grow,
    model_region,
    overlaps_shape,
)
from tabletop.zones.query import Area, Body, Clearance, PlacementQuery
from tabletop.zones.violation import Violation
from tabletop.zones.zone import Zone

__all__ = ["placement_zone"]


def _clear_of(q: PlacementQuery, c: Clearance) -> list[Body]:
    """The models ``c`` applies to (every enemy of the board, or those of ``c.ids``)."""
    ids = set(c.ids)
    return [o for o in q.board.models if o.id != q.mover.id and o.enemy
            and (not ids or o.id in ids)]


def placement_zone(q: PlacementQuery) -> Zone:
    """Where the mover of ``q`` may be set up (module docstring); its :meth:`Zone.explain
    <tabletop.zones.zone.Zone.explain>` gives every rule a point breaks."""
    mover, board = q.mover, q.board
    base, facing, mid = mover.footprint, mover.facing, mover.id
    fkey = facing_key(base, facing)
    others = [o for o in board.models if o.id != mid]
    geom: BaseGeometry = box(*end_box(base, facing, board.width, board.depth))
    removed: list[BaseGeometry] = [model_region(body_key(o), base, fkey, 0.0) for o in others]
    removed.extend(grow(t.shape, base, fkey, 0.0) for t in board.end_pieces)
    for rule in q.rules:
        if isinstance(rule, Area):
            removed.append(grow(rule.shape, base, fkey, 0.0))
        else:
            removed.extend(model_region(body_key(o), base, fkey, rule.distance)
                           for o in _clear_of(q, rule))
    if q.engaged:
        removed.extend(model_region(body_key(o), base, fkey, board.clearance) for o in others
                       if o.enemy and o.id not in q.ignore)
    within = q.within
    tshape: BaseGeometry | None = None
    if within is not None:
        tshape = shapely.union_all([exact_shape(o.footprint, o.at, o.facing)
                                    for o in within.bodies])
        R = base.radius
        # inscribed buffer: a little smaller than the true region, never permissive
        geom = geom.intersection(tshape.buffer(within.distance - R, quad_segs=32)) \
            if within.distance > R else Polygon()
    if q.closed is not None:
        geom = Polygon()
    if removed and not geom.is_empty:
        geom = geom.difference(shapely.union_all(removed))

    def checks(x: float, y: float) -> list[Violation]:
        at = (x, y)
        out: list[Violation] = []
        if q.closed is not None:
            out.append(Violation(q.closed[0], q.closed[1], (mid,)))
        if within is not None and tshape is not None:
            d = float(tshape.distance(Point(x, y))) + base.radius
            if d > within.distance + EPS:
                out.append(Violation(
                    within.rule, f"{ident(mid)} {within.says}", (mid, *within.names), d,
                    within.distance, tshape.buffer(within.distance, quad_segs=32)))
        for rule in q.rules:
            if isinstance(rule, Area):
                if overlaps_shape(base, at, facing, rule.shape):
                    out.append(Violation(rule.rule, f"{ident(mid)} {rule.says}",
                                         (mid, *rule.names), None, rule.limit, rule.shape))
            else:
                for o in _clear_of(q, rule):
                    v = clearance_violation(mover, at, facing, o, rule.distance, rule.rule,
                                            rule.verb)
                    if v is not None:
                        out.append(v)
        return out + end_violations(board, mover, x, y, engagement=q.engaged,
                                    ignore_engaged=q.ignore)

    return Zone(q, polygonal(geom), checks=checks)

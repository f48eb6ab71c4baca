"""Where a move may not end: end regions (centres excluded) and the exact point tests.

End regions are Minkowski sums of the mover's footprint (reflected through its centre) with what
it may not overlap or come near: a round mover's by the disk sums of
:mod:`tabletop.geometry.minkowski`, a non-round one's piecewise (both shapes cut into convex
pieces, each pair giving the convex hull of its vertex sums: exact for convex pieces), and an
oval as its circumscribed polygon of :data:`END_OVAL_SEGMENTS` vertices, so never smaller.

Point decisions (:func:`end_violations`) use exact distances: analytic circles, exact polygon
distances, an oval as its fine polygon (within 4e-7" of it); contact is not overlap (the rules
tolerance :data:`~tabletop.geometry.tolerance.EPS`).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from types import ModuleType

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.errors import ident
from tabletop.geometry import engine
from tabletop.geometry.cspace import convex_sum, turned
from tabletop.geometry.footprints import (
    EXACT_SEGMENTS,
    ROUND_SEGMENTS,
    Footprint,
    Oval,
    Round,
    circumscribed_circle,
    extent,
    footprint_distance,
)
from tabletop.geometry.minkowski import (
    conservative_buffer,
    disk_sum,
    disk_sum_pieces,
    offset_pieces,
)
from tabletop.geometry.polygons import ccw, convex_pieces, outline_of, ring_of, ring_polygons
from tabletop.geometry.sums import (
    Models,
    Shape,
    models_layout,
    native_sums,
    polygons_layout,
    rings_layout,
)
from tabletop.geometry.tolerance import EPS, mm
from tabletop.zones.query import Board, Body, Piece
from tabletop.zones.violation import Violation

__all__ = [
    "END_OVAL_SEGMENTS",
    "END_QUAD_SEGS",
    "END_SEGMENTS",
    "BodyKey",
    "body_key",
    "clear_end_caches",
    "end_box",
    "end_violations",
    "exact_shape",
    "facing_key",
    "fmt",
    "grow",
    "model_region",
    "models_region",
    "native_end",
    "native_models_pieces",
    "native_models_union",
    "outline_of",
    "overlaps_shape",
    "static_end",
    "thin_shape",
]

END_SEGMENTS = 128
"""Vertices of the circumscribed polygons of round end regions (radius excess 0.03 %)."""
END_QUAD_SEGS = 16
"""``quad_segs`` of the conservative buffers of the end regions."""
END_OVAL_SEGMENTS = 64
"""Vertices of the circumscribed polygon of an oval mover in its end regions: at most
``rho_max * (1 / cos(pi / 64) - 1)`` outside the oval (0.0024" for a 60x35 mm oval, 0.0037"
for 90x52.5 mm), on the safe side; the exact point test (8192 vertices) lies inside it."""

BodyKey = tuple[tuple[float, float], Footprint, float]
"""A model's place for the end regions: centre, footprint, facing (0 for a round base)."""


def fmt(d: float) -> str:
    """A distance as messages write it (``2.00"``)."""
    return f'{d:.2f}"'


def facing_key(base: Footprint, facing: float) -> float:
    """The facing that matters for ``base``'s end regions (0 for a round base)."""
    return 0.0 if isinstance(base, Round) else float(facing)


def body_key(o: Body) -> BodyKey:
    """``o``'s :data:`BodyKey`."""
    return (o.at, o.footprint, facing_key(o.footprint, o.facing))


# --------------------------------------------------------------------------------------------
# end regions (centre positions excluded at the end of a move)
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _mover_pieces(base: Footprint, facing: float) -> tuple[np.ndarray, ...]:
    """Convex pieces of the mover's footprint reflected through its centre (``-F``); an oval
    as its circumscribed polygon of :data:`END_OVAL_SEGMENTS` vertices."""
    if facing % 360.0:
        # the pieces at facing 0, turned: a footprint is cut into pieces once, not once per
        # facing (a 40-pointed star's end regions at 24 facings took 0.65 s of cutting)
        return tuple(turned(p, facing) for p in _mover_pieces(base, 0.0))
    poly = base.placed(0.0, 0.0, 0.0, segments=END_OVAL_SEGMENTS)
    return tuple(-np.asarray(p.exterior.coords)[:-1] for p in convex_pieces(poly))


def _minkowski(geom: Polygon, pieces: Sequence[np.ndarray]) -> BaseGeometry:
    """``geom`` (+) the shape made of ``pieces``: the exact sum of each convex pair."""
    sums = [convex_sum(ccw(np.asarray(g.exterior.coords)[:-1]), ccw(b))
            for g in convex_pieces(geom) for b in pieces]
    if not sums:
        return Polygon()
    return shapely.union_all(ring_polygons(sums))


def grow(geom: Polygon, base: Footprint, facing: float, extra: float) -> BaseGeometry:
    """Centres at which the mover's footprint (``base`` at ``facing``) comes within ``extra``
    of ``geom`` (0: overlaps it)."""
    if isinstance(base, Round):
        return disk_sum(geom, base.radius + extra, quad_segs=END_QUAD_SEGS)
    grown = _minkowski(geom, _mover_pieces(base, facing))
    return conservative_buffer(grown, extra, quad_segs=END_QUAD_SEGS) if extra > 0 else grown


@lru_cache(maxsize=256)
def _local_region(obase: Footprint, ofacing: float, base: Footprint, facing: float,
                  extra: float) -> BaseGeometry:
    """:func:`model_region` of a model standing at the origin (per footprint and facing).

    The region is a Minkowski sum, so a model elsewhere gets it translated: non-round movers
    and models pay for the sums once per (footprint, facing) pair, not once per model.
    """
    if isinstance(obase, Round):
        # a disk of radius re about the centre: grow the reflected mover by re + extra, each
        # of its convex pieces (the union of their sums is the sum of their union, which
        # would be cut into pieces again)
        return shapely.union_all(offset_pieces(_mover_pieces(base, facing),
                                               obase.radius + extra, quad_segs=END_QUAD_SEGS))
    return grow(obase.placed(0.0, 0.0, ofacing), base, facing, extra)


def model_region(o: BodyKey, base: Footprint, facing: float, extra: float) -> BaseGeometry:
    """Centres at which the mover (``base`` at ``facing``) comes within ``extra`` of the model
    ``o`` (0: overlaps it)."""
    at, obase, ofacing = o
    if isinstance(obase, Round) and isinstance(base, Round):
        return circumscribed_circle(at[0], at[1], obase.radius + base.radius + extra,
                                    segments=END_SEGMENTS)
    local = _local_region(obase, float(ofacing), base, facing, extra)
    shift = np.array([float(at[0]), float(at[1])])
    return shapely.transform(local, lambda c: c + shift)


def static_end(base: Footprint, facing: float, enemies: tuple[BodyKey, ...],
               terrain: tuple[tuple[tuple[float, float], ...], ...],
               clearance: float) -> BaseGeometry:
    """Union of the enemies' regions within ``clearance`` and the terrain pieces' overlap
    regions (prepared): where the mover at ``facing`` may not end, whoever else moves.

    On the native engine (:mod:`tabletop.geometry.engine`) the sums and their union are one
    call of the compiled core (:func:`~tabletop.geometry.sums.native_sums`; the enemies'
    clearance grown with straight edges exactly at it, where the Python engine's buffer moves
    them out by up to :data:`END_QUAD_SEGS`' chord sag), else built here: the same point sets
    within the docs' stated tolerance, neither smaller than the exact region."""
    return _static_end(base, facing, enemies, terrain, clearance, engine.core() is not None)[0]


def native_end(base: Footprint, facing: float, enemies: tuple[BodyKey, ...],
               terrain: tuple[tuple[tuple[float, float], ...], ...],
               clearance: float) -> object | None:
    """:func:`static_end` as the compiled core keeps it (for
    :func:`~tabletop.geometry.sums.native_common`), or ``None`` when the core did not build it
    (the Python engine chosen, or an input past its limits)."""
    return _static_end(base, facing, enemies, terrain, clearance, engine.core() is not None)[1]


def models_region(bodies: Sequence[BodyKey], base: Footprint, facing: float, extra: float
                  ) -> BaseGeometry:
    """The union of the :func:`model_region` of each of ``bodies`` (empty for none): where the
    mover at ``facing`` comes within ``extra`` of one of them. One call of the compiled core on
    the native engine (as :func:`static_end`), else GEOS's union of the regions."""
    if not bodies:
        return Polygon()
    core = engine.core()
    if core is not None:
        try:
            return _native_static_end(core, base, facing_key(base, facing), tuple(bodies), (),
                                      extra)[0]
        except core.NativeError:
            pass  # past the core's limits: the Python engine answers
    return shapely.union_all([model_region(b, base, facing, extra) for b in bodies])


def native_models_pieces(bodies: Sequence[BodyKey], base: Footprint, facing: float
                         ) -> object | None:
    """:func:`models_region` (no clearance) as the compiled core keeps it for a cut, not
    unioned (its ``PolySet`` of the sums, which it fills by the non-zero rule: the
    ``friends`` of :func:`~tabletop.geometry.wedges.native_layer_region`); ``None`` for no
    bodies, on the Python engine, or past the core's limits."""
    core = engine.core()
    if not bodies or core is None:
        return None
    try:
        return _native_static_end(core, base, facing_key(base, facing), tuple(bodies), (), 0.0,
                                  union=False)[1]
    except core.NativeError:
        return None  # past the core's limits: the caller cuts with models_region


def native_models_union(bodies: tuple[BodyKey, ...], base: Footprint, facing: float,
                        around: tuple[BodyKey, ...] | None = None,
                        standing: frozenset[BodyKey] | None = None) -> object | None:
    """:func:`models_region` (no clearance) of ``bodies`` or of more, unioned in the compiled
    core and kept there (its ``PolySet``: a clip set for the ``fixed`` of
    :func:`~tabletop.geometry.wedges.native_layer_region`), and kept here (the last
    :data:`_UNIONS_SLOTS`): for friends that stand while others move, so the next pick-up
    meets the union made. A kept union of any superset of ``bodies`` at this footprint and
    facing answers (the caller cuts with it where only ``bodies`` can reach: the others cut
    nothing there) while each of its bodies stands where it has it: is in ``standing`` (every
    such friend on the board now; default ``around``: then only the union of ``around``
    itself answers). Else that of ``around`` (a superset of ``bodies``, as a rule those near a
    wider box, so that the next pick-up near by finds it; default ``bodies``) is made and kept.
    ``None`` for no bodies, on the Python engine, or past the core's limits."""
    core = engine.core()
    if not bodies or core is None:
        return None
    at = (base, facing_key(base, facing))
    need = frozenset(bodies)
    made_of = around if around is not None else bodies
    now = standing if standing is not None else frozenset(made_of)
    with _UNIONS_LOCK:
        for which in _UNIONS_AT.get(at, ()):
            have, got = _UNIONS[which]
            if need <= have <= now:
                _UNIONS.move_to_end(which)
                return got
    try:
        got = _native_static_end(core, base, at[1], made_of, (), 0.0, shapes=False)[1]
    except core.NativeError:
        return None  # past the core's limits: the caller cuts with the sums or models_region
    which = (made_of, *at)
    with _UNIONS_LOCK:
        if which not in _UNIONS:
            _UNIONS_AT.setdefault(at, []).append(which)
        _UNIONS[which] = (frozenset(made_of), got)
        _UNIONS.move_to_end(which)
        while len(_UNIONS) > _UNIONS_SLOTS:
            old, _ = _UNIONS.popitem(last=False)
            kept = _UNIONS_AT[old[1:]]
            kept.remove(old)
            if not kept:
                del _UNIONS_AT[old[1:]]
    return got


_UNIONS: OrderedDict[tuple[tuple[BodyKey, ...], Footprint, float],
                     tuple[frozenset[BodyKey], object]] = OrderedDict()
"""The unions of :func:`native_models_union` by bodies, footprint and facing (with the bodies as
a set), least recently used first."""
_UNIONS_AT: dict[tuple[Footprint, float], list[tuple[tuple[BodyKey, ...], Footprint, float]]] = {}
"""The keys of :data:`_UNIONS` by footprint and facing."""
_UNIONS_SLOTS = 192
"""How many it keeps: every layer of a turning mover at a 2-degree step (the unions of the
friends of another footprint near a move: some 400 vertices for 13 of them)."""
_UNIONS_LOCK = threading.Lock()
"""(the layers of a pick-up ask on the zone engine's threads)"""


@lru_cache(maxsize=64)
def _static_end(base: Footprint, facing: float, enemies: tuple[BodyKey, ...],
                terrain: tuple[tuple[tuple[float, float], ...], ...],
                clearance: float, native: bool) -> tuple[BaseGeometry, object | None]:
    u, kept = None, None
    core = engine.core() if native else None
    if core is not None:
        try:
            u, kept = _native_static_end(core, base, facing, enemies, terrain, clearance)
        except core.NativeError:
            u = None  # past the core's limits: the Python engine answers
    if u is None:
        parts = [model_region(e, base, facing, clearance) for e in enemies]
        for t in terrain:
            if isinstance(base, Round):
                # the terrain's grown convex pieces join the one union below
                parts.extend(disk_sum_pieces(Polygon(t), base.radius, quad_segs=END_QUAD_SEGS))
            else:
                parts.append(grow(Polygon(t), base, facing, 0.0))
        u = shapely.union_all(parts) if parts else Polygon()
    shapely.prepare(u)
    return u, kept


@lru_cache(maxsize=256)
def _shape(obase: Footprint, ofacing: float) -> Shape:
    """A model's shape for :func:`~tabletop.geometry.sums.native_sums`: its radius (round) or
    its convex pieces about its centre at ``ofacing`` (as :func:`_local_region` sums them)."""
    if isinstance(obase, Round):
        return float(obase.radius)
    return tuple(ring_of(p) for p in convex_pieces(obase.placed(0.0, 0.0, ofacing)))


@lru_cache(maxsize=64)
def _terrain_pieces(terrain: tuple[tuple[tuple[float, float], ...], ...]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The convex pieces of the terrain outlines, laid out for the core
    (:func:`~tabletop.geometry.sums.polygons_layout`; the core orients them). Each outline's
    pieces are kept by the outline (:func:`_outline_pieces`): the start's own facing off the
    grid asks for the pieces near each new start, a new set of the same outlines."""
    return rings_layout([r for t in terrain for r in _outline_pieces(t)])


@lru_cache(maxsize=4096)
def _outline_pieces(outline: tuple[tuple[float, float], ...]) -> tuple[np.ndarray, ...]:
    """The exterior rings of a terrain outline's convex pieces (the closing point left out),
    as :func:`~tabletop.geometry.sums.polygons_layout` lays each out."""
    pieces = convex_pieces(Polygon(outline))
    if not pieces:
        return ()
    coords, starts = polygons_layout(pieces)
    return tuple(coords[a:b] for a, b in zip(starts[:-1].tolist(), starts[1:].tolist(),
                                              strict=True))


def _native_static_end(core: ModuleType, base: Footprint, facing: float,
                       enemies: tuple[BodyKey, ...],
                       terrain: tuple[tuple[tuple[float, float], ...], ...],
                       clearance: float, union: bool = True, shapes: bool = True
                       ) -> tuple[BaseGeometry, object]:
    """:func:`static_end` in one call of the compiled core (and as the core keeps it; with
    ``union=False`` the sums not unioned, with ``shapes=False`` no geometry:
    :func:`~tabletop.geometry.sums.native_sums`)."""
    mover = float(base.radius) if isinstance(base, Round) else _mover_layout(base, facing)
    return native_sums(core, mover, _models(enemies), clearance, _terrain_pieces(terrain),
                       quad_segs=END_QUAD_SEGS, segments=END_SEGMENTS, union=union,
                       shapes=shapes)


@lru_cache(maxsize=256)
def _mover_layout(base: Footprint, facing: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_mover_pieces` laid out for the core (:func:`rings_layout`)."""
    return rings_layout(_mover_pieces(base, facing))


@lru_cache(maxsize=64)
def _models(bodies: tuple[BodyKey, ...]) -> Models:
    """The models ``bodies`` laid out for the core (once per set: a turning mover's layers
    meet the same friends at each facing)."""
    kinds: dict[tuple[Footprint, float], int] = {}
    which = [kinds.setdefault((obase, float(ofacing)), len(kinds)) for _, obase, ofacing in bodies]
    at = np.array([e[0] for e in bodies], dtype=float).reshape(-1, 2)
    return models_layout([_shape(*k) for k in kinds], at, np.array(which, dtype=np.int64))


def end_box(base: Footprint, facing: float, width: float, depth: float
            ) -> tuple[float, float, float, float]:
    """Centres at which the footprint lies wholly on the battlefield."""
    if isinstance(base, Round):
        r = base.radius
        return (r, r, width - r, depth - r)
    x0, y0, x1, y1 = base.placed(0.0, 0.0, facing).bounds
    return (-x0, -y0, width - x1, depth - y1)


# --------------------------------------------------------------------------------------------
# exact point tests
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _placed(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """A placed footprint for contact decisions: an oval as its fine circumscribed polygon
    (:data:`~tabletop.geometry.footprints.EXACT_SEGMENTS`, within 4e-7" of it)."""
    segs = EXACT_SEGMENTS if isinstance(base, Oval) else ROUND_SEGMENTS
    return base.placed(at[0], at[1], facing, segments=segs)


def exact_shape(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """A placed footprint for contact decisions (cached; an oval within 4e-7" of it)."""
    return _placed(base, (float(at[0]), float(at[1])), float(facing))


@lru_cache(maxsize=64)
def _thin(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """The placed footprint shrunk by the rules tolerance (contact is not overlap), prepared:
    one end test asks it about every model and piece nearby."""
    if isinstance(base, Oval):
        # an oval scaled by 1 - EPS / a about its centre lies between 0.58 EPS (b / a of it,
        # at the ends) and EPS inside (its polygon 4e-7 outside the oval); buffering the
        # 8192-gon costs 2 ms a model
        k = 1.0 - EPS / (mm(max(base.length_mm, base.width_mm)) / 2.0)
        g = affinity.scale(_placed(base, at, facing), k, k, origin=at)
    else:
        g = _placed(base, at, facing).buffer(-EPS, join_style="mitre")
    shapely.prepare(g)
    return g


def thin_shape(base: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    """The placed footprint shrunk by the rules tolerance, prepared (cached)."""
    return _thin(base, (float(at[0]), float(at[1])), float(facing))


def _overlaps_model(base: Footprint, at: tuple[float, float], facing: float, o: Body) -> bool:
    if isinstance(base, Round) and isinstance(o.footprint, Round):
        return math.dist(at, o.at) < base.radius + o.footprint.radius - EPS
    if isinstance(base, Round):
        poly = exact_shape(o.footprint, o.at, o.facing)
        return bool(poly.contains(Point(at))) or poly.distance(Point(at)) < base.radius - EPS
    mine = thin_shape(base, at, facing)
    if isinstance(o.footprint, Round):
        return bool(mine.contains(Point(o.at))) or mine.distance(Point(o.at)) < o.footprint.radius
    return bool(mine.intersects(exact_shape(o.footprint, o.at, o.facing)))


def overlaps_shape(base: Footprint, at: tuple[float, float], facing: float,
                   shape: BaseGeometry) -> bool:
    """Whether the footprint at ``at`` and ``facing`` overlaps ``shape`` (contact allowed)."""
    if isinstance(base, Round):
        return bool(shape.contains(Point(at))) or shape.distance(Point(at)) < base.radius - EPS
    return bool(thin_shape(base, at, facing).intersects(shape))


def battlefield_outline(board: Board) -> BaseGeometry:
    """The battlefield's edge (for drawing a violation)."""
    w, d = board.width, board.depth
    return Polygon([(0, 0), (w, 0), (w, d), (0, d)]).exterior


def clearance_violation(mover: Body, at: tuple[float, float], facing: float, o: Body,
                        distance: float, rule: str, verb: str) -> Violation | None:
    """The violation of ending (``verb``) ``distance`` or less from ``o``, if the footprint at
    ``at`` and ``facing`` does."""
    base, mid = mover.footprint, mover.id
    d = footprint_distance(base, at, facing, o.footprint, o.at, o.facing)
    if d > distance + EPS:
        return None
    return Violation(
        rule, f"{ident(mid)} would {verb} {fmt(d)} from enemy model {ident(o.id)}: "
        f"it must {verb} more than {fmt(distance)} away", (mid, o.id), d, distance,
        exact_shape(o.footprint, o.at, o.facing).buffer(distance, quad_segs=32))


def end_violations(board: Board, mover: Body, x: float, y: float, *,
                   facing: float | None = None, engagement: bool = True,
                   ignore_engaged: Iterable[str] = ()) -> list[Violation]:
    """Every end rule of ``board`` that ``mover`` standing at ``(x, y)`` at ``facing``
    (default: its own) breaks: off the battlefield, overlapping a model or an end piece,
    within the clearance of an enemy (unless ``engagement`` is false or the enemy is one of
    ``ignore_engaged``)."""
    at = (float(x), float(y))
    base, mid = mover.footprint, mover.id
    facing = mover.facing if facing is None else float(facing)
    ignore = frozenset(ignore_engaged)
    out: list[Violation] = []
    # exact extents (an oval's polygon would reach a little beyond it)
    ex0, ey0, ex1, ey1 = extent(base, facing)
    over = max(-(x + ex0), -(y + ey0), x + ex1 - board.width, y + ey1 - board.depth)
    if over > EPS:
        out.append(Violation(
            "off-battlefield",
            f"the base of {ident(mid)} would stick {fmt(over)} off the battlefield",
            (mid,), over, 0.0, battlefield_outline(board)))
    reach = base.radius + board.clearance + EPS
    for o in board.models:
        if o.id == mid:
            continue
        if abs(o.at[0] - at[0]) > reach + o.footprint.radius or \
                abs(o.at[1] - at[1]) > reach + o.footprint.radius:
            continue
        if _overlaps_model(base, at, facing, o):
            out.append(Violation(
                "overlap-model", f"the base of {ident(mid)} would overlap model {ident(o.id)}",
                (mid, o.id), 0.0, 0.0, exact_shape(o.footprint, o.at, o.facing)))
        elif engagement and o.enemy and o.id not in ignore:
            v = clearance_violation(mover, at, facing, o, board.clearance, "engaged", "end")
            if v is not None:
                out.append(v)
    out.extend(_piece_overlaps(board.end_pieces, mover, at, facing))
    return out


def _piece_overlaps(pieces: Sequence[Piece], mover: Body, at: tuple[float, float],
                    facing: float) -> list[Violation]:
    mid = mover.id
    return [Violation("overlap-terrain",
                      f"the base of {ident(mid)} would overlap {t.kind} terrain {ident(t.id)}",
                      (mid, t.id), 0.0, 0.0, t.shape)
            for t in pieces if overlaps_shape(mover.footprint, at, facing, t.shape)]


def clear_end_caches() -> None:
    """Forget the end regions and placed footprints kept so far."""
    for cached in (_static_end, _local_region, _mover_pieces, _placed, _thin, _shape,
                   _terrain_pieces, _outline_pieces, _models, _mover_layout):
        cached.cache_clear()
    with _UNIONS_LOCK:
        _UNIONS.clear()
        _UNIONS_AT.clear()

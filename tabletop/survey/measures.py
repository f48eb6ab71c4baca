"""What a survey job measures on one board, for one base: gap-fit, reach and advance odds.

Everything here is pure (no files, no pygame) and built on the exact engine: the passages of
:mod:`tabletop.geometry.passages` (what ``tabletop fit`` prints), the reach maps of
:mod:`tabletop.geometry.geodesic` and the zone engine of :mod:`tabletop.zones`. The mover is
a *probe*: one model of the base, alone on the board (the board has terrain, deployment zones
and objectives, no units), owned by the side being measured, with the keywords of the
catalogue entry (they decide which dense terrain stops it).

Reach (round bases)
    ``S`` is the set of legal start positions of a side: the base wholly inside the deployment
    zone (its centre in the zone eroded by the base's radius) and ending legally there (on no
    terrain feature, wholly on the battlefield). A normal move of ``M`` from a set ``R`` reaches
    ``E n G(R, M)``, where ``G(R, M)`` is every point within geodesic distance ``M`` of ``R`` in
    the free space of the mover (the board shrunk by its radius, minus the terrain it may not
    cross grown by its radius) and ``E`` the legal end positions (free, on no terrain feature).
    So the region after ``k`` moves is ``R_k = E n G(R_{k-1}, M)``, ``R_0 = S``; a model may
    stay, so ``R_{k-1}`` lies in ``R_k``, and since ``E n G(R_{k-2}, M)`` is ``R_{k-1}``
    already, only the new part ``R_{k-1} \\ R_{k-2}`` sends sources. ``R_k`` is the set of
    points within geodesic distance ``k M`` of ``S`` (``E n G(S, k M)``) exactly when every
    legal path can be cut into ``k`` legs of at most ``M`` whose stops are legal end
    positions; that holds where ``E`` is the whole free space, but not across terrain a model
    may cross and may not end on (a ruin's wall, a barricade): a path whose stop would fall
    inside one has to stop short. So the survey composes the moves one by one (:func:`grow`),
    never by multiplying ``M``.
    ``G(R, M)`` is built by the engine's multi-source geodesic disk: the sources are points on
    the boundary of ``R`` every :data:`SPACING` inches (a path out of ``R`` leaves it through its
    boundary; the parts of the boundary on the battlefield's edge are left out, since every
    direction from them into the board enters ``R``). Every source lies in ``R``, so the result
    never exceeds the true region; it misses at most the points within ``SPACING / 2`` of its
    outer limit per move, and along a straight or curved stretch of the boundary (every corner
    is a source) only the scallops between neighbouring disks, ``SPACING^2 / 8M`` deep. Where
    nothing stops the mover (no terrain it may not cross: the free space is the box of its
    centres, convex) ``G(R, M)`` is ``R`` grown by the disk of ``M`` within the box, exactly
    (arcs inscribed, as the engine's), one buffer instead of thousands of sources' disks.
    An objective is reached when the base comes *within 3"* of the 40 mm marker: the closest
    points of the base and of the marker's disc are at most 3" apart (rules notes, section 13:
    a marker is a 40 mm disc; "within" is "not more than"), i.e. for a round base its centre
    within ``3 + 20 mm + r`` of the marker's centre.

Reach (non-round bases)
    The zone engine's layers (:mod:`tabletop.geometry.turning`): at each facing of a grid of
    :data:`LAYER_STEP` degrees over the base's period the base translates among the obstacles
    grown by its footprint at that facing (exact Minkowski sums), with the end rules at that
    facing; the start region of a facing is where the footprint at that facing lies wholly in
    the zone and may end. Each move is made at one facing of the grid; between moves the base
    may turn in place where its circumscribed circle is clear of everything that stops it (the
    engine's hub), so what one facing reaches there every facing starts from. Every reported
    position has a witness path of straight moves and turns (conservative); what it leaves out
    are turns on the way within one move and turns in a tight spot, so a non-round base may be
    reported a phase slower than it is, never faster. An objective is reached when the
    footprint at the layer's facing comes within 3" of the marker (exactly: the distance from
    the region to the marker centre's reflected footprint).

Advance odds
    Six legal zones of an advance from one start (the legal start position of the side nearest
    the board's centre, facing the centre), one per D6 roll: the zone of roll ``k`` is that of a
    move of ``M + k``; the zones are nested, and the chance that one advance reaches a point is
    ``P(roll >= k)`` for the least ``k`` whose zone holds it, ``(7 - k) / 6``. Per objective
    (and for the board's centre) the least roll that brings the base within range.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import shapely
import shapely.affinity
import shapely.ops
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop import rulesets, zones
from tabletop.geometry.footprints import EXACT_SEGMENTS, Footprint, Round, parse_base
from tabletop.geometry.minkowski import disk_sum
from tabletop.geometry.outer import sharp_corners
from tabletop.geometry.overlays import union_all
from tabletop.geometry.passages import EDGES, passages
from tabletop.geometry.pickup import native_pickup
from tabletop.geometry.polygons import polygonal
from tabletop.geometry.tolerance import EPS, mm
from tabletop.geometry.turning import default_step
from tabletop.geometry.wedges import ARC_TOLERANCE
from tabletop.rulesets.blockers import blocking_pieces
from tabletop.state import GameState, Model, Unit

__all__ = [
    "MARKER_RADIUS",
    "OBJECTIVE_RANGE",
    "PHASE_CAP",
    "PROBE_MODEL",
    "SPACING",
    "advance_odds",
    "boundary_samples",
    "footprint",
    "gap_fit",
    "grow",
    "inner_radius",
    "probe",
    "reach",
    "start_point",
    "start_region",
    "written_region",
]

PHASE_CAP = 12
"""Most Movement phases counted; an objective not reached by then is reported as ``null``."""
SPACING = 0.2
"""Inches between the sources on a region's boundary, besides its corners: a move loses at
most half of it, and ``SPACING^2 / 8M`` (0.001" for M = 5) along a straight or curved
front."""
SETTLED = 0.005
"""A boundary point within this of the region one move earlier sends no source (inches; its
reach is that of a source there, to within this)."""
CORNER = 5.0
"""Boundary vertices turning by more than this (degrees) are sources too."""
STILL = 1e-3
"""A move that adds less area than this (square inches) ends the count: the region has
stopped growing, and what it has not reached stays out of reach."""
OBJECTIVE_RANGE = 3.0
"""'Within 3"' of an objective marker."""
MARKER_RADIUS = mm(40.0) / 2
"""An objective marker is a 40 mm disc."""
WKT_DECIMALS = 3
"""Decimals of the coordinates in the WKT of results."""
SIMPLIFY = 0.01
"""Rings are simplified to within this (inches) before they are written, inwards only: a
written region lies inside the region measured (:func:`written_region`)."""
LAYER_STEP = 45.0
"""Facing step of a non-round base's layers in reach: 4 facings over an oval's, a
rectangle's or a symmetric hull's half turn, 8 for a Land Raider's (the zone engine uses 30
and 15 degrees for one pick-up; a reach job makes up to 60 moves per facing)."""
PROBE_UNIT = "survey-probe"
PROBE_MODEL = "survey-probe-1"


# --------------------------------------------------------------------------------------------
# the mover
# --------------------------------------------------------------------------------------------
def footprint(entry: dict[str, Any]) -> Footprint:
    """The footprint of a catalogue entry (its ``spec``: a base text, or a hull's polygon)."""
    spec = entry["spec"]
    if isinstance(spec, str):
        return parse_base(spec)
    return parse_base("hull", tuple((float(x), float(y)) for x, y in spec))


def keywords(entry: dict[str, Any]) -> tuple[str, ...]:
    """The keywords of a catalogue entry (none: a model that crosses no dense terrain > 2")."""
    return tuple(str(k) for k in entry.get("keywords") or ())


def probe(board: GameState, entry: dict[str, Any], side: str, at: tuple[float, float],
          facing: float = 0.0, M: float = 6.0) -> GameState:
    """The board with one model of ``entry``'s base at ``at``, owned by ``side``, active."""
    model = Model(id=PROBE_MODEL, base=footprint(entry), at=(float(at[0]), float(at[1])),
                  facing=float(facing))
    unit = Unit(id=PROBE_UNIT, player=side, keywords=keywords(entry), M=float(M), W=1, Ld=6,
                OC=1, models=(model,))
    battle = dataclasses.replace(board.battle, active_player=side, phase="movement")
    return dataclasses.replace(board, units=(unit,), battle=battle)


def _zone(board: GameState, side: str) -> Polygon:
    for p in board.players:
        if p.id == side:
            if not p.deployment_zone:
                raise ValueError(f"player {side} has no deployment zone")
            return shapely.make_valid(Polygon(p.deployment_zone))
    raise ValueError(f"no player {side}")


def _engine(state: GameState) -> tuple[Any, BaseGeometry, Any]:
    """The zone engine's per-phase geometry of the probe's normal move: its reach map (free
    space), where it may not end (terrain features, prepared) and that set's cache key.

    These are the engine's own (cached, keyed by content) objects: a survey measures what a
    legal zone would show, with no second copy of the rules.
    """
    ph = zones.phase_geometry(_query(state, "normal"))
    return ph.reach, ph.exclude, ph.key


def _query(state: GameState, move: str, **options: Any) -> zones.MoveQuery:
    """The zone engine's query for the probe's ``move``, as the board's ruleset asks it."""
    return rulesets.of(state).move_query(state, PROBE_MODEL, move, **options)


# --------------------------------------------------------------------------------------------
# gap-fit
# --------------------------------------------------------------------------------------------
def gap_fit(board: GameState, entry: dict[str, Any]) -> dict[str, Any]:
    """Every passage narrower than the base's circumscribed diameter plus 1" between two pieces
    that stop it (or a piece and the edge), with the base's answer (``tabletop fit``).

    Per passage: ``width``, ``neck``, ``passes``; ``facing`` (the roomiest, ``None`` for a
    round base), ``needs`` (the base's width across the neck there), ``spare`` (``width -
    needs``: the clearance a passing base has, negative when too narrow) and ``facings`` (the
    range of facings, first to second turning clockwise, at which it fits across the neck:
    a narrow range is a pass only at a narrow angle; ``None`` for a round base or none).
    ``stopped_by``: the ids of the pieces that stop the base (a gap beside any other piece
    does not stop it: it goes over that piece), and ``stops`` what they are."""
    fp = footprint(entry)
    pieces, what = blocking_pieces(board, keywords(entry) or None)
    bf = board.battlefield
    out = []
    for p in passages(bf.width, bf.depth, pieces, fp):
        b = p.between[1]
        out.append({
            "a": p.between[0], "b": "edge" if b in EDGES else b,
            "edge": b if b in EDGES else None,
            "width": round(p.width, 6), "passes": p.passes,
            "facing": None if isinstance(fp, Round) or p.facings is None else
            round(p.facing % 360, 3),
            "needs": round(p.needs, 6), "spare": round(p.spare, 6),
            "facings": None if isinstance(fp, Round) or p.facings is None else
            [round(f, 3) for f in p.facings],
            "neck": [[round(v, 6) for v in q] for q in p.neck],
            "shut_by": p.blocked_by})
    return {"passages": out, "stopped_by": [pid for pid, _ in pieces], "stops": what}


# --------------------------------------------------------------------------------------------
# reach
# --------------------------------------------------------------------------------------------
def start_region(board: GameState, entry: dict[str, Any], side: str) -> BaseGeometry:
    """Legal start positions of the base's centre for ``side`` (see the module docstring).

    A non-round base counts as its circumscribed circle (it fits there at every facing).
    """
    zone = _zone(board, side)
    fp = footprint(entry)
    r = fp.radius
    bf = board.battlefield
    c = zone.representative_point()
    _, static, _ = _engine(probe(board, _disk(entry), side, (c.x, c.y)))
    outside = box(-r - 1, -r - 1, bf.width + r + 1, bf.depth + r + 1).difference(zone)
    inner = zone.difference(disk_sum(outside, r)).intersection(box(r, r, bf.width - r,
                                                                    bf.depth - r))
    return polygonal(inner.difference(static))


def _disk(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry as a round base of its circumscribed radius (where a non-round base may
    start an advance at any facing)."""
    fp = footprint(entry)
    if isinstance(fp, Round):
        return entry
    return {**entry, "spec": f"{2 * fp.radius / mm(1.0):.6f}mm"}


def start_point(board: GameState, entry: dict[str, Any], side: str) -> tuple[float, float]:
    """The legal start position of ``side`` nearest the board's centre (advance odds)."""
    region = start_region(board, entry, side)
    if region.is_empty:
        raise ValueError(f"the base fits nowhere in {side}'s deployment zone")
    bf = board.battlefield
    centre = Point(bf.width / 2, bf.depth / 2)
    # a point a hair inside the region (its nearest boundary point, moved towards the inside)
    near = shapely.ops.nearest_points(region, centre)[0]
    inside = region.buffer(-1e-3)
    if not inside.is_empty:
        near = shapely.ops.nearest_points(inside, centre)[0]
    return (round(near.x, 4), round(near.y, 4))


def boundary_samples(region: BaseGeometry, bounds: tuple[float, float, float, float]
             ) -> np.ndarray:
    """Points on the boundary of ``region`` every :data:`SPACING` inches and at its corners
    (vertices where it turns by more than :data:`CORNER` degrees: the arcs of a reach front
    have a vertex every few hundredths of an inch), leaving out the stretches along the
    rectangle ``bounds`` (the box of the centre's positions on the battlefield)."""
    x0, y0, x1, y1 = bounds
    out = []
    cos_corner = math.cos(math.radians(CORNER))
    for ring in shapely.get_rings(shapely.get_parts(region)):
        c = shapely.get_coordinates(ring)
        seg = np.hypot(*np.diff(c, axis=0).T)
        along = np.concatenate([[0.0], np.cumsum(seg)])
        n = max(math.ceil(along[-1] / SPACING), 3)
        # the points shapely.line_interpolate_point puts there, without its walk along the
        # ring for each one (a reach front has thousands of vertices)
        t = np.linspace(0.0, along[-1], n, endpoint=False)
        out.append(np.column_stack([np.interp(t, along, c[:, 0]), np.interp(t, along, c[:, 1])]))
        out.append(sharp_corners(ring, cos_corner))
    if not out:
        return np.zeros((0, 2))
    pts = np.concatenate(out)
    tol = 1e-6
    on_edge = (np.abs(pts[:, 0] - x0) < tol) | (np.abs(pts[:, 0] - x1) < tol) | \
        (np.abs(pts[:, 1] - y0) < tol) | (np.abs(pts[:, 1] - y1) < tol)
    keep = pts[~on_edge]
    return keep if len(keep) else pts[:1]


def grow(rm: Any, region: BaseGeometry, distance: float, exclude: BaseGeometry,
         key: Any, done: BaseGeometry | None = None) -> BaseGeometry:
    """``E n G(region, distance)`` (module docstring): one normal move of ``distance`` from any
    point of ``region``, ending legally (``exclude``: where the mover may not end).

    ``done``: a part of ``region`` whose own move is in ``region`` already (the region one
    move earlier: ``R_k = R_{k-1} u (E n G(R_{k-1} \\ R_{k-2}, M))``), so its boundary
    sends no sources.
    """
    if region.is_empty or distance <= 0:
        return region
    if not len(rm.pieces):
        return _grown_in_box(rm, region, distance, exclude)
    pts = boundary_samples(region, rm.box)
    keep = ~shapely.intersects_xy(rm.union(), pts[:, 0], pts[:, 1]) if len(rm.pieces) \
        else np.ones(len(pts), bool)
    if done is not None and not done.is_empty:
        # (within SETTLED: the arcs of successive moves are inscribed polygons that differ by
        # up to the engine's chord sag, so a front that has stopped still moves by slivers)
        shapely.prepare(done)
        keep &= ~shapely.dwithin(done, shapely.points(pts), SETTLED)
    if not keep.any():
        return region
    pts = pts[keep]
    p0 = (float(pts[0, 0]), float(pts[0, 1]))
    sources = [(float(x), float(y), 0.0) for x, y in pts[1:]]
    # the search and its region in one call of the compiled core where it is built (None:
    # not built, or the first source stands in a piece)
    got = native_pickup(rm, p0, float(distance), exclude, key, sources=sources)
    reached = got[0] if got is not None else \
        rm.disk(p0, float(distance), sources=sources).region(exclude, key)
    return union_all([reached, region])


def _grown_in_box(rm: Any, region: BaseGeometry, distance: float, exclude: BaseGeometry
                  ) -> BaseGeometry:
    """:func:`grow` where nothing stops the mover: the free space is the box of its centres,
    convex, so ``G(R, M)`` is ``R`` grown by the disk of ``M`` within the box, exactly; GEOS's
    buffer puts the arcs' vertices on the circle (chords inside: never more than the true set),
    with a sag of at most :data:`~tabletop.geometry.wedges.ARC_TOLERANCE`, the engine's own
    (module docstring)."""
    quad = max(1, math.ceil((math.pi / 2) / (2 * math.acos(max(-1.0, 1.0 - ARC_TOLERANCE /
                                                                   distance)))))
    reached = region.buffer(distance, quad_segs=min(quad, 1024)).intersection(box(*rm.box))
    if exclude is not None and not exclude.is_empty:
        reached = reached.difference(exclude)
    return union_all([reached, region])


def written_region(g: BaseGeometry) -> BaseGeometry:
    """``g`` as a result writes it: simplified to within :data:`SIMPLIFY` and on the grid of
    :data:`WKT_DECIMALS` decimals, valid, and **inside** ``g`` (a region written holds no
    point the region measured does not: no position without a witness).

    A plain simplification is not: where a region wraps round a grown obstacle's corner its
    boundary is concave, and a chord of it cuts into the obstacle (on a walled board 0.002 sq
    in of a written ring lay inside a wall's grown corner, up to 0.002" deep); rounding the
    coordinates moves a vertex by up to half a unit's diagonal and can make a ring cross
    itself. So ``g`` is first shrunk by one unit (every point of the shrunk set, its arcs'
    chords included, lies more than half a unit's diagonal inside ``g``), the simplification
    is cut back to the shrunk set, and the coordinates are snapped to the grid (GEOS's snap
    rounding keeps the result valid and moves no point by more than half a diagonal)."""
    if g.is_empty:
        return Polygon()
    unit = 10.0 ** -WKT_DECIMALS
    inner = g.buffer(-unit, quad_segs=2)
    if inner.is_empty:
        return Polygon()
    cut = shapely.intersection(shapely.simplify(inner, SIMPLIFY, preserve_topology=True), inner)
    return polygonal(shapely.set_precision(polygonal(cut), unit))


def _wkt(g: BaseGeometry) -> str:
    return shapely.to_wkt(written_region(g), rounding_precision=WKT_DECIMALS, trim=True)


@dataclass
class _Layer:
    """One facing of the mover (a round base has one): its free space (``rm``), where it may
    not end (``exclude``, with its cache ``key``), its start region, and what an objective's
    marker centre ``o`` must come within ``within`` of (``target(o)``)."""

    rm: Any
    exclude: BaseGeometry
    key: Any
    start: BaseGeometry
    target: Callable[[Point], BaseGeometry]
    within: float


def _layers(board: GameState, entry: dict[str, Any], side: str, objective_range: float
            ) -> tuple[list[_Layer], BaseGeometry | None]:
    """The mover's layers and, for a non-round base, where it may turn in place (its
    circumscribed circle clear of everything that stops it)."""
    fp = footprint(entry)
    reach_within = objective_range + MARKER_RADIUS + EPS
    if isinstance(fp, Round):
        start = start_region(board, entry, side)
        if start.is_empty:
            raise ValueError(f"the base fits nowhere in {side}'s deployment zone")
        c = start.representative_point()
        rm, exclude, key = _engine(probe(board, entry, side, (c.x, c.y)))
        return [_Layer(rm, exclude, key, start, lambda o: o, reach_within + fp.radius)], None
    zone = _zone(board, side)
    c = zone.representative_point()
    state = probe(board, entry, side, (c.x, c.y))
    ph = zones.turn_phase(_query(state, "normal"), max(default_step(fp), LAYER_STEP))
    bf = board.battlefield
    big = box(-50, -50, bf.width + 50, bf.depth + 50)
    outside = big.difference(zone)
    layers = []
    for f in ph.grid:
        exclude, key = zones.turn_end(ph, fp, f)
        rm = ph.tm.layer(f)
        start = polygonal(zone.difference(zones.grow(outside, fp, f, 0.0))
                           .intersection(box(*rm.box)).difference(exclude))
        local = fp.placed(0.0, 0.0, f, segments=EXACT_SEGMENTS)
        mirrored = shapely.affinity.scale(local, -1.0, -1.0, origin=(0.0, 0.0))
        layers.append(_Layer(rm, exclude, key, start,
                             partial(_shifted, mirrored), reach_within))
    if all(lay.start.is_empty for lay in layers):
        raise ValueError(f"the base fits nowhere in {side}'s deployment zone")
    turn = box(0, 0, bf.width, bf.depth).difference(ph.tm.not_hub())
    return layers, turn


def _shifted(g: BaseGeometry, o: Point) -> BaseGeometry:
    return shapely.affinity.translate(g, o.x, o.y)


def reach(board: GameState, entry: dict[str, Any], side: str, *,
          moves: Sequence[float] = (5, 6, 8, 10, 12), phases: int = 3,
          objective_range: float = OBJECTIVE_RANGE, rings: float | None = 6,
          cap: int = PHASE_CAP) -> dict[str, Any]:
    """Phases to each objective and the area reachable after ``1..phases`` normal moves, for
    each M of ``moves`` (module docstring); ``rings``: the M whose regions are returned.

    ``centre``: by M, the phases to the board's centre (the base within ``objective_range``
    of the centre point itself: the same rule as an objective without the marker's radius).
    """
    layers, turn = _layers(board, entry, side, objective_range)
    objectives = [(float(x), float(y)) for x, y in board.objectives]
    bf = board.battlefield
    # the objectives' markers, then the board's centre (a point: no marker's radius)
    marks = [Point(o) for o in objectives] + [Point(bf.width / 2, bf.depth / 2)]
    less = [0.0] * len(objectives) + [MARKER_RADIUS]
    targets = [[lay.target(p) for p in marks] for lay in layers]

    def reached(regions: list[BaseGeometry]) -> list[bool]:
        # within: "not more than" (dwithin's closed test, the distance of before, without
        # walking every pair of edges of a front of thousands of vertices)
        for reg in regions:
            shapely.prepare(reg)
        return [any(not reg.is_empty and bool(shapely.dwithin(reg, targets[j][i],
                                                               lay.within - less[i]))
                    for j, (lay, reg) in enumerate(zip(layers, regions, strict=True)))
                for i in range(len(marks))]

    start = [lay.start for lay in layers]
    out_moves: dict[str, list[int | None]] = {}
    out_centre: dict[str, int | None] = {}
    out_area: dict[str, list[float]] = {}
    out_rings: dict[str, list[str]] = {}
    for M in moves:
        needed: list[int | None] = [0 if ok else None for ok in reached(start)]
        areas: list[float] = []
        regs: list[str] = []
        regions = list(start)
        earlier: list[BaseGeometry | None] = [None] * len(layers)
        area = _union(regions).area
        k = 0
        while k < max(cap, phases):
            if k >= phases and all(n is not None for n in needed):
                break
            k += 1
            regions, earlier = [grow(lay.rm, reg, float(M), lay.exclude, lay.key, old)
                                for lay, reg, old in zip(layers, regions, earlier,
                                                         strict=True)], regions
            if turn is not None:
                # between moves the base may turn in place where its circumscribed circle is
                # clear: what one facing reaches there, every facing may start from
                pivots = _union([reg.intersection(turn) for reg in regions])
                if not pivots.is_empty:
                    regions = [union_all([reg, pivots.difference(lay.exclude)])
                               for lay, reg in zip(layers, regions, strict=True)]
            whole = _union(regions)
            before, area = area, whole.area
            if k <= phases:
                areas.append(round(float(area), 4))
                if rings is not None and float(M) == float(rings):
                    regs.append(_wkt(whole))
            if k <= cap:
                for i, ok in enumerate(reached(regions)):
                    if needed[i] is None and ok:
                        needed[i] = k
            if area <= before + STILL and k >= phases:
                break   # nothing new: the rest stay out of reach
        key_m = f"{M:g}"
        out_moves[key_m] = needed[:-1]
        out_centre[key_m] = needed[-1]
        out_area[key_m] = areas
        if regs:
            out_rings[key_m] = regs
    return {"objectives": [list(o) for o in objectives], "moves": out_moves,
            "centre": out_centre, "area": out_area, "rings": out_rings,
            "start_area": round(float(_union(start).area), 4)}


def _union(regions: Sequence[BaseGeometry]) -> BaseGeometry:
    return regions[0] if len(regions) == 1 else union_all(regions)


# --------------------------------------------------------------------------------------------
# advance odds
# --------------------------------------------------------------------------------------------
def advance_odds(board: GameState, entry: dict[str, Any], side: str, *, M: float = 6.0,
                 start: Sequence[float] | None = None,
                 objective_range: float = OBJECTIVE_RANGE) -> dict[str, Any]:
    """The six nested advance zones from ``start`` (default :func:`start_point`), facing the
    board's centre, each with the chance that an advance rolls at least its roll.

    ``objectives`` (one per objective) and ``centre``: the least roll whose zone brings the
    base within ``objective_range`` of the marker (of the centre point), ``None`` if no roll
    does; the chance of one advance getting there is ``(7 - roll) / 6``. The base counts by
    its :func:`inner_radius` (exact for a round base; for another, a position counts only if
    the base is within range at every facing, so the roll is never too low)."""
    at = tuple(map(float, start)) if start is not None else start_point(board, entry, side)
    bf = board.battlefield
    facing = math.degrees(math.atan2(bf.width / 2 - at[0], -(bf.depth / 2 - at[1]))) % 360
    state = probe(board, entry, side, (at[0], at[1]), facing=facing, M=M)
    bands = []
    marks = [Point(float(x), float(y)) for x, y in board.objectives]
    within = [objective_range + MARKER_RADIUS + inner_radius(entry) + EPS] * len(marks)
    marks.append(Point(bf.width / 2, bf.depth / 2))
    within.append(within[0] - MARKER_RADIUS)
    least: list[int | None] = [None] * len(marks)
    for k in range(1, 7):
        z = zones.zone_of(_query(state, "advance", roll=k))
        bands.append({"roll": k, "p": round((7 - k) / 6, 12), "area": round(z.area, 4),
                      "wkt": _wkt(z.geometry)})
        for i, (mark, w) in enumerate(zip(marks, within, strict=True)):
            if least[i] is None and not z.geometry.is_empty and z.geometry.distance(mark) <= w:
                least[i] = k
    return {"M": M, "start": [at[0], at[1]], "facing": round(facing, 3), "bands": bands,
            "objectives": least[:-1], "centre": least[-1]}


def inner_radius(entry: dict[str, Any]) -> float:
    """The radius of the largest disc about the base's centre inside its footprint (a round
    base's radius; an oval's half short axis): at every facing the base reaches at least this
    far from its centre in every direction."""
    fp = footprint(entry)
    if isinstance(fp, Round):
        return float(fp.radius)
    return float(Point(0.0, 0.0).distance(fp.local_polygon().exterior))

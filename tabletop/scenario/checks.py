"""Checks of a loaded scenario that a schema cannot express.

:func:`check_state` is pure: it takes a :class:`~tabletop.state.GameState` and returns every
problem as ``(path, message)``, the path naming the key in the file (``units[2].models[0].at``).
It checks ids (unique across players, terrain, units and models), references (players, active
player, transports, the selection), positions (``at`` present exactly for models on the
battlefield), wounds against W, polygons (valid, not self-crossing), bases overlapping each other
(except those of the unit being moved, which may stand on friends until its commit) or
impassable terrain, models and t9a blocks off the battlefield, t9a blocks that do not fit their
``models`` and ``files`` or overlap each other, and that there are exactly two players.

A file that fails its schema is checked too: its loader builds a state of the parts that do
validate and passes a :class:`Partial` saying where each part is in the file and what was left out,
so that every problem is reported at its place in the file and nothing is reported that only
follows from a part left out (a reference to a unit that was left out, say).

Overlap means that the interiors intersect by more than :data:`~tabletop.geometry.tolerance.EPS`;
touching is fine. Round bases are measured exactly (centre distances). Ovals are measured with a
polygon inscribed in the ellipse (vertices on the curve, 512 of them), so an overlap is reported
only when it is certain: an oval may overlap by at most ``r_max * (1 - cos(pi / 512))`` (below
2e-5" for a 170 mm oval) without being reported. Rectangles and hulls are exact polygons.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon

from tabletop import rulesets
from tabletop.errors import UserError, quote
from tabletop.geometry.footprints import Footprint, Hull, Oval, Rect, Round
from tabletop.geometry.tolerance import EPS, mm
from tabletop.rules.turns import parse_point
from tabletop.state import Block, GameState, Unit

__all__ = ["OVAL_CHECK_SEGMENTS", "Partial", "Problem", "block_polygon", "check_state"]

Problem = tuple[str, str]
"""``(path, message)``: where in the file, and what is wrong."""

OVAL_CHECK_SEGMENTS = 512
"""Vertices of the polygon inscribed in an oval for the overlap and edge checks."""


@dataclass(frozen=True)
class Partial:
    """What :func:`check_state` must know of a state built from the valid parts of a file only.

    The index tuples give, for each item of the state, its index in the file (items left out do
    not shift the indices of the others). The other fields say what the file holds beyond the
    state, so that a check that needs a part left out is skipped rather than wrong.
    """

    players: tuple[int, ...] = ()
    """File index of each of ``state.players``."""
    terrain: tuple[int, ...] = ()
    """File index of each of ``state.terrain``."""
    objectives: tuple[int, ...] = ()
    """File index of each of ``state.objectives``."""
    units: tuple[int, ...] = ()
    """File index of each of ``state.units``."""
    models: tuple[tuple[int, ...], ...] = ()
    """For each of ``state.units``, the file index of each of its models (wh40k-11e)."""
    triggers: tuple[int, ...] = ()
    """File index of each of ``state.triggers``."""
    floors: tuple[int, ...] = ()
    """File index of each of ``state.floors``."""
    ids: tuple[tuple[str, str], ...] = ()
    """``(path, id)`` of every id the file holds in a readable way, items left out too, in file
    order (a duplicate id is a problem whatever else is wrong with its item)."""
    player_ids: tuple[str, ...] | None = None
    """Ids of all players of the file; ``None``: not all known, so player references are not
    checked."""
    player_count: int | None = None
    """Number of players in the file; ``None``: ``players`` is not an array."""
    skipped_units: frozenset[str] | None = frozenset()
    """Ids of units left out: references to them are not reported. ``None``: a unit without a
    readable id was left out, so no reference to a unit is checked."""
    skipped_models: frozenset[str] | None = frozenset()
    """Ids of models left out (or of units left out), as for ``skipped_units``."""
    battle: bool = True
    """Whether ``battle`` validated; if not, the active player and the selection are not checked."""
    battlefield: bool = True
    """Whether ``battlefield`` validated; if not, nothing is checked against its edges."""
    moving_unit: str | None = None
    """The unit being moved (``battle.selection.unit``), read from the file even when ``battle``
    did not validate: its bases may stand on others."""


class _Paths:
    """The path in the file of an item of the state (through a :class:`Partial`'s indices)."""

    def __init__(self, partial: Partial | None) -> None:
        self._p = partial

    def player(self, i: int) -> str:
        return f"players[{self._p.players[i] if self._p else i}]"

    def terrain(self, i: int) -> str:
        return f"terrain[{self._p.terrain[i] if self._p else i}]"

    def objective(self, k: int) -> str:
        return f"objectives[{self._p.objectives[k] if self._p else k}]"

    def unit(self, i: int) -> str:
        return f"units[{self._p.units[i] if self._p else i}]"

    def model(self, i: int, j: int) -> str:
        return f"{self.unit(i)}.models[{self._p.models[i][j] if self._p else j}]"

    def trigger(self, i: int) -> str:
        return f"triggers[{self._p.triggers[i] if self._p else i}]"

    def floor(self, i: int) -> str:
        return f"floors[{self._p.floors[i] if self._p else i}]"


def _num(v: float) -> str:
    return f"{v:.4g}"


def _pt(p: tuple[float, float]) -> str:
    return f"({_num(p[0])}, {_num(p[1])})"


def block_polygon(block: Block) -> Polygon:
    """The rectangle around all bases of a t9a block: ``files`` wide, ``ranks`` deep.

    Centred on ``block.at`` (the Centre of Unit), turned ``block.facing`` degrees clockwise.
    """
    base = block.base
    if not isinstance(base, Rect):
        raise ValueError(f"unit {block.id}: a block needs a rectangular base")
    hw = mm(base.frontage_mm) * block.files / 2.0
    hd = mm(base.depth_mm) * block.ranks / 2.0
    poly = Polygon([(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)])
    if block.facing % 360.0:
        poly = affinity.rotate(poly, block.facing, origin=(0.0, 0.0))
    return affinity.translate(poly, block.at[0], block.at[1])


@dataclass(frozen=True)
class Placed:
    """A base or a block on the battlefield, reduced to what the overlap checks need."""

    path: str
    id: str
    centre: tuple[float, float]
    radius: float
    """Exact radius for round bases (the only ones without a polygon)."""
    polygon: Polygon | None
    """The exact (rect, hull, block) or inscribed (oval) outline; ``None`` for a round base and
    for a base whose outline is made from :attr:`outline` when a test needs it."""
    bounds: tuple[float, float, float, float]
    """Exact bounds (min x, min y, max x, max y)."""
    ref: str = ""
    """How a message names its place when it names this item (a model's path)."""
    moving: bool = False
    """Part of the unit being moved: its bases may stand on others until its move is committed."""
    inner: float = 0.0
    """The radius of a disk about ``centre`` inside the item (``radius`` for a round base; 0
    where none is known): two items whose disks overlap by more than a few EPS overlap, with no
    polygon test (:func:`inner_radius`, :meth:`Overlaps._hits`)."""
    shape: Hashable = None
    """What makes items' polygons the same but for a move of their centres (a base and its
    facing), so that a shape's polygon shrunk by EPS is made once; ``None``: the item's own."""
    outline: tuple[Footprint, float] | None = None
    """A base that is not round and its facing, when ``polygon`` is ``None``: its polygon
    (:func:`outline_ring` at ``centre``) is made when a test needs it (a pile's bases need
    none)."""


@functools.lru_cache(maxsize=256)
def _local_ring(base: Footprint) -> np.ndarray:
    """The outline of a non-round base at the origin, facing 0: exact, or inscribed (ovals)."""
    if isinstance(base, Oval):
        theta = (np.arange(OVAL_CHECK_SEGMENTS) + 0.5) * 2.0 * math.pi / OVAL_CHECK_SEGMENTS
        return np.column_stack([np.cos(theta) * mm(base.width_mm) / 2,
                                np.sin(theta) * mm(base.length_mm) / 2])
    return np.asarray(base.local_polygon().exterior.coords)[:-1]


@functools.lru_cache(maxsize=256)
def inner_radius(base: Footprint) -> float:
    """The radius of a disk about a base's centre inside its outline as the overlap checks take
    it (:func:`_local_ring`, at any facing), a little less than the largest; 0 where there is
    none."""
    if isinstance(base, Round):
        return base.radius
    if isinstance(base, Oval):
        # the inscribed polygon is a regular one's image under the half-axes' scaling: it holds
        # the image of the regular one's inner disk, which holds the disk of the smaller
        # half-axis times cos(pi / N)
        r = min(mm(base.width_mm), mm(base.length_mm)) / 2 \
            * math.cos(math.pi / OVAL_CHECK_SEGMENTS)
    else:
        poly = Polygon(_local_ring(base))
        centre = Point(0.0, 0.0)
        if not poly.is_valid or not poly.contains(centre):
            return 0.0
        r = float(poly.exterior.distance(centre))
    # (less by a part in a billion and a hundredth of EPS: the rounding of the turned and
    # moved outline's vertices, far below EPS for any coordinate the schema takes)
    return max(0.0, r * (1.0 - 1e-9) - 0.01 * EPS)


def outline_ring(base: Footprint, at: tuple[float, float], facing: float) -> np.ndarray | None:
    """The outline of a placed non-round base (:func:`_local_ring` turned and moved), as its
    vertices; ``None`` for a round base."""
    if isinstance(base, Round):
        return None
    ring = _local_ring(base)
    if facing % 360.0:
        # counter-clockwise in a y-up frame (shapely's rotate), clockwise on the y-down board
        t = math.radians(facing)
        c, s = math.cos(t), math.sin(t)
        ring = ring @ np.array([[c, s], [-s, c]])
    return ring + np.asarray(at, dtype=float)


def _polygons(rings: list[np.ndarray | None]) -> list[Polygon | None]:
    """The polygons of ``rings`` (``None`` stays ``None``), made together: one call for each
    number of vertices (a file's thousands of bases share a few)."""
    out: list[Polygon | None] = [None] * len(rings)
    by_size: dict[int, list[tuple[int, np.ndarray]]] = {}
    for k, r in enumerate(rings):
        if r is not None:
            by_size.setdefault(len(r), []).append((k, r))
    for group in by_size.values():
        made = shapely.polygons(np.stack([r for _, r in group]))
        for (k, _), poly in zip(group, made.tolist(), strict=True):
            out[k] = poly
    return out


def _extent(base: Footprint, facing: float, ring: np.ndarray | None,
            at: tuple[float, float]) -> tuple[float, float, float, float]:
    """Exact bounds (min x, min y, max x, max y) of a placed footprint (``ring``: its
    :func:`outline_ring`)."""
    x, y = at
    if isinstance(base, Round):
        r = base.radius
        return x - r, y - r, x + r, y + r
    if isinstance(base, Oval):
        t = math.radians(facing)
        a, b = mm(base.length_mm) / 2, mm(base.width_mm) / 2
        hx = math.hypot(a * math.sin(t), b * math.cos(t))
        hy = math.hypot(a * math.cos(t), b * math.sin(t))
        return x - hx, y - hy, x + hx, y + hy
    assert ring is not None
    (minx, miny), (maxx, maxy) = ring.min(axis=0).tolist(), ring.max(axis=0).tolist()
    return minx, miny, maxx, maxy


@functools.lru_cache(maxsize=256)
def _polygon_problem(points: tuple[tuple[float, float], ...]) -> str | None:
    """What is wrong with the polygon of ``points``, or ``None`` (kept for the last few: a
    file's thousands of models share a few hulls, each checked where its unit is and where it
    stands)."""
    poly = Polygon(points)
    if not poly.is_valid:
        reason = shapely.is_valid_reason(poly)
        name, _, where = reason.partition("[")
        coords = where.rstrip("]").split()
        at = ""
        if len(coords) >= 2:
            try:
                at = " at " + _pt((float(coords[0]), float(coords[1])))
            except ValueError:
                at = ""
        if "self-intersection" in name.lower():
            return f"invalid polygon: the outline crosses or touches itself{at}"
        return f"invalid polygon: {name.strip().lower()}{at}"
    if poly.area <= 0.0:
        return "invalid polygon: it has no area"
    return None


@functools.lru_cache(maxsize=256)
def _hull_problem(points: tuple[tuple[float, float], ...]) -> str | None:
    """What is wrong with a hull of ``points``, or ``None`` (kept as :func:`_polygon_problem`
    is)."""
    msg = _polygon_problem(points)
    if msg is None and not Polygon(points).convex_hull.contains(Point(0.0, 0.0)):
        # the model stands, turns and is measured from its centre: a footprint wholly to one
        # side of it is a hull written in board coordinates or off by an offset (an L-shaped
        # hull may have its centre between its arms)
        msg = ("the hull lies wholly to one side of the model's centre [0, 0]: hull points are "
               "inches relative to the model's centre, facing 0 (a 4x7\" tank: [[-2, -3.5], "
               "[2, -3.5], [2, 3.5], [-2, 3.5]])")
    return msg


def _ids(state: GameState) -> Iterator[tuple[str, str]]:
    for i, p in enumerate(state.players):
        yield f"players[{i}].id", p.id
    for i, t in enumerate(state.terrain):
        yield f"terrain[{i}].id", t.id
    for i, u in enumerate(state.units):
        yield f"units[{i}].id", u.id
        if isinstance(u, Unit):
            for j, m in enumerate(u.models):
                yield f"units[{i}].models[{j}].id", m.id
    for i, f in enumerate(state.floors):
        yield f"floors[{i}].id", f.id


def _and(words: list[str]) -> str:
    quoted = [quote(w) for w in words]
    if len(quoted) <= 1:
        return "".join(quoted) or "none"
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def check_state(state: GameState, partial: Partial | None = None) -> list[Problem]:
    """Every problem of ``state`` that the schema cannot see, as ``(path, message)`` pairs.

    ``partial``: ``state`` holds only the parts of a file that validated (see :class:`Partial`);
    the paths are then those of the file, and checks that need a part left out are skipped.
    Floating-point warnings of the geometry library on absurd coordinates (subnormal or huge
    numbers) are silenced: the checks judge the results and report them as problems.
    """
    with np.errstate(all="ignore"):
        return _check_state(state, partial)


def _check_state(state: GameState, partial: Partial | None) -> list[Problem]:
    at = _Paths(partial)
    sel = state.battle.selection
    if partial is None:
        moving_unit = sel.unit if sel is not None else None
        player_ids: list[str] | None = [p.id for p in state.players]
        player_count: int | None = len(state.players)
        ids = list(_ids(state))
        skipped_units: frozenset[str] | None = frozenset()
        battle_known = battlefield_known = True
    else:
        moving_unit = partial.moving_unit
        player_ids = list(partial.player_ids) if partial.player_ids is not None else None
        player_count = partial.player_count
        ids = list(partial.ids)
        skipped_units = partial.skipped_units
        battle_known, battlefield_known = partial.battle, partial.battlefield
    problems: list[Problem] = []
    bf = state.battlefield
    board = f'{_num(bf.width)} x {_num(bf.depth)}"'

    def off_board(x0: float, y0: float, x1: float, y1: float) -> bool:
        return battlefield_known and (x0 < -EPS or y0 < -EPS or x1 > bf.width + EPS
                                      or y1 > bf.depth + EPS)

    if player_count is not None and player_count != 2:
        problems.append(("players", f"exactly two players are needed, found {player_count}"))

    first: dict[str, str] = {}
    for path, ident in ids:
        if ident in first:
            problems.append((path, f'duplicate id {quote(ident)} (first used at {first[ident]})'))
        else:
            first[ident] = path

    if (battle_known and player_ids is not None
            and state.battle.active_player not in player_ids):
        problems.append(("battle.active_player",
                         f"unknown player {quote(state.battle.active_player)}; the players are "
                         f"{_and(player_ids)}"))
    units_by_id: dict[str, Unit | Block] = {}
    for u in state.units:  # a duplicate id refers to its first use, as its problem says
        units_by_id.setdefault(u.id, u)

    for i, p in enumerate(state.players):
        if p.deployment_zone is not None:
            msg = _polygon_problem(p.deployment_zone)
            if msg:
                problems.append((f"{at.player(i)}.deployment_zone", msg))

    impassable: list[tuple[str, Polygon]] = []
    for i, t in enumerate(state.terrain):
        msg = _polygon_problem(t.polygon)
        if msg:
            problems.append((f"{at.terrain(i)}.polygon", msg))
        elif t.kind == "impassable":
            impassable.append((t.id, t.shape))

    for i, f in enumerate(state.floors):
        msg = _polygon_problem(f.polygon)
        if msg:
            problems.append((f"{at.floor(i)}.polygon", msg))

    for k, obj in enumerate(state.objectives):
        if off_board(obj[0], obj[1], obj[0], obj[1]):
            problems.append((at.objective(k), f"{_pt(obj)} is not on the battlefield ({board})"))

    # the bases on the battlefield (their polygons made by the overlap checks where needed)
    placed: list[Placed] = []
    blocks: list[Placed] = []
    for i, u in enumerate(state.units):
        upath = at.unit(i)
        if player_ids is not None and u.player not in player_ids:
            problems.append((f"{upath}.player",
                             f"unknown player {quote(u.player)}; the players are "
                             f"{_and(player_ids)}"))
        if isinstance(u, Unit):
            problems.extend(_check_unit(u, i, at, units_by_id, skipped_units))
            if u.location == "battlefield":
                for j, m in enumerate(u.models):
                    if m.at is None:
                        continue
                    mpath = at.model(i, j)
                    if isinstance(m.base, Hull) and _polygon_problem(m.base.points):
                        continue
                    # (an oval's bounds are known without its 512 vertices)
                    ring = None if isinstance(m.base, Round | Oval) else \
                        outline_ring(m.base, m.at, m.facing)
                    bounds = _extent(m.base, m.facing, ring, m.at)
                    if off_board(*bounds):
                        problems.append((f"{mpath}.at", f"{_pt(m.at)}: the base is not wholly on "
                                                        f"the battlefield ({board})"))
                    placed.append(Placed(
                        mpath, m.id, m.at, m.base.radius, None, bounds, ref=mpath,
                        moving=u.id == moving_unit, inner=inner_radius(m.base),
                        shape=(m.base, m.facing % 360.0),
                        outline=None if m.base.is_round else (m.base, m.facing)))
        else:
            problems.extend(_check_block_counts(u, upath))
            if u.files <= u.models and isinstance(u.base, Rect):
                poly = block_polygon(u)
                x0, y0, x1, y1 = poly.bounds
                if off_board(x0, y0, x1, y1):
                    problems.append((f"{upath}.at", f"the unit's block ({u.files} files x "
                                                    f"{u.ranks} ranks, {_num(x1 - x0)} x "
                                                    f'{_num(y1 - y0)}" around {_pt(u.at)}) is not '
                                                    f"wholly on the battlefield ({board})"))
                blocks.append(Placed(upath, u.id, u.at, 0.0, poly, poly.bounds))

    problems.extend(_overlap_problems(placed, "base", ("model", "models"), impassable))
    problems.extend(_overlap_problems(blocks, "block", ("unit", "units"), impassable))
    if battle_known:
        problems.extend(_check_selection(state, units_by_id, partial))
    problems.extend(_check_triggers(state, units_by_id, at, player_ids, skipped_units))
    return problems


def _known(ident: str, skipped: frozenset[str] | None) -> bool:
    """Whether a reference to ``ident`` that matches nothing in the state is really unknown."""
    return skipped is not None and ident not in skipped


def _check_unit(u: Unit, i: int, at: _Paths, units_by_id: dict[str, Unit | Block],
                skipped_units: frozenset[str] | None) -> list[Problem]:
    problems: list[Problem] = []
    upath = at.unit(i)
    if u.location == "embarked":
        if u.transport is None:
            problems.append((f"{upath}.transport", 'required when location = "embarked"'))
        else:
            t = units_by_id.get(u.transport)
            if t is None:
                if _known(u.transport, skipped_units):
                    problems.append((f"{upath}.transport", f'unknown unit {quote(u.transport)}'))
            elif not isinstance(t, Unit) or not t.has("TRANSPORT"):
                kw = ", ".join(quote(k) for k in t.keywords) if isinstance(t, Unit) else ""
                problems.append((f"{upath}.transport", f"unit {quote(u.transport)} is not a "
                                                       f"TRANSPORT (its keywords: {kw or 'none'})"))
            elif t.player != u.player:
                problems.append((f"{upath}.transport", f'unit {quote(u.transport)} belongs to the '
                                                       f'other player ({quote(t.player)})'))
    elif u.transport is not None:
        problems.append((f"{upath}.transport",
                         f'only for location = "embarked" (this unit\'s location is '
                         f'{quote(u.location)})'))
    for j, m in enumerate(u.models):
        mpath = at.model(i, j)
        if u.location == "battlefield" and m.at is None:
            problems.append((f"{mpath}.at", "required key is missing: a model on the battlefield "
                                            "needs a position [x, y]"))
        elif u.location != "battlefield" and m.at is not None:
            problems.append((f"{mpath}.at", f"a model in {u.location} has no position; remove "
                                            '"at" (or set the unit\'s location = "battlefield")'))
        if isinstance(m.base, Hull):
            msg = _hull_problem(m.base.points)
            if msg:
                problems.append((f"{mpath}.hull", msg))
        if m.wounds is not None and m.wounds > u.W:
            problems.append((f"{mpath}.wounds",
                             f"{m.wounds} wounds left is more than the unit's W of {u.W}"))
    return problems


def _check_block_counts(u: Block, upath: str) -> list[Problem]:
    problems: list[Problem] = []
    if u.files > u.models:
        problems.append((f"{upath}.files", f"{u.files} files but only {u.models} models; files "
                                           f"must be between 1 and models"))
    if u.starting_models is not None and u.starting_models < u.models:
        problems.append((f"{upath}.starting_models", f"{u.starting_models} is fewer than the "
                                                     f"{u.models} models the unit has now"))
    return problems


OVERLAP_NAMES = 3
"""Most overlapped items named in one problem; any beyond are summed up as "and more"."""

_DISK_MARGIN = 6.0 * EPS
"""What the overlap checks take off the disk inside an item (:attr:`Placed.inner`): a point of
the rest lies in the item shrunk by EPS with mitred joins (:meth:`Overlaps._exact`; a mitre
reaches at most 5 EPS from the corner it cuts)."""

_BATCH = 1 << 16
"""Candidates tested together (about: a chunk is never split)."""


class Overlaps:
    """Which items (bases or blocks) overlap which earlier ones, with bounded work.

    A spatial index, a uniform grid of cells twice as wide as the largest "small" item (none is
    more than 4 times the median size), holds each small item in the cell of its centre, so the
    items whose boxes can meet a small item's box are in the 3 x 3 cells around it; the few large
    items are compared by their boxes. Each item's candidates are taken a few at a time (a
    group at a time: the large items, then the cells in order; chunks of 4, 16, 64, ... of a
    group) and the taking stops once more than :data:`OVERLAP_NAMES` overlaps are found, so a
    pile of 10,000 bases on one point costs a few tests per base, not 50 million, and the usual
    board costs a handful per base. Every item's chunks are tested together, round by round
    (the items' first chunks, then the next chunk of those not done, ...): one vectorised test
    of each kind a round, not a few per item.
    """

    def __init__(self, items: list[Placed]) -> None:
        n = len(items)
        self.n = n
        self.bounds = np.array([p.bounds for p in items], dtype=float).reshape(n, 4)
        self.centres = np.array([p.centre for p in items], dtype=float).reshape(n, 2)
        self.radius = np.array([p.radius for p in items], dtype=float)
        self.round = np.array([p.polygon is None and p.outline is None for p in items],
                              dtype=bool)
        self.inner = np.where(self.round, self.radius,
                              np.array([p.inner for p in items], dtype=float))
        self.points = shapely.points(self.centres) if n else np.empty(0, dtype=object)
        self._polygons = np.array([p.polygon for p in items], dtype=object)
        self._to_make = [p.outline for p in items]
        self.shapes = [p.shape for p in items]
        # made for the polygons that meet a candidate, when first needed: each polygon's
        # outline, whether it holds its centre deeper than EPS (then a point inside both items
        # by more: -1 not known yet) and the polygon shrunk by EPS
        self._rings = np.full(n, None, dtype=object)
        self._deep = np.full(n, -1, dtype=np.int8)
        self._shrunk = np.full(n, None, dtype=object)
        mid = (self.bounds[:, :2] + self.bounds[:, 2:]) / 2
        half = (self.bounds[:, 2:] - self.bounds[:, :2]) / 2
        size = half.max(axis=1) if n else np.zeros(0)
        limit = 4.0 * float(np.median(size)) if n else 0.0
        small = size <= limit
        self.cell = 2.0 * float(size[small].max()) if small.any() else 1.0
        self.cell = self.cell if self.cell > 0 else 1.0
        self.small = small
        # the groups' items in one array of rows, each group's rows ascending: group 0 the
        # large items, group 1 every item (a large item's only group), then one a cell
        key = np.floor(mid / self.cell).astype(np.int64)
        cells = np.flatnonzero(small)
        order = np.lexsort((cells, key[cells, 1], key[cells, 0]))
        cells, ckeys = cells[order], key[cells[order]]
        starts = np.flatnonzero(np.r_[True, (np.diff(ckeys, axis=0) != 0).any(axis=1)]) \
            if len(cells) else np.zeros(0, dtype=np.int64)
        large = np.flatnonzero(~small)
        self.rows = np.concatenate([large, np.arange(n), cells]).astype(np.int64)
        self.group_lo = np.concatenate([[0, len(large)],
                                        len(large) + n + starts]).astype(np.int64)
        ends = np.r_[starts[1:], len(cells)] if len(cells) else starts
        self.group_hi = np.concatenate([[len(large), len(large) + n],
                                        len(large) + n + ends]).astype(np.int64)
        # the rows by group, then row: ascending (where each group's rows end before a row)
        self.sorted_key = np.repeat(np.arange(len(self.group_lo)), self.group_hi - self.group_lo
                                    ) * (n + 1) + self.rows
        self.group_of_cell = {(int(x), int(y)): 2 + k
                              for k, (x, y) in enumerate(ckeys[starts].tolist())}
        self.keys: list[tuple[int, int]] = [(int(x), int(y)) for x, y in key.tolist()]

    def poly(self, idx: np.ndarray) -> np.ndarray:
        """The polygons of items ``idx``, those of bases made now where not made yet
        (:attr:`Placed.outline`; together, one shapely call a vertex count)."""
        got = self._polygons[idx]
        late = np.flatnonzero(shapely.is_missing(got) & ~self.round[idx])
        if len(late):
            need = np.unique(idx[late])
            need = need[shapely.is_missing(self._polygons[need])]
            rings: list[np.ndarray | None] = []
            for k in need.tolist():
                made = self._to_make[k]
                assert made is not None  # (not round, no polygon: a base to make)
                base, facing = made
                x, y = self.centres[k].tolist()
                rings.append(outline_ring(base, (x, y), facing))
            self._polygons[need] = _polygons(rings)
            got = self._polygons[idx]
        return got

    def _groups(self, items: np.ndarray) -> np.ndarray:
        """The groups each of ``items`` takes its candidates from, in order, one row each
        (``-1``: none): the large items and the 3 x 3 cells around a small item, every item
        for a large one."""
        out = np.full((len(items), 10), -1, dtype=np.int64)
        get = self.group_of_cell.get
        for r, b in enumerate(items.tolist()):
            if not self.small[b]:
                out[r, 0] = 1
                continue
            out[r, 0] = 0
            cx, cy = self.keys[b]
            out[r, 1:] = [get((cx + dx, cy + dy), -1) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        return out

    def all_earlier(self, items: np.ndarray, below: int | None = None
                    ) -> list[tuple[list[int], bool]]:
        """For each of ``items``, the items before ``below`` (default: before it) that it
        overlaps: at most :data:`OVERLAP_NAMES` of them, lowest first, and whether it overlaps
        more (those found in its groups' chunks up to the one where more were found)."""
        m = len(items)
        items = np.asarray(items, dtype=np.int64)
        stop = items if below is None else np.full(m, below, dtype=np.int64)
        groups = self._groups(items)
        # each group cut to the rows before the item's stop (a group's rows ascend)
        g = np.maximum(groups, 0)
        lo = self.group_lo[g]
        hi = np.searchsorted(self.sorted_key, g * (self.n + 1) + stop[:, None])
        hi[groups < 0] = lo[groups < 0]
        slot = np.zeros(m, dtype=np.int64)  # the group being taken
        start = np.zeros(m, dtype=np.int64)  # where its next chunk starts
        size = np.full(m, OVERLAP_NAMES + 1, dtype=np.int64)
        found = np.zeros(m, dtype=np.int64)
        hits_b: list[np.ndarray] = []
        hits_a: list[np.ndarray] = []
        active = np.arange(m)
        while True:
            # on to the next group where the current one is taken (or empty)
            while len(active):
                s = slot[active]
                spent = lo[active, s] + start[active] >= hi[active, s]
                if not spent.any():
                    break
                moved = active[spent]
                slot[moved] += 1
                start[moved] = 0
                size[moved] = OVERLAP_NAMES + 1
                active = active[slot[active] < groups.shape[1]]
            if not len(active):
                break
            s = slot[active]
            a0 = lo[active, s] + start[active]
            count = np.minimum(a0 + size[active], hi[active, s]) - a0
            # this round's chunks, in batches of about _BATCH candidates (a chunk is at most
            # the items: memory bounded where every item takes every earlier one)
            ends = np.cumsum(count)
            cuts = np.unique(np.searchsorted(ends, np.arange(1, int(ends[-1]) // _BATCH + 1)
                                             * _BATCH, side="right"))
            for lo_, hi_ in zip(np.r_[0, cuts].tolist(), np.r_[cuts, len(active)].tolist(),
                                strict=True):
                if hi_ <= lo_:
                    continue
                n_ = count[lo_:hi_]
                who = np.repeat(active[lo_:hi_], n_)
                at = np.repeat(a0[lo_:hi_] - np.cumsum(n_) + n_, n_) + np.arange(int(n_.sum()))
                cand = self.rows[at]
                b = items[who]
                box, mine = self.bounds[cand], self.bounds[b]
                keep = ((box[:, 0] <= mine[:, 2]) & (box[:, 2] >= mine[:, 0])
                        & (box[:, 1] <= mine[:, 3]) & (box[:, 3] >= mine[:, 1]))
                who, b, cand = who[keep], b[keep], cand[keep]
                hit = self._hits(b, cand)
                hits_b.append(who[hit])
                hits_a.append(cand[hit])
                found += np.bincount(who[hit], minlength=m)
            start[active] += size[active]
            size[active] *= 4
            active = active[found[active] <= OVERLAP_NAMES]
        out: list[tuple[list[int], bool]] = [([], False) for _ in range(m)]
        if hits_b:
            hb, ha = np.concatenate(hits_b), np.concatenate(hits_a)
            order = np.lexsort((ha, hb))
            hb, ha = hb[order], ha[order]
            cuts = np.searchsorted(hb, np.arange(m + 1))
            for r in np.flatnonzero(found).tolist():
                got = ha[cuts[r]:cuts[r + 1]]
                out[r] = (got[:OVERLAP_NAMES].tolist(), len(got) > OVERLAP_NAMES)
        return out

    def _outlines(self, idx: np.ndarray) -> None:
        """Make the outlines and depths of the polygons ``idx`` not made yet."""
        need = np.unique(idx)
        need = need[self._deep[need] < 0]
        if len(need):
            polys = self.poly(need)
            rings = shapely.boundary(polys)
            self._rings[need] = rings
            self._deep[need] = (shapely.contains(polys, self.points[need])
                                & (shapely.distance(rings, self.points[need]) > EPS))

    def _hits(self, b: np.ndarray, a: np.ndarray) -> np.ndarray:
        """Whether the interior of item ``b[k]`` meets item ``a[k]``'s by more than EPS,
        for each ``k``: certain, with no polygon test, where the disks inside them
        (:attr:`Placed.inner`), each less :data:`_DISK_MARGIN`, overlap (a point of the segment
        between the centres lies in both the items shrunk as :meth:`_exact` shrinks them: every
        pair of a pile); :meth:`_exact` for the rest."""
        # (each disk less _DISK_MARGIN; an item with no disk, 0, may lie away from its centre:
        # a terrain piece's is 0, 0)
        ia, ib = self.inner[a] - _DISK_MARGIN, self.inner[b] - _DISK_MARGIN
        d = np.hypot(*(self.centres[a] - self.centres[b]).T)
        out = (ia > 0.0) & (ib > 0.0) & (d < ia + ib)
        rest = np.flatnonzero(~out)
        if len(rest):
            out[rest] = self._exact(b[rest], a[rest])
        return out

    def _exact(self, b: np.ndarray, a: np.ndarray) -> np.ndarray:
        """:meth:`_hits` by the items' outlines (round bases' circles, polygons)."""
        out = np.zeros(len(a), dtype=bool)
        rb, ra = self.round[b], self.round[a]
        both = rb & ra
        if both.any():
            d = np.hypot(*(self.centres[a[both]] - self.centres[b[both]]).T)
            out[both] = d < self.radius[a[both]] + self.radius[b[both]] - EPS
        for circle, poly, mask in ((b, a, rb & ~ra), (a, b, ~rb & ra)):
            if mask.any():
                c, polys = circle[mask], self.poly(poly[mask])
                out[mask] = (shapely.contains(polys, self.points[c])
                             | (shapely.distance(polys, self.points[c])
                                < self.radius[c] - EPS))
        polys = ~rb & ~ra
        if polys.any():
            pb, pa = b[polys], a[polys]
            self._outlines(np.concatenate([pb, pa]))
            # Certain when one centre lies deeper than EPS inside both items (b's first: in a
            # pile it settles every pair).
            sure = np.zeros(len(pa), dtype=bool)
            first = self._deep[pb] == 1
            if first.any():
                sure[first] = (shapely.contains(self.poly(pa[first]), self.points[pb[first]])
                               & (shapely.distance(self._rings[pa[first]], self.points[pb[first]])
                                  > EPS))
            rest = ~sure & (self._deep[pa] == 1)
            if rest.any():
                sure[rest] = (shapely.contains(self.poly(pb[rest]), self.points[pa[rest]])
                              & (shapely.distance(self._rings[pb[rest]], self.points[pa[rest]])
                                 > EPS))
            left = ~sure
            if left.any():
                need = np.unique(pb[left])
                need = need[shapely.is_missing(self._shrunk[need])]
                if len(need):
                    self._shrunk[need] = self._shrink(need)
                shrunk = self._shrunk[pb[left]]
                sure[left] = ~shapely.is_empty(shrunk) & shapely.intersects(
                    shrunk, self.poly(pa[left]))
            out[polys] = sure
        return out


    def _shrink(self, idx: np.ndarray) -> np.ndarray:
        """The polygons ``idx`` shrunk by EPS: one buffer a shape (:attr:`Placed.shape`), moved
        to each of its items' centres (a file's thousands of bases share a few shapes; a
        40-pointed star's buffer takes a seventh of a millisecond)."""
        out = np.empty(len(idx), dtype=object)
        groups: dict[Hashable, list[int]] = {}
        own: list[int] = []
        for r, k in enumerate(idx.tolist()):
            key = self.shapes[k]
            if key is None:
                own.append(r)
            else:
                groups.setdefault(key, []).append(r)
        # (a shape of one item: its own buffer, with the others')
        own += [r for rows in groups.values() if len(rows) == 1 for r in rows]
        if own:
            out[own] = shapely.buffer(self.poly(idx[own]), -EPS, join_style="mitre")
        for rows in groups.values():
            if len(rows) == 1:
                continue
            ks = idx[rows]
            back = functools.partial(np.add, -self.centres[ks[0]])
            thin = shapely.buffer(shapely.transform(self.poly(ks[:1])[0], back), -EPS,
                                  join_style="mitre")
            moves = np.repeat(self.centres[ks], shapely.get_num_coordinates(thin), axis=0)
            out[rows] = shapely.transform(np.full(len(ks), thin, dtype=object),
                                          functools.partial(np.add, moves))
        return out


def _named(found: list[int], more: bool, items: list[Placed], noun: tuple[str, str]) -> str:
    """``model "s1" (units[0].models[0])``, ``models "a" (...), "b" (...) and more``."""
    names = [quote(items[a].id) + (f" ({items[a].ref})" if items[a].ref else "") for a in found]
    if len(names) == 1 and not more:
        return f"{noun[0]} {names[0]}"
    listed = (", ".join(names) + " and more" if more
              else ", ".join(names[:-1]) + f" and {names[-1]}")
    return f"{noun[1]} {listed}"


def _overlap_problems(items: list[Placed], what: str, noun: tuple[str, str],
                      impassable: list[tuple[str, Polygon]]) -> list[Problem]:
    """One problem per item overlapping earlier items, one per item overlapping terrain."""
    problems: list[Problem] = []
    if not items:
        return problems
    still = [p for p in items if not p.moving]
    index = Overlaps(still)
    for p, (found, more) in zip(still, index.all_earlier(np.arange(len(still))), strict=True):
        if found:
            problems.append((p.path, f"the {what} overlaps {_named(found, more, still, noun)}"))
    if impassable:
        pieces = [Placed("", tid, (0.0, 0.0), 0.0, poly, bounds=poly.bounds)
                  for tid, poly in impassable]
        terrain = Overlaps([*pieces, *items])
        answers = terrain.all_earlier(len(pieces) + np.arange(len(items)), below=len(pieces))
        for p, (found, more) in zip(items, answers, strict=True):
            if found:
                problems.append((p.path, f"the {what} overlaps impassable "
                                         f"{_named(found, more, pieces, ('terrain', 'terrain'))}"))
    return problems


def _check_triggers(state: GameState, units_by_id: dict[str, Unit | Block], at: _Paths,
                    player_ids: list[str] | None,
                    skipped_units: frozenset[str] | None) -> list[Problem]:
    problems: list[Problem] = []
    ruleset = rulesets.of(state)
    for i, spec in enumerate(state.triggers):
        path = at.trigger(i)
        about_unit = False
        try:
            about_unit = parse_point(str(spec["at"]), ruleset.turn).key in ruleset.turn.events
        except UserError as exc:
            problems.append((f"{path}.at", str(exc)))
        effect = str(spec["effect"])
        if effect not in ruleset.effects:
            problems.append((f"{path}.effect", f"unknown effect {quote(effect)}; one of "
                             + _and(list(ruleset.effects))))
        # the keys each effect needs besides ``at`` and ``effect`` (at a point about a unit,
        # ``unit`` is the unit the point concerns)
        for key in ruleset.effects.get(effect, (None, ()))[1]:
            if key not in spec and not (key == "unit" and about_unit):
                problems.append((path, f'a {quote(effect)} trigger needs `{key}`'))
        for key in ("player", "target"):
            if key in spec and player_ids is not None and spec[key] not in player_ids:
                problems.append((f"{path}.{key}", f"unknown player {quote(str(spec[key]))}; "
                                                  f"the players are {_and(player_ids)}"))
        if ("unit" in spec and spec["unit"] not in units_by_id
                and _known(str(spec["unit"]), skipped_units)):
            problems.append((f"{path}.unit", f'unknown unit {quote(str(spec["unit"]))}'))
    return problems


def _check_selection(state: GameState, units_by_id: dict[str, Unit | Block],
                     partial: Partial | None) -> list[Problem]:
    sel = state.battle.selection
    if sel is None:
        return []
    skipped_units = partial.skipped_units if partial is not None else frozenset()
    skipped_models = partial.skipped_models if partial is not None else frozenset()
    problems: list[Problem] = []
    unit = units_by_id.get(sel.unit)
    if unit is None:
        if _known(sel.unit, skipped_units):
            problems.append(("battle.selection.unit", f'unknown unit {quote(sel.unit)}'))
        return problems
    if isinstance(unit, Unit):
        model_ids = {m.id for m in unit.models}
        for k, (mid, _, _) in enumerate(sel.start):
            if mid not in model_ids and _known(mid, skipped_models):
                problems.append((f"battle.selection.start[{k}].model",
                                 f'{quote(mid)} is not a model of unit {quote(unit.id)}'))
    else:
        for k, (mid, _, _) in enumerate(sel.start):
            if mid != unit.id:
                problems.append((f"battle.selection.start[{k}].model",
                                 f"for a block of ranks and files this is the unit's id "
                                 f"{quote(unit.id)}, not {quote(mid)}"))
    return problems

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

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from tabletop import rulesets
from tabletop.errors import UserError
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
class _Placed:
    """A model on the battlefield, reduced to what the checks need."""

    path: str
    id: str
    centre: tuple[float, float]
    radius: float
    """Exact radius for round bases, circumscribed radius otherwise (for the pre-filter)."""
    polygon: Polygon | None
    """``None`` for a round base; the exact (rect, hull) or inscribed (oval) outline otherwise."""
    moving: bool = False
    """Part of the unit being moved: its bases may stand on others until its move is committed."""


def _outline(base: Footprint, at: tuple[float, float], facing: float) -> Polygon | None:
    if isinstance(base, Round):
        return None
    if isinstance(base, Oval):
        n = OVAL_CHECK_SEGMENTS
        k = np.arange(n)
        theta = (k + 0.5) * 2.0 * math.pi / n
        pts = np.column_stack([np.cos(theta) * mm(base.width_mm) / 2,
                               np.sin(theta) * mm(base.length_mm) / 2])
        poly = Polygon(pts)
        if facing % 360.0:
            poly = affinity.rotate(poly, facing, origin=(0.0, 0.0))
        return affinity.translate(poly, at[0], at[1])
    return base.placed(at[0], at[1], facing)


def _extent(base: Footprint, facing: float, outline: Polygon | None,
            at: tuple[float, float]) -> tuple[float, float, float, float]:
    """Exact bounds (min x, min y, max x, max y) of a placed footprint."""
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
    assert outline is not None
    minx, miny, maxx, maxy = outline.bounds
    return minx, miny, maxx, maxy


def _overlaps_polygons(a: Polygon, b: Polygon) -> bool:
    """Whether the interiors of ``a`` and ``b`` intersect by more than EPS."""
    if not a.intersects(b):
        return False
    shrunk = a.buffer(-EPS, join_style="mitre")
    return not shrunk.is_empty and shrunk.intersects(b)


def _overlaps(a: _Placed, b: _Placed) -> bool:
    if a.polygon is None and b.polygon is None:
        d = math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
        return d < a.radius + b.radius - EPS
    if a.polygon is None or b.polygon is None:
        circle, other = (a, b) if a.polygon is None else (b, a)
        assert other.polygon is not None
        return _circle_overlaps(circle.centre, circle.radius, other.polygon)
    return _overlaps_polygons(a.polygon, b.polygon)


def _circle_overlaps(centre: tuple[float, float], radius: float, poly: Polygon) -> bool:
    c = ShapelyPoint(centre)
    if poly.contains(c):
        return True
    return float(poly.distance(c)) < radius - EPS


def _polygon_problem(points: tuple[tuple[float, float], ...]) -> str | None:
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


def _and(words: list[str]) -> str:
    quoted = [f'"{w}"' for w in words]
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
            problems.append((path, f'duplicate id "{ident}" (first used at {first[ident]})'))
        else:
            first[ident] = path

    if (battle_known and player_ids is not None
            and state.battle.active_player not in player_ids):
        problems.append(("battle.active_player", f'unknown player "{state.battle.active_player}";'
                                                 f" the players are {_and(player_ids)}"))
    units_by_id = {u.id: u for u in state.units}

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

    for k, obj in enumerate(state.objectives):
        if off_board(obj[0], obj[1], obj[0], obj[1]):
            problems.append((at.objective(k), f"{_pt(obj)} is not on the battlefield ({board})"))

    placed: list[_Placed] = []
    blocks: list[tuple[str, Block, Polygon]] = []
    for i, u in enumerate(state.units):
        upath = at.unit(i)
        if player_ids is not None and u.player not in player_ids:
            problems.append((f"{upath}.player",
                             f'unknown player "{u.player}"; the players are {_and(player_ids)}'))
        if isinstance(u, Unit):
            problems.extend(_check_unit(u, i, at, units_by_id, skipped_units))
            if u.location == "battlefield":
                for j, m in enumerate(u.models):
                    if m.at is None:
                        continue
                    mpath = at.model(i, j)
                    if isinstance(m.base, Hull) and _polygon_problem(m.base.points):
                        continue
                    outline = _outline(m.base, m.at, m.facing)
                    if off_board(*_extent(m.base, m.facing, outline, m.at)):
                        problems.append((f"{mpath}.at", f"{_pt(m.at)}: the base is not wholly on "
                                                        f"the battlefield ({board})"))
                    radius = m.base.radius
                    placed.append(_Placed(mpath, m.id, m.at, radius, outline,
                                          moving=u.id == moving_unit))
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
                blocks.append((upath, u, poly))

    problems.extend(_model_overlaps(placed, impassable))
    problems.extend(_block_overlaps(blocks, impassable))
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
                    problems.append((f"{upath}.transport", f'unknown unit "{u.transport}"'))
            elif not isinstance(t, Unit) or not t.has("TRANSPORT"):
                kw = ", ".join(t.keywords) if isinstance(t, Unit) else ""
                problems.append((f"{upath}.transport", f'unit "{u.transport}" is not a TRANSPORT '
                                                       f"(its keywords: {kw or 'none'})"))
            elif t.player != u.player:
                problems.append((f"{upath}.transport", f'unit "{u.transport}" belongs to the '
                                                       f'other player ("{t.player}")'))
    elif u.transport is not None:
        problems.append((f"{upath}.transport",
                         f'only for location = "embarked" (this unit\'s location is '
                         f'"{u.location}")'))
    for j, m in enumerate(u.models):
        mpath = at.model(i, j)
        if u.location == "battlefield" and m.at is None:
            problems.append((f"{mpath}.at", "required key is missing: a model on the battlefield "
                                            "needs a position [x, y]"))
        elif u.location != "battlefield" and m.at is not None:
            problems.append((f"{mpath}.at", f"a model in {u.location} has no position; remove "
                                            '"at" (or set the unit\'s location = "battlefield")'))
        if isinstance(m.base, Hull):
            msg = _polygon_problem(m.base.points)
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


def _model_overlaps(placed: list[_Placed],
                    impassable: list[tuple[str, Polygon]]) -> list[Problem]:
    problems: list[Problem] = []
    if not placed:
        return problems
    boxes = shapely.box(
        np.array([p.centre[0] - p.radius for p in placed]),
        np.array([p.centre[1] - p.radius for p in placed]),
        np.array([p.centre[0] + p.radius for p in placed]),
        np.array([p.centre[1] + p.radius for p in placed]),
    )
    tree = shapely.STRtree(boxes)
    left, right = tree.query(boxes, predicate="intersects")
    pairs = sorted({(int(a), int(b)) for a, b in zip(left, right, strict=True) if a < b},
                   key=lambda ab: (ab[1], ab[0]))
    for a, b in pairs:
        pa, pb = placed[a], placed[b]
        if not (pa.moving or pb.moving) and _overlaps(pa, pb):
            problems.append((pb.path, f'the base overlaps model "{pa.id}" ({pa.path})'))
    if impassable:
        tree_t = shapely.STRtree([poly for _, poly in impassable])
        mi, ti = tree_t.query(boxes, predicate="intersects")
        for m_i, t_i in sorted(zip(mi.tolist(), ti.tolist(), strict=True)):
            p = placed[m_i]
            tid, poly = impassable[t_i]
            hit = (_circle_overlaps(p.centre, p.radius, poly) if p.polygon is None
                   else _overlaps_polygons(p.polygon, poly))
            if hit:
                problems.append((p.path, f'the base overlaps impassable terrain "{tid}"'))
    return problems


def _block_overlaps(blocks: list[tuple[str, Block, Polygon]],
                    impassable: list[tuple[str, Polygon]]) -> list[Problem]:
    problems: list[Problem] = []
    for k, (path, _, poly) in enumerate(blocks):
        for _, other, other_poly in blocks[:k]:
            if _overlaps_polygons(poly, other_poly):
                problems.append((path, f'the block overlaps unit "{other.id}"'))
        for tid, tpoly in impassable:
            if _overlaps_polygons(poly, tpoly):
                problems.append((path, f'the block overlaps impassable terrain "{tid}"'))
    return problems


TRIGGER_NEEDS = {"gain-cp": ("target",), "battle-shock-roll": ("unit",), "flag": ("unit", "flag"),
                 "note": ("text",)}
"""The keys each trigger effect needs besides ``at`` and ``effect``."""


def _check_triggers(state: GameState, units_by_id: dict[str, Unit | Block], at: _Paths,
                    player_ids: list[str] | None,
                    skipped_units: frozenset[str] | None) -> list[Problem]:
    problems: list[Problem] = []
    structure = rulesets.of(state).turn
    for i, spec in enumerate(state.triggers):
        path = at.trigger(i)
        try:
            parse_point(str(spec["at"]), structure)
        except UserError as exc:
            problems.append((f"{path}.at", str(exc)))
        for key in TRIGGER_NEEDS.get(str(spec["effect"]), ()):
            if key not in spec:
                problems.append((path, f'a "{spec["effect"]}" trigger needs `{key}`'))
        for key in ("player", "target"):
            if key in spec and player_ids is not None and spec[key] not in player_ids:
                problems.append((f"{path}.{key}", f'unknown player "{spec[key]}"; the players '
                                                  f"are {_and(player_ids)}"))
        if ("unit" in spec and spec["unit"] not in units_by_id
                and _known(str(spec["unit"]), skipped_units)):
            problems.append((f"{path}.unit", f'unknown unit "{spec["unit"]}"'))
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
            problems.append(("battle.selection.unit", f'unknown unit "{sel.unit}"'))
        return problems
    if isinstance(unit, Unit):
        model_ids = {m.id for m in unit.models}
        for k, (mid, _, _) in enumerate(sel.start):
            if mid not in model_ids and _known(mid, skipped_models):
                problems.append((f"battle.selection.start[{k}].model",
                                 f'"{mid}" is not a model of unit "{unit.id}"'))
    else:
        for k, (mid, _, _) in enumerate(sel.start):
            if mid != unit.id:
                problems.append((f"battle.selection.start[{k}].model",
                                 f'for a t9a-2 block this is the unit\'s id "{unit.id}", '
                                 f'not "{mid}"'))
    return problems

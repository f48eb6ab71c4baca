"""The current community battlefields (``wh40kdc``): terrain as the rules see it.

Every layout of the embedded data (46 in ``wh40kdc`` 1.4.5: the 45 Chapter Approved 11th
edition layouts re-sourced from Battlemaster and the 36" x 36" King of the Colosseum) becomes a
``wh40k-11e`` scenario state with its own deployment map and mission matchup (or another map
asked for). The pieces are placed by ``wh40kdc.terrain.resolve_layout``, the data's own resolver
(pinned by its conformance cases), and read as follows (the data page of the docs says the same
for users):

- **Terrain areas** (``piece_type`` ``"area"``) become terrain of kind ``"area"`` with their
  outline exactly as published (Battlemaster's traced outlines have up to 348 points: the
  scenario format allows 1,024 for kinds without effect on movement). An area marked
  ``terrain: false`` (an objective marker's extent on open ground) is not terrain and is left
  out.
- **Walls** of a feature (polylines with a ``thickness``, centred on the line) become wall
  sections of that thickness, one terrain piece per polyline, of the feature's category
  (``"dense"`` or ``"light"``): straight runs with mitred corners and square ends (the polygon
  of ``LineString(points).buffer(thickness / 2, cap_style="flat", join_style="mitre")``). The
  ground inside a ruin's walls is open ground: models stand there, none stands partway through a
  wall. A wall that closes on itself encloses a solid block (a generator, pipes) unless its
  feature has an upper floor (a tower: hollow, its ground floor open); a hollow closed wall is
  cut in two at the middles of two opposite runs so that each section is a polygon without a
  hole.
- A **feature without walls** (a ruin's rubble, a gantry, a KOTC arena wall) is solid: its
  footprint is the section.
- A feature's **category** is its template's ``terrain_category``, else the category of the
  template of the area it stands on (the KOTC ruins), else ``"light"`` (nobody is stopped);
  ``"exposed"`` counts as light.
- **Heights**: the piece's ``height_inches``, else its template's ``default_height_inches``;
  where the data gives none the piece is written with ``height_known = false`` and takes the
  scenario's ``unknown_height`` (default :data:`tabletop.rules.UNKNOWN_HEIGHT`).
- **Upper floors and roofs** (a template's ``upper_floor``, placed as its ground footprint is,
  and ``has_roof``) become ``floors`` of the scenario: kept and drawn, with no effect on
  movement (every model stands on the ground in a 2D simulator).
- **Objectives**: the layout's objective markers (a piece's ``objective.position``, else its
  position; pieces of one ``link_group`` share one objective at the middle of their markers);
  the deployment map's points only when the layout has none.
- **Deployment zones**: the attacker's zone is player ``red``'s, the defender's ``blue``'s.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import LinearRing, LineString, Polygon

from tabletop.errors import UserError, quote
from tabletop.importers import dataset
from tabletop.importers.kdc import deployment_zones
from tabletop.importers.kdc_layouts import Affine
from tabletop.importers.naming import fresh_id
from tabletop.rulesets.wh40k_11e import NAME as WH40K
from tabletop.state import (
    UNKNOWN_HEIGHT,
    Battle,
    Battlefield,
    DataSource,
    Floor,
    GameState,
    Player,
    Point,
    Terrain,
)

__all__ = [
    "BOARD",
    "DIGITS",
    "THIN_WALL",
    "Board",
    "Layout",
    "board",
    "credit",
    "deployment_ids",
    "layout",
    "layout_ids",
    "layout_state",
    "layouts",
    "list_lines",
    "placed_floor",
    "wall_sections",
]

BOARD = (60.0, 44.0)
"""The battlefield of a layout that names no ``board`` (inches)."""
DIGITS = 6
"""Decimals kept on coordinates written to a scenario (the resolver's are 4)."""
SIDE_TO_PLAYER = {"attacker": "red", "defender": "blue"}
PLAYER_NAMES = {"red": "Attacker", "blue": "Defender"}
FEATURE_KINDS = {"dense": "dense", "light": "light", "exposed": "light"}
"""Scenario kind of a feature by its 11e ``terrain_category``."""
CLOSED = 1e-6
"""A wall whose ends are this close (inches) closes on itself."""
THIN_WALL = 0.125
"""Thickness, inches, of a wall the data gives none ("omit for thin walls"; none in wh40kdc
1.4.5): a sheet 1/8" thick."""


@dataclass(frozen=True)
class Layout:
    """One layout of the data: its id, name, deployment map, mission matchup, board size."""

    id: str
    name: str
    deployment: str | None
    mission_matchup: str | None
    mission: str | None
    width: float
    depth: float
    pieces: int


@dataclass(frozen=True)
class Board:
    """A battlefield built from the data, with what the import did to each kind of piece."""

    state: GameState
    layout: Layout
    deployment: str | None
    counts: Mapping[str, int] = field(default_factory=dict)
    """``areas``, ``empty_areas``, ``walls`` (sections from wall polylines), ``solid``
    (features without walls), ``closed`` (closed walls made solid), ``hollow`` (closed walls of
    a feature with an upper floor, cut in two), ``unknown_height``, ``floors``, ``roofs``,
    ``objectives`` and ``dense`` / ``light`` (sections by kind)."""

    def summary(self) -> str:
        """One line: what the terrain became."""
        c = self.counts
        parts = [f"{c.get('areas', 0)} terrain areas",
                 f"{c.get('walls', 0)} wall sections and {c.get('solid', 0)} solid features "
                 f"({c.get('dense', 0)} dense, {c.get('light', 0)} light)"]
        if c.get("unknown_height"):
            h = self.state.unknown_height
            h = UNKNOWN_HEIGHT if h is None else h
            parts.append(f"{c['unknown_height']} without a height in the data, taken as "
                         f'{h:g}" (unknown_height)')
        if c.get("floors"):
            parts.append(f"{c['floors']} upper floors ({c.get('roofs', 0)} with a roof) kept "
                         "with no effect on movement")
        parts.append(f"{c.get('objectives', 0)} objectives")
        return ", ".join(parts)


def credit(version: str | None = None) -> str:
    """The attribution line of the data."""
    v = version or dataset.version()
    return f"Data: wh40kdc {v} ({dataset.LICENCE}), {dataset.CREDIT}."


# -- the catalogue of layouts -------------------------------------------------------------------
def _info(record: Mapping[str, Any]) -> Layout:
    size = record.get("board") or {}
    matchup = record.get("mission_matchup_id")
    mission = dataset.by_id("mission_matchups").get(str(matchup), {}).get("mission_id")
    return Layout(id=str(record["id"]), name=str(record.get("name", record["id"])),
                  deployment=record.get("deployment_pattern_id"), mission_matchup=matchup,
                  mission=mission, width=float(size.get("width", BOARD[0])),
                  depth=float(size.get("height", BOARD[1])),
                  pieces=len(record.get("pieces") or []))


def layouts() -> list[Layout]:
    """Every layout of the data, in the data's order."""
    return [_info(r) for r in dataset.raw()["terrain_layouts"]]


def layout_ids() -> list[str]:
    """The ids of every layout of the data."""
    return [lay.id for lay in layouts()]


def deployment_ids() -> list[str]:
    """The ids of every deployment map of the data."""
    return [str(d["id"]) for d in dataset.raw()["deployment_patterns"]]


def layout(layout_id: str) -> Layout:
    """The layout ``layout_id``; :class:`UserError` naming close ids otherwise."""
    record = dataset.by_id("terrain_layouts").get(layout_id)
    if record is None:
        raise UserError(_unknown("layout", layout_id, layout_ids(), "tabletop new --list"))
    return _info(record)


def _unknown(what: str, got: str, known: Sequence[str], hint: str) -> str:
    import difflib

    close = difflib.get_close_matches(got, list(known), n=3, cutoff=0.5)
    near = f"; did you mean {', '.join(close)}?" if close else ""
    return (f"--{what}: no {what} {quote(got)} in wh40kdc {dataset.version()}{near} "
            f"({len(known)} {what}s: {hint} lists them)")


def list_lines() -> list[str]:
    """Lines listing the layouts (id, name, deployment map, mission matchup) and maps."""
    lays = layouts()
    lines = [f"Layouts in wh40kdc {dataset.version()} ({len(lays)}):"]
    width = max(len(lay.id) for lay in lays)
    for lay in lays:
        size = "" if (lay.width, lay.depth) == BOARD else f", {lay.width:g}x{lay.depth:g}\""
        lines.append(f"  {lay.id:<{width}}  {lay.name}  [{lay.deployment}; "
                     f"{lay.mission_matchup or 'no mission matchup'}{size}]")
    maps = dataset.raw()["deployment_patterns"]
    lines.append(f"Deployment maps ({len(maps)}):")
    for d in maps:
        lines.append(f"  {d['id']:<{width}}  {d.get('name', d['id'])}")
    lines.append(credit())
    return lines


# -- placing ------------------------------------------------------------------------------------
def _round(v: float) -> float:
    r = round(v, DIGITS)
    return 0.0 if r == 0 else r


def _pts(points: Sequence[Mapping[str, float]]) -> list[Point]:
    return [(float(p["x"]), float(p["y"])) for p in points]


def _footprint(fp: Mapping[str, Any]) -> list[Point]:
    from wh40kdc.terrain import footprint_vertices

    return _pts(footprint_vertices(dict(fp)))


def _centroid(points: Sequence[Point]) -> Point:
    from wh40kdc.terrain import polygon_centroid

    c = polygon_centroid([{"x": x, "y": y} for x, y in points])
    return (float(c["x"]), float(c["y"]))


def _placement(obj: Mapping[str, Any]) -> Affine:
    pos = obj["position"]
    return Affine.placement((float(pos["x"]), float(pos["y"])),
                            float(obj.get("rotation_degrees") or 0.0),
                            str(obj.get("mirror") or "none"))


def placed_floor(ground: Mapping[str, Any], upper: Mapping[str, Any],
                 chain: Sequence[Mapping[str, Any]]) -> list[Point]:
    """An upper floor's footprint on the board: re-centred on the ground footprint's area
    centroid (as the data's schema says) and carried through ``chain``, the placements of the
    piece and of the areas it stands in, innermost first (each with ``position``,
    ``rotation_degrees``, ``mirror``)."""
    cx, cy = _centroid(_footprint(ground))
    t = Affine()
    for obj in chain:
        t = t.then(_placement(obj))
    return [t.apply((x - cx, y - cy)) for x, y in _footprint(upper)]


def _polygon_points(poly: Polygon) -> list[Point]:
    ring = shapely.remove_repeated_points(poly).exterior
    if not ring.is_ccw:  # y down: counter-clockwise in shapely's frame is clockwise on screen
        ring = LinearRing(list(ring.coords)[::-1])
    return [(float(x), float(y)) for x, y in list(ring.coords)[:-1]]


def wall_sections(points: Sequence[Point], thickness: float, *, solid: bool) -> list[Polygon]:
    """The wall sections of one wall polyline: the strip of ``thickness`` centred on it, with
    mitred corners and square ends. A polyline that closes on itself gives the solid block it
    encloses when ``solid``, else two sections (the ring cut at the middles of its first run
    and of the run half-way round), so that no section has a hole."""
    half = thickness / 2.0
    pts = [tuple(p) for p in points]
    closed = len(pts) > 3 and math.dist(pts[0], pts[-1]) <= CLOSED
    if not closed:
        return [LineString(pts).buffer(half, cap_style="flat", join_style="mitre")]
    ring = pts[:-1]
    band = LinearRing(ring).buffer(half, join_style="mitre")
    if solid:
        return [Polygon(band.exterior)]
    n = len(ring)
    k = n // 2
    a = tuple((ring[0][i] + ring[1][i]) / 2 for i in range(2))
    b = tuple((ring[k][i] + ring[(k + 1) % n][i]) / 2 for i in range(2))
    first = [a, *ring[1:k + 1], b]
    second = [b, *ring[k + 1:], ring[0], a]
    return [LineString(first).buffer(half, cap_style="flat", join_style="mitre"),
            LineString(second).buffer(half, cap_style="flat", join_style="mitre")]


@dataclass
class _Entry:
    """One resolved piece with what the resolver leaves out of its output."""

    resolved: dict[str, Any]
    piece: Mapping[str, Any]
    template: Mapping[str, Any] | None
    chain: list[Mapping[str, Any]]
    """Placements, innermost first (for upper floors)."""
    area_template: Mapping[str, Any] | None
    """The template of the area a feature stands in, if any."""


def _entries(record: Mapping[str, Any]) -> list[_Entry]:
    """The resolver's output, piece by piece, beside the layout's pieces and templates (the
    emission order the resolver pins: each piece in order, an area's composed features right
    after it)."""
    wh = dataset.require()
    templates = dataset.by_id("terrain_templates")
    resolved = wh.terrain.resolve_layout(dict(record), dataset.raw()["terrain_templates"])
    pieces = list(record.get("pieces") or [])
    areas = {p["id"]: p for p in pieces if p.get("id")}
    out: list[_Entry] = []
    k = 0
    for piece in pieces:
        template = templates.get(str(piece.get("template"))) if piece.get("template") else None
        parent = areas.get(piece["parent_area_id"]) if piece.get("parent_area_id") else None
        parent_t = templates.get(str(parent.get("template"))) if parent else None
        out.append(_Entry(resolved[k], piece, template,
                          [piece, parent] if parent else [piece], parent_t))
        k += 1
        if parent is None and template is not None:
            for feat in template.get("features") or []:
                out.append(_Entry(resolved[k], feat, templates.get(str(feat["template"])),
                                  [feat, piece], template))
                k += 1
    if k != len(resolved):
        raise UserError(f"wh40kdc {dataset.version()}: layout {quote(str(record['id']))}: the "
                        f"resolver gave {len(resolved)} pieces where {k} were expected")
    return out


def _objectives(record: Mapping[str, Any]) -> list[Point]:
    groups: dict[str, list[Point]] = {}
    order: list[str] = []
    for i, piece in enumerate(record.get("pieces") or []):
        if not (piece.get("is_objective") or piece.get("objective_role")):
            continue
        pos = (piece.get("objective") or {}).get("position") or piece["position"]
        key = str(piece.get("link_group") or f"#{i}")
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((float(pos["x"]), float(pos["y"])))
    return [(_round(sum(x for x, _ in groups[k]) / len(groups[k])),
             _round(sum(y for _, y in groups[k]) / len(groups[k]))) for k in order]


def _height(entry: _Entry) -> float | None:
    if entry.piece.get("height_inches") is not None:
        return float(entry.piece["height_inches"])
    if entry.template and entry.template.get("default_height_inches") is not None:
        return float(entry.template["default_height_inches"])
    return None


def _kind(entry: _Entry) -> str:
    category = entry.resolved.get("terrain_category") or (entry.template or {}).get(
        "terrain_category") or (entry.area_template or {}).get("terrain_category")
    return FEATURE_KINDS.get(str(category), "light")


def _terrain(entries: Sequence[_Entry], counts: Counter[str], unknown: float
             ) -> tuple[list[Terrain], list[Floor]]:
    terrain: list[Terrain] = []
    floors: list[Floor] = []
    used: set[str] = set()

    def new_id(base: str) -> str:
        return fresh_id(base, used)

    for k, e in enumerate(entries):
        r = e.resolved
        base_id = str(r.get("id") or f"piece-{k + 1}")
        if r["piece_type"] == "area":
            if e.piece.get("terrain") is False:
                counts["empty_areas"] += 1
                continue
            counts["areas"] += 1
            poly = Polygon(_pts(r["vertices"]))
            terrain.append(Terrain(id=new_id(base_id), kind="area",
                                   polygon=_rounded(_polygon_points(poly))))
            continue
        kind = _kind(e)
        height = _height(e)
        upper = (e.template or {}).get("upper_floor")
        shapes: list[Polygon] = []
        walls = r.get("walls") or []
        for w in walls:
            pts = _pts(w["points"])
            closed = len(pts) > 3 and math.dist(pts[0], pts[-1]) <= CLOSED
            got = wall_sections(pts, float(w.get("thickness") or THIN_WALL),
                                solid=upper is None)
            counts["closed" if closed and upper is None else "hollow" if closed else "open"] += 1
            shapes.extend(got)
        if walls:
            counts["walls"] += len(shapes)
            name = "wall"
        else:
            counts["solid"] += 1
            shapes = [Polygon(_pts(r["vertices"]))]
            name = ""
        for j, shape in enumerate(shapes):
            tid = new_id(f"{base_id}--{name}-{j + 1}" if name else base_id)
            counts[kind] += 1
            if height is None:
                counts["unknown_height"] += 1
            terrain.append(Terrain(id=tid, kind=kind,
                                   polygon=_rounded(_polygon_points(shape)),
                                   height=unknown if height is None else height,
                                   height_known=height is not None))
        roof = bool(r.get("has_roof") or (e.template or {}).get("has_roof"))
        if upper is not None:
            ground = e.piece.get("footprint") or (e.template or {}).get("footprint")
            pts = placed_floor(ground or {}, upper["footprint"], e.chain)
            floors.append(Floor(id=new_id(f"{base_id}--floor-{int(upper.get('floor', 1))}"),
                                polygon=_rounded(_polygon_points(Polygon(pts))),
                                level=int(upper.get("floor", 1)), roof=roof))
            counts["floors"] += 1
            counts["roofs"] += roof
        elif roof:
            floors.append(Floor(id=new_id(f"{base_id}--roof"),
                                polygon=_rounded(_pts(r["vertices"])), level=1, roof=True))
            counts["roofs"] += 1
    return terrain, floors


def _rounded(points: Sequence[Point]) -> tuple[Point, ...]:
    return tuple((_round(x), _round(y)) for x, y in points)


def board(layout_id: str, deployment_id: str | None = None, *,
          unknown_height: float | None = None) -> Board:
    """The battlefield of layout ``layout_id`` with its own deployment map (or
    ``deployment_id``), as a :class:`Board` (its state has no units). ``unknown_height`` is
    written as the scenario's ``unknown_height`` (``None``: the ruling's default applies)."""
    info = layout(layout_id)
    record = dataset.by_id("terrain_layouts")[layout_id]
    dep_id = deployment_id if deployment_id is not None else info.deployment
    pattern = None
    if dep_id is not None:
        pattern = dataset.by_id("deployment_patterns").get(dep_id)
        if pattern is None:
            raise UserError(_unknown("deployment", dep_id, deployment_ids(),
                                     "tabletop new --list"))
    counts: Counter[str] = Counter()
    applied = UNKNOWN_HEIGHT if unknown_height is None else unknown_height
    terrain, floors = _terrain(_entries(record), counts, applied)
    objectives = _objectives(record)
    if not objectives and pattern is not None:
        objectives = [(float(p["x"]), float(p["y"])) for p in pattern.get("objectives") or []]
    counts["objectives"] = len(objectives)
    zones = deployment_zones(pattern, where=f"wh40kdc deployment {dep_id}") if pattern else {}
    players = (
        Player(id="red", name=PLAYER_NAMES["red"], deployment_zone=zones.get("red")),
        Player(id="blue", name=PLAYER_NAMES["blue"], deployment_zone=zones.get("blue")),
    )
    version = dataset.version()
    dep_name = str(pattern.get("name", dep_id)) if pattern else None
    title = info.name + (f" - {dep_name}" if dep_name and dep_id != info.deployment else "")
    matchup = f", mission matchup {info.mission_matchup}" if info.mission_matchup else ""
    description = (f"Layout {info.name} ({info.id}), deployment map {dep_name or 'none'}"
                   f"{matchup}. {credit(version)}")
    state = GameState(
        name=title, ruleset=WH40K,
        battle=Battle(round=1, active_player="red", phase="movement"),
        players=players, battlefield=Battlefield(info.width, info.depth),
        terrain=tuple(terrain), objectives=tuple(objectives), description=description,
        unknown_height=unknown_height, floors=tuple(floors),
        data=DataSource(source="wh40kdc", version=version, layout=info.id, deployment=dep_id,
                        mission_matchup=info.mission_matchup, mission=info.mission),
    )
    return Board(state, info, dep_id, dict(counts))


def layout_state(layout_id: str, deployment_id: str | None = None, *,
                 unknown_height: float | None = None) -> GameState:
    """The scenario state of layout ``layout_id`` (see :func:`board`)."""
    return board(layout_id, deployment_id, unknown_height=unknown_height).state

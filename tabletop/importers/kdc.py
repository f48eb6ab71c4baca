"""Read the 40kdc terrain layouts and deployment maps into scenario states.

The 40kdc community data set (Alpaca Software and the 40kdc community contributors, CC BY 4.0)
publishes the 11th-edition tournament layouts of the 60" x 44" battlefield as JSON:

- ``terrain-layouts.json``: a list of layouts; each piece names a template (or gives an inline
  ``footprint``) and is placed by ``position`` (the CENTROID of its footprint),
  ``rotation_degrees`` (clockwise about the centroid, y-down board) and ``mirror``
  (``"horizontal"`` negates local x, ``"vertical"`` negates local y; applied before the rotation).
  A feature with ``parent_area_id`` is placed in its parent's centroid-local frame, so the
  parent's mirror, rotation and position carry it.
- ``terrain-templates.json`` (found beside the layouts file): footprints (``rectangle``,
  ``polygon``, ``right-triangle``), kind, ``terrain_category``, ``default_height_inches``; a
  template may itself list ``features`` placed in its centroid-local frame.
- ``deployment-patterns.json``: per-side deployment zones (shape relative to ``position``) and
  five objective points per map.

The board convention of the data is ours (inches, x right, y down, clockwise degrees), so no axis
swap is needed. The resolver (:func:`~tabletop.importers.kdc_layouts.resolve_layout`) and the
keystone measurements (:func:`~tabletop.importers.kdc_layouts.keystone_measurements`) reproduce
the published conformance cases to 5e-4; the JSON is read and checked by
:mod:`tabletop.importers.kdc_json`.

Terrain mapping (what a piece becomes in a scenario, ruleset ``wh40k-11e``)
----------------------------------------------------------------------------
- A piece whose ``piece_type`` is ``"area"`` (or, without ``piece_type``, whose template kind is
  ``"area"``) becomes terrain of kind ``"area"`` (drawn, no effect on movement), height 0.
- A ``"feature"`` (walls, ruins, barricades, pipes, gantries, catwalks, generators) becomes kind
  ``"light"`` or ``"dense"`` from its template's ``terrain_category`` (``"light"`` when the
  template gives none), with height ``height_inches`` of the piece, else the template's
  ``default_height_inches``, else 0. In the published templates: corners, barricades and pipes
  are light (5", 2", 2"); gantries, catwalks, generators and corner ruins are dense (3", 3", 3",
  5").
- Pieces on an upper floor (``floor`` >= 1: the catwalks standing on gantries in two layouts) are
  not ground terrain and are left out; the ground pieces under them are kept.
- Vertices less than 5e-4" outside the battlefield (rounding in the published positions) are
  moved onto its edge; coordinates are written to 6 decimals.
- Deployment zones: the ``attacker`` zone goes to player ``red`` and the ``defender`` zone to
  player ``blue`` (the colours the data gives them); the map's objective points become the
  scenario's objectives.

Limits (hostile files)
----------------------
The files are read with bounded work and memory whatever they hold: each file at most
:data:`~tabletop.importers.kdc_json.MAX_FILE_BYTES`, a regular file (never a FIFO), UTF-8 JSON
nested at most 64 deep; every number finite and at most 1,000,000 in size (the scenario
format's bound, so a placed piece can always be written); a footprint or zone of 3 to
:data:`~tabletop.importers.kdc_json.MAX_POINTS` points; a layout of at most
:data:`~tabletop.importers.kdc_layouts.MAX_PIECES` pieces counting the features its templates
add (counted before any is placed: templates that each list ten of the next, eight deep, would
make 100 million);
a map of at most :data:`MAX_OBJECTIVES` objectives. The published files have at most 68 pieces
a layout (no template lists features), 8 points a footprint, 28 a zone and 5 objectives a map.
A problem names the file and the field; what the scenario format refuses of a layout that
passes these checks is still reported against the file and field it came from (never against
the scenario that was to be written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from tabletop.errors import UserError, ident, quote
from tabletop.importers.kdc_json import (
    as_array,
    as_object,
    fail,
    kind_of,
    num,
    points,
    read_id,
    read_json,
    vec,
)
from tabletop.importers.kdc_layouts import (
    BOARD,
    ResolvedPiece,
    Templates,
    resolve_layout,
    template_index,
)
from tabletop.rulesets.wh40k_11e import NAME as WH40K
from tabletop.scenario.schema import MAX_NUMBER
from tabletop.state import Battle, Battlefield, GameState, Player, Point, Terrain

__all__ = [
    "CREDIT",
    "DEPLOYMENTS_FILE",
    "LICENCE",
    "MAX_OBJECTIVES",
    "RULESET",
    "TEMPLATES_FILE",
    "DataSet",
    "build_state",
    "deployment_objectives",
    "deployment_zones",
    "find_deployment",
    "find_layout",
    "layout_state",
    "list_lines",
    "load_data",
    "read_deployments",
    "read_layouts",
    "read_templates",
    "terrain_of",
    "verify_state",
]

RULESET = WH40K
"""The ruleset of the battles this importer builds (its units' keywords are that ruleset's)."""

CREDIT = "Alpaca Software and the 40kdc community contributors"
LICENCE = "CC BY 4.0"
TEMPLATES_FILE = "terrain-templates.json"
DEPLOYMENTS_FILE = "deployment-patterns.json"
SIDE_TO_PLAYER = {"attacker": "red", "defender": "blue"}
PLAYER_NAMES = {"red": "Attacker", "blue": "Defender"}
DIGITS = 6
"""Decimals kept on the coordinates written to a scenario (1e-6 inch, the project tolerance)."""
EDGE_SNAP = 5e-4
"""A vertex this close outside the battlefield is moved onto its edge (rounding in the data)."""
MAX_OBJECTIVES = 64
"""Most objective points of a deployment map (the published: 5)."""


# -- files ---------------------------------------------------------------------------------------
def _read_items(path: str | Path, what: str, single_key: str, label: str
                ) -> list[dict[str, Any]]:
    """The tables with an ``id`` in a file holding a list of them, or just one (which has
    ``single_key``)."""
    data = read_json(path, what)
    items = [data] if isinstance(data, dict) and single_key in data else data
    out = []
    for i, item in enumerate(as_array(items, f"{path}")):
        where = f"{path}: {label} [{i}]"
        obj = as_object(item, where)
        read_id(obj, where)
        out.append(obj)
    return out


def read_layouts(path: str | Path) -> list[dict[str, Any]]:
    """The layouts of a ``terrain-layouts.json`` file (a list of layouts, or one layout)."""
    layouts = _read_items(path, "terrain layouts (terrain-layouts.json)", "pieces", "layout")
    for i, layout in enumerate(layouts):
        as_array(layout.get("pieces", []), f"{path}: layout [{i}].pieces")
    return layouts


def read_templates(path: str | Path) -> Templates:
    """The templates of a ``terrain-templates.json`` file, by id."""
    data = read_json(path, "terrain templates (terrain-templates.json)")
    return template_index(data, f"{path}", source=str(path))


def read_deployments(path: str | Path) -> list[dict[str, Any]]:
    """The deployment maps of a ``deployment-patterns.json`` file."""
    return _read_items(path, "deployment maps (deployment-patterns.json)", "zones", "deployment")


def find_layout(layouts: Sequence[Mapping[str, Any]], layout_id: str,
                path: str | Path) -> Mapping[str, Any]:
    """The layout with ``layout_id``; a :class:`UserError` listing the ids otherwise."""
    for layout in layouts:
        if layout.get("id") == layout_id:
            return layout
    raise UserError([f"{path}: no layout with id {quote(str(layout_id))}; the file has:",
                     *_listed(lay.get("id") for lay in layouts)])


def find_deployment(patterns: Sequence[Mapping[str, Any]], deployment_id: str,
                    path: str | Path) -> Mapping[str, Any]:
    """The deployment map with ``deployment_id``; a :class:`UserError` listing the ids otherwise."""
    for pattern in patterns:
        if pattern.get("id") == deployment_id:
            return pattern
    raise UserError([f"{path}: no deployment map with id {quote(str(deployment_id))}; the file "
                     "has:",
                     *_listed(p.get("id") for p in patterns)])


def _listed(ids: Iterable[Any], shown: int = 40) -> list[str]:
    """Lines listing ids of a file, the first ``shown``, then how many more."""
    items = list(ids)
    lines = [f"  {ident(i)}" for i in items[:shown]]
    return lines + ([f"  ... and {len(items) - shown:,} more"] if len(items) > shown else [])


def _shape_points(shape: Any, where: str) -> list[Point]:
    s = as_object(shape, where)
    if s.get("type") == "rectangle":
        w = num(s, "width", where, positive=True)
        h = num(s, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if s.get("type") == "polygon":
        return points(s.get("points"), f"{where}.points")
    raise fail(f"{where}.type", f'unknown zone shape {kind_of(s.get("type"))}; accepted: '
                '"rectangle" (width, height), "polygon" (points)')


def deployment_zones(pattern: Mapping[str, Any], *,
                     where: str = "deployment") -> dict[str, tuple[Point, ...]]:
    """Absolute deployment-zone polygons by player id (``red`` = attacker, ``blue`` = defender)."""
    zones: dict[str, tuple[Point, ...]] = {}
    for i, zone in enumerate(as_array(pattern.get("zones"), f"{where}.zones")):
        zw = f"{where}.zones[{i}]"
        z = as_object(zone, zw)
        side = z.get("player")
        if not isinstance(side, str) or side not in SIDE_TO_PLAYER:
            raise fail(f"{zw}.player", f'expected "attacker" or "defender", got {kind_of(side)}')
        ox, oy = vec(z.get("position"), f"{zw}.position")
        pts = tuple((_round(x + ox), _round(y + oy))
                    for x, y in _shape_points(z.get("shape"), f"{zw}.shape"))
        _writable(pts, f"{zw}.position")
        pid = SIDE_TO_PLAYER[side]
        if pid in zones:
            raise fail(zw, f"a second zone for the {side}")
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            raise fail(f"{zw}.shape", "the zone polygon crosses itself or has no area")
        zones[pid] = pts
    return zones


def deployment_objectives(pattern: Mapping[str, Any], *,
                          where: str = "deployment") -> tuple[Point, ...]:
    """The objective points of a deployment map (at most :data:`MAX_OBJECTIVES`)."""
    items = as_array(pattern.get("objectives", []), f"{where}.objectives")
    if len(items) > MAX_OBJECTIVES:
        raise fail(f"{where}.objectives", f"{len(items):,} objectives; a map has at most "
                    f"{MAX_OBJECTIVES}")
    return tuple(vec(p, f"{where}.objectives[{i}]") for i, p in enumerate(items))


def _writable(points: Sequence[Point], where: str) -> None:
    """Refuse a placed polygon with a coordinate the scenario format cannot hold (over
    1,000,000 in size: a piece placed far off the battlefield)."""
    for x, y in points:
        if abs(x) > MAX_NUMBER or abs(y) > MAX_NUMBER:
            raise fail(where, f"placed at ({x:,.3f}, {y:,.3f}), a coordinate of more than "
                        f"{MAX_NUMBER:,.0f} in size; the battlefield is {BOARD[0]:g}\" x "
                        f"{BOARD[1]:g}\"")


# -- scenario state ------------------------------------------------------------------------------
def _round(v: float) -> float:
    r = round(v, DIGITS)
    return 0.0 if r == 0 else r


def _snap(v: float, top: float) -> float:
    if -EDGE_SNAP <= v < 0.0:
        return 0.0
    if top < v <= top + EDGE_SNAP:
        return top
    return v


def terrain_of(pieces: Sequence[ResolvedPiece], *, where: str = "layout") -> tuple[Terrain, ...]:
    """Scenario terrain from resolved pieces, following the mapping in the module docstring."""
    out: list[Terrain] = []
    used: set[str] = set()
    for k, r in enumerate(pieces):
        if r.floor > 0:
            continue
        base = r.id if isinstance(r.id, str) and r.id else f"piece-{k + 1}"
        tid, n = base, 1
        while tid in used:
            n += 1
            tid = f"{base}-{n}"
        used.add(tid)
        pts = tuple((_round(_snap(x, BOARD[0])), _round(_snap(y, BOARD[1])))
                    for x, y in r.vertices)
        _writable(pts, f"{where}.pieces[{r.piece_index}]"
                  + (f" (feature {quote(str(r.id))} of its template)" if r.composed else ""))
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            raise fail(f"{where}.pieces[{r.piece_index}]",
                        "the placed footprint crosses itself or has no area")
        if r.piece_type == "area":
            out.append(Terrain(id=tid, kind="area", polygon=pts, height=0.0))
        else:
            kind = r.category if r.category in ("light", "dense") else "light"
            out.append(Terrain(id=tid, kind=kind, polygon=pts, height=float(r.height or 0.0)))
    return tuple(out)


def credit_text(layout: Mapping[str, Any] | None,
                deployment: Mapping[str, Any] | None) -> str:
    """The attribution the data licence asks for, naming what was used."""
    used = []
    if layout is not None:
        used.append(f"terrain layout \"{layout.get('name', layout.get('id'))}\" "
                    f"({layout.get('id')})")
    if deployment is not None:
        used.append(f"deployment map \"{deployment.get('name', deployment.get('id'))}\" "
                    f"({deployment.get('id')})")
    text = " and ".join(used) or "data"
    return (text[:1].upper() + text[1:] + f" from the 40kdc data by {CREDIT}, "
            f"licensed {LICENCE} (https://creativecommons.org/licenses/by/4.0/).")


def build_state(layout: Mapping[str, Any] | None, templates: Any,
                deployment: Mapping[str, Any] | None = None, *,
                where: str = "layout", deployment_where: str = "deployment") -> GameState:
    """A wh40k-11e scenario state: the layout's terrain, the map's zones and objectives.

    Players are ``red`` (attacker) and ``blue`` (defender); battle round 1, movement phase,
    ``red`` active; no units. The state is checked as a scenario file would be
    (:func:`verify_state`): what the format refuses is named by the file and field it came
    from.
    """
    terrain: tuple[Terrain, ...] = ()
    sources: dict[str, str] = {}
    if layout is not None:
        resolved = resolve_layout(layout, templates, where=where)
        terrain = terrain_of(resolved, where=where)
        ground = [r for r in resolved if r.floor <= 0]
        sources.update({f"terrain[{k}]": f"{where}.pieces[{r.piece_index}]"
                        + (f" (feature {quote(str(r.id))} of its template)" if r.composed else "")
                        for k, r in enumerate(ground)})
        sources["name"] = sources["description"] = f"{where}.name"
    zones: dict[str, tuple[Point, ...]] = {}
    objectives: tuple[Point, ...] = ()
    if deployment is not None:
        zones = deployment_zones(deployment, where=deployment_where)
        objectives = deployment_objectives(deployment, where=deployment_where)
        for k, pid in enumerate(("red", "blue")):
            side = next(s for s, p in SIDE_TO_PLAYER.items() if p == pid)
            sources[f"players[{k}]"] = f"{deployment_where}.zones ({side})"
        sources.update({f"objectives[{i}]": f"{deployment_where}.objectives[{i}]"
                        for i in range(len(objectives))})
        sources.setdefault("name", f"{deployment_where}.name")
        sources.setdefault("description", f"{deployment_where}.name")
    players = (
        Player(id="red", name=PLAYER_NAMES["red"], deployment_zone=zones.get("red")),
        Player(id="blue", name=PLAYER_NAMES["blue"], deployment_zone=zones.get("blue")),
    )
    titles: list[str] = []
    for x in (layout, deployment):
        if x is not None and str(x.get("name", x.get("id"))) not in titles:
            titles.append(str(x.get("name", x.get("id"))))
    state = GameState(
        name=" - ".join(titles) or "40kdc battlefield",
        ruleset=WH40K,
        battle=Battle(round=1, active_player="red", phase="movement"),
        players=players,
        battlefield=Battlefield(*BOARD),
        terrain=terrain,
        objectives=objectives,
        description=credit_text(layout, deployment),
    )
    verify_state(state, sources, where if layout is not None else deployment_where)
    return state


_PROBLEM = re.compile(r"^\x00: (?:(?P<path>[^ :]+)(?: \((?:unit|model) [^)]*\))?: )?(?P<msg>.*)$",
                      re.S)
_TOP = re.compile(r"^[a-z_]+(?:\[\d+\])?")


def verify_state(state: GameState, sources: Mapping[str, str], default: str) -> None:
    """Check ``state`` as a scenario file holding it would be checked (schema and board), and
    raise every problem as a :class:`UserError` line naming where in the input it came from:
    ``sources`` maps a scenario path's first part (``terrain[3]``, ``players[0]``,
    ``objectives[1]``, ``units[2]``, ``name``) to it, ``default`` names the rest. So an input
    the scenario format refuses is reported against the input, never against the scenario
    file that was to be written (and is not)."""
    from tabletop.scenario.io import dumps_scenario, loads_scenario

    try:
        loads_scenario(dumps_scenario(state, "json"), fmt="json", source="\x00")
    except UserError as exc:
        lines = []
        for line in exc.lines:
            m = _PROBLEM.match(line)
            if m is None or m["path"] is None:
                lines.append(f"{default}: {line.removeprefix(chr(0) + ': ')}")
                continue
            top = _TOP.match(m["path"])
            src = sources.get(top.group() if top else "", default)
            lines.append(f"{src}: {m['msg']} (in the scenario: {m['path']})")
        raise UserError(lines) from None


@dataclass(frozen=True)
class DataSet:
    """The chosen layout and deployment map with the files they came from."""

    layout: Mapping[str, Any] | None
    templates: dict[str, dict[str, Any]]
    deployment: Mapping[str, Any] | None
    layouts_path: Path | None
    deployments_path: Path | None

    def state(self) -> GameState:
        """The scenario state of this layout and map."""
        lw = f"{self.layouts_path}: layout {self.layout.get('id')}" if self.layout else "layout"
        dw = f"{self.deployments_path}: deployment {self.deployment.get('id')}" \
            if self.deployment else "deployment"
        return build_state(self.layout, self.templates, self.deployment, where=lw,
                           deployment_where=dw)


def load_data(layouts_path: str | Path | None, layout_id: str | None, *,
              deployment_id: str | None = None,
              deployments_path: str | Path | None = None) -> DataSet:
    """Read the published files and pick a layout and a deployment map.

    ``terrain-templates.json`` is read from beside the layouts file. Without ``deployments_path``
    the ``deployment-patterns.json`` beside the layouts file is used when it exists. Without
    ``deployment_id`` the layout's own ``deployment_pattern_id`` is used when the deployments
    file is there.
    """
    layout = None
    templates: dict[str, dict[str, Any]] = {}
    lpath = Path(layouts_path) if layouts_path is not None else None
    if lpath is not None and layout_id is not None:
        layout = find_layout(read_layouts(lpath), layout_id, lpath)
        tpath = lpath.parent / TEMPLATES_FILE
        if not tpath.exists():
            raise UserError(f"{tpath}: no such file (the terrain templates must be beside "
                            f"{lpath.name})")
        templates = read_templates(tpath)
    dpath = Path(deployments_path) if deployments_path is not None else None
    if dpath is None and lpath is not None and (lpath.parent / DEPLOYMENTS_FILE).exists():
        dpath = lpath.parent / DEPLOYMENTS_FILE
    if deployment_id is None and layout is not None and dpath is not None:
        own = layout.get("deployment_pattern_id")
        deployment_id = own if isinstance(own, str) else None
    deployment = None
    if deployment_id is not None:
        if dpath is None:
            raise UserError(f"--deployment {deployment_id}: no deployments file; give "
                            f"--deployments FILE ({DEPLOYMENTS_FILE})")
        deployment = find_deployment(read_deployments(dpath), deployment_id, dpath)
    return DataSet(layout, templates, deployment, lpath, dpath)


def layout_state(layouts_path: str | Path, layout_id: str, *, deployment_id: str | None = None,
                 deployments_path: str | Path | None = None) -> GameState:
    """Read the files and build the scenario state of one layout (see :func:`load_data`)."""
    return load_data(layouts_path, layout_id, deployment_id=deployment_id,
                     deployments_path=deployments_path).state()


def list_lines(layouts_path: str | Path | None,
               deployments_path: str | Path | None = None) -> list[str]:
    """Human-readable lines listing the layouts and deployment maps of the files."""
    lines: list[str] = []
    lpath = Path(layouts_path) if layouts_path is not None else None
    if lpath is not None:
        layouts = read_layouts(lpath)
        lines.append(f"Layouts in {lpath} ({len(layouts)}):")
        for lay in layouts:
            lines.append(f"  {lay.get('id'):<40} {lay.get('name', '')}  "
                         f"[map: {lay.get('deployment_pattern_id', '?')}, "
                         f"{len(lay.get('pieces', []))} pieces]")
    dpath = Path(deployments_path) if deployments_path is not None else None
    if dpath is None and lpath is not None and (lpath.parent / DEPLOYMENTS_FILE).exists():
        dpath = lpath.parent / DEPLOYMENTS_FILE
    if dpath is not None:
        patterns = read_deployments(dpath)
        lines.append(f"Deployment maps in {dpath} ({len(patterns)}):")
        for p in patterns:
            lines.append(f"  {p.get('id'):<40} {p.get('name', '')}")
    lines.append(f"Data: {CREDIT}, {LICENCE}.")
    return lines

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
swap is needed. The resolver (:func:`resolve_layout`) and the keystone measurements
(:func:`keystone_measurements`) reproduce the published conformance cases to 5e-4.

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
:data:`MAX_FILE_BYTES`, a regular file (never a FIFO), UTF-8 JSON nested at most 64 deep;
every number finite and at most 1,000,000 in size (the scenario format's bound, so a placed
piece can always be written); a footprint or zone of 3 to :data:`MAX_POINTS` points; a layout
of at most :data:`MAX_PIECES` pieces counting the features its templates add (counted before
any is placed: templates that each list ten of the next, eight deep, would make 100 million);
a map of at most :data:`MAX_OBJECTIVES` objectives. The published files have at most 68 pieces
a layout (no template lists features), 8 points a footprint, 28 a zone and 5 objectives a map.
A problem names the file and the field; what the scenario format refuses of a layout that
passes these checks is still reported against the file and field it came from (never against
the scenario that was to be written).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from tabletop.errors import UserError, ident, idents, quote
from tabletop.files import read_json as read_json_file
from tabletop.rulesets.wh40k_11e import NAME as WH40K
from tabletop.scenario.schema import MAX_NUMBER, MAX_POLYGON_POINTS
from tabletop.state import Battle, Battlefield, GameState, Player, Point, Terrain

__all__ = [
    "CREDIT",
    "DEPLOYMENTS_FILE",
    "LICENCE",
    "MAX_FILE_BYTES",
    "MAX_OBJECTIVES",
    "MAX_PIECES",
    "MAX_POINTS",
    "RULESET",
    "TEMPLATES_FILE",
    "Affine",
    "DataSet",
    "ResolvedPiece",
    "Templates",
    "build_state",
    "deployment_objectives",
    "deployment_zones",
    "find_deployment",
    "find_layout",
    "keystone_measurements",
    "layout_state",
    "list_lines",
    "load_data",
    "read_deployments",
    "read_json",
    "read_layouts",
    "read_templates",
    "resolve_layout",
    "terrain_of",
    "verify_state",
]

RULESET = WH40K
"""The ruleset of the battles this importer builds (its units' keywords are that ruleset's)."""

CREDIT = "Alpaca Software and the 40kdc community contributors"
LICENCE = "CC BY 4.0"
TEMPLATES_FILE = "terrain-templates.json"
DEPLOYMENTS_FILE = "deployment-patterns.json"
BOARD = (60.0, 44.0)
SIDE_TO_PLAYER = {"attacker": "red", "defender": "blue"}
PLAYER_NAMES = {"red": "Attacker", "blue": "Defender"}
MIRRORS = ("none", "horizontal", "vertical")
FOOTPRINT_TYPES = ('"rectangle" (width, height)', '"polygon" (points)',
                   '"right-triangle" (width, height)')
DIGITS = 6
"""Decimals kept on the coordinates written to a scenario (1e-6 inch, the project tolerance)."""
EDGE_SNAP = 5e-4
"""A vertex this close outside the battlefield is moved onto its edge (rounding in the data)."""
MAX_FILE_BYTES = 20 * 2**20
"""Largest 40kdc file read (20 MB; the published layouts file is 0.6 MB)."""
MAX_PIECES = 1_000
"""Most pieces of one layout, counting the features its templates add (the published: 68)."""
MAX_POINTS = MAX_POLYGON_POINTS
"""Most points of a footprint or a deployment zone (the scenario format's 64)."""
MAX_OBJECTIVES = 64
"""Most objective points of a deployment map (the published: 5)."""


# -- reading and checking JSON ------------------------------------------------------------------
def read_json(path: str | Path, what: str) -> Any:
    """Read a 40kdc JSON file (see *Limits* in the module docstring), turning every failure
    into a one-line :class:`UserError` that names the file."""
    p = Path(path)
    try:
        return read_json_file(p, MAX_FILE_BYTES, what=f"the 40kdc {what}")
    except FileNotFoundError:
        raise UserError(f"{p}: no such file (expected the 40kdc {what})") from None
    except OSError as exc:
        raise UserError(f"{p}: cannot read it ({exc.strerror or exc})") from None


def _fail(where: str, message: str) -> UserError:
    return UserError(f"{where}: {message}")


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, f"expected a JSON object, got {_kind(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"expected a JSON array, got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _num(obj: Mapping[str, Any], key: str, where: str, default: float | None = None,
         *, positive: bool = False, nonnegative: bool = False) -> float:
    value = obj.get(key, default)
    if value is None:
        raise _fail(f"{where}.{key}", "missing (a number is required)")
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise _fail(f"{where}.{key}", f"expected a number, got {_kind(value)}")
    if abs(value) > MAX_NUMBER:  # (an int of 400 digits is no float: compared as it is)
        shown = f"{value:g}" if isinstance(value, float) or abs(value) < 1e300 else \
            f"a number of {len(str(abs(value))):,} digits"
        raise _fail(f"{where}.{key}", f"expected a number of at most {MAX_NUMBER:,.0f} in size, "
                    f"got {shown}")
    if positive and value <= 0:
        raise _fail(f"{where}.{key}", f"expected a number above 0, got {value}")
    if nonnegative and value < 0:
        raise _fail(f"{where}.{key}", f"expected a number of at least 0, got {value}")
    return float(value)


def _points(value: Any, where: str) -> list[Point]:
    """A polygon's ``points`` (3 to :data:`MAX_POINTS` of them), counted before they are read."""
    pts = _list(value, where)
    if not 3 <= len(pts) <= MAX_POINTS:
        raise _fail(where, f"a polygon has 3 to {MAX_POINTS} points, got {len(pts):,}")
    return [_vec(p, f"{where}[{i}]") for i, p in enumerate(pts)]


def _vec(value: Any, where: str) -> Point:
    if not isinstance(value, dict) or "x" not in value or "y" not in value:
        raise _fail(where, f'expected an object {{"x": number, "y": number}}, got {_kind(value)}')
    return (_num(value, "x", where), _num(value, "y", where))


def _id(obj: Mapping[str, Any], where: str) -> str:
    value = obj.get("id")
    if not isinstance(value, str) or not value:
        raise _fail(f"{where}.id", f"expected a non-empty string, got {_kind(value)}")
    return value


# -- geometry ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Affine:
    """``p -> A p + t`` with ``A = [[a, b], [c, d]]``, board inches, y down."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    tx: float = 0.0
    ty: float = 0.0

    @staticmethod
    def placement(position: Point, rotation: float, mirror: str) -> Affine:
        """Mirror in the local frame, then rotate clockwise (y down), then move to ``position``."""
        th = math.radians(rotation)
        cs, sn = math.cos(th), math.sin(th)
        mx = -1.0 if mirror == "horizontal" else 1.0
        my = -1.0 if mirror == "vertical" else 1.0
        # R = [[cos, -sin], [sin, cos]] (clockwise on a y-down board); A = R @ diag(mx, my).
        return Affine(cs * mx, -sn * my, sn * mx, cs * my, position[0], position[1])

    def then(self, outer: Affine) -> Affine:
        """The transform that applies ``self`` first and ``outer`` after it."""
        return Affine(
            outer.a * self.a + outer.b * self.c, outer.a * self.b + outer.b * self.d,
            outer.c * self.a + outer.d * self.c, outer.c * self.b + outer.d * self.d,
            outer.a * self.tx + outer.b * self.ty + outer.tx,
            outer.c * self.tx + outer.d * self.ty + outer.ty,
        )

    def apply(self, p: Point) -> Point:
        """The image of ``p``."""
        return (self.a * p[0] + self.b * p[1] + self.tx, self.c * p[0] + self.d * p[1] + self.ty)


def footprint_points(footprint: Any, where: str) -> list[Point]:
    """The vertices of a 40kdc footprint in its own frame, in the published vertex order.

    ``rectangle``: (0,0), (w,0), (w,h), (0,h); ``right-triangle``: (0,0), (w,0), (0,h);
    ``polygon``: its ``points``.
    """
    fp = _obj(footprint, where)
    kind = fp.get("type")
    if kind == "rectangle":
        w = _num(fp, "width", where, positive=True)
        h = _num(fp, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if kind == "right-triangle":
        w = _num(fp, "width", where, positive=True)
        h = _num(fp, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (0.0, h)]
    if kind == "polygon":
        return _points(fp.get("points"), f"{where}.points")
    raise _fail(f"{where}.type", f"unknown footprint type {_kind(kind)}; accepted: "
                + ", ".join(FOOTPRINT_TYPES))


def centroid(points: Sequence[Point], where: str) -> Point:
    """The area centroid of a simple polygon (shoelace formula)."""
    a2 = cx = cy = 0.0
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        a2 += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a2) < 1e-12:
        raise _fail(where, "the footprint has no area (its points are on one line)")
    return (cx / (3.0 * a2), cy / (3.0 * a2))


def centred(points: Sequence[Point], where: str) -> list[Point]:
    """``points`` moved so that their area centroid is the origin."""
    cx, cy = centroid(points, where)
    return [(x - cx, y - cy) for x, y in points]


# -- the resolver --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ResolvedPiece:
    """A terrain piece placed on the board: absolute vertices in the published vertex order."""

    id: str | None
    name: str | None
    piece_type: str
    """``"area"`` or ``"feature"``."""
    floor: int
    vertices: tuple[Point, ...]
    piece_index: int
    """Index of the layout piece this comes from (a template's composed feature shares it)."""
    template: str | None = None
    category: str | None = None
    """The template's ``terrain_category`` (``"light"``/``"dense"``), if any."""
    height: float | None = None
    """``height_inches`` of the piece, else the template's default height, if any."""
    composed: bool = False
    """Whether the piece is a feature listed by its template rather than by the layout."""


class Templates(dict[str, dict[str, Any]]):
    """Templates by id, and the file they come from (``source``, to name it in messages)."""

    source: str = ""


def template_index(templates: Any, where: str, *, source: str = "") -> Templates:
    """Templates by id, from a list of template objects (or an id-keyed object); ``source``
    names their file in messages."""
    if isinstance(templates, Mapping):
        items = list(templates.values())
    else:
        items = _list(templates, where)
    out = Templates()
    out.source = source
    for i, t in enumerate(items):
        tw = f"{where}[{i}]"
        obj = _obj(t, tw)
        out[_id(obj, tw)] = obj
    return out


def _tw(templates: Mapping[str, Any], tid: Any) -> str:
    """How a message names template ``tid``: with its file when known."""
    source = getattr(templates, "source", "")
    return f"{source}: template {tid}" if source else f"template {tid}"


def _template(templates: Mapping[str, dict[str, Any]], tid: Any, where: str) -> dict[str, Any]:
    if not isinstance(tid, str) or tid not in templates:
        known = idents(sorted(templates), shown=20) or "none"
        raise _fail(where, f"unknown template {_kind(tid)}; the templates file has: {known}")
    return templates[tid]


def _placement(obj: Mapping[str, Any], where: str) -> Affine:
    pos = _vec(obj.get("position"), f"{where}.position")
    rot = _num(obj, "rotation_degrees", where, 0.0)
    mirror = obj.get("mirror", "none")
    if mirror not in MIRRORS:
        raise _fail(f"{where}.mirror", f"expected one of {', '.join(MIRRORS)}, got {_kind(mirror)}")
    return Affine.placement(pos, rot, mirror)


def _geometry(obj: Mapping[str, Any], template: Mapping[str, Any] | None,
              where: str, tw: str) -> list[Point]:
    """The centred footprint of a piece: its own, else its template's (``tw`` names it)."""
    if "footprint" in obj:
        return centred(footprint_points(obj["footprint"], f"{where}.footprint"), where)
    if template is None:
        raise _fail(where, 'a piece needs a "template" or a "footprint"')
    return centred(footprint_points(template.get("footprint"), f"{tw}.footprint"), tw)


def _height(obj: Mapping[str, Any], template: Mapping[str, Any] | None, where: str,
            tw: str) -> float | None:
    if "height_inches" in obj:
        return _num(obj, "height_inches", where, nonnegative=True)
    if template is not None and "default_height_inches" in template:
        return _num(template, "default_height_inches", tw, nonnegative=True)
    return None


def _composed(template: Mapping[str, Any], outer: Affine, templates: Mapping[str, dict[str, Any]],
              index: int, prefix: str, depth: int) -> list[ResolvedPiece]:
    here = _tw(templates, template.get("id"))
    if depth > NEST:  # (counted first: _count_pieces)
        raise _fail(here, f"features nest more than {NEST} deep")
    out: list[ResolvedPiece] = []
    for j, feat in enumerate(_list(template.get("features", []), f"{here}.features")):
        fw = f"{here}.features[{j}]"
        f = _obj(feat, fw)
        sub = _template(templates, f.get("template"), f"{fw}.template") if "template" in f \
            else None
        if sub is None and "footprint" not in f:
            raise _fail(fw, 'a feature needs a "template" or a "footprint"')
        t = _placement(f, fw).then(outer)
        sw = _tw(templates, sub.get("id")) if sub else ""
        pts = tuple(t.apply(p) for p in _geometry(f, sub, fw, sw))
        fid = f.get("id") if isinstance(f.get("id"), str) else f"{prefix}feature-{j + 1}"
        out.append(ResolvedPiece(
            id=fid, name=f.get("name", sub.get("name") if sub else None),
            piece_type=str(f.get("piece_type", (sub or {}).get("kind", "feature"))),
            floor=int(_num(f, "floor", fw, 0.0)), vertices=pts, piece_index=index,
            template=sub.get("id") if sub else None,
            category=(sub or {}).get("terrain_category"), height=_height(f, sub, fw, sw),
            composed=True))
        if sub is not None and sub.get("features"):
            out.extend(_composed(sub, t, templates, index, f"{fid}/", depth + 1))
    return out


NEST = 16
"""Deepest nesting of templates' features, and of pieces placed in their parent areas."""


def _features_added(template: Mapping[str, Any], templates: Mapping[str, dict[str, Any]],
                    memo: dict[str, int], chain: tuple[str, ...] = ()) -> int:
    """How many features ``template`` adds to a layout with its templates' own features, at
    most :data:`MAX_PIECES` + 1 (counted, not placed: each template once)."""
    tid = str(template.get("id"))
    if tid in memo:
        return memo[tid]
    if tid in chain:
        raise _fail(_tw(templates, tid), "lists itself among its features (through "
                    + " -> ".join(chain[chain.index(tid):]) + ")")
    if len(chain) >= NEST:
        raise _fail(_tw(templates, tid), f"features nest more than {NEST} deep")
    here = _tw(templates, tid)
    n = 0
    for j, feat in enumerate(_list(template.get("features", []), f"{here}.features")):
        f = _obj(feat, f"{here}.features[{j}]")
        n += 1
        if "template" in f and "footprint" not in f:
            sub = _template(templates, f.get("template"), f"{here}.features[{j}].template")
            if sub.get("features"):
                n += _features_added(sub, templates, memo, (*chain, tid))
        if n > MAX_PIECES:
            break
    memo[tid] = min(n, MAX_PIECES + 1)
    return memo[tid]


def _count_pieces(objs: Sequence[Mapping[str, Any]], templates: Mapping[str, dict[str, Any]],
                  where: str) -> None:
    """Refuse a layout of more than :data:`MAX_PIECES` pieces with its templates' features,
    before any is placed."""
    memo: dict[str, int] = {}
    total = 0
    for i, p in enumerate(objs):
        total += 1
        tid = p.get("template")
        if "footprint" not in p and isinstance(tid, str) and tid in templates \
                and templates[tid].get("features"):
            added = _features_added(templates[tid], templates, memo)
            total += added
            if added > MAX_PIECES:
                raise _fail(f"{where}.pieces[{i}].template",
                            f"template {quote(tid)}"
                            + (f" of {source}" if (source := getattr(templates, "source", ""))
                               else "")
                            + f" adds more than {MAX_PIECES:,} features with "
                            f"its templates' own features; a layout has at most "
                            f"{MAX_PIECES:,} pieces in all")
        if total > MAX_PIECES:
            raise _fail(f"{where}.pieces", f"more than {MAX_PIECES:,} pieces with the features "
                        f"their templates add (at pieces[{i}]); a layout has at most "
                        f"{MAX_PIECES:,}")


def resolve_layout(layout: Mapping[str, Any], templates: Any, *,
                   where: str = "layout") -> tuple[ResolvedPiece, ...]:
    """Place every piece of a 40kdc layout: absolute vertices in board inches.

    Parameters
    ----------
    layout : mapping
        One layout object (``pieces``: template or footprint, ``position`` = centroid,
        ``rotation_degrees``, ``mirror``, ``parent_area_id``).
    templates : list of template objects, or a mapping id -> template
    where : str
        How to name the layout in error messages.

    Returns
    -------
    tuple of ResolvedPiece
        In layout order; a template's own ``features`` follow the piece that uses it.

    Raises
    ------
    UserError
        For an unknown template or parent, a malformed piece, or a parent loop.
    """
    tindex = template_index(templates, "templates") if not _is_index(templates) else templates
    pieces = _list(layout.get("pieces", []), f"{where}.pieces")
    if len(pieces) > MAX_PIECES:
        raise _fail(f"{where}.pieces", f"{len(pieces):,} pieces; a layout has at most "
                    f"{MAX_PIECES:,}")
    objs = [_obj(p, f"{where}.pieces[{i}]") for i, p in enumerate(pieces)]
    _count_pieces(objs, tindex, where)
    by_id: dict[str, int] = {}
    for i, p in enumerate(objs):
        if isinstance(p.get("id"), str):
            by_id.setdefault(p["id"], i)
    transforms: dict[int, Affine] = {}
    depths: dict[int, int] = {}

    def transform(i: int, chain: tuple[int, ...]) -> Affine:
        if i in transforms:
            return transforms[i]
        pw = f"{where}.pieces[{i}]"
        t = _placement(objs[i], pw)
        parent = objs[i].get("parent_area_id")
        if parent is not None:
            if not isinstance(parent, str):
                raise _fail(f"{pw}.parent_area_id", "expected the id of a piece of this layout "
                            f"(a string), got {_kind(parent)}")
            if parent not in by_id:
                raise _fail(f"{pw}.parent_area_id", f"no piece of this layout has id "
                            f"{_kind(parent)}")
            j = by_id[parent]
            if j in chain or j == i:
                raise _fail(f"{pw}.parent_area_id", "pieces are each other's parents (a loop)")
            if len(chain) >= NEST:
                raise _fail(f"{pw}.parent_area_id", f"areas nest more than {NEST} deep")
            t = t.then(transform(j, (*chain, i)))
            depths[i] = depths[j] + 1
            if depths[i] > NEST:
                raise _fail(f"{pw}.parent_area_id", f"areas nest more than {NEST} deep")
        else:
            depths[i] = 0
        transforms[i] = t
        return t

    out: list[ResolvedPiece] = []
    for i, p in enumerate(objs):
        pw = f"{where}.pieces[{i}]"
        tpl = _template(tindex, p.get("template"), f"{pw}.template") if "template" in p else None
        if tpl is None and "footprint" not in p:
            raise _fail(pw, 'a piece needs a "template" or a "footprint"')
        t = transform(i, ())
        tw = _tw(tindex, tpl.get("id")) if tpl else ""
        pts = tuple(t.apply(v) for v in _geometry(p, tpl, pw, tw))
        ptype = p.get("piece_type", (tpl or {}).get("kind", "area"))
        if ptype not in ("area", "feature"):
            raise _fail(f"{pw}.piece_type", f'expected "area" or "feature", got {_kind(ptype)}')
        floor = p.get("floor", 0)
        if isinstance(floor, bool) or not isinstance(floor, int) or floor < 0:
            raise _fail(f"{pw}.floor", f"expected a whole number >= 0, got {_kind(floor)}")
        out.append(ResolvedPiece(
            id=p.get("id"), name=p.get("name"), piece_type=ptype, floor=floor, vertices=pts,
            piece_index=i, template=tpl.get("id") if tpl else None,
            category=(tpl or {}).get("terrain_category"), height=_height(p, tpl, pw, tw)))
        if tpl is not None and tpl.get("features") and "footprint" not in p:
            prefix = f"{p.get('id', f'piece-{i + 1}')}/"
            out.extend(_composed(tpl, t, tindex, i, prefix, 1))
    return tuple(out)


def _is_index(templates: Any) -> bool:
    return isinstance(templates, Mapping) and all(
        isinstance(v, Mapping) and v.get("id") == k for k, v in templates.items())


EDGES = ("left", "right", "top", "bottom")
FACES = ("min-x", "max-x", "min-y", "max-y")


def keystone_measurements(layout: Mapping[str, Any], templates: Any,
                          board: tuple[float, float] = BOARD, *,
                          where: str = "layout") -> list[dict[str, Any]]:
    """The distance of every keystone of a layout from its battlefield edge.

    ``left``/``right`` measure x against 0 / the board width, ``top``/``bottom`` y against 0 /
    the board depth; the reference is a vertex (resolver vertex order) or an axis-aligned
    bounding face of the placed footprint.
    """
    resolved = [r for r in resolve_layout(layout, templates, where=where) if not r.composed]
    width, depth = board
    out: list[dict[str, Any]] = []
    for r in resolved:
        piece = layout["pieces"][r.piece_index]
        pw = f"{where}.pieces[{r.piece_index}]"
        for k, ks in enumerate(_list(piece.get("keystones", []), f"{pw}.keystones")):
            kw = f"{pw}.keystones[{k}]"
            ks = _obj(ks, kw)
            edge = ks.get("edge")
            if edge not in EDGES:
                raise _fail(f"{kw}.edge", f"expected one of {', '.join(EDGES)}, got {_kind(edge)}")
            ref = _obj(ks.get("ref"), f"{kw}.ref")
            axis = 0 if edge in ("left", "right") else 1
            if ref.get("kind") == "vertex":
                idx = ref.get("index")
                if isinstance(idx, bool) or not isinstance(idx, int) \
                        or not 0 <= idx < len(r.vertices):
                    raise _fail(f"{kw}.ref.index", f"expected a vertex index 0..."
                                f"{len(r.vertices) - 1}, got {_kind(idx)}")
                coord = r.vertices[idx][axis]
            elif ref.get("kind") == "face":
                side = ref.get("side")
                if side not in FACES:
                    raise _fail(f"{kw}.ref.side", f"expected one of {', '.join(FACES)}, got "
                                f"{_kind(side)}")
                if (side.endswith("x")) != (axis == 0):
                    raise _fail(kw, f"face {side} cannot be measured from the {edge} edge")
                values = [v[axis] for v in r.vertices]
                coord = min(values) if side.startswith("min") else max(values)
            else:
                raise _fail(f"{kw}.ref.kind", f'expected "vertex" or "face", got '
                            f"{_kind(ref.get('kind'))}")
            dist = {"left": coord, "top": coord, "right": width - coord,
                    "bottom": depth - coord}[edge]
            out.append({"piece_index": r.piece_index, "piece_id": r.id, "edge": edge,
                        "ref": dict(ref), "distance": dist})
    return out


# -- files ---------------------------------------------------------------------------------------
def _read_items(path: str | Path, what: str, single_key: str, label: str
                ) -> list[dict[str, Any]]:
    """The tables with an ``id`` in a file holding a list of them, or just one (which has
    ``single_key``)."""
    data = read_json(path, what)
    items = [data] if isinstance(data, dict) and single_key in data else data
    out = []
    for i, item in enumerate(_list(items, f"{path}")):
        where = f"{path}: {label} [{i}]"
        obj = _obj(item, where)
        _id(obj, where)
        out.append(obj)
    return out


def read_layouts(path: str | Path) -> list[dict[str, Any]]:
    """The layouts of a ``terrain-layouts.json`` file (a list of layouts, or one layout)."""
    layouts = _read_items(path, "terrain layouts (terrain-layouts.json)", "pieces", "layout")
    for i, layout in enumerate(layouts):
        _list(layout.get("pieces", []), f"{path}: layout [{i}].pieces")
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
    s = _obj(shape, where)
    if s.get("type") == "rectangle":
        w = _num(s, "width", where, positive=True)
        h = _num(s, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if s.get("type") == "polygon":
        return _points(s.get("points"), f"{where}.points")
    raise _fail(f"{where}.type", f'unknown zone shape {_kind(s.get("type"))}; accepted: '
                '"rectangle" (width, height), "polygon" (points)')


def deployment_zones(pattern: Mapping[str, Any], *,
                     where: str = "deployment") -> dict[str, tuple[Point, ...]]:
    """Absolute deployment-zone polygons by player id (``red`` = attacker, ``blue`` = defender)."""
    zones: dict[str, tuple[Point, ...]] = {}
    for i, zone in enumerate(_list(pattern.get("zones"), f"{where}.zones")):
        zw = f"{where}.zones[{i}]"
        z = _obj(zone, zw)
        side = z.get("player")
        if not isinstance(side, str) or side not in SIDE_TO_PLAYER:
            raise _fail(f"{zw}.player", f'expected "attacker" or "defender", got {_kind(side)}')
        ox, oy = _vec(z.get("position"), f"{zw}.position")
        pts = tuple((_round(x + ox), _round(y + oy))
                    for x, y in _shape_points(z.get("shape"), f"{zw}.shape"))
        _writable(pts, f"{zw}.position")
        pid = SIDE_TO_PLAYER[side]
        if pid in zones:
            raise _fail(zw, f"a second zone for the {side}")
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            raise _fail(f"{zw}.shape", "the zone polygon crosses itself or has no area")
        zones[pid] = pts
    return zones


def deployment_objectives(pattern: Mapping[str, Any], *,
                          where: str = "deployment") -> tuple[Point, ...]:
    """The objective points of a deployment map (at most :data:`MAX_OBJECTIVES`)."""
    items = _list(pattern.get("objectives", []), f"{where}.objectives")
    if len(items) > MAX_OBJECTIVES:
        raise _fail(f"{where}.objectives", f"{len(items):,} objectives; a map has at most "
                    f"{MAX_OBJECTIVES}")
    return tuple(_vec(p, f"{where}.objectives[{i}]") for i, p in enumerate(items))


def _writable(points: Sequence[Point], where: str) -> None:
    """Refuse a placed polygon with a coordinate the scenario format cannot hold (over
    1,000,000 in size: a piece placed far off the battlefield)."""
    for x, y in points:
        if abs(x) > MAX_NUMBER or abs(y) > MAX_NUMBER:
            raise _fail(where, f"placed at ({x:,.3f}, {y:,.3f}), a coordinate of more than "
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
            raise _fail(f"{where}.pieces[{r.piece_index}]",
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

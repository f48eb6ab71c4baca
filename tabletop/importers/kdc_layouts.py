"""Placing the pieces of a 40kdc layout on the board (:func:`resolve_layout`): templates,
footprints, mirrors and rotations about the centroid, features nested in their templates
and pieces in their parent areas, counted before any is placed (:data:`MAX_PIECES`); and
the keystone measurements the published conformance cases check
(:func:`keystone_measurements`). The conventions are in :mod:`tabletop.importers.kdc`'s
docstring.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.errors import idents, quote
from tabletop.importers.kdc_json import (
    as_array,
    as_object,
    fail,
    kind_of,
    num,
    points,
    read_id,
    vec,
)
from tabletop.state import Point

__all__ = [
    "BOARD",
    "EDGES",
    "FACES",
    "FOOTPRINT_TYPES",
    "MAX_PIECES",
    "MIRRORS",
    "NEST",
    "Affine",
    "ResolvedPiece",
    "Templates",
    "centred",
    "centroid",
    "footprint_points",
    "keystone_measurements",
    "resolve_layout",
    "template_index",
]

BOARD = (60.0, 44.0)

MIRRORS = ("none", "horizontal", "vertical")

FOOTPRINT_TYPES = ('"rectangle" (width, height)', '"polygon" (points)',
                   '"right-triangle" (width, height)')

MAX_PIECES = 1_000
"""Most pieces of one layout, counting the features its templates add (the published: 68)."""


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
    fp = as_object(footprint, where)
    kind = fp.get("type")
    if kind == "rectangle":
        w = num(fp, "width", where, positive=True)
        h = num(fp, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if kind == "right-triangle":
        w = num(fp, "width", where, positive=True)
        h = num(fp, "height", where, positive=True)
        return [(0.0, 0.0), (w, 0.0), (0.0, h)]
    if kind == "polygon":
        return points(fp.get("points"), f"{where}.points")
    raise fail(f"{where}.type", f"unknown footprint type {kind_of(kind)}; accepted: "
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
        raise fail(where, "the footprint has no area (its points are on one line)")
    return (cx / (3.0 * a2), cy / (3.0 * a2))


def centred(points: Sequence[Point], where: str) -> list[Point]:
    """``points`` moved so that their area centroid is the origin."""
    cx, cy = centroid(points, where)
    return [(x - cx, y - cy) for x, y in points]


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
        items = as_array(templates, where)
    out = Templates()
    out.source = source
    for i, t in enumerate(items):
        tw = f"{where}[{i}]"
        obj = as_object(t, tw)
        out[read_id(obj, tw)] = obj
    return out


def _tw(templates: Mapping[str, Any], tid: Any) -> str:
    """How a message names template ``tid``: with its file when known."""
    source = getattr(templates, "source", "")
    return f"{source}: template {tid}" if source else f"template {tid}"


def _template(templates: Mapping[str, dict[str, Any]], tid: Any, where: str) -> dict[str, Any]:
    if not isinstance(tid, str) or tid not in templates:
        known = idents(sorted(templates), shown=20) or "none"
        raise fail(where, f"unknown template {kind_of(tid)}; the templates file has: {known}")
    return templates[tid]


def _placement(obj: Mapping[str, Any], where: str) -> Affine:
    pos = vec(obj.get("position"), f"{where}.position")
    rot = num(obj, "rotation_degrees", where, 0.0)
    mirror = obj.get("mirror", "none")
    if mirror not in MIRRORS:
        raise fail(f"{where}.mirror",
                   f"expected one of {', '.join(MIRRORS)}, got {kind_of(mirror)}")
    return Affine.placement(pos, rot, mirror)


def _geometry(obj: Mapping[str, Any], template: Mapping[str, Any] | None,
              where: str, tw: str) -> list[Point]:
    """The centred footprint of a piece: its own, else its template's (``tw`` names it)."""
    if "footprint" in obj:
        return centred(footprint_points(obj["footprint"], f"{where}.footprint"), where)
    if template is None:
        raise fail(where, 'a piece needs a "template" or a "footprint"')
    return centred(footprint_points(template.get("footprint"), f"{tw}.footprint"), tw)


def _height(obj: Mapping[str, Any], template: Mapping[str, Any] | None, where: str,
            tw: str) -> float | None:
    if "height_inches" in obj:
        return num(obj, "height_inches", where, nonnegative=True)
    if template is not None and "default_height_inches" in template:
        return num(template, "default_height_inches", tw, nonnegative=True)
    return None


def _composed(template: Mapping[str, Any], outer: Affine, templates: Mapping[str, dict[str, Any]],
              index: int, prefix: str, depth: int) -> list[ResolvedPiece]:
    here = _tw(templates, template.get("id"))
    if depth > NEST:  # (counted first: _count_pieces)
        raise fail(here, f"features nest more than {NEST} deep")
    out: list[ResolvedPiece] = []
    for j, feat in enumerate(as_array(template.get("features", []), f"{here}.features")):
        fw = f"{here}.features[{j}]"
        f = as_object(feat, fw)
        sub = _template(templates, f.get("template"), f"{fw}.template") if "template" in f \
            else None
        if sub is None and "footprint" not in f:
            raise fail(fw, 'a feature needs a "template" or a "footprint"')
        t = _placement(f, fw).then(outer)
        sw = _tw(templates, sub.get("id")) if sub else ""
        pts = tuple(t.apply(p) for p in _geometry(f, sub, fw, sw))
        fid = f.get("id") if isinstance(f.get("id"), str) else f"{prefix}feature-{j + 1}"
        out.append(ResolvedPiece(
            id=fid, name=f.get("name", sub.get("name") if sub else None),
            piece_type=str(f.get("piece_type", (sub or {}).get("kind", "feature"))),
            floor=int(num(f, "floor", fw, 0.0)), vertices=pts, piece_index=index,
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
        raise fail(_tw(templates, tid), "lists itself among its features (through "
                    + " -> ".join(chain[chain.index(tid):]) + ")")
    if len(chain) >= NEST:
        raise fail(_tw(templates, tid), f"features nest more than {NEST} deep")
    here = _tw(templates, tid)
    n = 0
    for j, feat in enumerate(as_array(template.get("features", []), f"{here}.features")):
        f = as_object(feat, f"{here}.features[{j}]")
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
                raise fail(f"{where}.pieces[{i}].template",
                            f"template {quote(tid)}"
                            + (f" of {source}" if (source := getattr(templates, "source", ""))
                               else "")
                            + f" adds more than {MAX_PIECES:,} features with "
                            f"its templates' own features; a layout has at most "
                            f"{MAX_PIECES:,} pieces in all")
        if total > MAX_PIECES:
            raise fail(f"{where}.pieces", f"more than {MAX_PIECES:,} pieces with the features "
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
    pieces = as_array(layout.get("pieces", []), f"{where}.pieces")
    if len(pieces) > MAX_PIECES:
        raise fail(f"{where}.pieces", f"{len(pieces):,} pieces; a layout has at most "
                    f"{MAX_PIECES:,}")
    objs = [as_object(p, f"{where}.pieces[{i}]") for i, p in enumerate(pieces)]
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
                raise fail(f"{pw}.parent_area_id", "expected the id of a piece of this layout "
                            f"(a string), got {kind_of(parent)}")
            if parent not in by_id:
                raise fail(f"{pw}.parent_area_id", f"no piece of this layout has id "
                            f"{kind_of(parent)}")
            j = by_id[parent]
            if j in chain or j == i:
                raise fail(f"{pw}.parent_area_id", "pieces are each other's parents (a loop)")
            if len(chain) >= NEST:
                raise fail(f"{pw}.parent_area_id", f"areas nest more than {NEST} deep")
            t = t.then(transform(j, (*chain, i)))
            depths[i] = depths[j] + 1
            if depths[i] > NEST:
                raise fail(f"{pw}.parent_area_id", f"areas nest more than {NEST} deep")
        else:
            depths[i] = 0
        transforms[i] = t
        return t

    out: list[ResolvedPiece] = []
    for i, p in enumerate(objs):
        pw = f"{where}.pieces[{i}]"
        tpl = _template(tindex, p.get("template"), f"{pw}.template") if "template" in p else None
        if tpl is None and "footprint" not in p:
            raise fail(pw, 'a piece needs a "template" or a "footprint"')
        t = transform(i, ())
        tw = _tw(tindex, tpl.get("id")) if tpl else ""
        pts = tuple(t.apply(v) for v in _geometry(p, tpl, pw, tw))
        ptype = p.get("piece_type", (tpl or {}).get("kind", "area"))
        if ptype not in ("area", "feature"):
            raise fail(f"{pw}.piece_type", f'expected "area" or "feature", got {kind_of(ptype)}')
        floor = p.get("floor", 0)
        if isinstance(floor, bool) or not isinstance(floor, int) or floor < 0:
            raise fail(f"{pw}.floor", f"expected a whole number >= 0, got {kind_of(floor)}")
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
        for k, ks in enumerate(as_array(piece.get("keystones", []), f"{pw}.keystones")):
            kw = f"{pw}.keystones[{k}]"
            ks = as_object(ks, kw)
            edge = ks.get("edge")
            if edge not in EDGES:
                raise fail(f"{kw}.edge", f"expected one of {', '.join(EDGES)}, got {kind_of(edge)}")
            ref = as_object(ks.get("ref"), f"{kw}.ref")
            axis = 0 if edge in ("left", "right") else 1
            if ref.get("kind") == "vertex":
                idx = ref.get("index")
                if isinstance(idx, bool) or not isinstance(idx, int) \
                        or not 0 <= idx < len(r.vertices):
                    raise fail(f"{kw}.ref.index", f"expected a vertex index 0..."
                                f"{len(r.vertices) - 1}, got {kind_of(idx)}")
                coord = r.vertices[idx][axis]
            elif ref.get("kind") == "face":
                side = ref.get("side")
                if side not in FACES:
                    raise fail(f"{kw}.ref.side", f"expected one of {', '.join(FACES)}, got "
                                f"{kind_of(side)}")
                if (side.endswith("x")) != (axis == 0):
                    raise fail(kw, f"face {side} cannot be measured from the {edge} edge")
                values = [v[axis] for v in r.vertices]
                coord = min(values) if side.startswith("min") else max(values)
            else:
                raise fail(f"{kw}.ref.kind", f'expected "vertex" or "face", got '
                            f"{kind_of(ref.get('kind'))}")
            dist = {"left": coord, "top": coord, "right": width - coord,
                    "bottom": depth - coord}[edge]
            out.append({"piece_index": r.piece_index, "piece_id": r.id, "edge": edge,
                        "ref": dict(ref), "distance": dist})
    return out

"""Bases and hulls of the current community unit data (``wh40kdc``), and the catalogue of them.

Each unit of the data has a base (``base_size_mm``) and each row of its composition (one kind of
model) may have its own: the model's row wins (41 rows of ``wh40kdc`` 1.4.5 differ from their
unit's). A base becomes a base of the scenario format:

- ``round`` with a ``diameter`` -> ``"32mm"``;
- ``oval`` -> ``"oval 170x109mm"`` (the long axis along the model's facing; the data's ``width``
  is the long axis, but the larger of the two is taken whichever it is);
- ``flying-base`` with sizes -> the oval of those sizes; the data marks them ``draft`` (GW's
  guide gives flying bases without sizes), so a warning says so;
- a traced hull (a composition row's ``hull_shape_id``, or the hull shape whose id is the
  unit's id when the unit's own base is a draft: the Falcon in 1.4.5) -> ``"hull"`` with its
  polygon, re-centred on its area centroid, reduced to at most 64 points by
  :func:`outer_points` (never smaller than the traced outline);
- a ``hull`` or ``unique`` marked draft with no size -> the stand-in hull :data:`STAND_IN_HULL`
  (a Rhino's), named in a warning;
- a flying base without sizes, or no base at all -> a **stated fallback**, :data:`FALLBACKS` by
  the unit's keywords, named in a warning.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import shapely
from shapely.geometry import Polygon

from tabletop.geometry.footprints import Footprint, parse_base
from tabletop.importers import dataset
from tabletop.scenario.io import shipped

__all__ = [
    "FALLBACKS",
    "HULL_POINTS",
    "MOVEMENT",
    "STAND_IN_HULL",
    "STAND_IN_NAME",
    "Base",
    "base_catalogue",
    "base_of",
    "model_rows",
    "norm_name",
    "outer_points",
    "row_base",
    "row_for",
    "unit_record",
]

HULL_POINTS = 64
"""Most points of a hull in a scenario file."""

STAND_IN_HULL = ("reserves-and-transport.toml", "rh1")
"""The hull that stands in for a vehicle whose hull the data does not have yet: the Rhino of
the shipped scenario (about 4.5" x 7")."""

FALLBACKS: tuple[tuple[str, str], ...] = (
    ("TITANIC", "oval 170x109mm"),
    ("VEHICLE", "hull"),
    ("MONSTER", "60mm"),
    ("MOUNTED", "oval 75x42mm"),
    ("", "32mm"),
)
"""The stated fallback of a model whose data has no base or a flying base without a size, by
the first of the unit's keywords found (``"hull"``: :data:`STAND_IN_HULL`; ``""``: any other
unit); a hull or ``unique`` draft without a size takes the TITANIC fallback for a TITANIC
unit, else the stand-in hull. 170x109 mm is the commonest sized base of the data's TITANIC
units (31 of 38 in 1.4.5: the Knights' oval), 60 mm that of its MONSTER units, 75x42 mm a
bike's oval, 32 mm an infantryman's."""
STAND_IN_NAME = "Rhino hull (stand-in)"


@dataclass(frozen=True)
class Base:
    """A model's base as the scenario format writes it, and what was done to get it."""

    spec: str
    """``"32mm"``, ``"oval 170x109mm"`` or ``"hull"``."""
    hull: tuple[tuple[float, float], ...] | None = None
    """The hull polygon (inches, about the model's centre, facing 0) when ``spec`` is
    ``"hull"``."""
    source: str = "data"
    """``"data"``, ``"draft"`` (a size the data marks draft), ``"traced"`` (a traced hull) or
    ``"fallback"``."""
    note: str | None = None
    """Why a draft size or a fallback was used (for the warning)."""

    @property
    def footprint(self) -> Footprint:
        """The footprint of this base."""
        return parse_base(self.spec, self.hull)

    @property
    def key(self) -> str:
        """One name per distinct base: the spec (``"32mm"``), ``"Falcon hull"`` for a traced
        hull, :data:`STAND_IN_NAME` for the stand-in hull."""
        if self.hull is None:
            return self.spec
        if self.source == "traced" and self.note:
            name = dataset.by_id("hull_shapes").get(self.note, {}).get("name", self.note)
            return f"{name} hull"
        return STAND_IN_NAME


def _num(v: Any) -> str:
    return f"{float(v):g}"


def outer_points(points: Sequence[tuple[float, float]], most: int = HULL_POINTS
                 ) -> list[tuple[float, float]]:
    """``points`` (a simple polygon) with at most ``most`` vertices, never smaller: a reflex
    vertex is dropped (its neighbours joined straight, which adds the triangle outside it) while
    there are more than ``most``, the one adding the least area first; then, if the outline is
    convex and still too long, the shortest edge is dropped by extending its two neighbours to
    where they meet. Every step keeps the polygon simple and contains the one before."""
    pts: list[tuple[float, float]] = [(float(x), float(y)) for x, y in points]
    poly = Polygon(pts)
    if not poly.exterior.is_ccw:
        pts = pts[::-1]

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    while len(pts) > most:
        n = len(pts)
        best: tuple[float, int] | None = None
        for i in range(n):
            turn = cross(pts[i - 1], pts[i], pts[(i + 1) % n])
            if turn < 0:  # reflex in a counter-clockwise outline: dropping it adds -turn / 2
                if best is None or -turn < best[0]:
                    trial = pts[:i] + pts[i + 1:]
                    if Polygon(trial).is_valid:
                        best = (-turn, i)
        if best is not None:
            del pts[best[1]]
            continue
        hull = [(float(x), float(y)) for x, y in Polygon(pts).convex_hull.exterior.coords][:-1]
        if len(hull) < len(pts):
            pts = hull
            continue
        lengths = [math.dist(pts[i], pts[(i + 1) % n]) for i in range(n)]
        for i in sorted(range(n), key=lengths.__getitem__):
            meet = _meet(pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n])
            if meet is not None:
                pts = [*pts[:i], meet, *pts[i + 2:]] if i + 1 < n else [meet, *pts[1:i]]
                break
        else:
            break
    return pts


def _meet(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float],
          d: tuple[float, float]) -> tuple[float, float] | None:
    """Where the line a->b, carried on past b, meets the line d->c carried on past c."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (c[0] - d[0], c[1] - d[1])
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-12:
        return None
    t = ((d[0] - a[0]) * s[1] - (d[1] - a[1]) * s[0]) / den
    u = ((d[0] - a[0]) * r[1] - (d[1] - a[1]) * r[0]) / den
    if t < 1.0 or u < 1.0:
        return None
    return (a[0] + t * r[0], a[1] + t * r[1])


@cache
def _traced(hull_id: str) -> tuple[tuple[float, float], ...] | None:
    record = dataset.by_id("hull_shapes").get(hull_id)
    if record is None:
        return None
    pts = [(float(p["x"]), float(p["y"])) for p in record["points"]]
    poly = shapely.remove_repeated_points(Polygon(pts))
    c = poly.centroid
    centred = [(x - c.x, y - c.y) for x, y in list(poly.exterior.coords)[:-1]]
    return tuple((round(x, 6), round(y, 6)) for x, y in outer_points(centred))


@cache
def _stand_in() -> tuple[tuple[float, float], ...]:
    name, model_id = STAND_IN_HULL
    doc = tomllib.loads(shipped(name).read_text(encoding="utf-8"))
    for unit in doc.get("units", []):
        for m in unit.get("models", []):
            if m.get("id") == model_id:
                return tuple((float(x), float(y)) for x, y in m["hull"])
    raise LookupError(f"{name} has no model {model_id}")


def _fallback(keywords: Sequence[str], why: str, *, hull: bool = False) -> Base:
    upper = {k.upper() for k in keywords}
    for keyword, spec in FALLBACKS:
        if not keyword or keyword in upper or (hull and spec == "hull"):
            if spec == "hull":
                return Base("hull", _stand_in(), "fallback",
                            f"{why}; the shipped Rhino's hull stands in")
            what = f"the {keyword} fallback base {spec}" if keyword else f"the base {spec}"
            return Base(spec, None, "fallback", f"{why}; {what} stands in")
    raise AssertionError("FALLBACKS ends with a catch-all")


def base_of(size: Mapping[str, Any] | None, *, keywords: Sequence[str] = (),
            hull_id: str | None = None, unit_id: str | None = None) -> Base:
    """The base of a model whose data base is ``size`` (``base_size_mm``), with its row's
    ``hull_shape_id`` and its unit's id and keywords (see the module docstring)."""
    if hull_id is not None and (traced := _traced(hull_id)) is not None:
        return Base("hull", traced, "traced", hull_id)
    shape = (size or {}).get("shape")
    if shape == "round" and size and size.get("diameter"):
        return Base(f"{_num(size['diameter'])}mm")
    if shape in ("oval", "flying-base") and size and size.get("width") and size.get("length"):
        long_, short = sorted((float(size["width"]), float(size["length"])), reverse=True)
        spec = f"oval {long_:g}x{short:g}mm"
        if size.get("draft"):
            if unit_id is not None and (traced := _traced(unit_id)) is not None:
                return Base("hull", traced, "traced", unit_id)
            return Base(spec, None, "draft", f"the data's {shape} size {long_:g}x{short:g} mm "
                        "is marked draft")
        return Base(spec)
    if unit_id is not None and (traced := _traced(unit_id)) is not None:
        return Base("hull", traced, "traced", unit_id)
    if not size:
        return _fallback(keywords, "the data gives no base")
    what = f"{shape}{' (' + str(size['size']) + ')' if size.get('size') else ''}"
    return _fallback(keywords, f"the data's base is a {what} without a size",
                     hull=shape in ("hull", "unique"))


# -- units and their models ---------------------------------------------------------------------
def norm_name(text: str) -> str:
    """A name for matching: lower case, words only, a plural ``s`` dropped.

    >>> norm_name("Outrider Sergeants") == norm_name("outrider sergeant")
    True
    """
    s = re.sub(r"[^a-z0-9]+", " ", text.lower().replace("’", "'"))
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in s.split())


def _compositions() -> dict[tuple[str, str], dict[str, Any]]:
    return dataset.by_faction("unit_compositions", "unit_id")


def _units() -> dict[tuple[str, str], dict[str, Any]]:
    return dataset.by_faction("units", "id")


def _faction_chain(faction_id: str | None) -> list[str]:
    chain: list[str] = []
    factions = dataset.by_id("factions")
    while faction_id and faction_id not in chain:
        chain.append(faction_id)
        faction_id = factions.get(faction_id, {}).get("parent_faction_id")
    return chain


def unit_record(unit_id: str, faction_id: str | None = None) -> dict[str, Any] | None:
    """The data's record of unit ``unit_id``: the copy of ``faction_id`` or of a faction it
    belongs to (a chapter's parent), else the first copy."""
    units = _units()
    for f in _faction_chain(faction_id):
        if (f, unit_id) in units:
            return units[f, unit_id]
    return next((u for (_, uid), u in units.items() if uid == unit_id), None)


def model_rows(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The composition rows of a unit record (``name``, ``min``, ``max``, ``base_size_mm``,
    ``profile_name``, ``hull_shape_id``), or one row made of the unit itself when the data has
    no composition."""
    comp = _compositions().get((str(record["faction_id"]), str(record["id"])))
    rows = [dict(r) for r in (comp or {}).get("models") or []]
    if rows:
        return rows
    count = record.get("model_count") or {}
    return [{"name": record.get("name", record["id"]), "min": int(count.get("min", 1)),
             "max": int(count.get("max", count.get("min", 1)))}]


def row_for(rows: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any] | None:
    """The composition row called ``name`` (case, punctuation and plural ``s`` aside)."""
    want = norm_name(name)
    for r in rows:
        if want in (norm_name(str(r.get("name", ""))), norm_name(str(r.get("profile_name") or ""))):
            return r
    return None


def row_base(record: Mapping[str, Any], row: Mapping[str, Any] | None) -> Base:
    """The base of a model of ``record`` made from composition ``row`` (``None``: the unit's)."""
    size = (row or {}).get("base_size_mm") or record.get("base_size_mm")
    return base_of(size, keywords=record.get("keywords") or (),
                   hull_id=(row or {}).get("hull_shape_id"), unit_id=str(record["id"]))


# -- the catalogue ------------------------------------------------------------------------------
def base_catalogue() -> list[dict[str, Any]]:
    """Every distinct base of the data's units, with the number of units that have it, most
    used first: ``name`` (the spec, or the hull's name), ``spec`` (the scenario base),
    ``hull`` (its polygon, for a hull), ``units``, ``sources`` (how many of those units got it
    from a size of the data, a ``draft`` size, a ``traced`` hull or a ``fallback``) and
    ``keyword_sets`` (a ``Counter`` of the units' :data:`MOVEMENT` keywords, upper case, in
    the data's order). A unit counts once per distinct
    base among its models; a unit whose data has no base takes its stated fallback, counted
    as such."""
    counts: Counter[str] = Counter()
    info: dict[str, Base] = {}
    sources: dict[str, Counter[str]] = {}
    kws: dict[str, Counter[tuple[str, ...]]] = {}
    for u in dataset.raw()["units"]:
        seen: set[str] = set()
        for row in model_rows(u):
            b = row_base(u, row)
            key = b.key
            if key in seen:
                continue
            seen.add(key)
            counts[key] += 1
            info.setdefault(key, b)
            sources.setdefault(key, Counter())[b.source] += 1
            kws.setdefault(key, Counter())[tuple(
                k.upper() for k in u.get("keywords") or [] if k.upper() in MOVEMENT)] += 1
    out = []
    for key in sorted(counts, key=lambda k: (-counts[k], k)):
        b = info[key]
        out.append({"name": key, "spec": b.spec, "hull": [list(p) for p in b.hull] if b.hull
                    else None, "units": counts[key], "sources": dict(sources[key]),
                    "keyword_sets": kws[key]})
    return out


MOVEMENT = ("INFANTRY", "BEASTS", "SWARM", "MOBILE", "MOUNTED", "VEHICLE", "MONSTER", "FLY",
             "WALKER", "TITANIC", "AIRCRAFT")
"""The keywords that say how a unit moves, kept in the catalogue's keyword sets."""

"""Armies from the 40kdc units file, deployed on an imported battlefield.

The units file (``units_11e_provisional_all.csv``, one row per profile) gives for each unit its
profiles (M, W, Ld, OC, base shape and size in mm), the model count range and its movement
keywords. :func:`read_units` reads it; :func:`parse_army` reads an army list such as
``"Intercessors x10, Redemptor Dreadnought"``; :func:`deploy` places the units wholly inside their
player's deployment zone, in coherency, off terrain features and apart from each other.

Mapping of a row to the scenario:

- ``M``, ``W``, ``Ld``, ``OC`` come from the unit's rank-and-file profile (the one with the fewest
  wounds, the last such in the file); a model whose own profile has another M carries it as its
  ``M`` override.
- A unit of several profiles gives one model to each other profile (the sergeant, champion or
  Runtherd, in the published order) and the rest of its models the rank-and-file profile.
- Bases: ``round`` with ``base_diameter_mm`` -> ``"<d>mm"``; ``oval`` (and a ``flying-base`` with
  sizes) -> ``"oval <long>x<short>mm"`` (the long axis along the model's facing). ``hull``,
  ``unique``, a flying base without sizes or no base at all are refused: there is no size.
- Keywords: the ``movement_keywords`` upper-cased (``Infantry;Battleline`` ->
  ``["INFANTRY", "BATTLELINE"]``).
- Model count: ``x10`` in the list (it must lie within the unit's min..max), else the minimum.

Names match case-insensitively on the unit name or id, then loosely (plural ``s`` and the word
"squad" ignored: ``Intercessors`` finds ``Intercessor Squad``); prefix ``faction-id/`` to choose
between factions that share a name (the first in the file is used otherwise).
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from tabletop.errors import UserError, quote
from tabletop.files import decode_utf8, read_regular
from tabletop.geometry.footprints import parse_base
from tabletop.importers.deployment import grid_points, inner_radius
from tabletop.importers.kdc import verify_state
from tabletop.importers.kdc_json import MAX_FILE_BYTES
from tabletop.scenario.bounds import MAX_MODELS
from tabletop.scenario.schema import MAX_BASE_MM, MAX_NUMBER
from tabletop.state import GameState, Model, Player, Unit

__all__ = [
    "ArmyEntry",
    "Catalogue",
    "Profile",
    "UnitEntry",
    "deploy",
    "new_battle",
    "parse_army",
    "read_units",
]

REQUIRED_COLUMNS = ("unit_id", "unit_name", "faction_id", "profile_idx", "profile_name", "M", "W",
                    "Ld", "OC", "base_shape", "base_diameter_mm", "base_width_mm",
                    "base_length_mm", "model_min", "model_max", "movement_keywords")
GENERIC_WORDS = frozenset({"squad", "unit", "the"})
MARGIN = 0.05
"""Inches kept between bases, and from terrain and zone edges, when deploying."""
UNIT_GAP = 1.0
"""Inches kept between models of different units when deploying."""
GRID = 0.25
"""Spacing of the candidate positions, inches."""
COHERENCY = 2.0
SPREAD = 9.0
FEATURE_KINDS = ("light", "dense", "impassable")


@dataclass(frozen=True)
class Profile:
    """One model profile of a unit."""

    name: str
    M: float
    W: int
    Ld: int
    OC: int
    base: str | None
    """Base string of scenario format 1, ``None`` when the file gives no size."""
    base_shape: str


@dataclass(frozen=True)
class UnitEntry:
    """A unit of the units file."""

    unit_id: str
    name: str
    faction: str
    profiles: tuple[Profile, ...]
    model_min: int
    model_max: int
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class ArmyEntry:
    """One item of an army list: a unit name and a model count (``None``: the minimum)."""

    name: str
    count: int | None


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _loose(text: str) -> str:
    words = []
    for w in _norm(text).split():
        if w in GENERIC_WORDS:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        words.append(w)
    return " ".join(words)


@dataclass(frozen=True)
class Catalogue:
    """The units of a units file, searchable by name."""

    path: Path
    units: tuple[UnitEntry, ...]

    def find(self, name: str) -> UnitEntry:
        """The unit called ``name``; a :class:`UserError` with close names otherwise."""
        faction = None
        query = name.strip()
        if "/" in query:
            faction, query = (s.strip() for s in query.split("/", 1))
        pool = [u for u in self.units if faction is None or u.faction == faction]
        if faction is not None and not pool:
            factions = sorted({u.faction for u in self.units})
            raise UserError(f"{self.path}: no faction {quote(str(faction))}; the file has: "
                            + ", ".join(factions))
        exact = _norm(query)
        for u in pool:
            if exact in (_norm(u.name), _norm(u.unit_id)):
                return u
        loose = _loose(query)
        for u in pool:
            if loose and loose in (_loose(u.name), _loose(u.unit_id)):
                return u
        names = sorted({u.name for u in pool})
        close = difflib.get_close_matches(query, names, n=5, cutoff=0.6)
        close += [n for n in names if loose and loose in _loose(n) and n not in close][:5]
        hint = f"; did you mean: {', '.join(close[:6])}?" if close else \
            "; check the spelling (names are those of the unit_name column)"
        raise UserError(f"{self.path}: no unit {quote(str(name.strip()))}{hint}")


MIN_BASE_MM = 0.001
"""The smallest base size read from the units file, in mm."""


def _size(row: dict[str, str], key: str, where: str) -> float | None:
    """A base size of a row in mm (``None`` when the cell is empty): above 0 and at most
    :data:`~tabletop.scenario.schema.MAX_BASE_MM`."""
    text = row[key].strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value <= MAX_BASE_MM):
        raise UserError(f"{where}: column {key}: expected a base size in mm above 0 and at most "
                        f"{MAX_BASE_MM:,.0f}, got {quote(text)}")
    if value < MIN_BASE_MM:  # (1e-320 was written "9.99989e-321mm", which no base parser reads)
        raise UserError(f"{where}: column {key}: a base of {quote(text)} mm is too small; the "
                        f"smallest is {MIN_BASE_MM:g} mm")
    return value


def _base_of(row: dict[str, str], where: str) -> str | None:
    shape = row["base_shape"].strip().lower()
    d, w, ln = (_size(row, k, where)
                for k in ("base_diameter_mm", "base_width_mm", "base_length_mm"))
    if shape in ("round", "flying-base") and d:
        return f"{d:g}mm"
    if shape in ("oval", "flying-base") and w and ln:
        return f"oval {max(w, ln):g}x{min(w, ln):g}mm"
    return None


def _int(row: dict[str, str], key: str, where: str, low: int = -int(MAX_NUMBER),
         high: int = int(MAX_NUMBER)) -> int:
    """A whole number of a row (a decimal is cut to its whole part), from ``low`` to
    ``high``."""
    text = row[key]
    try:
        value = int(float(text))
    except (ValueError, OverflowError):  # not a number, nan, inf, 1e400
        raise UserError(f"{where}: column {key} must be a number, got {quote(str(text))}"
                        ) from None
    if not low <= value <= high:
        raise UserError(f"{where}: column {key}: expected a number from {low:,} to {high:,}, "
                        f"got {quote(str(text))}")
    return value


def read_units(path: str | Path) -> Catalogue:
    """Read a 40kdc units CSV (one row per profile) into a :class:`Catalogue`.

    The file is read with the bounds of the 40kdc JSON files (a regular file of at most
    :data:`~tabletop.importers.kdc_json.MAX_FILE_BYTES`, UTF-8); every row must have the header's
    columns, every number the range the scenario format accepts (M 0 to 1,000,000, W at least
    1, OC at least 0, base sizes above 0 and at most 10,000 mm, at most
    :data:`~tabletop.scenario.bounds.MAX_MODELS` models a unit); a problem is one line naming the
    file, its line and the column.
    """
    p = Path(path)
    try:
        data = read_regular(p, MAX_FILE_BYTES, what="the 40kdc units CSV")
    except FileNotFoundError:
        raise UserError(f"{p}: no such file (expected the 40kdc units CSV)") from None
    except OSError as exc:
        raise UserError(f"{p}: cannot read it ({exc.strerror or exc})") from None
    text = decode_utf8(data, str(p))
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    line = 1  # where the row being read starts
    try:
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise UserError(f"{p}: not a 40kdc units file: missing column(s) "
                            f"{', '.join(missing)} (expected the columns of "
                            "units_11e_provisional_all.csv)")
        groups: dict[tuple[str, str], list[tuple[int, dict[str, str]]]] = {}
        order: list[tuple[str, str]] = []
        line = reader.line_num + 1
        for row in reader:
            if None in row or None in row.values():
                raise UserError(f"{p}:{line}: {len(row) - (None in row) + len(row.get(None) or [])}"
                                f" fields, the header has {len(header)} (a quote not closed, "
                                "or a comma too many?)")
            key = (row["faction_id"], row["unit_id"])
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append((line, row))
            line = reader.line_num + 1
    except csv.Error as exc:
        why = "a quote opened here is never closed" if "end of data" in str(exc) else str(exc)
        raise UserError(f"{p}:{line}: not a CSV row: {why}") from None
    units = []
    for key in order:
        rows = groups[key]
        seen: set[str] = set()
        profiles = []
        for line, row in rows:
            where = f"{p}:{line}"
            if row["profile_idx"] in seen:  # the file repeats some profiles verbatim
                continue
            seen.add(row["profile_idx"])
            profiles.append(Profile(
                name=row["profile_name"], M=float(_int(row, "M", where, 0)),
                W=_int(row, "W", where, 1), Ld=_int(row, "Ld", where),
                OC=_int(row, "OC", where, 0), base=_base_of(row, where),
                base_shape=row["base_shape"].strip() or "none"))
        first_line, first = rows[0]
        where = f"{p}:{first_line}"
        keywords = tuple(dict.fromkeys(k.strip().upper() for k in
                                       first["movement_keywords"].split(";") if k.strip()))
        low = _int(first, "model_min", where, 1, MAX_MODELS)
        units.append(UnitEntry(
            unit_id=first["unit_id"], name=first["unit_name"], faction=first["faction_id"],
            profiles=tuple(profiles), model_min=low,
            model_max=_int(first, "model_max", where, low, MAX_MODELS), keywords=keywords))
    return Catalogue(p, tuple(units))


_COUNT_AFTER = re.compile(r"^(?P<name>.*?)\s*[x×]\s*(?P<n>\d+)\s*$", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"^(?P<n>\d+)\s*[x×]?\s+(?P<name>.+)$", re.IGNORECASE)


def parse_army(text: str, option: str = "army") -> list[ArmyEntry]:
    """Read ``"Intercessors x10, Redemptor Dreadnought"`` (also ``10x Intercessors``)."""
    items = [s.strip() for s in text.split(",")]
    if not any(items):
        raise UserError(f"{option}: empty army; write unit names separated by commas, "
                        f"e.g. \"Intercessor Squad x10, Redemptor Dreadnought\"")
    out = []
    for item in items:
        if not item:
            raise UserError(f"{option}: an empty item in {quote(str(text))} (two commas in a row?)")
        m = _COUNT_AFTER.match(item) or _COUNT_BEFORE.match(item)
        if m and m.group("name").strip():
            n = int(m.group("n")) if len(m.group("n")) <= 6 else MAX_MODELS + 1
            if n < 1:
                raise UserError(f"{option}: {quote(str(item))}: a unit needs at least 1 model")
            if n > MAX_MODELS:
                raise UserError(f"{option}: {quote(str(item))}: at most {MAX_MODELS:,} models "
                                "a unit")
            out.append(ArmyEntry(m.group("name").strip(), n))
        else:
            out.append(ArmyEntry(item, None))
    return out


@dataclass(frozen=True)
class _Want:
    entry: UnitEntry
    profiles: tuple[Profile, ...]
    """The profile of each model, in model order."""


def bulk_index(entry: UnitEntry) -> int:
    """Index of the rank-and-file profile: the fewest wounds, the last such in the file."""
    low = min(p.W for p in entry.profiles)
    return max(i for i, p in enumerate(entry.profiles) if p.W == low)


def model_profiles(entry: UnitEntry, n: int) -> tuple[Profile, ...]:
    """The profile of each of ``n`` models: the other profiles one each, then the bulk one."""
    b = bulk_index(entry)
    others = [p for i, p in enumerate(entry.profiles) if i != b][: max(n - 1, 0)]
    return (*others, *([entry.profiles[b]] * (n - len(others))))


def _resolve(catalogue: Catalogue, army: Sequence[ArmyEntry], option: str) -> list[_Want]:
    wants: list[_Want] = []
    problems: list[str] = []
    for item in army:
        try:
            entry = catalogue.find(item.name)
        except UserError as exc:
            problems.append(f"{option}: {exc.lines[0]}")
            continue
        n = entry.model_min if item.count is None else item.count
        if not entry.model_min <= n <= entry.model_max:
            span = str(entry.model_min) if entry.model_min == entry.model_max else \
                f"{entry.model_min} to {entry.model_max}"
            models = "model" if entry.model_max == 1 else "models"
            problems.append(f"{option}: {quote(str(entry.name))} has {span} {models} in "
                            f"{catalogue.path}, not {n}")
            continue
        profiles = model_profiles(entry, n)
        nobase = sorted({p.base_shape for p in profiles if p.base is None})
        if nobase:
            problems.append(f"{option}: {quote(str(entry.name))} has no base size in "
                            f"{catalogue.path} "
                            f"(base_shape: {', '.join(nobase)}); only units with a round or "
                            f"oval base size can be deployed")
            continue
        wants.append(_Want(entry, profiles))
    if problems:
        raise UserError(problems)
    return wants


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unit"


@dataclass
class _Placed:
    centres: list[tuple[float, float]]
    radii: list[float]
    units: list[int]


def _place_unit(want: _Want, index: int, zone: Polygon, obstacles: BaseGeometry,
                home: tuple[float, float], placed: _Placed, facing: float
                ) -> list[tuple[float, float]] | None:
    bases = [parse_base(p.base or "") for p in want.profiles]
    r_out = [b.radius for b in bases]
    r_in = [inner_radius(b) for b in bases]
    regions: dict[float, np.ndarray] = {}

    def cands(r: float) -> np.ndarray:
        if r not in regions:
            allowed = zone.buffer(-(r + MARGIN))
            if not obstacles.is_empty:
                allowed = allowed.difference(obstacles.buffer(r + MARGIN))
            regions[r] = grid_points(allowed, GRID)
        return regions[r]

    def free(c: np.ndarray, r: float, own: list[tuple[float, float]],
             own_r: list[float]) -> np.ndarray:
        ok = np.ones(len(c), dtype=bool)
        for (x, y), rr, u in zip(placed.centres, placed.radii, placed.units, strict=True):
            gap = MARGIN + (UNIT_GAP if u != index else 0.0)
            ok &= np.hypot(c[:, 0] - x, c[:, 1] - y) >= r + rr + gap
        for (x, y), rr in zip(own, own_r, strict=True):
            ok &= np.hypot(c[:, 0] - x, c[:, 1] - y) >= r + rr + MARGIN
        return ok

    first = cands(r_out[0])
    first = first[free(first, r_out[0], [], [])]
    if len(first) == 0:
        return None
    order = np.argsort(np.hypot(first[:, 0] - home[0], first[:, 1] - home[1]), kind="stable")
    tried: list[tuple[float, float]] = []
    for k in order[:400]:
        anchor = (float(first[k, 0]), float(first[k, 1]))
        if any(math.hypot(anchor[0] - a, anchor[1] - b) < 3.0 for a, b in tried):
            continue
        tried.append(anchor)
        if len(tried) > 40:
            break
        own = [anchor]
        own_r = [r_out[0]]
        ok = True
        for m in range(1, len(bases)):
            c = cands(r_out[m])
            c = c[free(c, r_out[m], own, own_r)]
            if len(c) == 0:
                ok = False
                break
            near = np.zeros(len(c), dtype=bool)
            far = np.ones(len(c), dtype=bool)
            for (x, y), ri in zip(own, r_in[:m], strict=True):
                d = np.hypot(c[:, 0] - x, c[:, 1] - y)
                near |= d - r_in[m] - ri <= COHERENCY - MARGIN
            for (x, y), ro in zip(own, own_r, strict=True):
                d = np.hypot(c[:, 0] - x, c[:, 1] - y)
                far &= d - r_out[m] - ro <= SPREAD - MARGIN
            c = c[near & far]
            if len(c) == 0:
                ok = False
                break
            cx = sum(p[0] for p in own) / len(own)
            cy = sum(p[1] for p in own) / len(own)
            j = int(np.argmin(np.hypot(c[:, 0] - cx, c[:, 1] - cy)))
            own.append((float(c[j, 0]), float(c[j, 1])))
            own_r.append(r_out[m])
        if ok:
            placed.centres.extend(own)
            placed.radii.extend(own_r)
            placed.units.extend([index] * len(own))
            return own
    return None


def _facing_to(zone: Polygon, target: tuple[float, float]) -> float:
    c = zone.centroid
    dx, dy = target[0] - c.x, target[1] - c.y
    return float(round(math.degrees(math.atan2(dx, -dy)) % 360.0))


def deploy(state: GameState, player_id: str, army: Sequence[ArmyEntry], catalogue: Catalogue,
           *, option: str | None = None) -> tuple[Unit, ...]:
    """Units of ``army`` set up wholly inside ``player_id``'s deployment zone.

    Every model stands wholly inside the zone, off every light, dense and impassable feature, its
    unit in coherency (each model within 2" of another, all within 9" of each other) and at least
    1" from the models of other units. Units are placed nearest the middle of the zone first.

    Raises
    ------
    UserError
        Unknown unit (with close names), a count outside the unit's range, a unit without a base
        size, a player without a deployment zone, or an army that does not fit.
    """
    option = option or f"--{player_id}"
    wants = _resolve(catalogue, army, option)
    player: Player = state.player(player_id)
    if player.zone_polygon is None:
        raise UserError(f"{option}: player {player_id} has no deployment zone; choose a "
                        f"deployment map (--deployment)")
    zone = player.zone_polygon
    obstacles = unary_union([t.shape for t in state.terrain if t.kind in FEATURE_KINDS])
    home_pt = zone.representative_point() if not zone.contains(zone.centroid) else zone.centroid
    home = (home_pt.x, home_pt.y)
    facing = _facing_to(zone, (state.battlefield.width / 2, state.battlefield.depth / 2))
    placed = _Placed([], [], [])
    for u in state.units:
        if isinstance(u, Unit):
            for m in u.models:
                if m.at is not None:
                    placed.centres.append(m.at)
                    placed.radii.append(m.base.radius)
                    placed.units.append(-1)
    taken = {u.id for u in state.units} | {p.id for p in state.players} | \
        {t.id for t in state.terrain}
    units: list[Unit] = []
    for k, want in enumerate(wants):
        spots = _place_unit(want, k, zone, obstacles, home, placed, facing)
        if spots is None:
            n = len(want.profiles)
            raise UserError(
                f"{option}: the army does not fit in player {player_id}'s deployment zone: "
                f"no room for {quote(str(want.entry.name))} ({n} model{'s' if n > 1 else ''}, "
                f"{want.profiles[0].base}) in coherency, off terrain features and 1\" from "
                f"the {k} unit(s) already placed; use fewer or smaller units")
        base_id = f"{player_id}-{_slug(want.entry.name)}"
        uid, n = base_id, 1
        while uid in taken:
            n += 1
            uid = f"{base_id}-{n}"
        taken.add(uid)
        bulk = want.entry.profiles[bulk_index(want.entry)]
        models = tuple(
            Model(id=f"{uid}-{j + 1}", base=parse_base(p.base or ""),
                  at=(round(x, 4), round(y, 4)), facing=facing,
                  M=None if p.M == bulk.M else p.M)
            for j, (p, (x, y)) in enumerate(zip(want.profiles, spots, strict=True)))
        taken.update(m.id for m in models)
        units.append(Unit(id=uid, player=player_id, keywords=want.entry.keywords, M=bulk.M,
                          W=bulk.W, Ld=bulk.Ld, OC=bulk.OC, models=models, name=want.entry.name))
    return tuple(units)


def new_battle(state: GameState, catalogue: Catalogue, armies: Iterable[tuple[str, str]]
               ) -> GameState:
    """``state`` with each ``(player_id, army_text)`` deployed (see :func:`deploy`)."""
    problems: list[str] = []
    current = state
    sources: dict[str, str] = {}
    for player_id, text in armies:
        try:
            placed = deploy(current, player_id, parse_army(text, f"--{player_id}"), catalogue)
        except UserError as exc:
            problems.extend(exc.lines)
            continue
        for k, unit in enumerate(placed, start=len(current.units)):
            sources[f"units[{k}]"] = f"{catalogue.path}: unit {quote(str(unit.name))} " \
                f"(--{player_id})"
        current = replace(current, units=(*current.units, *placed))
    if problems:
        raise UserError(problems)
    verify_state(current, sources, f"{catalogue.path}")
    return current

"""Threat ranges and safe ground as any ruleset answers them: the answers, the odds of a charge
roll, and their JSON and GeoJSON shape (see the docs' page on threat ranges).

A ruleset that answers them offers the ``"threat"`` tool (:data:`tabletop.rules.tools.THREAT`,
:class:`tabletop.rules.tools.ThreatQueries`); the command line (``tabletop threat``, ``tabletop
safe``) and the window draw what it returns, without knowing which ruleset it plays.

Geometry is in scenario inches (x to the right, y as the scenario file has it). Every region of
a :class:`Threat` is a *base-touch* region: a model whose base reaches into it meets the
condition it stands for. Every region of a :class:`SafeGround` holds base *centres*.

>>> [str(at_least(x)) for x in (2, 7, 9, 12, 13)]
['1', '7/12', '5/18', '1/36', '0']
>>> sum(at_least(x) - at_least(x + 1) for x in range(2, 13))
Fraction(1, 1)
>>> parse_odds("9+").need, parse_odds("0.28").need, parse_odds("28%").need
(9, 9, 9)
>>> parse_odds("never").need, parse_odds("any").need
(13, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import shapely
from shapely.geometry import Polygon, mapping
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError, quote

__all__ = [
    "MAX_ROLL",
    "MIN_ROLL",
    "ChargeBand",
    "Odds",
    "SafeGround",
    "SafeModel",
    "Threat",
    "at_least",
    "band_limit",
    "geometry_json",
    "parse_odds",
]

MIN_ROLL = 2
MAX_ROLL = 12
"""The least and the largest result of 2D6 (no modifiers, no re-rolls)."""
DECIMALS = 4
"""Decimals of the coordinates written (0.0001")."""
SIMPLIFY = 0.001
"""Rings are simplified to within this (inches) before they are written; the regions written
are grown by as much, so they still hold every point they held."""


def at_least(roll: int) -> Fraction:
    """The chance that 2D6 rolls ``roll`` or more (1 at 2 and below, 0 above 12)."""
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= roll)
    return Fraction(hits, 36)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%" if p not in (0, 1) else ("100%" if p == 1 else "0%")


@dataclass(frozen=True)
class Odds:
    """A chosen odds for safe ground: a point is safe when no charge roll below :attr:`need`
    reaches it ("safe unless a 9+ is rolled": ``need`` 9). ``need`` 13: out of reach of every
    roll; 3: every point counts as safe (a 2 never charges anything)."""

    need: int

    @property
    def chance(self) -> Fraction:
        """The chance a charge succeeds against a point that is just safe: ``P(2D6 >= need)``."""
        return at_least(self.need)

    @property
    def worst(self) -> int:
        """The largest roll safe ground keeps out of reach of (``need - 1``)."""
        return self.need - 1

    def text(self) -> str:
        """In words: ``"safe unless 9+ is rolled (28%)"``."""
        if self.need > MAX_ROLL:
            return "out of reach of every charge roll"
        return f"safe unless {self.need}+ is rolled ({_pct(self.chance)})"

    def to_json(self) -> dict[str, Any]:
        return {"need": self.need, "worst_roll": self.worst, "chance": float(self.chance),
                "chance_exact": str(self.chance), "text": self.text()}


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def _chance(text: str, what: str) -> Fraction | int:
    """A roll (``"9+"``, ``"9"``) as an int, or a chance (``"0.28"``, ``"28%"``) as a Fraction."""
    t = str(text).strip().lower()
    accepted = (f"{what}: write a charge roll from {MIN_ROLL} to {MAX_ROLL} as 9+ (or 9), a "
                "chance from 0 to 1 as 0.28 or 28%, or never/any")
    if t.endswith("+") or (t.isdigit() and t not in ("0", "1")):
        v = _number(t.rstrip("+"))
        if v.is_integer() and MIN_ROLL <= v <= MAX_ROLL + 1:
            return int(v)
        raise UserError(f"{quote(str(text))} is no odds for {accepted}")
    pct = t.endswith("%")
    v = _number(t.rstrip("%"))
    if pct:
        v /= 100.0
    if not 0.0 <= v <= 1.0:
        raise UserError(f"{quote(str(text))} is no odds for {accepted}")
    return Fraction(v).limit_denominator(10**9)


def parse_odds(text: str, what: str = "--odds") -> Odds:
    """Safe-ground odds from the user: ``"9+"`` (safe unless 9+ is rolled), ``"0.28"`` or
    ``"28%"`` (safe where a charge succeeds with at most that chance: the same as 9+),
    ``"never"`` (no roll reaches: 13) or ``"any"`` (3: every point). One
    :class:`~tabletop.errors.UserError` naming ``what`` otherwise."""
    t = str(text).strip().lower()
    if t in ("never", "none", "0"):
        return Odds(MAX_ROLL + 1)
    if t in ("any", "all"):
        return Odds(MIN_ROLL + 1)
    got = _chance(text, what)
    if isinstance(got, int):
        return Odds(max(got, MIN_ROLL + 1))
    need = next(x for x in range(MIN_ROLL, MAX_ROLL + 2) if at_least(x) <= got)
    return Odds(max(need, MIN_ROLL + 1))


def band_limit(text: str | None, what: str = "--charge-odds") -> int:
    """The largest charge roll to draw for ``--charge-odds``: the bands whose chance is at least
    the one given (``"7+"`` or ``"0.58"``: rolls up to 7); all of them (12) without it."""
    if text is None:
        return MAX_ROLL
    got = _chance(text, what)
    if isinstance(got, int):
        return min(got, MAX_ROLL)
    # (a 2+ always succeeds: some roll always qualifies)
    return max(x for x in range(MIN_ROLL, MAX_ROLL + 1) if at_least(x) >= got)


def _round(obj: Any) -> Any:
    if isinstance(obj, float):
        return round(obj, DECIMALS)
    if isinstance(obj, list | tuple):
        return [_round(v) for v in obj]
    if isinstance(obj, dict):
        return {k: _round(v) for k, v in obj.items()}
    return obj


def geometry_json(geom: BaseGeometry | None) -> dict[str, Any] | None:
    """A region as a GeoJSON geometry object (coordinates in inches, :data:`DECIMALS`), never
    smaller than ``geom``: simplified to within :data:`SIMPLIFY` and grown by as much."""
    if geom is None:
        return None
    if geom.is_empty:
        return {"type": "MultiPolygon", "coordinates": []}
    g = shapely.simplify(geom, SIMPLIFY, preserve_topology=True).buffer(
        SIMPLIFY + 10 ** -DECIMALS, quad_segs=2, join_style="mitre")
    return _round(mapping(g))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class ChargeBand:
    """The charge roll ``roll`` of a unit: where it reaches, with the chance of rolling it.

    ``engage``: a base reaching into it is within engagement range of a place where a model of
    the unit can end a charge move of ``roll`` inches (after its move in the Movement phase).
    ``declare``: a base reaching into it is within ``roll`` inches of a place where a model of
    the unit can end that move (a charge may only target a unit within the roll).
    A model whose base reaches into both can be charged on ``roll`` or more (its unit a target
    because of it); a model of a unit that is a target because of another of its models, where
    its base reaches into ``engage``. Bands grow with the roll (the band of 8 holds that of 7).
    """

    roll: int
    engage: BaseGeometry
    declare: BaseGeometry

    @property
    def chance(self) -> Fraction:
        """``P(2D6 >= roll)``."""
        return at_least(self.roll)

    @cached_property
    def charge(self) -> BaseGeometry:
        """Where a model standing alone is charged on ``roll``: ``engage`` and ``declare``
        both (the shading drawn; a base can also reach into each at a different point where
        their edges cross, which :class:`SafeGround` tests for the base itself)."""
        if self.engage.is_empty or self.declare.is_empty:
            return Polygon()
        return self.engage.intersection(self.declare)


@dataclass(frozen=True)
class Threat:
    """What an enemy unit could do to the other side in its next turn: where its models could
    end their next move (``move_zone``: a normal move, or a fall back when it is engaged;
    ``advance_zone``: an advance, no charge after it; both hold the models' centres) and, when it
    may then charge, one
    :class:`ChargeBand` per charge roll. Every region errs on the side of showing more (the
    docs' limits page)."""

    ruleset: str
    unit: str
    player: str
    move: str
    charges: bool
    reason: str
    move_zone: BaseGeometry
    advance_zone: BaseGeometry | None
    bands: tuple[ChargeBand, ...]
    rules: tuple[str, ...] = ()
    """The charge rules applied, one line each (the docs' rulings say more)."""
    notes: tuple[str, ...] = ()
    seconds: float = 0.0

    def band(self, roll: int) -> ChargeBand | None:
        """The band of ``roll`` (``None`` when it was not computed)."""
        return next((b for b in self.bands if b.roll == roll), None)

    def least_roll(self, x: float, y: float) -> int | None:
        """The least charge roll whose :attr:`ChargeBand.charge` holds the point, or ``None``."""
        for b in self.bands:
            if not b.charge.is_empty and shapely.intersects_xy(b.charge, x, y):
                return b.roll
        return None

    def summary(self) -> dict[str, Any]:
        """Everything but the geometry (and the time it took: the same board, the same
        answer, byte for byte)."""
        return {"ruleset": self.ruleset, "unit": self.unit, "player": self.player,
                "move": self.move, "charges": self.charges, "reason": self.reason,
                "rules": list(self.rules), "notes": list(self.notes)}

    def to_json(self, max_roll: int = MAX_ROLL) -> dict[str, Any]:
        """The documented JSON shape (``tabletop threat --format json``)."""
        return {"format": "tabletop-threat/1", **self.summary(),
                "move_zone": geometry_json(self.move_zone),
                "advance_zone": geometry_json(self.advance_zone),
                "bands": [{"roll": b.roll, "chance": float(b.chance),
                           "chance_exact": str(b.chance),
                           "charge": geometry_json(b.charge),
                           "engage": geometry_json(b.engage),
                           "declare": geometry_json(b.declare)}
                          for b in self.bands if b.roll <= max_roll]}

    def to_geojson(self, max_roll: int = MAX_ROLL) -> dict[str, Any]:
        """A GeoJSON FeatureCollection: the move zone, the advance zone, then one Feature per
        band (``kind`` ``charge``, largest roll first, so that drawn in order the likelier bands
        lie on top); the rest of :meth:`summary` in the collection's ``properties``."""
        feats: list[dict[str, Any]] = [
            {"type": "Feature", "geometry": geometry_json(self.move_zone),
             "properties": {"kind": "move", "unit": self.unit, "move": self.move}}]
        if self.advance_zone is not None:
            feats.append({"type": "Feature", "geometry": geometry_json(self.advance_zone),
                          "properties": {"kind": "advance", "unit": self.unit}})
        for b in sorted(self.bands, key=lambda b: -b.roll):
            if b.roll > max_roll:
                continue
            for kind, g in (("charge", b.charge), ("engage", b.engage)):
                feats.append({"type": "Feature", "geometry": geometry_json(g),
                              "properties": {"kind": kind, "unit": self.unit, "roll": b.roll,
                                             "chance": float(b.chance),
                                             "chance_exact": str(b.chance)}})
        return {"type": "FeatureCollection", "properties": self.summary(), "features": feats}


@dataclass(frozen=True)
class SafeModel:
    """One model's safe ground: its legal zone (``zone``, base centres) and the part of it no
    enemy's charge reaches at the odds (``safe``)."""

    model: str
    zone: BaseGeometry
    safe: BaseGeometry

    @property
    def threatened(self) -> BaseGeometry:
        """The rest of the zone."""
        return self.zone.difference(self.safe) if not self.zone.is_empty else Polygon()


@dataclass(frozen=True)
class SafeGround:
    """Where the models of a unit may end a move and stay out of every counted enemy unit's
    charge at :attr:`odds`; ``objective``: only within range of that objective marker
    (1-based, the scenario's order). ``counted``: the enemy units whose threat was taken off;
    ``skipped``: the others, each with why (engaged, in reserves, embarked, out of reach)."""

    ruleset: str
    unit: str
    move: str
    odds: Odds
    objective: int | None
    models: tuple[SafeModel, ...]
    counted: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]
    rules: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    threats: tuple[Threat, ...] = field(default=(), repr=False)
    """The threats taken off (their band of :attr:`Odds.worst`), for drawing."""

    @cached_property
    def safe(self) -> BaseGeometry:
        """Every model's safe ground together."""
        parts = [m.safe for m in self.models if not m.safe.is_empty]
        return shapely.union_all(parts) if parts else Polygon()

    def summary(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "unit": self.unit, "move": self.move,
                "odds": self.odds.to_json(), "objective": self.objective,
                "counted": list(self.counted),
                "skipped": [{"unit": u, "why": w} for u, w in self.skipped],
                "rules": list(self.rules), "notes": list(self.notes)}

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (``tabletop safe --format json``)."""
        return {"format": "tabletop-safe/1", **self.summary(),
                "models": [{"model": m.model, "zone": geometry_json(m.zone),
                            "safe": _inner_json(m.safe), "zone_area": round(m.zone.area, 4),
                            "safe_area": round(m.safe.area, 4)} for m in self.models]}

    def to_geojson(self) -> dict[str, Any]:
        """A FeatureCollection: per model its zone (``kind`` ``zone``) and its safe ground
        (``safe``)."""
        feats = []
        for m in self.models:
            feats.append({"type": "Feature", "geometry": geometry_json(m.zone),
                          "properties": {"kind": "zone", "model": m.model}})
            feats.append({"type": "Feature", "geometry": _inner_json(m.safe),
                          "properties": {"kind": "safe", "model": m.model,
                                         "area": round(m.safe.area, 4)}})
        return {"type": "FeatureCollection", "properties": self.summary(), "features": feats}


def _inner_json(geom: BaseGeometry) -> dict[str, Any] | None:
    """Safe ground is written never larger than it is: shrunk by the rounding before it is
    simplified (it must not gain a point an enemy reaches)."""
    if geom.is_empty:
        return geometry_json(geom)
    shrunk = geom.buffer(-(SIMPLIFY + 10 ** -DECIMALS), quad_segs=2, join_style="mitre")
    g = shapely.simplify(shrunk, SIMPLIFY, preserve_topology=True)
    return _round(mapping(g)) if not g.is_empty else geometry_json(Polygon())

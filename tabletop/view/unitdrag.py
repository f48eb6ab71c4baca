"""A whole unit dragged by one vector (Shift-drag), kept legal (no pygame).

Every model moves by the same vector ``t * v`` (``v``: where the grabbed model is dragged,
``t`` in ``[0, 1]``), each along its own legal path, so the unit's formation (and its coherency)
is kept. Each model has its own legal zone for the move *with its unit moving along* (the unit's
other models are no obstacle to it: they move too); the segment from where a model stands to
where ``v`` takes it meets its zone in some intervals of ``t``. :func:`largest_offset` intersects
those intervals over the unit and returns the largest ``t`` at which every model may end, and the
model that stops the unit going further. While dragging, the zones' polygons answer (each lies
inside its true zone); on release the zones' exact tests decide, stepping back from the polygon's
answer if need be.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString

__all__ = ["Offset", "largest_offset", "move_order"]

Pt = tuple[float, float]
Interval = tuple[float, float]

FULL = 1e-9
"""A fraction this close to 1 is the whole vector (rounding of the segment's ends)."""

BACK_OFF = (1e-6, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.25, 0.5)
"""Inches stepped back from the polygon's largest offset when the exact test refuses it."""


@dataclass(frozen=True)
class Offset:
    """How far the unit goes: the fraction ``t`` of the vector, and the model that stops it
    going further (``None`` when the whole vector is legal)."""

    t: float
    limit: str | None = None


def _intervals(geom: Any, start: Pt, v: Pt) -> list[Interval]:
    """The intervals of ``t`` in ``[0, 1]`` where ``start + t * v`` lies in ``geom``."""
    vv = v[0] * v[0] + v[1] * v[1]
    seg = LineString([start, (start[0] + v[0], start[1] + v[1])])
    hit = seg.intersection(geom)
    out: list[Interval] = []
    parts = getattr(hit, "geoms", [hit])
    for part in parts:
        if part.is_empty:
            continue
        ts = [((x - start[0]) * v[0] + (y - start[1]) * v[1]) / vv for x, y in part.coords]
        out.append((max(min(ts), 0.0), min(max(ts), 1.0)))
    return sorted(out)


def _intersect(a: list[Interval], b: list[Interval]) -> list[Interval]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if lo <= hi:
                out.append((lo, hi))
    return sorted(out)


def largest_offset(zones: Mapping[str, Any], starts: Mapping[str, Pt], v: Pt, *,
                   exact: bool = False) -> Offset:
    """The largest ``t`` in ``[0, 1]`` at which every model ``m`` of ``starts`` may end at
    ``starts[m] + t * v`` (``zones[m]``: its zone, ``None``: anywhere), and the first model
    (in ``starts``' order) that stops it. With ``exact``, each model's zone's own ``contains``
    confirms the end (stepping back from the polygon's answer until it does)."""
    if math.hypot(*v) <= 1e-12:
        return Offset(1.0)
    feasible: list[Interval] = [(0.0, 1.0)]
    own: dict[str, list[Interval]] = {}
    for mid, s in starts.items():
        z = zones.get(mid)
        geom = getattr(z, "geometry", None)
        if geom is None:
            continue
        own[mid] = _intervals(geom, s, v)
        feasible = _intersect(feasible, own[mid])
    t = max((hi for _, hi in feasible), default=0.0)
    if t >= 1.0 - FULL:
        t = 1.0
    if exact and t > 0.0:
        t = _exactly(zones, starts, v, t)
    limit = None
    if t < 1.0 - FULL:
        ahead = min(t + 1e-6, 1.0)
        limit = next((mid for mid, iv in own.items()
                      if not any(lo <= ahead <= hi for lo, hi in iv)), None)
        if limit is None:  # the polygons allowed more than an exact test: the first refused
            limit = next((mid for mid, s in starts.items() if zones.get(mid) is not None and
                          not zones[mid].contains(s[0] + ahead * v[0], s[1] + ahead * v[1])),
                         next(iter(starts), None))
    return Offset(t, limit)


def _exactly(zones: Mapping[str, Any], starts: Mapping[str, Pt], v: Pt, t: float) -> float:
    """``t``, or the nearest smaller fraction (stepping back :data:`BACK_OFF`) at which every
    model's zone's exact test accepts its end; ``0`` when none does."""
    norm = math.hypot(*v)
    for back in (0.0, *BACK_OFF):
        tt = t - back / norm
        if tt <= 0.0:
            return 0.0
        if all(zones.get(mid) is None or zones[mid].contains(s[0] + tt * v[0], s[1] + tt * v[1])
               for mid, s in starts.items()):
            return tt
    return 0.0


def move_order(starts: Mapping[str, Pt], v: Pt) -> Sequence[str]:
    """The models in the order their moves are staged: the ones furthest along ``v`` first, so
    that no model is moved onto the spot of one that has not moved yet (two bases that do not
    overlap, translated by one vector, overlap another's old spot only ahead of it)."""
    return sorted(starts, key=lambda m: -(starts[m][0] * v[0] + starts[m][1] * v[1]))

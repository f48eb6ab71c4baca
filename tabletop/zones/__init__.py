"""The legal-zone engine: where a model may end a move, and whether a drawn path is legal.

Ruleset-free: a ruleset turns its rules into one frozen query of plain data
(:class:`MoveQuery`, :class:`PlacementQuery`; the design is in :mod:`tabletop.zones.query`) and
asks:

- :func:`zone_of`: the legal zone of a move (a :class:`Zone`: geometry, exact point tests,
  witness paths, reasons), by the engine :func:`engine` picks (:mod:`tabletop.zones.seam`);
- :func:`check_path`: a drawn path's verdict (:class:`PathCheck`: every :class:`Violation`);
- :func:`placement_zone`: where a model may be set up;
- :func:`phase_geometry`, :func:`turn_phase`, :func:`turn_end`: the per-phase geometry a zone
  is built from (what the layout survey measures with);
- :func:`clear_caches`: forget every cached input.

Layers: :mod:`tabletop.geometry` below it; game states, rules and rulesets above it. Nothing
here imports them or reads a ruleset's constants: numbers and names arrive in the query.
"""

from __future__ import annotations

from tabletop.zones.build import (
    IdentityMemo,
    Phase,
    TurnPhase,
    phase_geometry,
    turn_end,
    turn_phase,
)
from tabletop.zones.end import end_violations, fmt, grow
from tabletop.zones.paths import PathCheck, PathResult, check_path
from tabletop.zones.placement import placement_zone
from tabletop.zones.query import (
    MAX_NUMBER,
    MAX_PATH_POINTS,
    Area,
    Board,
    Body,
    Clearance,
    MoveQuery,
    Piece,
    PlacementQuery,
    Within,
    query_point,
)
from tabletop.zones.seam import Engine, engine, engines, register
from tabletop.zones.violation import Violation
from tabletop.zones.zone import Zone

__all__ = [
    "MAX_NUMBER",
    "MAX_PATH_POINTS",
    "Area",
    "Board",
    "Body",
    "Clearance",
    "Engine",
    "IdentityMemo",
    "MoveQuery",
    "PathCheck",
    "PathResult",
    "Phase",
    "Piece",
    "PlacementQuery",
    "TurnPhase",
    "Violation",
    "Within",
    "Zone",
    "check_path",
    "clear_caches",
    "end_violations",
    "engine",
    "engines",
    "fmt",
    "grow",
    "phase_geometry",
    "placement_zone",
    "query_point",
    "register",
    "turn_end",
    "turn_phase",
    "zone_of",
]


def zone_of(query: MoveQuery) -> Zone:
    """The legal zone of ``query``: where its mover may end a move of at most its limit (by
    the engine :func:`engine` picks)."""
    return engine().zone_of(query)


def clear_caches() -> None:
    """Forget every cached zone input, of every engine.

    Never needed in play (the caches are keyed by everything they depend on); for benchmarks
    that time a cold start and for tests that change an engine constant.
    """
    for e in engines():
        e.clear_caches()

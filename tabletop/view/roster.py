"""The roster: every unit of both players, grouped by where it is, with what it did this phase.

Pure (no pygame): the panel draws :func:`roster`'s groups, the board draws the same
:func:`markers` beside each unit's label. Destroyed units are those of the game's first state
that the current state no longer holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.state import Block, GameState, Unit
from tabletop.view.turn import moving_title, unit_label

__all__ = ["GROUPS", "Marker", "RosterEntry", "RosterGroup", "markers", "roster"]

GROUPS = ("battlefield", "strategic-reserves", "embarked", "destroyed")
"""Roster groups, in panel order."""

GROUP_TITLES = {"battlefield": "On the battlefield", "strategic-reserves": "Strategic reserves",
                "embarked": "Embarked", "destroyed": "Destroyed"}


@dataclass(frozen=True)
class Marker:
    """A short badge (``ADV``) and what it means (``advanced``); ``tone`` picks its colour:
    ``done`` (moved this phase), ``bad`` (battle-shocked, wounded, fleeing) or ``info``."""

    code: str
    text: str
    tone: str = "done"


# flag -> (badge, words); wh40k-11e and t9a-2 flags both
_FLAG_MARKERS: dict[str, tuple[str, str]] = {
    "normal-move": ("MOV", "made a normal move"),
    "advanced": ("ADV", "advanced"),
    "fell-back": ("FB", "fell back"),
    "remained-stationary": ("STAY", "remained stationary"),
    "ingressed": ("IN", "arrived from reserves"),
    "disembarked": ("OUT", "disembarked"),
    "embarked-this-phase": ("EMB", "embarked"),
    "moved": ("MOV", "moved"),
    "marched": ("MAR", "marched"),
    "reformed": ("REF", "reformed"),
    "rallied": ("RAL", "rallied"),
}


def markers(state: GameState, unit: Unit | Block) -> tuple[Marker, ...]:
    """What ``unit`` did this phase and what is wrong with it, as badges."""
    out: list[Marker] = []
    sel = state.battle.selection
    if sel is not None and sel.unit == unit.id:
        out.append(Marker("MOVING", f"moving: {moving_title(state, sel.move, sel.mode).lower()}",
                          "info"))
    out += [Marker(*_FLAG_MARKERS[f]) for f in unit.flags if f in _FLAG_MARKERS]
    if isinstance(unit, Block):
        if unit.fleeing:
            out.append(Marker("FLEE", "fleeing", "bad"))
        if "shaken" in unit.flags:
            out.append(Marker("SHK", "shaken", "bad"))
        lost = unit.start_models - unit.models
        if lost > 0:
            out.append(Marker(f"-{lost}", f"{lost} model{'s' if lost > 1 else ''} lost", "bad"))
        return tuple(out)
    if unit.battle_shocked:
        out.append(Marker("BS", "battle-shocked", "bad"))
    lost_models = unit.strength - len(unit.models)
    if lost_models > 0:
        out.append(Marker(f"-{lost_models}", f"{lost_models} model"
                          f"{'s' if lost_models > 1 else ''} lost", "bad"))
    wounds = sum(unit.W - unit.wounds_of(m) for m in unit.models)
    if wounds > 0:
        out.append(Marker(f"-{wounds}W", f"{wounds} wound{'s' if wounds > 1 else ''} lost",
                          "bad"))
    return tuple(out)


@dataclass(frozen=True)
class RosterEntry:
    """One unit in the roster."""

    unit: str
    name: str
    player: str
    group: str
    detail: str
    """How many models, and where it is when off the battlefield (``in Land Raider``)."""
    markers: tuple[Marker, ...] = ()


@dataclass(frozen=True)
class RosterGroup:
    """The units of one player in one place (``group`` of :data:`GROUPS`)."""

    player: str
    group: str
    title: str
    entries: tuple[RosterEntry, ...]


def _group(unit: Unit | Block) -> str:
    if isinstance(unit, Block):
        return "battlefield"
    return unit.location


def roster(state: GameState, origin: GameState | None = None) -> list[RosterGroup]:
    """Every unit of ``state`` grouped by player then by :data:`GROUPS` (empty groups left out);
    units of ``origin`` that ``state`` no longer holds are listed as destroyed."""
    by: dict[tuple[str, str], list[RosterEntry]] = {}
    for u in state.units:
        group = _group(u)
        if isinstance(u, Block):
            detail = f"{u.models} models, {u.files} x {u.ranks}"
        else:
            n = len(u.models)
            detail = f"{n} model{'s' if n != 1 else ''}"
            if u.location == "embarked" and u.transport:
                detail += f", in {unit_label(state, u.transport)}"
        by.setdefault((u.player, group), []).append(
            RosterEntry(u.id, u.name or u.id, u.player, group, detail, markers(state, u)))
    if origin is not None:
        here = {u.id for u in state.units}
        for u in origin.units:
            if u.id not in here:
                by.setdefault((u.player, "destroyed"), []).append(
                    RosterEntry(u.id, u.name or u.id, u.player, "destroyed", "destroyed"))
    out = []
    for p in state.players:
        for g in GROUPS:
            entries = by.get((p.id, g))
            if entries:
                out.append(RosterGroup(p.id, g, GROUP_TITLES[g], tuple(entries)))
    return out

"""What the window asks of the rules core, in one place (no pygame).

:class:`Rules` wraps ``tabletop.rules.actions.apply_action`` (every change goes through it, exactly
as ``tabletop apply`` does), the legal-zone engine ``tabletop.rules.zones`` (zones computed on
pick-up), the t9a-2 block queries of ``tabletop.rulesets.t9a`` and the checks the window shows
live (coherency while a move is built, eligible move types with their reasons).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry.base import BaseGeometry

from tabletop.geometry.blocks import BlockGeom
from tabletop.rules import checks, wh40k, zones
from tabletop.rules.actions import apply_action
from tabletop.rules.violation import Violation
from tabletop.rulesets import t9a
from tabletop.state import WH40K, Block, GameState, Unit
from tabletop.view.blockdrag import BLOCK_MOVE_KEYS, BlockRanges
from tabletop.view.shapes import block_geom as _shape_geom

__all__ = ["BLOCK_MOVE_TYPES", "MOVE_TYPES", "Eligibility", "Outcome", "Rules"]

MOVE_TYPES: tuple[tuple[str, str, str], ...] = (
    ("n", "normal", "Normal move"),
    ("a", "advance", "Advance"),
    ("f", "fall-back", "Fall back"),
    ("s", "remain-stationary", "Remain stationary"),
    ("i", "ingress", "Ingress (from reserves)"),
    ("d", "disembark", "Disembark"),
)
"""Key, move type and title of every wh40k-11e move type, in panel order."""

_BLOCK_TITLES = {"advance": "Advance", "march": "March", "reform": "Reform"}
BLOCK_MOVE_TYPES: tuple[tuple[str, str, str], ...] = tuple(
    (k, move, _BLOCK_TITLES[move]) for k, move in BLOCK_MOVE_KEYS.items())
"""Key, move type and title of every t9a-2 move of a block, in panel order."""


@dataclass(frozen=True)
class Eligibility:
    """Whether a unit may make a move type now, and why not."""

    move: str
    title: str
    key: str
    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class Outcome:
    """The result of one action as the window shows it."""

    state: GameState
    ok: bool
    reasons: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    violations: tuple[Violation, ...] = ()


class Rules:
    """The rules core, as the window uses it."""

    # -- actions --------------------------------------------------------------------------
    def apply(self, state: GameState, action: Mapping[str, Any]) -> Outcome:
        """Apply one action (``spec/actions.md``) and return what happened."""
        res = apply_action(state, dict(action))
        return Outcome(state=res.state, ok=res.ok, reasons=tuple(res.reasons),
                       events=tuple(res.events), violations=tuple(res.violations))

    # -- zones ----------------------------------------------------------------------------
    def zone(self, state: GameState, model_id: str) -> zones.Zone | None:
        """The legal end zone of ``model_id`` for the selected move (``None`` without one)."""
        sel = state.battle.selection
        if sel is None or sel.move == "remain-stationary":
            return None
        if sel.move in ("ingress", "disembark"):
            return self.setup_zone(state, model_id)
        # dragging again continues with what is left: the zone from where the model stands,
        # with the distance already used taken off its move characteristic
        used = self.used(state, model_id)
        if used > 0.0:
            unit, model = state.model(model_id)
            left = max(unit.move_of(model) - used, 0.0)
            state = state.with_model(replace(model, M=left))
        return zones.legal_zone(state, model_id, sel.move, roll=sel.roll, mode=sel.mode)

    def setup_zone(self, state: GameState, model_id: str) -> zones.Zone | None:
        """Where ``model_id`` may be set up (ingress, disembark), clear of models placed so far."""
        sel = state.battle.selection
        if sel is None:
            return None
        return zones.setup_zone(self.display(state), model_id, sel.move, mode=sel.mode)

    def display(self, state: GameState) -> GameState:
        """The board as drawn: models staged for a set-up shown where they were placed."""
        return wh40k.board(state) if state.ruleset == WH40K else state

    def cap(self, state: GameState, model_id: str) -> float | None:
        """The whole allowance of ``model_id`` in the selected move, inches."""
        sel = state.battle.selection
        if sel is None:
            return None
        unit, model = state.model(model_id)
        if sel.move == "advance":
            return unit.move_of(model) + (sel.roll or 0)
        if sel.move in ("normal", "fall-back"):
            return unit.move_of(model)
        return None

    def used(self, state: GameState, model_id: str) -> float:
        """Distance ``model_id`` has already moved in the staged actions of the selection."""
        sel = state.battle.selection
        if sel is None:
            return 0.0
        pos = {mid: at for mid, at, _ in sel.start}
        here = pos.get(model_id)
        total = 0.0
        for act in sel.staged:
            if act.get("do") != "move" or act.get("model") != model_id or here is None:
                continue
            pts = act.get("path") or []
            for p in pts:  # type: ignore[attr-defined]
                nxt = (float(p[0]), float(p[1]))
                total += math.dist(here, nxt)
                here = nxt
        return total

    # -- what the panel shows -------------------------------------------------------------
    def eligibility(self, state: GameState, unit_id: str) -> list[Eligibility]:
        """Every move type of ``unit_id``, with the reason when it may not make it now.

        wh40k-11e units: ``tabletop.rules.wh40k.eligible_moves``. t9a-2 blocks: Advance, March
        and Reform tried as ``select`` on the state (pure; a March Test rolled by the try is
        thrown away with its state).
        """
        if isinstance(state.unit(unit_id), Block):
            out = []
            for key, move, title in BLOCK_MOVE_TYPES:
                res = self.apply(state, {"do": "select", "unit": unit_id, "move": move})
                out.append(Eligibility(move, title, key, res.ok, "; ".join(res.reasons)))
            return out
        titles = {move: (key, title) for key, move, title in MOVE_TYPES}
        return [Eligibility(move, titles[move][1], titles[move][0], ok, why)
                for move, ok, why in wh40k.eligible_moves(state, unit_id)]

    # -- t9a-2 blocks (the window's block tool) -------------------------------------------
    def block_geom(self, block: Block) -> BlockGeom:
        """The geometry of ``block`` as it stands."""
        return _shape_geom(block)

    def block_start(self, state: GameState) -> BlockGeom | None:
        """The selected block as it stood when it was selected (the start of its move)."""
        sel = state.battle.selection
        if sel is None or not sel.start:
            return None
        try:
            block = state.unit(sel.unit)
        except KeyError:
            return None
        _uid, at, facing = sel.start[0]
        if not isinstance(block, Block) or at is None:
            return None
        files = sel.files if sel.files is not None else block.files
        return replace(_shape_geom(block), at=(float(at[0]), float(at[1])),
                       facing=float(facing), files=files)

    def block_ranges(self, state: GameState) -> BlockRanges:
        """Furthest legal straight move of the selected block per direction (a few ms)."""
        return BlockRanges(forward=t9a.straight_range(state, "forward"),
                           backward=t9a.straight_range(state, "backward"),
                           right=t9a.straight_range(state, "sideways", 1.0),
                           left=t9a.straight_range(state, "sideways", -1.0))

    def block_wheel_range(self, state: GameState) -> tuple[float, float]:
        """``(lo, hi)`` legal wheel angles of the selected block (0.2-0.6 s: once per
        manoeuvre)."""
        lo, hi = t9a.wheel_range(state)
        return (float(lo), float(hi))

    def block_preview(self, state: GameState, action: Mapping[str, Any]) -> dict[str, Any]:
        """The rules' preview of one manoeuvre of the selected block (about 1 ms)."""
        return t9a.preview(state, dict(action))

    def block_end_reasons(self, state: GameState) -> list[str]:
        """Why the selected block could not end its move where it stands (the 1" rule)."""
        sel = state.battle.selection
        if sel is None or not sel.staged:
            return []
        return t9a.end_violations(state)

    def block_cap(self, state: GameState, kind: str) -> float:
        """The displacement cap of the selected block's move for a manoeuvre of ``kind``
        (``forward``, ``backward``, ``sideways``, ``reform``), as the rules of seed 001 set it:
        Advance Rate forwards, half of it backwards and sideways, March Rate for a March (the
        Advance Rate after a failed March Test) and for a Reform."""
        return t9a.move_cap(state, kind)

    def block_obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """Other units' boundaries and impassable terrain (what the 1" rule measures to)."""
        out: list[tuple[str, BaseGeometry]] = [
            (f"unit {u.id}", _shape_geom(u).polygon) for u in state.units
            if isinstance(u, Block) and u.id != unit_id]
        out += [(f"impassable terrain {t.id}", t.shape) for t in state.terrain
                if t.kind == "impassable"]
        return out

    def block_can_reform(self, state: GameState) -> bool:
        """Whether the selected block may stage a reform now: a Reform move not yet reformed,
        or an Advance of a unit with Swift Reform before any other manoeuvre."""
        sel = state.battle.selection
        if sel is None:
            return False
        block = state.unit(sel.unit)
        if not isinstance(block, Block) or sel.staged:
            return False
        return sel.move == "reform" or (sel.move == "advance"
                                        and "swift-reform" in block.flags)

    def coherency(self, state: GameState, unit_id: str) -> list[Violation]:
        """Coherency problems of ``unit_id`` as it stands (violations with geometry)."""
        unit = state.unit(unit_id)
        return checks.coherency_violations(unit) if isinstance(unit, Unit) else []

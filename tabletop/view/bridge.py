"""What the window asks of the rules core, in one place (no pygame).

:class:`Rules` applies actions through :func:`tabletop.rulesets.apply_action` (every change goes
through it, exactly as ``tabletop apply`` does) and answers the window's questions by asking the
ruleset of the game (:func:`tabletop.rulesets.of`): its move types with their reasons, the board
as drawn, and the queries of the tools it builds moves with (:mod:`tabletop.rules.tools`: model
drag, block drag). The bridge names no ruleset; a question about a tool the game's ruleset does
not use gets an empty answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry.base import BaseGeometry

from tabletop import rulesets
from tabletop.geometry.blocks import BlockGeom
from tabletop.rules.ruleset import Eligibility
from tabletop.rules.threat import Odds, SafeGround, Threat
from tabletop.rules.tools import (
    BLOCK_DRAG,
    MODEL_DRAG,
    BlockDragQueries,
    BlockRanges,
    ModelDragQueries,
)
from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState

__all__ = ["Eligibility", "MoveRow", "NextChoice", "Outcome", "Rules"]

_NO_RANGES = BlockRanges(0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class MoveRow(Eligibility):
    """A move type as the panel lists it: the rules' eligibility, and the modes a player may
    choose between (each with whether the rules would accept it now, and why not)."""

    modes: tuple[tuple[str, bool, str], ...] = ()
    flags: tuple[str, ...] = ()
    """Yes/no fields of ``select`` the rules accept with this move type now (``fly``)."""


@dataclass(frozen=True)
class NextChoice:
    """An option of the next ``next`` action (a field of its schema naming a unit, e.g. Insane
    Bravery for a unit that will take a battle-shock test): the field, the unit, and whether the
    rules would accept it now."""

    field: str
    unit: str
    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class StepPreview:
    """What ``next`` would do now: the units it rolls for, and the options it may take."""

    rolls: tuple[tuple[str, str], ...] = ()
    """``(unit, what)`` of every roll it would make."""
    choices: tuple[NextChoice, ...] = field(default_factory=tuple)
    removals: tuple[tuple[str, str], ...] = ()
    """``(unit, model)`` of every model it would remove for coherency (the end of a turn)."""
    remove_field: str | None = None
    """The field of ``next`` naming the models its players choose to remove instead, if any."""


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

    # -- the game's ruleset and its tools -------------------------------------------------
    def tools(self, state: GameState) -> tuple[str, ...]:
        """The names of the tools the game's ruleset builds moves with."""
        return tuple(rulesets.of(state).tools)

    def _models(self, state: GameState) -> ModelDragQueries | None:
        return rulesets.of(state).tools.get(MODEL_DRAG)

    def _blocks(self, state: GameState) -> BlockDragQueries | None:
        return rulesets.of(state).tools.get(BLOCK_DRAG)

    # -- actions --------------------------------------------------------------------------
    def apply(self, state: GameState, action: Mapping[str, Any]) -> Outcome:
        """Apply one action (``docs/actions.md``) and return what happened."""
        res = rulesets.apply_action(state, dict(action))
        return Outcome(state=res.state, ok=res.ok, reasons=tuple(res.reasons),
                       events=tuple(res.events), violations=tuple(res.violations))

    def would_roll(self, state: GameState, action: Mapping[str, Any]
                   ) -> list[tuple[str, str, int]]:
        """``(unit, purpose, dice)`` of the first roll ``action`` would make now for each unit
        (tried on the immutable state, so nothing is rolled; the rolls that follow from one,
        a flee roll after a failed rally, are left out, as naming them would tell its
        result); empty for an action that cannot roll (its schema has no ``dice``) or would be
        refused."""
        ruleset = rulesets.of(state)
        if "dice" not in ruleset.actions.get(str(action.get("do")), {}):
            return []
        res = ruleset.apply(state, dict(action))
        if not res.ok:
            return []
        first: dict[str, tuple[str, int]] = {}
        for e in res.events:
            if e.get("kind") == "roll" and isinstance(e.get("dice"), list):
                unit, what = str(e.get("unit") or ""), str(e.get("what", "roll"))
                if unit not in first:
                    first[unit] = (what, len(e["dice"]))
                elif first[unit][0] == what:  # the same roll in several events
                    first[unit] = (what, first[unit][1] + len(e["dice"]))
        return [(u, w, n) for u, (w, n) in first.items()]

    def display(self, state: GameState) -> GameState:
        """The board as drawn: models staged for a set-up shown where they were placed."""
        return rulesets.of(state).display(state)

    def eligibility(self, state: GameState, unit_id: str) -> list[MoveRow]:
        """Every move type of ``unit_id``, with the reason when it may not make it now, and for
        an eligible one with modes, each mode the rules would accept (tried as ``select``, pure;
        dice rolled by a try are thrown away with its state)."""
        ruleset = rulesets.of(state)
        modes = {t.name: t.modes for t in ruleset.move_types}
        flags = [name for name, f in ruleset.actions.get("select", {}).items()
                 if f.kind == "bool"]
        out = []
        for e in ruleset.eligibility(state, unit_id):
            tried: list[tuple[str, bool, str]] = []
            accepted: list[str] = []
            if e.ok:
                select = {"do": "select", "unit": unit_id, "move": e.move}
                for mode in modes.get(e.move, ()):
                    res = ruleset.preview(state, {**select, "mode": mode})
                    tried.append((mode, res.ok, "; ".join(res.reasons)))
                accepted = [f for f in flags if ruleset.preview(state, {**select, f: True}).ok]
            offered = tuple(tried) if sum(ok for _, ok, _ in tried) > 1 else ()
            out.append(MoveRow(e.move, e.title, e.key, e.ok, e.reason, offered, tuple(accepted)))
        return out

    def step_preview(self, state: GameState) -> StepPreview:
        """What ``next`` would do now (tried on the immutable state): the units it would roll
        for, and for each field of the ``next`` action that names a unit (Insane Bravery), the
        units it may name and why not the others."""
        ruleset = rulesets.of(state)
        schema = ruleset.actions.get("next", {})
        fields = [name for name, f in schema.items() if f.kind == "unit"]
        remove_field = next((name for name, f in schema.items() if f.kind == "models"), None)
        if state.battle.selection is not None:
            return StepPreview()
        plain = ruleset.apply(state, {"do": "next"})
        if not plain.ok:
            return StepPreview()
        # each unit's first roll only: a later one would tell the first's result (a flee roll
        # follows a failed rally)
        first: dict[str, str] = {}
        for e in plain.events:
            if e.get("kind") == "roll" and e.get("unit"):
                first.setdefault(str(e["unit"]), str(e.get("what", "roll")))
        rolls = tuple(first.items())
        choices = []
        for name in fields:
            for unit in dict.fromkeys(u for u, _ in rolls):
                res = ruleset.apply(state, {"do": "next", name: unit})
                choices.append(NextChoice(name, unit, res.ok, "; ".join(res.reasons)))
        return StepPreview(rolls, tuple(choices), coherency_removals(state, plain.events),
                           remove_field)

    def next_removals(self, state: GameState, action: Mapping[str, Any]
                      ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The models ``action`` (a ``next``) would remove for coherency, and why it would be
        refused (tried on the immutable state)."""
        res = rulesets.of(state).apply(state, dict(action))
        return coherency_removals(state, res.events), tuple(res.reasons)

    # -- the model-drag tool --------------------------------------------------------------
    def zone(self, state: GameState, model_id: str) -> Any:
        """The legal end zone of ``model_id`` for the selected move (``None`` without one)."""
        tool = self._models(state)
        return tool.zone(state, model_id) if tool is not None else None

    def unit_zone(self, state: GameState, model_id: str) -> Any:
        """The zone of ``model_id`` when its whole unit moves with it by one vector (the unit's
        other models no obstacle); its plain zone for a tool that does not say."""
        tool = self._models(state)
        if tool is None:
            return None
        fn = getattr(tool, "unit_zone", None)
        return fn(state, model_id) if fn is not None else tool.zone(state, model_id)

    def setup_zone(self, state: GameState, model_id: str) -> Any:
        """Where ``model_id`` may be set up (ingress, disembark), clear of models placed so far."""
        tool = self._models(state)
        return tool.setup_zone(state, model_id) if tool is not None else None

    def cap(self, state: GameState, model_id: str) -> float | None:
        """The whole allowance of ``model_id`` in the selected move, inches."""
        tool = self._models(state)
        return tool.cap(state, model_id) if tool is not None else None

    def warm(self, state: GameState) -> list[str]:
        """Models whose zone is worth computing ahead, while the window is idle."""
        tool = self._models(state)
        warm = getattr(tool, "warm", None) if tool is not None else None
        return list(warm(state)) if warm is not None else []

    def used(self, state: GameState, model_id: str) -> float:
        """Distance ``model_id`` has already moved in the staged actions of the selection."""
        tool = self._models(state)
        return tool.used(state, model_id) if tool is not None else 0.0

    def coherency(self, state: GameState, unit_id: str) -> list[Violation]:
        """Coherency problems of ``unit_id`` as it stands (violations with geometry)."""
        tool = self._models(state)
        return tool.coherency(state, unit_id) if tool is not None else []

    def end_violations(self, state: GameState, unit_id: str) -> list[Violation]:
        """What else a commit now would refuse about where the selected unit's models stand
        (besides coherency): a base turned onto terrain, off the battlefield..."""
        tool = self._models(state)
        return tool.end_violations(state, unit_id) if tool is not None else []

    # -- the block-drag tool (:class:`tabletop.view.blockdrag.BlockRules`) ------------------
    def block_geom(self, block: Block) -> BlockGeom:
        """The geometry of ``block`` as it stands."""
        return block.geom

    def block_start(self, state: GameState) -> BlockGeom | None:
        """The selected block as it stood when it was selected (the start of its move)."""
        tool = self._blocks(state)
        return tool.start(state) if tool is not None else None

    def block_ranges(self, state: GameState) -> BlockRanges:
        """Furthest legal straight move of the selected block per direction (a few ms)."""
        tool = self._blocks(state)
        return tool.ranges(state) if tool is not None else _NO_RANGES

    def block_wheel_range(self, state: GameState) -> tuple[float, float]:
        """``(lo, hi)`` legal wheel angles of the selected block (once per manoeuvre)."""
        tool = self._blocks(state)
        return tool.wheel_range(state) if tool is not None else (0.0, 0.0)

    def block_preview(self, state: GameState, action: Mapping[str, Any]) -> dict[str, Any]:
        """The rules' preview of one manoeuvre of the selected block (about 1 ms)."""
        tool = self._blocks(state)
        if tool is None:
            return {"ok": False, "reasons": ["no block is selected"], "geom": None,
                    "end_reasons": [], "outer_arc": 0.0}
        return tool.preview(state, dict(action))

    def block_end_reasons(self, state: GameState) -> list[str]:
        """Why the selected block could not end its move where it stands (the 1" rule)."""
        tool = self._blocks(state)
        return tool.end_reasons(state) if tool is not None else []

    def block_cap(self, state: GameState, kind: str) -> float:
        """The displacement cap of the selected block's move for a manoeuvre of ``kind``
        (``forward``, ``backward``, ``sideways``, ``reform``)."""
        tool = self._blocks(state)
        return tool.cap(state, kind) if tool is not None else 0.0

    def block_obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """What the block must end clear of, labelled (what the 1" rule measures to)."""
        tool = self._blocks(state)
        return tool.obstacles(state, unit_id) if tool is not None else []

    def block_can_reform(self, state: GameState) -> bool:
        """Whether the selected block may stage a reform now."""
        tool = self._blocks(state)
        return tool.can_reform(state) if tool is not None else False

    # -- threat ranges and safe ground (:class:`tabletop.rules.tools.ThreatQueries`) ---------
    def threat(self, state: GameState, unit_id: str) -> Threat:
        """Where ``unit_id`` could charge next turn; :class:`~tabletop.errors.UserError` saying
        why when the game's ruleset answers none."""
        return rulesets.threat_queries(state).threat(state, unit_id)

    def safe(self, state: GameState, unit_id: str, move: str, odds: Odds, *,
             roll: int | None = None, objective: int | None = None) -> SafeGround:
        """Where the models of ``unit_id`` may end ``move`` out of every enemy's charge."""
        return rulesets.threat_queries(state).safe(state, unit_id, move, odds, roll=roll,
                                                   objective=objective)



def coherency_removals(state: GameState, events: tuple[dict[str, Any], ...]
                       ) -> tuple[tuple[str, str], ...]:
    """``(unit, model)`` of the models ``events`` say were removed for coherency."""
    out = []
    for e in events:
        if e.get("kind") == "destroyed" and e.get("reason") == "coherency":
            mid = str(e.get("model"))
            try:
                out.append((state.model(mid)[0].id, mid))
            except KeyError:
                continue
    return tuple(out)

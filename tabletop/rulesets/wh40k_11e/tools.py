"""What the window's tools ask of wh40k-11e (no pygame): the model-drag tool and threat ranges.

Zones are computed once per pick-up (:mod:`.zones`); a model dragged again continues with what
is left of its allowance. Threat ranges and safe ground are :mod:`.threat`.
"""

from __future__ import annotations

import math
from dataclasses import replace

from tabletop.geometry.footprints import Round
from tabletop.rules.threat import Odds, SafeGround, Threat
from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import checks, zones
from tabletop.rulesets.wh40k_11e.flags import MOVING, SETTING_UP, flying
from tabletop.rulesets.wh40k_11e.movement import board, commit_check
from tabletop.rulesets.wh40k_11e.paths import move_cap
from tabletop.state import GameState, Unit

__all__ = ["ModelDrag", "Threats"]


class ModelDrag:
    """The model-drag queries (:class:`tabletop.rules.tools.ModelDragQueries`)."""

    def zone(self, state: GameState, model_id: str) -> zones.Zone | None:
        """The legal end zone of ``model_id`` for the selected move (``None`` without one)."""
        sel = state.battle.selection
        if sel is None or sel.move == "remain-stationary":
            return None
        if sel.move in SETTING_UP:
            return self.setup_zone(state, model_id)
        # dragging again continues with what is left: the zone from where the model stands,
        # with the distance already used taken off its move characteristic
        used = self.used(state, model_id)
        unit, model = state.model(model_id)
        if used > 0.0:
            left = max(unit.move_of(model) - used, 0.0)
            state = state.with_model(replace(model, M=left))
        return zones.legal_zone(state, model_id, sel.move, roll=sel.roll, mode=sel.mode,
                                fly=flying(unit))

    def unit_zone(self, state: GameState, model_id: str) -> zones.Zone | None:
        """The zone of ``model_id`` when its whole unit moves with it by one vector: the zone on
        the board without the unit's other models (they move too, so none stands where it
        stood; translated together, no two of them meet)."""
        unit, _ = state.model(model_id)
        if not isinstance(unit, Unit):
            return None
        alone = replace(unit, models=tuple(m if m.id == model_id else replace(m, at=None)
                                           for m in unit.models))
        return self.zone(state.with_unit(alone), model_id)

    def warm(self, state: GameState) -> list[str]:
        """The selected unit's models on a non-round base that have not moved yet in the
        selected move: their zones take tens to hundreds of milliseconds (a turning mover's
        layers) and :func:`~.zones.legal_zone` keeps them per state object;
        a round base's zone takes about 2 ms and is not kept, a model moved already gets a
        zone from a state of its own."""
        sel = state.battle.selection
        if sel is None or sel.move not in MOVING:
            return []
        unit = state.unit(sel.unit)
        if not isinstance(unit, Unit):
            return []
        return [m.id for m in unit.models if m.at is not None and not isinstance(m.base, Round)
                and self.used(state, m.id) == 0.0]

    def setup_zone(self, state: GameState, model_id: str) -> zones.Zone | None:
        """Where ``model_id`` may be set up (ingress, disembark), clear of models placed so far."""
        sel = state.battle.selection
        if sel is None:
            return None
        return zones.setup_zone(board(state), model_id, sel.move, mode=sel.mode)

    def group_zone(self, state: GameState, model_id: str, do: str) -> zones.Zone | None:
        """Where ``model_id`` may be set up by an ``emergency-disembark`` (the passengers of a
        destroyed transport, placed one by one: wholly within 6" of it, clear of the models
        placed so far); ``None`` for another action."""
        if do != "emergency-disembark":
            return None
        return zones.setup_zone(state, model_id, "disembark", mode="emergency")

    def cap(self, state: GameState, model_id: str) -> float | None:
        """The whole allowance of ``model_id`` in the selected move, inches."""
        sel = state.battle.selection
        if sel is None:
            return None
        unit, model = state.model(model_id)
        if sel.move not in MOVING:
            return None
        return move_cap(unit, model, sel.move, sel.roll, flying(unit))

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

    def coherency(self, state: GameState, unit_id: str) -> list[Violation]:
        """Coherency problems of ``unit_id`` as it stands (violations with geometry)."""
        unit = state.unit(unit_id)
        return checks.coherency_violations(unit) if isinstance(unit, Unit) else []

    def end_violations(self, state: GameState, unit_id: str) -> list[Violation]:
        """What else a commit now would refuse about where the selected unit stands: every
        condition of :func:`~tabletop.rulesets.wh40k_11e.movement.commit_check` but coherency
        (:meth:`coherency`) and the models not set up yet (the set-up is being built)."""
        sel = state.battle.selection
        if sel is None or sel.unit != unit_id:
            return []
        return [v for v in commit_check(state)
                if not v.rule.startswith("coherency") and v.rule != "unplaced"]


class Threats:
    """The threat queries (:class:`tabletop.rules.tools.ThreatQueries`), kept per board: the
    window asks the same unit again while nothing moves (a state is immutable, so the object
    and the unit name the answer). A few boards are kept."""

    SLOTS = 16

    def __init__(self) -> None:
        self._kept: dict[tuple[int, str, int], tuple[GameState, Threat]] = {}

    def threat(self, state: GameState, unit_id: str, *, max_roll: int = 12) -> Threat:
        """The threat of ``unit_id`` (:func:`~tabletop.rulesets.wh40k_11e.threat.unit_threat`)."""
        from tabletop.rulesets.wh40k_11e.threat import unit_threat

        key = (id(state), unit_id, max_roll)
        got = self._kept.get(key)
        if got is not None and got[0] is state:
            return got[1]
        th = unit_threat(state, unit_id, max_roll=max_roll)
        self._kept[key] = (state, th)
        while len(self._kept) > self.SLOTS:
            del self._kept[next(iter(self._kept))]
        return th

    def safe(self, state: GameState, unit_id: str, move: str, odds: Odds, *,
             model: str | None = None, roll: int | None = None, objective: int | None = None
             ) -> SafeGround:
        """Safe ground (:func:`~tabletop.rulesets.wh40k_11e.threat.safe_ground`)."""
        from tabletop.rulesets.wh40k_11e.threat import safe_ground

        return safe_ground(state, unit_id, move, odds, model=model, roll=roll,
                           objective=objective)

    def moves(self) -> tuple[str, ...]:
        """The move types safe ground answers for."""
        return MOVING

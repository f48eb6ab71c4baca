"""The interface every ruleset implements.

A ruleset is one object, registered by name in :mod:`tabletop.rulesets`. Like a python-chess
variant (a ``Board`` subclass overriding its hooks) or a Gymnasium environment (one ``Env.step``
API over many games), every ruleset answers the same questions, so the command line, the window
and scripts play any of them without knowing which:

- what its actions look like (:attr:`Ruleset.actions`, checked by :meth:`Ruleset.validate`);
- how its turn goes (:attr:`Ruleset.turn`, :attr:`Ruleset.steps`: the handler of each step
  that does something when it finishes, and the effects its data triggers may have);
- which move types a unit may make now (:meth:`Ruleset.eligibility`);
- what an action does (:meth:`Ruleset.apply`) and would do (:meth:`Ruleset.preview`);
- which tools the window offers to build a move (:attr:`Ruleset.tools`).

Its rulings are named constants of its own package (``docs/rulings.md``). States are immutable:
``apply`` returns a new state and never changes its input.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tabletop.errors import UserError, ident
from tabletop.rules.actions import ActionSchema, validate_action
from tabletop.rules.dice import Dice
from tabletop.rules.result import ActionResult, Refusal
from tabletop.rules.turns import (
    GENERIC_EFFECTS,
    DataEffect,
    StepHandler,
    Trigger,
    TriggerRegistry,
    TurnStructure,
    advance,
    data_trigger,
)
from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState, Unit
from tabletop.zones import MoveQuery

__all__ = ["Eligibility", "MoveType", "Preview", "Ruleset"]


@dataclass(frozen=True)
class MoveType:
    """A move type a unit may be selected for: its name in actions, its title, the key the
    window selects it with, the modes a ``select`` may name (the window offers each one the
    rules would accept now) and the options it may set true (wh40k-11e: ``"fly"``, for a unit
    that may take to the skies)."""

    name: str
    title: str
    key: str
    modes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Eligibility:
    """Whether a unit may make a move type now, and why not."""

    move: str
    title: str
    key: str
    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class Preview:
    """What an action would do, without doing it.

    ``ok`` and ``reasons``: whether the rules would accept it and why not; ``state``: the state
    after it (for a refused manoeuvre, where it would have put the unit, to draw a ghost);
    ``end``: why the moving unit could not end its move there (what a commit would refuse);
    ``violations``: the failed conditions with their geometry; ``info``: figures of the ruleset
    worth showing (t9a-2: the wheel's outer arc).
    """

    ok: bool
    reasons: tuple[str, ...]
    state: GameState
    end: tuple[str, ...] = ()
    violations: tuple[Violation, ...] = ()
    info: Mapping[str, Any] = field(default_factory=dict)


class Ruleset(ABC):
    """One ruleset: subclass it, set the class attributes, implement the hooks.

    Class attributes
    ----------------
    name : str
        What a scenario's ``ruleset`` key holds (``"wh40k-11e"``).
    title : str
        The game in words.
    turn : TurnStructure
        Its phases and steps in order.
    steps : mapping
        ``(phase, step) -> handler`` for the steps that do something when they finish.
    actions : ActionSchema
        The fields of each ``do`` (``next`` included).
    move_types : tuple of MoveType
        The move types a unit may be selected for, in the order the window lists them.
    terrain_kinds : tuple of str
        The terrain ``kind`` values its scenarios may use.
    unit_type : type
        The units of its games: :class:`~tabletop.state.Unit` (individually placed models) or
        :class:`~tabletop.state.Block` (rank-and-file blocks); with :attr:`terrain_kinds` it
        chooses the scenario model that reads its files.
    effects : mapping
        Effects its data triggers may have, with the keys each needs (the generic ones, plus its
        own).
    tools : mapping
        The window's tools for building a move (``tabletop.rules.tools``: ``"model-drag"``,
        ``"block-drag"``), each with the queries it needs of this ruleset.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    turn: ClassVar[TurnStructure]
    steps: ClassVar[Mapping[tuple[str, str], StepHandler]] = {}
    actions: ClassVar[ActionSchema]
    move_types: ClassVar[tuple[MoveType, ...]]
    terrain_kinds: ClassVar[tuple[str, ...]]
    unit_type: ClassVar[type[Unit] | type[Block]]
    effects: ClassVar[Mapping[str, tuple[DataEffect, tuple[str, ...]]]] = GENERIC_EFFECTS
    tools: Mapping[str, Any] = {}
    zones: ClassVar[str] = ""
    """What it answers where a legal zone or a path of one model is asked (``tabletop zone``,
    ``tabletop path``, :func:`tabletop.legal_zone`): empty when its models' zones are the zone
    engine's, else a sentence saying what it answers instead (quoted in the refusal)."""
    engagement_range: ClassVar[float | None] = None
    """How far from an enemy model's base a model is engaged, inches (drawn around the bases;
    ``None``: no such rule)."""
    crossing_keywords: ClassVar[tuple[str, ...]] = ()
    """Keywords whose models cross terrain that stops the others (what the layout survey picks
    a base's keywords from)."""
    big_keywords: ClassVar[tuple[str, ...]] = ()
    """Keywords whose models pass over smaller models."""
    command_points: ClassVar[bool] = False
    """Whether its players have Command points (the window shows them only then)."""
    program_triggers: ClassVar[tuple[Trigger, ...]] = ()
    """Rules the program itself attaches to points of the turn."""

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"

    # -- actions --------------------------------------------------------------------------
    def validate(self, state: GameState, action: Any, index: int = 0) -> None:
        """Raise :class:`~tabletop.errors.UserError` naming ``index`` and the field if
        ``action`` is malformed for this ruleset (ids checked against ``state``)."""
        validate_action(self.actions, state, action, index)

    def apply(self, state: GameState, action: Mapping[str, Any], *,
              triggers: TriggerRegistry | None = None) -> ActionResult:
        """Apply one well-formed action (see :meth:`validate`) and return what it did.

        ``next`` goes through :attr:`turn` (triggers, then the step's handler); every other
        action to :meth:`on_action`. A refused action returns the state unchanged, except
        what the rulings keep (dice stand).
        """
        if action["do"] == "next":
            return self.next(state, action, triggers)
        return self.on_action(state, action, triggers)

    @abstractmethod
    def on_action(self, state: GameState, action: Mapping[str, Any],
                  triggers: TriggerRegistry | None) -> ActionResult:
        """Apply a well-formed action other than ``next``."""

    def next(self, state: GameState, action: Mapping[str, Any],
             triggers: TriggerRegistry | None = None) -> ActionResult:
        """Finish the current step and go to the next one that stops."""
        sel = state.battle.selection
        if sel is not None:
            return ActionResult(state, False, (f"{ident(sel.unit)} is moving: commit or reset its "
                                               "move before going on",))
        dice = Dice(state, action.get("dice"))
        try:
            new, events = advance(state, action, dice, self.turn, self.steps,
                                  lambda st: self.triggers(st, triggers))
        except Refusal as r:
            return ActionResult(state, False, tuple(r.reasons), tuple(r.events),
                                tuple(r.violations))
        return ActionResult(dice.commit(new), True, (), tuple(events))

    def preview(self, state: GameState, action: Mapping[str, Any]) -> Preview:
        """What ``action`` would do now (the rules' answer while a player is still dragging)."""
        res = self.apply(state, action)
        return Preview(res.ok, res.reasons, res.state, violations=res.violations)

    # -- what the window lists ------------------------------------------------------------
    @abstractmethod
    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        """``(move, ok, reason)`` for each of :attr:`move_types`, in order."""

    def eligibility(self, state: GameState, unit_id: str) -> list[Eligibility]:
        """Every move type of ``unit_id``, with the reason when it may not make it now."""
        types = {t.name: t for t in self.move_types}
        return [Eligibility(move, types[move].title, types[move].key, ok, why)
                for move, ok, why in self.eligible_moves(state, unit_id)]

    def warnings(self, state: GameState) -> list[tuple[str, str]]:
        """``(unit id, message)`` for what is legal in a saved game but a trap (``tabletop
        check`` prints them and still accepts the file)."""
        return []

    def display(self, state: GameState) -> GameState:
        """The board as drawn and checked (a ruleset whose saved state keeps some models off the
        board until a move ends shows them where they were staged)."""
        return state

    # -- what it asks the zone engine ----------------------------------------------------------
    def move_query(self, state: GameState, model_id: str, move: str, **options: Any
                   ) -> MoveQuery:
        """The zone engine's query (:class:`tabletop.zones.MoveQuery`) for ``model_id`` making
        ``move`` on ``state`` (``options``: the ruleset's, such as an advance roll): how this
        ruleset asks for a legal zone. :class:`~tabletop.errors.UserError` with :attr:`zones`
        for a ruleset whose models have none."""
        raise UserError(f"{self.name} has no legal zone of a model: {self.zones}")

    def path_blockers(self, state: GameState, keywords: tuple[str, ...] | None
                      ) -> tuple[list[tuple[str, Any]], str]:
        """The terrain pieces (id, polygon) that stop a mover with ``keywords`` (``None``: one
        that crosses nothing the others cannot), and what they are in words (``tabletop fit``
        and the layout survey): impassable terrain, unless the ruleset says more."""
        return [(t.id, t.shape) for t in state.terrain if t.kind == "impassable"], \
            "impassable terrain"

    # -- triggers -------------------------------------------------------------------------
    def data_trigger(self, spec: Mapping[str, Any]) -> Trigger:
        """A trigger written as data (a scenario's ``[[triggers]]`` table, ``--triggers``)."""
        return data_trigger(spec, self.turn, self.effects)

    def trigger_registry(self, specs: Sequence[Mapping[str, Any]] = ()) -> TriggerRegistry:
        """A registry of user triggers reading points of this ruleset's turn."""
        return TriggerRegistry((self.data_trigger(s) for s in specs), structure=self.turn)

    def triggers(self, state: GameState, user: TriggerRegistry | None = None
                 ) -> list[Trigger]:
        """Every trigger in force: the program's, the scenario's, then the user's."""
        return [*self.program_triggers, *(self.data_trigger(s) for s in state.triggers),
                *(user or ())]

"""Turn structure as data, the registry of triggered rules, and going from step to step.

A ruleset describes its turn as a :class:`TurnStructure`: phases, each an ordered tuple of
:class:`Step`. A step may have ordered *parts* (the end of the wh40k Command phase resolves rules
other than mission rules first, then mission rules) and aliases (another name a rule may use for
it). Steps the product does not simulate are ``stop=False``: ``next`` passes through them,
resolving their triggers, without stopping.

Triggered rules ("at the start of the Movement phase", "at the end of the Command phase") attach to
a :class:`Point` and come from three places, resolved in this order at that point:

1. the program (the ruleset's own triggers);
2. the scenario (``triggers`` in the scenario's extra data: plain data, see :func:`data_trigger`);
3. the user (a :class:`TriggerRegistry` passed to ``apply_action``).

Nothing here knows a ruleset: a ruleset (:class:`tabletop.rules.ruleset.Ruleset`) gives its
structure, its step handlers and the effects its data triggers may have.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.errors import UserError, quote
from tabletop.rules.dice import Dice
from tabletop.state import GameState

__all__ = [
    "GENERIC_EFFECTS",
    "DataEffect",
    "Effect",
    "Phase",
    "Point",
    "Step",
    "StepHandler",
    "Trigger",
    "TriggerContext",
    "TriggerRegistry",
    "TurnStructure",
    "advance",
    "data_trigger",
    "next_turn",
    "parse_point",
    "resolve_point",
    "subject",
]


@dataclass(frozen=True)
class Step:
    """One step of a phase.

    ``name`` is what ``battle.step`` holds; ``parts`` are the ordered trigger points within the
    step (one unnamed part for most steps); ``stop=False`` steps are passed through by ``next``.
    """

    name: str
    title: str
    parts: tuple[str, ...] = ("",)
    stop: bool = True
    aliases: tuple[str, ...] = ()
    """Other names rules use for this step (e.g. the Reinforcements step of an older edition,
    resolved during Move Units): a trigger point may name the step by any of them."""


@dataclass(frozen=True)
class Phase:
    """A phase: its name (``battle.phase``), title and steps in order; ``simulated=False`` for a
    phase the ruleset passes through without playing it (the window names it as skipped)."""

    name: str
    title: str
    steps: tuple[Step, ...]
    simulated: bool = True

    def step(self, name: str | None) -> Step:
        """The step called ``name`` (``None``: the first step)."""
        if name is None:
            return self.steps[0]
        for s in self.steps:
            if s.name == name or name in s.aliases:
                return s
        raise UserError(f"the {self.title} has no step {quote(str(name))}; its steps are "
                        + ", ".join(s.name for s in self.steps))


@dataclass(frozen=True)
class TurnStructure:
    """The phases of one player's turn, in order, and the points that are not steps.

    ``events`` are trigger points that happen to a unit rather than at a step, written
    ``"subject.what.when"`` (e.g. ``"unit.move.start"``): the ruleset resolves them itself.
    """

    phases: tuple[Phase, ...]
    events: tuple[str, ...] = ()

    def phase(self, name: str) -> Phase:
        """The phase called ``name``."""
        for p in self.phases:
            if p.name == name:
                return p
        raise UserError(f"unknown phase {quote(str(name))}; phases are "
                        + ", ".join(p.name for p in self.phases))

    def after(self, phase: str, step: str | None) -> tuple[str, str] | None:
        """The ``(phase, step)`` following ``step`` of ``phase``; ``None`` after the last one."""
        ph = self.phase(phase)
        names = [s.name for s in ph.steps]
        i = names.index(ph.step(step).name)
        if i + 1 < len(names):
            return phase, names[i + 1]
        j = [p.name for p in self.phases].index(phase)
        if j + 1 < len(self.phases):
            nxt = self.phases[j + 1]
            return nxt.name, nxt.steps[0].name
        return None

    def first(self) -> tuple[str, str]:
        """The first ``(phase, step)`` of a turn."""
        return self.phases[0].name, self.phases[0].steps[0].name


# -- trigger points -------------------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    """Where a triggered rule is resolved: a step of a phase, and a part of that step."""

    phase: str
    step: str
    part: str = ""

    @property
    def key(self) -> str:
        """``phase.step`` or ``phase.step.part``, e.g. ``"command.end.mission"``."""
        return ".".join(x for x in (self.phase, self.step, self.part) if x)


_PHRASE = re.compile(r"^(?:at\s+)?(?:the\s+)?(start|end)\s+of\s+(?:the\s+)?(\w[\w-]*)\s+phase$",
                     re.IGNORECASE)


def parse_point(text: str, structure: TurnStructure) -> Point:
    """Read a trigger point of ``structure``: a key (``"movement.start"``,
    ``"command.end.mission"``), a phrase ("at the start of the Movement phase") or one of the
    structure's :attr:`~TurnStructure.events` (``"unit.move.end"``). A phrase about the end of a
    step with parts names its first part (the end of the Command phase: rules other than mission
    rules); a step named by an alias resolves to the step itself.
    """
    text = text.strip()
    if text in structure.events:
        subject, what, when = text.split(".")
        return Point(subject, what, when)
    m = _PHRASE.match(text)
    if m:
        phase = structure.phase(m.group(2).lower())
        step = phase.steps[0] if m.group(1).lower() == "start" else phase.steps[-1]
        return Point(phase.name, step.name, step.parts[0])
    bits = text.split(".")
    if len(bits) not in (2, 3):
        raise UserError(f"unknown trigger point {quote(str(text))}: write e.g. 'movement.start' or "
                        "'at the start of the Movement phase'"
                        + (" or one of " + ", ".join(structure.events) if structure.events
                           else ""))
    phase = structure.phase(bits[0])
    step = phase.step(bits[1])
    part = bits[2] if len(bits) == 3 else step.parts[0]
    if part not in step.parts:
        raise UserError(f"the step {step.title} has no part {quote(str(part))}")
    return Point(phase.name, step.name, part)


@dataclass
class TriggerContext:
    """What a triggered rule sees: the point, the dice of the action, and bookkeeping.

    ``rolled`` collects units that made a roll the current step allows once per unit (wh40k-11e:
    a battle-shock roll in the Battle-shock step, 08.03.01). ``unit`` is the unit a point about a
    unit concerns (a unit starting or ending a move), ``None`` at the points of the turn.
    """

    point: Point
    dice: Dice
    rolled: set[str] = field(default_factory=set)
    unit: str | None = None


Effect = Callable[[GameState, TriggerContext], tuple[GameState, list[dict[str, Any]]]]


@dataclass(frozen=True)
class Trigger:
    """A rule attached to a point; ``player``: only in that player's turns (``None``: all);
    ``unit``: at a point about a unit (:attr:`TurnStructure.events`), only for that unit."""

    at: str
    name: str
    effect: Effect
    player: str | None = None
    unit: str | None = None


class TriggerRegistry:
    """Rules attached to trigger points, kept in the order they were attached.

    ``structure`` reads points given as phrases or keys (:func:`parse_point`); without one,
    :meth:`attach` takes a :class:`Point` or an exact key.
    """

    def __init__(self, triggers: Iterable[Trigger] = (), *,
                 structure: TurnStructure | None = None) -> None:
        self._triggers: list[Trigger] = list(triggers)
        self.structure = structure

    def attach(self, at: str | Point, name: str, effect: Effect, *, player: str | None = None
               ) -> Trigger:
        """Attach ``effect`` at ``at`` (a point, key or phrase) and return the trigger."""
        if isinstance(at, Point):
            key = at.key
        elif self.structure is not None:
            key = parse_point(at, self.structure).key
        else:
            key = at
        trig = Trigger(key, name, effect, player)
        self._triggers.append(trig)
        return trig

    def detach(self, trigger: Trigger) -> None:
        """Remove a trigger attached before."""
        self._triggers.remove(trigger)

    def at(self, point: Point) -> list[Trigger]:
        """The triggers attached at ``point``, in order."""
        return [t for t in self._triggers if t.at == point.key]

    def __iter__(self) -> Iterator[Trigger]:
        return iter(self._triggers)

    def __len__(self) -> int:
        return len(self._triggers)


# -- data triggers (scenario / user files) ------------------------------------------------------

DataEffect = Callable[[GameState, TriggerContext, Mapping[str, Any]],
                      tuple[GameState, list[dict[str, Any]]]]
"""The effect of a data trigger: ``effect(state, ctx, spec) -> (state, events)``."""


def _gain_cp(state: GameState, ctx: TriggerContext, spec: Mapping[str, Any]
             ) -> tuple[GameState, list[dict[str, Any]]]:
    pid = str(spec["target"])
    amount = int(spec.get("amount", 1))
    p = state.player(pid)
    q = replace(p, cp=p.cp + amount)
    players = tuple(q if x.id == pid else x for x in state.players)
    return (replace(state, players=players),  # type: ignore[arg-type]
            [{"kind": "cp", "player": pid, "gained": amount, "cp": q.cp}])


def _flag(state: GameState, ctx: TriggerContext, spec: Mapping[str, Any]
          ) -> tuple[GameState, list[dict[str, Any]]]:
    u = state.unit(subject(spec, ctx))
    flag = str(spec["flag"])
    if flag not in u.flags:
        state = state.with_unit(replace(u, flags=(*u.flags, flag)))
    return state, [{"kind": "flag", "unit": u.id, "flag": flag}]


def _note(state: GameState, ctx: TriggerContext, spec: Mapping[str, Any]
          ) -> tuple[GameState, list[dict[str, Any]]]:
    return state, [{"kind": "note", "text": str(spec.get("text", ""))}]


GENERIC_EFFECTS: Mapping[str, tuple[DataEffect, tuple[str, ...]]] = {
    "gain-cp": (_gain_cp, ("target",)),
    "flag": (_flag, ("unit", "flag")),
    "note": (_note, ("text",)),
}
"""Effects any ruleset's data triggers may have, with the keys each needs besides ``at`` and
``effect``: ``gain-cp`` (``target`` player, ``amount``, default 1), ``flag`` (``unit``,
``flag``: an effect until the end of the turn), ``note`` (``text``: an event only)."""


def data_trigger(spec: Mapping[str, Any], structure: TurnStructure,
                 effects: Mapping[str, tuple[DataEffect, tuple[str, ...]]]) -> Trigger:
    """A trigger from plain data, as a scenario's ``triggers`` list holds them.

    Keys: ``at`` (point key or phrase of ``structure``), ``name``, optional ``player`` (only in
    that player's turns), ``effect`` (a key of ``effects``) and that effect's arguments. At a
    point about a unit (``"unit.move.end"``) an effect's ``unit`` may be left out (the unit the
    point concerns); given, the trigger fires for that unit only.
    """
    try:
        at = parse_point(str(spec["at"]), structure)
        kind = str(spec["effect"])
    except KeyError as exc:
        raise UserError(f"a trigger needs {quote(str(exc.args[0]))}") from None
    name = str(spec.get("name", kind))
    if kind not in effects:
        raise UserError(f"trigger {quote(str(name))}: unknown effect {quote(str(kind))}; one of "
                        + ", ".join(effects))
    fn = effects[kind][0]
    args = dict(spec)

    def effect(state: GameState, ctx: TriggerContext) -> tuple[GameState, list[dict[str, Any]]]:
        state, ev = fn(state, ctx, args)
        return state, [{"kind": "trigger", "name": name, "at": at.key}, *ev]

    about_unit = at.key in structure.events
    return Trigger(at.key, name, effect, spec.get("player"),
                   spec.get("unit") if about_unit else None)


def subject(spec: Mapping[str, Any], ctx: TriggerContext) -> str:
    """The unit a data effect acts on: its ``unit``, or the unit the point concerns."""
    unit = spec.get("unit", ctx.unit)
    if unit is None:
        raise UserError(f"the effect {quote(str(spec.get('effect')))} at {ctx.point.key} needs "
                        "a unit")
    return str(unit)


def resolve_point(state: GameState, point: Point, ctx: TriggerContext,
                  triggers: Sequence[Trigger]) -> tuple[GameState, list[dict[str, Any]]]:
    """Resolve every trigger of ``triggers`` attached at ``point``, in order."""
    events: list[dict[str, Any]] = []
    for trig in triggers:
        if trig.at != point.key:
            continue
        if trig.player is not None and trig.player != state.battle.active_player:
            continue
        if trig.unit is not None and trig.unit != ctx.unit:
            continue
        ctx.point = point
        state, ev = trig.effect(state, ctx)
        events += ev
    return state, events


# -- going from step to step --------------------------------------------------------------------

StepHandler = Callable[[GameState, TriggerContext, Mapping[str, Any]],
                       tuple[GameState, list[dict[str, Any]]]]
"""What a ruleset does when a step finishes (after the step's triggers); may raise Refusal."""


def next_turn(state: GameState) -> GameState:
    """The state at the start of the next player's turn.

    The turn passes to the other player; the battle round goes up when it passes back to the
    player listed first in the scenario (who therefore takes the first turn of each round).
    """
    first, second = state.players
    b = state.battle
    if b.active_player == first.id:
        battle = replace(b, active_player=second.id)
    else:
        battle = replace(b, active_player=first.id, round=b.round + 1)
    return replace(state, battle=battle)


def advance(state: GameState, action: Mapping[str, Any], dice: Dice, structure: TurnStructure,
            handlers: Mapping[tuple[str, str], StepHandler],
            triggers: Callable[[GameState], Sequence[Trigger]]
            ) -> tuple[GameState, list[dict[str, Any]]]:
    """``next``: finish the current step and go to the next one that stops.

    Finishing a step resolves its triggers part by part (``triggers(state)``: program, scenario,
    user, in order), then the ruleset's handler for the step. Steps with ``stop=False`` are
    finished on the way. After the last step of the turn, the next player's turn starts.
    """
    events: list[dict[str, Any]] = []
    phase = state.battle.phase
    step = structure.phase(phase).step(state.battle.step).name
    while True:
        st = structure.phase(phase).step(step)
        ctx = TriggerContext(Point(phase, step, st.parts[0]), dice)
        for part in st.parts:
            state, ev = resolve_point(state, Point(phase, step, part), ctx, triggers(state))
            events += ev
        handler = handlers.get((phase, step))
        if handler is not None:
            state, ev = handler(state, ctx, action)
            events += ev
        nxt = structure.after(phase, step)
        if nxt is None:
            state = next_turn(state)
            phase, step = structure.first()
            events.append({"kind": "turn", "round": state.battle.round,
                           "active_player": state.battle.active_player})
        else:
            phase, step = nxt
        rolls = state.battle.rolls if phase == state.battle.phase else ()  # they stand a phase
        state = replace(state, battle=replace(state.battle, phase=phase, step=step, rolls=rolls))
        if structure.phase(phase).step(step).stop:
            events.append({"kind": "step", "phase": phase, "step": step})
            return state, events

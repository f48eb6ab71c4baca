"""Turn structure as data, and the registry of triggered rules.

A ruleset describes its turn as a :class:`TurnStructure`: phases, each an ordered tuple of
:class:`Step`. A step may have ordered *parts* (the end of the wh40k Command phase resolves rules
other than mission rules first, then mission rules). Steps the product does not simulate are
``stop=False``: ``next`` passes through them, resolving their triggers, without stopping.

Triggered rules ("at the start of the Movement phase", "at the end of the Command phase") attach to
a :class:`Point` and come from three places, resolved in this order at that point:

1. the program (:data:`PROGRAM_TRIGGERS`, Python callables registered by rule modules);
2. the scenario (``triggers`` in the scenario's extra data: plain data, see :func:`data_trigger`);
3. the user (a :class:`TriggerRegistry` passed to :func:`tabletop.rules.actions.apply_action`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.errors import UserError
from tabletop.rules.dice import Dice, roll
from tabletop.state import WH40K, GameState, Unit

__all__ = [
    "PROGRAM_TRIGGERS",
    "STRUCTURES",
    "WH40K_TURN",
    "Phase",
    "Point",
    "Step",
    "Trigger",
    "TriggerContext",
    "TriggerRegistry",
    "TurnStructure",
    "data_trigger",
    "parse_point",
    "register_structure",
    "resolve_point",
    "scenario_triggers",
    "structure_for",
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


@dataclass(frozen=True)
class Phase:
    """A phase: its name (``battle.phase``), title and steps in order."""

    name: str
    title: str
    steps: tuple[Step, ...]

    def step(self, name: str | None) -> Step:
        """The step called ``name`` (``None``: the first step)."""
        if name is None:
            return self.steps[0]
        for s in self.steps:
            if s.name == name:
                return s
        raise UserError(f"the {self.title} has no step {name!r}")


@dataclass(frozen=True)
class TurnStructure:
    """The phases of one player's turn, in order."""

    phases: tuple[Phase, ...]

    def phase(self, name: str) -> Phase:
        """The phase called ``name``."""
        for p in self.phases:
            if p.name == name:
                return p
        raise UserError(f"unknown phase {name!r}; phases are "
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


WH40K_TURN = TurnStructure((
    Phase("command", "Command phase", (
        Step("start", "Start of Command phase"),
        Step("gain-core-cp", "Gain Core CP"),
        Step("battle-shock", "Battle-shock"),
        Step("command-abilities", "Command abilities"),
        Step("end", "End of Command phase", parts=("rules", "mission")),
    )),
    Phase("movement", "Movement phase", (
        Step("start", "Start of Movement phase"),
        Step("move-units", "Move units"),
        Step("end", "End of Movement phase"),
    )),
    Phase("shooting", "Shooting phase", (Step("shooting", "Shooting phase", stop=False),)),
    Phase("charge", "Charge phase", (Step("charge", "Charge phase", stop=False),)),
    Phase("fight", "Fight phase", (Step("fight", "Fight phase", stop=False),)),
    Phase("end-of-turn", "End of turn", (Step("end-of-turn", "End of turn", stop=False),)),
))
"""wh40k-11e: seeds 004 (Command phase, 08.01-08.05) and 000 (Movement phase, 09.01-09.03)."""

STRUCTURES: dict[str, TurnStructure] = {WH40K: WH40K_TURN}
"""Turn structure per ruleset; a ruleset registers its own with :func:`register_structure`."""


def register_structure(ruleset: str, structure: TurnStructure) -> None:
    """Make ``structure`` the turn structure of ``ruleset``."""
    STRUCTURES[ruleset] = structure


def structure_for(ruleset: str) -> TurnStructure:
    """The turn structure of ``ruleset``."""
    try:
        return STRUCTURES[ruleset]
    except KeyError:
        raise UserError(f"no turn structure for ruleset {ruleset!r}") from None


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


def parse_point(text: str, structure: TurnStructure = WH40K_TURN) -> Point:
    """Read a trigger point: a key (``"movement.start"``, ``"command.end.mission"``) or a phrase
    ("at the start of the Movement phase"). A phrase about the end of a step with parts names its
    first part (the end of the Command phase: rules other than mission rules).

    Examples
    --------
    >>> parse_point("at the end of the Command phase").key
    'command.end.rules'
    >>> parse_point("movement.move-units").key
    'movement.move-units'
    """
    m = _PHRASE.match(text.strip())
    if m:
        phase = structure.phase(m.group(2).lower())
        step = phase.steps[0] if m.group(1).lower() == "start" else phase.steps[-1]
        return Point(phase.name, step.name, step.parts[0])
    bits = text.strip().split(".")
    if len(bits) not in (2, 3):
        raise UserError(f"unknown trigger point {text!r}: write e.g. 'movement.start' or "
                        "'at the start of the Movement phase'")
    phase = structure.phase(bits[0])
    step = phase.step(bits[1])
    part = bits[2] if len(bits) == 3 else step.parts[0]
    if part not in step.parts:
        raise UserError(f"the step {step.title} has no part {part!r}")
    return Point(phase.name, step.name, part)


@dataclass
class TriggerContext:
    """What a triggered rule sees: the point, the dice of the action, and bookkeeping.

    ``rolled`` collects units that made a battle-shock roll in the current Battle-shock step
    (08.03.01: at most one roll per unit in that step).
    """

    point: Point
    dice: Dice
    rolled: set[str] = field(default_factory=set)


Effect = Callable[[GameState, TriggerContext], tuple[GameState, list[dict[str, Any]]]]


@dataclass(frozen=True)
class Trigger:
    """A rule attached to a point; ``player``: only in that player's turns (``None``: all)."""

    at: str
    name: str
    effect: Effect
    player: str | None = None


class TriggerRegistry:
    """Rules attached to trigger points, kept in the order they were attached."""

    def __init__(self, triggers: Iterable[Trigger] = ()) -> None:
        self._triggers: list[Trigger] = list(triggers)

    def attach(self, at: str | Point, name: str, effect: Effect, *, player: str | None = None
               ) -> Trigger:
        """Attach ``effect`` at ``at`` (a point, key or phrase) and return the trigger."""
        key = at.key if isinstance(at, Point) else parse_point(at).key
        trig = Trigger(key, name, effect, player)
        self._triggers.append(trig)
        return trig

    def detach(self, trigger: Trigger) -> None:
        """Remove a trigger attached before."""
        self._triggers.remove(trigger)

    def at(self, point: Point) -> list[Trigger]:
        """The triggers attached at ``point``, in order."""
        return [t for t in self._triggers if t.at == point.key]

    def __len__(self) -> int:
        return len(self._triggers)


PROGRAM_TRIGGERS = TriggerRegistry()
"""Rules attached by the program itself."""


# -- data triggers (scenario / user files) ------------------------------------------------------

DATA_EFFECTS = ("gain-cp", "battle-shock-roll", "flag", "note")
"""Effects a trigger written as data may have."""


def data_trigger(spec: Mapping[str, Any], structure: TurnStructure = WH40K_TURN) -> Trigger:
    """A trigger from plain data, as a scenario's ``triggers`` list holds them.

    Keys: ``at`` (point key or phrase), ``name``, optional ``player`` (only in that player's turns),
    ``effect`` one of :data:`DATA_EFFECTS` with its arguments:

    - ``gain-cp``: ``target`` (player id), ``amount`` (int, default 1);
    - ``battle-shock-roll``: ``unit`` (a battle-shock roll for that unit, counting as its one roll
      if made in the Battle-shock step, 08.03.01);
    - ``flag``: ``unit``, ``flag`` (an effect until the end of the turn);
    - ``note``: ``text`` (an event only).
    """
    try:
        at = parse_point(str(spec["at"]), structure)
        kind = str(spec["effect"])
    except KeyError as exc:
        raise UserError(f"a trigger needs {exc.args[0]!r}") from None
    name = str(spec.get("name", kind))
    if kind not in DATA_EFFECTS:
        raise UserError(f"trigger {name!r}: unknown effect {kind!r}; one of "
                        + ", ".join(DATA_EFFECTS))
    args = dict(spec)

    def effect(state: GameState, ctx: TriggerContext) -> tuple[GameState, list[dict[str, Any]]]:
        ev: list[dict[str, Any]] = [{"kind": "trigger", "name": name, "at": at.key}]
        if kind == "gain-cp":
            pid = str(args["target"])
            amount = int(args.get("amount", 1))
            p = state.player(pid)
            np_ = replace(p, cp=p.cp + amount)
            state = replace(state, players=tuple(np_ if q.id == pid else q
                                                 for q in state.players))  # type: ignore[arg-type]
            ev.append({"kind": "cp", "player": pid, "gained": amount, "cp": np_.cp})
        elif kind == "battle-shock-roll":
            state, more = battle_shock_roll(state, str(args["unit"]), ctx)
            ev += more
        elif kind == "flag":
            u = state.unit(str(args["unit"]))
            flag = str(args["flag"])
            if flag not in u.flags:
                state = state.with_unit(replace(u, flags=(*u.flags, flag)))
            ev.append({"kind": "flag", "unit": u.id, "flag": flag})
        else:
            ev.append({"kind": "note", "text": str(args.get("text", ""))})
        return state, ev

    return Trigger(at.key, name, effect, spec.get("player"))


def scenario_triggers(state: GameState) -> list[Trigger]:
    """The data triggers the scenario carries (its ``[[triggers]]`` tables)."""
    structure = STRUCTURES.get(state.ruleset, WH40K_TURN)
    return [data_trigger(s, structure) for s in state.triggers]


def resolve_point(state: GameState, point: Point, ctx: TriggerContext,
                  user: TriggerRegistry | None = None) -> tuple[GameState, list[dict[str, Any]]]:
    """Resolve every trigger at ``point``: program, then scenario, then user triggers."""
    events: list[dict[str, Any]] = []
    found = [*PROGRAM_TRIGGERS.at(point),
             *[t for t in scenario_triggers(state) if t.at == point.key],
             *(user.at(point) if user else [])]
    for trig in found:
        if trig.player is not None and trig.player != state.battle.active_player:
            continue
        ctx.point = point
        state, ev = trig.effect(state, ctx)
        events += ev
    return state, events


# -- battle-shock roll (01.07), needed by triggers and by the Command phase -----------------------

def best_ld(unit: Unit) -> int:
    """The unit's leadership target (the best, i.e. lowest, of its models' Ld; one Ld per unit)."""
    return unit.Ld


def battle_shock_roll(state: GameState, unit_id: str, ctx: TriggerContext, *,
                      auto_pass: bool = False) -> tuple[GameState, list[dict[str, Any]]]:
    """One battle-shock roll (2D6 >= Ld) for ``unit_id``.

    In the Battle-shock step (``ctx.point`` is ``command.battle-shock``) a unit that was
    battle-shocked and passes recovers; everywhere else a pass changes nothing. A failure makes
    the unit battle-shocked. ``auto_pass``: the roll succeeds without dice (Insane Bravery).
    """
    unit = state.unit(unit_id)
    assert isinstance(unit, Unit)
    ld = best_ld(unit)
    if auto_pass:
        dice: list[int] = []
        passed = True
        events: list[dict[str, Any]] = []
    else:
        dice, ev = roll(ctx.dice, 2, "battle-shock", unit_id)
        passed = sum(dice) >= ld
        events = [ev]
    in_step = ctx.point.phase == "command" and ctx.point.step == "battle-shock"
    if in_step:
        ctx.rolled.add(unit_id)
    was = unit.battle_shocked
    now = (False if in_step else was) if passed else True
    events.append({"kind": "battle-shock", "unit": unit_id, "dice": dice, "Ld": ld,
                   "passed": passed, "battle_shocked": now,
                   **({"auto": "insane-bravery"} if auto_pass else {})})
    if now != was:
        state = state.with_unit(replace(unit, battle_shocked=now))
    return state, events


# -- going from step to step --------------------------------------------------------------------

StepHandler = Callable[[GameState, TriggerContext, Mapping[str, Any]],
                       tuple[GameState, list[dict[str, Any]]]]
"""What a ruleset does when a step finishes (after the step's triggers); may raise Refusal."""

STEP_HANDLERS: dict[str, dict[tuple[str, str], StepHandler]] = {}
"""Per ruleset, the handler of each ``(phase, step)`` that does something of its own."""


def register_steps(ruleset: str, handlers: Mapping[tuple[str, str], StepHandler]) -> None:
    """Attach a ruleset's step handlers (keys ``(phase, step)``)."""
    STEP_HANDLERS.setdefault(ruleset, {}).update(handlers)


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


def advance(state: GameState, action: Mapping[str, Any], dice: Dice,
            user: TriggerRegistry | None = None) -> tuple[GameState, list[dict[str, Any]]]:
    """``next``: finish the current step and go to the next one that stops.

    Finishing a step resolves its triggers part by part (program, scenario, user), then the
    ruleset's handler for the step. Steps with ``stop=False`` are finished on the way. After the
    last step of the turn, the next player's turn starts.
    """
    structure = structure_for(state.ruleset)
    handlers = STEP_HANDLERS.get(state.ruleset, {})
    events: list[dict[str, Any]] = []
    phase = state.battle.phase
    step = structure.phase(phase).step(state.battle.step).name
    while True:
        st = structure.phase(phase).step(step)
        ctx = TriggerContext(Point(phase, step, st.parts[0]), dice)
        for part in st.parts:
            state, ev = resolve_point(state, Point(phase, step, part), ctx, user)
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
        state = replace(state, battle=replace(state.battle, phase=phase, step=step))
        if structure.phase(phase).step(step).stop:
            events.append({"kind": "step", "phase": phase, "step": step})
            return state, events

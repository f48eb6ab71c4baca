"""Where the turn stands, as the window says it: what Space does next, which units have not
moved yet, unit names in messages. No pygame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tabletop import rulesets
from tabletop.errors import UserError
from tabletop.rules.ruleset import MoveType
from tabletop.state import GameState

__all__ = ["PhaseChip", "mode_title", "move_title", "move_types", "moving_title", "named",
           "next_label", "pending_units", "phase_bar", "phase_title", "player_name", "shows_cp",
           "skipped_phases", "step_name", "unit_label", "where"]

def shows_cp(state: GameState) -> bool:
    """Whether the game's ruleset has Command points."""
    return rulesets.of(state).command_points


def phase_title(state: GameState) -> str:
    """The current phase in words (``Movement phase``)."""
    try:
        return rulesets.of(state).turn.phase(state.battle.phase).title
    except UserError:  # a phase the ruleset does not know: say its name
        return f"{state.battle.phase.replace('-', ' ').capitalize()} phase"


def _step_title(state: GameState) -> tuple[str, bool]:
    """The current step's title and whether it is the first step of its phase."""
    b = state.battle
    try:
        phase = rulesets.of(state).turn.phase(b.phase)
        here = phase.step(b.step)
    except UserError:
        return phase_title(state), True
    return here.title, here.name == phase.steps[0].name


@dataclass(frozen=True)
class PhaseChip:
    """A phase on the turn bar: its short title, whether the ruleset plays it, whether the
    turn stands in it."""

    title: str
    simulated: bool
    current: bool


def phase_bar(state: GameState) -> tuple[PhaseChip, ...]:
    """The phases of a player's turn in order, as the turn bar shows them (``Movement`` for
    ``Movement phase``), the one the turn stands in marked, those not simulated said so."""
    phases = rulesets.of(state).turn.phases
    return tuple(PhaseChip(p.title.removesuffix(" phase"), p.simulated,
                           p.name == state.battle.phase) for p in phases)


def skipped_phases(before: GameState, after: GameState) -> list[str]:
    """The phases ``next`` went through from ``before`` to ``after`` without playing them (the
    ruleset does not simulate them), in turn order: ``["Shooting phase", ...]``."""
    phases = rulesets.of(before).turn.phases
    names = [p.name for p in phases]
    b, a = before.battle, after.battle
    if b.phase not in names or a.phase not in names or (b.phase, b.round, b.active_player) == (
            a.phase, a.round, a.active_player):
        return []
    out = []
    i = names.index(b.phase)
    for _ in range(len(names)):
        i = (i + 1) % len(names)
        if names[i] == a.phase:
            break
        if not phases[i].simulated:
            out.append(phases[i].title)
    return out


def step_name(state: GameState) -> str:
    """The current step in words (``Move units``)."""
    return _step_title(state)[0]


def where(state: GameState) -> str:
    """Where the turn stands, as the panel's heading says it: ``round 2 · Movement phase ·
    Move units · Red to play`` (a step titled as its phase once)."""
    b = state.battle
    phase = phase_title(state)
    step = step_name(state) if b.step else ""
    parts = [f"round {b.round}", phase, *([step] if step and step != phase else []),
             f"{player_name(state, b.active_player)} to play"]
    return " · ".join(parts)


def move_types(state: GameState) -> tuple[MoveType, ...]:
    """The game's move types, in the order the panel lists them."""
    return tuple(rulesets.of(state).move_types)


def move_title(state: GameState, move: str) -> str:
    """A move type by the title the panel lists it with (``fall-back``: ``Fall back``)."""
    for t in move_types(state):
        if t.name == move:
            return t.title
    return mode_title(move)


def mode_title(mode: str) -> str:
    """A mode of a move in words (``desperate-escape``: ``Desperate escape``)."""
    return mode.replace("-", " ").capitalize()


def moving_title(state: GameState, move: str, mode: object = None) -> str:
    """A move and its mode in words: ``Fall back (desperate escape)``, ``Normal move``,
    ``Ingress (from reserves), strategic reserves``."""
    title = move_title(state, move)
    if not mode:
        return title
    how = mode_title(str(mode)).lower()
    return f"{title}, {how}" if title.endswith(")") else f"{title} ({how})"


def player_name(state: GameState, player_id: str) -> str:
    """The player's name (its id when it has none)."""
    try:
        p = state.player(player_id)
    except KeyError:
        return player_id
    return p.name or p.id


def unit_label(state: GameState, unit_id: str) -> str:
    """The unit's name (its id when it has none)."""
    try:
        u = state.unit(unit_id)
    except KeyError:
        return unit_id
    return u.name or u.id


def next_label(state: GameState) -> str:
    """What the next-step button (Space) does now: ``Start the Movement phase``, ``End Move
    units``..."""
    title, first = _step_title(state)
    if first:
        return f"Start the {phase_title(state)}"
    return f"End {title}" if not title.lower().startswith("end") else f"Finish: {title}"


def pending_units(state: GameState) -> list[str]:
    """Units of the active player that may still be selected for a move now (the rules' own
    eligibility: empty outside the step units move in): ending the step leaves them unmoved."""
    if state.battle.selection is not None:
        return []
    ruleset = rulesets.of(state)
    me = state.battle.active_player
    return [u.id for u in state.units if u.player == me
            and any(ok for _, ok, _ in ruleset.eligible_moves(state, u.id))]


@lru_cache(maxsize=64)
def _pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    alts = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alts})(?![\w-])")


def named(state: GameState, text: str) -> str:
    """``text`` (a rule's reason) with unit ids replaced by unit names (model ids stay: they are
    the only names models have); a name already in the text stays as it is (a unit ``squad``
    named ``Tactical squad`` is not renamed inside its own name)."""
    names = {u.id: u.name for u in state.units if u.name and u.name != u.id}
    if not names or not text:
        return text
    keep = {n for n in names.values() if n not in names}
    return _pattern(tuple(names) + tuple(sorted(keep))).sub(
        lambda m: names.get(m.group(1), m.group(1)) if m.group(1) not in keep else m.group(1),
        text)

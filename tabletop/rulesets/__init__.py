"""The registry of rulesets, and playing actions with the ruleset of a game.

Every ruleset is a :class:`~tabletop.rules.ruleset.Ruleset` object in its own package
(``tabletop/rulesets/<name>/``), registered below by its name. Nothing outside those packages
names a ruleset: the command line, the window and the scenario files ask :func:`of` (the ruleset
of a game) or :func:`get` (by name).

Adding a ruleset: a new package ``tabletop/rulesets/<name>/`` whose ``RULESET`` is an instance
of a :class:`~tabletop.rules.ruleset.Ruleset` subclass, and one line in :data:`REGISTRY`.

>>> from tabletop import rulesets
>>> rulesets.names()
('wh40k-11e', 't9a-2')
>>> rulesets.get("t9a-2").title
'The 9th Age, 2nd edition'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from tabletop.errors import UserError, quote
from tabletop.rules.actions import Losses
from tabletop.rules.result import ActionResult
from tabletop.rules.ruleset import Ruleset
from tabletop.rules.tools import THREAT, ThreatQueries
from tabletop.rules.turns import TriggerRegistry
from tabletop.rulesets import t9a_2, wh40k_11e
from tabletop.state import GameState

__all__ = ["REGISTRY", "Ruleset", "apply_action", "apply_actions", "get", "names", "of",
           "threat_queries"]

REGISTRY: Mapping[str, Ruleset] = MappingProxyType({r.name: r for r in (
    wh40k_11e.RULESET,
    t9a_2.RULESET,
)})
"""Every ruleset by name."""


def names() -> tuple[str, ...]:
    """The names of the registered rulesets, in registry order."""
    return tuple(REGISTRY)


def get(name: str) -> Ruleset:
    """The ruleset called ``name``; :class:`~tabletop.errors.UserError` naming the known ones."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise UserError(f"unknown ruleset {quote(str(name))}; one of "
                        + ", ".join(REGISTRY)) from None


def of(state: GameState) -> Ruleset:
    """The ruleset of the game ``state``."""
    return get(state.ruleset)


def threat_queries(state: GameState) -> ThreatQueries:
    """The threat ranges and safe ground of the game's ruleset (its ``"threat"`` tool);
    :class:`~tabletop.errors.UserError` when it offers none (a ruleset that offers one and
    does not answer says why when asked)."""
    tool: ThreatQueries | None = of(state).tools.get(THREAT)
    if tool is None:
        raise UserError(f"the ruleset {quote(state.ruleset)} answers no threat ranges")
    return tool


def apply_action(state: GameState, action: Mapping[str, Any], *,
                 triggers: TriggerRegistry | None = None, index: int = 0) -> ActionResult:
    """Apply one action (``docs/actions.md``) with the ruleset of ``state``.

    A malformed action raises :class:`~tabletop.errors.UserError` naming ``index`` and the field;
    a refusal by the rules is a result with ``ok`` false. ``triggers``: the user's own triggered
    rules.
    """
    ruleset = of(state)
    ruleset.validate(state, action, index)
    return ruleset.apply(state, action, triggers=triggers)


def apply_actions(state: GameState, actions: Sequence[Any], *,
                  triggers: TriggerRegistry | None = None
                  ) -> tuple[GameState, list[ActionResult]]:
    """Apply ``actions`` in order; a refused action leaves the state as it was for the next one.

    Every action is checked for form once, against the initial state, so a malformed file
    changes nothing (rulings: forms are checked against the state the action file starts from).
    An action naming a unit or model destroyed by an earlier action is refused with the reason
    ("sq5 was destroyed by a hazard roll (desperate escape) in action 1"); later actions still run.
    """
    if not isinstance(actions, list | tuple):
        raise UserError("an action file must hold a JSON array of actions")
    ruleset = of(state)
    for i, a in enumerate(actions):
        ruleset.validate(state, a, i)
    losses = Losses()
    results = []
    for i, a in enumerate(actions):
        gone = losses.refusal(ruleset.actions, state, a)
        res = (ActionResult(state, False, gone) if gone
               else ruleset.apply(state, a, triggers=triggers))
        losses.record(state, res.events, i)
        results.append(res)
        state = res.state
    return state, results

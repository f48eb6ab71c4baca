"""Warnings about a valid scenario: what the ruleset calls legal to save but a trap.

``tabletop check`` prints one ``warning:`` line per warning of the game's ruleset
(:meth:`tabletop.rules.ruleset.Ruleset.warnings`; wh40k-11e: units on the battlefield out of
coherency, naming the models, the distances and how many models the end of the turn would remove)
and still exits 0.
"""

from __future__ import annotations

from tabletop import rulesets
from tabletop.scenario.checks import Problem
from tabletop.state import GameState

__all__ = ["coherency_warnings"]


def coherency_warnings(state: GameState) -> list[Problem]:
    """``(path, message)`` for every warning of the game's ruleset about ``state``."""
    where = {u.id: f"units[{i}]" for i, u in enumerate(state.units)}
    return [(where.get(uid, ""), message) for uid, message in rulesets.of(state).warnings(state)]

"""Warnings about a valid scenario: units on the battlefield out of coherency.

A unit out of coherency is a legal file (a game may be saved like that) but a trap: at the end of
the turn the rules remove its models one at a time until it is in coherency again
(:func:`tabletop.rulesets.wh40k_11e.movement.restore_coherency`). ``tabletop check`` prints one
``warning:`` line per such unit, naming the models, the distances and how many models the end of
the turn would remove, and still exits 0.

The unit being moved (``battle.selection``) is left out: it may stand out of coherency in the
middle of its move, and its commit checks it.
"""

from __future__ import annotations

from tabletop.rulesets.wh40k_11e import movement as wh40k
from tabletop.rulesets.wh40k_11e.checks import coherency_violations, fmt
from tabletop.scenario.checks import Problem
from tabletop.state import GameState, Unit

__all__ = ["SHOWN_PAIRS", "coherency_warnings"]

SHOWN_PAIRS = 3
"""How many offending pairs one warning line names (the farthest first); the rest are counted."""


def coherency_warnings(state: GameState) -> list[Problem]:
    """``(path, message)`` for every wh40k-11e unit on the battlefield out of coherency."""
    sel = state.battle.selection
    out: list[Problem] = []
    for i, u in enumerate(state.units):
        if not isinstance(u, Unit) or u.location != "battlefield":
            continue
        if sel is not None and sel.unit == u.id:
            continue
        vs = coherency_violations(u)
        if not vs:
            continue
        vs = sorted(vs, key=lambda v: -(v.distance or 0.0))
        parts = []
        for v in vs[:SHOWN_PAIRS]:
            a, b = v.models[0], v.models[1]
            if v.rule == "coherency-2":
                parts.append(f"{a} is not within 2\" of another model (closest {b} at "
                             f"{fmt(v.distance or 0.0)})")
            else:
                parts.append(f"{a} and {b} are {fmt(v.distance or 0.0)} apart (more than 9\")")
        more = len(vs) - SHOWN_PAIRS
        if more > 0:
            parts.append(f"and {more} more")
        _, events = wh40k.restore_coherency(state, u.id)
        gone = [str(e["model"]) for e in events if e.get("kind") == "destroyed"]
        name = f"{u.id} ({u.name})" if u.name and u.name != u.id else u.id
        out.append((f"units[{i}]", f"{name} is out of coherency: " + "; ".join(parts)
                    + f"; the end of the turn would remove {len(gone)} model"
                    + ("s" if len(gone) != 1 else "") + " (" + ", ".join(gone) + ")"))
    return out

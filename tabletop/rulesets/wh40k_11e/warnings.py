"""wh40k-11e warnings about a valid game state: what is legal to save but a trap.

A unit out of coherency is a legal file (a game may be saved like that), but at the end of the
turn the rules remove its models one at a time until it is in coherency again
(:func:`~.steps.restore_coherency`). ``tabletop check`` prints these as ``warning:`` lines
(:meth:`tabletop.rules.ruleset.Ruleset.warnings`).
"""

from __future__ import annotations

from tabletop.errors import ident, idents
from tabletop.rulesets.wh40k_11e.checks import coherency_violations, fmt
from tabletop.rulesets.wh40k_11e.steps import restore_coherency
from tabletop.state import GameState, Unit

__all__ = ["SHOWN_PAIRS", "SIMULATED", "coherency_warnings"]

SHOWN_PAIRS = 3
"""How many offending pairs one warning line names (the farthest first); the rest are counted."""

SIMULATED = 100
"""Most models of a unit whose end-of-turn removals a warning works out (it removes one model
at a time, checking coherency after each: for a unit of 10,000 models spread out, hours)."""


def coherency_warnings(state: GameState) -> list[tuple[str, str]]:
    """``(unit id, message)`` for every unit on the battlefield out of coherency (the unit being
    moved aside: its commit checks it), naming the farthest pairs and the models the end of the
    turn would remove."""
    sel = state.battle.selection
    out: list[tuple[str, str]] = []
    for u in state.units:
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
                parts.append(f"{ident(a)} is not within 2\" of another model (closest "
                             f"{ident(b)} at {fmt(v.distance or 0.0)})")
            else:
                parts.append(f"{ident(a)} and {ident(b)} are {fmt(v.distance or 0.0)} apart "
                             "(more than 9\")")
        more = len(vs) - SHOWN_PAIRS
        if more > 0:
            parts.append(f"and {more} more")
        name = ident(u.id) + (f" ({ident(u.name, name=True)})" if u.name and u.name != u.id
                              else "")
        placed = sum(m.at is not None for m in u.models)
        if placed > SIMULATED:
            end = (f"; the end of the turn would remove models until it is in coherency (not "
                   f"worked out here for a unit of {placed:,} models on the battlefield; it "
                   f"is for up to {SIMULATED})")
        else:
            _, events = restore_coherency(state, u.id)
            gone = [str(e["model"]) for e in events if e.get("kind") == "destroyed"]
            end = (f"; the end of the turn would remove {len(gone)} model"
                   + ("s" if len(gone) != 1 else "") + " (" + idents(gone) + ")")
        out.append((u.id, f"{name} is out of coherency: " + "; ".join(parts) + end))
    return out

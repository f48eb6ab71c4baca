"""The contract every ruleset keeps, checked on a game of it (as Gymnasium's ``check_env``).

:func:`check_ruleset` plays a few actions of a ruleset on a state of its game and returns every
way the ruleset breaks the :class:`~tabletop.rules.ruleset.Ruleset` interface's promises:

- its declarations hang together: a name, a title, move types with distinct names and keys,
  the actions every ruleset has (``next``, ``select``, ``move``-like actions aside), each move
  type's options fields of ``select``;
- the window's questions are answered for every unit: one :class:`Eligibility` per move type,
  in order, a reason for each refused one;
- move types round-trip through ``select``: a move type the ruleset calls eligible is accepted
  by :meth:`~tabletop.rules.ruleset.Ruleset.validate` and ``apply`` and selects that unit for
  that move; ``reset`` then ``cancel`` frees it again; an ineligible one is refused;
- nothing changes its input: ``apply`` and ``preview`` leave the state they were given equal to
  a deep copy taken before;
- a refused action returns the same state (selecting the opponent's unit, ``next`` while a
  unit is moving, ``commit`` with nothing selected);
- :meth:`~tabletop.rules.ruleset.Ruleset.display` gives a game state, also mid-move.

The tests run it on every registered ruleset and every shipped scenario of it
(``tests/rulesets/test_conformance.py``), so a new ruleset meets the contract as a failing test
until it keeps it.

>>> from tabletop import rulesets
>>> from tabletop.scenario.io import load_scenario
>>> check_ruleset(rulesets.get("t9a-2"), load_scenario("t9a-lines.toml"))
[]
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tabletop.errors import UserError
from tabletop.rules.result import ActionResult
from tabletop.rules.ruleset import Eligibility, Ruleset
from tabletop.state import GameState

__all__ = ["REQUIRED_ACTIONS", "check_ruleset", "moving_state"]

REQUIRED_ACTIONS = ("next", "select", "commit", "reset", "undo", "cancel")
"""The actions every ruleset has: the turn goes on, a unit is chosen, its move is committed,
taken back whole or by one step, or the choice is given up."""


def _declarations(r: Ruleset) -> list[str]:
    problems: list[str] = []
    for attr in ("name", "title", "turn", "actions", "move_types", "terrain_kinds", "unit_type"):
        if not hasattr(r, attr):
            problems.append(f"declares no {attr}")
    if problems:
        return problems
    if not isinstance(r.name, str) or not r.name:
        problems.append(f"its name {r.name!r} is not a non-empty string")
    names = [t.name for t in r.move_types]
    keys = [t.key for t in r.move_types]
    if not names:
        problems.append("has no move types")
    if len(set(names)) != len(names):
        problems.append(f"move type names repeat: {names}")
    if len(set(keys)) != len(keys) or not all(len(k) == 1 for k in keys):
        problems.append(f"move type keys are not distinct single keys: {keys}")
    missing = [a for a in REQUIRED_ACTIONS if a not in r.actions]
    if missing:
        problems.append(f"lacks the actions {', '.join(missing)}")
    select = r.actions.get("select", {})
    for t in r.move_types:
        extra = set(t.options) - set(select)
        if extra:
            problems.append(f"move type {t.name}'s options {sorted(extra)} are not fields of "
                            "select")
    return problems


def _apply(r: Ruleset, state: GameState, action: Mapping[str, Any],
           problems: list[str]) -> ActionResult | None:
    """``action`` validated and applied; ``None`` (and a problem) when either raises, or when
    the state given to it changed."""
    before = copy.deepcopy(state)
    try:
        r.validate(state, action)
        res = r.apply(state, action)
    except UserError as e:
        problems.append(f"{action}: refused as malformed: {e}")
        return None
    if state != before:
        problems.append(f"{action}: apply changed the state it was given")
    return res


def _eligibility(r: Ruleset, state: GameState, unit: str, problems: list[str]
                 ) -> list[Eligibility]:
    elig = r.eligibility(state, unit)
    if [e.move for e in elig] != [t.name for t in r.move_types]:
        problems.append(f"eligibility of {unit} lists {[e.move for e in elig]}, not its move "
                        f"types {[t.name for t in r.move_types]}")
    for e in elig:
        if not e.ok and not e.reason:
            problems.append(f"{unit} may not {e.move} and eligibility gives no reason")
    return elig


def _same(res: ActionResult, state: GameState) -> bool:
    return res.state is state or res.state == state


def _round_trip(r: Ruleset, state: GameState, unit: str, e: Eligibility,
                problems: list[str]) -> None:
    """Select ``unit`` for ``e.move``: accepted exactly when eligible, then freed again."""
    action = {"do": "select", "unit": unit, "move": e.move}
    res = _apply(r, state, action, problems)
    if res is None:
        return
    if not e.ok:
        if res.ok:
            problems.append(f"{action} was accepted though eligibility says: {e.reason}")
        elif not _same(res, state) and res.state.battle.selection is not None:
            problems.append(f"{action} was refused but left a selection")
        return
    if not res.ok:
        problems.append(f"{action} was refused though eligible: {'; '.join(res.reasons)}")
        return
    sel = res.state.battle.selection
    if sel is None and not _same(res, state):
        return  # a move made at once (remain stationary): nothing is left to free
    if sel is None or sel.unit != unit or sel.move != e.move:
        problems.append(f"{action} was accepted but selected {sel}")
        return
    try:
        shown = r.display(res.state)
    except Exception as exc:  # the contract: display never fails on a state apply made
        problems.append(f"display failed mid-move after {action}: {exc!r}")
    else:
        if not isinstance(shown, GameState):
            problems.append(f"display gave {type(shown).__name__}, not a GameState")
    nxt = _apply(r, res.state, {"do": "next"}, problems)
    if nxt is not None and (nxt.ok or not _same(nxt, res.state)):
        problems.append("next while a unit is moving was not refused with the state unchanged")
    preview_before = copy.deepcopy(res.state)
    r.preview(res.state, {"do": "reset"})
    if res.state != preview_before:
        problems.append("preview changed the state it was given")
    freed = res.state
    for step in ({"do": "reset"}, {"do": "cancel"}):
        out = _apply(r, freed, step, problems)
        if out is None:
            return
        if out.ok:
            freed = out.state
    if freed.battle.selection is not None:
        problems.append(f"reset and cancel after {action} left the unit selected")


def moving_state(r: Ruleset, state: GameState, steps: int = 8,
                 problems: list[str] | None = None) -> GameState | None:
    """``state``, or the first state ``next`` reaches within ``steps`` in which a unit of the
    active player may make a move; ``None`` if there is none (``problems`` gets what went wrong
    on the way)."""
    problems = [] if problems is None else problems
    for _ in range(steps + 1):
        active = state.battle.active_player
        if any(e.ok for u in state.units if u.player == active
               for e in r.eligibility(state, u.id)):
            return state
        res = _apply(r, state, {"do": "next"}, problems)
        if res is None or not res.ok:
            return None
        state = res.state
    return None


def check_ruleset(ruleset: Ruleset, state: GameState, *, units: int = 4,
                  steps: int = 8) -> list[str]:
    """Every way ``ruleset`` breaks the interface's contract on the game ``state``.

    Parameters
    ----------
    ruleset
        The ruleset to check.
    state
        A game of it; the select round trips need a step in which the active player selects
        units (a Movement phase).
    units
        How many of the active player's units to try every move type of (the first ones), to
        keep the check quick on a large battle.
    steps
        How many ``next`` actions the check may apply to reach a step in which a unit may
        move, when ``state`` is not in one (a game that never gets there is a problem).

    Returns
    -------
    list of str
        One line per broken promise; empty when the ruleset keeps the contract here.
    """
    problems = _declarations(ruleset)
    if problems:
        return problems
    if state.ruleset != ruleset.name:
        return [f"the state plays {state.ruleset!r}, not {ruleset.name!r}"]
    before = copy.deepcopy(state)
    try:
        shown = ruleset.display(state)
    except Exception as exc:
        problems.append(f"display failed: {exc!r}")
    else:
        if not isinstance(shown, GameState):
            problems.append(f"display gave {type(shown).__name__}, not a GameState")
    active = state.battle.active_player
    for unit in [u.id for u in state.units if u.player == active][:units]:
        _eligibility(ruleset, state, unit, problems)
    moving = moving_state(ruleset, state, steps, problems)
    if moving is None:
        problems.append(f"no unit may move within {steps} steps of this state")
    else:
        mover = moving.battle.active_player
        for unit in [u.id for u in moving.units if u.player == mover][:units]:
            for e in _eligibility(ruleset, moving, unit, problems):
                _round_trip(ruleset, moving, unit, e, problems)
    theirs = [u.id for u in state.units if u.player != active][:1]
    for unit in theirs:
        res = _apply(ruleset, state, {"do": "select", "unit": unit,
                                      "move": ruleset.move_types[0].name}, problems)
        if res is not None and (res.ok or not _same(res, state)):
            problems.append(f"selecting the opponent's unit {unit} was not refused with the "
                            "state unchanged")
    res = _apply(ruleset, state, {"do": "commit"}, problems)
    if res is not None and (res.ok or not _same(res, state)):
        problems.append("commit with no unit selected was not refused with the state unchanged")
    if state != before:
        problems.append("the state given to the check changed")
    return problems

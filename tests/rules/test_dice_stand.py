"""Property (rulings, "Dice stand"): no sequence of actions lets a unit see a die and then obtain a
different result for the same roll in the same phase.

Random action sequences (selections with forced dice, moves, manoeuvres, undo, reset, commits that
may be refused, the next step) are played on a wh40k-11e and a t9a-2 board. For every roll made
for a unit's move (an advance roll, Desperate Escape hazard rolls, a March Test), every later
``roll`` or ``stood`` event of that unit and roll in the phase shows the same dice, and the move
uses them (the advance cap, the failed March Test's cap).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.rulesets import apply_action
from tabletop.scenario.io import loads_scenario
from tabletop.state import GameState

from support.action_files import block, squad, t9a, wh40k

MOVE_ROLLS = ("advance", "desperate-escape", "march-test")
"""The rolls made for a unit's move."""

dice = st.lists(st.integers(1, 6), min_size=0, max_size=6)


def _state(doc: dict[str, Any]) -> GameState:
    return loads_scenario(json.dumps(doc), fmt="json")


WH40K = _state(wh40k([
    squad("a", "red", [(20.0, 20.0), (21.4, 20.0)]),
    squad("b", "red", [(30.0, 20.0), (30.0, 21.4), (28.7, 20.7)], W=2),
    squad("e", "blue", [(32.6, 20.0), (32.6, 21.4)]),
    squad("far", "blue", [(50.0, 40.0)]),
], step="move-units"))

ROCK = {"id": "rock", "kind": "impassable",
        "polygon": [[32.5, 24.0], [34.0, 24.0], [34.0, 25.5], [32.5, 25.5]]}
T9A = _state(t9a([block("u", at=(30.0, 30.0)), block("v", at=(45.0, 30.0)),
                  block("e", "red", at=(30.0, 22.0))], step="move-units", terrain=[ROCK]))
"""u needs a March Test (e is within 8") and ends too close to the rock after 4.1" forwards."""


def _wh40k_action(data: st.DataObject, state: GameState) -> dict[str, Any]:
    sel = state.battle.selection
    if sel is None:
        move = data.draw(st.sampled_from(["advance", "advance", "normal", "fall-back"]))
        rolled = [r.unit for r in state.battle.rolls]  # select them again, mostly
        unit = data.draw(st.sampled_from([*rolled, *rolled, "a", "b"]))
        a: dict[str, Any] = {"do": "select", "unit": unit, "move": move, "dice": data.draw(dice)}
        if move == "fall-back":
            a["mode"] = "desperate-escape"
        return a
    kind = data.draw(st.sampled_from(["move", "move", "commit", "commit", "reset", "undo"]))
    if kind != "move":
        return {"do": kind}
    models = [m.id for m in state.unit(sel.unit).models]  # type: ignore[union-attr]
    return {"do": "move", "model": data.draw(st.sampled_from(models)),
            "path": [[data.draw(st.floats(16.0, 30.0)), data.draw(st.floats(15.0, 25.0))]]}


def _t9a_action(data: st.DataObject, state: GameState) -> dict[str, Any]:
    if state.battle.selection is None:
        return {"do": "select", "unit": data.draw(st.sampled_from(["u", "u", "u", "v"])),
                "move": data.draw(st.sampled_from(["march", "march", "march", "advance"])),
                "dice": data.draw(dice)}
    kind = data.draw(st.sampled_from(["forward", "forward", "forward", "forward", "commit",
                                      "commit", "wheel", "reset", "undo"]))
    if kind == "forward":
        # 4.5" ends too close to the rock: its commit is refused
        return {"do": "forward", "distance": data.draw(st.one_of(st.just(4.5),
                                                                 st.floats(0.0, 7.0)))}
    if kind == "wheel":
        return {"do": "wheel", "angle": data.draw(st.floats(-15.0, 15.0))}
    return {"do": kind}


def _check(data: st.DataObject, state: GameState, draw_action: Any, n: int = 14) -> int:
    """Play ``n`` actions drawn for the state they apply to; return how many rolls stood."""
    seen: dict[tuple[object, ...], list[int]] = {}
    stood = 0
    for _ in range(n):
        a = draw_action(data, state)
        b = state.battle
        phase = (b.round, b.active_player, b.phase)
        res = apply_action(state, a)
        for ev in res.events:
            if ev["kind"] in ("roll", "stood") and ev.get("what") in MOVE_ROLLS:
                key = (*phase, ev["unit"], ev["what"])
                first = seen.setdefault(key, list(ev["dice"]))
                assert list(ev["dice"]) == first, (key, first, ev)
                stood += ev["kind"] == "stood"
        sel = res.state.battle.selection
        if res.ok and sel is not None and a["do"] == "select":
            if sel.move == "advance" and sel.roll is not None:  # wh40k: the advance roll
                assert [sel.roll] == seen[(*phase, sel.unit, "advance")]
            if sel.move == "march" and (*phase, sel.unit, "march-test") in seen:
                failed = sum(seen[(*phase, sel.unit, "march-test")]) > state.unit(sel.unit).Dis
                assert (sel.mode == "march-test-failed") == failed
        state = res.state
    return stood


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_wh40k_rolls_stand(data: st.DataObject) -> None:
    _check(data, WH40K, _wh40k_action)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_t9a_rolls_stand(data: st.DataObject) -> None:
    _check(data, T9A, _t9a_action)

"""The registry and the Ruleset interface: every ruleset answers the same questions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest

from tabletop import rulesets
from tabletop.errors import UserError
from tabletop.rules.actions import Field
from tabletop.rules.result import ActionResult
from tabletop.rules.ruleset import MoveType, Ruleset
from tabletop.rules.tools import BLOCK_DRAG, MODEL_DRAG, THREAT
from tabletop.rules.turns import Phase, Step, TriggerRegistry, TurnStructure
from tabletop.state import GameState, Unit

from support.action_files import block, load_doc, squad, t9a, wh40k

WH = load_doc(wh40k([squad("a", "red", [(20.0, 20.0), (21.4, 20.0)]),
                   squad("e", "blue", [(40.0, 20.0)])]))
T9 = load_doc(t9a([block("u"), block("e", "red", at=(30.0, 22.0))]))


def test_the_registry_holds_one_object_per_ruleset() -> None:
    assert rulesets.names() == ("wh40k-11e", "t9a-2")
    assert rulesets.of(WH) is rulesets.get("wh40k-11e") is rulesets.REGISTRY["wh40k-11e"]
    with pytest.raises(UserError, match='unknown ruleset "chess"; one of wh40k-11e, t9a-2'):
        rulesets.get("chess")
    with pytest.raises(TypeError):
        rulesets.REGISTRY["chess"] = rulesets.get("t9a-2")  # type: ignore[index]


@pytest.mark.parametrize(("state", "tool"), [(WH, MODEL_DRAG), (T9, BLOCK_DRAG)])
def test_every_ruleset_answers_the_same_questions(state: GameState, tool: str) -> None:
    r = rulesets.of(state)
    assert set(r.tools) == {tool, THREAT}  # every ruleset answers threats, or says why not
    assert r.turn.phase(state.battle.phase).step(state.battle.step).name == "move-units"
    unit = state.units[0].id
    elig = r.eligibility(state, unit)
    assert [e.move for e in elig] == [t.name for t in r.move_types]
    assert all(e.key and e.title for e in elig)
    assert set(r.actions) >= {"next", "select", "undo", "reset", "commit", "cancel"}
    assert r.warnings(state) == [] and r.display(state) is state


def test_preview_says_what_an_action_would_do_and_changes_nothing() -> None:
    r = rulesets.of(WH)
    s = rulesets.apply_action(WH, {"do": "select", "unit": "a", "move": "normal"}).state
    p = r.preview(s, {"do": "move", "model": "a1", "path": [[25.0, 20.0]]})
    assert p.ok and p.state.model("a1")[1].at == (25.0, 20.0)
    assert any("coherency" in e for e in p.end)  # a commit now would be refused: a2 is far
    assert s.model("a1")[1].at == (20.0, 20.0)
    t = rulesets.of(T9)
    s = rulesets.apply_action(T9, {"do": "select", "unit": "u", "move": "advance"}).state
    p = t.preview(s, {"do": "wheel", "angle": 45.0})
    assert p.ok and p.info["outer_arc"] > 0 and p.state.unit("u").facing == 45.0
    far = t.preview(s, {"do": "wheel", "angle": 200.0})
    assert not far.ok and "at most 180 degrees" in far.reasons[0]


class Drill(Ruleset):
    """A third ruleset, as small as one can be: one phase of two steps; select is all it has."""

    name = "drill"
    title = "Drill"
    turn = TurnStructure((Phase("drill", "Drill", (Step("march", "March"),
                                                   Step("halt", "Halt"))),))
    actions = MappingProxyType({"next": {}, "select": {"unit": Field("unit", True),
                                                       "move": Field("str", True)}})
    move_types = (MoveType("stand", "Stand", "s"),)
    terrain_kinds = ("open",)
    unit_type = Unit

    def on_action(self, state: GameState, action: Mapping[str, Any],
                  triggers: TriggerRegistry | None) -> ActionResult:
        return ActionResult(state, False, ("drill units only stand",))

    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        return [("stand", True, "")]


def test_a_third_ruleset_is_a_subclass_with_its_hooks() -> None:
    drill = Drill()
    s = replace(WH, ruleset="drill", battle=replace(WH.battle, phase="drill", step="march"))
    drill.validate(s, {"do": "select", "unit": "a", "move": "stand"})
    with pytest.raises(UserError, match="unknown \"do\""):
        drill.validate(s, {"do": "move"})
    after = drill.apply(s, {"do": "next"})
    assert after.ok and after.state.battle.step == "halt"
    assert not drill.apply(s, {"do": "select", "unit": "a", "move": "stand"}).ok
    assert drill.eligibility(s, "a")[0].title == "Stand"


def test_the_options_a_move_type_lists_are_fields_of_select() -> None:
    for r in rulesets.REGISTRY.values():
        for t in r.move_types:
            assert set(t.options) <= set(r.actions["select"]), (r.name, t.name)
            assert all(r.actions["select"][o].kind == "bool" for o in t.options)


def test_a_refusal_names_the_players_as_the_file_does() -> None:
    named = replace(WH, players=tuple(replace(p, name=p.id.title() + " Army")
                                      for p in WH.players))
    r = rulesets.apply_action(named, {"do": "select", "unit": "e", "move": "normal"})
    assert not r.ok
    assert r.reasons == ("e cannot make a normal move: e belongs to Blue Army, not to the "
                         "active player Red Army",)
    plain = rulesets.apply_action(WH, {"do": "select", "unit": "e", "move": "normal"})
    assert plain.reasons[0].endswith("e belongs to blue, not to the active player red")

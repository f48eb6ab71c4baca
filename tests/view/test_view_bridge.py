"""The window's bridge to the rules core: every answer comes from the rules (no pygame)."""

from __future__ import annotations

import pytest

from tabletop import Zone
from tabletop.errors import UserError
from tabletop.geometry.footprints import parse_base
from tabletop.rulesets import REGISTRY
from tabletop.rulesets.wh40k_11e import eligibility, flags
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Unit
from tabletop.view.bridge import Rules

B32 = parse_base("32mm")


def board() -> GameState:
    squad = Unit("squad", "red", ("INFANTRY",), 6, 1, 7, 2,
                 tuple(Model(f"s{i}", B32, at=(6.0, 8.0 + 1.5 * i)) for i in range(3)),
                 name="Squad")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f0", B32, at=(26.0, 18.0)),),
               name="Foes")
    return GameState(
        name="bridge test", ruleset="wh40k-11e",
        battle=Battle(2, "red", "movement", seed=3, step="move-units"),
        players=(Player("red"), Player("blue")),
        battlefield=Battlefield(30.0, 22.0),
        units=(squad, foe),
    )


def test_every_move_type_of_every_ruleset_has_a_panel_key_and_title() -> None:
    for ruleset in REGISTRY.values():
        types = ruleset.move_types
        assert all(t.key and t.title for t in types), ruleset
        assert len({t.key for t in types}) == len(types), ruleset
    wh40k_types = REGISTRY["wh40k-11e"].move_types
    assert [t.name for t in wh40k_types] == list(flags.MOVE_TYPES)


def test_eligibility_is_the_rules_answer_with_its_reasons() -> None:
    state = board()
    elig = {e.move: e for e in Rules().eligibility(state, "squad")}
    expected = {move: (ok, why) for move, ok, why in eligibility.eligible_moves(state, "squad")}
    assert {m: (e.ok, e.reason) for m, e in elig.items()} == expected
    assert elig["normal"].ok and elig["normal"].key == "n" and elig["normal"].title == "Normal move"
    assert not elig["fall-back"].ok and "not engaged" in elig["fall-back"].reason
    assert not elig["ingress"].ok and elig["ingress"].reason


def test_actions_go_through_the_rules_core() -> None:
    rules = Rules()
    with pytest.raises(UserError):
        rules.apply(board(), {"do": "select", "unit": "nobody", "move": "normal"})
    out = rules.apply(board(), {"do": "select", "unit": "squad", "move": "normal"})
    assert out.ok and out.state.battle.selection is not None
    # 20" in one go is more than the squad's 6": refused by the rules, with the path's violation
    bad = rules.apply(out.state, {"do": "move", "model": "s0", "path": [[26.0, 8.0]]})
    assert not bad.ok and bad.reasons and bad.state is out.state


def test_zone_on_pickup_and_none_without_a_selection() -> None:
    rules = Rules()
    state = board()
    assert rules.zone(state, "s0") is None
    sel = rules.apply(state, {"do": "select", "unit": "squad", "move": "normal"}).state
    zone = rules.zone(sel, "s0")
    assert isinstance(zone, Zone)
    assert zone.contains(9.0, 8.0) and not zone.contains(20.0, 8.0)




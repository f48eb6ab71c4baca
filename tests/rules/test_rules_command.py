"""wh40k-11e Command phase (seed 004): rules-notes part (c), cases C1-C17."""

from __future__ import annotations

import pytest

from tabletop.rules.dice import Dice, die
from tabletop.rules.turns import TriggerRegistry, parse_point
from tabletop.rulesets.wh40k_11e import TURN as WH40K_TURN
from tabletop.rulesets.wh40k_11e.command import half_strength, needs_battle_shock_roll
from tabletop.scenario.io import dumps_scenario, loads_scenario
from tabletop.state import Unit

from support.rules_helpers import act, get, kinds, ok, scenario, unit


def _line(n: int, x0: float = 5.0, y: float = 5.0) -> list[tuple[float, float] | None]:
    return [(x0 + 1.3 * i, y) for i in range(n)]


def _u(n: int, ss: int, *, shocked: bool = False, W: int = 1, wounds: int | None = None,
       Ld: int = 7, keywords: list[str] | None = None) -> Unit:
    d = unit("u", "red", _line(n), W=W, Ld=Ld, starting_strength=ss, battle_shocked=shocked,
             keywords=keywords)
    if wounds is not None:
        d["models"][0]["wounds"] = wounds
    return get(scenario([d], phase="command", step="battle-shock"), "u")


def _shock_step(units: list[dict[str, object]], dice: list[int] | None = None, **kw: object):
    s = scenario(units, phase="command", step="battle-shock")
    action: dict[str, object] = {"do": "next"}
    if dice is not None:
        action["dice"] = dice
    action.update(kw)
    return act(s, **action)  # type: ignore[arg-type]


def test_c1_battle_shocked_full_unit_rolls_and_recovers_on_a_pass() -> None:
    u = _u(3, 3, shocked=True)
    assert half_strength(u) is None and needs_battle_shock_roll(u)
    d = unit("u", "red", _line(3), starting_strength=3, battle_shocked=True, Ld=7)
    res = _shock_step([d], dice=[3, 4])
    assert res.ok
    assert [e["unit"] for e in kinds(res, "battle-shock")] == ["u"]
    assert not get(res.state, "u").battle_shocked
    res = _shock_step([d], dice=[3, 3])
    assert get(res.state, "u").battle_shocked
    d2 = unit("u", "red", _line(2), starting_strength=3, battle_shocked=True)
    assert len(kinds(_shock_step([d2], dice=[6, 6]), "battle-shock")) == 1


def test_c2_three_strong_unit_with_two_left_makes_no_roll() -> None:
    assert not needs_battle_shock_roll(_u(2, 3))
    d = unit("u", "red", _line(2), starting_strength=3)
    assert kinds(_shock_step([d]), "battle-shock") == []


@pytest.mark.parametrize(("left", "ss", "expected", "rolls"), [
    (5, 10, "at", True),     # C3
    (6, 10, None, False),    # C4
    (4, 10, "below", True),  # C5
    (2, 5, "below", True),   # C6
    (3, 5, None, False),     # C7
])
def test_c3_to_c7_half_strength_by_models(left: int, ss: int, expected: str | None,
                                          rolls: bool) -> None:
    u = _u(left, ss)
    assert half_strength(u) == expected
    d = unit("u", "red", _line(left), starting_strength=ss)
    assert len(kinds(_shock_step([d]), "battle-shock")) == (1 if rolls else 0)


@pytest.mark.parametrize(("W", "wounds", "expected"), [
    (11, 3, "below"),   # C8
    (11, 6, None),      # C9
    (11, 5, "below"),   # C9
    (10, 5, "at"),      # C10
])
def test_c8_to_c10_single_model_by_wounds(W: int, wounds: int, expected: str | None) -> None:
    u = _u(1, 1, W=W, wounds=wounds, keywords=["VEHICLE"])
    assert half_strength(u) == expected


@pytest.mark.parametrize(("dead", "expected"), [(3, "at"), (4, "below"), (5, "below")])
def test_c11_attached_unit_keeps_combined_starting_strength(dead: int, expected: str) -> None:
    assert half_strength(_u(6 - dead, 6, W=2)) == expected


def test_c12_tenth_edition_reverting_is_not_followed() -> None:
    # C12 is the 10e rule (the Captain reverts to SS 1); 11e keeps SS 6: below half-strength.
    assert half_strength(_u(1, 6, W=5)) == "below"


@pytest.mark.parametrize(("dice", "passed"), [([3, 4], True), ([3, 3], False)])
def test_c13_battle_shock_roll_against_ld(dice: list[int], passed: bool) -> None:
    d = unit("u", "red", _line(1), starting_strength=3, Ld=7)
    ev = kinds(_shock_step([d], dice=dice), "battle-shock")[0]
    assert ev["passed"] is passed and ev["Ld"] == 7 and ev["dice"] == dice


def test_c14_best_ld_of_the_unit() -> None:
    # One Ld per unit in scenario format 1: the unit's Ld is the best (lowest) target, 6+.
    d = unit("u", "red", _line(1), starting_strength=3, Ld=6)
    assert kinds(_shock_step([d], dice=[2, 4]), "battle-shock")[0]["passed"] is True


def test_c15_one_roll_per_unit_in_the_battle_shock_step() -> None:
    d = unit("u", "red", _line(1), starting_strength=4)
    s = scenario([d], phase="command", step="battle-shock")
    reg = TriggerRegistry(structure=WH40K_TURN)
    from tabletop.rulesets.wh40k_11e.command import battle_shock_roll

    reg.attach("command.battle-shock", "forced roll",
               lambda st, ctx: battle_shock_roll(st, "u", ctx))
    from tabletop.rulesets import apply_action

    res = apply_action(s, {"do": "next", "dice": [6, 6, 1, 1]}, triggers=reg)
    assert len(kinds(res, "battle-shock")) == 1
    assert kinds(res, "battle-shock")[0]["dice"] == [6, 6]


def test_c16_insane_bravery_passes_once_per_battle_for_1cp() -> None:
    d = unit("u", "red", _line(1), starting_strength=4, battle_shocked=True)
    s = scenario([d], phase="command", step="battle-shock", cp=(2, 0))
    res = act(s, **{"do": "next", "insane-bravery": "u", "dice": [1, 1]})
    assert res.ok
    ev = kinds(res, "battle-shock")[0]
    assert ev["passed"] and ev["dice"] == [] and ev["auto"] == "insane-bravery"
    assert not get(res.state, "u").battle_shocked
    assert res.state.player("red").cp == 1
    # Next Battle-shock step of the same battle: refused (once per battle).
    from dataclasses import replace

    again = replace(res.state, battle=replace(res.state.battle, step="battle-shock"))
    again = again.with_unit(replace(get(again, "u"), battle_shocked=True))
    res2 = act(again, **{"do": "next", "insane-bravery": "u"})
    assert not res2.ok and "once per battle" in res2.reasons[0]
    assert res2.state == again
    # The record is the player's: it survives the unit that used it, and a save.
    assert res.state.player("red").used == ("insane-bravery",)
    later = scenario([unit("v", "red", _line(1, y=20.0), starting_strength=4,
                           battle_shocked=True)], phase="command", step="battle-shock", cp=(2, 0))
    later = replace(later, players=res.state.players)  # "u" is gone; red's record is not
    later = loads_scenario(dumps_scenario(later, "toml"), fmt="toml")
    res3 = act(later, **{"do": "next", "insane-bravery": "v"})
    assert not res3.ok and "once per battle" in res3.reasons[0]


def test_c17_both_players_gain_one_cp() -> None:
    s = scenario([unit("u", "red", _line(1))], phase="command", step="gain-core-cp")
    res = act(s, do="next")
    assert (res.state.player("red").cp, res.state.player("blue").cp) == (1, 1)
    assert kinds(res, "cp") == [
        {"kind": "cp", "player": "red", "gained": 1, "cp": 1},
        {"kind": "cp", "player": "blue", "gained": 1, "cp": 1}]


def test_command_phase_steps_in_the_seed_order() -> None:
    s = scenario([unit("u", "red", _line(1))], phase="command", step=None)
    seen = []
    for _ in range(6):
        s = ok(s, do="next")
        seen.append((s.battle.phase, s.battle.step))
    assert seen == [("command", "gain-core-cp"), ("command", "battle-shock"),
                    ("command", "command-abilities"), ("command", "end"),
                    ("movement", "start"), ("movement", "move-units")]
    assert [s.name for s in WH40K_TURN.phase("command").steps] == [
        "start", "gain-core-cp", "battle-shock", "command-abilities", "end"]
    assert WH40K_TURN.phase("command").steps[-1].parts == ("rules", "mission")


def test_triggers_resolve_at_the_named_point_and_end_of_command_in_order() -> None:
    s = scenario([unit("u", "red", _line(1))], phase="command", step="end")
    reg = TriggerRegistry(structure=WH40K_TURN)
    order: list[str] = []

    def note(name: str):
        def eff(st, ctx):  # type: ignore[no-untyped-def]
            order.append(name)
            return st, [{"kind": "note", "text": name}]
        return eff
    reg.attach("at the end of the Command phase", "rule", note("rule"))
    reg.attach("command.end.mission", "mission", note("mission"))
    reg.attach("at the start of the Movement phase", "move-start", note("move-start"))
    from tabletop.rulesets import apply_action

    res = apply_action(s, {"do": "next"}, triggers=reg)
    assert order == ["mission", "rule"][::-1]
    assert res.state.battle.step == "start"
    apply_action(res.state, {"do": "next"}, triggers=reg)
    assert order == ["rule", "mission", "move-start"]
    assert parse_point("at the start of the Movement phase", WH40K_TURN).key == "movement.start"


def test_dice_are_a_pure_function_of_seed_and_index() -> None:
    assert [die(5, i) for i in range(20)] == [die(5, i) for i in range(20)]
    assert [die(5, i) for i in range(20)] != [die(6, i) for i in range(20)]
    s = scenario([unit("u", "red", _line(1))])
    d = Dice(s, [4])
    assert d.take(2)[0] == 4 and d.used == 1

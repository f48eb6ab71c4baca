"""wh40k-11e Movement phase (seed 000): rules-notes part (c), cases M1-M27 (without FLY, M25),
K1-K3, and the move as a transaction."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tabletop.rulesets.wh40k_11e import eligibility, movement
from tabletop.rulesets.wh40k_11e.checks import coherency_violations
from tabletop.scenario.io import dumps_scenario, loads_scenario

from support.rules_helpers import act, get, kinds, ok, scenario, unit

R32 = 32 / 25.4 / 2  # radius of a 32 mm base, inches


def _solo(x: float = 10.0, y: float = 10.0, **kw: object) -> dict[str, object]:
    return unit("a", "red", [(x, y)], **kw)  # type: ignore[arg-type]


def _enemy(x: float, y: float = 10.0, uid: str = "e", **kw: object) -> dict[str, object]:
    return unit(uid, "blue", [(x, y)], **kw)  # type: ignore[arg-type]


def test_m1_two_straight_lines_add_up_to_the_maximum() -> None:
    s = ok(scenario([_solo()]), do="select", unit="a", move="normal")
    res = act(s, do="move", model="a1", path=[[13, 10], [16, 10]])
    assert res.ok and kinds(res, "move")[0]["length"] == pytest.approx(6.0)
    assert ok(res.state, do="commit").model("a1")[1].at == (16.0, 10.0)


def test_m2_rotations_are_free() -> None:
    s = ok(scenario([_solo(M=12)]), do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a1", path=[[16, 10]], facing=90)
    s = ok(s, do="move", model="a1", path=[[16, 16]], facing=180)
    _, m = s.model("a1")
    assert m.at == (16.0, 16.0) and m.facing == 180.0
    assert ok(s, do="commit").battle.selection is None


def test_m3_too_long_a_move_is_refused_and_the_model_stays() -> None:
    s = ok(scenario([_solo()]), do="select", unit="a", move="normal")
    res = act(s, do="move", model="a1", path=[[13, 10], [16.5, 10]])
    assert not res.ok and "6.50" in res.reasons[0]
    assert res.state == s and res.state.model("a1")[1].at == (10.0, 10.0)


@pytest.mark.parametrize(("gap", "legal"), [(1.9, False), (2.01, True), (2.0, False)])
def test_m4_m5_m6_normal_move_must_end_unengaged(gap: float, legal: bool) -> None:
    before = scenario([_solo(), _enemy(18.0)])
    s = ok(before, do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a1", path=[[18.0 - 2 * R32 - gap, 10.0]])
    res = act(s, do="commit")
    assert res.ok is legal
    if not legal:
        assert res.state == before
        assert any("e1" in r and "a1" in r for r in res.reasons)
        v = next(v for v in res.violations if v.rule == "engaged")
        assert v.distance == pytest.approx(gap) and v.geometry is not None


def test_m7_no_second_normal_move_in_a_phase() -> None:
    s = ok(scenario([_solo()]), do="select", unit="a", move="normal")
    s = ok(ok(s, do="move", model="a1", path=[[12, 10]]), do="commit")
    res = act(s, do="select", unit="a", move="normal")
    assert not res.ok and "normal move this phase" in res.reasons[0]


def test_m8_advance_adds_the_d6_and_forbids_charge_and_actions() -> None:
    s = ok(scenario([_solo()]), do="select", unit="a", move="advance", dice=[4])
    assert s.battle.selection is not None and s.battle.selection.roll == 4
    assert not act(s, do="move", model="a1", path=[[20.5, 10]]).ok
    s = ok(ok(s, do="move", model="a1", path=[[20, 10]]), do="commit")
    assert {"advanced", "no-charge", "no-action"} <= set(get(s, "a").flags)


def test_advance_roll_is_an_event_from_the_seed() -> None:
    res = act(scenario([_solo()], seed=42), do="select", unit="a", move="advance")
    ev = kinds(res, "roll")[0]
    assert ev["what"] == "advance" and ev["unit"] == "a" and 1 <= ev["dice"][0] <= 6
    assert res.state.battle.dice_used == 1


def test_m9_engaged_unit_cannot_normal_or_advance() -> None:
    s = scenario([_solo(), _enemy(12.0)])
    moves = {m: (okk, why) for m, okk, why in eligibility.eligible_moves(s, "a")}
    assert not moves["normal"][0] and "engaged" in moves["normal"][1]
    assert not moves["advance"][0]
    assert moves["fall-back"][0] and moves["remain-stationary"][0]
    assert not act(s, do="select", unit="a", move="normal").ok


def test_m10_unengaged_unit_cannot_fall_back() -> None:
    s = scenario([_solo(), _enemy(30.0)])
    res = act(s, do="select", unit="a", move="fall-back")
    assert not res.ok and "not engaged" in res.reasons[0]


def _mob_state(shocked: bool = False, W: int = 1, n: int = 5, **kw: object):
    """A red line of ``n`` at y=10 engaged with a blue line at y=11.5 (below it)."""
    red = unit("a", "red", [(10 + 1.4 * i, 10.0) for i in range(n)], W=W,
               battle_shocked=shocked, **kw)  # type: ignore[arg-type]
    blue = unit("e", "blue", [(10 + 1.4 * i, 12.0) for i in range(n)])
    return scenario([red, blue])


def test_m11_ordered_retreat_may_not_cross_enemy_bases() -> None:
    s = ok(_mob_state(), do="select", unit="a", move="fall-back", mode="ordered-retreat")
    res = act(s, do="move", model="a1", path=[[10, 15.5]])
    assert not res.ok and any("e1" in r for r in res.reasons)


def test_m12_battle_shocked_unit_must_desperate_escape_without_a_second_roll() -> None:
    s = _mob_state(shocked=True)
    assert not act(s, do="select", unit="a", move="fall-back", mode="ordered-retreat").ok
    res = act(s, do="select", unit="a", move="fall-back", dice=[6, 6, 6, 6, 6])
    assert res.ok and res.state.battle.selection.mode == "desperate-escape"
    assert len(kinds(res, "roll")[0]["dice"]) == 5
    s = res.state
    for i in range(5):
        s = ok(s, do="move", model=f"a{i + 1}", path=[[10 + 1.4 * i, 5.0]])
    done = act(s, do="commit")
    assert done.ok and kinds(done, "battle-shock") == []


def test_m13_m14_desperate_escape_hazards_then_battle_shock() -> None:
    s = _mob_state()
    res = act(s, do="select", unit="a", move="fall-back", mode="desperate-escape",
              dice=[1, 2, 4, 4, 6])
    assert res.ok
    assert kinds(res, "roll")[0]["failed"] == 2
    destroyed = [e["model"] for e in kinds(res, "destroyed")]
    assert len(destroyed) == 2  # 11e: 2 MW on one-wound models; the same as 10e's M14 result
    s = res.state
    left = [m.id for m in get(s, "a").models]
    assert len(left) == 3
    for mid in left:
        x = s.model(mid)[1].at[0]  # type: ignore[index]
        s = ok(s, do="move", model=mid, path=[[x, 16.0]])  # through the enemy line
    done = act(s, do="commit", dice=[1, 1])
    assert done.ok
    ev = kinds(done, "battle-shock")[0]
    assert ev["dice"] == [1, 1] and ev["passed"] is False
    assert get(done.state, "a").battle_shocked


def test_m15_mortal_wounds_go_to_the_wounded_model_first() -> None:
    res = act(_mob_state(W=2), do="select", unit="a", move="fall-back", mode="desperate-escape",
              dice=[1, 2, 4, 4, 6])
    assert [e["wounds"] for e in kinds(res, "mortal-wounds")] == [2]
    assert len(kinds(res, "destroyed")) == 1
    assert len(get(res.state, "a").models) == 4


def test_m16_vehicle_hazard_is_three_mortal_wounds() -> None:
    tank = unit("t", "red", [(10.0, 10.0)], base="60mm", W=10, keywords=["VEHICLE"])
    s = scenario([tank, _enemy(10.0, 12.5)])
    res = act(s, do="select", unit="t", move="fall-back", mode="desperate-escape", dice=[2])
    assert kinds(res, "mortal-wounds")[0]["wounds"] == 3
    assert get(res.state, "t").models[0].wounds == 7


@pytest.mark.parametrize(("shocked", "fails"), [(True, 1), (False, 0)])
def test_m17_m18_bane_of_cowards(shocked: bool, fails: int) -> None:
    red = unit("a", "red", [(10.0, 10.0)], W=2, battle_shocked=shocked)
    blood = unit("e", "blue", [(10.0, 12.0)], keywords=["INFANTRY", "BANE OF COWARDS"])
    res = act(scenario([red, blood]), do="select", unit="a", move="fall-back",
              mode="desperate-escape", dice=[3])
    assert kinds(res, "roll")[0]["failed"] == fails


def test_m19_fall_back_still_engaged_returns_and_may_select_again() -> None:
    before = _mob_state()
    s = ok(before, do="select", unit="a", move="fall-back")
    s = ok(s, do="move", model="a1", path=[[10, 9.0]])
    res = act(s, do="commit")
    assert not res.ok and res.state == before
    assert act(res.state, do="select", unit="a", move="remain-stationary").ok


def test_m20_after_fall_back_no_shooting_charge_or_action() -> None:
    s = ok(_mob_state(n=1), do="select", unit="a", move="fall-back")
    s = ok(ok(s, do="move", model="a1", path=[[10, 6.0]]), do="commit")
    assert {"fell-back", "no-shoot", "no-charge", "no-action"} <= set(get(s, "a").flags)


def test_m21_no_base_across_the_battlefield_edge() -> None:
    s = ok(scenario([_solo(x=3.0)]), do="select", unit="a", move="normal")
    res = act(s, do="move", model="a1", path=[[0.3, 10.0]])
    assert not res.ok and "battlefield" in res.reasons[0]


def test_m22_infantry_may_cross_a_friendly_base() -> None:
    two = unit("a", "red", [(10.0, 10.0), (11.5, 10.0)])
    s = ok(scenario([two]), do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a1", path=[[13.0, 10.0]])
    assert act(s, do="commit").ok


def test_m23_infantry_may_not_cross_an_enemy_base() -> None:
    s = ok(scenario([_solo(), _enemy(16.0, 10.5)]), do="select", unit="a", move="normal")
    res = act(s, do="move", model="a1", path=[[20.0, 10.0]], )
    # 16.0 is within 2" of the start? no: 6 - 2r = 4.74" apart. The path crosses e1.
    assert not res.ok and any("e1" in r for r in res.reasons)


@pytest.mark.parametrize(("kw", "legal"), [("INFANTRY", True), ("VEHICLE", False)])
def test_m24_monster_passes_over_infantry_not_vehicles(kw: str, legal: bool) -> None:
    mon = unit("m", "red", [(10.0, 10.0)], base="60mm", M=10, W=12, keywords=["MONSTER"])
    s = scenario([mon, _enemy(15.0, 10.0, keywords=[kw])])
    s = ok(s, do="select", unit="m", move="normal")
    assert act(s, do="move", model="m1", path=[[20.0, 10.0]]).ok is legal


def test_m26_unselected_units_remain_stationary_at_the_end_of_the_step() -> None:
    s = scenario([_solo(), unit("b", "red", [(30.0, 30.0)]), _enemy(50.0, 40.0)])
    s = ok(s, do="select", unit="a", move="remain-stationary")
    res = act(s, do="next")
    assert [e["unit"] for e in kinds(res, "remain-stationary")] == ["b"]
    assert res.state.battle.step == "end"
    assert {"selected", "remained-stationary"} <= set(get(res.state, "b").flags)
    assert get(res.state, "b").models == get(s, "b").models


def test_m27_each_model_uses_its_own_m() -> None:
    d = unit("a", "red", [(10.0, 10.0), (10.0, 11.5)])
    d["models"][1]["M"] = 9
    s = ok(scenario([d]), do="select", unit="a", move="normal")
    assert not act(s, do="move", model="a1", path=[[10.0, 1.5]]).ok  # 8.5" > 6"
    s = ok(s, do="move", model="a1", path=[[16.0, 10.0]])
    assert ok(s, do="move", model="a2", path=[[17.0, 16.0]]) is not None  # 8.49 <= 9


def _line(n: int, gap: float = 2.0) -> list[tuple[float, float] | None]:
    return [(5.0 + i * (gap + 2 * R32), 20.0) for i in range(n)]


def test_k1_three_models_two_inch_gaps_are_coherent() -> None:
    assert coherency_violations(get(scenario([unit("a", "red", _line(3))]), "a")) == []


def test_k2_eight_models_in_a_line_are_not_coherent() -> None:
    vs = coherency_violations(get(scenario([unit("a", "red", _line(8))]), "a"))
    nine = [v for v in vs if v.rule == "coherency-9"]
    assert nine and max(v.distance for v in nine) == pytest.approx(21.559, abs=1e-3)


def test_k3_two_models_two_and_a_half_apart_lose_one_at_end_of_turn() -> None:
    d = unit("a", "red", [(10.0, 10.0), (10.0 + 2.5 + 2 * R32, 10.0)])
    s = scenario([d], phase="movement", step="end")
    assert {v.rule for v in coherency_violations(get(s, "a"))} == {"coherency-2"}
    res = act(s, do="next")
    assert len(get(res.state, "a").models) == 1
    assert [e for e in kinds(res, "destroyed") if e.get("reason") == "coherency"]
    assert res.state.battle.active_player == "blue" and res.state.battle.phase == "command"
    assert get(res.state, "a").flags == ()


def test_commit_reports_coherency_with_models_and_distance() -> None:
    before = scenario([unit("a", "red", [(10.0, 10.0), (11.5, 10.0)])])
    s = ok(before, do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a2", path=[[16.0, 10.0]])
    vs = movement.commit_check(s)
    assert [v.rule for v in vs] == ["coherency-2", "coherency-2"]
    assert vs[0].distance == pytest.approx(6 - 2 * R32)
    res = act(s, do="commit")
    assert not res.ok and res.state == before


def test_overlapping_bases_are_refused() -> None:
    before = scenario([unit("a", "red", [(10.0, 10.0), (11.5, 10.0)])])
    s = ok(before, do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a2", path=[[10.5, 10.0]])
    assert "overlap" in {v.rule for v in movement.commit_check(s)}
    s2 = ok(before, do="select", unit="a", move="normal")
    s2 = ok(s2, do="move", model="a2", path=[[10.0 + 2 * R32, 10.0]])  # touching is fine
    assert movement.commit_check(s2) == []


def test_undo_and_reset() -> None:
    s0 = ok(scenario([unit("a", "red", [(10.0, 10.0), (11.5, 10.0)])]), do="select", unit="a",
            move="normal")
    s1 = ok(s0, do="move", model="a1", path=[[12.0, 12.0]])
    s2 = ok(s1, do="move", model="a2", path=[[13.0, 12.0]])
    assert ok(s2, do="undo") == s1
    assert ok(ok(s2, do="undo"), do="undo") == s0
    assert ok(s2, do="reset") == s0
    assert not act(s0, do="undo").ok


def test_refused_advance_puts_the_models_back_and_its_roll_stands() -> None:
    """Rulings, "Dice stand": a refused move puts the models back; the dice are not rewound and
    a new selection reuses the roll (an advance keeps its roll)."""
    before = scenario([_solo(), _enemy(20.0)], seed=9)
    s = ok(before, do="select", unit="a", move="advance")
    s = ok(s, do="move", model="a1", path=[[17.0, 10.0]])
    res = act(s, do="commit")
    assert not res.ok and res.state.battle.selection is None
    assert get(res.state, "a") == get(before, "a")
    assert res.state.battle.dice_used == s.battle.dice_used  # not rewound
    again = act(res.state, do="select", unit="a", move="advance", dice=[6])
    assert again.ok and again.state.battle.selection.roll == s.battle.selection.roll
    assert kinds(again, "roll") == [] and kinds(again, "stood")[0]["dice"] == [
        s.battle.selection.roll]


def test_desperate_escape_refusal_keeps_the_dead() -> None:
    """Rulings, "Dice stand": casualties of the hazard rolls stay removed when the move is
    refused, and a new Desperate Escape makes no new hazard rolls (seed 000, 09.07: "Make a
    hazard roll for each model in your unit")."""
    before = _mob_state(W=2)
    s = ok(before, do="select", unit="a", move="fall-back", mode="desperate-escape",
           dice=[1, 1, 1, 4, 6])
    survivors = get(s, "a").models
    assert len(survivors) < 5
    res = act(s, do="commit")
    assert not res.ok and res.state.battle.selection is None
    assert [m.id for m in get(res.state, "a").models] == [m.id for m in survivors]
    again = act(res.state, do="select", unit="a", move="fall-back", mode="desperate-escape",
                dice=[1, 1, 1, 1, 1])
    assert again.ok and kinds(again, "roll") == [] and kinds(again, "mortal-wounds") == []
    assert get(again.state, "a").models == get(res.state, "a").models


def test_a_move_saved_mid_way_loads_back_and_goes_on_identically() -> None:
    s = ok(_mob_state(W=2), do="select", unit="a", move="fall-back", mode="desperate-escape",
           dice=[1, 4, 4, 4, 6])
    s = ok(s, do="move", model="a2", path=[[11.4, 6.0]])
    text = dumps_scenario(s)
    back = loads_scenario(text, fmt="toml")
    assert back == s
    for st in (s, back):
        st = ok(st, do="move", model="a1", path=[[10.0, 6.0]])
    a = act(ok(s, do="undo"), do="commit")
    b = act(ok(back, do="undo"), do="commit")
    assert a.state == b.state and a.events == b.events


def test_malformed_actions_name_index_and_field() -> None:
    from tabletop.errors import UserError
    from tabletop.rulesets import apply_actions

    s = scenario([_solo()])
    for bad, field in [({"do": "fly"}, "do"), ({"do": "select", "unit": "zz", "move": "normal"},
                                                "unit"),
                       ({"do": "move", "model": "a1", "path": [[1, "x"]]}, "path"),
                       ({"do": "select", "unit": "a"}, "move"),
                       ({"do": "commit", "dice": [7]}, "dice")]:
        with pytest.raises(UserError) as exc:
            apply_actions(s, [{"do": "next"}, bad])
        assert "action 1" in str(exc.value) and field in str(exc.value)


def test_refusals_change_nothing() -> None:
    s = scenario([_solo()])
    for action in ({"do": "commit"}, {"do": "undo"}, {"do": "move", "model": "a1",
                                                       "path": [[11, 10]]}):
        res = act(s, **action)
        assert not res.ok and res.state == s and res.reasons


def test_wrong_step_and_wrong_player() -> None:
    s = scenario([_solo(), _enemy(40.0)])
    assert "active player" in act(s, do="select", unit="e", move="normal").reasons[0]
    s2 = replace(s, battle=replace(s.battle, step="start"))
    assert not act(s2, do="select", unit="a", move="normal").ok


def test_a_game_saved_while_models_stand_on_each_other_mid_move_loads_back(tmp_path: Path
                                                                         ) -> None:
    """Staging lets a model stand on a friend until the commit; such a save must load back."""
    from tabletop.rulesets import apply_action
    from tabletop.scenario.io import load_scenario as _load
    from tabletop.scenario.io import save_scenario as _save
    from tabletop.scenario.io import shipped

    state = _load(shipped("fall-back.toml"))
    state = replace(state, units=tuple(
        u for u in state.units if u.id != "mob"))  # nobody engaged: a normal move
    state = apply_action(state, {"do": "next"}).state  # to the Move Units step
    res = apply_action(state, {"do": "select", "unit": "squad", "move": "normal"})
    assert res.ok, res.reasons
    res = apply_action(res.state, {"do": "move", "model": "sq1", "path": [[28.0, 22.0]]})
    assert res.ok, res.reasons  # sq1 now stands on sq2
    out = tmp_path / "mid-move.toml"
    _save(res.state, out)
    assert _load(out) == res.state
    refused = apply_action(res.state, {"do": "commit"})
    assert not refused.ok and any("overlap" in r for r in refused.reasons)

"""wh40k-11e strategic reserves and transports: rules-notes part (c), cases R1-R12."""

from __future__ import annotations

import pytest

from tabletop.rulesets.wh40k_11e import eligibility, emergency

from support.rules_helpers import act, get, kinds, ok, scenario, unit

R32 = 32 / 25.4 / 2
HULL = [[-2.0, -3.0], [2.0, -3.0], [2.0, 3.0], [-2.0, 3.0]]


def _reserves(round: int = 2, enemy_at: tuple[float, float] = (20.0, 20.0),
              keywords: list[str] | None = None):
    res = unit("r", "red", [None, None], location="strategic-reserves", keywords=keywords)
    return scenario([res, unit("e", "blue", [enemy_at])], round=round, zones=True)


def _ingress(s, places, mode=None):  # type: ignore[no-untyped-def]
    kw = {"mode": mode} if mode else {}
    s = ok(s, do="select", unit="r", move="ingress", **kw)
    for mid, at in places.items():
        res = act(s, do="place", model=mid, at=list(at))
        if not res.ok:
            return res
        s = res.state
    return act(s, do="commit")


def test_r1_no_ingress_in_round_one() -> None:
    res = act(_reserves(round=1), do="select", unit="r", move="ingress")
    assert not res.ok and "battle round 2" in res.reasons[0]


def _gap_places(gap: float) -> dict[str, tuple[float, float]]:
    # Enemy at (20, 20); r1 at x such that the edge gap is ``gap``; r2 beside it, further away.
    x = 20.0 - 2 * R32 - gap
    return {"r1": (x, 20.0), "r2": (x - 1.5, 20.0)}


def test_r2_ingress_legal() -> None:
    s = _reserves(enemy_at=(14.0, 20.0))
    res = _ingress(s, {"r1": (3.0, 20.0), "r2": (1.5, 20.0)})
    assert res.ok
    u = get(res.state, "r")
    assert u.location == "battlefield" and "ingressed" in u.flags


@pytest.mark.parametrize(("gap", "legal"), [(8.5, True), (8.0, False)])
def test_r2_r3_more_than_eight_inches_from_enemies(gap: float, legal: bool) -> None:
    s = _reserves(enemy_at=(3.0 + 2 * R32 + gap, 20.0))
    res = _ingress(s, {"r1": (3.0, 20.0), "r2": (1.5, 20.0)})
    assert res.ok is legal
    if not legal:
        assert any("8\"" in r and "e1" in r for r in res.reasons)


def test_ingress_wholly_within_six_of_an_edge() -> None:
    res = _ingress(_reserves(enemy_at=(50.0, 20.0)), {"r1": (5.5, 20.0)})
    assert not res.ok and "6\"" in res.reasons[0]


@pytest.mark.parametrize(("round", "legal"), [(2, False), (3, True)])
def test_r4_enemy_deployment_zone_before_round_three(round: int, legal: bool) -> None:
    s = _reserves(round=round, enemy_at=(50.0, 10.0))
    res = _ingress(s, {"r1": (20.0, 42.0), "r2": (21.5, 42.0)})
    assert res.ok is legal


def test_r5_deep_strike_in_the_enemy_zone_nine_inches_away() -> None:
    s = _reserves(enemy_at=(20.0, 40.0), keywords=["INFANTRY", "DEEP STRIKE"])
    res = _ingress(s, {"r1": (20.0 - 9 - 2 * R32, 40.0), "r2": (20.0 - 10.5 - 2 * R32, 40.0)},
                   mode="deep-strike")
    assert res.ok
    s2 = _reserves(enemy_at=(20.0, 40.0))
    assert not act(s2, do="select", unit="r", move="ingress", mode="deep-strike").ok


def test_r6_units_still_in_reserves_after_round_three_are_destroyed() -> None:
    res_unit = unit("r", "blue", [None], location="strategic-reserves")
    rhino = unit("t", "blue", [None], base="hull", keywords=["VEHICLE", "TRANSPORT"],
                 location="strategic-reserves", W=10)
    rhino["models"][0]["hull"] = HULL
    inside = unit("p", "blue", [None], location="embarked", transport="t")
    red = unit("a", "red", [(10.0, 10.0)])
    s = scenario([red, res_unit, rhino, inside], round=3, step="end")
    from dataclasses import replace
    s = replace(s, battle=replace(s.battle, active_player="blue"))
    res = act(s, do="next")
    gone = {e["unit"] for e in kinds(res, "destroyed") if "unit" in e}
    assert gone == {"r", "t", "p"}
    assert res.state.battle.round == 4 and res.state.battle.active_player == "red"
    s2 = replace(s, battle=replace(s.battle, round=2))
    assert {u.id for u in act(s2, do="next").state.units} == {"a", "r", "t", "p"}


def test_r7_after_ingress_no_other_move_but_charge_allowed() -> None:
    res = _ingress(_reserves(enemy_at=(30.0, 20.0)), {"r1": (3.0, 20.0), "r2": (1.5, 20.0)})
    s = res.state
    assert not act(s, do="select", unit="r", move="normal").ok
    assert "no-charge" not in get(s, "r").flags


def _transport_state(transport_flags: list[str] | None = None):  # type: ignore[no-untyped-def]
    rhino = unit("t", "red", [(20.0, 20.0)], base="hull", M=12, W=10,
                 keywords=["VEHICLE", "TRANSPORT"], flags=transport_flags or [])
    rhino["models"][0]["hull"] = HULL
    rhino["models"][0]["facing"] = 0
    pax = unit("p", "red", [None, None], location="embarked", transport="t")
    return scenario([rhino, pax, unit("e", "blue", [(50.0, 40.0)])])


def _disembark(s, places, **kw):  # type: ignore[no-untyped-def]
    s = ok(s, do="select", unit="p", move="disembark", **kw)
    for mid, at in places.items():
        res = act(s, do="place", model=mid, at=list(at))
        if not res.ok:
            return res
        s = res.state
    return act(s, do="commit")


NEAR = {"p1": (23.0, 20.0), "p2": (23.0, 21.5)}   # 1" from the hull's right side


def test_r8_rapid_disembark_after_a_normal_move() -> None:
    s = _transport_state(["selected", "normal-move"])
    sel = act(s, do="select", unit="p", move="disembark")
    assert sel.state.battle.selection.mode == "rapid"
    res = _disembark(s, NEAR)
    assert res.ok and "no-charge" in get(res.state, "p").flags
    assert get(res.state, "p").location == "battlefield"
    far = _disembark(s, {"p1": (25.0, 20.0), "p2": (25.0, 21.5)})  # 3" + r from the hull
    assert not far.ok and "3.00\"" in far.reasons[0]


def test_r9_tactical_disembark_then_a_normal_move() -> None:
    s = _transport_state()
    res = _disembark(s, NEAR)
    assert res.ok
    u = get(res.state, "p")
    assert "disembark-then-move" in u.flags and "no-charge" not in u.flags
    s2 = ok(res.state, do="select", unit="p", move="normal")
    s2 = ok(s2, do="move", model="p1", path=[[28.0, 20.0]])
    s2 = ok(s2, do="move", model="p2", path=[[28.0, 21.5]])
    done = ok(s2, do="commit")
    assert {"normal-move", "disembarked"} <= set(get(done, "p").flags)
    assert "disembark-then-move" not in get(done, "p").flags


def test_r10_no_disembark_from_an_advanced_transport() -> None:
    s = _transport_state(["selected", "advanced"])
    moves = {m: why for m, okk, why in eligibility.eligible_moves(s, "p") if not okk}
    assert "advanced" in moves["disembark"]
    assert not act(s, do="select", unit="p", move="disembark").ok


def test_r11_emergency_disembark() -> None:
    s = _transport_state()
    x = 22.0 + R32 + 0.01  # in base contact with the hull's right side: as close as possible
    places = {"p1": (x, 20.0), "p2": (x, 21.5)}
    res = emergency.emergency_disembark(s, "p", places, dice=[1, 3])
    assert res.ok
    assert [e["wounds"] for e in kinds(res, "mortal-wounds")] == [1]
    u = get(res.state, "p")
    assert u.battle_shocked and "no-charge" in u.flags and len(u.models) == 1
    assert all(x.id != "t" for x in res.state.units)  # the destroyed transport is removed
    far = emergency.emergency_disembark(s, "p", {"p1": (28.0, 20.0)}, dice=[6])
    assert not far.ok
    left_out = emergency.emergency_disembark(s, "p", {"p1": (x, 20.0)}, dice=[6])
    assert not left_out.ok and "p2 can be set up" in left_out.reasons[0]


def test_an_emergency_disembark_ends_in_coherency() -> None:
    """Issue 28: two models on opposite sides of the destroyed transport, each in contact with
    it (as close as possible) but 4.02" apart, were accepted; every other set-up checks
    coherency (rules-notes item 3: "must end in coherency, unengaged")."""
    s = _transport_state()
    right, left = 22.0 + R32 + 0.01, 18.0 - R32 - 0.01
    apart = emergency.emergency_disembark(s, "p", {"p1": (right, 20.0), "p2": (left, 20.0)},
                                      dice=[6, 6])
    assert not apart.ok
    assert [v.rule for v in apart.violations] == ["coherency-2", "coherency-2"]
    assert apart.reasons[0] == 'coherency: p1 is not within 2" of another model of p (closest ' \
                               'p2 at 4.02")'
    assert apart.state == s  # refused: nothing changed, no die rolled
    side = emergency.emergency_disembark(s, "p", {"p1": (right, 20.0), "p2": (right, 21.5)},
                                     dice=[6, 6])
    assert side.ok


@pytest.mark.parametrize(("dist", "legal"), [(3.2, False), (2.9, True)])
def test_r12_embark_needs_every_model_within_three_inches(dist: float, legal: bool) -> None:
    rhino = unit("t", "red", [(20.0, 20.0)], base="hull", W=10, keywords=["VEHICLE", "TRANSPORT"])
    rhino["models"][0]["hull"] = HULL
    sq = unit("a", "red", [(30.0, 20.0), (30.0, 21.5)])
    s = ok(scenario([rhino, sq]), do="select", unit="a", move="normal")
    s = ok(s, do="move", model="a1", path=[[22.0 + R32 + dist, 20.0]])
    s = ok(s, do="move", model="a2", path=[[22.0 + R32 + 2.0, 21.5]])
    res = act(s, do="commit", embark="t")
    assert res.ok is legal
    if legal:
        u = get(res.state, "a")
        assert u.location == "embarked" and u.transport == "t"
        assert all(m.at is None for m in u.models)
    else:
        assert any("3.20" in r for r in res.reasons)

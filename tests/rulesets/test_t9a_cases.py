"""The T9A test cases T1-T18 of rules-notes part (c), one named test each."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tabletop.geometry.blocks import BlockGeom, bottleneck_assignment
from tabletop.geometry.tolerance import mm
from tabletop.rulesets.t9a_2 import movement as t9a
from tabletop.rulesets.t9a_2 import rulings as t9a_rulings

from support.t9a_support import act, block, run, state

W20 = mm(20)


def _friend_dist(st, a: str, b: str) -> float:
    return t9a.block_geom(st.unit(a)).polygon.distance(t9a.block_geom(st.unit(b)).polygon)


def test_T1_joined_characters_count_so_full_discipline() -> None:
    b = block("u", models=11, files=5, starting_models=40, Dis=7, fleeing=True)
    assert not t9a.is_decimated(b)
    assert t9a.rally_discipline(b) == 7


@pytest.mark.parametrize(("dis", "expected"), [(7, 4), (8, 4)])
def test_T2_decimated_halves_discipline_rounded_up(dis: int, expected: int) -> None:
    b = block("u", models=10, files=5, starting_models=40, Dis=dis, fleeing=True)
    assert t9a.is_decimated(b)
    assert t9a.rally_discipline(b) == expected


def test_T2_rally_roll_uses_half_discipline() -> None:
    st = state(block("u", models=10, files=5, starting_models=40, Dis=7, fleeing=True),
               block("e", "red", at=(30.0, 40.0)), step="rally")
    _st2, ok, _, ev = act(st, {"do": "next", "dice": [2, 3, 1, 1]})  # 5 > 4: fails, flees
    assert ok
    rally = next(e for e in ev if e["kind"] == "rally")
    assert rally["Dis"] == 4 and rally["passed"] is False
    assert any(e["kind"] == "flee" for e in ev)
    _st3, ok, _, ev = act(st, {"do": "next", "dice": [2, 2]})
    assert next(e for e in ev if e["kind"] == "rally")["passed"] is True


def test_T3_rally_passes() -> None:
    st = state(block("u", fleeing=True, Dis=7), block("e", "red", at=(30.0, 40.0)), step="rally")
    st, ok, _, _ev = act(st, {"do": "next", "dice": [3, 4]})
    assert ok and st.battle.step == "move-units"
    u = st.unit("u")
    assert not u.fleeing
    assert {"shaken", "rallied", "no-shooting"} <= set(u.flags)
    for move in ("advance", "march"):
        _, ok, reasons, _ = act(st, {"do": "select", "unit": "u", "move": move})
        assert not ok and any("Shaken" in r for r in reasons)
    # may reform at once
    st, results = run(st, [{"do": "select", "unit": "u", "move": "reform"},
                           {"do": "reform", "files": 5, "facing": 90}, {"do": "commit"}])
    assert all(r[0] for r in results), results
    assert st.unit("u").facing == 90 and "no-shooting" in st.unit("u").flags
    # and no further move this phase
    _, ok, _, _ = act(st, {"do": "select", "unit": "u", "move": "reform"})
    assert not ok


def test_T4_flee_extended_past_friend_and_panic() -> None:
    depth = W20  # one rank of 20 mm bases
    flee_front_end = 30.0 - depth / 2 - 7.0  # front edge after 7"
    friend_rear = flee_front_end - 0.6
    friend = block("f", at=(30.0, friend_rear - depth / 2))
    st = state(block("u", fleeing=True, at=(30.0, 30.0)), friend,
               block("e", "red", at=(30.0, 40.0)), step="rally")
    # rally fails (12), flee 7 (3 + 4), the friend passes its Panic test (2 <= Dis)
    st, ok, _, ev = act(st, {"do": "next", "dice": [6, 6, 3, 4, 1, 1]})
    assert ok
    flee = next(e for e in ev if e["kind"] == "flee")
    assert flee["rolled"] == 7 and flee["facing"] == pytest.approx(0.0)
    # the minimum: through the friend and out more than 1" beyond its front
    friend_front = friend_rear - depth
    expected = (30.0 + depth / 2) - (friend_front - 1.0)
    assert flee["distance"] == pytest.approx(expected, abs=1e-5)
    assert flee["distance"] >= expected
    assert _friend_dist(st, "u", "f") > 1.0 + 1e-6
    panic = next(e for e in ev if e["kind"] == "panic-test")
    assert panic["unit"] == "f" and panic["cause"] == "unit u fled through it"
    assert panic["dice"] == [1, 1] and panic["passed"] and not st.unit("f").fleeing


def test_T4_a_failed_panic_test_makes_the_friend_flee() -> None:
    depth = W20
    friend_rear = 30.0 - depth / 2 - 7.0 - 0.6
    st = state(block("u", fleeing=True, at=(30.0, 30.0)),
               block("f", at=(30.0, friend_rear - depth / 2)),
               block("e", "red", at=(30.0, 40.0)), step="rally")
    # rally fails, flee 7; the friend fails its Panic test (12) and flees 2D6 = 4 in turn
    st, ok, _, ev = act(st, {"do": "next", "dice": [6, 6, 3, 4, 6, 6, 2, 2]})
    assert ok
    panic = next(e for e in ev if e["kind"] == "panic-test")
    assert panic["unit"] == "f" and not panic["passed"]
    flees = [e for e in ev if e["kind"] == "flee"]
    assert [e["unit"] for e in flees] == ["u", "f"] and flees[1]["rolled"] == 4
    assert st.unit("f").fleeing


def test_T4_flee_not_extended_when_clear() -> None:
    st = state(block("u", fleeing=True, at=(30.0, 30.0)), block("e", "red", at=(30.0, 40.0)),
               step="rally")
    st, _, _, ev = act(st, {"do": "next", "dice": [6, 6, 3, 4]})
    flee = next(e for e in ev if e["kind"] == "flee")
    assert flee["distance"] == 7 and flee["extended"] == 0
    assert st.unit("u").at == pytest.approx((30.0, 23.0))


def test_T5_flee_through_enemy_dangerous_terrain_3() -> None:
    st = state(block("u", fleeing=True, at=(30.0, 30.0)),
               block("e", "red", at=(30.0, 34.0)), block("e2", "red", at=(30.0, 24.0)),
               step="rally")
    dice = [6, 6, 6, 6, 1, 3, 4, 6, 2]  # rally 12 fails, flee 12, then DT per model
    st, _ok, _, ev = act(st, {"do": "next", "dice": dice})
    dt = [e for e in ev if e["kind"] == "dangerous-terrain"]
    assert len(dt) == 1
    assert dt[0]["feature"] == "unit e2" and dt[0]["value"] == 3
    assert dt[0]["models"] == [0, 1, 2, 3, 4]
    assert dt[0]["dice"] == [1, 3, 4, 6, 2] and dt[0]["hits"] == 3


def test_T5_flee_through_impassable_terrain_tests() -> None:
    from tabletop.state import Terrain
    rock = Terrain("rock", "impassable", ((29.0, 20.0), (29.5, 20.0), (29.5, 22.0), (29.0, 22.0)))
    st = state(block("u", fleeing=True, at=(30.0, 30.0)), block("e", "red", at=(30.0, 34.0)),
               terrain=[rock], step="rally")
    st, _, _, ev = act(st, {"do": "next", "dice": [6, 6, 6, 6, 4, 4]})
    dt = [e for e in ev if e["kind"] == "dangerous-terrain"]
    assert len(dt) == 1 and dt[0]["feature"] == "impassable terrain rock"
    assert dt[0]["models"] == [1]  # the one file whose bases cross x in [29, 29.5]


def test_T6_flee_to_board_edge_destroys() -> None:
    st = state(block("u", fleeing=True, at=(30.0, 6.0)), block("e", "red", at=(30.0, 12.0)),
               step="rally")
    st, ok, _, ev = act(st, {"do": "next", "dice": [6, 6, 3, 3]})
    assert ok
    assert any(e["kind"] == "destroyed" and e["unit"] == "u" for e in ev)
    assert all(u.id != "u" for u in st.units)


def _selected(move: str = "advance", **kw: object):
    st = state(block("u", Adv=5, Mar=10, **kw))  # type: ignore[arg-type]
    st, ok, r, _ = act(st, {"do": "select", "unit": "u", "move": move})
    assert ok, r
    return st


@pytest.mark.parametrize(("do", "legal", "illegal"),
                         [("forward", 5.0, 5.01), ("backward", 2.5, 2.51),
                          ("sideways", 2.5, 2.51), ("sideways", -2.5, -2.51)])
def test_T7_advance_rate_maxima(do: str, legal: float, illegal: float) -> None:
    st = _selected()
    _, ok, r, _ = act(st, {"do": do, "distance": legal})
    assert ok, r
    _, ok, r, _ = act(st, {"do": do, "distance": illegal})
    assert not ok and "Rate" in r[0]


def test_T7_ranges_and_wheels_only_forwards() -> None:
    st = _selected()
    assert t9a.straight_range(st, "forward") == pytest.approx(5.0, abs=1e-6)
    assert t9a.straight_range(st, "backward") == pytest.approx(2.5, abs=1e-6)
    assert t9a.straight_range(st, "sideways", -1) == pytest.approx(2.5, abs=1e-6)
    st2, ok, _, _ = act(st, {"do": "backward", "distance": 1.0})
    assert ok
    _, ok, r, _ = act(st2, {"do": "wheel", "angle": 10})
    assert not ok and "one direction" in r[0]
    assert t9a.wheel_range(st2) == (0.0, 0.0)
    st3, ok, _, _ = act(st, {"do": "forward", "distance": 1.0})
    _, ok, r, _ = act(st3, {"do": "wheel", "angle": 20})
    assert ok, r


def test_T8_forward_then_sideways_illegal() -> None:
    st = _selected()
    st, ok, _, _ = act(st, {"do": "forward", "distance": 3})
    assert ok
    _, ok, r, _ = act(st, {"do": "sideways", "distance": 1})
    assert not ok and "one direction" in r[0]
    # the same direction again is fine
    _, ok, _, _ = act(st, {"do": "forward", "distance": 1})
    assert ok


def _march_state(gap: float, *, enemy_fleeing: bool = False):
    u = block("u", at=(30.0, 30.0), Adv=4, Mar=8)
    front = 30.0 - W20 / 2
    e = block("e", "red", at=(30.0, front - gap - W20 / 2), fleeing=enemy_fleeing)
    return state(u, e)


@pytest.mark.parametrize(("gap", "needed"), [(7.9, True), (8.0, True), (8.01, False)])
def test_T9_march_test_within_8(gap: float, needed: bool) -> None:
    st = _march_state(gap)
    _, ok, _, ev = act(st, {"do": "select", "unit": "u", "move": "march", "dice": [1, 1]})
    assert ok
    assert any(e["kind"] == "march-test" for e in ev) is needed


def test_T10_fleeing_enemy_needs_no_march_test() -> None:
    st = _march_state(5.0, enemy_fleeing=True)
    _, ok, _, ev = act(st, {"do": "select", "unit": "u", "move": "march"})
    assert ok and not any(e["kind"] == "march-test" for e in ev)


def test_T11_failed_march_test_caps_at_advance() -> None:
    st = _march_state(7.9)
    st, ok, _, ev = act(st, {"do": "select", "unit": "u", "move": "march", "dice": [5, 6]})
    assert ok and next(e for e in ev if e["kind"] == "march-test")["passed"] is False
    _, ok, r, _ = act(st, {"do": "backward", "distance": 1})
    assert not ok and "forwards only" in r[0]
    _st2, ok, r, _ = act(st, {"do": "wheel", "angle": 10})
    assert ok, r
    assert t9a.straight_range(st, "forward") == pytest.approx(4.0, abs=1e-6)
    _, ok, r, _ = act(st, {"do": "forward", "distance": 4.01})
    assert not ok and "failed March Test" in r[0]
    st, res = run(st, [{"do": "forward", "distance": 4.0}, {"do": "commit"}])
    assert all(x[0] for x in res), res
    assert {"marched", "no-shooting"} <= set(st.unit("u").flags)


def test_T11_variant_2022_no_march(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(t9a_rulings, "FAILED_MARCH_TEST_MARCHES_AT_ADVANCE", False)
    st = _march_state(7.9)
    st, _ok, _, ev = act(st, {"do": "select", "unit": "u", "move": "march", "dice": [6, 6]})
    assert st.battle.selection is None and any(e["kind"] == "march-refused" for e in ev)


def test_T11_passed_march_test_full_march() -> None:
    st = _march_state(7.9)
    st, ok, _, _ = act(st, {"do": "select", "unit": "u", "move": "march", "dice": [3, 4]})
    # 8" forward would end inside the enemy: the range stops at contact
    assert t9a.straight_range(st, "forward") == pytest.approx(7.9, abs=1e-6)
    _, ok, r, _ = act(st, {"do": "forward", "distance": 6.5})
    assert ok, r


def test_T12_reform_keeps_centre_fixed() -> None:
    st = _selected("reform", models=10, files=5)
    st, ok, r, _ = act(st, {"do": "reform", "files": 2, "facing": 45})
    assert ok, r
    assert st.unit("u").at == (30.0, 30.0)
    # no way to shift the centre afterwards: any other manoeuvre is refused
    for a in ({"do": "sideways", "distance": 0.5}, {"do": "forward", "distance": 0.5}):
        _, ok, reasons, _ = act(st, a)
        assert not ok and "centre" in reasons[0]


def test_T13_reform_model_beyond_march_rate() -> None:
    wide = {"models": 20, "files": 20, "base": "rect 25x25mm"}
    st = state(block("u", Mar=8, Adv=4, **wide))  # type: ignore[arg-type]
    g = t9a.block_geom(st.unit("u"))
    assert bottleneck_assignment(g.centres, g.reformed(1, 0).centres) > 9.0
    st, _, _, _ = act(st, {"do": "select", "unit": "u", "move": "reform"})
    _, ok, r, _ = act(st, {"do": "reform", "files": 1, "facing": 0})
    assert not ok and "March Rate of 8" in r[0]
    st10 = state(block("u", Mar=10, Adv=5, **wide))  # type: ignore[arg-type]
    st10, _, _, _ = act(st10, {"do": "select", "unit": "u", "move": "reform"})
    _, ok, r, _ = act(st10, {"do": "reform", "files": 1, "facing": 0})
    assert ok, r


@pytest.mark.parametrize(("gap", "legal"), [(0.9, False), (1.0, False), (1.1, True)])
def test_T14_end_within_1_inch_illegal(gap: float, legal: bool) -> None:
    u = block("u", at=(30.0, 30.0))
    other = block("o", at=(30.0, 30.0 - W20 - 4.0 - gap))  # front 4" + gap from o's rear
    st = state(u, other)
    st, res = run(st, [{"do": "select", "unit": "u", "move": "advance"},
                       {"do": "forward", "distance": 4.0}, {"do": "commit"}])
    assert res[1][0]
    assert res[2][0] is legal
    if not legal:
        assert "more than 1\"" in res[2][1][0]
        assert st.unit("u").at == (30.0, 30.0) and st.battle.selection is None


@pytest.mark.parametrize(("adv", "legal"), [(5, False), (6, True)])
def test_T15_wheel_90_displacement_not_arc(adv: float, legal: bool) -> None:
    g = BlockGeom(W20, W20, 5, 5, (30.0, 30.0), 0.0)
    end = g.wheeled(-90)  # about the left front corner
    assert g.outer_arc_length(90) == pytest.approx(6.18, abs=0.005)
    assert math.dist(g.centres[4], end.centres[4]) == pytest.approx(5.04, abs=0.005)
    assert math.dist(g.corners["fr"], end.corners["fr"]) == pytest.approx(5.57, abs=0.005)
    st = state(block("u", Adv=adv, Mar=2 * adv))
    st, _, _, _ = act(st, {"do": "select", "unit": "u", "move": "advance"})
    _, ok, r, ev = act(st, {"do": "wheel", "angle": -90})
    assert ok is legal, r
    if legal:  # legal under displacement though the arc (6.18") is longer than 6
        assert ev[0]["outer_arc"] > adv


def test_T15_second_rank_rear_right_moves_most() -> None:
    g = BlockGeom(W20, W20, 10, 5, (30.0, 30.0), 0.0)
    d = g.displacements(g.wheeled(-90))
    assert d.max() == pytest.approx(5.28, abs=0.005)
    assert int(d.argmax()) == 9  # the rear-right model


def test_T16_wheel_45() -> None:
    g = BlockGeom(W20, W20, 5, 5, (30.0, 30.0), 0.0)
    assert g.outer_arc_length(-45) == pytest.approx(3.09, abs=0.005)
    assert g.displacements(g.wheeled(-45))[4] == pytest.approx(2.73, abs=0.005)


def test_T17_point_on_dividing_line_is_flank() -> None:
    g = BlockGeom(W20, W20, 10, 5, (30.0, 30.0), 0.0)
    fr = g.corners["fr"]
    assert g.arc_of((fr[0] + 2.0, fr[1] - 2.0)) == "right"  # exactly on the 135-degree line
    assert g.arc_of((fr[0] + 2.0, fr[1] - 2.01)) == "front"
    assert g.arc_of((fr[0] + 2.0, fr[1] - 1.99)) == "right"
    assert g.arc_of((30.0, 40.0)) == "rear"
    turned = replace(g, facing=90.0)
    assert turned.arc_of((40.0, 30.0)) == "front"
    assert turned.arc_of((30.0, 20.0)) == "left"


def test_T18_swift_reform_then_advance() -> None:
    st = state(block("u", Adv=5, Mar=10, models=10, files=5, flags=("swift-reform",)))
    st, res = run(st, [{"do": "select", "unit": "u", "move": "advance"},
                       {"do": "reform", "files": 5, "facing": 90}])
    assert all(x[0] for x in res), res
    # 5" measured from the post-reform position
    assert t9a.straight_range(st, "forward") == pytest.approx(5.0, abs=1e-6)
    _, ok, _, _ = act(st, {"do": "forward", "distance": 5.01})
    assert not ok
    st2, res = run(st, [{"do": "forward", "distance": 5.0}, {"do": "commit"}])
    assert all(x[0] for x in res), res
    assert "no-shooting" not in st2.unit("u").flags  # may still shoot
    # without the rule, reform is not part of an advance
    plain = state(block("u", Adv=5, Mar=10, models=10, files=5))
    plain, _, _, _ = act(plain, {"do": "select", "unit": "u", "move": "advance"})
    _, ok, _, _ = act(plain, {"do": "reform", "files": 5, "facing": 90})
    assert not ok


def test_T18_swift_reform_total_capped_by_march_rate() -> None:
    # a line of 10 reformed into 2 files, then advanced 5": every model is within 5" of its
    # post-reform place, but some end 6.57" from where they stood before the reform (March 6)
    st = state(block("u", Adv=5, Mar=6, models=10, files=10, flags=("swift-reform",)))
    st, res = run(st, [{"do": "select", "unit": "u", "move": "advance"},
                       {"do": "reform", "files": 2, "facing": 0}])
    assert res[1][0], res
    _, ok, r, _ = act(st, {"do": "forward", "distance": 5.0})
    assert not ok and "before the Swift Reform" in r[0]
    _, ok, r, _ = act(st, {"do": "forward", "distance": 4.0})
    assert ok, r


def test_preview_reports_ghost_and_1_inch_rule() -> None:
    other = block("o", at=(30.0, 30.0 - W20 - 4.5))
    st = state(block("u", at=(30.0, 30.0)), other)
    st, _, _, _ = act(st, {"do": "select", "unit": "u", "move": "advance"})
    p = t9a.preview(st, {"do": "forward", "distance": 4.0})
    assert p["ok"] and p["geom"].at == pytest.approx((30.0, 26.0))
    assert p["end_reasons"] and "0.50\"" in p["end_reasons"][0]
    p = t9a.preview(st, {"do": "forward", "distance": 5.0})
    assert not p["ok"] and "through unit o" in p["reasons"][0]
    assert st.unit("u").at == (30.0, 30.0)  # nothing applied
    p = t9a.preview(st, {"do": "wheel", "angle": 30})
    assert p["outer_arc"] == pytest.approx(t9a.block_geom(st.unit("u")).width * math.pi / 6)


def test_march_through_dangerous_terrain_tests_advance_does_not() -> None:
    from tabletop.state import Terrain
    marsh = Terrain("marsh", "dangerous", ((29.5, 25.0), (32.0, 25.0), (32.0, 26.0),
                                           (29.5, 26.0)))
    st = state(block("u", at=(30.0, 30.0)), terrain=[marsh])
    for move, tested in (("march", True), ("advance", False)):
        _, res = run(st, [{"do": "select", "unit": "u", "move": move},
                          {"do": "forward", "distance": 5.0},
                          {"do": "commit", "dice": [1, 2, 6, 4]}])
        assert all(r[0] for r in res), res
        dt = [e for e in res[2][2] if e["kind"] == "dangerous-terrain"]
        assert bool(dt) is tested
        if tested:
            # files whose bases cross x in [29.5, 32]: files 1-4 (x from 28.82)
            assert dt[0]["models"] == [1, 2, 3, 4] and dt[0]["value"] == 1
            assert dt[0]["hits"] == 1


def test_wheeling_march_model_sweeps_cover_the_arc() -> None:
    from tabletop.geometry.blocks import model_sweeps
    g = BlockGeom(W20, W20, 10, 5, (30.0, 30.0), 0.0)
    end = g.wheeled(-90)
    sweeps = model_sweeps(g, end, -90)
    for k in range(31):
        mid = g.wheeled(-90 * k / 30)
        for i, poly in enumerate(mid.model_polygons()):
            assert sweeps[i].buffer(1e-9).contains(poly)

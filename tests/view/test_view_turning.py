"""The window turning non-round models (issue 12, item 3): the ghost at its witness's facing,
Q / E turning a model in place, a refusal when the turn would sweep over something."""

from __future__ import annotations

import itertools

import pygame
import pytest

from tabletop import legal_zone
from tabletop.geometry.footprints import Hull, parse_base
from tabletop.rulesets import apply_action
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Selection, Terrain, Unit
from tabletop.view.controller import Controller, ghost_models
from tabletop.view.viewport import Viewport

from support.view_support import demo_land_raider, key, panel_text, post

VP = Viewport(scale=10.0, ox=0.0, oy=0.0)
TANK = Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5)))


def board(*, corridor: bool = False, selected: bool = True) -> GameState:
    """A 25x50 mm rect (facing 90: 1.97" across) north of a wall with a 1.2" gap; with
    ``corridor``, a 4x7" tank between two walls 0.1" off its sides instead."""
    if corridor:
        mover = Unit("tank", "red", ("VEHICLE",), 10, 10, 6, 3,
                     (Model("t1", TANK, at=(15.0, 11.0)),), name="Tank")
        terrain = (Terrain("wl", "impassable", ((12.0, 1.0), (12.9, 1.0), (12.9, 21.0),
                                                (12.0, 21.0))),
                   Terrain("wr", "impassable", ((17.1, 1.0), (18.0, 1.0), (18.0, 21.0),
                                                (17.1, 21.0))))
    else:
        mover = Unit("riders", "red", ("MOUNTED",), 8, 3, 6, 2,
                     (Model("r1", parse_base("rect 25x50mm"), at=(15.0, 6.0), facing=90.0),
                      Model("r2", parse_base("32mm"), at=(20.0, 6.0))), name="Riders")
        terrain = (Terrain("w1", "impassable", ((1.0, 10.0), (14.4, 10.0), (14.4, 12.0),
                                                (1.0, 12.0))),
                   Terrain("w2", "impassable", ((15.6, 10.0), (29.0, 10.0), (29.0, 12.0),
                                                (15.6, 12.0))))
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2,
               (Model("f1", parse_base("32mm"), at=(27.0, 20.0)),))
    sel = None
    if selected:
        sel = Selection(unit=mover.id, move="normal",
                        start=tuple((m.id, m.at, m.facing) for m in mover.models))
    return GameState(name="turning", ruleset="wh40k-11e",
                     battle=Battle(2, "red", "movement", step="move-units", selection=sel),
                     players=(Player("red"), Player("blue")), battlefield=Battlefield(30.0, 22.0),
                     terrain=terrain, units=(mover, foe))


def controller(state: GameState) -> Controller:
    return Controller(state, VP, zone_fn=lambda s, m: legal_zone(s, m, "normal"),
                      cap_fn=lambda s, m: 8.0)


def test_the_ghost_shows_the_facing_its_path_takes_and_the_move_keeps_the_turns() -> None:
    st = board()
    c = controller(st)
    c.pointer_down(VP.to_px(15.0, 6.0))
    assert c.drag is not None
    # through the gap the witness faces along it (0 or 180); past it, in the open, it ends
    # at the facing nearest its own that is legal there
    c.pointer_move(VP.to_px(15.0, 13.8))
    d = c.drag
    assert d.poses and d.poses[0] == (15.0, 6.0, 90.0)
    # the line that crosses the walls (y 10 to 12) faces along the gap; it may turn back
    # to its own facing on either side, where there is room
    crossing = [a for a, b in itertools.pairwise(d.poses) if min(a[1], b[1]) < 10.0 and
                max(a[1], b[1]) > 12.0]
    assert len(crossing) == 1 and round(crossing[0][2] % 180, 6) == 0.0
    (_, _, at, facing, legal), = [g for g in ghost_models(d) if g[0] == "r1"]
    assert at == pytest.approx((15.0, 13.8)) and legal
    assert facing == pytest.approx(d.poses[-1][2])
    (intent,) = c.pointer_up(VP.to_px(15.0, 13.8))
    (act,) = intent.data["actions"]
    assert all(len(p) == 3 for p in act["path"])
    out = apply_action(st, act)
    assert out.ok, out.reasons
    moved = out.state.model("r1")[1]
    assert moved.at == pytest.approx((15.0, 13.8)) and moved.facing == pytest.approx(facing)
    # a round model's ghost keeps its facing and its path is two-valued
    c2 = controller(st)
    c2.pointer_down(VP.to_px(20.0, 6.0))
    c2.pointer_move(VP.to_px(22.0, 7.0))
    assert c2.drag is not None and not c2.drag.poses
    (intent,) = c2.pointer_up(VP.to_px(22.0, 7.0))
    assert all(len(p) == 2 for p in intent.data["actions"][0]["path"])


def test_q_and_e_turn_the_model_under_the_pointer_in_place() -> None:
    st = board()
    c = controller(st)
    c.pointer_move(VP.to_px(15.0, 6.0))
    assert c.hover == "r1"
    (intent,) = c.key("e")
    assert intent.data["actions"] == [{"do": "move", "model": "r1", "path": [[15.0, 6.0, 105.0]]}]
    (intent,) = c.key("q", shift=True)
    assert intent.data["actions"][0]["path"] == [[15.0, 6.0, 89.0]]
    out = apply_action(st, intent.data["actions"][0])
    assert out.ok and out.state.model("r1")[1].facing == pytest.approx(89.0)
    # a round base has nothing to turn; nothing selected, nothing turns
    c.pointer_move(VP.to_px(20.0, 6.0))
    assert c.hover == "r2" and c.key("e") == []
    c3 = controller(board(selected=False))
    c3.pointer_move(VP.to_px(15.0, 6.0))
    assert c3.key("e") == []


def test_a_turn_in_a_corridor_is_refused_with_what_it_would_hit() -> None:
    st = board(corridor=True)
    c = controller(st)
    c.pointer_move(VP.to_px(15.0, 11.0))
    (intent,) = c.key("e")
    out = apply_action(st, intent.data["actions"][0])
    assert not out.ok
    assert any("turning from 0 to 15 degrees" in r for r in out.reasons)
    assert any(v.geometry is not None and v.geometry.area > 0 for v in out.violations)
    (intent,) = c.key("e", shift=True)  # one degree fits (3.5 sin 1 + 2 cos 1 - 2 < 0.1)
    assert apply_action(st, intent.data["actions"][0]).ok


def test_the_window_turns_a_model_with_e_and_draws_a_refusal(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(15.0, 6.0), rel=(0, 0), buttons=(0, 0, 0))
    key(app, pygame.K_e)
    assert app.state.model("r1")[1].facing == pytest.approx(105.0), app.message
    key(app, pygame.K_q, pygame.KMOD_SHIFT)
    assert app.state.model("r1")[1].facing == pytest.approx(104.0)
    # in a corridor the tank cannot turn: the state stays, the refusal is drawn
    app2 = app_factory(board(corridor=True))
    vp = app2.ctrl.viewport
    post(app2, pygame.MOUSEMOTION, pos=vp.to_px(15.0, 11.0), rel=(0, 0), buttons=(0, 0, 0))
    before = app2.state
    key(app2, pygame.K_e)
    assert app2.state is before
    assert app2.refusal is not None
    assert any("turning" in r for r in app2.refusal.reasons)


def test_the_window_drags_a_rect_through_a_gap_it_must_turn_for(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    vp = app.ctrl.viewport
    a, b = vp.to_px(15.0, 6.0), vp.to_px(15.0, 13.8)
    post(app, pygame.MOUSEBUTTONDOWN, pos=a, button=1, mod=0)
    for k in range(1, 7):
        t = k / 6
        post(app, pygame.MOUSEMOTION, pos=(a[0], a[1] + (b[1] - a[1]) * t), rel=(0, 0),
             buttons=(1, 0, 0))
    post(app, pygame.MOUSEBUTTONUP, pos=b, button=1)
    m = app.state.model("r1")[1]
    assert m.at == pytest.approx((15.0, 13.8), abs=1e-6), app.message


def test_over_a_model_of_another_unit_nothing_turns() -> None:
    st = board()
    c = controller(st)
    c.pointer_move(VP.to_px(27.0, 20.0))
    assert c.hover == "f1" and c.key("e") == []
    # over no model: the last model the unit moved
    moved = apply_action(st, {"do": "move", "model": "r1", "path": [[15.0, 7.0]]}).state
    c = controller(moved)
    c.pointer_move(VP.to_px(5.0, 18.0))
    assert c.hover is None
    (intent,) = c.key("e")
    assert intent.data["actions"][0]["path"] == [[15.0, 7.0, 105.0]]


def test_a_turn_onto_terrain_is_staged_and_shown_at_once_not_only_at_enter(app_factory,  # type: ignore[no-untyped-def]
                                                                           monkeypatch) -> None:
    from tabletop.view.bridge import Rules

    st = demo_land_raider((4.0, 17.4))  # facing 180, the barricade-west 0.1" below it
    assert Rules().end_violations(st, "land-raider") == []
    app = app_factory(st)
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(4.0, 17.4), rel=(0, 0), buttons=(0, 0, 0))
    key(app, pygame.K_q)  # 15 degrees counter-clockwise: legal to turn through, not to end
    assert app.state.model("lr1")[1].facing == pytest.approx(165.0), app.message
    (v,) = app.end_check("land-raider")
    assert v.rule == "terrain" and "barricade-west" in v.message
    assert "may not end there" in app.message and "barricade-west" in app.message
    assert any("lr1" in m.models and m.geometry is v.geometry for m in app._marks())
    assert "May not end here" in panel_text(app, monkeypatch)
    key(app, pygame.K_RETURN)  # and Enter refuses it, saying the same
    assert app.state.battle.selection is not None
    assert any("barricade-west" in r for r in app.refusal.reasons)  # type: ignore[union-attr]
    key(app, pygame.K_e)  # turned back: nothing to show any more
    assert app.state.model("lr1")[1].facing == pytest.approx(180.0)
    assert app.end_check("land-raider") == [] and "may not end" not in app.message
    assert not [m for m in app._marks() if "lr1" in m.models]


def test_the_window_computes_a_slow_zone_while_idle_so_the_pick_up_finds_it(
        app_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from tabletop.zones import build

    st = board()
    riders = st.unit("riders")
    rect = parse_base("rect 25x50mm")
    riders2 = replace(riders, models=(riders.models[0],  # type: ignore[union-attr]
                                      Model("r3", rect, at=(20.0, 6.0), facing=90.0),
                                      riders.models[1]))  # type: ignore[union-attr]
    sel = replace(st.battle.selection, start=tuple((m.id, m.at, m.facing)
                                                   for m in riders2.models))
    st = replace(st, units=(riders2, *st.units[1:]),
                 battle=replace(st.battle, selection=sel))
    made: list[str] = []
    real = build.turning_zone

    def spy(q, *a, **kw):  # type: ignore[no-untyped-def]
        made.append(q.mover.id)
        return real(q, *a, **kw)

    monkeypatch.setattr(build, "turning_zone", spy)
    app = app_factory(st)
    vp = app.ctrl.viewport
    # the pointer near r3: its zone first; the round r2 is not worth it (2 ms, not kept)
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(20.0, 7.0), rel=(0, 0), buttons=(0, 0, 0))
    assert app.warm_one() and made == ["r3"]
    assert app.warm_one() and made == ["r3", "r1"]
    # then the zones a Shift-drag of the whole unit asks for, nearest first
    assert app.warm_one() and made == ["r3", "r1", "r3"]
    assert app.warm_one() and made == ["r3", "r1", "r3", "r1"]
    assert not app.warm_one()
    # picking either up computes nothing more
    made.clear()
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(15.0, 6.0), button=1, mod=0)
    assert made == [] and app.ctrl.drag is not None
    assert not app.warm_one()  # never while dragging
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(15.0, 8.0), rel=(0, 0), buttons=(1, 0, 0))
    post(app, pygame.MOUSEBUTTONUP, pos=vp.to_px(15.0, 8.0), button=1)
    assert app.state.model("r1")[1].at == pytest.approx((15.0, 8.0), abs=1e-6), app.message
    # a new board: r3's zone again (r1 has moved: its zone comes from a state of its own)
    assert app.warm_one() and made == ["r3"]
    assert not app.warm_one()
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(20.0, 6.0), button=1, mod=0)
    assert made == ["r3"]
    post(app, pygame.MOUSEBUTTONUP, pos=vp.to_px(20.0, 6.0), button=1)
    app.prefetch = False  # benchmarks of the pick-up turn it off
    key(app, pygame.K_r)
    assert not app.warm_one()

"""The drag logic as a pure state machine, without SDL and without the zone engine."""

from __future__ import annotations

import math

import pytest
from view_support import DiscZone, small_state

from tabletop.view.controller import Controller
from tabletop.view.viewport import Viewport

VP = Viewport(scale=10.0, ox=0.0, oy=0.0)  # 10 px per inch, origin at (0, 0)


def px(x: float, y: float) -> tuple[float, float]:
    return VP.to_px(x, y)


def make(selected: bool = True) -> tuple[Controller, list[str]]:
    calls: list[str] = []

    def zone_fn(state, model_id):  # type: ignore[no-untyped-def]
        calls.append(model_id)
        _, m = state.model(model_id)
        return DiscZone(m.at, 6.0)

    c = Controller(small_state(selected=selected), VP, zone_fn=zone_fn,
                   cap_fn=lambda s, m: 6.0)
    return c, calls


def test_click_on_another_unit_focuses_it_without_dragging() -> None:
    c, calls = make(selected=False)
    out = c.pointer_down(px(20, 10))
    assert [i.kind for i in out] == ["focus"]
    assert out[0].data["unit"] == "foe"
    assert c.drag is None and calls == []


def test_drag_inside_the_zone_follows_the_cursor_and_stages_a_move() -> None:
    c, calls = make()
    assert c.pointer_down(px(5.2, 10.1)) == []  # grab 0.2" right, 0.1" below the centre
    assert c.drag is not None and calls == ["s1"]  # zone computed once, on pick-up
    for k in range(1, 6):
        c.pointer_move(px(5.2 + k * 0.5, 10.1))
    assert calls == ["s1"]  # ... never per move
    d = c.drag
    assert d.ghosts["s1"] == pytest.approx((7.5, 10.0))
    assert not d.snapped
    assert d.length == pytest.approx(2.5)
    assert d.cap == 6.0
    out = c.pointer_up(px(7.7, 10.1))
    assert c.drag is None
    (intent,) = out
    assert intent.kind == "actions"
    (action,) = intent.data["actions"]
    assert action["do"] == "move" and action["model"] == "s1"
    assert action["path"][-1] == pytest.approx([7.5, 10.0])


def test_leaving_the_zone_snaps_the_ghost_to_its_edge() -> None:
    c, _ = make()
    c.pointer_down(px(5, 10))
    c.pointer_move(px(25, 10))  # 20" away; the zone reaches 6"
    d = c.drag
    assert d is not None and d.snapped
    gx, gy = d.ghosts["s1"]
    assert math.dist((gx, gy), (5, 10)) == pytest.approx(6.0, abs=0.01)
    assert gy == pytest.approx(10.0, abs=1e-6)


def test_escape_cancels_a_drag_and_nothing_is_staged() -> None:
    c, _ = make()
    c.pointer_down(px(5, 10))
    c.pointer_move(px(8, 10))
    assert c.key("escape") == []
    assert c.drag is None
    assert c.pointer_up(px(8, 10)) == []


def test_shift_drag_moves_the_whole_unit_by_the_same_vector() -> None:
    c, calls = make()
    c.pointer_down(px(5, 10), shift=True)
    assert sorted(calls) == ["s1", "s2"]
    c.pointer_move(px(5, 13))
    d = c.drag
    assert d is not None
    assert d.ghosts["s2"] == pytest.approx((6.5, 13.0))
    (intent,) = c.pointer_up(px(5, 13))
    moved = {a["model"]: a["path"][-1] for a in intent.data["actions"]}
    assert moved["s1"] == pytest.approx([5.0, 13.0])
    assert moved["s2"] == pytest.approx([6.5, 13.0])


def test_a_click_without_moving_stages_nothing() -> None:
    c, _ = make()
    c.pointer_down(px(5, 10))
    assert c.pointer_up(px(5, 10)) == []


def test_keys_map_to_actions() -> None:
    c, _ = make(selected=False)
    c.pointer_down(px(5, 10))  # focus the squad
    assert c.key("n")[0].data["actions"] == [{"do": "select", "unit": "squad", "move": "normal"}]
    assert c.key("a")[0].data["actions"][0]["move"] == "advance"
    assert c.key("f", shift=True)[0].data["actions"][0]["mode"] == "desperate-escape"
    assert c.key("return")[0].data["actions"] == [{"do": "commit"}]
    assert c.key("z", ctrl=True)[0].data["actions"] == [{"do": "undo"}]
    assert c.key("r")[0].data["actions"] == [{"do": "reset"}]
    assert c.key("space")[0].data["actions"] == [{"do": "next"}]
    assert c.key("s", ctrl=True)[0].kind == "save"
    assert c.key("g")[0].data == {"what": "grid"}


def test_pan_and_zoom_change_only_the_viewport() -> None:
    c, _ = make()
    c.pointer_down((100, 100), button=3)
    c.pointer_move((130, 90))
    c.pointer_up((130, 90), button=3)
    assert (c.viewport.ox, c.viewport.oy) == (30.0, -10.0)
    before = c.viewport.to_inches(200, 150)
    c.wheel((200, 150), 2)
    assert c.viewport.scale > 10.0
    assert c.viewport.to_inches(200, 150) == pytest.approx(before)


def test_ruler_measures_points_and_bases() -> None:
    c, _ = make()
    c.key("m")
    c.pointer_down(px(2, 2))
    c.pointer_move(px(5, 6))
    c.pointer_up(px(5, 6))
    assert c.ruler is not None and c.ruler.distance == pytest.approx(5.0)
    c.pointer_down(px(5, 10))  # on s1
    c.pointer_move(px(20, 10))  # on f1
    c.pointer_up(px(20, 10))
    r32 = 32 / 25.4 / 2
    assert c.ruler.distance == pytest.approx(15.0 - 2 * r32, abs=1e-6)
    assert "base to base" in c.ruler.label


def test_placement_from_a_list_gives_a_place_action() -> None:
    c, _ = make()
    c.begin_placement("s2", px(12, 12))
    assert c.drag is not None and c.drag.placing
    (intent,) = c.pointer_up(px(12, 12))
    action = intent.data["actions"][0]
    assert action["do"] == "place" and action["model"] == "s2"

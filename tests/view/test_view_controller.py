"""The drag logic as a pure state machine, without SDL and without the zone engine."""

from __future__ import annotations

import math

import pytest

from tabletop.view.controller import Controller
from tabletop.view.ruler import ruler_label
from tabletop.view.viewport import Viewport

from support.view_support import DiscZone, small_state

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


def test_keys_map_to_intents() -> None:
    c, _ = make(selected=False)
    c.pointer_down(px(5, 10))  # focus the squad
    assert c.key("n")[0].data == {"unit": "squad", "move": "normal"}
    assert c.key("a")[0].data["move"] == "advance"
    assert c.key("f", shift=True)[0].data["mode"] == "desperate-escape"
    kinds = {k: c.key(k, **mods)[0].kind for k, mods in (
        ("return", {}), ("space", {}), ("t", {}), ("home", {}), ("z", {"ctrl": True}),
        ("y", {"ctrl": True}), ("s", {"ctrl": True}), ("q", {"ctrl": True}))}
    assert kinds == {"return": "commit", "space": "next", "t": "threat", "home": "fit",
                     "z": "undo", "y": "redo", "s": "save", "q": "quit"}
    assert c.key("z", ctrl=True, shift=True)[0].kind == "redo"
    assert c.key("s", ctrl=True, shift=True)[0].kind == "save-as"
    assert c.key("r")[0].data["actions"] == [{"do": "reset"}]
    assert c.key("g")[0].data == {"what": "grid"}
    assert c.key("2")[0].data == {"what": "engagement"}
    assert c.key("q") == [] and c.key("e") == []  # free for turning a model


def test_escape_unwinds_drag_then_picked_models_then_the_selection() -> None:
    c, _ = make()
    c.pointer_down(px(5, 10), ctrl=True)
    c.pointer_down(px(6.5, 10), ctrl=True)
    assert c.picked == {"s1", "s2"} and c.drag is None
    c.pointer_down(px(5, 10))
    assert c.drag is not None
    assert c.key("escape") == [] and c.drag is None
    assert c.key("escape") == [] and not c.picked
    assert [i.kind for i in c.key("escape")] == ["cancel"]


def test_ruler_reads_three_decimals_near_the_thresholds() -> None:
    assert ruler_label(2.0004) == '2.000"'
    assert ruler_label(1.96) == '1.960"' and ruler_label(9.04) == '9.040"'
    assert ruler_label(4.5) == '4.50"' and ruler_label(2.06) == '2.06"'
    assert ruler_label(12.0, bases=True) == '12.000" base to base'


def test_box_selection_picks_the_moving_units_models_inside_it() -> None:
    c, _ = make()
    c.pointer_down(px(4, 9))  # empty ground
    c.pointer_move(px(5.5, 11))
    assert c.box is not None
    c.pointer_up(px(5.5, 11))
    assert c.picked == {"s1"}
    c.pointer_down(px(4, 9))
    c.pointer_up(px(4, 9))  # a click on empty ground clears it
    assert c.picked == set()


def test_picked_models_move_together_each_along_its_own_legal_path() -> None:
    """A follower whose straight copy of the anchor's move would leave its zone stops at its
    zone's edge instead (the whole-unit Shift-drag keeps one vector, as before)."""
    radius = {"s1": 3.0, "s2": 6.0}
    c = Controller(small_state(), VP, zone_fn=lambda s, m: DiscZone(s.model(m)[1].at, radius[m]),
                   cap_fn=lambda s, m: 6.0)
    c.pointer_down(px(5, 10), ctrl=True)
    c.pointer_down(px(6.5, 10), ctrl=True)
    c.pointer_down(px(6.5, 10))  # s2 is the anchor
    c.pointer_move(px(11.5, 10))  # 5" right: inside s2's zone, outside s1's (3")
    d = c.drag
    assert d is not None and d.follower_paths
    assert d.ghosts["s2"] == pytest.approx((11.5, 10.0))
    assert d.ghosts["s1"] == pytest.approx((8.0, 10.0), abs=0.02)
    assert d.legal["s1"]
    (intent,) = c.pointer_up(px(11.5, 10))
    moved = {a["model"]: a["path"] for a in intent.data["actions"]}
    assert moved["s1"][-1] == pytest.approx([8.0, 10.0], abs=1e-6)


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


def test_a_drop_forgets_the_model_that_was_under_the_pointer_before_the_drag() -> None:
    c, _ = make()
    c.pointer_move(px(5.0, 10.0))
    assert c.hover == "s1"
    c.pointer_down(px(5.0, 10.0))
    c.pointer_move(px(8.0, 14.0))
    c.pointer_up(px(8.0, 14.0))
    assert c.hover is None  # no card of s1 drawn where s1 no longer is

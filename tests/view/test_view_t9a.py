"""t9a-2 blocks in the window: select, drag the front edge, wheel by a front corner, reform.

The pure parts (handles, straight and wheel clamping, the block tool with the real rules) run
without SDL; the app runs under SDL's dummy video driver, driven by posted events like
``test_view_app.py``.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest

from tabletop.geometry.blocks import BlockGeom
from tabletop.rulesets import apply_action, apply_actions
from tabletop.rulesets.t9a_2 import movement as t9a
from tabletop.scenario.io import load_scenario, save_scenario, shipped
from tabletop.state import Block, GameState
from tabletop.view.app import App
from tabletop.view.blockdrag import (
    BlockRanges,
    BlockTool,
    handle_at,
    handle_points,
    straight_action,
    wheel_action,
)
from tabletop.view.bridge import Rules
from tabletop.view.controller import Controller
from tabletop.view.viewport import Viewport

from support.view_support import key, post, roll


def lines() -> GameState:
    """The shipped t9a-lines board."""
    return load_scenario(shipped("t9a-lines.toml"))


def at_move_units(state: GameState) -> GameState:
    """``state`` after ``next`` up to the move-units step (rally and flee resolved)."""
    while state.battle.step != "move-units":
        res = apply_action(state, {"do": "next"})
        assert res.ok, res.reasons
        state = res.state
    return state


def selected(state: GameState, unit: str, move: str) -> GameState:
    res = apply_action(at_move_units(state), {"do": "select", "unit": unit, "move": move})
    assert res.ok, res.reasons
    return res.state


def geom() -> BlockGeom:
    """Five 1"-wide bases in one rank at (10, 10), facing up (0 degrees)."""
    return BlockGeom(1.0, 2.0, 5, 5, (10.0, 10.0), 0.0)


# -- pure: handles and clamping -----------------------------------------------------------------
def test_handles_front_corners_first_then_the_edge_and_the_body() -> None:
    g = geom()
    scale = 20.0
    assert handle_at(g, g.corners["fl"], scale) == "fl"
    assert handle_at(g, g.corners["fr"], scale) == "fr"
    assert handle_at(g, (10.4, 9.0), scale) == "move"  # the front edge
    assert handle_at(g, (10.0, 10.5), scale) == "move"  # the body
    assert handle_at(g, (10.0, 14.0), scale) is None
    hp = handle_points(g, scale)
    assert handle_at(g, hp["rotate"], scale) is None  # no reform handles unless asked for
    assert handle_at(g, hp["rotate"], scale, reform=True) == "rotate"
    assert handle_at(g, hp["files"], scale, reform=True, move=False) == "files"


def test_straight_drag_follows_the_pointer_and_clamps_to_the_range() -> None:
    g = geom()
    r = BlockRanges(forward=4.0, backward=2.0, right=2.0, left=0.0)
    grab = (10.0, 9.0)
    act, clamped = straight_action(g, grab, (10.2, 6.03), r)  # mostly up: forwards
    assert act == {"do": "forward", "distance": pytest.approx(3.0)} and not clamped
    act, clamped = straight_action(g, grab, (10.0, 1.0), r)  # 8" asked, 4" allowed
    assert act == {"do": "forward", "distance": 4.0} and clamped
    act, _ = straight_action(g, grab, (10.0, 10.5), r)  # down: backwards
    assert act == {"do": "backward", "distance": pytest.approx(1.5)}
    act, clamped = straight_action(g, grab, (15.0, 9.0), r)  # right: sideways, clamped
    assert act == {"do": "sideways", "distance": 2.0} and clamped
    act, _ = straight_action(g, grab, (8.0, 9.0), r)  # left is not allowed: no move
    assert act is None
    act, _ = straight_action(g, grab, (10.01, 8.98), r)  # a twitch is no move
    assert act is None


def test_wheel_drag_sign_and_clamp() -> None:
    g = geom()
    fl, fr = g.corners["fl"], g.corners["fr"]
    # the left corner turned 30 degrees clockwise about the right one
    a = math.radians(30.0)
    target = (fr[0] - 5.0 * math.cos(a), fr[1] - 5.0 * math.sin(a))
    act, clamped, raw = wheel_action(g, "fl", target, (-90.0, 90.0))
    assert raw == pytest.approx(30.0) and act == {"do": "wheel", "angle": 30.0}
    assert not clamped
    act, clamped, _ = wheel_action(g, "fl", target, (-90.0, 12.5))
    assert act == {"do": "wheel", "angle": 12.5} and clamped
    # the right corner wheels anticlockwise about the left one
    target = (fl[0] + 5.0 * math.cos(a), fl[1] - 5.0 * math.sin(a))
    act, _, raw = wheel_action(g, "fr", target, (-90.0, 90.0))
    assert raw == pytest.approx(-30.0) and act == {"do": "wheel", "angle": -30.0}
    # dragging the left corner backwards is no clockwise wheel
    act, clamped, _ = wheel_action(g, "fl", (fl[0], fl[1] + 2.0), (-90.0, 90.0))
    assert act is None and clamped


# -- the block tool with the real rules (no SDL) -----------------------------------------------
def test_the_tool_asks_for_ranges_once_per_manoeuvre_and_previews_live() -> None:
    state = selected(lines(), "knights", "advance")
    tool = BlockTool(Rules())
    g = t9a.block_geom(state.unit("knights"))
    front = g.to_world(0.3, g.depth / 2)
    assert tool.press(state, front, 12.0)
    assert tool.drag is not None and tool.drag.handle == "move"
    for k in range(1, 30):
        tool.move(state, (front[0], front[1] - 0.2 * k))
    assert tool.range_calls == 1  # computed on pick-up only
    assert tool.preview_calls >= 20
    acts = tool.release(state, (front[0], front[1] - 20.0))
    assert acts == [{"do": "forward", "distance": t9a.straight_range(state, "forward")}]
    assert acts[0]["distance"] == pytest.approx(8.0, abs=1e-5)  # the Advance Rate


def test_reform_keys_build_a_reform_with_live_legality() -> None:
    state = selected(lines(), "spearmen", "reform")
    c = Controller(state, Viewport(scale=12.0), blocks=Rules())
    assert c.key("]") == [] and c.key("]") == []
    assert c.key("right") == []
    bt = c.blocks
    assert bt is not None and bt.reform is not None
    assert bt.reform.action == {"do": "reform", "files": 8, "facing": 90.0}
    assert bt.reform.ok and bt.reform.ghost is not None and bt.reform.ghost.files == 8
    assert "8 x 4" in bt.reform.label and '/ 8"' in bt.reform.label
    out = c.key("return")
    assert out and out[0].data["stop_on_refusal"]
    assert out[0].data["actions"] == [{"do": "reform", "files": 8, "facing": 90.0},
                                      {"do": "commit"}]
    # Esc drops a reform being built
    c.key("[")
    assert bt.reform is not None
    c.key("escape")
    assert bt.reform is None


# -- the app -----------------------------------------------------------------------------------
@pytest.fixture
def app_factory(tmp_path: Path):  # type: ignore[no-untyped-def]
    def make(state: GameState) -> App:
        app = App(state, save_path=tmp_path / "game.toml", size=(1280, 820),
                  saver=save_scenario)
        app.step()
        return app

    yield make
    pygame.display.quit()


def click(app: App, p: tuple[float, float]) -> None:
    px = app.ctrl.viewport.to_px(*p)
    post(app, pygame.MOUSEBUTTONDOWN, pos=px, button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=px, button=1)


def press(app: App, p: tuple[float, float]) -> None:
    post(app, pygame.MOUSEBUTTONDOWN, pos=app.ctrl.viewport.to_px(*p), button=1)


def motion(app: App, p: tuple[float, float]) -> None:
    post(app, pygame.MOUSEMOTION, pos=app.ctrl.viewport.to_px(*p), rel=(0, 0),
         buttons=(1, 0, 0))


def release(app: App, p: tuple[float, float]) -> None:
    post(app, pygame.MOUSEBUTTONUP, pos=app.ctrl.viewport.to_px(*p), button=1)


def block(app: App, unit: str) -> Block:
    u = app.state.unit(unit)
    assert isinstance(u, Block)
    return u


def to_move_units(app: App) -> None:
    """Space until the move-units step; the rally and flee dice are shown (the window asks
    before rolling them)."""
    for _ in range(20):
        if app.state.battle.step == "move-units":
            return
        key(app, pygame.K_SPACE)
        if app.dialog is not None and app.dialog.purpose == "dice":
            roll(app)
    raise AssertionError(f"never reached the move-units step: {app.message}")


def choose(app: App, unit: str, k: int) -> None:
    click(app, block(app, unit).at)
    key(app, k)
    sel = app.state.battle.selection
    assert sel is not None and sel.unit == unit, app.message


def front_middle(app: App, unit: str, u: float = 0.3) -> tuple[float, float]:
    g = app.rules.block_geom(block(app, unit))
    return g.to_world(u, g.depth / 2 - 0.05)


def test_space_resolves_rally_and_flee_with_dice_and_the_panel_greys_fleeing(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(lines())
    to_move_units(app)
    rally = [r for r in app.tray if r.purpose == "Rally test"]
    assert rally and rally[0].unit == "archers" and len(rally[0].dice) == 2
    assert "Dis 4" in rally[0].result  # decimated: half of Dis 7, rounded up
    # the archers fled or rallied (shaken): either way they may not move now
    click(app, block(app, "archers").at)
    assert app.ctrl.focus == "archers"
    elig = {e.move: e for e in app.rules.eligibility(app.state, "archers")}
    assert set(elig) == {"advance", "march", "reform"}
    assert not elig["advance"].ok and not elig["march"].ok
    assert any(w in elig["advance"].reason for w in ("fleeing", "Shaken"))
    rows = {r.value: r.enabled for r in app.rows if r.kind == "move"}
    assert rows and not rows["advance"]


def test_drag_the_knights_front_edge_forwards_and_commit(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(lines())
    to_move_units(app)
    choose(app, "knights", pygame.K_a)
    start = block(app, "knights").at
    a = front_middle(app, "knights")
    press(app, a)
    bt = app.ctrl.blocks
    assert bt is not None and bt.drag is not None and bt.drag.handle == "move"
    for k in range(1, 9):
        motion(app, (a[0], a[1] - 0.5 * k))
    d = bt.drag
    assert d.action == {"do": "forward", "distance": pytest.approx(4.0)}
    assert d.label == 'forward 4.0" / 8"'
    assert d.ok and not d.end_reasons
    assert bt.range_calls == 1
    release(app, (a[0], a[1] - 4.0))
    assert block(app, "knights").at == pytest.approx((start[0], start[1] - 4.0))
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message
    knights = block(app, "knights")
    assert knights.at == pytest.approx((60.0, 36.0)) and "moved" in knights.flags
    # the same game replays from the action log
    log = json.loads(app.log_path.read_text())
    assert [x["do"] for x in log] == ["next", "next", "select", "forward", "commit"]
    final, results = apply_actions(load_scenario(app.start_path), log)
    assert all(r.ok for r in results)
    assert final.unit("knights").at == pytest.approx(knights.at)
    # once moved, the knights are greyed with the reason
    elig = {e.move: e for e in app.rules.eligibility(app.state, "knights")}
    assert not elig["advance"].ok and "already moved" in elig["advance"].reason


def test_a_wheel_drag_is_clamped_to_the_legal_range(app_factory) -> None:  # type: ignore[no-untyped-def]
    state = lines()
    # a red unit ahead and to the right of the knights: it stops a clockwise wheel
    foe = replace(state.unit("warband"), id="guards", at=(65.0, 33.5), facing=180.0)
    state = replace(state, units=(*state.units, foe))
    app = app_factory(state)
    to_move_units(app)
    choose(app, "knights", pygame.K_a)
    legal = t9a.wheel_range(app.state)
    g = app.rules.block_geom(block(app, "knights"))
    fl, fr = g.corners["fl"], g.corners["fr"]
    press(app, fl)
    bt = app.ctrl.blocks
    assert bt is not None and bt.drag is not None and bt.drag.handle == "fl"
    radius = math.dist(fl, fr)
    for deg in range(5, 175, 10):  # sweep the corner round to almost 180 degrees
        a = math.radians(deg)
        motion(app, (fr[0] - radius * math.cos(a), fr[1] - radius * math.sin(a)))
    d = bt.drag
    assert bt.wheel_calls == 1  # the wheel range was computed once, on pick-up
    assert d.wheel == pytest.approx(legal)
    assert 0.0 < legal[1] < 170.0
    assert d.clamped and d.action == {"do": "wheel", "angle": legal[1]}
    assert "outer arc" in d.label and "wheel" in d.label
    assert d.limit_ghosts and d.range_area is not None
    release(app, (fr[0] + radius, fr[1]))
    staged = app.state.battle.selection.staged  # type: ignore[union-attr]
    assert staged == ({"do": "wheel", "angle": legal[1]},), app.message
    assert block(app, "knights").facing == pytest.approx(legal[1] % 360.0)
    # undo takes the wheel back, reset too
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert block(app, "knights").facing == 0.0
    assert app.state.battle.selection is not None and not app.state.battle.selection.staged


@pytest.mark.slow
def test_an_end_within_one_inch_is_shown_and_refused(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from support.pngio import read_png

    state = lines()
    # the warband 3.06" in front of the spearmen: a 2.5" advance is legal but ends 0.56" away
    state = state.with_unit(replace(state.unit("warband"), at=(24.0, 23.0)))
    app = app_factory(state)
    to_move_units(app)
    choose(app, "spearmen", pygame.K_a)
    a = front_middle(app, "spearmen")
    press(app, a)
    for k in range(1, 6):
        motion(app, (a[0], a[1] - 0.5 * k))
    bt = app.ctrl.blocks
    assert bt is not None and bt.drag is not None
    d = bt.drag
    assert d.action == {"do": "forward", "distance": pytest.approx(2.5)}
    assert d.ok and d.end_reasons and "warband" in d.end_reasons[0]
    assert [n.label for n in d.near] == ["unit warband"]
    assert d.near[0].distance == pytest.approx(0.563, abs=1e-3)
    live = app._block_live()
    assert live is not None and live[1] and "may not end here" in live[0]
    shot = app.screenshot(tmp_path / "t9a-within-1-inch.png")
    img = read_png(shot)
    gx, gy = app.ctrl.viewport.to_px(*d.ghost.corners["rl"])  # type: ignore[union-attr]
    patch = img[int(gy) - 2:int(gy) + 3, int(gx) - 2:int(gx) + 3].reshape(-1, img.shape[2])
    assert any(tuple(p[:3]) == (255, 170, 60) for p in patch)  # the ghost outlined orange
    release(app, (a[0], a[1] - 2.5))
    assert block(app, "spearmen").at == pytest.approx((24.0, 27.5))
    key(app, pygame.K_RETURN)
    assert app.message.startswith("refused")
    assert app.refusal is not None and any('1"' in r for r in app.refusal.reasons)
    # nothing is lost: the block stays where it was staged, still selected, to be fixed
    assert block(app, "spearmen").at == pytest.approx((24.0, 27.5))
    assert app.state.battle.selection is not None
    labels = [m.label for m in app.block_marks if m.label]
    assert labels == ['0.56" ≤ 1"']
    assert app.block_marks[0].outlines  # the block outlined where it was refused
    app.step()
    img = read_png(app.screenshot(tmp_path / "t9a-refused.png"))
    assert (np.all(img[:, :, :3] == (255, 64, 200), axis=-1)).sum() > 50  # drawn in magenta


def test_reform_by_keys_then_enter_commits(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(lines())
    to_move_units(app)
    choose(app, "spearmen", pygame.K_f)
    key(app, pygame.K_RIGHTBRACKET)
    key(app, pygame.K_RIGHTBRACKET)
    key(app, pygame.K_RIGHT)
    bt = app.ctrl.blocks
    assert bt is not None and bt.reform is not None and bt.reform.ok
    live = app._block_live()
    assert live is not None and not live[1]
    key(app, pygame.K_RETURN)
    sp = block(app, "spearmen")
    assert (sp.files, sp.facing, sp.at) == (8, 90.0, (24.0, 30.0)), app.message
    assert "reformed" in sp.flags and app.state.battle.selection is None


def test_reform_by_dragging_the_rotate_handle(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(lines())
    to_move_units(app)
    choose(app, "knights", pygame.K_f)
    g = app.rules.block_geom(block(app, "knights"))
    hp = handle_points(g, app.ctrl.viewport.scale)
    press(app, hp["rotate"])
    bt = app.ctrl.blocks
    assert bt is not None and bt.drag is not None and bt.drag.handle == "rotate"
    r = math.dist(hp["rotate"], g.at)
    motion(app, (g.at[0] + r, g.at[1]))  # a quarter turn clockwise
    release(app, (g.at[0] + r, g.at[1]))
    assert bt.reform is not None and bt.reform.facing == pytest.approx(90.0)
    assert app.state.battle.selection is not None and not app.state.battle.selection.staged
    key(app, pygame.K_RETURN)
    assert block(app, "knights").facing == pytest.approx(90.0), app.message


@pytest.mark.slow
def test_screenshot_of_a_wheel_being_dragged(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from support.pngio import read_png

    app = app_factory(lines())
    to_move_units(app)
    choose(app, "knights", pygame.K_a)
    a = front_middle(app, "knights")
    press(app, a)
    motion(app, (a[0], a[1] - 3.0))
    release(app, (a[0], a[1] - 3.0))
    g = app.rules.block_geom(block(app, "knights"))
    fr = g.corners["fr"]
    press(app, g.corners["fl"])
    t = math.radians(40.0)
    motion(app, (fr[0] - g.width * math.cos(t), fr[1] - g.width * math.sin(t)))
    shot = app.screenshot(tmp_path / "t9a-wheel.png")
    img = read_png(shot)
    assert img.shape[:2] == (820, 1280)
    assert len(np.unique(img.reshape(-1, img.shape[2])[:, :3], axis=0)) > 50


def test_swift_reform_is_staged_by_enter_then_the_advance_goes_on() -> None:
    state = lines()
    knights = state.unit("knights")
    assert isinstance(knights, Block)
    state = state.with_unit(replace(knights, flags=("swift-reform",)))
    state = selected(state, "knights", "advance")
    c = Controller(state, Viewport(scale=12.0), blocks=Rules())
    bt = c.blocks
    assert bt is not None and bt.can_reform(state) and bt.can_move(state)
    assert c.key("[") == []
    assert bt.reform is not None and bt.reform.files == 4
    # while a reform is being built the move handles are off
    g = t9a.block_geom(state.unit("knights"))
    assert bt.handle_under(state, g.corners["fl"], 12.0) is None
    out = c.key("return")
    assert out[0].data["actions"] == [{"do": "reform", "files": 4, "facing": 0.0}]
    res = apply_action(state, out[0].data["actions"][0])
    assert res.ok, res.reasons
    c.state = res.state
    assert not bt.can_reform(res.state) and bt.reform_edit(res.state) is None
    g = t9a.block_geom(res.state.unit("knights"))
    front = g.to_world(0.0, g.depth / 2 - 0.05)
    assert bt.press(res.state, front, 12.0) and bt.drag is not None
    assert bt.release(res.state, (front[0], front[1] - 2.0)) == [
        {"do": "forward", "distance": pytest.approx(2.0)}]


def test_the_panel_names_the_rally_test_space_rolls_and_not_what_follows(app_factory,  # type: ignore[no-untyped-def]
                                                                         monkeypatch) -> None:
    """In the Rally Fleeing Units step the panel says Space rolls the archers' Rally test, as
    wh40k-11e's Battle-shock step names its tests; the flee roll that a failed rally brings is
    not named (it would tell the rally's result)."""
    from support.view_support import panel_text

    app = app_factory(lines())
    while app.state.battle.step != "rally":
        app.apply({"do": "next"})
    text = panel_text(app, monkeypatch)
    assert "On Space (dice are rolled): Rally test: archers" in text, text
    assert "Flee distance" not in text, text

"""The window driven by posted mouse and keyboard events under SDL's dummy video driver."""

from __future__ import annotations

import json
import math

import numpy as np
import pygame
import pytest
from shapely.geometry import Point

from tabletop.geometry.footprints import parse_base
from tabletop.scenario.io import load_scenario, save_scenario
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Terrain, Unit
from tabletop.view.app import App

from support.view_support import drag, key, post, roll

B32 = parse_base("32mm")
R32 = 32 / 25.4 / 2


def board(*, screen: bool = False) -> GameState:
    """Red's 3-model squad on the left; with ``screen``, a wall of blue models in front of it."""
    squad = Unit("squad", "red", ("INFANTRY",), 6, 1, 7, 2,
                 tuple(Model(f"s{i}", B32, at=(6.0, 8.0 + 1.5 * i)) for i in range(3)),
                 name="Squad")
    foes: tuple[Model, ...]
    if screen:
        foes = tuple(Model(f"f{i}", B32, at=(12.0, 3.0 + 1.3 * i)) for i in range(12))
    else:
        foes = (Model("f0", B32, at=(26.0, 18.0)),)
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, foes, name="Foes")
    return GameState(
        name="view test", ruleset="wh40k-11e",
        battle=Battle(2, "red", "movement", seed=3, step="move-units"),
        players=(Player("red"), Player("blue")),
        battlefield=Battlefield(30.0, 22.0),
        terrain=(Terrain("crate", "light", ((20, 2), (22, 2), (22, 4), (20, 4)), height=1.0),),
        units=(squad, foe),
    )


def select_normal(app: App, model_at: tuple[float, float]) -> None:
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(*model_at), button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=vp.to_px(*model_at), button=1)
    key(app, pygame.K_n)
    sel = app.state.battle.selection
    assert sel is not None and sel.unit == "squad" and sel.move == "normal", app.message


def at(app: App, mid: str) -> tuple[float, float]:
    pos = app.state.model(mid)[1].at
    assert pos is not None
    return pos


def test_a_drag_moves_a_model_to_a_legal_spot(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    drag(app, (6.0, 8.0), (9.0, 8.0))
    assert at(app, "s0") == pytest.approx((9.0, 8.0), abs=0.02)
    assert app.state.battle.selection is not None
    assert len(app.state.battle.selection.staged) == 1
    # dragging again continues from there
    drag(app, (9.0, 8.0), (10.0, 8.0))
    assert at(app, "s0") == pytest.approx((10.0, 8.0), abs=0.02)
    # the action log beside the save holds every action, replayable
    log = json.loads(app.log_path.read_text())
    assert [a["do"] for a in log] == ["select", "move", "move"]
    assert app.start_path.is_file()


def test_a_drag_into_an_enemy_screen_snaps_to_the_zone_edge(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board(screen=True))
    select_normal(app, (6.0, 9.5))
    vp = app.ctrl.viewport
    start = (6.0, 9.5)
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(*start), button=1)
    d = app.ctrl.drag
    assert d is not None
    zone = d.zones["s1"]
    assert zone is not None
    target = (11.0, 9.5)  # inside the enemies' engagement range
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(*target), rel=(0, 0), buttons=(1, 0, 0))
    assert d.snapped
    gx, gy = d.ghosts["s1"]  # while dragging: on the zone's polygon, at its edge
    assert zone.geometry.boundary.distance(Point(gx, gy)) < 1e-3
    assert gx < 9.0
    post(app, pygame.MOUSEBUTTONUP, pos=vp.to_px(*target), button=1)
    x, y = at(app, "s1")  # on release: the zone's exact nearest legal point
    assert zone.contains(x, y)
    assert (x, y) == pytest.approx((gx, gy), abs=1e-3)
    foes = [m for u in app.state.units if u.id == "foe" for m in u.models]  # type: ignore[union-attr]
    nearest = min(math.dist((x, y), f.at) - 2 * R32 for f in foes)
    assert nearest >= 2.0 - 1e-4  # not within engagement range
    assert nearest < 2.05  # ... and right at its edge


def test_a_refused_commit_keeps_the_staged_models_so_one_can_be_fixed(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    drag(app, (6.0, 8.0), (6.0, 3.0))  # 5" away from the others: out of coherency
    drag(app, (6.0, 11.0), (7.0, 11.0))
    staged = {m: at(app, m) for m in ("s0", "s1", "s2")}
    assert staged["s0"] == pytest.approx((6.0, 3.0), abs=0.02)
    n_log = len(json.loads(app.log_path.read_text()))
    key(app, pygame.K_RETURN)
    assert app.refusal is not None and app.refusal.reasons
    assert app.message.startswith("refused")
    assert app.tab == "refusals" and app.refusal_groups()[0][0] == "Coherency"
    # nothing is lost: the models stay where they were staged, still selected, and the marks
    # (the offender, the distance) are drawn on the board
    assert {m: at(app, m) for m in staged} == staged
    assert app.state.battle.selection is not None
    assert "s0" in {m for mark in app._marks() for m in mark.models}
    assert len(json.loads(app.log_path.read_text())) == n_log  # a refusal is not logged
    shot = app.screenshot(app.save_path.with_name("refused.png"))
    assert shot.is_file()
    # fix the one model: put it back alone (Backspace over it; the other moves stay), move it
    # again and commit
    post(app, pygame.MOUSEMOTION, pos=app.ctrl.viewport.to_px(6.0, 3.0), rel=(0, 0),
         buttons=(0, 0, 0))
    key(app, pygame.K_BACKSPACE)
    assert at(app, "s0") == (6.0, 8.0), app.message
    assert at(app, "s2") == pytest.approx((7.0, 11.0), abs=0.02)
    drag(app, (6.0, 8.0), (6.0, 7.0))
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message
    assert app.refusal is None
    assert at(app, "s2") == pytest.approx((7.0, 11.0), abs=0.02)


def test_undo_takes_back_the_last_model_move(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    drag(app, (6.0, 8.0), (8.0, 8.0))
    drag(app, (6.0, 9.5), (8.0, 9.5))
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert at(app, "s1") == (6.0, 9.5)
    assert at(app, "s0") == pytest.approx((8.0, 8.0), abs=0.02)
    key(app, pygame.K_r)
    assert at(app, "s0") == (6.0, 8.0)


def test_ctrl_s_saves_a_file_that_loads_with_the_new_positions(app_factory) -> None:  # type: ignore[no-untyped-def]
    from tabletop.cli import main

    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    drag(app, (6.0, 8.0), (8.0, 8.0))
    drag(app, (6.0, 9.5), (8.0, 9.5))
    drag(app, (6.0, 11.0), (8.0, 11.0))
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert app.save_path.is_file(), app.message
    assert main(["check", str(app.save_path)]) == 0
    saved = load_scenario(app.save_path)
    for mid, y in (("s0", 8.0), ("s1", 9.5), ("s2", 11.0)):
        assert saved.model(mid)[1].at == pytest.approx((8.0, y), abs=0.02)
    # the log replays from the start state to the same positions
    from tabletop.rulesets import apply_actions

    start = load_scenario(app.start_path)
    final, results = apply_actions(start, json.loads(app.log_path.read_text()))
    assert all(r.ok for r in results)
    assert final.model("s2")[1].at == saved.model("s2")[1].at


def test_a_screenshot_that_cannot_be_written_is_said_in_the_status_line(
        app_factory, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import errno
    import os

    import tabletop.files

    app = app_factory(board())
    # the folder of the save (where P writes) is gone
    app.save_path = tmp_path / "gone" / "game.toml"
    key(app, pygame.K_p)
    assert app.message.startswith("could not save the screenshot: ")
    assert "gone is not an existing folder" in app.message and "\n" not in app.message
    assert not (tmp_path / "gone").exists()
    # a full disk: the write fails when flushed, and no temporary file is left
    app.save_path = tmp_path / "game.toml"

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tabletop.files.os, "fsync", full)
    key(app, pygame.K_p)
    assert app.message.startswith("could not save the screenshot: ")
    assert "No space left on device" in app.message
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    app.step()  # the window goes on, and the next screenshot is written
    key(app, pygame.K_p)
    assert app.message.startswith("screenshot ") and len(list(tmp_path.glob("*.png"))) == 1


@pytest.mark.slow
def test_screenshot_of_the_window(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from support.pngio import read_png

    app = app_factory(board(screen=True))
    select_normal(app, (6.0, 9.5))
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(6.0, 9.5), button=1)
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(9.5, 12.0), rel=(0, 0), buttons=(1, 0, 0))
    out = app.screenshot(tmp_path / "window.png")
    img = read_png(out)
    assert img.shape == (700, 1100, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50
    post(app, pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    assert app.ctrl.drag is None
    assert at(app, "s1") == (6.0, 9.5)


def test_play_without_a_display_says_so(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from tabletop.cli import main

    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_VIDEO_DRIVER"):
        monkeypatch.delenv(var, raising=False)
    rc = main(["play"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1 and "no display" in err[0] and "tabletop show" in err[0]



def test_disembark_by_dragging_from_the_transport_list(app_factory) -> None:  # type: ignore[no-untyped-def]
    from tabletop.scenario.io import shipped

    app = app_factory(load_scenario(shipped("reserves-and-transport.toml")))
    while app.state.battle.step != "move-units":
        key(app, pygame.K_SPACE)
    app.ctrl.focus = "passengers"
    key(app, pygame.K_d)
    assert app.state.battle.selection is not None, app.message
    rows = [r for r in app.rows if r.kind == "place"]
    assert rows, "the transport's models are listed"
    first = rows[0].value
    post(app, pygame.MOUSEBUTTONDOWN, pos=rows[0].rect.center, button=1)
    d = app.ctrl.drag
    assert d is not None and d.placing
    zone = d.zones[first]
    assert zone is not None and not zone.geometry.is_empty
    c = zone.geometry.representative_point()
    target = app.ctrl.viewport.to_px(c.x, c.y)
    post(app, pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(1, 0, 0))
    post(app, pygame.MOUSEBUTTONUP, pos=target, button=1)
    staged = app.state.battle.selection.staged
    assert staged and staged[-1]["do"] == "place" and staged[-1]["model"] == first, app.message
    assert first not in [r.value for r in app.rows if r.kind == "place"]
    assert app.ctrl.state.model(first)[1].at is not None  # drawn where it was placed


def test_command_phase_shows_cp_and_battle_shock_rolls(app_factory) -> None:  # type: ignore[no-untyped-def]
    from tabletop.scenario.io import shipped

    app = app_factory(load_scenario(shipped("command-phase.toml")))
    cp_before = {p.id: p.cp for p in app.state.players}
    for _ in range(3):
        key(app, pygame.K_SPACE)
    said = roll(app)  # the battle-shock tests: asked first, each unit named
    assert said[0].startswith("Battle-shock test for ") and said[0].endswith(": 2 dice.")
    assert {p.id: p.cp for p in app.state.players} != cp_before
    tests = [r for r in app.tray if r.purpose == "Battle-shock test"]
    assert tests and all(len(r.dice) == 2 for r in tests)
    assert all(r.when.endswith("· Command phase") for r in tests)  # as the panel titles it
    assert all("vs Ld" in r.result for r in tests)


def test_play_with_a_dead_display_says_so_instead_of_an_invisible_window(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "SDL_VIDEO_DRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":87"  # no X server there
    proc = subprocess.run([sys.executable, "-m", "tabletop", "play"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "tabletop show" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())  # nothing written


def test_end_of_turn_says_which_models_coherency_removes_and_the_owner_picks(app_factory) -> None:  # type: ignore[no-untyped-def]
    line = Unit("line", "red", ("INFANTRY",), 6, 1, 7, 1,
                tuple(Model(f"a{i}", B32, at=(2.0 + 1.5 * (i - 1), 10.0)) for i in range(1, 9)),
                name="Line")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f0", B32, at=(26.0, 18.0)),))
    state = GameState("coherency", "wh40k-11e", Battle(2, "red", "movement", step="end"),
                      (Player("red"), Player("blue")), Battlefield(30.0, 22.0),
                      units=(line, foe))
    app = app_factory(state)
    assert app.removal_preview()[0] == (("line", "a8"),)  # the program's choice, said before
    assert "a8" in {m for mark in app._marks() for m in mark.models}
    post(app, pygame.MOUSEBUTTONDOWN, pos=app.ctrl.viewport.to_px(2.0, 10.0), button=1)
    assert app.next_choice == {"remove": ["a1"]}
    assert app.removal_preview()[0] == (("line", "a1"),)
    key(app, pygame.K_SPACE)
    assert app.dialog is not None and "a1 will be removed" in app.dialog.lines[0]
    key(app, pygame.K_RETURN)
    ids = [m.id for m in app.state.unit("line").models]  # type: ignore[union-attr]
    assert "a1" not in ids and "a8" in ids
    assert app.history.actions[-1] == {"do": "next", "remove": ["a1"]}


def test_a_fly_unit_takes_to_the_skies_from_the_panel(app_factory) -> None:  # type: ignore[no-untyped-def]
    flyers = Unit("jump", "red", ("INFANTRY", "FLY"), 12, 1, 7, 1,
                  (Model("j1", B32, at=(6.0, 8.0)), Model("j2", B32, at=(7.5, 8.0))),
                  name="Jump Pack Squad")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f0", B32, at=(26.0, 18.0)),))
    state = GameState("fly", "wh40k-11e", Battle(2, "red", "movement", step="move-units"),
                      (Player("red"), Player("blue")), Battlefield(30.0, 22.0),
                      units=(flyers, foe))
    app = app_factory(state)
    post(app, pygame.MOUSEBUTTONDOWN, pos=app.ctrl.viewport.to_px(6.0, 8.0), button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=app.ctrl.viewport.to_px(6.0, 8.0), button=1)
    (row,) = [r for r in app.rows if r.kind == "select-flag"]
    assert row.value == "fly"
    post(app, pygame.MOUSEBUTTONDOWN, pos=row.rect.center, button=1)
    assert app.select_flags == {"fly"}
    key(app, pygame.K_n)
    assert app.history.actions[-1] == {"do": "select", "unit": "jump", "move": "normal",
                                       "fly": True}
    assert "took-to-the-skies" in app.state.unit("jump").flags


def test_a_destroyed_transports_passengers_are_set_up_from_the_panel(app_factory) -> None:  # type: ignore[no-untyped-def]
    from tabletop.geometry.footprints import parse_base as base_of

    hull = ((-2.2, -3.6), (2.2, -3.6), (2.2, 3.6), (-2.2, 3.6))
    rhino = Unit("rhino", "red", ("VEHICLE", "TRANSPORT"), 12, 10, 6, 2,
                 (Model("rh1", base_of("hull", hull), at=(14.0, 11.0), facing=90.0),),
                 flags=("destroyed",), name="Rhino")
    riders = Unit("riders", "red", ("INFANTRY",), 6, 1, 7, 1,
                  tuple(Model(f"r{i}", B32) for i in range(1, 4)), location="embarked",
                  transport="rhino", name="Riders")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f0", B32, at=(26.0, 18.0)),))
    state = GameState("wreck", "wh40k-11e", Battle(2, "red", "movement", step="move-units"),
                      (Player("red"), Player("blue")), Battlefield(30.0, 22.0),
                      units=(rhino, riders, foe))
    app = app_factory(state)
    assert app.group is not None and app.group.unit == "riders"
    from tabletop.geometry.footprints import footprint_distance

    first: tuple[float, float] | None = None
    for _ in range(3):
        row = next(r for r in app.rows if r.kind == "place")
        post(app, pygame.MOUSEBUTTONDOWN, pos=row.rect.center, button=1)
        d = app.ctrl.drag
        assert d is not None and d.placing
        zone = d.zones[d.anchor]
        if first is None:  # as close as possible to the transport
            x, y = first = zone.nearest(14.0, 11.0)
        else:  # touching the transport too, and coherent: beside the first rider
            ring = (zone.nearest(first[0] + 1.3 * math.cos(a), first[1] + 1.3 * math.sin(a))
                    for a in (math.radians(k) for k in range(0, 360, 5)))
            x, y = min(ring, key=lambda p: footprint_distance(
                B32, p, 0.0, rhino.models[0].base, (14.0, 11.0), 90.0) + 0.1 * math.hypot(
                    p[0] - first[0], p[1] - first[1]))
        target = app.ctrl.viewport.to_px(x, y)
        post(app, pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(1, 0, 0))
        post(app, pygame.MOUSEBUTTONUP, pos=target, button=1)
    assert len(app.group.placed) == 3 and app.history.actions == []  # staged in the window
    assert all(m.at is not None for m in app.ctrl.state.unit("riders").models)  # type: ignore[union-attr]
    key(app, pygame.K_RETURN)
    assert roll(app)[0] == "Emergency disembark hazard rolls for Riders: 3 dice."
    assert app.history.actions and app.history.actions[-1]["do"] == "emergency-disembark", \
        app.message
    assert app.state.unit("riders").location == "battlefield"  # type: ignore[union-attr]
    assert app.group is None and "rhino" not in {u.id for u in app.state.units}
    assert any("Emergency disembark" in r.purpose for r in app.tray)


def test_nothing_is_drawn_while_nothing_changes(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    frames = app.frames
    for _ in range(5):
        app.step()
    post(app, pygame.MOUSEMOTION, pos=(3, 3), rel=(0, 0), buttons=(0, 0, 0))  # empty table
    assert app.frames == frames
    post(app, pygame.MOUSEMOTION, pos=app.ctrl.viewport.to_px(6.0, 8.0), rel=(0, 0),
         buttons=(0, 0, 0))  # over a model: its card follows the pointer
    assert app.frames == frames + 1


def test_a_drag_frame_sends_only_the_rectangles_that_changed(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(6.0, 8.0), button=1)
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(7.0, 8.0), rel=(0, 0), buttons=(1, 0, 0))
    app.ctrl.pointer_move(vp.to_px(8.0, 8.0))
    rects = app.draw()
    assert rects is not None  # a partial update
    area = sum(r.w * r.h for r in rects)
    assert 0 < area < 0.25 * app.screen.get_width() * app.screen.get_height()


def test_zones_are_shaded_with_anti_aliased_edges() -> None:
    from tabletop.view import render
    from tabletop.view.viewport import Viewport

    from support.view_support import DiscZone

    pygame.display.init()
    vp = Viewport(scale=20.0)
    sprite = render.zone_sprite(DiscZone((10.0, 10.0), 3.0).geometry, vp,
                                pygame.Rect(0, 0, 600, 400), edge=None)
    assert sprite is not None
    surf, (x, y) = sprite
    alphas = np.unique(pygame.surfarray.pixels_alpha(surf))
    # drawn at 2x and scaled down: edge pixels a quarter, half or three quarters covered
    assert {0, render.ZONE_FILL[3]} < set(alphas.tolist()) and len(alphas) == 5
    assert (x, y) == (7 * 20 - 2, 7 * 20 - 2)  # its own bounding box, not the window


def test_save_as_checks_the_name_and_asks_before_replacing(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    select_normal(app, (6.0, 8.0))

    def save_as(name: str) -> None:
        key(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
        assert app.dialog is not None and app.dialog.purpose == "save-as"
        app.dialog.text = ""
        for ch in name:
            post(app, pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode=ch, scancode=0)
        key(app, pygame.K_RETURN)

    save_as(str(tmp_path / "game.txt"))
    assert app.dialog is not None and "must end in .toml or .json" in app.dialog.error
    key(app, pygame.K_ESCAPE)
    save_as(str(tmp_path / "nowhere" / "game.toml"))
    assert app.dialog is not None and "no folder" in app.dialog.error
    key(app, pygame.K_ESCAPE)
    (tmp_path / "taken.json").write_text("{}")
    save_as(str(tmp_path / "taken.json"))
    assert app.dialog is not None and app.dialog.purpose == "overwrite"
    key(app, pygame.K_RETURN)
    assert load_scenario(tmp_path / "taken.json").battle.selection is not None
    assert app.save_path == tmp_path / "taken.json" and not app.history.unsaved
    key(app, pygame.K_s, pygame.KMOD_CTRL)  # from now on Ctrl+S saves there
    assert app.save_path == tmp_path / "taken.json"


def test_quitting_with_unsaved_changes_asks(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(board())
    post(app, pygame.QUIT)
    assert not app.running  # nothing to lose: it just closes
    app.running = True
    select_normal(app, (6.0, 8.0))
    post(app, pygame.QUIT)
    assert app.running and app.dialog is not None and app.dialog.purpose == "quit"
    key(app, pygame.K_ESCAPE)
    assert app.running and app.dialog is None
    key(app, pygame.K_q, pygame.KMOD_CTRL)
    key(app, pygame.K_RETURN)  # save and quit
    assert not app.running and app.save_path.is_file()


def test_zoom_to_fit_the_refusal_list_scrolls_and_t_shows_a_threat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = App(board(screen=True), save_path=tmp_path / "game.toml", size=(1000, 460),
              saver=save_scenario)  # a short window: the refusal list does not fit
    app.step()
    fit = app.ctrl.viewport
    post(app, pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0))
    post(app, pygame.MOUSEWHEEL, x=0, y=3)
    assert app.ctrl.viewport != fit
    key(app, pygame.K_HOME)
    assert app.ctrl.viewport == fit
    # a refusal with many reasons: the list scrolls with the wheel
    select_normal(app, (6.0, 9.5))
    for i, y in enumerate((8.0, 9.5, 11.0)):
        drag(app, (6.0, y), (3.0 + i * 0.2, 2.0 + 8 * i))
    key(app, pygame.K_RETURN)
    assert app.tab == "refusals"
    app.step()
    assert app.scroll_max.get("refusals", 0) > 0, app.refusal_groups()
    post(app, pygame.MOUSEMOTION, pos=app.list_area.center, rel=(0, 0), buttons=(0, 0, 0))
    post(app, pygame.MOUSEWHEEL, x=0, y=-1)
    assert app.scroll["refusals"] > 0
    key(app, pygame.K_ESCAPE)  # the drag is long gone: Esc cancels nothing staged... R resets
    key(app, pygame.K_r)
    key(app, pygame.K_ESCAPE)
    # T: the threat range of the clicked enemy unit
    post(app, pygame.MOUSEBUTTONDOWN, pos=app.ctrl.viewport.to_px(12.0, 3.0), button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=app.ctrl.viewport.to_px(12.0, 3.0), button=1)
    assert app.ctrl.focus == "foe"
    key(app, pygame.K_t)
    assert app.threats.threat_unit == "foe" and "threat of Foes" in app.message
    assert app.threats.threat is not None and app.threats.threat.charges
    key(app, pygame.K_t)
    assert app.threats.threat_unit is None
    # O: safe ground of the clicked red squad (a normal move); = and - change the odds,
    # Shift+O keeps it near an objective (there is none on this board: everywhere again)
    post(app, pygame.MOUSEBUTTONDOWN, pos=app.ctrl.viewport.to_px(6.0, 8.0), button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=app.ctrl.viewport.to_px(6.0, 8.0), button=1)
    key(app, pygame.K_o)
    sg = app.threats.safe
    assert sg is not None and sg.unit == "squad" and sg.move == "normal", app.message
    assert sg.counted == ("foe",) and "out of reach of every charge roll" in app.message
    strict = sg.safe.area
    key(app, pygame.K_MINUS)
    key(app, pygame.K_MINUS)
    assert app.threats.odds.need == 11 and "safe unless 11+" in app.message
    assert app.threats.safe is not None and app.threats.safe.safe.area >= strict
    key(app, pygame.K_o, pygame.KMOD_SHIFT)
    assert app.threats.objective is None
    lines, _ = app.threats.legend(app.state)
    assert any("Charge phase not simulated" in t for t in lines)
    key(app, pygame.K_o)
    assert app.threats.safe_unit is None and app.threats.safe is None


def test_a_signal_stops_the_window_without_asking_and_says_where_the_log_is(  # type: ignore[no-untyped-def]
        app_factory, tmp_path, capsys) -> None:
    import os
    import signal

    from tabletop.cli import main
    from tabletop.view.app import stop_on_signals

    app = app_factory(board())
    select_normal(app, (6.0, 8.0))
    drag(app, (6.0, 8.0), (8.0, 8.0))
    assert app.history.unsaved
    restore = stop_on_signals(app)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        assert app.stopped_by == "SIGTERM" and not app.running
        assert app.run() == 0
    finally:
        restore()
    assert app.dialog is None  # nobody is there to answer one
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert str(app.log_path.resolve()) in err[0] and "tabletop apply" in err[0]  # type: ignore[union-attr]
    out = tmp_path / "replayed.toml"
    assert main(["apply", str(app.start_path), str(app.log_path), "-o", str(out)]) == 0
    expected = tmp_path / "expected.toml"
    save_scenario(app.state, expected)
    assert out.read_text() == expected.read_text()
    # a person's quit still asks (the window's close button, Ctrl+Q)
    app2 = app_factory(board())
    select_normal(app2, (6.0, 8.0))
    post(app2, pygame.QUIT)
    assert app2.running and app2.dialog is not None and app2.dialog.purpose == "quit"


@pytest.mark.slow
def test_tabletop_play_stopped_by_sigterm_exits_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The real command: SDL's own handler (a quit event, which would ask) is kept out."""
    import os
    import signal
    import subprocess
    import sys
    import time

    status = "/proc/self/status"
    if not os.path.exists(status):
        pytest.skip("needs /proc to see when the window catches SIGTERM")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "play"], env=env, cwd=tmp_path,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until the window catches SIGTERM (its loop runs)
            with open(f"/proc/{proc.pid}/status") as f:
                caught = int(next(x for x in f if x.startswith("SigCgt:")).split()[1], 16)
            if caught & (1 << (signal.SIGTERM - 1)):
                break
            assert proc.poll() is None, proc.stderr.read()  # type: ignore[union-attr]
            time.sleep(0.1)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    # (a first line names the Python zone engine where the compiled core is not built)
    lines = [x for x in err.strip().splitlines()
             if not x.startswith("tabletop play: zone engine:")]
    assert len(lines) == 1 and "stopped by SIGTERM; nothing unsaved" in lines[0], err

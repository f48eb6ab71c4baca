"""Nothing lost, ever, and never a false "saved", driven through the window: a full disk (a small
tmpfs, or an injected failing writer), Ctrl+S onto an earlier game's save, two windows on one
file, a link to nothing where the session log would go."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

import tabletop.files
from tabletop.rulesets import apply_actions
from tabletop.scenario.io import load_scenario, save_scenario
from tabletop.view.app import App
from tabletop.view.keeping import beside

from support.view_support import click, drag, fill, key, small_disk, small_state


def _move_squad(app: App, k: int) -> None:
    """Select the squad (the first time) and drag model ``s1`` or ``s2`` 2" down."""
    if app.state.battle.selection is None:
        click(app, (5.0, 10.0))
        key(app, pygame.K_n)
        assert app.state.battle.selection is not None, app.message
    mid, x = ("s1", 5.0) if k % 2 == 0 else ("s2", 6.5)
    y = app.state.model(mid)[1].at[1]  # type: ignore[index]
    drag(app, (x, y), (x, y + 1.0))
    assert app.state.model(mid)[1].at[1] == pytest.approx(y + 1.0), app.message  # type: ignore[index]


def _actions_in(note: str) -> list[dict[str, object]]:
    """The actions the stop note gives as JSON."""
    start = note.index("[{")
    actions, _ = json.JSONDecoder().raw_decode(note[start:])
    return actions  # type: ignore[no-any-return]


def _nothing_lost(app: App, break_disk: Callable[[], None], heal_disk: Callable[[], None]
                  ) -> None:
    _move_squad(app, 0)
    assert app.keeper.log_complete and not app.keeper.alerts
    start = app.start_path
    assert start is not None
    break_disk()
    _move_squad(app, 1)
    # the move is made; the failure is an alert of its own, not overwritten by the move's words
    assert "could not write the action log" in " ".join(app.keeper.alerts)
    assert "could not write" not in app.message and "s2" in app.message
    _move_squad(app, 2)
    app.step()
    assert app._alert_rects, "the alert is drawn on the board"
    assert len(app.keeper.alerts) == 1  # the same failure is not stacked again
    on_disk = json.loads(app.log_path.read_text())  # type: ignore[union-attr]
    assert len(on_disk) < len(app.history.actions) and not app.keeper.log_complete
    # a signal now: the note says so and gives every action, which replays to the window
    app.stopped_by = "SIGTERM"
    note = app.stop_note()
    assert "\n" not in note and "every action of the session is in" not in note
    assert "could not write the action log" in note
    actions = _actions_in(note)
    assert actions == app.history.actions
    final, results = apply_actions(load_scenario(start), actions)
    assert all(r.ok for r in results) and final == app.state
    # room again: the idle window writes the log, and the alert goes
    heal_disk()
    app.idle_checks()
    assert app.keeper.log_complete and not app.keeper.alerts, app.keeper.alerts
    assert json.loads(app.log_path.read_text()) == app.history.actions  # type: ignore[union-attr]
    note = app.stop_note()
    assert "every action of the session is in" in note


def test_a_full_disk_loses_nothing_injected_writer(app_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(small_state(selected=False))

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    _nothing_lost(app, lambda: monkeypatch.setattr(tabletop.files.os, "fsync", full),
                  monkeypatch.undo)


def test_a_full_disk_loses_nothing_tmpfs(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        if disk is None:
            pytest.skip("mounting a tmpfs needs root (the injected-writer test covers this)")
        app = App(small_state(selected=False), save_path=disk / "game.toml", size=(1100, 700),
                  saver=save_scenario)
        try:
            app.step()
            fillers: list[Path] = []
            _nothing_lost(app, lambda: fillers.append(fill(disk)),
                          lambda: fillers.pop().unlink())
            # Ctrl+S on a full disk says it failed and never claims the game is saved
            fillers.append(fill(disk))
            key(app, pygame.K_s, pygame.KMOD_CTRL)
            assert app.message.startswith("could not save") and app.history.unsaved
            assert "No space left on device" in app.message
            assert not (disk / "game.toml").exists()
            app.stopped_by = "SIGTERM"
            assert "could not save" in app.stop_note()
        finally:
            pygame.display.quit()


def test_ctrl_s_never_replaces_an_earlier_games_save(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    earlier = tmp_path / "game.toml"  # where the window's Ctrl+S saves (app_factory)
    save_scenario(small_state(selected=True), earlier)
    before = earlier.read_bytes()
    app = app_factory(small_state(selected=False))
    _move_squad(app, 0)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    d = app.dialog
    assert d is not None and d.purpose == "replace-save", app.message
    assert "this window did not write it" in " ".join(d.lines)
    key(app, pygame.K_RETURN)  # the default: beside it
    assert earlier.read_bytes() == before
    assert app.save_path == tmp_path / "game-2.toml" and not app.history.unsaved
    assert load_scenario(app.save_path) == app.state
    _move_squad(app, 1)
    key(app, pygame.K_s, pygame.KMOD_CTRL)  # its own file now: saved without asking
    assert app.dialog is None and not app.history.unsaved
    # asked again, the player may replace it (R) or cancel (Esc)
    app.save_path = earlier
    _move_squad(app, 2)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    key(app, pygame.K_ESCAPE)
    assert earlier.read_bytes() == before and app.history.unsaved
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    key(app, pygame.K_r)
    assert load_scenario(earlier) == app.state and not app.history.unsaved


SECOND_WINDOW = textwrap.dedent("""
    import sys
    import pygame
    from pathlib import Path
    from tabletop.scenario.io import load_scenario, save_scenario
    from tabletop.view.app import App

    save = Path(sys.argv[1])
    app = App(load_scenario(sys.argv[2]), save_path=save, size=(900, 600), saver=save_scenario)
    app.step()
    for k, mod in ((pygame.K_s, pygame.KMOD_CTRL), (pygame.K_r, 0)):  # Ctrl+S, then Replace
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="",
                                             scancode=0))
        app.step()
    print(app.message)
""")


def test_two_windows_on_one_file(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(small_state(selected=False))
    _move_squad(app, 0)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    save = app.save_path
    assert save.is_file() and not app.history.unsaved
    app.idle_checks()
    assert not app.keeper.alerts  # its own save, unchanged
    # another window (another process) opens the same game and saves over the same file
    other = tmp_path / "other.toml"
    save_scenario(small_state(selected=False), other)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", SECOND_WINDOW, str(save), str(other)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("saved"), done.stdout
    assert load_scenario(save).battle.selection is None  # the other game is there now
    # this window notices: no longer "nothing unsaved", and it says so until dismissed
    app.idle_checks()
    assert app.history.unsaved
    assert any("changed" in a and "by another program" in a for a in app.keeper.alerts)
    app.stopped_by = "SIGTERM"
    note = app.stop_note()
    assert "nothing unsaved" not in note
    # the replay it offers writes beside the other program's file, never over it
    assert f"-o {save.resolve()}`" not in note and f"-o {beside(save).resolve()}`" in note, note
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert app.dialog is not None and app.dialog.purpose == "replace-save"
    assert "changed by another program" in app.dialog.lines[0]
    key(app, pygame.K_ESCAPE)
    # a click on the alert dismisses it
    app.step()
    box, _ = app._alert_rects[0]
    n = len(app.keeper.alerts)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=box.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=box.center, button=1))
    app.step()
    assert len(app.keeper.alerts) == n - 1


def test_whatever_stands_at_the_log_name_the_next_one_is_taken(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "game.session-1.actions.json").symlink_to(tmp_path / "nowhere" / "x.json")
    (tmp_path / "game.session-2.start.toml").symlink_to(tmp_path / "nowhere" / "y.toml")
    (tmp_path / "game.session-3.actions.json").mkdir()
    os.mkfifo(tmp_path / "game.session-4.start.toml")  # a write would wait for a reader forever
    app = app_factory(small_state(selected=False))
    _move_squad(app, 0)
    assert not app.keeper.alerts, app.keeper.alerts
    assert app.log_path == tmp_path / "game.session-5.actions.json"
    assert json.loads(app.log_path.read_text()) == app.history.actions
    assert (tmp_path / "game.session-1.actions.json").is_symlink()  # left as it was


def test_a_save_changed_elsewhere_with_no_move_made(app_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Saved, no move made, then another program replaces the save: the stop note says the game
    shown is the one opened, not that an action log could not be written."""
    app = app_factory(small_state(selected=False))
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    save = app.save_path
    assert save.is_file() and not app.history.unsaved
    other = tmp_path / "other.toml"
    save_scenario(small_state(selected=True), other)
    os.replace(other, save)
    app.idle_checks()
    assert app.history.unsaved
    app.stopped_by = "SIGTERM"
    note = app.stop_note()
    assert "with unsaved changes; the game shown is the one the window opened" in note, note
    assert "could not be written" not in note and ", no move to replay" in note

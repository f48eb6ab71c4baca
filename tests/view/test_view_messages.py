"""The window's status line in words a player reads: unit names, move types, phases and steps
by the titles the panel uses, and what happened (``Land Raider: normal move committed (7.0")``)."""

from __future__ import annotations

import re

import pygame
import pytest

from tabletop.scenario.io import load_scenario, save_scenario, shipped
from tabletop.view.app import App

from support.view_support import key, panel_text
from support.view_support import roll as roll_dice

RAW = re.compile(r"(?<![\w-])(move-units|battle-shock|remain-stationary|fall-back|desperate-escape"
                 r"|ordered-retreat|land-raider|assault-terminators|intercessors|terminators"
                 r"|lieutenant|scouts|round \d+, movement)(?![\w-])")
"""Names the window must not show: steps, move types and modes by their action names, units by
their ids (the demo's units all have names)."""


@pytest.fixture
def demo(tmp_path):  # type: ignore[no-untyped-def]
    app = App(load_scenario(shipped("demo.toml")), save_path=tmp_path / "demo.save.toml",
              size=(1280, 820), saver=save_scenario)
    app.step()
    said: list[str] = []
    real = app.apply

    def apply(action):  # type: ignore[no-untyped-def]
        out = real(action)
        said.append(app.message)
        return out

    app.apply = apply  # type: ignore[method-assign]
    app.said = said  # type: ignore[attr-defined]
    yield app
    pygame.display.quit()


def test_what_each_action_did_is_said_with_the_unit_and_the_move(demo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = demo
    app.ctrl.focus = "land-raider"
    key(app, pygame.K_n)
    assert app.message == "Land Raider: normal move; drag its models, Enter commits."
    app.apply({"do": "move", "model": "lr1", "path": [[4.0, 15.0]]})
    assert app.message.startswith('Land Raider: lr1 moved 7.0" of 10"; ')
    assert "Q / E turn it" in app.message
    app.apply({"do": "move", "model": "lr1", "path": [[4.0, 15.0, 165.0]]})
    assert app.message == "Land Raider: lr1 turned to 165°; Enter commits."
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.message == "undone: Land Raider: lr1 turned to 165°"
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert app.message == "redone: Land Raider: lr1 turned to 165°"
    app.apply({"do": "move", "model": "lr1", "path": [[4.0, 15.0, 180.0]]})
    key(app, pygame.K_RETURN)
    assert app.message == 'Land Raider: normal move committed (7.0").'
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.message == "undone: Land Raider: normal move committed"
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    # a set-up: where the models come from, how many are left
    app.ctrl.focus = "assault-terminators"
    key(app, pygame.K_d)
    assert app.message.startswith("Assault Terminators: disembark (")
    assert "from the list or the Land Raider" in app.message
    assert "Moving: Disembark (" in panel_text(app, monkeypatch)
    key(app, pygame.K_ESCAPE)
    assert app.message.startswith("Assault Terminators: selection cancelled")
    # a unit of several models; a roll; a move done at once; a greyed move type
    app.ctrl.focus = "intercessors"
    key(app, pygame.K_n)
    for i in range(1, 11):
        m = app.state.model(f"int{i}")[1]
        app.apply({"do": "move", "model": f"int{i}", "path": [[m.at[0], m.at[1] + 1.5]]})
    key(app, pygame.K_RETURN)
    assert app.message == 'Intercessor Squad: normal move committed (10 models moved, up to 1.5").'
    app.ctrl.focus = "lieutenant"
    key(app, pygame.K_a)  # dice: the window asks first, once for this unit and roll
    assert app.state.battle.selection is None
    assert roll_dice(app)[0] == "Advance roll for Lieutenant: 1 die."
    roll = app.state.battle.selection.roll  # type: ignore[union-attr]
    assert app.message.startswith(f'Lieutenant: advance (rolled {roll}: {6 + roll}" in all)')
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_a)
    assert f"its roll of {roll} stands" in app.message
    key(app, pygame.K_ESCAPE)
    app.ctrl.focus = "terminators"
    key(app, pygame.K_s)
    assert app.message == "Terminator Squad: remain stationary, done."
    app.ctrl.focus = "scouts"
    key(app, pygame.K_f)
    assert roll_dice(app)[0] == "Desperate Escape hazard rolls for Scout Squad: 5 dice."
    assert app.message.startswith("Scout Squad: fall back (desperate escape) (Desperate Escape "
                                  "hazard rolls: ")
    assert "Moving: Fall back (desperate escape)" in panel_text(app, monkeypatch)
    key(app, pygame.K_ESCAPE)
    # the step ends: where the turn stands, as the panel's heading says it
    key(app, pygame.K_SPACE)
    key(app, pygame.K_RETURN)  # units have not moved: end the step anyway
    assert app.message == "Now: round 2 · Movement phase · End of Movement phase · Red to play."
    assert app.tray and all(r.when == "Round 2 · Red · Movement phase" for r in app.tray)
    for said in app.said:  # type: ignore[attr-defined]
        assert not RAW.search(said), said


def test_a_t9a_step_is_said_by_its_title(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = App(load_scenario(shipped("t9a-lines.toml")), save_path=tmp_path / "t.toml",
              size=(1280, 820), saver=save_scenario)
    app.step()
    try:
        key(app, pygame.K_SPACE)
        assert app.message.startswith("Now: round 2 · Movement phase · Rally Fleeing Units · ")
        key(app, pygame.K_SPACE)  # the Rally step's tests are said with it (asked first)
        assert roll_dice(app) == ["Rally test for archers: 2 dice.",
                                  "Dice stand once rolled: undo cannot take them back."]
        assert app.message.startswith("Now: round 2 · Movement phase · Move units · "), \
            app.message
        assert "Rally test" in app.message and "move-units" not in app.message
        app.ctrl.focus = "spearmen"
        key(app, pygame.K_a)
        assert app.message.startswith("spearmen: advance; drag the front edge"), app.message
        app.apply({"do": "forward", "distance": 2.0})
        assert app.message == 'spearmen: forward 2.00" staged; drag again or Enter commits.'
        key(app, pygame.K_RETURN)
        assert app.message == 'spearmen: advance committed (forward 2.00").', app.message
    finally:
        pygame.display.quit()


def test_a_unit_clicked_is_offered_only_what_it_may_do_now(demo) -> None:  # type: ignore[no-untyped-def]
    """The status line names the keys of the move types the rules accept now (an engaged unit:
    stay or fall back), and for a unit that may make none, why."""
    from support.view_support import click

    click(demo, demo.state.model("sc1")[1].at)  # engaged with the Genestealers
    assert demo.message.startswith("Scout Squad (Red): S remain stationary, F fall back"), \
        demo.message
    assert "N normal" not in demo.message and "I ingress" not in demo.message
    click(demo, demo.state.model("hg1")[1].at)  # the other player's unit
    assert demo.message.startswith("Hormagaunts (Blue): ") and "belongs to" in demo.message, \
        demo.message
    assert "(or click one)" not in demo.message


def test_enter_with_nothing_selected_files_no_refusal(demo) -> None:  # type: ignore[no-untyped-def]
    """Enter when no unit is selected (after a dialog closed, say) says what to do; it is not a
    refusal of the rules listed in the Refusals tab."""
    key(demo, pygame.K_RETURN)
    assert demo.message.startswith("Nothing to commit: click a unit and a move type first"), \
        demo.message
    assert not demo.refusal_groups() and demo.tab != "refusals"

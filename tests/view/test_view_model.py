"""The window's pure parts: history and session log, save paths, label placement, roster, dice
tray, turn texts, threat ranges (no SDL)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from tabletop.cli.play import default_save_path
from tabletop.rulesets import apply_action, apply_actions
from tabletop.scenario.io import load_scenario, save_scenario, shipped
from tabletop.state import GameState
from tabletop.view import turn
from tabletop.view.dicetray import tray_rolls
from tabletop.view.history import History, SessionLog
from tabletop.view.labels import place_labels
from tabletop.view.roster import markers, roster


def demo() -> GameState:
    return load_scenario(shipped("demo.toml"))


def push(h: History, action: dict[str, object]) -> None:
    res = apply_action(h.state, action)
    assert res.ok, res.reasons
    h.push(action, res.state, res.events)


# -- history --------------------------------------------------------------------------------
def test_undo_and_redo_over_the_phase_committed_units_included() -> None:
    h = History(demo())
    push(h, {"do": "select", "unit": "lieutenant", "move": "normal"})
    push(h, {"do": "move", "model": "lt1", "path": [[18.0, 10.0]]})
    push(h, {"do": "commit"})
    assert h.state.battle.selection is None
    done = h.state
    assert h.undo() is not None and h.state.battle.selection is not None  # the commit, back
    assert h.undo() is not None and h.state.unit("lieutenant").models[0].at == (18.0, 8.0)
    assert h.redo() is not None and h.redo() is not None
    assert h.state is done
    assert h.redo() is None
    # a new action after an undo drops what could have been redone
    h.undo()
    push(h, {"do": "reset"})
    assert h.undone == []


def test_undo_stops_at_the_start_of_the_phase() -> None:
    h = History(demo())
    push(h, {"do": "select", "unit": "lieutenant", "move": "remain-stationary"})
    push(h, {"do": "next"})  # to the end of the Movement phase: the same phase
    assert (h.state.battle.phase, h.state.battle.step) == ("movement", "end")
    assert h.can_undo()
    push(h, {"do": "next"})  # through the other phases to Blue's Command phase
    assert (h.state.battle.active_player, h.state.battle.phase) == ("blue", "command")
    assert not h.can_undo() and h.undo() is None
    push(h, {"do": "next"})
    assert h.can_undo()
    h.undo()
    assert not h.can_undo()


def test_undo_never_goes_back_past_dice_and_a_cancelled_advance_keeps_its_roll() -> None:
    h = History(demo())
    push(h, {"do": "select", "unit": "lieutenant", "move": "normal"})
    push(h, {"do": "commit"})
    push(h, {"do": "select", "unit": "intercessors", "move": "advance"})
    roll = h.state.battle.selection.roll  # type: ignore[union-attr]
    push(h, {"do": "move", "model": "int1", "path": [[11.5, 12.0]]})
    assert h.undo() is not None  # the move: no dice
    assert not h.can_undo() and h.blocked_by_roll() is not None  # the advance roll stands
    # the window takes the selection back with the rules' cancel: the roll stands for the unit
    push(h, {"do": "cancel"})
    h.barrier = len(h.entries)
    assert h.state.battle.selection is None and not h.can_undo()
    push(h, {"do": "select", "unit": "intercessors", "move": "advance"})
    assert h.state.battle.selection.roll == roll  # type: ignore[union-attr]
    # another unit's advance gets a die never seen (the counter was not rewound)
    used = h.state.battle.dice_used
    push(h, {"do": "cancel"})
    push(h, {"do": "select", "unit": "assault", "move": "advance"})
    assert h.state.battle.dice_used == used + 1
    final, _ = apply_actions(h.start, h.actions)
    assert final == h.state


def test_the_session_log_is_a_new_file_per_session_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.save.toml"
    first = SessionLog(save, save_scenario)
    h = History(demo())
    push(h, {"do": "select", "unit": "lieutenant", "move": "normal"})
    first.write(h.start, h.actions)
    second = SessionLog(save, save_scenario)
    second.write(h.start, [])
    assert first.actions_path != second.actions_path
    assert first.actions_path is not None and first.actions_path.name == \
        "game.save.session-1.actions.json"
    assert second.start_path is not None and second.start_path.name == \
        "game.save.session-2.start.toml"
    assert json.loads(first.actions_path.read_text()) == h.actions  # untouched by session 2
    assert first.start_path is not None
    final, results = apply_actions(load_scenario(first.start_path),
                                   json.loads(first.actions_path.read_text()))
    assert all(r.ok for r in results) and final == h.state


def test_unsaved_follows_saves_undos_and_new_actions() -> None:
    h = History(demo())
    assert not h.unsaved
    push(h, {"do": "select", "unit": "lieutenant", "move": "normal"})
    assert h.unsaved
    h.mark_saved()
    assert not h.unsaved
    h.undo()
    assert h.unsaved
    h.redo()
    assert not h.unsaved  # the very state that was saved
    h.undo()
    push(h, {"do": "select", "unit": "lieutenant", "move": "advance"})
    assert h.unsaved


def test_saves_go_beside_the_opened_file_and_never_save_save(tmp_path: Path) -> None:
    f = tmp_path / "games" / "battle.toml"
    assert default_save_path(f) == tmp_path / "games" / "battle.save.toml"
    assert default_save_path(tmp_path / "battle.save.toml") == tmp_path / "battle.save.toml"
    assert default_save_path(tmp_path / "b.json") == tmp_path / "b.save.json"
    assert default_save_path(shipped("demo.toml"), shipped=True, cwd=tmp_path) == \
        tmp_path / "demo.save.toml"


# -- labels ---------------------------------------------------------------------------------
def test_labels_at_one_spot_are_spread_without_overlap() -> None:
    items = [((200.0, 200.0), (60.0, 16.0)) for _ in range(6)]
    places = place_labels(items, (0, 0, 800, 600))
    assert not places[0].leader and all(p.leader for p in places[1:])
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            ax, ay, aw, ah = a.box
            bx, by, bw, bh = b.box
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
    assert all(0 <= p.box[0] and p.box[0] + p.box[2] <= 800 for p in places)


def test_a_label_at_the_board_edge_stays_inside() -> None:
    (p,) = place_labels([((2.0, 5.0), (80.0, 16.0))], (0, 0, 400, 300))
    x, y, w, h = p.box
    assert x >= 0 and y >= 0 and x + w <= 400 and y + h <= 300


# -- roster, markers ------------------------------------------------------------------------
def test_roster_groups_every_unit_by_where_it_is() -> None:
    s = demo()
    groups = {(g.player, g.group): [e.unit for e in g.entries] for g in roster(s)}
    assert groups[("red", "strategic-reserves")] == ["bladeguard"]
    assert groups[("red", "embarked")] == ["assault-terminators"]
    entry = next(e for g in roster(s) for e in g.entries if e.unit == "assault-terminators")
    assert "in Land Raider" in entry.detail
    assert sum(len(v) for v in groups.values()) == len(s.units)
    gone = replace(s, units=tuple(u for u in s.units if u.id != "neurothrope"))
    dead = [g for g in roster(gone, s) if g.group == "destroyed"]
    assert [e.unit for e in dead[0].entries] == ["neurothrope"]


def test_markers_say_what_a_unit_did_and_what_is_wrong() -> None:
    s = demo()
    codes = {u.id: [m.code for m in markers(s, u)] for u in s.units}
    assert codes["scouts"] == ["BS"]
    assert codes["hormagaunts"] == ["-10"]
    assert codes["exocrine"] == ["-3W"]
    res = apply_action(s, {"do": "select", "unit": "intercessors", "move": "advance"})
    s2 = apply_action(res.state, {"do": "commit"}).state
    assert [m.code for m in markers(s2, s2.unit("intercessors"))] == ["ADV"]


# -- dice tray ------------------------------------------------------------------------------
def test_hazard_dice_are_tied_to_their_models() -> None:
    s = demo()
    res = apply_action(s, {"do": "select", "unit": "scouts", "move": "fall-back",
                           "dice": [1, 4, 5, 6, 2]})
    assert res.ok, res.reasons
    (roll,) = [r for r in tray_rolls(s, res.events) if "hazard" in r.purpose]
    assert roll.purpose == "Desperate Escape hazard rolls" and roll.unit == "Scout Squad"
    assert roll.dice == ((1, "sc1"), (4, "sc2"), (5, "sc3"), (6, "sc4"), (2, "sc5"))
    assert roll.good is False and "failed" in roll.result


def test_an_advance_roll_says_how_far() -> None:
    s = demo()
    res = apply_action(s, {"do": "select", "unit": "intercessors", "move": "advance",
                           "dice": [4]})
    (roll,) = tray_rolls(s, res.events)
    assert roll.purpose == "Advance roll" and roll.dice == ((4, None),)
    assert roll.result == '+4" (M 6" + 4" = 10")'


# -- turn texts ------------------------------------------------------------------------------
def test_next_label_pending_units_and_names() -> None:
    s = demo()
    assert turn.next_label(s) == "End Move units"
    start = replace(s, battle=replace(s.battle, step="start"))
    assert turn.next_label(start) == "Start the Movement phase"
    assert turn.pending_units(start) == []
    assert "bladeguard" in turn.pending_units(s) and "genestealers" not in turn.pending_units(s)
    assert turn.named(s, "int6 of intercessors is 2.5\" from hormagaunts") == \
        "int6 of Intercessor Squad is 2.5\" from Hormagaunts"
    t9a = load_scenario(shipped("t9a-lines.toml"))
    assert not turn.shows_cp(t9a) and turn.shows_cp(s)



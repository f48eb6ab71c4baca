"""Turns through the rules for :class:`tabletop.view.app.App`: apply an action, undo and redo,
commit, pick a move, dice first, the next step, removals.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tabletop.errors import UserError
from tabletop.view import turn
from tabletop.view.blockdrag import BlockTool
from tabletop.view.bridge import Outcome
from tabletop.view.dialogs import Choice, Dialog
from tabletop.view.dicetray import purpose, tray_rolls
from tabletop.view.identity import Ref
from tabletop.view.messages import (
    describe,
    describe_entry,
    skipped_note,
)

if TYPE_CHECKING:
    from tabletop.view.app import App


def apply(app: App, action: dict[str, Any]) -> Outcome:
    """Apply one action through the rules core; keep it (history and log) if accepted.

    A refused action changes nothing: the models stay where they were staged, the refusal
    is drawn on the board and listed in the panel.
    """
    before = app.state
    try:
        out = app.rules.apply(before, action)
    except UserError as exc:  # a malformed action (the controller built it badly): say so
        app.message = f"{action.get('do')}: {exc}"
        app.dirty = True
        return Outcome(before, False, (str(exc),))
    app.tray += tray_rolls(before, out.events)
    do = action.get("do")
    if out.ok:
        app.history.push(action, out.state, out.events)
        app._logged()
        app.refusal = None
        app.block_marks = []
        if do == "next":
            app.next_choice = {}
        app.message = turn.named(out.state, describe(before, action, out, app.rules))
        if do == "next":
            app.message += skipped_note(before, out.state)
        sel = out.state.battle.selection
        if do in ("move", "place") and sel is not None:
            ends = app.end_check(sel.unit)
            if ends:
                app.message += " It may not end there: " + turn.named(
                    out.state, "; ".join(v.message for v in ends))
    else:
        app.refusal_note = ""
        if do == "commit" and out.state.battle.selection is None:
            # the rules put a refused move back; the window keeps it to be fixed
            out = replace(out, reasons=tuple(r for r in out.reasons
                                             if "goes back to where it started" not in r))
            app.refusal_note = ("The models stay where they were staged: fix the offenders "
                                 "(Backspace over one puts it back alone) and commit again.")
        app.refusal = out
        block = BlockTool.selected(before)
        app.block_marks = (app._block_refusal_marks(before, block)
                            if block is not None and do == "commit" else [])
        app.message = "refused: " + turn.named(before, "; ".join(out.reasons) or str(do))
        if len(out.reasons) > 1 or out.violations:
            app.tab = "refusals"
            app.scroll["refusals"] = 0
    app._show(app.state)
    return out


def logged(app: App) -> None:
    """Write the session's log (after every change: it always replays to the state shown);
    a failure is an alert shown until dismissed (:meth:`Keeper.log`)."""
    app.keeper.log()


def undo(app: App) -> None:
    """Take back the last action of the phase (committed units included), never past dice
    rolled: a selection whose roll stands is cancelled through the rules instead."""
    app.ctrl.drag = None
    entry = app.history.undo()
    if entry is not None:
        app.refusal = None
        app._logged()
        app.message = "undone: " + turn.named(entry.before,
                                               describe_entry(entry.before, entry.actions))
        app._show(app.state)
        return
    top = app.history.blocked_by_roll()
    sel = app.state.battle.selection
    if top is not None and top.action.get("do") == "select" and sel is not None \
            and not sel.staged:
        if app.cancel_selection():
            app.history.barrier = len(app.history.entries)
            app.message += " (undone; its roll stands for a new selection)"
        return
    if top is not None:
        who = turn.unit_label(top.before, str(top.action.get("unit") or
                                              getattr(top.before.battle.selection, "unit",
                                                      "")))
        app.message = (f"the dice rolled for {who or 'the last step'} stand: nothing before "
                        "them can be undone")
    else:
        app.message = "nothing to undo in this phase"
    app._show(app.state)


def redo(app: App) -> None:
    """Apply again the last action taken back."""
    app.ctrl.drag = None
    entry = app.history.redo()
    if entry is None:
        app.message = "nothing to redo"
    else:
        app.refusal = None
        app._logged()
        app.message = "redone: " + turn.named(entry.before,
                                               describe_entry(entry.before, entry.actions))
    app._show(app.state)


def commit(app: App) -> None:
    """Enter: commit the selected unit's move (an emergency disembark: send it), asking
    first when that rolls dice (hazards)."""
    if app.group is None and app.state.battle.selection is None:
        # nothing to commit (an Enter after a dialog closed, say): no refusal to file
        app.message = ("Nothing to commit: click a unit and a move type first; "
                        f"Space: {turn.next_label(app.state)}.")
        app.dirty = True
        return
    action = app.group.action() if app.group is not None else {"do": "commit"}
    if app.dice_first(action, ("commit",)):
        app.apply(action)


def cancel_selection(app: App) -> bool:
    """Esc: take back the selection of a unit none of whose models has moved (the rules'
    ``cancel``: the unit is free again, its dice stand for a new selection)."""
    sel = app.state.battle.selection
    if sel is None:
        return False
    if sel.staged:
        app.message = (f"{turn.unit_label(app.state, sel.unit)} has staged moves: R puts "
                        "them back, Ctrl+Z takes back the last one")
        app.dirty = True
        return False
    out = app.apply({"do": "cancel"})
    if out.ok:
        app.message = (f"{turn.unit_label(app.state, sel.unit)}: selection cancelled; "
                        "choose another move type")
    return out.ok


def stage_group(app: App, action: dict[str, Any]) -> bool:
    """A model of the unit being set up at once dropped on the board: keep it there (the
    window's own staging until Enter sends the one action); whether it was that."""
    g = app.group
    if g is None or action.get("do") != "place" or action.get("model") not in (
            *g.waiting(app.state), *g.placed):
        return False
    x, y = action["at"]
    g.placed[str(action["model"])] = (float(x), float(y))
    left = len(g.waiting(app.state))
    app.message = (f"{turn.unit_label(app.state, g.unit)}: {action['model']} placed; "
                    + (f"{left} more to place, then " if left else "")
                    + "Enter sets the unit up")
    app._show(app.state)
    return True


def put_back(app: App, model_id: str) -> bool:
    """Backspace over a model of the moving unit: take back its staged moves alone (the
    unit is reset and the other models' moves staged again, as one step of the history)."""
    if app.group is not None and model_id in app.group.placed:
        del app.group.placed[model_id]
        app.message = (f"{turn.unit_label(app.state, app.group.unit)}: {model_id} is "
                        "back in the list")
        app._show(app.state)
        return True
    sel = app.state.battle.selection
    if sel is None or not any(a.get("model") == model_id for a in sel.staged):
        app.message = f"{model_id} has no staged move to take back (only the moving unit's do)"
        app.dirty = True
        return False
    actions: list[dict[str, Any]] = [{"do": "reset"}]
    actions += [dict(a) for a in sel.staged if a.get("model") != model_id]
    state = app.state
    events: list[dict[str, Any]] = []
    for a in actions:
        out = app.rules.apply(state, a)
        if not out.ok:
            app.message = "could not put it back alone: " + "; ".join(out.reasons)
            app.dirty = True
            return False
        state = out.state
        events += out.events
    app.history.push(actions, state, tuple(events))
    app._logged()
    app.refusal = None
    app.message = (f"{turn.unit_label(app.state, sel.unit)}: {model_id} is back where it "
                    "started; the other models stay")
    app._show(app.state)
    return True


def select(app: App, unit: str, move: str, mode: str | None = None) -> Outcome | None:
    """Select ``unit`` for ``move``; a unit already selected with nothing staged changes
    its move type (its dice stand: an advance selected again keeps its roll). A selection
    that would roll dice asks first (:meth:`dice_first`); ``None`` while it asks."""
    sel = app.state.battle.selection
    again = sel is not None and sel.unit == unit and not sel.staged and (
        sel.move != move or (mode is not None and sel.mode != mode))
    action: dict[str, Any] = {"do": "select", "unit": unit, "move": move}
    if mode is not None:
        action["mode"] = mode
    for flag in sorted(app.select_flags):
        if any(r.move == move and flag in r.flags for r in app.eligibility(unit)):
            action[flag] = True
    if not app.dice_first(action, ("select", unit, move, mode), cancel_first=again):
        return None
    if again:
        app.cancel_selection()
    out = app.apply(action)
    if out.ok:
        app.select_flags = set()
    return out


def dice_first(app: App, action: dict[str, Any], then: tuple[Any, ...], *,
               cancel_first: bool = False) -> bool:
    """Whether ``action`` may go ahead now: ``False`` when it would roll dice the player
    has not agreed to for that unit and purpose yet, and a dialog asks first (saying what
    is rolled, for whom, and that dice stand); once agreed, ``then`` (what to do again:
    ``("select", unit, move, mode)``, ``("commit",)``, ``("next", confirmed)``) is done.
    Each unit is asked once per purpose (an advance, a Desperate Escape...)."""
    state = app.state
    if cancel_first:
        undone = app.rules.apply(state, {"do": "cancel"})
        state = undone.state if undone.ok else state
    rolls = app.rules.would_roll(state, action)
    new = [(u, w, n) for u, w, n in rolls if (u, w) not in app.dice_agreed]
    if not new:
        return True
    lines = [f"{purpose(w)} for {turn.unit_label(state, u) if u else 'the game'}: {n} "
             f"{'die' if n == 1 else 'dice'}." for u, w, n in new]
    lines.append("Dice stand once rolled: undo cannot take them back.")
    app.dialog = Dialog("Roll dice?", lines,
                         [Choice("y", "Roll [Enter]", "roll"),
                          Choice("n", "Not now [Esc]", "cancel")],
                         purpose="dice", data={"then": then,
                                               "agree": tuple((u, w) for u, w, _ in new)})
    app.dirty = True
    return False


def next_action(app: App) -> dict[str, Any]:
    """The ``next`` Space sends: with the options chosen in the panel."""
    return {"do": "next", **{k: (list(v) if isinstance(v, list) else v)
                             for k, v in app.next_choice.items() if v}}


def next_step(app: App, *, confirmed: frozenset[str] = frozenset()) -> None:
    """Space: go to the next step, asking first when units have not moved, or when the end
    of the turn would remove models for coherency (saying which and why)."""
    st = app.state
    if st.battle.selection is not None:
        app.apply({"do": "next"})  # the rules say why not
        return
    pending = turn.pending_units(st) if "pending" not in confirmed else []
    if pending:
        names = [turn.unit_label(st, u) for u in pending]
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4
                                         else "")
        app.dialog = Dialog(
            f"{turn.next_label(st)}?",
            [f"{len(pending)} unit{'s have' if len(pending) > 1 else ' has'} not moved: "
             f"{shown}.", "Ending the step leaves them where they are."],
            [Choice("y", "End the step [Enter]", "yes"),
             Choice("n", "Keep moving [Esc]", "no")], purpose="next",
            data={"confirmed": confirmed | {"pending"}})
        app.dirty = True
        return
    removals, _ = app.removal_preview()
    if removals and "removal" not in confirmed:
        by: dict[str, list[str]] = {}
        for unit, mid in removals:
            by.setdefault(unit, []).append(mid)
        lines = [f"{turn.unit_label(st, u)} is out of coherency: {', '.join(ms)} will be "
                 "removed." for u, ms in by.items()]
        lines.append("Click models of these units on the board to choose which go instead.")
        app.dialog = Dialog("End of turn: coherency", lines,
                             [Choice("y", "Remove them [Enter]", "yes"),
                              Choice("n", "Choose [Esc]", "no")], purpose="next",
                             data={"confirmed": confirmed | {"removal"}})
        app.dirty = True
        return
    action = app.next_action()
    if app.dice_first(action, ("next", confirmed)):
        app.apply(action)


def removal_preview(app: App) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The models the next Space would remove for coherency (with the models chosen), and
    why it would be refused (cached per state and choice)."""
    pre = app.step_preview()
    if not pre.removals:
        return (), ()
    key = (Ref(app.state), json.dumps(app.next_choice, sort_keys=True))
    if app._removals is None or app._removals[0] != key:
        app._removals = (key, app.rules.next_removals(app.state, app.next_action()))
    return app._removals[1]


def toggle_removal(app: App, model_id: str) -> bool:
    """A click on a model of a unit the end of the turn shrinks: choose it (or not) to be
    removed; ``False`` when the click is not about that."""
    pre = app.step_preview()
    field = pre.remove_field
    units = {u for u, _ in pre.removals}
    if field is None or not units:
        return False
    try:
        unit = app.state.model(model_id)[0].id
    except KeyError:
        return False
    if unit not in units:
        return False
    chosen = list(app.next_choice.get(field) or [])
    if model_id in chosen:
        chosen.remove(model_id)
    else:
        chosen.append(model_id)
    app.next_choice[field] = chosen
    removals, reasons = app.removal_preview()
    app.message = ("will be removed at the end of the turn: "
                    + ", ".join(m for _, m in removals) + (
                        f" (refused: {'; '.join(reasons)})" if reasons else ""))
    app.dirty = True
    return True

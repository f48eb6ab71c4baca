"""Input for :class:`tabletop.view.app.App`: pygame events and the controller's intents, dialogs
and clicks on the side panel.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from tabletop.view import turn
from tabletop.view.appconfig import (
    INPUT_EVENTS,
    SCROLL_STEP,
)
from tabletop.view.controller import Intent
from tabletop.view.messages import (
    unit_drop_note,
    unit_line,
)
from tabletop.view.panel import (
    Row,
)

if TYPE_CHECKING:
    from tabletop.view.app import App


def do_intents(app: App, intents: list[Intent]) -> None:
    """Carry out what the controller asked for."""
    for it in intents:
        k = it.kind
        if k == "actions":
            for act in it.data["actions"]:
                if app._stage_group(act):
                    continue
                out = app.apply(act)
                if not out.ok and it.data.get("stop_on_refusal"):
                    break
        elif k == "select":
            app.select(it.data["unit"], it.data["move"], it.data.get("mode"))
        elif k == "commit":
            app.commit()
        elif k == "next":
            app.next_step()
        elif k == "cancel":
            app.cancel_selection()
        elif k == "put-back":
            app.put_back(it.data["model"])
        elif k == "undo":
            app.undo()
        elif k == "redo":
            app.redo()
        elif k == "focus":
            app.select_flags = set()
            app.message = unit_line(app.state, it.data["unit"],
                                     app.eligibility(it.data["unit"]))
        elif k == "save":
            app.save()
        elif k == "save-as":
            app.ask_save_as()
        elif k == "screenshot":
            app.screenshot()
        elif k == "quit":
            app.quit()
        elif k == "fit":
            app.ctrl.viewport = app._fit()
        elif k == "threat":
            app.toggle_threat()
        elif k == "safe":
            app.toggle_safe()
        elif k == "safe-odds":
            app.toggle_safe(odds=int(it.data["step"]))
        elif k == "safe-objective":
            app.toggle_safe(objective=True)
        elif k == "toggle":
            what = it.data["what"]
            setattr(app, what, not getattr(app, what))
            app._full = True
    app.dirty = True


def handle(app: App, e: pygame.event.Event) -> None:
    """Handle one pygame event (marking the window for a redraw when it changes it)."""
    c = app.ctrl
    if e.type in INPUT_EVENTS:
        app._input_at = time.monotonic()
    if e.type == pygame.QUIT:
        app.quit()
    elif e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
        c.viewport = app._fit()
        app._full = app.dirty = True
    elif e.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                    pygame.WINDOWFOCUSGAINED, pygame.VIDEOEXPOSE):
        app._full = app.dirty = True
        if e.type == pygame.WINDOWFOCUSGAINED:
            app.watch_save()
    elif app.dialog is not None:
        app._dialog_event(e)
    elif e.type == pygame.MOUSEBUTTONDOWN:
        app.dirty = True
        if e.button in (4, 5):
            return
        hit = next((i for r, i in app._alert_rects if r.collidepoint(e.pos)), None)
        if hit is not None and e.button == 1:
            app.keeper.dismiss(hit)
            return
        mods = getattr(e, "mod", None)
        if mods is None:
            mods = pygame.key.get_mods()
        if e.button == 1 and c.drag is None and not c.ruler_on and \
                app.board_rect().collidepoint(e.pos):
            mid = c.model_at(*c.viewport.to_inches(*e.pos))
            if mid is not None and app.toggle_removal(mid):
                return
        if app.board_rect().collidepoint(e.pos) or c.drag is not None:
            app.do_intents(c.pointer_down(e.pos, e.button,
                                           shift=bool(mods & pygame.KMOD_SHIFT),
                                           ctrl=bool(mods & pygame.KMOD_CTRL)))
        elif e.button == 1:
            app._panel_click(e.pos)
    elif e.type == pygame.MOUSEMOTION:
        before = (c.hover, c.hover_block, c.blocks.hover if c.blocks else None)
        moved = c.pointer_move(e.pos)
        if moved:
            app.do_intents(moved)
        after = (c.hover, c.hover_block, c.blocks.hover if c.blocks else None)
        over = next((i for i, (r, _) in enumerate(app._mark_labels.summaries)
                     if r.collidepoint(e.pos)), None)
        if over != app._hovered_summary:
            app._hovered_summary = over
            app.dirty = True
        busy = (c.drag is not None or c.pan_from is not None or c.box is not None
                or (c.ruler is not None and c._ruler_down)
                or (c.blocks is not None and c.blocks.drag is not None))
        if busy or before != after or c.hover is not None or c.hover_block is not None:
            app.dirty = True
    elif e.type == pygame.MOUSEBUTTONUP:
        if e.button in (4, 5):
            return
        d = c.drag
        app.do_intents(c.pointer_up(e.pos, e.button))
        if d is not None and d.whole_unit and not app.message.startswith("refused"):
            app.message = unit_drop_note(app.ctrl.state, d)
    elif e.type == pygame.MOUSEWHEEL:
        pos = c.pointer  # where the last pointer event was
        if app.board_rect().collidepoint(pos):
            c.wheel(pos, e.y)
        else:
            region = (app.tab if app.list_area.collidepoint(pos) else
                      "unit" if app.unit_area.collidepoint(pos) else None)
            if region is not None:
                top = app.scroll_max.get(region, 0)
                app.scroll[region] = min(max(app.scroll.get(region, 0)
                                              - e.y * SCROLL_STEP, 0), top)
        app.dirty = True
    elif e.type == pygame.KEYDOWN:
        mods = int(getattr(e, "mod", 0))
        name = pygame.key.name(e.key)
        app.do_intents(c.key(name, ctrl=bool(mods & pygame.KMOD_CTRL),
                              shift=bool(mods & pygame.KMOD_SHIFT)))
        if c.blocks is not None and c.blocks.note:  # what a key did not do, and why
            app.message, c.blocks.note = c.blocks.note, ""


def dialog_event(app: App, e: pygame.event.Event) -> None:
    d = app.dialog
    assert d is not None
    value = None
    if e.type == pygame.KEYDOWN:
        mods = int(getattr(e, "mod", 0))
        value = d.key(pygame.key.name(e.key), unicode=getattr(e, "unicode", ""),
                      ctrl=bool(mods & pygame.KMOD_CTRL))
        app.dirty = True
    elif e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
        for rect, v in app._dialog_buttons:
            if rect.collidepoint(e.pos):
                value = v
    if value is not None:
        app._answer(value)


def panel_click(app: App, pos: tuple[int, int]) -> None:
    for row in app.rows:
        if not row.rect.collidepoint(pos):
            continue
        if row.kind in ("move", "mode"):
            unit = app.ctrl.focus or app.ctrl.selection_unit
            if unit is None:
                return
            if not row.enabled:
                app.message = app._not_now(unit, row)
                return
            app.select(unit, row.value, (row.data or {}).get("mode"))
        elif row.kind == "next":
            app.next_step()
        elif row.kind == "place":
            app.ctrl.begin_placement(row.value, pos)
        elif row.kind == "placed":
            # its row stays where it was: a press there gives the next model to place
            src = app.ctrl.setup
            if src is not None and src.waiting:
                app.ctrl.begin_placement(src.waiting[0], pos)
                app.message = (f"placing {src.waiting[0]} ({row.value} is placed: drag it "
                                "on the board to move it, Backspace over it takes it back)")
        elif row.kind == "unit":
            app.ctrl.focus = row.value
            app.message = unit_line(app.state, row.value, app.eligibility(row.value))
        elif row.kind == "tab":
            app.tab = row.value
        elif row.kind == "select-flag":
            app.select_flags ^= {row.value}
        elif row.kind == "next-choice" and row.enabled:
            name = str((row.data or {})["field"])
            if app.next_choice.get(name) == row.value:
                del app.next_choice[name]
            else:
                app.next_choice[name] = row.value
        return


def not_now(app: App, unit: str, row: Row) -> str:
    """Why a greyed move type (or mode) of the panel may not be chosen now."""
    title = turn.move_title(app.state, row.value)
    mode = (row.data or {}).get("mode")
    why = next((e.reason for e in app.eligibility(unit) if e.move == row.value), "")
    if mode:
        title = turn.moving_title(app.state, row.value, mode)
        why = next((w for e in app.eligibility(unit) if e.move == row.value
                    for m, ok, w in e.modes if m == mode), why)
    return turn.named(app.state, f"{turn.unit_label(app.state, unit)}: not now: {title}"
                      + (f" ({why})" if why else ""))

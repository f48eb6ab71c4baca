"""The side panel of the window: the turn, the focused unit, and a list (roster, dice, refusals).

From the top: the scenario and where the turn stands (Command points only for a ruleset that has
them), the next-step button saying what Space does, the focused unit (profile, markers, its move
types greyed with the reason, the move being built, models to set up), then three tabs sharing
the rest of the height: the **roster** (every unit of both players by where it is, with what it
did this phase; a click selects it), the **dice** tray (every roll, what it was for and for which
model) and the **refusals** of the last refused action, grouped by rule. The list scrolls with the
mouse wheel. Every clickable thing is a :class:`Row` the app looks up on a click.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from tabletop.state import Block, Unit
from tabletop.view import render, turn
from tabletop.view.blockdrag import max_displacement
from tabletop.view.dicetray import purpose
from tabletop.view.identity import Ref
from tabletop.view.messages import manoeuvre_text
from tabletop.view.roster import markers, roster

if TYPE_CHECKING:
    from tabletop.view.app import App

__all__ = ["PANEL_W", "TABS", "Row", "draw_die", "draw_panel", "group_refusals", "panel_key"]

PANEL_W = 340
PANEL_BG = (30, 32, 36)
PANEL_LINE = (58, 62, 68)
GREY = (120, 124, 130)
OK_GREEN = (120, 210, 120)
BAD_RED = (255, 110, 110)
ACCENT = (255, 226, 110)
ROW_BG = (44, 48, 56)
ROW_HOT = (62, 70, 84)

TABS = (("roster", "Roster"), ("dice", "Dice"), ("refusals", "Refusals"))
"""The panel's lists: key and title."""

TONE_COLOURS = {"done": (150, 160, 176), "bad": BAD_RED, "info": ACCENT}


@dataclass
class Row:
    """A clickable part of the panel: ``kind`` says what a click does with ``value``."""

    rect: pygame.Rect
    kind: str
    value: str
    enabled: bool = True
    data: dict[str, Any] | None = None


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_die(surface: pygame.Surface, topleft: tuple[int, int], size: int, value: int) -> None:
    """Draw a six-sided die showing ``value`` (pips), or the number for other values."""
    r = pygame.Rect(topleft[0], topleft[1], size, size)
    pygame.draw.rect(surface, (240, 236, 224), r, border_radius=max(size // 5, 2))
    pygame.draw.rect(surface, (90, 84, 70), r, 1, border_radius=max(size // 5, 2))
    if value in _PIPS:
        step = size * 0.27
        for dx, dy in _PIPS[value]:
            pygame.draw.circle(surface, (30, 30, 30),
                               (r.centerx + dx * step, r.centery + dy * step), max(size // 10, 1))
    else:
        render.text(surface, str(value), r.center, size=max(size - 8, 8), colour=(30, 30, 30),
                    anchor="center", bold=True)


_RULE_GROUPS = (("coherency", "Coherency"), ("engaged", "Engagement range"),
                ("overlap-terrain", "Terrain"), ("overlap", "Bases overlapping"),
                ("terrain", "Terrain"), ("crosses-terrain", "Terrain"),
                ("crosses-enemy", "Enemy models"), ("edge", "Battlefield edge"),
                ("off-battlefield", "Battlefield edge"), ("leaves-battlefield", "Battlefield edge"),
                ("path-too-long", "Distance"), ("too-far", "Distance"),
                ("unreachable", "Distance"), ("setup", "Set-up"), ("ingress", "Set-up"),
                ("disembark", "Set-up"), ("unplaced", "Models not set up"),
                ("embark", "Embarking"))
"""Refusal titles by the rules' violation codes (:class:`~tabletop.rules.violation.Violation`),
the first prefix that matches."""


def group_refusals(reasons: tuple[str, ...], violations: tuple[Any, ...]
                   ) -> list[tuple[str, list[str]]]:
    """The reasons of a refusal grouped by rule (``[(title, [reason, ...]), ...]``), the
    violations' own messages first; reasons no violation explains go under "Other"."""
    groups: dict[str, list[str]] = {}
    explained = set()
    for v in violations:
        title = next((t for prefix, t in _RULE_GROUPS if v.rule.startswith(prefix)), "Other")
        groups.setdefault(title, []).append(v.message)
        explained.add(v.message)
    for r in reasons:
        if not any(m in r for m in explained):
            groups.setdefault("Other", []).append(r)
    return list(groups.items())


class _Writer:
    """Draws panel lines top to bottom on one surface, wrapping to the panel's width."""

    def __init__(self, surface: pygame.Surface, x0: int, y: int, width: int) -> None:
        self.s = surface
        self.x0 = x0
        self.y = y
        self.width = width

    def line(self, s: str, *, size: int = 13, colour: Any = render.TEXT, bold: bool = False,
             indent: int = 12) -> None:
        r = render.text(self.s, render.fit_text(s, self.width - indent - 8, size=size,
                                                bold=bold),
                        (self.x0 + indent, self.y), size=size, colour=colour, bold=bold)
        self.y = r.bottom + 4

    def wrapped(self, s: str, *, size: int = 12, colour: Any = render.TEXT, bold: bool = False,
                indent: int = 12) -> None:
        f = render.font(size, bold=bold)
        line = ""
        for word in s.split():
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] > self.width - indent - 14 and line:
                self.line(line, size=size, colour=colour, bold=bold, indent=indent)
                line = "  " + word
            else:
                line = trial
        if line:
            self.line(line, size=size, colour=colour, bold=bold, indent=indent)

    def rule(self) -> None:
        pygame.draw.line(self.s, PANEL_LINE, (self.x0 + 8, self.y),
                         (self.x0 + self.width - 8, self.y))
        self.y += 8


def draw_panel(app: App, surface: pygame.Surface) -> list[Row]:
    """Draw the whole panel for ``app`` on ``surface`` (the panel's own surface); the rows, in
    the window's coordinates."""
    w, h = surface.get_size()
    x_screen = app.screen.get_width() - w
    surface.fill(PANEL_BG)
    pygame.draw.line(surface, PANEL_LINE, (0, 0), (0, h))
    rows: list[Row] = []
    out = _Writer(surface, 0, 10, w)
    st = app.state
    b = st.battle
    title = st.name + ("  •" if app.history.unsaved else "")
    out.line(title, size=15, bold=True)
    step = f" · {turn.step_name(st)}" if b.step else ""
    out.wrapped(f"Round {b.round} · {turn.phase_title(st)}{step} · "
                f"{turn.player_name(st, b.active_player)} to play", colour=(200, 200, 200),
                size=13)
    if turn.shows_cp(st):
        for i, p in enumerate(st.players):
            col = render._shade(render.PLAYER_COLOURS[i % 2], 1.5)
            render.text(surface, f"{p.name or p.id}: {p.cp} CP", (12 + i * 150, out.y),
                        size=14, bold=True, colour=col)
        out.y += 24
    r = pygame.Rect(12, out.y, w - 24, 28)
    pygame.draw.rect(surface, (54, 60, 70), r, border_radius=5)
    render.text(surface, render.fit_text(f"[Space] {turn.next_label(st)}", r.w - 12, size=13,
                                         bold=True), r.center, size=13, bold=True,
                anchor="center")
    rows.append(Row(r.move(x_screen, 0), "next", "next"))
    out.y = r.bottom + 8
    _next_options(app, out, rows, x_screen)
    if app.group is not None:
        _group_setup(app, out, rows, x_screen)
    out.rule()
    focus = app.ctrl.focus or app.ctrl.selection_unit
    if focus is not None and any(u.id == focus for u in st.units):
        _unit(app, out, rows, x_screen, focus)
    else:
        out.wrapped("Click a model, or a unit in the roster, to see it here.", colour=GREY)
    out.rule()
    _tabs(app, out, rows, x_screen, h - 26)
    render.text(surface, "H help · Ctrl+Z/Y undo/redo · Ctrl+S save · Home fit",
                (12, h - 20), size=11, colour=GREY)
    return rows


def _next_options(app: App, out: _Writer, rows: list[Row], x_screen: int) -> None:
    """What Space will roll for, and the options of the ``next`` action that name a unit (Insane
    Bravery), each a toggle the next Space sends."""
    st = app.state
    pre = app.step_preview()
    if pre.removals:
        removals, reasons = app.removal_preview()
        picked = set(app.next_choice.get(pre.remove_field or "", []) or [])
        out.line("End of turn, coherency:", size=12, bold=True, colour=BAD_RED)
        by: dict[str, list[str]] = {}
        for unit, mid in removals:
            by.setdefault(unit, []).append(mid + (" (chosen)" if mid in picked else ""))
        for unit, mids in by.items():
            out.wrapped(f"{turn.unit_label(st, unit)} is out of coherency: Space removes "
                        + ", ".join(mids), size=11, colour=BAD_RED)
        for reason in reasons:
            out.wrapped(turn.named(st, reason), size=11, colour=BAD_RED)
        out.wrapped("Click models of the unit on the board to choose which go (the rules "
                    "remove them first, only as many as coherency needs).", size=11,
                    colour=GREY)
    if not pre.rolls:
        return
    out.line("On Space:", size=12, bold=True, colour=ACCENT)
    for unit, what in pre.rolls:
        out.line(f"{purpose(what)}: {turn.unit_label(st, unit)}", size=12)
        for c in pre.choices:
            if c.unit != unit:
                continue
            chosen = app.next_choice.get(c.field) == unit
            r = pygame.Rect(out.x0 + 24, out.y - 2, out.width - 36, 20)
            title = c.field.replace("-", " ").capitalize()
            label = f"{title}: chosen" if chosen else (title if c.ok else f"{title}: {c.reason}")
            pygame.draw.rect(out.s, ROW_HOT if chosen else ROW_BG, r, border_radius=4)
            render.text(out.s, render.fit_text(turn.named(st, label), r.w - 12, size=11),
                        (r.x + 8, r.y + 3), size=11,
                        colour=ACCENT if chosen else (render.TEXT if c.ok else GREY))
            rows.append(Row(r.move(x_screen, 0), "next-choice", unit, c.ok or chosen,
                            {"field": c.field}))
            out.y = r.bottom + 4


def _group_setup(app: App, out: _Writer, rows: list[Row], x_screen: int) -> None:
    """A unit the rules wait for, set up by one action (a destroyed transport's passengers)."""
    g = app.group
    assert g is not None
    st = app.state
    out.wrapped(f"{turn.unit_label(st, g.transport)} was destroyed: "
                f"{turn.unit_label(st, g.unit)} must make an emergency disembark first, wholly "
                "within 6\" and as close as possible. Drag each model from this list or from "
                f"the {turn.unit_label(st, g.transport)} onto the shaded area, then Enter; models "
                "that cannot be placed are destroyed.", size=12, colour=BAD_RED)
    placed = set(g.placed)
    unit = st.unit(g.unit)
    _setup_rows(out, rows, x_screen, [(m.id, m.base.spec, m.id in placed)
                                      for m in getattr(unit, "models", ())])
    if g.placed:
        out.line("Backspace over a placed model takes it back", size=11, colour=GREY)


def _unit(app: App, out: _Writer, rows: list[Row], x_screen: int, unit_id: str) -> None:
    st = app.state
    unit = st.unit(unit_id)
    col = render._shade(render.player_colour(st, unit.player), 1.5)
    out.line(unit.name or unit.id, size=15, bold=True, colour=col)
    bits = [m.text for m in markers(st, unit) if m.code != "MOVING"]
    if isinstance(unit, Block):
        _block(app, out, rows, x_screen, unit, bits)
        return
    out.line(f"M {unit.M:g}\"  W {unit.W}  Ld {unit.Ld}+  OC {unit.OC} · "
             f"{len(unit.models)} models", size=12)
    out.wrapped(", ".join(unit.keywords) or "no keywords", colour=GREY)
    if unit.location != "battlefield":
        where = ("in strategic reserves" if unit.location == "strategic-reserves" else
                 f"embarked in {turn.unit_label(st, unit.transport or '')}")
        bits.insert(0, where)
    if bits:
        out.wrapped(" · ".join(bits), size=12, colour=ACCENT)
    sel = st.battle.selection
    if sel is not None and sel.unit == unit.id:
        _moving(app, out, rows, x_screen, unit)
        return
    _move_rows(app, out, rows, x_screen, unit.id)


def _moving(app: App, out: _Writer, rows: list[Row], x_screen: int, unit: Unit) -> None:
    sel = app.state.battle.selection
    assert sel is not None
    out.line(f"Moving: {turn.moving_title(app.state, sel.move, sel.mode)}", bold=True,
             colour=ACCENT)
    shown = app.ctrl.state.unit(unit.id)  # placements staged so far are on the board
    models = list(getattr(shown, "models", ()))
    if any(m.at is None for m in models):
        # first, so that the rows stay where they are while what follows (coherency) changes
        where = ("" if unit.location != "embarked" else
                 f" or from the {turn.unit_label(app.state, unit.transport or '')}")
        out.wrapped(f"Drag each model from this list{where} onto the shaded area:", size=12)
        _setup_rows(out, rows, x_screen, [(m.id, m.base.spec, m.at is not None)
                                          for m in models])
    if sel.roll is not None:
        render.text(out.s, "advance roll", (out.x0 + 12, out.y + 4), size=12)
        draw_die(out.s, (out.x0 + 100, out.y), 22, sel.roll)
        render.text(out.s, f'= {unit.M + sel.roll:g}" in all', (out.x0 + 130, out.y + 4),
                    size=12)
        out.y += 28
    moved = sum(1 for a in sel.staged if a.get("do") in ("move", "place"))
    out.wrapped(f"{moved} staged · drag models (Shift: the whole unit; Ctrl+click or a box "
                "picks several) · Enter commits · Ctrl+Z undo · R reset · Esc cancels",
                size=11, colour=GREY)
    coh = app.coherency(unit.id)
    if coh:
        _problems(out, app, "Coherency would fail:", coh, 2, "drawn on the board")
    else:
        out.line("Coherency: ok", size=12, colour=OK_GREEN)
    ends = app.end_check(unit.id)
    if ends:
        _problems(out, app, "May not end here (Enter would refuse):", ends, 3,
                  "outlined on the board")


def _problems(out: _Writer, app: App, heading: str, found: Sequence[Any], shown: int,
              where: str) -> None:
    """A red heading, the first ``shown`` problems in the panel's words, and how many more."""
    out.line(heading, size=12, bold=True, colour=BAD_RED)
    for v in found[:shown]:
        out.wrapped(f"• {turn.named(app.state, v.message)}", colour=BAD_RED, size=11)
    if len(found) > shown:
        out.line(f"  and {len(found) - shown} more ({where})", size=11, colour=BAD_RED)


SETUP_ROWS = 12
"""Rows of models to set up shown at once (a page: a larger unit pages on as it is placed)."""


def _setup_rows(out: _Writer, rows: list[Row], x_screen: int,
                models: list[tuple[str, str, bool]]) -> None:
    """One row per model of a unit being set up, ``(id, base, placed)``, in the unit's order:
    a placed model keeps its row (greyed), so the rows never move under the pointer."""
    first = next((i for i, (_, _, placed) in enumerate(models) if not placed), 0)
    page = first // SETUP_ROWS * SETUP_ROWS
    for mid, spec, placed in models[page:page + SETUP_ROWS]:
        r = pygame.Rect(out.x0 + 12, out.y, out.width - 24, 20)
        pygame.draw.rect(out.s, PANEL_BG if placed else ROW_BG, r, border_radius=4)
        pygame.draw.rect(out.s, ROW_BG, r, 1, border_radius=4)
        text = f"{mid}  ({spec})" + ("  placed" if placed else "")
        render.text(out.s, text, (r.x + 8, r.y + 2), size=12,
                    colour=GREY if placed else render.TEXT)
        rows.append(Row(r.move(x_screen, 0), "placed" if placed else "place", mid, not placed))
        out.y += 23
    rest = len(models) - page - SETUP_ROWS
    if rest > 0:
        out.line(f"and {rest} more", size=11, colour=GREY)


def _move_rows(app: App, out: _Writer, rows: list[Row], x_screen: int, unit_id: str) -> None:
    """The unit's move types with their keys, greyed with the reason when not eligible."""
    st = app.state
    b = st.battle
    if b.phase != "movement" or (b.step or "start") != "move-units":
        out.wrapped(f"Units move in the Move Units step: [Space] {turn.next_label(st)}.",
                    size=12, colour=ACCENT)
    out.line("Move types:", bold=True)
    rows_el = app.eligibility(unit_id)
    for el in rows_el:
        r = pygame.Rect(out.x0 + 8, out.y, out.width - 16, 20)
        colour = render.TEXT if el.ok else GREY
        render.text(out.s, f"[{el.key.upper()}] {el.title}", (out.x0 + 14, out.y + 2),
                    size=13, colour=colour, bold=el.ok)
        rows.append(Row(r.move(x_screen, 0), "move", el.move, el.ok))
        out.y += 21
        if not el.ok and el.reason:
            out.wrapped(turn.named(st, el.reason), colour=GREY, size=11, indent=22)
        for mode, ok, why in el.modes:
            r = pygame.Rect(out.x0 + 28, out.y, out.width - 40, 19)
            pygame.draw.rect(out.s, ROW_BG if ok else PANEL_BG, r, border_radius=4)
            render.text(out.s, render.fit_text(turn.mode_title(mode) + (
                "" if ok else f": {turn.named(st, why)}"), r.w - 12, size=11),
                (r.x + 8, r.y + 2), size=11, colour=render.TEXT if ok else GREY)
            rows.append(Row(r.move(x_screen, 0), "mode", el.move, ok, {"mode": mode}))
            out.y += 21
    for flag in dict.fromkeys(f for el in rows_el for f in el.flags):
        moves = ", ".join(el.title.lower() for el in rows_el if flag in el.flags)
        on = flag in app.select_flags
        r = pygame.Rect(out.x0 + 8, out.y + 2, out.width - 16, 20)
        pygame.draw.rect(out.s, ROW_HOT if on else ROW_BG, r, border_radius=4)
        render.text(out.s, render.fit_text(f"[{'x' if on else ' '}] {flag.capitalize()} "
                                           f"({moves})", r.w - 12, size=12),
                    (r.x + 8, r.y + 2), size=12, colour=ACCENT if on else render.TEXT)
        rows.append(Row(r.move(x_screen, 0), "select-flag", flag))
        out.y = r.bottom + 4


def _block(app: App, out: _Writer, rows: list[Row], x_screen: int, unit: Block,
           bits: list[str]) -> None:
    """A t9a-2 block: profile and state; its moves, or the move being built."""
    st = app.state
    out.line(f"{unit.models} models · {unit.files} files x {unit.ranks} ranks · "
             f"{unit.base.spec}", size=12)
    out.line(f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}", size=12)
    if bits:
        out.wrapped(" · ".join(bits), size=12, colour=ACCENT)
    sel = st.battle.selection
    out.y += 4
    if sel is None or sel.unit != unit.id:
        _move_rows(app, out, rows, x_screen, unit.id)
        return
    mode = " — March Test failed: Advance Rate" if sel.mode == "march-test-failed" else ""
    title = turn.move_title(st, sel.move) if mode else turn.moving_title(st, sel.move, sel.mode)
    out.wrapped(f"Moving: {title}{mode}", colour=ACCENT, size=13)

    for a in sel.staged:
        out.line("• " + manoeuvre_text(a), size=12)
    start = app.rules.block_start(st)
    if start is not None and sel.staged:
        last = str(sel.staged[-1].get("do"))
        kind = "forward" if last == "wheel" else last
        disp = max_displacement(start, app.rules.block_geom(unit))
        cap = app.rules.block_cap(st, kind)
        colour = BAD_RED if disp > cap + 1e-6 else render.TEXT
        out.line(f'models moved {disp:.2f}" / {cap:g}"', size=12, colour=colour)
        ends = app.rules.block_end_reasons(st)
        if ends:
            out.line("Cannot end here:", size=12, bold=True, colour=BAD_RED)
            for reason in ends[:4]:
                out.wrapped(f"• {turn.named(st, reason)}", size=11, colour=BAD_RED)
        else:
            out.line('Ends more than 1" clear: ok', size=12, colour=OK_GREEN)
    hints = []
    if sel.move != "reform":
        hints.append("Drag the front edge (or the body) to move, a front corner to wheel.")
    if app.ctrl.blocks is not None and app.ctrl.blocks.can_reform(st):
        hints.append("Reform: [ ] files, , . turn 15°, ← → turn 90°, or drag the handles; "
                     "Enter reforms.")
    hints.append("Enter commits · Ctrl+Z undo · R reset · Esc cancels")
    for hint in hints:
        out.wrapped(hint, size=11, colour=GREY)


def _tabs(app: App, out: _Writer, rows: list[Row], x_screen: int, bottom: int) -> None:
    """The tab bar and the active tab's list, clipped to the space left and scrolled."""
    x = 12
    counts = {"roster": len(app.state.units), "dice": len(app.tray),
              "refusals": sum(len(rs) for _, rs in app.refusal_groups())}
    for key, title in TABS:
        label = f"{title} ({counts[key]})" if counts[key] else title
        tw = render.font(12, bold=True).size(label)[0] + 16
        r = pygame.Rect(x, out.y, tw, 22)
        on = app.tab == key
        pygame.draw.rect(out.s, ROW_HOT if on else ROW_BG, r, border_radius=4)
        render.text(out.s, label, r.center, size=12, bold=True, anchor="center",
                    colour=ACCENT if on else render.TEXT)
        rows.append(Row(r.move(x_screen, 0), "tab", key))
        x = r.right + 6
    top = out.y + 28
    area = pygame.Rect(0, top, out.width, max(bottom - top, 0))
    if area.h <= 20:
        return
    lst = pygame.Surface(area.size)
    lst.fill(PANEL_BG)
    inner = _Writer(lst, 0, 4 - app.scroll.get(app.tab, 0), out.width)
    list_rows: list[Row] = []
    if app.tab == "roster":
        _roster(app, inner, list_rows)
    elif app.tab == "dice":
        _dice(app, inner)
    else:
        _refusals(app, inner)
    full = inner.y + app.scroll.get(app.tab, 0)
    app.scroll_max[app.tab] = max(full - area.h + 8, 0)
    out.s.blit(lst, area.topleft)
    if app.scroll_max[app.tab] > 0:  # a scroll bar
        frac = area.h / max(full, 1)
        bar_h = max(int(area.h * frac), 16)
        pos = int((area.h - bar_h) * app.scroll.get(app.tab, 0) / app.scroll_max[app.tab])
        pygame.draw.rect(out.s, (80, 86, 96), (out.width - 6, top + pos, 4, bar_h),
                         border_radius=2)
    for row in list_rows:
        shown = row.rect.move(0, top).clip(area)
        if shown.h > 4:
            rows.append(Row(shown.move(x_screen, 0), row.kind, row.value, row.enabled))
    app.list_area = area.move(x_screen, 0)


def _roster(app: App, out: _Writer, rows: list[Row]) -> None:
    st = app.state
    focus = app.ctrl.focus or app.ctrl.selection_unit
    last_player = None
    for g in roster(st, app.history.start):
        if g.player != last_player:
            i = next((k for k, p in enumerate(st.players) if p.id == g.player), 0)
            col = render._shade(render.PLAYER_COLOURS[i % 2], 1.5)
            out.line(turn.player_name(st, g.player), size=13, bold=True, colour=col)
            last_player = g.player
        out.line(g.title, size=11, colour=GREY, indent=14)
        for e in g.entries:
            r = pygame.Rect(out.x0 + 10, out.y, out.width - 22, 20)
            if e.unit == focus:
                pygame.draw.rect(out.s, ROW_HOT, r, border_radius=4)
            colour = GREY if g.group == "destroyed" else render.TEXT
            name = render.fit_text(e.name, 150, size=12)
            render.text(out.s, name, (r.x + 8, r.y + 3), size=12, colour=colour)
            x = r.x + 8 + render.font(12).size(name)[0] + 6
            detail = render.fit_text(e.detail, max(r.right - x - 4, 10), size=10)
            render.text(out.s, detail, (x, r.y + 5), size=10, colour=GREY)
            out.y += 21
            if e.markers:
                x = r.x + 18
                for m in e.markers:
                    label = f"{m.code}"
                    tw = render.font(10, bold=True).size(label)[0] + 8
                    b = pygame.Rect(x, out.y - 1, tw, 15)
                    pygame.draw.rect(out.s, render.BADGE_COLOURS.get(m.tone, ROW_BG), b,
                                     border_radius=3)
                    render.text(out.s, label, b.center, size=10, bold=True, anchor="center")
                    x = b.right + 4
                words = ", ".join(m.text for m in e.markers)
                render.text(out.s, render.fit_text(words, max(r.right - x, 10), size=10),
                            (x + 2, out.y), size=10, colour=TONE_COLOURS.get(
                                e.markers[0].tone, GREY))
                out.y += 17
            if g.group != "destroyed":
                rows.append(Row(pygame.Rect(r.x, r.y, r.w, out.y - r.y), "unit", e.unit))
        out.y += 2


def _dice(app: App, out: _Writer) -> None:
    if not app.tray:
        out.wrapped("No dice rolled yet. Advance rolls, hazard rolls, battle-shock tests, "
                    "March Tests and flee rolls appear here with what they were for.",
                    colour=GREY)
        return
    last_when = None
    for roll in reversed(app.tray):
        if roll.when != last_when:
            out.line(roll.when, size=11, colour=GREY)
            last_when = roll.when
        out.line(f"{roll.purpose}: {roll.unit}", size=12, bold=True)
        x = out.x0 + 14
        for value, model in roll.dice:
            if x + 26 > out.width - 8:
                x = out.x0 + 14
                out.y += 40 if any(m for _, m in roll.dice) else 28
            draw_die(out.s, (x, out.y), 22, value)
            if model:
                render.text(out.s, model, (x + 11, out.y + 24), size=9, colour=GREY,
                            anchor="midtop")
            x += 28 if not model else 38
        out.y += 40 if any(m for _, m in roll.dice) else (28 if roll.dice else 0)
        if roll.result:
            colour = OK_GREEN if roll.good else BAD_RED if roll.good is False else render.TEXT
            out.wrapped(roll.result, size=11, colour=colour, indent=14)
        out.y += 4


def _refusals(app: App, out: _Writer) -> None:
    groups = app.refusal_groups()
    if not groups:
        out.wrapped("Nothing refused. When the rules refuse an action, every reason is listed "
                    "here by rule, and the board shows the models and distances.", colour=GREY)
        return
    for title, reasons in groups:
        out.line(f"{title} ({len(reasons)})", size=12, bold=True, colour=BAD_RED)
        for reason in reasons:
            out.wrapped(f"• {turn.named(app.state, reason)}", size=11, colour=BAD_RED,
                        indent=16)
        out.y += 4
    if app.refusal_note:
        out.wrapped(app.refusal_note, size=11, colour=GREY)


def panel_key(app: App) -> tuple[Any, ...]:
    """What the panel shows depends on (redrawn only when this changes)."""
    bt = app.ctrl.blocks
    return (app.screen.get_size(), Ref(app.state), app.ctrl.focus, Ref(app.refusal),
            len(app.tray), app.tab, app.scroll.get(app.tab, 0),
            json.dumps(app.next_choice, sort_keys=True), tuple(sorted(app.select_flags)),
            json.dumps(app.group.action() if app.group is not None else None),
            app.history.unsaved, bt.reform_edit(app.ctrl.state) is not None if bt else None)

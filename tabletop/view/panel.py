"""The side panel of the window: the turn, the focused unit, and a list (roster, dice, refusals,
messages).

The panel draws one frozen value, :class:`PanelView`, which the window builds from what it
knows (:meth:`tabletop.view.app.App.panel_view`), and returns what it drew, :class:`PanelDrawn`
(the clickable rows, how far each region scrolls, where the regions are): it reads nothing else
and writes nothing. Equal views (:meth:`PanelView.key`) draw the same panel, so the window
redraws it only when its view changes.

Its regions never move, whatever they hold: from the top, the **header** (the scenario, where
the turn stands, the turn bar of phases with those not simulated said so, the Command points of
a ruleset that has them, the next-step button saying what Space does), the **unit** region (what
Space will roll for, a transport's passengers to set up, the focused unit: profile, markers, its
move types greyed with the reason, the move being built), then the **tab bar** and the **list**
of the active tab: the roster (every unit of both players by where it is, with what it did this
phase; a click selects it), the dice tray (every roll, what it was for and for which model), the
refusals of the last refused action grouped by rule, and every message of the session. The unit
region and the list each scroll with the mouse wheel, with a scroll bar when they hold more than
fits. Every clickable thing is a :class:`Row` the window looks up on a click.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState, Unit
from tabletop.view import render, turn
from tabletop.view.bridge import MoveRow, StepPreview
from tabletop.view.dicetray import TrayRoll, purpose
from tabletop.view.identity import Ref
from tabletop.view.messages import manoeuvre_text
from tabletop.view.roster import markers, roster

__all__ = ["HEADER_H", "PANEL_W", "TABS", "BlockPanel", "GroupPanel", "PanelDrawn", "PanelView",
           "Row", "draw_die", "draw_panel", "group_refusals"]

PANEL_W = 340
PANEL_BG = (30, 32, 36)
PANEL_LINE = (58, 62, 68)
GREY = (120, 124, 130)
OK_GREEN = (120, 210, 120)
BAD_RED = (255, 110, 110)
ACCENT = (255, 226, 110)
ROW_BG = (44, 48, 56)
ROW_HOT = (62, 70, 84)

TABS = (("roster", "Roster"), ("dice", "Dice"), ("refusals", "Refusals"),
        ("messages", "Messages"))
"""The panel's lists: key and title."""

HEADER_H = 150
"""Height of the header region (the turn, the turn bar, CP, the next-step button)."""

UNIT_SHARE = 0.5
"""Share of the height below the header given to the unit region (the rest: tabs and list)."""

UNIT_MIN = 180
"""The unit region is at least this high."""

FOOTER_H = 24
TAB_H = 28
CONTENT_MAX = 2400
"""Tallest content a scrolled region draws (pixels)."""

TONE_COLOURS = {"done": (150, 160, 176), "bad": BAD_RED, "info": ACCENT}


@dataclass
class Row:
    """A clickable part of the panel: ``kind`` says what a click does with ``value``."""

    rect: pygame.Rect
    kind: str
    value: str
    enabled: bool = True
    data: dict[str, Any] | None = None


@dataclass(frozen=True)
class GroupPanel:
    """A unit the rules wait for, set up by one action (a destroyed transport's passengers)."""

    unit: str
    transport: str
    placed: frozenset[str]


@dataclass(frozen=True)
class BlockPanel:
    """The figures of a t9a-2 block's move being built."""

    displacement: float | None = None
    """The largest model displacement so far (``None``: nothing staged)."""
    cap: float = 0.0
    end_reasons: tuple[str, ...] = ()
    can_reform: bool = False


@dataclass(frozen=True)
class PanelView:
    """Everything the panel shows, as one value (the window builds it)."""

    height: int
    """The panel's height in pixels (its width is :data:`PANEL_W`)."""
    x_screen: int
    """Where the panel's left edge is on the screen (rows are in screen coordinates)."""
    state: GameState
    """The game as it stands."""
    shown: GameState
    """The board as drawn (models placed so far in a set-up on it)."""
    start: GameState
    """The game as the session began (the roster's destroyed units)."""
    unsaved: bool = False
    focus: str | None = None
    """The unit shown (clicked, or the one moving)."""
    tab: str = "roster"
    scroll: tuple[tuple[str, int], ...] = ()
    """How far each region is scrolled (``unit``, and each tab), pixels."""
    tray: tuple[TrayRoll, ...] = ()
    refusals: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The last refusal's reasons grouped by rule."""
    refusal_note: str = ""
    messages: tuple[str, ...] = ()
    step: StepPreview = field(default_factory=StepPreview)
    removals: tuple[tuple[tuple[str, str], ...], tuple[str, ...]] = ((), ())
    """The models the next Space would remove for coherency, and why it would be refused."""
    next_choice: str = "{}"
    """The options chosen for the next ``next``, as sorted JSON."""
    select_flags: frozenset[str] = frozenset()
    group: GroupPanel | None = None
    moves: tuple[MoveRow, ...] = ()
    """The focused unit's move types (when it is not the one moving)."""
    coherency: tuple[Violation, ...] = ()
    ends: tuple[Violation, ...] = ()
    """What a commit now would refuse about where the moving unit's models stand."""
    block: BlockPanel | None = None
    reform_editing: bool = False

    def key(self) -> tuple[Any, ...]:
        """What the panel drawn depends on: equal keys draw the same panel. States are compared
        by identity (never field by field); what the rules derive from them and from the
        choices in the key (move types, coherency, what Space rolls) is left out."""
        return (self.height, self.x_screen, Ref(self.state), Ref(self.shown), Ref(self.start),
                self.unsaved, self.focus, self.tab, self.scroll, len(self.tray),
                self.refusals, self.refusal_note, len(self.messages), self.messages[-1:],
                self.next_choice, self.select_flags, self.group, self.block,
                self.reform_editing)

    def scrolled(self, region: str) -> int:
        """How far ``region`` is scrolled."""
        return dict(self.scroll).get(region, 0)

    def chosen(self) -> dict[str, Any]:
        """The options chosen for the next ``next``."""
        out: dict[str, Any] = json.loads(self.next_choice)
        return out


@dataclass(frozen=True)
class PanelDrawn:
    """What :func:`draw_panel` drew: the clickable rows (screen coordinates), how far each
    scrolled region may scroll, and where the regions are on the screen."""

    rows: tuple[Row, ...]
    scroll_max: tuple[tuple[str, int], ...]
    list_area: pygame.Rect
    unit_area: pygame.Rect
    tab_bar: pygame.Rect


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
    """Draws panel lines top to bottom on one surface, wrapping to the panel's width; the
    rows it collects are in the surface's coordinates."""

    def __init__(self, surface: pygame.Surface, x0: int, y: int, width: int) -> None:
        self.s = surface
        self.x0 = x0
        self.y = y
        self.width = width
        self.rows: list[Row] = []

    def line(self, s: str, *, size: int = 13, colour: Any = render.TEXT, bold: bool = False,
             indent: int = 12) -> None:
        r = render.text(self.s, render.fit_text(s, self.width - indent - 8, size=size,
                                                bold=bold),
                        (self.x0 + indent, self.y), size=size, colour=colour, bold=bold)
        self.y = r.bottom + 4

    def wrapped(self, s: str, *, size: int = 12, colour: Any = render.TEXT, bold: bool = False,
                indent: int = 12) -> None:
        for k, line in enumerate(render.wrap_text(s, self.width - indent - 14, size=size,
                                                  bold=bold)):
            self.line(("  " if k else "") + line, size=size, colour=colour, bold=bold,
                      indent=indent)

    def rule(self) -> None:
        pygame.draw.line(self.s, PANEL_LINE, (self.x0 + 8, self.y),
                         (self.x0 + self.width - 8, self.y))
        self.y += 8

    def row(self, rect: pygame.Rect, kind: str, value: str, enabled: bool = True,
            data: dict[str, Any] | None = None) -> None:
        self.rows.append(Row(rect, kind, value, enabled, data))


def regions(height: int) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
    """The panel's fixed regions for a panel ``height`` high (panel coordinates): the header,
    the unit region, the tab bar and the list."""
    w = PANEL_W
    below = max(height - HEADER_H - FOOTER_H, 0)
    unit_h = min(max(int(below * UNIT_SHARE), UNIT_MIN), max(below - TAB_H - 40, 0))
    header = pygame.Rect(0, 0, w, HEADER_H)
    unit = pygame.Rect(0, HEADER_H, w, unit_h)
    tabs = pygame.Rect(0, unit.bottom, w, TAB_H)
    lst = pygame.Rect(0, tabs.bottom, w, max(height - FOOTER_H - tabs.bottom, 0))
    return header, unit, tabs, lst


def draw_panel(view: PanelView, surface: pygame.Surface) -> PanelDrawn:
    """Draw the whole panel of ``view`` on ``surface`` (the panel's own surface); what it
    drew."""
    w, h = surface.get_size()
    surface.fill(PANEL_BG)
    pygame.draw.line(surface, PANEL_LINE, (0, 0), (0, h))
    header, unit_r, tabs_r, list_r = regions(h)
    rows: list[Row] = []
    scroll_max: dict[str, int] = {}
    rows += _header(view, surface, header)
    pygame.draw.line(surface, PANEL_LINE, (8, header.bottom - 1), (w - 8, header.bottom - 1))
    rows += _scrolled(view, surface, unit_r, "unit", _unit_region, scroll_max)
    pygame.draw.line(surface, PANEL_LINE, (8, unit_r.bottom), (w - 8, unit_r.bottom))
    rows += _tab_bar(view, surface, tabs_r)
    lists = {"roster": _roster, "dice": _dice, "refusals": _refusals, "messages": _messages}
    rows += _scrolled(view, surface, list_r, view.tab, lists.get(view.tab, _roster),
                      scroll_max)
    render.text(surface, "H help · Ctrl+Z/Y undo/redo · Ctrl+S save · Home fit",
                (12, h - 20), size=11, colour=GREY)
    shift = (view.x_screen, 0)
    return PanelDrawn(tuple(Row(r.rect.move(shift), r.kind, r.value, r.enabled, r.data)
                            for r in rows), tuple(sorted(scroll_max.items())),
                      list_r.move(shift), unit_r.move(shift), tabs_r.move(shift))


def _scrolled(view: PanelView, surface: pygame.Surface, area: pygame.Rect, region: str,
              draw: Any, scroll_max: dict[str, int]) -> list[Row]:
    """Draw ``draw(view, writer)`` into ``area``, scrolled by the view's offset for
    ``region``, with a scroll bar when it holds more than fits; its rows, clipped."""
    if area.h <= 8:
        return []
    content = pygame.Surface((area.w, CONTENT_MAX))
    content.fill(PANEL_BG)
    out = _Writer(content, 0, 6, area.w)
    draw(view, out)
    full = min(out.y + 6, CONTENT_MAX)
    top = max(full - area.h, 0)
    scroll_max[region] = top
    off = min(view.scrolled(region), top)
    surface.blit(content, area.topleft, pygame.Rect(0, off, area.w, area.h))
    if top > 0:
        bar_h = max(int(area.h * area.h / full), 16)
        pos = int((area.h - bar_h) * off / top)
        pygame.draw.rect(surface, (80, 86, 96), (area.w - 6, area.y + pos, 4, bar_h),
                         border_radius=2)
    rows = []
    for r in out.rows:
        shown = r.rect.move(area.x, area.y - off).clip(area)
        if shown.h > 4:
            rows.append(Row(shown, r.kind, r.value, r.enabled, r.data))
    return rows


def _header(view: PanelView, surface: pygame.Surface, area: pygame.Rect) -> list[Row]:
    st = view.state
    b = st.battle
    out = _Writer(surface, 0, area.y + 8, area.w)
    out.line(st.name + ("  •" if view.unsaved else ""), size=15, bold=True)
    step = f" · {turn.step_name(st)}" if b.step else ""
    out.line(f"Round {b.round} · {turn.player_name(st, b.active_player)} to play{step}",
             colour=(200, 200, 200), size=12)
    _turn_bar(st, out)
    if turn.shows_cp(st):
        for i, p in enumerate(st.players):
            col = render.shade(render.PLAYER_COLOURS[i % 2], 1.5)
            render.text(surface, f"{p.name or p.id}: {p.cp} CP", (12 + i * 150, out.y),
                        size=13, bold=True, colour=col)
    out.y += 20
    r = pygame.Rect(12, area.bottom - 36, area.w - 24, 28)
    pygame.draw.rect(surface, (54, 60, 70), r, border_radius=5)
    render.text(surface, render.fit_text(f"[Space] {turn.next_label(st)}", r.w - 12, size=13,
                                         bold=True), r.center, size=13, bold=True,
                anchor="center")
    return [Row(r, "next", "next")]


def _turn_bar(st: GameState, out: _Writer) -> None:
    """The phases of the turn in a row: the current one lit, those the ruleset does not
    simulate struck through (the window passes through them)."""
    chips = turn.phase_bar(st)
    size = 10
    f = render.font(size, bold=True)
    widths = [f.size(c.title)[0] + 10 for c in chips]
    gap = 3
    while sum(widths) + gap * (len(chips) - 1) > out.width - 24 and size > 8:
        size -= 1
        f = render.font(size, bold=True)
        widths = [f.size(c.title)[0] + 8 for c in chips]
    x = out.x0 + 12
    for c, cw in zip(chips, widths, strict=True):
        r = pygame.Rect(x, out.y, cw, 16)
        bg = ROW_HOT if c.current else ROW_BG if c.simulated else PANEL_BG
        pygame.draw.rect(out.s, bg, r, border_radius=3)
        colour = ACCENT if c.current else render.TEXT if c.simulated else GREY
        t = render.text(out.s, c.title, r.center, size=size, bold=True, colour=colour,
                        anchor="center")
        if not c.simulated:
            pygame.draw.line(out.s, GREY, (t.left - 1, t.centery), (t.right, t.centery))
        x = r.right + gap
    out.y += 18
    if any(not c.simulated for c in chips):
        skipped = ", ".join(c.title for c in chips if not c.simulated)
        out.line(f"not simulated: {skipped}", size=10, colour=GREY)


def _unit_region(view: PanelView, out: _Writer) -> None:
    _next_options(view, out)
    if view.group is not None:
        _group_setup(view, out)
        out.rule()
    st = view.state
    if view.focus is not None and any(u.id == view.focus for u in st.units):
        _unit(view, out, view.focus)
    else:
        out.wrapped("Click a model, or a unit in the roster, to see it here.", colour=GREY)


def _next_options(view: PanelView, out: _Writer) -> None:
    """What Space will roll for, and the options of the ``next`` action that name a unit (Insane
    Bravery), each a toggle the next Space sends."""
    st = view.state
    pre = view.step
    chosen = view.chosen()
    if pre.removals:
        removals, reasons = view.removals
        picked = set(chosen.get(pre.remove_field or "", []) or [])
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
    out.line("On Space (dice are rolled):", size=12, bold=True, colour=ACCENT)
    for unit, what in pre.rolls:
        out.line(f"{purpose(what)}: {turn.unit_label(st, unit)}", size=12)
        for c in pre.choices:
            if c.unit != unit:
                continue
            on = chosen.get(c.field) == unit
            r = pygame.Rect(out.x0 + 24, out.y - 2, out.width - 36, 20)
            title = c.field.replace("-", " ").capitalize()
            label = f"{title}: chosen" if on else (title if c.ok else f"{title}: {c.reason}")
            pygame.draw.rect(out.s, ROW_HOT if on else ROW_BG, r, border_radius=4)
            render.text(out.s, render.fit_text(turn.named(st, label), r.w - 12, size=11),
                        (r.x + 8, r.y + 3), size=11,
                        colour=ACCENT if on else (render.TEXT if c.ok else GREY))
            out.row(r, "next-choice", unit, c.ok or on, {"field": c.field})
            out.y = r.bottom + 4
    out.rule()


def _group_setup(view: PanelView, out: _Writer) -> None:
    """A unit the rules wait for, set up by one action (a destroyed transport's passengers)."""
    g = view.group
    assert g is not None
    st = view.state
    out.wrapped(f"{turn.unit_label(st, g.transport)} was destroyed: "
                f"{turn.unit_label(st, g.unit)} must make an emergency disembark first, wholly "
                "within 6\" and as close as possible. Drag each model from this list or from "
                f"the {turn.unit_label(st, g.transport)} onto the shaded area, then Enter; models "
                "that cannot be placed are destroyed.", size=12, colour=BAD_RED)
    unit = st.unit(g.unit)
    _setup_rows(out, [(m.id, m.base.spec, m.id in g.placed)
                      for m in getattr(unit, "models", ())])
    if g.placed:
        out.line("Backspace over a placed model takes it back", size=11, colour=GREY)


def _unit(view: PanelView, out: _Writer, unit_id: str) -> None:
    st = view.state
    unit = st.unit(unit_id)
    col = render.shade(render.player_colour(st, unit.player), 1.5)
    out.line(unit.name or unit.id, size=15, bold=True, colour=col)
    bits = [m.text for m in markers(st, unit) if m.code != "MOVING"]
    if isinstance(unit, Block):
        _block(view, out, unit, bits)
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
        _moving(view, out, unit)
        return
    _move_rows(view, out)


def _moving(view: PanelView, out: _Writer, unit: Unit) -> None:
    st = view.state
    sel = st.battle.selection
    assert sel is not None
    out.wrapped(f"Moving: {turn.moving_title(st, sel.move, sel.mode)}", size=13, bold=True,
                colour=ACCENT)
    shown = view.shown.unit(unit.id)  # placements staged so far are on the board
    models = list(getattr(shown, "models", ()))
    if any(m.at is None for m in models):
        # first, so that the rows stay where they are while what follows (coherency) changes
        where = ("" if unit.location != "embarked" else
                 f" or from the {turn.unit_label(st, unit.transport or '')}")
        out.wrapped(f"Drag each model from this list{where} onto the shaded area:", size=12)
        _setup_rows(out, [(m.id, m.base.spec, m.at is not None) for m in models])
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
    if view.coherency:
        _problems(out, st, "Coherency would fail:", view.coherency, 2, "drawn on the board")
    else:
        out.line("Coherency: ok", size=12, colour=OK_GREEN)
    if view.ends:
        _problems(out, st, "May not end here (Enter would refuse):", view.ends, 3,
                  "outlined on the board")


def _problems(out: _Writer, st: GameState, heading: str, found: Sequence[Any], shown: int,
              where: str) -> None:
    """A red heading, the first ``shown`` problems in the panel's words, and how many more."""
    out.line(heading, size=12, bold=True, colour=BAD_RED)
    for v in found[:shown]:
        out.wrapped(f"• {turn.named(st, v.message)}", colour=BAD_RED, size=11)
    if len(found) > shown:
        out.line(f"  and {len(found) - shown} more ({where})", size=11, colour=BAD_RED)


SETUP_ROWS = 12
"""Rows of models to set up shown at once (a page: a larger unit pages on as it is placed)."""


def _setup_rows(out: _Writer, models: list[tuple[str, str, bool]]) -> None:
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
        out.row(r, "placed" if placed else "place", mid, not placed)
        out.y += 23
    rest = len(models) - page - SETUP_ROWS
    if rest > 0:
        out.line(f"and {rest} more", size=11, colour=GREY)


def _move_rows(view: PanelView, out: _Writer) -> None:
    """The unit's move types with their keys: those the rules accept now as rows (with their
    modes), the others as greyed chips grouped by the reason the rules give, said once."""
    st = view.state
    b = st.battle
    if b.phase != "movement" or (b.step or "start") != "move-units":
        out.wrapped(f"Units move in the Move Units step: [Space] {turn.next_label(st)}.",
                    size=12, colour=ACCENT)
    out.line("Move types:", bold=True)
    # what the unit may do first (with its options), then what it may not: the move types
    # refused for one reason (another player's unit, a unit that has moved) as greyed chips, the
    # reason said once (a click on a chip says it again)
    for el in view.moves:
        if not el.ok:
            continue
        r = pygame.Rect(out.x0 + 8, out.y, out.width - 16, 20)
        render.text(out.s, f"[{el.key.upper()}] {el.title}", (out.x0 + 14, out.y + 2),
                    size=13, colour=render.TEXT, bold=True)
        out.row(r, "move", el.move, True)
        out.y += 21
        for mode, ok, why in el.modes:
            r = pygame.Rect(out.x0 + 28, out.y, out.width - 40, 19)
            pygame.draw.rect(out.s, ROW_BG if ok else PANEL_BG, r, border_radius=4)
            render.text(out.s, render.fit_text(turn.mode_title(mode) + (
                "" if ok else f": {turn.named(st, why)}"), r.w - 12, size=11),
                (r.x + 8, r.y + 2), size=11, colour=render.TEXT if ok else GREY)
            out.row(r, "mode", el.move, ok, {"mode": mode})
            out.y += 21
    _flag_rows(view, out)
    refused: dict[str, list[MoveRow]] = {}
    for el in view.moves:
        if not el.ok:
            refused.setdefault(el.reason, []).append(el)
    for reason, els in refused.items():
        _chips(out, els)
        out.wrapped(turn.named(st, reason or "not now"), colour=GREY, size=11, indent=14)
        out.y += 2


def _chips(out: _Writer, els: list[MoveRow]) -> None:
    """Move types the rules refuse now, as greyed chips wrapped to the panel's width."""
    f = render.font(11)
    x = out.x0 + 12
    for el in els:
        label = f"[{el.key.upper()}] {el.title}"
        w = f.size(label)[0] + 10
        if x + w > out.x0 + out.width - 10 and x > out.x0 + 12:
            x, out.y = out.x0 + 12, out.y + 20
        r = pygame.Rect(x, out.y, w, 18)
        pygame.draw.rect(out.s, PANEL_BG, r, border_radius=3)
        pygame.draw.rect(out.s, ROW_BG, r, 1, border_radius=3)
        render.text(out.s, label, (r.x + 5, r.y + 2), size=11, colour=GREY)
        out.row(r, "move", el.move, False)
        x = r.right + 4
    out.y += 21


def _flag_rows(view: PanelView, out: _Writer) -> None:
    """A toggle per yes/no option of ``select`` the rules accept now (Fly)."""
    for flag in dict.fromkeys(f for el in view.moves for f in el.flags):
        moves = ", ".join(el.title.lower() for el in view.moves if flag in el.flags)
        on = flag in view.select_flags
        r = pygame.Rect(out.x0 + 8, out.y + 2, out.width - 16, 20)
        pygame.draw.rect(out.s, ROW_HOT if on else ROW_BG, r, border_radius=4)
        render.text(out.s, render.fit_text(f"[{'x' if on else ' '}] {flag.capitalize()} "
                                           f"({moves})", r.w - 12, size=12),
                    (r.x + 8, r.y + 2), size=12, colour=ACCENT if on else render.TEXT)
        out.row(r, "select-flag", flag)
        out.y = r.bottom + 4


def _block(view: PanelView, out: _Writer, unit: Block, bits: list[str]) -> None:
    """A t9a-2 block: profile and state; its moves, or the move being built."""
    st = view.state
    out.line(f"{unit.models} models · {unit.files} files x {unit.ranks} ranks · "
             f"{unit.base.spec}", size=12)
    out.line(f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}", size=12)
    if bits:
        out.wrapped(" · ".join(bits), size=12, colour=ACCENT)
    sel = st.battle.selection
    out.y += 4
    if sel is None or sel.unit != unit.id:
        _move_rows(view, out)
        return
    mode = " — March Test failed: Advance Rate" if sel.mode == "march-test-failed" else ""
    title = turn.move_title(st, sel.move) if mode else turn.moving_title(st, sel.move, sel.mode)
    out.wrapped(f"Moving: {title}{mode}", colour=ACCENT, size=13)
    for a in sel.staged:
        out.line("• " + manoeuvre_text(a), size=12)
    bp = view.block or BlockPanel()
    if bp.displacement is not None:
        colour = BAD_RED if bp.displacement > bp.cap + 1e-6 else render.TEXT
        out.line(f'models moved {bp.displacement:.2f}" / {bp.cap:g}"', size=12, colour=colour)
        if bp.end_reasons:
            out.line("Cannot end here:", size=12, bold=True, colour=BAD_RED)
            for reason in bp.end_reasons[:4]:
                out.wrapped(f"• {turn.named(st, reason)}", size=11, colour=BAD_RED)
        else:
            out.line('Ends more than 1" clear: ok', size=12, colour=OK_GREEN)
    hints = []
    if sel.move != "reform":
        hints.append("Drag the front edge (or the body) to move, a front corner to wheel.")
    if bp.can_reform:
        hints.append("Reform: [ ] files, , . turn 15°, ← → turn 90°, or drag the handles; "
                     "Enter reforms.")
    hints.append("Enter commits · Ctrl+Z undo · R reset · Esc cancels")
    for hint in hints:
        out.wrapped(hint, size=11, colour=GREY)


def _tab_bar(view: PanelView, surface: pygame.Surface, area: pygame.Rect) -> list[Row]:
    """The tab bar: one button per list, at a fixed place."""
    counts = {"roster": len(view.state.units), "dice": len(view.tray),
              "refusals": sum(len(rs) for _, rs in view.refusals), "messages": 0}
    labels = [f"{title} ({counts[k]})" if counts[k] else title for k, title in TABS]
    # widths from the titles alone (room for a count), so that no count moves a tab
    size, gap = 12, 4
    room = [f"{title} (99)" if k != "messages" else title for k, title in TABS]
    while size > 9 and sum(render.font(size, bold=True).size(s)[0] + 8 for s in room) + \
            gap * (len(TABS) - 1) > area.w - 24:
        size -= 1
    f = render.font(size, bold=True)
    spare = (area.w - 24 - gap * (len(TABS) - 1) - sum(f.size(s)[0] for s in room)) // len(TABS)
    x = 12
    rows = []
    for (key, _), label, wide in zip(TABS, labels, room, strict=True):
        tw = f.size(wide)[0] + spare
        label = render.fit_text(label, tw - 4, size=size, bold=True)
        r = pygame.Rect(x, area.y + 3, tw, 22)
        on = view.tab == key
        pygame.draw.rect(surface, ROW_HOT if on else ROW_BG, r, border_radius=4)
        render.text(surface, label, r.center, size=size, bold=True, anchor="center",
                    colour=ACCENT if on else render.TEXT)
        rows.append(Row(r, "tab", key))
        x = r.right + gap
    return rows


def _roster(view: PanelView, out: _Writer) -> None:
    st = view.state
    last_player = None
    for g in roster(st, view.start):
        if g.player != last_player:
            i = next((k for k, p in enumerate(st.players) if p.id == g.player), 0)
            col = render.shade(render.PLAYER_COLOURS[i % 2], 1.5)
            out.line(turn.player_name(st, g.player), size=13, bold=True, colour=col)
            last_player = g.player
        out.line(g.title, size=11, colour=GREY, indent=14)
        for e in g.entries:
            r = pygame.Rect(out.x0 + 10, out.y, out.width - 22, 20)
            if e.unit == view.focus:
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
                out.row(pygame.Rect(r.x, r.y, r.w, out.y - r.y), "unit", e.unit)
        out.y += 2


def _dice(view: PanelView, out: _Writer) -> None:
    if not view.tray:
        out.wrapped("No dice rolled yet. Advance rolls, hazard rolls, battle-shock tests, "
                    "March Tests and flee rolls appear here with what they were for.",
                    colour=GREY)
        return
    last_when = None
    for roll in reversed(view.tray):
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


def _refusals(view: PanelView, out: _Writer) -> None:
    if not view.refusals:
        out.wrapped("Nothing refused. When the rules refuse an action, every reason is listed "
                    "here by rule, and the board shows the models and distances.", colour=GREY)
        return
    for title, reasons in view.refusals:
        out.line(f"{title} ({len(reasons)})", size=12, bold=True, colour=BAD_RED)
        for reason in reasons:
            out.wrapped(f"• {turn.named(view.state, reason)}", size=11, colour=BAD_RED,
                        indent=16)
        out.y += 4
    if view.refusal_note:
        out.wrapped(view.refusal_note, size=11, colour=GREY)


def _messages(view: PanelView, out: _Writer) -> None:
    """Every message of the session, newest first, in full."""
    if not view.messages:
        out.wrapped("The window's messages appear here, newest first, in full.", colour=GREY)
        return
    for k, text in enumerate(reversed(view.messages)):
        colour = BAD_RED if text.startswith(("refused", "could not")) else (
            render.TEXT if k == 0 else (190, 190, 190))
        out.wrapped(text, size=11, colour=colour, indent=12)
        out.y += 3

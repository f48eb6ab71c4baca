"""The frame of :class:`tabletop.view.app.App`: the cached board, the overlays drawn over it each
frame, the status line, the side panel's view and the help; only changed rectangles are sent.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from tabletop import rulesets
from tabletop.state import Block, GameState
from tabletop.view import blockpaint, render, turn
from tabletop.view.appconfig import (
    BAD_RED,
    LEGEND_W,
    OK_GREEN,
    STATUS_H,
)
from tabletop.view.blockdrag import max_displacement
from tabletop.view.boardlabels import draw_placed, expanded, layout_marks, mark_of
from tabletop.view.controller import ghost_models
from tabletop.view.dialogs import draw_dialog
from tabletop.view.helpkeys import help_rows
from tabletop.view.identity import Ref
from tabletop.view.messages import (
    unit_drag_note,
)
from tabletop.view.notices import draw_alerts, draw_help, draw_status
from tabletop.view.panel import (
    PANEL_W,
    BlockPanel,
    GroupPanel,
    PanelView,
    draw_panel,
    group_refusals,
)
from tabletop.view.roster import markers
from tabletop.view.threatview import Layer as ThreatLayer
from tabletop.view.threatview import draw_legend, legend_corner

if TYPE_CHECKING:
    from tabletop.view.app import App


def cached(app: App, name: str, key: Any, make: Callable[[], Any]) -> Any:
    hit = app._cache.get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = make()
    app._cache[name] = (key, value)
    return value


def draw(app: App) -> list[pygame.Rect] | None:
    """Draw what changed; the rectangles of the screen to update (``None``: all of it)."""
    app.dirty = False
    app.frames += 1
    screen = app.screen
    board = app.board_rect()
    base = app._base()
    full = (app._full or not app.partial or base is not app._shown_base
            or app.dialog is not None or app.help)
    screen.set_clip(board)
    if full:
        screen.blit(base, (0, 0))
    else:
        for r in app._overlay_rects:
            screen.blit(base, r, r)
    cur = [r.clip(board) for r in app._overlays()]
    screen.set_clip(None)
    dirty = app._blit_panel(full) + app._draw_status(full)
    if app.help:
        app._draw_help()
    if app.dialog is not None:
        app._dialog_buttons = draw_dialog(screen, app.dialog, screen.get_rect())
    shown_before = app._overlay_rects
    app._overlay_rects = [r for r in cur if r.w > 0 and r.h > 0]
    app._shown_base = base
    if full:
        app._full = False
        return None
    return merge([*shown_before, *app._overlay_rects, *dirty])


def base(app: App) -> pygame.Surface:
    """The board without what moves with the pointer: cached until the state or the view
    changes (a pick-up, a drop, a zoom)."""
    screen = app.screen
    c = app.ctrl
    vp = c.viewport
    size = screen.get_size()
    st = c.state
    drag = c.drag
    hidden = frozenset(mid for mid, s in drag.starts.items() if s is not None
                       ) if drag is not None else frozenset()
    marks = app._marks()
    outlined = frozenset(m for mark in marks if not mark.outlines for m in mark.models)
    focus = c.focus or c.selection_unit
    bt = c.blocks
    bdrag = bt.drag if bt is not None else None
    lay = app.threats
    chosen = frozenset(m for v in app.next_choice.values() if isinstance(v, list)
                       for m in v)
    setup = app.setup_area() if drag is None else None
    key = (vp, size, app.grid, Ref(st), hidden, focus, outlined, frozenset(c.picked),
           chosen, app.engagement, Ref(lay.threat), Ref(lay.safe), Ref(drag), Ref(bdrag),
           Ref(app.refusal), len(app.block_marks), Ref(setup))
    hit = app._cache.get("base")
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[no-any-return]

    def make_static() -> pygame.Surface:
        s = pygame.Surface(size)
        render.draw_static(s, st, vp, grid=app.grid)
        return s.convert() if pygame.display.get_surface() is not None else s

    static = app._cached("static", (vp, size, app.grid, Ref(st.terrain)), make_static)
    base = static.copy()
    board = app.board_rect()
    badges = {u.id: [(m.code, m.tone) for m in markers(st, u)] for u in st.units}
    for sprite in app._threat_sprites(lay):  # threat rings, safe ground: under the models
        app._blit_sprite(base, sprite)
    # the refusal's labels first (they matter most), off the moving unit's models; the
    # unit labels then keep off them too
    bounds = (board.x, board.y, board.w, board.h)
    moving = render.model_boxes(st, vp, units=[c.selection_unit] if c.selection_unit
                                else [], hidden=hidden)
    app._mark_labels = layout_marks(st, vp, marks, bounds, moving,
                                     soft=render.model_boxes(st, vp, hidden=hidden))
    app._unit_labels = render.draw_models(
        base, st, vp, hidden=hidden, selected_unit=focus, outlined=outlined, badges=badges,
        picked=frozenset(c.picked) | chosen, label_bounds=board,
        taken=[p.box for _, p in app._mark_labels.placed] + app._handle_boxes(vp))
    if app.engagement:
        enemy = app._enemy_of(focus)
        if enemy is not None:
            col = render.shade(render.player_colour(st, enemy), 1.4)
            app._blit_sprite(base, render.zone_sprite(
                render.engagement_geometry(st, enemy), vp, board, fill=(*col, 36), edge=col))
    lines, rolls = lay.legend(st)
    if lines:
        width = min(board.w - 40, LEGEND_W)
        lines = [w for t in lines for w in render.wrap_text(t, width)]
        draw_legend(base, legend_corner(st, vp, board, lines, rolls, lay.shaded()), lines,
                    rolls)
    if setup is not None:  # where the models waiting to be set up may go, before a drag
        app._blit_sprite(base, render.zone_sprite(setup, vp, board,
                                                   fill=render.SETUP_FILL))
    if drag is not None:
        zone = drag.zones.get(drag.anchor)
        geom = getattr(zone, "geometry", None)
        fill = render.SETUP_FILL if drag.placing else render.ZONE_FILL
        app._blit_sprite(base, render.zone_sprite(geom, vp, board, fill=fill))
        for mid, start in drag.starts.items():
            if start is not None:
                pts = render.base_outline_px(vp, drag.bases[mid], start, drag.facings[mid])
                pygame.draw.aalines(base, (230, 230, 230), True, pts)
    if bdrag is not None and bdrag.handle not in ("rotate", "files"):
        app._blit_sprite(base, render.zone_sprite(bdrag.range_area, vp, board,
                                                   fill=render.ZONE_FILL, edge=None))
        for g in bdrag.limit_ghosts:
            blockpaint.draw_block_limit(base, vp, g)
    for m in marks:
        render.draw_mark(base, st, vp, m, label=False)
    draw_placed(base, app._mark_labels.placed)
    app._cache["base"] = (key, base)
    return base


def threat_sprites(app: App, lay: ThreatLayer) -> list[tuple[pygame.Surface, tuple[int, int]]
                                                  | None]:
    """What ``lay`` shades, drawn for the board as it is on screen now (kept for the
    answers and the view: a drag or a hover does not draw it again)."""
    vp, board = app.ctrl.viewport, app.board_rect()
    key = (vp, app.screen.get_size(), Ref(lay.threat), Ref(lay.safe))
    return app._cached("threat", key, lambda: [
        render.zone_sprite(sh.geometry, vp, board, fill=sh.fill, edge=sh.edge)
        for sh in lay.shades(app.state)])  # type: ignore[no-any-return]


def blit_sprite(surface: pygame.Surface,
                 sprite: tuple[pygame.Surface, tuple[int, int]] | None) -> None:
    if sprite is not None:
        surface.blit(*sprite)


def overlays(app: App) -> list[pygame.Rect]:
    """What moves with the pointer, drawn on the screen; the rects touched."""
    screen = app.screen
    c = app.ctrl
    vp = c.viewport
    st = c.state
    drag = c.drag
    rects: list[pygame.Rect] = []
    ov = render.Overlays()
    if drag is not None:
        pidx = app._player_index(st.model(drag.anchor)[0].player)
        ov.ghosts = [render.Ghost(base, at, facing, pidx, legal)
                     for _, base, at, facing, legal in ghost_models(drag)]
        if len(drag.path) >= 2:
            used = app.rules.used(st, drag.anchor)
            ov.path = render.PathOverlay(drag.path, used + drag.length, drag.cap)
    if c.ruler is not None:
        ov.ruler = (c.ruler.a, c.ruler.b, c.ruler.label)
    if ov.path is not None or ov.ruler is not None:  # their labels: off the moving unit
        board = app.board_rect()
        ov.label_bounds = (board.x, board.y, board.w, board.h)
        unit = c.selection_unit
        hidden = frozenset(drag.ghosts) if drag is not None else frozenset()
        ov.label_avoid = render.model_boxes(st, vp, units=[unit] if unit else [],
                                            hidden=hidden)
        ov.label_avoid += [(x - r, y - r, 2 * r, 2 * r) for g in ov.ghosts
                           for (x, y), r in [(vp.to_px(*g.at), vp.length(g.base.radius))]]
        ov.label_avoid += app._unit_labels
    rects += render.draw_overlays(screen, st, vp, ov, zone=False)
    if c.box is not None:
        (ax, ay), (bx, by) = (vp.to_px(*c.box[0]), vp.to_px(*c.box[1]))
        r = pygame.Rect(min(ax, bx), min(ay, by), abs(bx - ax) + 1, abs(by - ay) + 1)
        rects.append(pygame.draw.rect(screen, render.PICKED, r, 1))
    rects += app._draw_block_tool(vp)
    if app._hovered_summary is not None:
        summaries = app._mark_labels.summaries
        if app._hovered_summary < len(summaries):
            rect, group = summaries[app._hovered_summary]
            board = app.board_rect()
            avoid = render.model_boxes(st, vp, units=[c.selection_unit]
                                       if c.selection_unit else [])
            rects.append(draw_placed(screen, expanded(
                group, (board.x, board.y, board.w, board.h),
                [*avoid, (rect.x, rect.y, rect.w, rect.h)])))
    app._alert_rects = draw_alerts(screen, app.keeper.alerts, app.board_rect())
    rects += [r for r, _ in app._alert_rects]
    if c.hover and drag is None and not c.ruler_on:  # never over the ruler's reading
        rects.append(app._draw_hover(c.hover))
    elif c.hover_block and drag is None and (c.blocks is None or c.blocks.drag is None):
        rects.append(app._draw_block_hover(c.hover_block))
    return rects


def refusal_groups(app: App) -> list[tuple[str, list[str]]]:
    """The last refusal's reasons grouped by rule (the panel's Refusals tab)."""
    if app.refusal is None:
        return []
    return group_refusals(app.refusal.reasons, app.refusal.violations)


def marks(app: App) -> list[render.Mark]:
    marks: list[render.Mark] = []
    if app.refusal is not None:
        for v in app.refusal.violations:
            marks.append(mark_of(v))
        marks += app.block_marks
    unit = app.ctrl.selection_unit
    if unit is not None and app.state.battle.selection is not None:
        marks += [mark_of(v) for v in app.coherency(unit)]
        if app.refusal is None or not app.refusal.violations:
            marks += [mark_of(v) for v in app.end_check(unit)]
    removals, _ = app.removal_preview()
    for u in dict.fromkeys(u for u, _ in removals):
        marks += [mark_of(v) for v in app.coherency(u)]
    if removals:
        marks.append(render.Mark(models=tuple(m for _, m in removals)))
    return marks


def card(app: App, lines: list[str]) -> pygame.Rect:
    x, y = app.ctrl.pointer
    x, y = int(x) + 16, int(y) + 16
    f = render.font(12)
    w = max(f.size(s)[0] for s in lines) + 12
    h = len(lines) * 16 + 8
    br = app.board_rect()
    x = min(x, br.right - w - 4)
    y = min(y, br.bottom - h - 4)
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((14, 14, 18, 225))
    r = app.screen.blit(box, (x, y))
    for i, s in enumerate(lines):
        render.text(app.screen, s, (x + 6, y + 4 + 16 * i), size=12)
    return r


def drag_live(app: App) -> tuple[str, bool] | None:
    """The status line while a whole unit is Shift-dragged: how far it goes, and which
    model stops it going further, and why."""
    d = app.ctrl.drag
    if d is None or not d.whole_unit:
        return None
    return unit_drag_note(app.ctrl.state, d), d.limit is not None


def draw_hover(app: App, model_id: str) -> pygame.Rect:
    try:
        unit, m = app.ctrl.state.model(model_id)
    except KeyError:
        return pygame.Rect(0, 0, 0, 0)
    lines = [f"{unit.name or unit.id}  ({turn.player_name(app.state, unit.player)})",
             f"model {m.id}, base {m.base.spec}",
             f"M {unit.move_of(m):g}\"  W {unit.wounds_of(m)}/{unit.W}  Ld {unit.Ld}+  "
             f"OC {unit.OC}", ", ".join(unit.keywords)]
    bits = [x.text for x in markers(app.state, unit)]
    if bits:
        lines.append("state: " + ", ".join(bits))
    return app._card(lines)


def status_line(app: App, full: bool) -> list[pygame.Rect]:
    w, h = app.screen.get_size()
    r = pygame.Rect(0, h - STATUS_H, w - PANEL_W, STATUS_H)
    colour = BAD_RED if app.message.startswith("refused") else render.TEXT
    msg = app.message
    live = app._block_live() or app._drag_live()
    if live is not None:
        msg, bad = live
        colour = BAD_RED if bad else OK_GREEN
    tools = []
    if app.ctrl.ruler_on:
        tools.append("RULER (M)")
    if app.ctrl.picked:
        tools.append(f"{len(app.ctrl.picked)} picked")
    if app.grid:
        tools.append("grid")
    if app.engagement:
        tools.append("engagement")
    if app.threats.threat_unit:
        tools.append("threat")
    if app.threats.safe_unit:
        tools.append(f"safe {app.threats.odds.need}+" if app.threats.odds.need <= 12
                     else "safe")
    key = (msg, colour, tuple(tools), r.size)
    if not full and key == app._status:
        return []
    app._status = key
    draw_status(app.screen, r, msg, colour, tools)
    return [r]


def panel_view(app: App) -> PanelView:
    """Everything the side panel shows, as one frozen value (:mod:`tabletop.view.panel`)."""
    st = app.state
    w, h = app.screen.get_size()
    focus = app.ctrl.focus or app.ctrl.selection_unit
    if focus is not None and not any(u.id == focus for u in st.units):
        focus = None
    sel = st.battle.selection
    moving = sel is not None and focus == sel.unit
    g = app.group
    bt = app.ctrl.blocks
    return PanelView(
        height=h, x_screen=w - PANEL_W, state=st, shown=app.ctrl.state,
        start=app.history.start, unsaved=app.history.unsaved, focus=focus,
        tab=app.tab, scroll=tuple(sorted(app.scroll.items())), tray=tuple(app.tray),
        refusals=tuple((t, tuple(rs)) for t, rs in app.refusal_groups()),
        refusal_note=app.refusal_note, messages=tuple(app.messages),
        step=app.step_preview(), removals=app.removal_preview(),
        next_choice=json.dumps(app.next_choice, sort_keys=True),
        select_flags=frozenset(app.select_flags),
        group=GroupPanel(g.unit, g.transport, frozenset(g.placed)) if g is not None
        else None,
        moves=tuple(app.eligibility(focus)) if focus is not None and not moving else (),
        coherency=tuple(app.coherency(focus)) if moving and focus is not None else (),
        ends=tuple(app.end_check(focus)) if moving and focus is not None else (),
        block=app._block_panel(st) if moving else None,
        reform_editing=bt.reform_edit(app.ctrl.state) is not None if bt else False)


def block_panel(app: App, st: GameState) -> BlockPanel | None:
    """The figures of the selected t9a-2 block's move, for the panel."""
    sel = st.battle.selection
    if sel is None or not isinstance(st.unit(sel.unit), Block):
        return None
    bt = app.ctrl.blocks
    can_reform = bt is not None and bt.can_reform(st)
    start = app.rules.block_start(st)
    if start is None or not sel.staged:
        return BlockPanel(can_reform=can_reform)
    last = str(sel.staged[-1].get("do"))
    unit = st.unit(sel.unit)
    assert isinstance(unit, Block)
    return BlockPanel(max_displacement(start, app.rules.block_geom(unit)),
                      app.rules.block_cap(st, "forward" if last == "wheel" else last),
                      tuple(app.rules.block_end_reasons(st)), can_reform)


def blit_panel(app: App, full: bool) -> list[pygame.Rect]:
    """Draw the side panel, redrawn only when what it shows changes."""
    w, h = app.screen.get_size()
    view = app.panel_view()
    key = view.key()
    hit = app._cache.get("panel")
    if hit is not None and hit[0] == key:
        if not full:
            return []
        surf, drawn = hit[1]
    else:
        surf = pygame.Surface((PANEL_W, h))
        drawn = draw_panel(view, surf)
        app._cache["panel"] = (key, (surf, drawn))
    app.rows = list(drawn.rows)
    app.scroll_max = dict(drawn.scroll_max)
    app.list_area, app.unit_area = drawn.list_area, drawn.unit_area
    return [app.screen.blit(surf, (w - PANEL_W, 0))]


def help_card(app: App) -> None:
    """H: every key for the board in front of the player (:mod:`tabletop.view.helpkeys`),
    in two columns when one does not fit."""
    st = app.state
    rows = help_rows(rulesets.of(st).move_types, app.rules.tools(st))
    draw_help(app.screen, rows, app.board_rect())


def merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Fewer rectangles for the display: overlapping ones merged (each costs a copy)."""
    out: list[pygame.Rect] = []
    for r in rects:
        if r.w <= 0 or r.h <= 0:
            continue
        r = r.copy()
        merged = True
        while merged:
            merged = False
            for o in out:
                if o.colliderect(r.inflate(8, 8)):
                    out.remove(o)
                    r.union_ip(o)
                    merged = True
                    break
        out.append(r)
    return out

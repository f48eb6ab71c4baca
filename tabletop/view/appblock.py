"""Drawing a terrain block being edited in :class:`tabletop.view.app.App`: the block tool, its
handles and labels, and the hover card of a block.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from tabletop.state import Block
from tabletop.view import blockpaint, render, turn
from tabletop.view.blockdrag import handle_points
from tabletop.view.boardlabels import leader as draw_placed_leader
from tabletop.view.labels import Placed, place_labels
from tabletop.view.roster import markers

if TYPE_CHECKING:
    from tabletop.view.app import App


def draw_block_tool(app: App, vp: Any) -> list[pygame.Rect]:
    """The selected block's handles, or the manoeuvre being dragged: the ghost, the path,
    the 1" rule, the figures (the legal range and its ends are on the base layer)."""
    bt = app.ctrl.blocks
    if bt is None:
        return []
    st = app.ctrl.state
    block = bt.selected(st)
    if block is None:
        return []
    screen = app.screen
    col = render.player_colour(st, block.player)
    d = bt.drag
    edit = bt.reform_edit(st)
    rects: list[pygame.Rect] = []
    if d is not None and d.handle not in ("rotate", "files"):
        if d.arc:
            rects.append(blockpaint.draw_polyline(screen, vp, d.arc))
        if d.action is not None and d.action["do"] == "wheel":
            pv = vp.to_px(*d.geom.wheel_pivot(float(d.action["angle"])))
            rects.append(pygame.draw.circle(screen, (0, 0, 0), pv, 6))
            pygame.draw.circle(screen, (255, 255, 255), pv, 4)
        if d.ghost is not None and d.action is not None:
            rects.append(blockpaint.draw_block_ghost(screen, vp, d.ghost, col,
                                                 edge=verdict_colour(d.ok, d.end_reasons)))
            rects.append(blockpaint.draw_near(screen, vp, d.near))
        over = d.cap is not None and d.displacement > d.cap + 1e-6
        rects.append(app._block_label(vp, d.ghost or d.geom, d.label, d.clamped,
                                       bad=not d.ok or over))
        return rects
    geom = app.rules.block_geom(block)
    if edit is not None and edit.ghost is not None:
        rects.append(blockpaint.draw_block_ghost(screen, vp, edit.ghost, col,
                                             edge=verdict_colour(edit.ok,
                                                                  edit.end_reasons)))
        rects.append(blockpaint.draw_near(screen, vp, edit.near))
        rects.append(app._block_label(vp, edit.ghost, edit.label, False, bad=not edit.ok))
        geom = edit.ghost
    rects.append(blockpaint.draw_block_handles(screen, vp, geom, handle_points(geom, vp.scale),
                                           move=bt.can_move(st) and edit is None,
                                           reform=bt.can_reform(st), hover=bt.hover))
    return rects


def handle_boxes(app: App, vp: Any) -> list[tuple[float, float, float, float]]:
    """The screen boxes of the selected block's handles (what a player grabs: no label
    sits on them)."""
    bt = app.ctrl.blocks
    block = bt.selected(app.ctrl.state) if bt is not None else None
    if block is None:
        return []
    geom = app.rules.block_geom(block)
    return [(px - 12, py - 12, 24, 24) for px, py in
            (vp.to_px(*q) for q in handle_points(geom, vp.scale).values())]


def block_label(app: App, vp: Any, geom: Any, label: str, clamped: bool, *,
                 bad: bool) -> pygame.Rect:
    """The live figures of a manoeuvre by its ghost (why it is not legal goes in the status
    line), placed inside the board, off the block and its handles, a leader line to it when
    moved off its first place."""
    if not label:
        return pygame.Rect(0, 0, 0, 0)
    text = label + ("  (limit)" if clamped else "")
    p = app.block_label_place(vp, geom, text)
    x, y, w, h = p.box
    rects = [draw_placed_leader(app.screen, p)] if p.leader else []
    rects.append(render.text(app.screen, text, (x + w / 2, y + h - 2), size=15, bold=True,
                             colour=(255, 120, 120) if bad else render.TEXT,
                             anchor="midbottom", box=(0, 0, 0, 200)).inflate(10, 4))
    return render.union_rects(rects)


def block_label_place(app: App, vp: Any, geom: Any, text: str) -> Placed:
    """Where a block's readout ``text`` goes: above the block when there is room, inside
    the board, off the block, its handles, the other blocks and the unit labels."""
    minx, miny, maxx, maxy = geom.polygon.bounds
    board = app.board_rect()
    f = render.font(15, bold=True)
    w, h = f.size(text)[0] + 10, f.get_height() + 4
    (x0, y0), (x1, y1) = vp.to_px(minx, miny), vp.to_px(maxx, maxy)
    avoid = [(x0, y0, x1 - x0, y1 - y0)]
    avoid += [(px - 12, py - 12, 24, 24) for px, py in
              (vp.to_px(*q) for q in handle_points(geom, vp.scale).values())]
    avoid += app._handle_boxes(vp) + render.model_boxes(app.ctrl.state, vp)
    avoid += app._unit_labels
    (p,) = place_labels([(vp.to_px((minx + maxx) / 2, miny), (w, h))],
                        (board.x, board.y, board.w, board.h), avoid)
    return p


def block_live(app: App) -> tuple[str, bool] | None:
    """The status line while a block manoeuvre or reform is being built: its verdict."""
    bt = app.ctrl.blocks
    if bt is None:
        return None
    d = bt.drag
    edit = bt.reform_edit(app.ctrl.state)
    if d is not None and d.handle not in ("rotate", "files") and d.action is not None:
        ok, reasons, ends = d.ok, d.reasons, d.end_reasons
    elif edit is not None and edit.ghost is not None:
        ok, reasons, ends = edit.ok, edit.reasons, edit.end_reasons
    else:
        return None
    st = app.state
    if not ok:
        return "not allowed: " + turn.named(st, "; ".join(reasons)), True
    if ends:
        return "may not end here: " + turn.named(st, "; ".join(ends)), True
    return 'legal, and the block would end more than 1" clear', False


def draw_block_hover(app: App, unit_id: str) -> pygame.Rect:
    try:
        unit = app.ctrl.state.unit(unit_id)
    except KeyError:
        return pygame.Rect(0, 0, 0, 0)
    if not isinstance(unit, Block):
        return pygame.Rect(0, 0, 0, 0)
    lines = [f"{unit.name or unit.id}  ({turn.player_name(app.state, unit.player)})",
             f"{unit.models} models, {unit.files} files x {unit.ranks} ranks, base "
             f"{unit.base.spec}",
             f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}"]
    bits = [m.text for m in markers(app.state, unit)]
    if bits:
        lines.append("state: " + ", ".join(bits))
    return app._card(lines)


def verdict_colour(ok: bool, end_reasons: list[str]) -> tuple[int, int, int]:
    """Ghost outline: white legal, orange may be staged but may not end there, magenta refused."""
    if not ok:
        return render.VIOLATION
    return blockpaint.END_WARN if end_reasons else (255, 255, 255)

"""The window: a pygame-ce loop of events -> controller -> rules -> render.

Layout: the board on the left (fitted to the window, zoom and pan), a side panel on the right
(turn, CP, the focused unit, its move types, dice, coherency, refusals, reserves), a status line
at the bottom. Every change to the game goes through the rules core as an action of
``spec/actions.md``; each one is appended to an action log beside the save, so a game can be
replayed with ``tabletop apply``.

Per frame only cached surfaces are blitted (board, models, zone) and the ghost, path and panel are
drawn; zones are computed when a model is picked up (see ``reference/geometry.md``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
from shapely.geometry import LineString

from tabletop.errors import UserError
from tabletop.files import atomic_write
from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState, Unit
from tabletop.view import render
from tabletop.view.blockdrag import BlockTool, handle_points, max_displacement, near_obstacles
from tabletop.view.bridge import Eligibility, Outcome, Rules
from tabletop.view.controller import Controller, Intent, ghost_models
from tabletop.view.viewport import Viewport

__all__ = ["PANEL_W", "App", "NoDisplay", "atomic_write_text", "play"]

PANEL_W = 330
STATUS_H = 26
PANEL_BG = (30, 32, 36)
PANEL_LINE = (58, 62, 68)
GREY = (120, 124, 130)
OK_GREEN = (120, 210, 120)
BAD_RED = (255, 110, 110)
ACCENT = (255, 226, 110)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)


@dataclass
class _Row:
    """A clickable row of the side panel."""

    rect: pygame.Rect
    kind: str
    value: str
    enabled: bool = True


class App:
    """The interactive window on one game.

    Parameters
    ----------
    state:
        The game to play.
    save_path:
        Where Ctrl+S writes the scenario; the action log is ``<save>.actions.json`` beside it and
        the state the log starts from ``<save>.start.toml``.
    size:
        Window size in pixels.
    saver:
        ``saver(state, path)`` writes a scenario file atomically (``tabletop.scenario.io``).
    """

    def __init__(self, state: GameState, *, save_path: Path, size: tuple[int, int] = (1280, 820),
                 saver: Callable[[GameState, Path], Any] | None = None,
                 rules: Rules | None = None) -> None:
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"tabletop — {state.name}")
        pygame.key.set_repeat(0)
        self.rules = rules or Rules()
        self.saver = saver
        self.save_path = Path(save_path)
        self.log_path = self.save_path.with_name(self.save_path.stem + ".actions.json")
        self.start_path = self.save_path.with_name(self.save_path.stem + ".start"
                                                   + (self.save_path.suffix or ".toml"))
        self.log: list[dict[str, Any]] = []
        self.start_state = state
        self.grid = False
        self.engagement = False
        self.help = False
        self.running = True
        self.message = "Click a model to pick its unit; N/A/F/S/I/D choose the move; H for help."
        self.refusal: Outcome | None = None
        self.refused_state: GameState | None = None
        """The state a refused commit was tried on: its failed models are outlined there."""
        self.block_marks: list[render.Mark] = []
        """What a refused t9a-2 commit drew: the block where it was, lines to what it was too
        close to."""
        self.last_events: list[dict[str, Any]] = []
        self.command_log: list[dict[str, Any]] = []
        self.rows: list[_Row] = []
        self._cache: dict[str, tuple[Any, Any]] = {}
        self._elig: tuple[Any, list[Eligibility]] | None = None
        self._coh: tuple[Any, list[Violation]] | None = None
        self.frame_times: list[float] = []
        self.game = state
        self.ctrl = Controller(self.rules.display(state), self._fit(),
                               zone_fn=self._zone_on_pickup, cap_fn=self.rules.cap,
                               blocks=self.rules)
        self.zone_seconds: list[float] = []

    # -- geometry of the window -----------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The game state (as saved; :attr:`Controller.state` is the board as drawn)."""
        return self.game

    def _set_state(self, state: GameState) -> None:
        self.game = state
        self.ctrl.state = self.rules.display(state)

    def board_rect(self) -> pygame.Rect:
        """The part of the window the board is drawn in."""
        w, h = self.screen.get_size()
        return pygame.Rect(0, 0, max(w - PANEL_W, 100), max(h - STATUS_H, 100))

    def _fit(self) -> Viewport:
        r = self.board_rect()
        bf = self.start_state.battlefield
        return Viewport.fit(bf.width, bf.depth, (r.x, r.y, r.w, r.h), margin=16)

    def _zone_on_pickup(self, state: GameState, model_id: str) -> Any:
        t0 = time.perf_counter()
        try:
            z = self.rules.zone(self.game, model_id)
        except UserError as exc:  # no zone for this model now: say why; the drop is still judged
            self.message = f"no legal zone for {model_id}: {exc}"
            z = None
        self.zone_seconds.append(time.perf_counter() - t0)
        return z

    # -- actions --------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> Outcome:
        """Apply one action through the rules core, log it, and show what happened."""
        before = self.state
        try:
            out = self.rules.apply(before, action)
        except UserError as exc:  # a malformed action (the controller built it badly): say so
            self.message = f"{action.get('do')}: {exc}"
            return Outcome(before, False, (str(exc),))
        self._log(action)
        self._set_state(out.state)
        if out.events:
            rolls = _with_results(out.events) or [
                e for e in out.events if e.get("kind") == "battle-shock"]
            self.last_events = rolls or self.last_events
            bs = [e for e in out.events if e.get("kind") in ("battle-shock", "cp")]
            if bs:
                self.command_log = (self.command_log + bs)[-12:]
        do = action.get("do")
        block = BlockTool.selected(before)
        if out.ok:
            self.refusal = None
            self.block_marks = []
            self.message = _describe(action, out)
        else:
            self.message = f"refused: {'; '.join(out.reasons) or do}"
            if block is not None:
                self.refusal = out
                self.refused_state = before
                self.block_marks = (self._block_refusal_marks(before, block)
                                    if do == "commit" else [])
            elif do == "commit":
                self.refusal = out
                self.refused_state = before
                sel = out.state.battle.selection
                if sel is not None and any(
                    self.state.model(mid)[1].at != at for mid, at, _ in sel.start
                    if _has_model(self.state, mid)
                ):
                    # the rules keep the unit selected: put its models back where they started
                    back = self.rules.apply(out.state, {"do": "reset"})
                    if back.ok:
                        self._log({"do": "reset"})
                        self._set_state(back.state)
            elif out.violations:
                self.refusal = out
        return out

    def _block_refusal_marks(self, state: GameState, block: Block) -> list[render.Mark]:
        """The block outlined where its move was refused, with a line to everything within 1"."""
        geom = self.rules.block_geom(block)
        marks = [render.Mark(outlines=(geom.polygon,))]
        for n in near_obstacles(geom.polygon, self.rules.block_obstacles(state, block.id)):
            marks.append(render.Mark(label=f'{n.distance:.2f}" ≤ 1"',
                                     geometry=LineString([n.a, n.b])))
        return marks

    def _log(self, action: dict[str, Any]) -> None:
        """Append ``action`` to the action log (rewritten atomically: always a valid file)."""
        try:
            if not self.log:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                if self.saver is not None:
                    self.saver(self.start_state, self.start_path)
            self.log.append(dict(action))
            atomic_write_text(self.log_path, json.dumps(self.log, indent=1) + "\n")
        except OSError as exc:
            self.message = f"could not write the action log {self.log_path}: {exc}"

    def save(self) -> Path:
        """Write the game as a scenario file (atomically) at :attr:`save_path`."""
        if self.saver is None:
            raise RuntimeError("no scenario writer")
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        self.saver(self.state, self.save_path)
        self.message = f"saved {self.save_path} (log: {self.log_path.name})"
        return self.save_path

    def screenshot(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save the window's current picture as a PNG."""
        target = Path(path) if path is not None else self.save_path.with_name(
            f"{self.save_path.stem}-screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png")
        render.save_png(self.screen, target)
        self.message = f"screenshot {target}"
        return target

    def do_intents(self, intents: list[Intent]) -> None:
        """Carry out what the controller asked for."""
        for it in intents:
            if it.kind == "actions":
                for act in it.data["actions"]:
                    out = self.apply(act)
                    if not out.ok and it.data.get("stop_on_refusal"):
                        break
            elif it.kind == "focus":
                self.refusal = None if self.refusal and self.ctrl.focus else self.refusal
                self.message = _unit_line(self.state, it.data["unit"])
            elif it.kind == "save":
                try:
                    self.save()
                except (OSError, ValueError) as exc:  # a full disk, a folder gone, ...
                    self.message = f"could not save: {exc}"
            elif it.kind == "screenshot":
                self.screenshot()
            elif it.kind == "quit":
                self.running = False
            elif it.kind == "toggle":
                what = it.data["what"]
                setattr(self, what, not getattr(self, what))

    # -- events ---------------------------------------------------------------------------
    def handle(self, e: pygame.event.Event) -> None:
        """Handle one pygame event."""
        c = self.ctrl
        if e.type == pygame.QUIT:
            self.running = False
        elif e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            c.viewport = self._fit()
        elif e.type == pygame.MOUSEBUTTONDOWN:
            if e.button in (4, 5):
                return
            if self.board_rect().collidepoint(e.pos) or c.drag is not None:
                down_mods = getattr(e, "mod", None)
                if down_mods is None:
                    down_mods = pygame.key.get_mods()
                shift = bool(down_mods & pygame.KMOD_SHIFT)
                self.do_intents(c.pointer_down(e.pos, e.button, shift=shift))
            elif e.button == 1:
                self._panel_click(e.pos)
        elif e.type == pygame.MOUSEMOTION:
            self.do_intents(c.pointer_move(e.pos))
        elif e.type == pygame.MOUSEBUTTONUP:
            if e.button in (4, 5):
                return
            self.do_intents(c.pointer_up(e.pos, e.button))
        elif e.type == pygame.MOUSEWHEEL:
            pos = self.ctrl.pointer  # where the last pointer event was
            if self.board_rect().collidepoint(pos):
                c.wheel(pos, e.y)
        elif e.type == pygame.KEYDOWN:
            mods = int(getattr(e, "mod", 0))
            name = pygame.key.name(e.key)
            self.do_intents(c.key(name, ctrl=bool(mods & pygame.KMOD_CTRL),
                                  shift=bool(mods & pygame.KMOD_SHIFT)))

    def _panel_click(self, pos: tuple[int, int]) -> None:
        for row in self.rows:
            if not row.rect.collidepoint(pos):
                continue
            if row.kind == "move" and self.ctrl.focus is not None:
                if not row.enabled:
                    self.message = f"not now: {row.value}"
                    return
                self.apply({"do": "select", "unit": self.ctrl.focus, "move": row.value})
            elif row.kind == "next":
                self.apply({"do": "next"})
            elif row.kind == "place":
                self.ctrl.begin_placement(row.value, pos)
            return

    def step(self) -> bool:
        """Handle pending events and draw one frame; ``False`` once the window should close."""
        for e in pygame.event.get():
            self.handle(e)
        t0 = time.perf_counter()
        self.draw()
        pygame.display.flip()
        self.frame_times.append(time.perf_counter() - t0)
        if len(self.frame_times) > 600:
            del self.frame_times[:300]
        return self.running

    def run(self) -> int:
        """The loop, until the window is closed."""
        clock = pygame.time.Clock()
        while self.step():
            clock.tick(60)
        pygame.display.quit()
        return 0

    # -- drawing --------------------------------------------------------------------------
    def _cached(self, name: str, key: Any, make: Callable[[], Any]) -> Any:
        hit = self._cache.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
        value = make()
        self._cache[name] = (key, value)
        return value

    def draw(self) -> None:
        """Draw one frame on the window."""
        screen = self.screen
        c = self.ctrl
        vp = c.viewport
        size = screen.get_size()
        board = self.board_rect()
        st = c.state
        drag = c.drag
        hidden = frozenset(mid for mid, s in drag.starts.items() if s is not None
                           ) if drag is not None else frozenset()
        marks = self._marks()
        outlined = frozenset(m for mark in marks if not mark.outlines for m in mark.models)
        focus = c.focus or c.selection_unit

        def make_static() -> pygame.Surface:
            s = pygame.Surface(size)
            render.draw_static(s, st, vp, grid=self.grid)
            return s

        static = self._cached("static", (vp, size, self.grid, id(st.terrain)),
                              lambda: make_static().convert())

        def make_models() -> pygame.Surface:
            s = static.copy()
            render.draw_models(s, st, vp, hidden=hidden, selected_unit=focus, outlined=outlined)
            return s

        layer = self._cached("models", (id(static), id(st), hidden, focus, outlined), make_models)
        screen.set_clip(board)
        screen.blit(layer, (0, 0))
        if self.engagement:
            enemy = self._enemy_of(focus)
            if enemy is not None:
                col = render._shade(render.player_colour(st, enemy), 1.4)
                eng, epos = self._cached("engagement", (vp, size, id(st), enemy), lambda: (
                    _cropped(render.zone_surface(render.engagement_geometry(st, enemy), vp, size,
                                                 fill=(*col, 36), edge=col))))
                screen.blit(eng, epos)
        if drag is not None:
            zone = drag.zones.get(drag.anchor)
            geom = getattr(zone, "geometry", None)
            if geom is not None:
                fill = render.SETUP_FILL if drag.placing else render.ZONE_FILL
                zs, zpos = self._cached("zone", (id(zone), vp, size),
                                        lambda: _cropped(render.zone_surface(geom, vp, size,
                                                                             fill=fill)))
                screen.blit(zs, zpos)
            for mid, start in drag.starts.items():
                if start is not None:
                    pts = render.base_outline_px(vp, drag.bases[mid], start, drag.facings[mid])
                    pygame.draw.aalines(screen, (230, 230, 230), True, pts)
        ov = render.Overlays(marks=marks)
        if drag is not None:
            pidx = self._player_index(c.state.model(drag.anchor)[0].player)
            ov.ghosts = [render.Ghost(base, at, facing, pidx, legal)
                         for _, base, at, facing, legal in ghost_models(drag)]
            if len(drag.path) >= 2:
                used = self.rules.used(st, drag.anchor)
                ov.path = render.PathOverlay(drag.path, used + drag.length, drag.cap)
        if c.ruler is not None:
            ov.ruler = (c.ruler.a, c.ruler.b, c.ruler.label)
        self._draw_block_tool(vp, size)
        render.draw_overlays(screen, st, vp, ov, zone=False)
        if c.hover and drag is None:
            self._draw_hover(c.hover)
        elif c.hover_block and drag is None and (c.blocks is None or c.blocks.drag is None):
            self._draw_block_hover(c.hover_block)
        screen.set_clip(None)
        self._blit_panel()
        self._draw_status()
        if self.help:
            self._draw_help()

    def _marks(self) -> list[render.Mark]:
        marks: list[render.Mark] = []
        if self.refusal is not None:
            where = self.refused_state
            for v in self.refusal.violations:
                label = ""
                if v.distance is not None:
                    lim = v.limit
                    label = f'{v.distance:.2f}"' + (f' (limit {lim:g}")' if lim is not None else "")
                models = v.models[:1]
                outlines = []
                if where is not None:
                    for mid in models:
                        if _has_model(where, mid) and where.model(mid)[1].at is not None:
                            outlines.append(where.model(mid)[1].footprint)
                marks.append(render.Mark(label=label, geometry=v.geometry, models=models,
                                         outlines=tuple(outlines)))
        if self.refusal is not None:
            marks += self.block_marks
        unit = self.ctrl.selection_unit
        if unit is not None and self.state.battle.selection is not None:
            for v in self._coherency(unit):
                label = f'{v.distance:.2f}"' if v.distance is not None else ""
                marks.append(render.Mark(label=label, geometry=v.geometry, models=v.models[:1]))
        return marks

    def _draw_block_tool(self, vp: Any, size: tuple[int, int]) -> None:
        """The selected block's handles, or the manoeuvre being dragged: the legal range
        shaded, the block at its ends dashed, the ghost, the path, the 1" rule, the figures."""
        bt = self.ctrl.blocks
        if bt is None:
            return
        st = self.ctrl.state
        block = bt.selected(st)
        if block is None:
            return
        screen = self.screen
        col = render.player_colour(st, block.player)
        d = bt.drag
        edit = bt.reform_edit(st)
        if d is not None and d.handle not in ("rotate", "files"):
            area_geom = d.range_area
            if area_geom is not None:
                area, apos = self._cached("block-range", (area_geom, vp, size), lambda: _cropped(
                    render.zone_surface(area_geom, vp, size, fill=render.ZONE_FILL,
                                        edge=None)))
                screen.blit(area, apos)
            for g in d.limit_ghosts:
                render.draw_block_limit(screen, vp, g)
            if d.arc:
                render.draw_polyline(screen, vp, d.arc)
            if d.action is not None and d.action["do"] == "wheel":
                pv = vp.to_px(*d.geom.wheel_pivot(float(d.action["angle"])))
                pygame.draw.circle(screen, (0, 0, 0), pv, 6)
                pygame.draw.circle(screen, (255, 255, 255), pv, 4)
            if d.ghost is not None and d.action is not None:
                render.draw_block_ghost(screen, vp, d.ghost, col,
                                        edge=_verdict_colour(d.ok, d.end_reasons))
                render.draw_near(screen, vp, d.near)
            over = d.cap is not None and d.displacement > d.cap + 1e-6
            self._block_label(vp, d.ghost or d.geom, d.label, d.clamped, bad=not d.ok or over)
            return
        geom = self.rules.block_geom(block)
        if edit is not None and edit.ghost is not None:
            render.draw_block_ghost(screen, vp, edit.ghost, col,
                                    edge=_verdict_colour(edit.ok, edit.end_reasons))
            render.draw_near(screen, vp, edit.near)
            self._block_label(vp, edit.ghost, edit.label, False, bad=not edit.ok)
            geom = edit.ghost
        render.draw_block_handles(screen, vp, geom, handle_points(geom, vp.scale),
                                  move=bt.can_move(st) and edit is None,
                                  reform=bt.can_reform(st), hover=bt.hover)

    def _block_label(self, vp: Any, geom: Any, label: str, clamped: bool, *,
                     bad: bool) -> None:
        """The live figures of a manoeuvre above its ghost (why it is not legal goes in the
        status line)."""
        if not label:
            return
        minx, miny, maxx, _ = geom.polygon.bounds
        x, y = vp.to_px((minx + maxx) / 2, miny)
        board = self.board_rect()
        text = label + ("  (limit)" if clamped else "")
        w = render.font(15, bold=True).size(text)[0]
        x = min(max(x, board.left + w / 2 + 6), board.right - w / 2 - 6)
        y = max(y - 18, 30.0)
        render.text(self.screen, text, (x, y), size=15, bold=True,
                    colour=(255, 120, 120) if bad else render.TEXT, anchor="midbottom",
                    box=(0, 0, 0, 200))

    def _block_live(self) -> tuple[str, bool] | None:
        """The status line while a block manoeuvre or reform is being built: its verdict."""
        bt = self.ctrl.blocks
        if bt is None:
            return None
        d = bt.drag
        edit = bt.reform_edit(self.ctrl.state)
        if d is not None and d.handle not in ("rotate", "files") and d.action is not None:
            ok, reasons, ends = d.ok, d.reasons, d.end_reasons
        elif edit is not None and edit.ghost is not None:
            ok, reasons, ends = edit.ok, edit.reasons, edit.end_reasons
        else:
            return None
        if not ok:
            return "not allowed: " + "; ".join(reasons), True
        if ends:
            return "may not end here: " + "; ".join(ends), True
        return 'legal, and the block would end more than 1" clear', False

    def _draw_block_hover(self, unit_id: str) -> None:
        try:
            unit = self.ctrl.state.unit(unit_id)
        except KeyError:
            return
        if not isinstance(unit, Block):
            return
        lines = [f"{unit.name or unit.id}  ({unit.player})",
                 f"{unit.models} models, {unit.files} files x {unit.ranks} ranks, base "
                 f"{unit.base.spec}",
                 f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}"]
        bits = (["fleeing"] if unit.fleeing else []) + list(unit.flags)
        if bits:
            lines.append("state: " + ", ".join(bits))
        self._card(lines)

    def _card(self, lines: list[str]) -> None:
        x, y = self.ctrl.pointer
        x, y = int(x) + 16, int(y) + 16
        f = render.font(12)
        w = max(f.size(s)[0] for s in lines) + 12
        h = len(lines) * 16 + 8
        br = self.board_rect()
        x = min(x, br.right - w - 4)
        y = min(y, br.bottom - h - 4)
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((14, 14, 18, 225))
        self.screen.blit(box, (x, y))
        for i, s in enumerate(lines):
            render.text(self.screen, s, (x + 6, y + 4 + 16 * i), size=12)

    def _coherency(self, unit_id: str) -> list[Violation]:
        key = (id(self.state), unit_id)
        if self._coh is None or self._coh[0] != key:
            self._coh = (key, self.rules.coherency(self.ctrl.state, unit_id))
        return self._coh[1]

    def _eligibility(self, unit_id: str) -> list[Eligibility]:
        key = (id(self.state), unit_id)
        if self._elig is None or self._elig[0] != key:
            self._elig = (key, self.rules.eligibility(self.state, unit_id))
        return self._elig[1]

    def _player_index(self, player: str) -> int:
        for i, p in enumerate(self.state.players):
            if p.id == player:
                return i
        return 0

    def _enemy_of(self, unit_id: str | None) -> str | None:
        if unit_id is not None:
            try:
                return self.state.opponent(self.state.unit(unit_id).player).id
            except KeyError:
                return None
        return self.state.opponent(self.state.battle.active_player).id

    def _draw_hover(self, model_id: str) -> None:
        try:
            unit, m = self.ctrl.state.model(model_id)
        except KeyError:
            return
        lines = [f"{unit.name or unit.id}  ({unit.player})", f"model {m.id}, base {m.base.spec}",
                 f"M {unit.move_of(m):g}\"  W {unit.wounds_of(m)}/{unit.W}  Ld {unit.Ld}+  "
                 f"OC {unit.OC}", ", ".join(unit.keywords)]
        state_bits = []
        if unit.battle_shocked:
            state_bits.append("battle-shocked")
        state_bits += list(unit.flags)
        if state_bits:
            lines.append("state: " + ", ".join(state_bits))
        self._card(lines)

    def _draw_status(self) -> None:
        w, h = self.screen.get_size()
        r = pygame.Rect(0, h - STATUS_H, w - PANEL_W, STATUS_H)
        pygame.draw.rect(self.screen, (22, 22, 26), r)
        colour = BAD_RED if self.message.startswith("refused") else render.TEXT
        msg = self.message
        live = self._block_live()
        if live is not None:
            msg, bad = live
            colour = BAD_RED if bad else OK_GREEN
        f = render.font(13)
        while msg and f.size(msg)[0] > r.w - 150:
            msg = msg[:-4] + "…"
        render.text(self.screen, msg, (8, r.y + 5), size=13, colour=colour)
        tools = []
        if self.ctrl.ruler_on:
            tools.append("RULER (M)")
        if self.grid:
            tools.append("grid")
        if self.engagement:
            tools.append("engagement")
        if tools:
            render.text(self.screen, "  ".join(tools), (r.right - 8, r.y + 5), size=13,
                        colour=ACCENT, anchor="topright")

    def _blit_panel(self) -> None:
        """Draw the side panel, redrawn only when what it shows changes."""
        w, h = self.screen.get_size()
        st = self.state
        key = (w, h, id(st), self.ctrl.focus, id(self.refusal), len(self.last_events),
               id(self.last_events[-1]) if self.last_events else 0, len(self.command_log))
        hit = self._cache.get("panel")
        if hit is not None and hit[0] == key:
            surf, rows = hit[1]
            self.screen.blit(surf, (w - PANEL_W, 0))
            self.rows = list(rows)
            return
        self._draw_panel()
        surf = self.screen.subsurface((w - PANEL_W, 0, PANEL_W, h)).copy()
        self._cache["panel"] = (key, (surf, list(self.rows)))

    def _draw_panel(self) -> None:
        w, h = self.screen.get_size()
        x0 = w - PANEL_W
        pygame.draw.rect(self.screen, PANEL_BG, (x0, 0, PANEL_W, h))
        pygame.draw.line(self.screen, PANEL_LINE, (x0, 0), (x0, h))
        st = self.state
        b = st.battle
        self.rows = []
        y = 10
        y = self._ptext(st.name, x0, y, size=15, bold=True)
        step = f", {b.step}" if b.step else ""
        y = self._wrapped(f"Round {b.round} · {b.phase}{step} · {b.active_player} to play", x0,
                          y, colour=(200, 200, 200), size=13)
        for i, p in enumerate(st.players):
            col = render._shade(render.PLAYER_COLOURS[i % 2], 1.5)
            render.text(self.screen, f"{p.name or p.id}: {p.cp} CP", (x0 + 12 + i * 150, y),
                        size=14, bold=True, colour=col)
        y += 24
        if b.phase == "command" or self.command_log:
            y = self._command_panel(x0, y)
        y = self._next_button(x0, y)
        self._rule(x0, y)
        y += 8
        focus = self.ctrl.focus or self.ctrl.selection_unit
        if focus is not None:
            y = self._unit_panel(x0, y, focus)
        else:
            y = self._ptext("Click a model to see its unit.", x0, y, colour=GREY)
        if self.last_events:
            self._rule(x0, y)
            y = self._dice_panel(x0, y + 8)
        if self.refusal is not None and self.refusal.reasons:
            self._rule(x0, y)
            y = self._ptext("Refused:", x0, y + 6, colour=BAD_RED, bold=True)
            for reason in self.refusal.reasons[:8]:
                y = self._wrapped(f"• {reason}", x0, y, colour=BAD_RED)
        render.text(self.screen, "H help · M ruler · G grid · E engagement · Ctrl+S save",
                    (x0 + 12, h - 22), size=11, colour=GREY)

    def _rule(self, x0: int, y: int) -> None:
        pygame.draw.line(self.screen, PANEL_LINE, (x0 + 8, y), (x0 + PANEL_W - 8, y))

    def _ptext(self, s: str, x0: int, y: int, *, size: int = 13, colour: Any = render.TEXT,
               bold: bool = False, indent: int = 12) -> int:
        r = render.text(self.screen, s, (x0 + indent, y), size=size, colour=colour, bold=bold)
        return r.bottom + 4

    def _wrapped(self, s: str, x0: int, y: int, *, colour: Any = render.TEXT,
                 size: int = 12) -> int:
        f = render.font(size)
        words = s.split()
        line = ""
        for word in words:
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] > PANEL_W - 30 and line:
                y = self._ptext(line, x0, y, size=size, colour=colour)
                line = "  " + word
            else:
                line = trial
        if line:
            y = self._ptext(line, x0, y, size=size, colour=colour)
        return y

    def _next_button(self, x0: int, y: int) -> int:
        r = pygame.Rect(x0 + 12, y, PANEL_W - 24, 26)
        pygame.draw.rect(self.screen, (54, 60, 70), r, border_radius=5)
        render.text(self.screen, "Next step  [Space]", r.center, size=13, bold=True,
                    anchor="center")
        self.rows.append(_Row(r, "next", "next"))
        return r.bottom + 8

    def _command_panel(self, x0: int, y: int) -> int:
        y = self._ptext("Command phase", x0, y, bold=True, colour=ACCENT)
        for e in self.command_log[-6:]:
            if e.get("kind") == "cp":
                y = self._ptext(f"{e.get('player')}: +{e.get('gained')} CP -> {e.get('cp')}",
                                x0, y, size=12)
            elif e.get("kind") == "battle-shock":
                dice = [int(d) for d in e.get("dice", [])]
                passed = bool(e.get("passed"))
                render.text(self.screen, f"{e.get('unit')} (Ld {e.get('Ld')}+)", (x0 + 12, y + 4),
                            size=12)
                xd = x0 + 170
                for d in dice:
                    draw_die(self.screen, (xd, y), 22, d)
                    xd += 26
                render.text(self.screen, "passed" if passed else "SHOCKED", (xd + 4, y + 4),
                            size=12, bold=True, colour=OK_GREEN if passed else BAD_RED)
                y += 28
        return y + 4

    def _unit_panel(self, x0: int, y: int, unit_id: str) -> int:
        st = self.state
        try:
            unit = st.unit(unit_id)
        except KeyError:
            return y
        col = render._shade(render.player_colour(st, unit.player), 1.5)
        y = self._ptext(unit.name or unit.id, x0, y, size=15, bold=True, colour=col)
        if isinstance(unit, Block):
            return self._block_panel(x0, y, unit)
        y = self._ptext(f"M {unit.M:g}\"  W {unit.W}  Ld {unit.Ld}+  OC {unit.OC} · "
                        f"{len(unit.models)} models", x0, y, size=12)
        y = self._wrapped(", ".join(unit.keywords) or "no keywords", x0, y, colour=GREY)
        if unit.battle_shocked:
            y = self._ptext("BATTLE-SHOCKED", x0, y, size=12, bold=True, colour=BAD_RED)
        flags = list(unit.flags)
        if unit.location != "battlefield":
            flags.append(unit.location + (f" in {unit.transport}" if unit.transport else ""))
        if flags:
            y = self._wrapped("state: " + ", ".join(flags), x0, y, size=12, colour=ACCENT)
        sel = st.battle.selection
        y += 4
        if sel is not None and sel.unit == unit.id:
            mode = f" ({sel.mode})" if sel.mode else ""
            y = self._ptext(f"Moving: {sel.move}{mode}", x0, y, bold=True, colour=ACCENT)
            if sel.roll is not None:
                render.text(self.screen, "roll", (x0 + 12, y + 4), size=12)
                draw_die(self.screen, (x0 + 50, y), 22, sel.roll)
                y += 28
            moved = sum(1 for a in sel.staged if a.get("do") in ("move", "place"))
            y = self._wrapped(f"{moved} staged · drag models, Enter commits, Ctrl+Z undo, "
                              "R reset", x0, y, size=11, colour=GREY)
            coh = self._coherency(unit.id)
            if coh:
                y = self._ptext("Coherency would fail:", x0, y, size=12, bold=True,
                                colour=BAD_RED)
                for v in coh[:5]:
                    y = self._wrapped(f"• {v.message}", x0, y, colour=BAD_RED, size=11)
            else:
                y = self._ptext("Coherency: ok", x0, y, size=12, colour=OK_GREEN)
            y = self._reserves(x0, y, unit, sel.move)
            return y
        return self._move_rows(x0, y, unit.id)

    def _move_rows(self, x0: int, y: int, unit_id: str) -> int:
        """The unit's move types with their keys, greyed with the reason when not eligible."""
        y = self._ptext("Move types:", x0, y, bold=True)
        for el in self._eligibility(unit_id):
            r = pygame.Rect(x0 + 8, y, PANEL_W - 16, 20)
            colour = render.TEXT if el.ok else GREY
            render.text(self.screen, f"[{el.key.upper()}] {el.title}", (x0 + 14, y + 2), size=13,
                        colour=colour, bold=el.ok)
            self.rows.append(_Row(r, "move", el.move, el.ok))
            y += 21
            if not el.ok and el.reason:
                y = self._wrapped(el.reason, x0 + 14, y, colour=GREY, size=11)
        return y

    def _block_panel(self, x0: int, y: int, unit: Block) -> int:
        """A t9a-2 block: profile and state; its moves, or the move being built."""
        y = self._ptext(f"{unit.models} models · {unit.files} files x {unit.ranks} ranks · "
                        f"{unit.base.spec}", x0, y, size=12)
        y = self._ptext(f"Adv {unit.Adv:g}\"  Mar {unit.Mar:g}\"  Dis {unit.Dis}", x0, y,
                        size=12)
        bits = (["FLEEING"] if unit.fleeing else []) + list(unit.flags)
        if bits:
            y = self._wrapped("state: " + ", ".join(bits), x0, y, size=12, colour=ACCENT)
        sel = self.state.battle.selection
        y += 4
        if sel is None or sel.unit != unit.id:
            return self._move_rows(x0, y, unit.id)
        mode = " — March Test failed: Advance Rate" if sel.mode == "march-test-failed" else ""
        y = self._wrapped(f"Moving: {sel.move}{mode}", x0, y, colour=ACCENT, size=13)
        for a in sel.staged:
            y = self._ptext("• " + _manoeuvre_text(a), x0, y, size=12)
        start = self.rules.block_start(self.state)
        if start is not None and sel.staged:
            last = str(sel.staged[-1].get("do"))
            kind = "forward" if last == "wheel" else last
            disp = max_displacement(start, self.rules.block_geom(unit))
            cap = self.rules.block_cap(self.state, kind)
            colour = BAD_RED if disp > cap + 1e-6 else render.TEXT
            y = self._ptext(f'models moved {disp:.2f}" / {cap:g}"', x0, y, size=12,
                            colour=colour)
            ends = self.rules.block_end_reasons(self.state)
            if ends:
                y = self._ptext("Cannot end here:", x0, y, size=12, bold=True, colour=BAD_RED)
                for r in ends[:4]:
                    y = self._wrapped(f"• {r}", x0, y, size=11, colour=BAD_RED)
            else:
                y = self._ptext('Ends more than 1" clear: ok', x0, y, size=12, colour=OK_GREEN)
        hints = []
        if sel.move != "reform":
            hints.append("Drag the front edge (or the body) to move, a front corner to wheel.")
        if self.ctrl.blocks is not None and self.ctrl.blocks.can_reform(self.state):
            hints.append("Reform: [ ] files, , . turn 15°, ← → turn 90°, or drag the handles; "
                         "Enter reforms.")
        hints.append("Enter commits · Ctrl+Z undo · R reset · Esc cancels")
        for h in hints:
            y = self._wrapped(h, x0, y, size=11, colour=GREY)
        return y

    def _reserves(self, x0: int, y: int, unit: Unit, move: str) -> int:
        shown = self.ctrl.state.unit(unit.id)  # placements staged so far are on the board
        waiting = [m for m in getattr(shown, "models", ()) if m.at is None]
        if move not in ("ingress", "disembark") or not waiting:
            return y
        where = "reserves" if move == "ingress" else f"transport {unit.transport or ''}"
        y = self._wrapped(f"Drag from {where} onto the shaded area:", x0, y + 4, size=12)
        for m in waiting[:14]:
            r = pygame.Rect(x0 + 12, y, PANEL_W - 24, 20)
            pygame.draw.rect(self.screen, (48, 52, 60), r, border_radius=4)
            render.text(self.screen, f"{m.id}  ({m.base.spec})", (r.x + 8, r.y + 2), size=12)
            self.rows.append(_Row(r, "place", m.id))
            y += 23
        return y

    def _dice_panel(self, x0: int, y: int) -> int:
        y = self._ptext("Dice", x0, y, bold=True)
        for e in self.last_events[-4:]:
            dice = [int(d) for d in e.get("dice", [])]
            what = e.get("what") or e.get("kind")
            render.text(self.screen, f"{what} {e.get('unit') or ''}", (x0 + 12, y + 4), size=12)
            xd = x0 + 170
            for d in dice[:5]:
                draw_die(self.screen, (xd, y), 22, d)
                xd += 26
            y += 28
            result = e.get("result")
            if result:
                passed = e.get("passed")
                colour = OK_GREEN if passed else BAD_RED if passed is False else render.TEXT
                y = self._ptext(str(result), x0, y - 2, size=11, bold=True, colour=colour,
                                indent=24)
        return y

    def _draw_help(self) -> None:
        lines = [
            "Click a model: show its unit.  N normal · A advance · F fall back (Shift+F desperate",
            "escape) · S remain stationary · I ingress · D disembark.",
            "Drag a model of the moving unit: the shaded area is where it may end; the ghost",
            "snaps to it. Shift-drag moves the whole unit. Esc cancels a drag.",
            "Enter commits the unit's move · Ctrl+Z undo · R reset · Space next step.",
            "t9a-2 blocks: A advance · Q march · F reform. Drag the front edge (or body) to move",
            "straight, a front corner to wheel about the other; reform with [ ] (files), , . and",
            "arrows (facing) or the handles, Enter reforms. The shaded area is the legal range.",
            "M ruler (drag between points or bases) · G grid · E engagement ranges.",
            "Wheel zooms about the cursor · right/middle drag pans · P screenshot · Ctrl+S save.",
        ]
        br = self.board_rect()
        w = max(render.font(13).size(s)[0] for s in lines) + 24
        h = len(lines) * 20 + 20
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((10, 10, 14, 235))
        x, y = br.centerx - w // 2, br.centery - h // 2
        self.screen.blit(box, (x, y))
        for i, s in enumerate(lines):
            render.text(self.screen, s, (x + 12, y + 10 + 20 * i), size=13)


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


class NoDisplay(RuntimeError):
    """No window could be opened (no display, or SDL refused)."""


def play(state: GameState, *, save_path: Path, size: tuple[int, int] = (1280, 820),
         saver: Callable[[GameState, Path], Any] | None = None) -> int:
    """Open the window on ``state`` and run it until it is closed (``tabletop play``).

    Raises
    ------
    NoDisplay
        When SDL cannot open a window.
    """
    try:
        pygame.display.init()
    except pygame.error as exc:
        raise NoDisplay(str(exc)) from None
    driver = pygame.display.get_driver()
    asked = os.environ.get("SDL_VIDEODRIVER") or os.environ.get("SDL_VIDEO_DRIVER")
    if driver in ("offscreen", "dummy") and not asked:
        # SDL fell back to drawing nowhere: say so rather than run an invisible window
        pygame.display.quit()
        raise NoDisplay(f"SDL found no usable display, only its {driver!r} driver")
    try:
        app = App(state, save_path=save_path, size=size, saver=saver)
    except pygame.error as exc:
        raise NoDisplay(str(exc)) from None
    return app.run()


def _cropped(surface: pygame.Surface) -> tuple[pygame.Surface, tuple[int, int]]:
    """The non-transparent part of ``surface`` and where it goes (a smaller, faster blit)."""
    rect = surface.get_bounding_rect()
    part = surface.subsurface(rect).copy()
    if pygame.display.get_surface() is not None:
        part = part.convert_alpha()
    return part, (rect.x, rect.y)


def _has_model(state: GameState, mid: str) -> bool:
    try:
        state.model(mid)
    except KeyError:
        return False
    return True


def _verdict_colour(ok: bool, end_reasons: list[str]) -> tuple[int, int, int]:
    """Ghost outline: white legal, orange may be staged but may not end there, magenta refused."""
    if not ok:
        return render.VIOLATION
    return render.END_WARN if end_reasons else (255, 255, 255)


def _manoeuvre_text(a: dict[str, Any]) -> str:
    """A staged t9a-2 manoeuvre in words."""
    do = a.get("do")
    if do == "wheel":
        return f"wheel {float(a['angle']):+.1f}°"
    if do == "reform":
        return f"reform to {a.get('files')} files, facing {float(a['facing']):.0f}°"
    if do == "sideways":
        d = float(a["distance"])
        return f'sideways {abs(d):.2f}" to the {"right" if d > 0 else "left"}'
    return f'{do} {float(a.get("distance", 0.0)):.2f}"'


_RESULT_KINDS = ("rally", "march-test", "flee", "dangerous-terrain")


def _with_results(events: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The dice rolled, each with the result it led to (``passed``, ``result`` in words)."""
    out = []
    for i, e in enumerate(events):
        if e.get("kind") != "roll":
            continue
        e = dict(e)
        what, unit = e.get("what"), e.get("unit")
        for r in events[i + 1:]:
            if r.get("kind") not in _RESULT_KINDS or r.get("unit") != unit:
                continue
            if r.get("kind") != what and not (what == "flee" and r.get("kind") == "flee"):
                continue
            if "passed" in r:
                e["passed"] = bool(r["passed"])
                need = r.get("Dis")
                total = sum(int(v) for v in r.get("dice", []))
                e["result"] = (f"{total} vs Dis {need}: " if need is not None else "") + (
                    "passed" if r["passed"] else "failed")
            elif r.get("kind") == "flee":
                ext = float(r.get("extended", 0.0))
                e["result"] = (f'fled {float(r.get("distance", 0.0)):.1f}"'
                               + (f' (extended {ext:.1f}")' if ext > 1e-9 else "")
                               + (f" away from {r['away_from']}" if r.get("away_from") else ""))
            elif r.get("kind") == "dangerous-terrain":
                e["result"] = f"{r.get('hits', 0)} hit(s) in {r.get('feature')}"
            break
        for r in events[i + 1:]:
            if r.get("kind") == "destroyed" and r.get("unit") == unit and what == "flee":
                e["result"] = f"{e.get('result', 'fled')}; destroyed: {r.get('reason')}"
                e["passed"] = False
        out.append(e)
    return out


def _unit_line(state: GameState, unit_id: str) -> str:
    u = state.unit(unit_id)
    sel = state.battle.selection
    if isinstance(u, Block):
        if sel is not None and sel.unit == unit_id:
            return (f"{u.name or u.id}: {sel.move}; drag the front edge to move, a front corner "
                    "to wheel; Enter commits.")
        return f"{u.name or u.id} ({u.player}): A advance, Q march, F reform (or click one)."
    if sel is not None and sel.unit == unit_id:
        return f"{u.name or u.id}: moving ({sel.move}); drag its models, Enter commits."
    return f"{u.name or u.id} ({u.player}): choose a move type (N/A/F/S/I/D) or click it."


def _describe(action: dict[str, Any], out: Outcome) -> str:
    do = action.get("do")
    if do == "select":
        rolls = [e for e in out.events if e.get("kind") == "roll"]
        extra = f" (rolled {rolls[0].get('dice')})" if rolls else ""
        if BlockTool.selected(out.state) is not None:
            tests = [e for e in _with_results(out.events) if e.get("result")]
            if tests:
                extra = f" (March Test {tests[0]['dice']}: {tests[0]['result']})"
            what = ("drag the handles or use [ ] , . to reform" if action.get("move") == "reform"
                    else "drag the front edge to move, a front corner to wheel")
            return f"{action.get('unit')}: {action.get('move')}{extra}; {what}."
        return f"{action.get('unit')}: {action.get('move')}{extra}; drag its models."
    if do == "move":
        return f"staged {action.get('model')}; drag again to continue, Enter commits."
    if do == "place":
        return f"placed {action.get('model')}."
    if do in ("forward", "backward", "sideways", "wheel", "reform"):
        return f"staged {_manoeuvre_text(action)}; drag again or Enter commits."
    if do == "commit":
        return "move committed."
    if do == "next":
        b = out.state.battle
        told = "; ".join(f"{e.get('what')} {e.get('unit')}: {e['result']}"
                         for e in _with_results(out.events) if e.get("result"))
        return (f"now: round {b.round}, {b.phase}{', ' + b.step if b.step else ''}."
                + (f" {told}" if told else ""))
    return f"{do}: done."


"""Threat ranges and safe ground on the board: the window's T and O keys and the pictures of
``tabletop threat`` and ``tabletop safe`` (the same drawing).

A threat is drawn as rings, one per charge roll: the ring of roll ``X`` is where a model standing
alone is first charged on ``X`` (its chance ``P(2D6 >= X)`` in the legend, likelier rings
stronger), over the enemy unit's move zone. Safe ground is the unit's zones, green where no
counted enemy charges at the chosen odds and red where one does. The Charge phase is not
simulated; the legend says so and where the rules applied are written (the docs' rulings).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.rules.threat import MAX_ROLL, MIN_ROLL, Odds, SafeGround, Threat, at_least
from tabletop.state import GameState
from tabletop.view import render
from tabletop.view.viewport import Viewport

__all__ = [
    "NOT_SIMULATED",
    "SAFE_EDGE",
    "SAFE_FILL",
    "Layer",
    "Shade",
    "band_colour",
    "draw_legend",
    "legend_corner",
    "legend_lines_threat",
    "legend_size",
    "rings",
    "safe_lines",
    "safe_png",
    "safe_shades",
    "threat_png",
    "threat_shades",
]

NOT_SIMULATED = "Charge phase not simulated: its rules as applied are in the docs' rulings"
"""Said wherever charge bands are drawn."""
SAFE_FILL: render.RGBA = (70, 200, 110, 110)
SAFE_EDGE: render.Colour = (90, 230, 130)
THREATENED_FILL: render.RGBA = (230, 70, 60, 70)
MOVE_FILL: render.RGBA = (255, 255, 255, 22)
MOVE_EDGE: render.Colour = (235, 235, 235)
OUTLINE_MARGIN = 4.0
"""Safe ground outlines each counted enemy's band only this near the zones, inches."""
OUTLINE_WIDTH = 0.06
"""Width of those outlines, inches."""
OBJECTIVE_RING = 3.0 + 20 / 25.4
"""The ring drawn about a chosen objective: 3" from its 40 mm marker, inches."""
OBJECTIVE_EDGE: render.Colour = (232, 196, 72)


@dataclass(frozen=True)
class Shade:
    """One region to shade: its fill and outline (``None``: none)."""

    geometry: BaseGeometry
    fill: render.RGBA
    edge: render.Colour | None = None


def band_colour(roll: int) -> render.RGBA:
    """The fill of the ring of ``roll``: from pale yellow (a 12, 3%) to red (a 3, 97%), the
    likelier the stronger."""
    t = float(at_least(roll))
    lo, hi = (255, 214, 90), (224, 36, 30)
    c = tuple(round(a + (b - a) * t) for a, b in zip(lo, hi, strict=True))
    return (c[0], c[1], c[2], round(45 + 100 * t))


_RINGS: dict[int, tuple[Threat, int, list[tuple[int, BaseGeometry]]]] = {}


def rings(threat: Threat, max_roll: int = MAX_ROLL) -> list[tuple[int, BaseGeometry]]:
    """``(roll, ring)`` from the least roll up: where a model alone is first charged on that
    roll (its band less the band of the roll before). Kept for the last threats drawn."""
    got = _RINGS.get(id(threat))
    if got is not None and got[0] is threat and got[1] == max_roll:
        return got[2]
    out = []
    before: BaseGeometry = Polygon()
    for b in threat.bands:
        if b.roll > max_roll:
            break
        g = b.charge
        if g.is_empty:
            continue
        ring = g.difference(before) if not before.is_empty else g
        if not ring.is_empty:
            out.append((b.roll, ring))
        before = g
    _RINGS[id(threat)] = (threat, max_roll, out)
    while len(_RINGS) > 8:
        del _RINGS[next(iter(_RINGS))]
    return out


def threat_shades(threat: Threat, max_roll: int = MAX_ROLL) -> list[Shade]:
    """What a threat draws, bottom first: its move zone, then its rings (least likely first)."""
    out = [Shade(threat.move_zone, MOVE_FILL, MOVE_EDGE)]
    for roll, ring in reversed(rings(threat, max_roll)):
        c = band_colour(roll)
        out.append(Shade(ring, c, None))
    return out


def safe_shades(safe: SafeGround, state: GameState) -> list[Shade]:
    """What safe ground draws: the zones red where charged, green where safe, the outline of
    each counted enemy's band at the odds near them, and the objective's range if one is
    chosen."""
    zone = shapely.union_all([m.zone for m in safe.models if not m.zone.is_empty])
    out = [Shade(zone, THREATENED_FILL, None), Shade(safe.safe, SAFE_FILL, SAFE_EDGE)]
    x0, y0, x1, y1 = zone.bounds if not zone.is_empty else (0.0, 0.0, 0.0, 0.0)
    near = (x0 - OUTLINE_MARGIN, y0 - OUTLINE_MARGIN, x1 + OUTLINE_MARGIN, y1 + OUTLINE_MARGIN)
    for th in safe.threats if not zone.is_empty else ():
        b = th.band(safe.odds.worst)
        if b is not None and not b.charge.is_empty:
            # its outline near the zones, as a thin stroke (a clipped polygon would show the
            # clipping box)
            edge = shapely.clip_by_rect(b.charge.boundary, *near)
            if not edge.is_empty:
                out.append(Shade(edge.buffer(OUTLINE_WIDTH / 2, quad_segs=2),
                                 (230, 80, 60, 190), None))
    if safe.objective is not None and safe.objective <= len(state.objectives):
        x, y = state.objectives[safe.objective - 1]
        reach = OBJECTIVE_RING + OUTLINE_WIDTH / 2
        ring = shapely.Point(float(x), float(y)).buffer(reach, quad_segs=32).difference(
            shapely.Point(float(x), float(y)).buffer(reach - OUTLINE_WIDTH, quad_segs=32))
        out.append(Shade(ring, (*OBJECTIVE_EDGE, 230), None))
    return out


def legend_lines_threat(state: GameState, threat: Threat, max_roll: int) -> list[str]:
    """The legend of a threat, one line each."""
    name = _label(state, threat.unit)
    if not threat.charges:
        return [f"{name}: {threat.move} zone only", threat.reason]
    return [f"{name}: charge after a {threat.move} move", NOT_SIMULATED]


def _label(state: GameState, unit_id: str) -> str:
    try:
        u = state.unit(unit_id)
    except KeyError:
        return unit_id
    return f"{getattr(u, 'name', None) or u.id}"


def draw_legend(surface: pygame.Surface, pos: tuple[int, int], lines: Sequence[str],
                rolls: Sequence[int] = ()) -> pygame.Rect:
    """A legend box at ``pos`` (top left): ``lines`` of text, then a swatch per roll with its
    chance."""
    pad = 6
    sw = 40
    box = pygame.Rect(pos, legend_size(lines, rolls))
    back = pygame.Surface(box.size, pygame.SRCALPHA)
    back.fill((16, 16, 20, 215))
    surface.blit(back, box.topleft)
    y = box.y + pad
    for s in lines:
        render.text(surface, s, (box.x + pad, y), size=13)
        y += 17
    x = box.x + pad
    for roll in rolls:
        c = band_colour(roll)
        sq = pygame.Rect(x, y + 2, sw - 4, 12)
        tile = pygame.Surface(sq.size, pygame.SRCALPHA)
        tile.fill((*c[:3], min(255, c[3] + 60)))
        surface.blit(tile, sq.topleft)
        render.text(surface, f"{roll}+" if roll < MAX_ROLL else "12", (x, y + 15), size=12)
        render.text(surface, f"{float(at_least(roll)) * 100:.0f}%", (x, y + 29), size=11,
                    colour=(190, 190, 190))
        x += sw
    return box


def legend_size(lines: Sequence[str], rolls: Sequence[int] = ()) -> tuple[int, int]:
    """The size of :func:`draw_legend`'s box."""
    f = render.font(13)
    w = max([f.size(s)[0] for s in lines] + [len(rolls) * 40]) + 12
    return w, 12 + 17 * len(lines) + (44 if rolls else 0)


def legend_corner(state: GameState, vp: Viewport, board: pygame.Rect, lines: Sequence[str],
                  rolls: Sequence[int] = (), shaded: BaseGeometry | None = None
                  ) -> tuple[int, int]:
    """Where the legend goes: the corner of ``board`` (the board on screen) whose box hides the
    fewest models and the least of ``shaded`` (what is drawn that matters: safe ground)."""
    w, h = legend_size(lines, rolls)
    pts = [vp.to_px(m.at[0], m.at[1]) for _, m in state.placed_models() if m.at is not None]
    best: tuple[float, tuple[int, int]] | None = None
    for x, y in ((board.x + 8, board.y + 8), (board.right - w - 8, board.y + 8),
                 (board.x + 8, board.bottom - h - 8), (board.right - w - 8, board.bottom - h - 8)):
        box = pygame.Rect(x, y, w, h)
        score = float(sum(1 for p in pts if box.collidepoint(p)))
        if shaded is not None and not shaded.is_empty:
            x0, y0 = vp.to_inches(box.left, box.top)
            x1, y1 = vp.to_inches(box.right, box.bottom)
            score += shapely.clip_by_rect(shaded, min(x0, x1), min(y0, y1), max(x0, x1),
                                          max(y0, y1)).area
        if best is None or score < best[0]:
            best = (score, (x, y))
    assert best is not None
    return best[1]


def _paint(surface: pygame.Surface, vp: Viewport, shades: Sequence[Shade]) -> None:
    for s in shades:
        if s.geometry.is_empty:
            continue
        surface.blit(render.zone_surface(s.geometry, vp, surface.get_size(), fill=s.fill,
                                         edge=s.edge), (0, 0))


def _picture(state: GameState, shades: Sequence[Shade], out: str | os.PathLike[str],
             caption: str, lines: Sequence[str], rolls: Sequence[int], scale: float,
             outlined: str | None = None) -> tuple[str, tuple[int, int]]:
    bf = state.battlefield
    margin, top = 20, 28
    legend_h = 17 * len(lines) + (44 if rolls else 0) + 20
    size = (round(bf.width * scale + 2 * margin),
            round(bf.depth * scale + 2 * margin + top + legend_h))
    vp = Viewport(scale=scale, ox=margin, oy=margin + top)
    surf = render.render_board(state, size=size, viewport=vp, caption=caption,
                               overlays=render.Overlays(selected_unit=outlined))
    # the shading goes under the models: the board again, shaded, then the models
    board = pygame.Surface(size)
    render.draw_static(board, state, vp)
    _paint(board, vp, shades)
    render.draw_models(board, state, vp, selected_unit=outlined)
    area = pygame.Rect(0, top, size[0], round(bf.depth * scale + 2 * margin))
    surf.blit(board, area.topleft, area)
    draw_legend(surf, (margin, area.bottom + 2), lines, rolls)
    written = render.save_png(surf, out)
    return str(written), size


def threat_png(state: GameState, threat: Threat, out: str | os.PathLike[str], *,
               max_roll: int = MAX_ROLL, scale: float = 20.0) -> tuple[str, tuple[int, int]]:
    """The whole board with ``threat`` drawn under the models and its legend below; the path
    written and the picture's size."""
    rolls = [r for r, _ in rings(threat, max_roll)] if threat.charges else []
    return _picture(state, threat_shades(threat, max_roll), out,
                    f"threat of {threat.unit}", legend_lines_threat(state, threat, max_roll),
                    rolls, scale, outlined=threat.unit)


def safe_lines(state: GameState, safe: SafeGround) -> list[str]:
    """The legend of safe ground, one line each."""
    obj = f", within range of objective {safe.objective}" if safe.objective else ""
    lines = [f"{_label(state, safe.unit)}, {safe.move} move: green is {safe.odds.text()}{obj}",
             f"counted: {', '.join(safe.counted) or 'no enemy unit'}"]
    if safe.skipped:
        lines.append("not counted: " + "; ".join(f"{u} ({w})" for u, w in safe.skipped))
    lines.append(NOT_SIMULATED)
    return lines


def safe_png(state: GameState, safe: SafeGround, out: str | os.PathLike[str], *,
             scale: float = 20.0) -> tuple[str, tuple[int, int]]:
    """The whole board with ``safe`` drawn under the models and its legend below."""
    shades = safe_shades(safe, state)
    width = round(state.battlefield.width * scale)
    lines = [w for s in safe_lines(state, safe) for w in render.wrap_text(s, width)]
    return _picture(state, shades, out, f"safe ground of {safe.unit}", lines, [], scale,
                    outlined=safe.unit)


@dataclass
class Layer:
    """What the window shows of threats: the threat of one unit (T), safe ground of one unit
    (O) at odds the player chooses (- and =), optionally near one objective (Shift+O)."""

    threat_unit: str | None = None
    safe_unit: str | None = None
    odds: Odds = field(default_factory=lambda: Odds(MAX_ROLL + 1))
    objective: int | None = None
    threat: Threat | None = None
    safe: SafeGround | None = None
    threat_state: GameState | None = field(default=None, repr=False)
    """The board :attr:`threat` is for."""
    safe_state: GameState | None = field(default=None, repr=False)
    """The board :attr:`safe` is for."""
    warmed: tuple[str, GameState] | None = field(default=None, repr=False)
    """The unit whose threat was last computed ahead, and on which board."""

    def shades(self, state: GameState) -> list[Shade]:
        """What to shade, bottom first."""
        out: list[Shade] = []
        if self.threat is not None:
            out += threat_shades(self.threat)
        if self.safe is not None:
            out += safe_shades(self.safe, state)
        return out

    def shaded(self) -> BaseGeometry | None:
        """What the legend should not hide: the safe ground's zones."""
        if self.safe is None:
            return None
        parts = [m.zone for m in self.safe.models if not m.zone.is_empty]
        return shapely.union_all(parts) if parts else None

    def legend(self, state: GameState) -> tuple[list[str], list[int]]:
        """The legend's lines and the rolls of its swatches (the first line says when what is
        drawn is for the board before the last move, until the idle window has drawn it again)."""
        lines: list[str] = []
        rolls: list[int] = []
        if (self.threat is not None and self.threat_state is not state) or \
                (self.safe is not None and self.safe_state is not state):
            lines.append("updating for the board as it stands...")
        if self.threat is not None:
            lines += legend_lines_threat(state, self.threat, MAX_ROLL)
            rolls = [r for r, _ in rings(self.threat)] if self.threat.charges else []
        if self.safe is not None:
            lines += [s for s in safe_lines(state, self.safe) if s != NOT_SIMULATED]
            if NOT_SIMULATED not in lines:
                lines.append(NOT_SIMULATED)
            lines.append("- / = change the odds · Shift+O: near an objective · O hides")
        return lines, rolls

    def change_odds(self, step: int) -> Odds:
        """One roll stricter (``step`` 1: safe from one roll more) or laxer (-1)."""
        need = min(max(self.odds.need + step, MIN_ROLL + 1), MAX_ROLL + 1)
        self.odds = Odds(need)
        return self.odds

    def next_objective(self, count: int) -> int | None:
        """The next objective filter: none, then 1 to ``count``, then none again."""
        if count <= 0:
            self.objective = None
        elif self.objective is None:
            self.objective = 1
        else:
            self.objective = self.objective + 1 if self.objective < count else None
        return self.objective

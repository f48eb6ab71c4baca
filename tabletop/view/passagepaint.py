"""Drawing the passages ``tabletop fit`` finds between terrain pieces: which a base passes,
which are too narrow, with their widths.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tabletop.geometry.footprints import Footprint
from tabletop.geometry.passages import Passage
from tabletop.state import GameState
from tabletop.view.labels import Placed, place_labels
from tabletop.view.render import (
    VIOLATION,
    Colour,
    Overlays,
    base_outline_px,
    fill_polygon_alpha,
    font,
    leader,
    model_boxes,
    outline,
    render_board,
    text,
)
from tabletop.view.viewport import Viewport

__all__ = [
    "PASSES",
    "passage_labels",
    "render_passages",
]

PASSES = (90, 230, 120)


def render_passages(state: GameState, base: Footprint, found: Sequence[Passage]
                    ) -> pygame.Surface:
    """The board with each passage of ``found``: its neck in green when ``base`` gets through
    (the base drawn there at its roomiest facing), in magenta when not, labelled with the width
    and the answer."""
    bf = state.battlefield
    size = (round(bf.width * 20 + 40), round(bf.depth * 20 + 68))
    vp = Viewport.fit(bf.width, bf.depth, (0, 28, size[0], size[1] - 28), margin=20)
    labels = passage_labels(state, vp, found)  # placed first: the unit labels keep off them
    taken = [pl.box for _, _, pl in labels]
    for p in found:
        if p.passes:
            x0, y0, x1, y1 = base.placed(*p.middle, p.facing).bounds
            (px0, py0), (px1, py1) = vp.to_px(x0, y0), vp.to_px(x1, y1)
            taken.append((px0, py0, px1 - px0, py1 - py0))
    surf = render_board(state, size=size, viewport=vp, overlays=Overlays(taken_labels=taken))
    for p in found:
        col = PASSES if p.passes else VIOLATION
        if p.passes:
            pts = base_outline_px(vp, base, p.middle, p.facing)
            fill_polygon_alpha(surf, pts, (*col, 90))
            outline(surf, pts, col, 2)
        a, b = vp.to_px(*p.neck[0]), vp.to_px(*p.neck[1])
        pygame.draw.line(surf, (0, 0, 0), a, b, 5)
        pygame.draw.line(surf, col, a, b, 3)
    for s, col, pl in labels:
        x, y, w, h = pl.box
        if pl.leader:
            leader(surf, pl)
        text(surf, s, (x + w / 2, y + h - 1), size=12, bold=True, colour=col,
             anchor="midbottom", box=(0, 0, 0, 200))
    return surf


def passage_labels(state: GameState, vp: Viewport, found: Sequence[Passage]
                   ) -> list[tuple[str, Colour, Placed]]:
    """The label of each passage (its width and the answer), placed off each other and off the
    models, inside the board, a leader line to its neck when moved off its first place."""
    bf = state.battlefield
    labels = [(f'{p.width:.2f}" ok at {p.facing:.0f}°' if p.passes else
               f'{p.width:.2f}" < {p.needs:.2f}"' if p.facings is None else
               f'{p.width:.2f}" shut by {p.blocked_by}', PASSES if p.passes else VIOLATION,
               vp.to_px(*p.middle)) for p in found]
    f = font(12, bold=True)
    sizes = [(f.size(s)[0] + 8, f.get_height() + 2) for s, _, _ in labels]
    (bx0, by0), (bx1, by1) = vp.to_px(0, 0), vp.to_px(bf.width, bf.depth)
    places = place_labels([(a, wh) for (_, _, a), wh in zip(labels, sizes, strict=True)],
                          (bx0, by0, bx1 - bx0, by1 - by0), model_boxes(state, vp))
    return [(s, col, pl) for (s, col, _), pl in zip(labels, places, strict=True)]

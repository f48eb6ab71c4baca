"""The labels of a refusal on the board: one per offending pair, in the player's words, placed off
the moving unit's models and off each other (:mod:`tabletop.view.labels`), many of one kind
collapsed into one summary that the window expands while the pointer is over it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tabletop.rules.violation import Violation
from tabletop.state import GameState
from tabletop.view import render
from tabletop.view.labels import Collapsed, LabelItem, Placed, collapse, place_labels
from tabletop.view.viewport import Viewport

__all__ = ["MarkLabels", "draw_placed", "expanded", "layout_marks", "leader", "mark_of",
           "violation_label"]

Box = tuple[float, float, float, float]

_TOO_CLOSE = ("engaged", "setup-enemy", "ingress-enemy", "near", "clear")
"""Rules whose distance must be more than their limit (the rest: at most their limit)."""


def violation_label(v: Violation) -> str:
    """A violation's distance as its label says it: ``1.91" (must be over 2")``, ``9.40"
    (coherency: within 9")``, ``0.12" off the battlefield``, ``overlaps`` (never a limit of
    0")."""
    if v.distance is None:
        return ""
    d = f'{v.distance:.2f}"'
    if v.rule.startswith(("off-battlefield", "leaves-battlefield", "edge")):
        return f"{d} off the battlefield"
    if v.rule.startswith("overlap") and v.distance <= 0:
        return "overlaps"
    if v.limit is None or v.limit == 0:
        return d
    if v.rule.startswith("coherency"):
        return f'{d} (coherency: within {v.limit:g}")'
    if v.rule.startswith(_TOO_CLOSE):
        return f'{d} (must be over {v.limit:g}")'
    return f'{d} (limit {v.limit:g}")'


def mark_of(v: Violation) -> render.Mark:
    """What the board draws for a violation: its geometry, its first model, its label."""
    return render.Mark(label=violation_label(v), geometry=v.geometry, models=v.models[:1],
                       pair=v.models[:2], kind=v.rule, value=v.distance, limit=v.limit)


@dataclass(frozen=True)
class MarkLabels:
    """The marks' labels as placed: each label with its place, and each summary (labels of one
    kind collapsed) with the screen box it was drawn in."""

    placed: tuple[tuple[str, Placed], ...]
    summaries: tuple[tuple[pygame.Rect, Collapsed], ...]


def _items(state: GameState, vp: Viewport, marks: Sequence[render.Mark]) -> list[LabelItem]:
    """One label per offending pair (the same pair said once), at the mark's anchor."""
    out = []
    seen: set[tuple[str, frozenset[str]]] = set()
    for m in marks:
        if not m.label:
            continue
        pair = (m.label, frozenset(m.pair))
        if m.pair and pair in seen:
            continue
        seen.add(pair)
        at = render.mark_anchor(state, m)
        if at is not None:
            out.append(LabelItem(m.label, vp.to_px(*at), m.kind, m.value, m.limit))
    return out


def layout_marks(state: GameState, vp: Viewport, marks: Sequence[render.Mark], bounds: Box,
                 avoid: Sequence[Box], soft: Sequence[Box] = ()) -> MarkLabels:
    """Place the marks' labels inside ``bounds``, off ``avoid`` (the moving unit's models) and
    off each other, preferring to stay off ``soft`` (the other models); many of one kind as one
    summary."""
    shown, collapsed = collapse(_items(state, vp, marks))
    places = place_labels([(it.anchor, render.label_size(it.text)) for it in shown], bounds,
                          avoid, soft=soft)
    by_text = {c.summary.text: c for c in collapsed}
    summaries = []
    for it, p in zip(shown, places, strict=True):
        if it.text in by_text:
            x, y, w, h = p.box
            summaries.append((pygame.Rect(round(x), round(y), round(w), round(h)),
                              by_text[it.text]))
    return MarkLabels(tuple((it.text, p) for it, p in zip(shown, places, strict=True)),
                      tuple(summaries))


def leader(surface: pygame.Surface, p: Placed,
           colour: render.Colour = render.MARK_LABEL_COLOUR) -> pygame.Rect:
    """A line from a label's anchor to the nearest point of its box; the rect touched."""
    x, y, w, h = p.box
    ax, ay = p.anchor
    near = (min(max(ax, x), x + w), min(max(ay, y), y + h))
    r = pygame.draw.line(surface, (0, 0, 0), p.anchor, near, 3)
    pygame.draw.line(surface, colour, p.anchor, near, 1)
    return r


def draw_placed(surface: pygame.Surface, labels: Sequence[tuple[str, Placed]]) -> pygame.Rect:
    """Draw labels at their places, a leader line to each one moved off its first place; the
    rect touched."""
    rects = []
    for s, p in labels:
        x, y, w, h = p.box
        if p.leader:
            rects.append(leader(surface, p))
        rects.append(render.draw_label(surface, s, (x + w / 2, y + h - 1)))
    return render.union_rects(rects)


def expanded(c: Collapsed, bounds: Box, avoid: Sequence[Box]) -> list[tuple[str, Placed]]:
    """The labels a summary stands for, placed (shown while the pointer is over it)."""
    places = place_labels([(it.anchor, render.label_size(it.text)) for it in c.items], bounds,
                          avoid)
    return [(it.text, p) for it, p in zip(c.items, places, strict=True)]

"""Placing labels on the board so that they never hide what matters (pure arithmetic, no pygame).

Every label the board shows goes through :func:`place_labels`: the distances of a refusal, the
unit labels, the readouts of a move being built, the labels of ``tabletop fit``'s picture. Labels
are placed in order of importance, each at the first candidate place around its anchor (nearest
first, starting just above it) that overlaps no label placed before it, nothing it must avoid
(the models of the moving unit, the handles of a block) and stays inside the board; when no place
is free, the place overlapping least (boxes to avoid weigh by how much they matter). A label moved
off its first place gets a leader line to its anchor.

Many labels of one kind (eleven distances of the same rule around one unit) would pile up where
the player must look: :func:`collapse` turns them into one summary ("11 pairs within 2": closest
1.91""), which the window expands on hover.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["COLLAPSE_AT", "Collapsed", "LabelItem", "Placed", "boxes_overlap", "collapse",
           "place_labels"]

Box = tuple[float, float, float, float]
"""``(x, y, w, h)`` in pixels."""

RINGS = (14.0, 34.0, 58.0, 86.0, 120.0, 160.0)
"""Distances (pixels) from the anchor at which places are tried, nearest first."""

DIRECTIONS = 12
"""Places tried per ring, evenly around the anchor, starting straight above it."""

OUTSIDE = 1e9
"""The score of a place not wholly inside the bounds: only taken when nothing else is."""

COLLAPSE_AT = 4
"""This many labels of one kind, or more, collapse into one summary."""


@dataclass(frozen=True)
class Placed:
    """Where a label goes: its box, and whether it needs a leader line to its anchor."""

    box: Box
    anchor: tuple[float, float]
    leader: bool


def _offsets(w: float, h: float) -> np.ndarray:
    """Candidate boxes' top-left corners relative to the anchor, nearest first: centred just
    above it, then around it on rings (the box's nearest point to the anchor on the ring)."""
    out = [(-w / 2, -RINGS[0] - h)]
    for r in RINGS:
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            sx, cy = math.sin(a), math.cos(a)
            out.append((r * sx - w / 2 + sx * w / 2, -r * cy - h / 2 - cy * h / 2))
    return np.asarray(out)


def _overlaps(cands: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Overlap areas, candidates (C, 4) by boxes (K, 4) as ``x, y, w, h``."""
    if len(boxes) == 0:
        return np.zeros((len(cands), 0))
    x0 = np.maximum(cands[:, None, 0], boxes[None, :, 0])
    x1 = np.minimum(cands[:, None, 0] + cands[:, None, 2], boxes[None, :, 0] + boxes[None, :, 2])
    y0 = np.maximum(cands[:, None, 1], boxes[None, :, 1])
    y1 = np.minimum(cands[:, None, 1] + cands[:, None, 3], boxes[None, :, 1] + boxes[None, :, 3])
    return np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not)."""
    return bool(_overlaps(np.asarray([a], dtype=float), np.asarray([b], dtype=float))[0, 0] > 0)


def place_labels(items: Sequence[tuple[tuple[float, float], tuple[float, float]]],
                 bounds: Box, avoid: Sequence[Box] | None = None, *,
                 soft: Sequence[Box] = (), soft_weight: float = 0.25,
                 taken: Sequence[Box] = ()) -> list[Placed]:
    """Places for labels given as ``(anchor, (width, height))``, in order of importance.

    Each label takes the first candidate place that overlaps no label placed before it (nor
    one of ``taken``, placed earlier by someone else), no box of ``avoid`` nor of ``soft`` and
    lies inside ``bounds``; when none does, the place scoring least (overlap areas, ``soft``
    ones weighed by ``soft_weight``; a place outside the bounds only when all are). The first
    candidate is centred just above the anchor; any other gets a leader line.
    """
    hard = [*taken, *(avoid or [])]
    placed: list[Box] = []
    soft_arr = np.asarray(list(soft), dtype=float).reshape(-1, 4)
    bx0, by0, bw, bh = bounds
    out: list[Placed] = []
    for anchor, (w, h) in items:
        cands = np.empty((DIRECTIONS * len(RINGS) + 1, 4))
        cands[:, :2] = _offsets(w, h) + np.asarray(anchor)
        cands[:, 2], cands[:, 3] = w, h
        hard_arr = np.asarray([*hard, *placed], dtype=float).reshape(-1, 4)
        score = _overlaps(cands, hard_arr).sum(axis=1)
        if len(soft_arr):
            score = score + soft_weight * _overlaps(cands, soft_arr).sum(axis=1)
        inside = ((cands[:, 0] >= bx0) & (cands[:, 1] >= by0) & (cands[:, 0] + w <= bx0 + bw)
                  & (cands[:, 1] + h <= by0 + bh))
        score = np.where(inside, score, score + OUTSIDE)
        free = np.flatnonzero(score == 0.0)
        i = int(free[0]) if len(free) else int(np.argmin(score))
        box = (float(cands[i, 0]), float(cands[i, 1]), float(w), float(h))
        placed.append(box)
        out.append(Placed(box, (float(anchor[0]), float(anchor[1])), leader=i != 0))
    return out


@dataclass(frozen=True)
class LabelItem:
    """A label to place: its text, where it points (pixels), its kind (labels of one kind may
    collapse), and the distance and limit it reports, if any."""

    text: str
    anchor: tuple[float, float]
    kind: str = ""
    value: float | None = None
    limit: float | None = None


@dataclass(frozen=True)
class Collapsed:
    """Labels of one kind shown as one summary; :attr:`items` are shown when it is hovered."""

    summary: LabelItem
    items: tuple[LabelItem, ...] = field(default_factory=tuple)


def _summary(kind: str, items: Sequence[LabelItem]) -> LabelItem:
    """One label saying what ``items`` (of one kind) say: how many, and the worst of them."""
    n = len(items)
    values = [i for i in items if i.value is not None]
    limit = next((i.limit for i in items if i.limit is not None), None)
    if values and limit is not None:
        if kind.startswith("coherency"):  # too far apart: the farthest matters
            worst = max(values, key=lambda i: i.value or 0.0)
            text = f'{n} pairs over {limit:g}": farthest {worst.value:.2f}"'
        else:  # too close: the closest matters
            worst = min(values, key=lambda i: i.value or 0.0)
            text = f'{n} pairs within {limit:g}": closest {worst.value:.2f}"'
        anchor = worst.anchor
    else:
        text = f"{n} x {items[0].text}" if len({i.text for i in items}) == 1 else \
            f"{n} {kind.replace('-', ' ')} problems"
        xs = [i.anchor[0] for i in items]
        ys = [i.anchor[1] for i in items]
        anchor = (sum(xs) / n, min(ys))
    return LabelItem(text + " (hover: all)", anchor, kind)


def collapse(items: Sequence[LabelItem], at_most: int = COLLAPSE_AT - 1
             ) -> tuple[list[LabelItem], list[Collapsed]]:
    """The labels to place, with those of a kind that has more than ``at_most`` turned into one
    summary each; and each summary with the labels it stands for (in the order given)."""
    by: dict[str, list[LabelItem]] = {}
    for it in items:
        by.setdefault(it.kind, []).append(it)
    out: list[LabelItem] = []
    summaries: list[Collapsed] = []
    done: set[str] = set()
    for it in items:
        group = by[it.kind]
        if not it.kind or len(group) <= at_most:
            out.append(it)
        elif it.kind not in done:
            done.add(it.kind)
            s = _summary(it.kind, group)
            out.append(s)
            summaries.append(Collapsed(s, tuple(group)))
    return out, summaries

"""Placing labels on the board without overlap (pure arithmetic, no pygame).

Refusals write a label per offending pair (a distance, a rule); several pairs often share a spot
(a model out of coherency with three others), so labels are placed greedily: each one takes the
first place around its anchor, nearest first, that overlaps no label placed before it and stays
inside the board; a label moved away from its first place gets a leader line to its anchor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Placed", "place_labels"]

Box = tuple[float, float, float, float]
"""``(x, y, w, h)`` in pixels."""

RINGS = (14.0, 34.0, 58.0, 86.0, 120.0)
"""Distances (pixels) from the anchor at which places are tried, nearest first."""

DIRECTIONS = 12
"""Places tried per ring, evenly around the anchor, starting straight above it."""


@dataclass(frozen=True)
class Placed:
    """Where a label goes: its box, and whether it needs a leader line to its anchor."""

    box: Box
    anchor: tuple[float, float]
    leader: bool


def _overlap(a: Box, b: Box) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _inside(a: Box, bounds: Box) -> bool:
    return (a[0] >= bounds[0] and a[1] >= bounds[1] and a[0] + a[2] <= bounds[0] + bounds[2]
            and a[1] + a[3] <= bounds[1] + bounds[3])


def _candidates(anchor: tuple[float, float], size: tuple[float, float]) -> list[Box]:
    ax, ay = anchor
    w, h = size
    out: list[Box] = [(ax - w / 2, ay - RINGS[0] - h, w, h)]  # centred above: the first choice
    for r in RINGS:
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            cx, cy = ax + r * math.sin(a), ay - r * math.cos(a)
            # the box's nearest point to the anchor sits on the ring
            out.append((cx - w / 2 + math.sin(a) * w / 2, cy - h / 2 - math.cos(a) * h / 2, w, h))
    return out


def place_labels(items: list[tuple[tuple[float, float], tuple[float, float]]],
                 bounds: Box, avoid: list[Box] | None = None) -> list[Placed]:
    """Places for labels given as ``(anchor, (width, height))``, in order of importance.

    Each label takes the first candidate place that overlaps neither a label placed before it
    nor a box of ``avoid`` and lies inside ``bounds``; when none does, the place overlapping
    least. The first candidate is centred just above the anchor; any other gets a leader line.
    """
    taken: list[Box] = list(avoid or [])
    out: list[Placed] = []
    for anchor, size in items:
        cands = _candidates(anchor, size)
        best: tuple[float, int] | None = None
        for i, c in enumerate(cands):
            score = sum(_overlap(c, t) for t in taken) + (0.0 if _inside(c, bounds) else 1e9)
            if score == 0.0:
                best = (0.0, i)
                break
            if best is None or score < best[0]:
                best = (score, i)
        assert best is not None
        box = cands[best[1]]
        taken.append(box)
        out.append(Placed(box, anchor, leader=best[1] != 0))
    return out

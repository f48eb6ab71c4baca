"""Table set-up measurements: how far each terrain piece stands from the battlefield's edges.

Judges set a table up with a tape from the edges. A layout of the community data names, per
piece, the points to measure (*keystones*: a vertex of the placed outline, or one of its
axis-aligned faces) and the edge to measure each from; :func:`keystone_marks` turns them into
distances with the importer's own
:func:`tabletop.importers.kdc_layouts.keystone_measurements` (for the older files) or
``wh40kdc``'s (:func:`dataset_marks`, the current layouts). A
scenario file (a draft) has no keystones: :func:`edge_marks` measures each piece from the two
edges nearest it instead (its nearest vertex to the nearer of left and right, and to the nearer
of top and bottom), and says so.

A *mark* is a plain dict: ``piece`` (terrain id), ``name`` (the piece's name, when the data has
one), ``edge`` (``left``, ``right``, ``top``, ``bottom``), ``distance`` (inches, from that edge)
and ``at`` (the measured point on the board, ``[x, y]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.importers import kdc_layouts
from tabletop.state import GameState

__all__ = ["EDGE_ORDER", "dataset_marks", "edge_marks", "keystone_marks", "mark_text"]

EDGE_ORDER = ("left", "right", "top", "bottom")
DECIMALS = 2
"""Inches on the card: a tape is read to the nearest 1/16" at best."""


def keystone_marks(layout: Mapping[str, Any], templates: Any, *,
                   board: tuple[float, float] = (60.0, 44.0),
                   where: str = "layout") -> list[dict[str, Any]]:
    """The set-up marks of a 40kdc layout's keystones (none: the layout gives none)."""
    resolved = {r.piece_index: r for r in kdc_layouts.resolve_layout(layout, templates, where=where)
                if not r.composed}
    out = []
    for m in kdc_layouts.keystone_measurements(layout, templates, board, where=where):
        r = resolved[m["piece_index"]]
        ref = m["ref"]
        axis = 0 if m["edge"] in ("left", "right") else 1
        if ref.get("kind") == "vertex":
            x, y = r.vertices[int(ref["index"])]
        else:
            pick = min if str(ref.get("side", "")).startswith("min") else max
            x, y = pick(r.vertices, key=lambda v: v[axis])
        out.append(_mark(str(r.id or f"piece-{r.piece_index + 1}"), r.name, m["edge"],
                         float(m["distance"]), (x, y)))
    return out


def dataset_marks(layout_id: str) -> list[dict[str, Any]]:
    """The set-up marks of a layout of the current community data (``wh40kdc``: its own
    resolver and keystone measurements, on the layout's own board size)."""
    from tabletop.importers import dataset

    wh = dataset.require()
    record = dataset.by_id("terrain_layouts")[layout_id]
    templates = dataset.raw()["terrain_templates"]
    size = record.get("board")
    measured = (wh.keystone_measurements(record, templates, size) if size
                else wh.keystone_measurements(record, templates))
    placed = {str(r["id"]): r for r in wh.resolve_layout(record, templates)}
    out = []
    for m in measured:
        r = placed[str(m["piece_id"])]
        pts = [(float(v["x"]), float(v["y"])) for v in r["vertices"]]
        ref = m["ref"]
        axis = 0 if m["edge"] in ("left", "right") else 1
        if ref.get("kind") == "vertex":
            at = pts[int(ref["index"])]
        else:
            pick = min if str(ref.get("side", "")).startswith("min") else max
            at = pick(pts, key=lambda v: v[axis])
        out.append(_mark(str(m["piece_id"]), r.get("name"), str(m["edge"]),
                         float(m["distance"]), at))
    return out


def edge_marks(state: GameState, *, kinds: Sequence[str] | None = None
               ) -> list[dict[str, Any]]:
    """Two marks per terrain piece (of ``kinds``, default all): its vertex nearest the nearer
    side edge, measured from it, and its vertex nearest the nearer end edge."""
    width, depth = state.battlefield.width, state.battlefield.depth
    out = []
    for t in state.terrain:
        if kinds is not None and t.kind not in kinds:
            continue
        pts = [(float(x), float(y)) for x, y in t.polygon]
        left = min(pts, key=lambda p: p[0])
        right = max(pts, key=lambda p: p[0])
        top = min(pts, key=lambda p: p[1])
        bottom = max(pts, key=lambda p: p[1])
        if left[0] <= width - right[0]:
            out.append(_mark(t.id, None, "left", left[0], left))
        else:
            out.append(_mark(t.id, None, "right", width - right[0], right))
        if top[1] <= depth - bottom[1]:
            out.append(_mark(t.id, None, "top", top[1], top))
        else:
            out.append(_mark(t.id, None, "bottom", depth - bottom[1], bottom))
    return out


def _mark(piece: str, name: str | None, edge: str, distance: float,
          at: tuple[float, float]) -> dict[str, Any]:
    return {"piece": piece, "name": name, "edge": edge, "distance": round(distance, 6),
            "at": [round(at[0], 6), round(at[1], 6)]}


def mark_text(marks: Sequence[Mapping[str, Any]], *, short: bool = False) -> str:
    """One piece's marks as a card prints them (``short``: edges by their initial).

    >>> marks = [{"edge": "top", "distance": 6.5}, {"edge": "left", "distance": 4.25}]
    >>> mark_text(marks), mark_text(marks, short=True)
    ('left 4.25", top 6.50"', 'L 4.25 T 6.50')
    """
    ordered = sorted(marks, key=lambda m: (EDGE_ORDER.index(m["edge"]), m["distance"]))
    if short:
        return " ".join(f'{m["edge"][0].upper()} {m["distance"]:.{DECIMALS}f}' for m in ordered)
    return ", ".join(f'{m["edge"]} {m["distance"]:.{DECIMALS}f}"' for m in ordered)

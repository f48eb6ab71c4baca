"""Two drafts of a layout, or two layouts, compared for movement (#29 item 3).

``tabletop survey diff A B`` surveys both boards (gap-fit for every base of the catalogue,
reach and advance odds for a few) and says what changed for movement, from A to B:

- **gaps**: which gaps closed for which bases (A let them through, B does not), which opened,
  which became marginal or stopped being so (clearance under the margin,
  :data:`~tabletop.survey.compare.GAP_MARGIN`). A gap of A is the same gap in B when it lies
  between the same two pieces (or a piece and the same edge; the nearest such neck when there
  are several), else when its neck's middle is within :data:`MATCH` of one of B's. A gap
  with no partner is compared with what the other board has between the same two pieces: no
  passage at all where they touch, a wide one where they stand apart (or when a piece is not
  there);
- **phases**: for each side, base and M, the Movement phases to the centre and to each
  objective that changed;
- **advance odds**: the least roll that reaches the centre or an objective, where it changed;
- and, for the record, the terrain pieces added, removed or moved (by id), which change
  nothing by themselves: "no movement difference" is said when none of the above changed.

Bases with the same changes are named together. :func:`diff_boards` is pure; the picture is
:func:`diff_svg`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.passages import EDGES
from tabletop.survey import report_svg as svg
from tabletop.survey.compare import GAP_MARGIN, Board, Gap, collapse, phase_text
from tabletop.survey.report_boards import again, objectives, terrain, zones

__all__ = ["MATCH", "MOVED", "Diff", "GapChange", "diff_boards", "diff_svg"]

MATCH = 1.5
"""Inches within which the necks' middles of two gaps between other pieces make them one gap."""
MOVED = 1e-3
"""Inches a piece's outline must change by (Hausdorff distance) to count as moved."""

CLOSED, OPENED, MARGINAL, CLEAR = "closed", "opened", "now marginal", "no longer marginal"
COLOURS = {CLOSED: "#c0392b", OPENED: "#1e8449", MARGINAL: "#d68910", CLEAR: "#2874a6"}


@dataclass
class GapChange:
    """One gap whose answer changed for some bases."""

    a: str
    b: str
    before: float | None
    """Its width on board A (``None``: no passage there: the pieces touch; ``inf``: wide or
    a piece missing)."""
    after: float | None
    neck: tuple[tuple[float, float], tuple[float, float]]
    """Where it is drawn (B's neck, else A's)."""
    changes: dict[str, list[str]] = field(default_factory=dict)
    """By kind (closed, opened, now marginal, no longer marginal): the bases."""


@dataclass
class Diff:
    """What changed for movement from board A to board B."""

    a: str
    b: str
    gaps: list[GapChange]
    phases: list[str]
    odds: list[str]
    terrain: dict[str, list[str]]
    """``added``, ``removed``, ``moved``: piece ids."""
    notes: list[str]

    @property
    def empty(self) -> bool:
        """No movement difference (the terrain may still differ)."""
        return not (self.gaps or self.phases or self.odds)

    def lines(self) -> list[str]:
        """The difference as text, one finding a line."""
        out = [f"{self.a} -> {self.b}"]
        moved = ", ".join(f"{k} {', '.join(v)}" for k, v in self.terrain.items() if v)
        if self.empty:
            out.append("no movement difference" + (f" (terrain {moved})" if moved else ""))
            return out + [f"  note: {n}" for n in self.notes]
        if moved:
            out.append(f"terrain: {moved}")
        for n, g in enumerate(self.gaps, 1):
            out.append(f"gap {n}: {g.a} - {g.b} ({_width(g.before)} -> {_width(g.after)}): "
                       + "; ".join(f"{kind} for {', '.join(bases)}"
                                   for kind, bases in g.changes.items()))
        out += self.phases + self.odds
        return out + [f"  note: {n}" for n in self.notes]


def _width(w: float | None) -> str:
    if w is None:
        return "no passage"
    return "wide" if math.isinf(w) else f'{w:.2f}"'


# ---------------------------------------------------------------------------------------------
# gaps


def _status(g: Gap, base: str, margin: float) -> str:
    x = g.by_base.get(base)
    if x is None or x.over:
        return "over"
    if not x.passes:
        return "stop"
    return "marginal" if x.marginal(margin) else "pass"


def _kind(before: str, after: str) -> str | None:
    if "over" in (before, after) or before == after:
        return None
    if after == "stop":
        return CLOSED
    if before == "stop":
        return OPENED
    return MARGINAL if after == "marginal" else CLEAR


def _middle(g: Gap) -> tuple[float, float]:
    return g.middle


def _pair(g: Gap) -> tuple[str, str]:
    return (g.a, g.b)


def _match(ga: Sequence[Gap], gb: Sequence[Gap]) -> tuple[list[tuple[Gap, Gap]], list[Gap],
                                                          list[Gap]]:
    """Gaps of A and B paired: by the same two pieces (nearest necks first), then by necks
    within :data:`MATCH`; and those of A and of B left without a partner."""
    pairs: list[tuple[Gap, Gap]] = []
    left_a, left_b = list(ga), list(gb)

    def take(close: list[tuple[float, Gap, Gap]]) -> None:
        for _, x, y in sorted(close, key=lambda t: t[0]):
            if x in left_a and y in left_b:
                pairs.append((x, y))
                left_a.remove(x)
                left_b.remove(y)

    def dist(x: Gap, y: Gap) -> float:
        return math.dist(_middle(x), _middle(y))

    take([(dist(x, y), x, y) for x in left_a for y in left_b if _pair(x) == _pair(y)])
    take([(dist(x, y), x, y) for x in left_a for y in left_b if dist(x, y) <= MATCH])
    return pairs, left_a, left_b


def _shapes(board: Board) -> dict[str, BaseGeometry]:
    return {p.id: p.wkt for p in board.info.terrain}


def _edge(name: str, board: Board) -> BaseGeometry:
    w, h = board.info.width, board.info.height
    ends = {EDGES[0]: ((0, 0), (w, 0)), EDGES[1]: ((w, 0), (w, h)),
            EDGES[2]: ((0, h), (w, h)), EDGES[3]: ((0, 0), (0, h))}[name]
    return LineString(ends)


def _width_between(board: Board, a: str, b: str) -> float | None:
    """The gap between pieces ``a`` and ``b`` on ``board`` where it lists no passage: ``None``
    when they touch, infinite when they stand apart or one is missing."""
    shapes = _shapes(board)
    ga = shapes.get(a) if a not in EDGES else _edge(a, board)
    gb = shapes.get(b) if b not in EDGES else _edge(b, board)
    if ga is None or gb is None:
        return math.inf
    return None if float(ga.distance(gb)) <= 0.0 else math.inf


def _gap_changes(a: Board, b: Board, margin: float) -> list[GapChange]:
    bases = [n for n in a.gap_bases if n in b.gap_bases]
    pairs, only_a, only_b = _match(a.gaps, b.gaps)
    out: list[GapChange] = []

    def fixed(width: float | None) -> str:
        return "stop" if width is None else "pass"

    for ga, gb in pairs:
        change = GapChange(gb.a, gb.b, ga.width, gb.width, gb.neck)
        for base in bases:
            kind = _kind(_status(ga, base, margin), _status(gb, base, margin))
            if kind:
                change.changes.setdefault(kind, []).append(base)
        out.append(change)
    for ga in only_a:
        after = _width_between(b, ga.a, ga.b)
        change = GapChange(ga.a, ga.b, ga.width, after, ga.neck)
        for base in bases:
            kind = _kind(_status(ga, base, margin), fixed(after))
            if kind:
                change.changes.setdefault(kind, []).append(base)
        out.append(change)
    for gb in only_b:
        before = _width_between(a, gb.a, gb.b)
        change = GapChange(gb.a, gb.b, before, gb.width, gb.neck)
        for base in bases:
            kind = _kind(fixed(before), _status(gb, base, margin))
            if kind:
                change.changes.setdefault(kind, []).append(base)
        out.append(change)
    kept = [c for c in out if c.changes]
    for c in kept:
        c.changes = {k: c.changes[k] for k in COLOURS if k in c.changes}
    return sorted(kept, key=lambda c: (min((w for w in (c.before, c.after)
                                            if w is not None), default=0.0), c.a, c.b))


# ---------------------------------------------------------------------------------------------
# phases and odds


def _targets(n: int) -> list[str]:
    return ["the centre"] + [f"objective {i}" for i in range(1, n + 1)]


def _phase_changes(a: Board, b: Board) -> list[str]:
    common = [n for n in a.reach_bases() if n in b.reach_bases()]
    sides = [s for s in a.sides if s in b.sides]
    keyed: list[tuple[str, tuple[tuple[str, str, str, str, str], ...]]] = []
    for base in common:
        found = []
        for s in sides:
            for m in [m for m in a.ms(base) if m in b.ms(base)]:
                va, vb = a.targets(s, base, m), b.targets(s, base, m)
                names = _targets(max(len(va), len(vb)) - 1)
                for i, name in enumerate(names):
                    x = va[i] if i < len(va) else None
                    y = vb[i] if i < len(vb) else None
                    if x != y:
                        found.append((s, m, name, phase_text(x), phase_text(y)))
        keyed.append((base, tuple(found)))
    return [f"{s}, {', '.join(bases)}, M={m}: {target} {was} -> {now} phases"
            for bases, changes in collapse(keyed) for s, m, target, was, now in changes]


def _odds_changes(a: Board, b: Board) -> list[str]:
    keyed = []
    for (s, base), oa in a.odds.items():
        ob = b.odds.get((s, base))
        if ob is None or oa.objectives is None or ob.objectives is None:
            continue
        va, vb = [oa.centre, *oa.objectives], [ob.centre, *ob.objectives]
        targets = _targets(max(len(va), len(vb)) - 1)
        found = []
        for i, name in enumerate(targets):
            x = va[i] if i < len(va) else None
            y = vb[i] if i < len(vb) else None
            if x != y:
                found.append((s, f"{oa.M:g}", name, _chance(x), _chance(y)))
        keyed.append((base, tuple(found)))
    return [f"{s}, {', '.join(bases)}, one advance (M={m}): {target} {was} -> {now}"
            for bases, changes in collapse(keyed) for s, m, target, was, now in changes]


def _chance(roll: int | None) -> str:
    return "0%" if roll is None else f"{(7 - roll) / 6:.0%}"


# ---------------------------------------------------------------------------------------------
# terrain


def _terrain(a: Board, b: Board) -> dict[str, list[str]]:
    sa, sb = _shapes(a), _shapes(b)
    moved = [i for i in sa if i in sb and (sa[i].geom_type != sb[i].geom_type or
                                           shapely.hausdorff_distance(sa[i], sb[i]) > MOVED)]
    return {"added": [i for i in sb if i not in sa], "removed": [i for i in sa if i not in sb],
            "moved": moved}


def diff_boards(a: Board, b: Board, *, margin: float = GAP_MARGIN,
                names: tuple[str, str] | None = None) -> Diff:
    """What changed for movement from ``a`` to ``b`` (module docstring)."""
    notes = []
    if list(a.info.objectives) != list(b.info.objectives):
        notes.append("the objectives are not where they were: objective N of A is compared "
                     "with objective N of B")
    if a.sides != b.sides:
        notes.append(f"the sides differ ({', '.join(a.sides)} / {', '.join(b.sides)}): only "
                     "those of both are compared")
    missing = [n for n in a.reach_bases() if n not in b.reach_bases()] + \
        [n for n in b.reach_bases() if n not in a.reach_bases()]
    if missing:
        notes.append(f"phases of {', '.join(dict.fromkeys(missing))} are on one board only")
    missing = [n for n in a.gap_bases if n not in b.gap_bases] + \
        [n for n in b.gap_bases if n not in a.gap_bases]
    if missing:
        notes.append(f"gaps of {', '.join(dict.fromkeys(missing))} are on one board only")
    na, nb = names or (a.info.layout, b.info.layout)
    return Diff(na, nb, _gap_changes(a, b, margin), _phase_changes(a, b), _odds_changes(a, b),
                _terrain(a, b), notes)


def diff_svg(a: Board, b: Board, diff: Diff) -> str:
    """Board B with what changed drawn on it: A's outline of every piece removed or moved
    (dashed, red), B's of every piece added or moved (green), and every changed gap numbered
    as in :meth:`Diff.lines`, in the colour of its first change."""
    info = b.info
    body = [*zones(info, b.sides), terrain(info, "diff"), again("diff")]
    sa, sb = _shapes(a), _shapes(b)
    for pid in diff.terrain["removed"] + diff.terrain["moved"]:
        body.append(svg.shape(sa[pid], title=f"{pid} on A", fill="none", stroke="#c0392b",
                              stroke_width=0.12, stroke_dasharray="0.4 0.25"))
    for pid in diff.terrain["added"] + diff.terrain["moved"]:
        body.append(svg.shape(sb[pid], title=f"{pid} on B", fill="none", stroke="#1e8449",
                              stroke_width=0.12))
    body += objectives(info, 3.0)
    for n, g in enumerate(diff.gaps, 1):
        kind = next(iter(g.changes))
        body.append(svg.line(*g.neck, "nk", stroke=COLOURS[kind],
                             title=f"gap {n}: " + "; ".join(f"{k} for {', '.join(v)}"
                                                            for k, v in g.changes.items())))
        (ax, ay), (bx, by) = g.neck
        body.append(svg.text(((ax + bx) / 2, (ay + by) / 2 - 1.0), str(n)))
    return svg.board_svg(info.width, info.height, body, label=f"{diff.a} -> {diff.b}")

"""What a survey's results say, compared: gaps by base, ties, balance, identical bases (#29).

Pure (no files, no markup): the report, the cards and ``tabletop survey diff`` draw from these.

Gaps
    A board's gaps are the passages any base of the catalogue lists (``gap-fit``); a base that
    does not list a gap gets through it with more than 1" to spare (a base lists every passage
    narrower than its circumscribed diameter plus 1"). A pass is **marginal** when its
    clearance at the roomiest facing (``spare``) is under the margin, :data:`GAP_MARGIN` by
    default: the base gets through on the table only if it is steered exactly, and a model
    pushed by a finger may not. A gap is drawn in the colour of the **largest** base that gets
    through it (bases in the catalogue's order: least width, then greatest width).

Ties
    Two sides **tie** on a board for a base and M when they need the same number of Movement
    phases summed over the objectives (:data:`PHASE_TIE`: phases are whole numbers, so equal)
    and the ground each reaches in its first phase differs by no more than
    :data:`GROUND_TIE` of the two sides' mean (the reach measure's own error is well under
    that: it misses at most 0.1" of each move's front). What lies beyond the tolerance orders
    the balance; what lies within it is a tie and is shown as one, never as a lead.

Identical bases
    Bases whose rows would be identical (the same gaps stopped, the same phases for every side
    and M) are collapsed into one row that lists them: on the 40kdc layouts every infantry base
    crosses all terrain, and 25 mm to 50 mm give one row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tabletop.geometry.passages import EDGES
from tabletop.survey.measures import PHASE_CAP
from tabletop.survey.report_data import (
    AdvanceOdds,
    Base,
    BoardInfo,
    GapFit,
    Job,
    Reach,
    Survey,
    counted,
    of_measure,
)

__all__ = [
    "GAP_MARGIN",
    "GROUND_TIE",
    "NECK_MATCH",
    "PHASE_TIE",
    "BaseGap",
    "Board",
    "Gap",
    "Lean",
    "Verdict",
    "base_order",
    "boards_of",
    "collapse",
    "gaps_of",
    "lean_of",
    "leans_of",
    "ordered",
    "phase_text",
    "sides_of",
    "verdict",
]

GAP_MARGIN = 0.25
"""Inches of clearance under which a pass is marginal (``--margin``)."""
PHASE_TIE = 0
"""Phases (summed over the objectives) within which two sides tie: none, phases are whole."""
GROUND_TIE = 0.02
"""The share of the sides' mean ground after one phase within which they tie (2 %)."""
NECK_MATCH = 0.01
"""Necks of two bases' passages closer than this (inches, each end) are the same gap."""

K = TypeVar("K", bound=Hashable)


def collapse(items: Iterable[tuple[str, K]]) -> list[tuple[list[str], K]]:
    """Names with equal keys in one group, groups in the order of their first name.

    >>> collapse([("25mm", 0), ("32mm", 0), ("60mm", 2), ("40mm", 0)])
    [(['25mm', '32mm', '40mm'], 0), (['60mm'], 2)]
    """
    groups: dict[K, list[str]] = {}
    for name, key in items:
        groups.setdefault(key, []).append(name)
    return [(names, key) for key, names in groups.items()]


def phase_text(p: int | None) -> str:
    """Phases as a table shows them (out of reach within the cap: ``>12``)."""
    return f">{PHASE_CAP}" if p is None else str(p)


# ---------------------------------------------------------------------------------------------
# gaps


@dataclass(frozen=True)
class BaseGap:
    """How one base goes through one gap."""

    base: str
    passes: bool
    spare: float | None
    """Clearance at the roomiest facing; ``None``: the base does not list the gap (it passes
    with more than 1" to spare) or the result predates clearances."""
    facing: float | None = None
    """The roomiest facing (``None`` for a round base)."""
    facings: tuple[float, float] | None = None
    """The facings at which it fits across the neck (``None``: round, or not listed)."""
    shut_by: str | None = None
    over: bool = False
    """The base is not stopped by a piece beside the gap (infantry and dense terrain): it
    goes over the piece, not through the gap."""

    @property
    def through(self) -> bool:
        """It goes through the gap itself."""
        return self.passes and not self.over

    def marginal(self, margin: float = GAP_MARGIN) -> bool:
        """A pass with less than ``margin`` to spare."""
        return self.passes and self.spare is not None and self.spare < margin


@dataclass
class Gap:
    """A passage of a board, as every base of the catalogue found it."""

    a: str
    b: str
    width: float
    neck: tuple[tuple[float, float], tuple[float, float]]
    by_base: dict[str, BaseGap] = field(default_factory=dict)
    """In the catalogue's order."""

    @property
    def passes(self) -> list[str]:
        return [n for n, g in self.by_base.items() if g.passes]

    @property
    def fails(self) -> list[str]:
        return [n for n, g in self.by_base.items() if not g.passes]

    @property
    def over(self) -> list[str]:
        """The bases that go over a piece beside the gap instead."""
        return [n for n, g in self.by_base.items() if g.over]

    @property
    def largest(self) -> BaseGap | None:
        """The largest base that goes through the gap (the last in the catalogue's order)."""
        through = [g for g in self.by_base.values() if g.through]
        return through[-1] if through else None

    def marginal(self, margin: float = GAP_MARGIN) -> list[BaseGap]:
        return [g for g in self.by_base.values() if g.marginal(margin)]

    @property
    def middle(self) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.neck
        return ((ax + bx) / 2, (ay + by) / 2)


def gaps_of(survey: Survey, jobs: Iterable[Job], order: Mapping[str, int]) -> list[Gap]:
    """The gaps of one board's gap-fit jobs (narrowest first), each with every measured base's
    answer in the catalogue's ``order``."""
    gaps: list[Gap] = []
    measured: list[str] = []
    stopped: dict[str, set[str] | None] = {}
    for job, value in of_measure(survey, "gap-fit", jobs):
        assert isinstance(value, GapFit)
        measured.append(job.base.name)
        stopped[job.base.name] = None if value.stopped_by is None else set(value.stopped_by)
        for p in value.passages:
            b = p.edge if p.b == "edge" and p.edge else p.b
            ends = sorted([(p.a, p.neck[0]), (b, p.neck[1])])
            gap = _find(gaps, ends)
            if gap is None:
                gap = Gap(ends[0][0], ends[1][0], p.width, (ends[0][1], ends[1][1]))
                gaps.append(gap)
            gap.by_base[job.base.name] = BaseGap(
                job.base.name, p.passes, p.spare, p.facing,
                None if p.facings is None else (p.facings[0], p.facings[1]), p.shut_by)
    rank = sorted(dict.fromkeys(measured), key=lambda n: order.get(n, len(order)))
    for gap in gaps:
        found = gap.by_base
        gap.by_base = {n: found.get(n) or BaseGap(n, True, None, over=_over(gap, stopped[n]))
                       for n in rank}
    return sorted(gaps, key=lambda g: (g.width, g.a, g.b, g.neck))


def _over(gap: Gap, stopped: set[str] | None) -> bool:
    """Whether a base that does not list ``gap`` goes over a piece beside it (one that does
    not stop it) rather than through it; unknown for older results (taken as through)."""
    if stopped is None:
        return False
    return any(end not in EDGES and end not in stopped for end in (gap.a, gap.b))


def _find(gaps: list[Gap], ends: list[tuple[str, tuple[float, float]]]) -> Gap | None:
    for gap in gaps:
        if (gap.a, gap.b) == (ends[0][0], ends[1][0]) and all(
                abs(p - q) <= NECK_MATCH for e, n in zip(ends, gap.neck, strict=True)
                for p, q in zip(e[1], n, strict=True)):
            return gap
    return None


# ---------------------------------------------------------------------------------------------
# balance


@dataclass(frozen=True)
class Lean:
    """Two sides of one board compared for one base and M."""

    board: str
    base: str
    m: str
    sides: tuple[str, str]
    phases: tuple[list[int | None], list[int | None]]
    """Phases of each side to each objective (``None``: not within the cap)."""
    centre: tuple[int | None, int | None]
    """Phases of each side to the board's centre (``None`` also when not measured)."""
    ground: tuple[float, float]
    """Square inches each side reaches in its first phase."""

    @property
    def lead(self) -> int:
        """The second side's phases summed over the objectives less the first's: positive, the
        first side is nearer the objectives as a whole (a mirrored board's home objectives
        cancel). Out of reach counts as one phase over the cap."""
        return sum(counted(b) - counted(a) for a, b in zip(*self.phases, strict=False))

    @property
    def ground_lead(self) -> float:
        """The first side's ground less the second's, over their mean (0 when both are 0)."""
        a, b = self.ground
        mean = (a + b) / 2
        return (a - b) / mean if mean > 0 else 0.0

    @property
    def beyond(self) -> tuple[int, float]:
        """What differs beyond the tolerance: phases of lead, and ground lead past
        :data:`GROUND_TIE` (0 within it)."""
        return (max(0, abs(self.lead) - PHASE_TIE),
                max(0.0, abs(self.ground_lead) - GROUND_TIE))

    @property
    def tie(self) -> bool:
        return self.beyond == (0, 0.0)

    @property
    def favoured(self) -> str:
        """The side ahead beyond the tolerance ("" on a tie): by phases first, then ground."""
        phases, ground = self.beyond
        if phases:
            return self.sides[0 if self.lead > 0 else 1]
        if ground:
            return self.sides[0 if self.ground_lead > 0 else 1]
        return ""

    def key(self) -> tuple[Any, ...]:
        """What a collapsed row shows (bases with equal keys share one row)."""
        return (self.m, tuple(map(tuple, self.phases)), self.centre, self.favoured,
                self.beyond[0])


def lean_of(board: str, base: str, m: str, sides: Sequence[str],
            reach: Mapping[str, Reach]) -> Lean | None:
    """The two first ``sides``' reach for ``m`` side by side (``None`` if either lacks it)."""
    if len(sides) < 2:
        return None
    a, b = sides[0], sides[1]
    ra, rb = reach.get(a), reach.get(b)
    if ra is None or rb is None or m not in ra.moves or m not in rb.moves:
        return None
    ga, gb = ra.area.get(m, []), rb.area.get(m, [])
    return Lean(board, base, m, (a, b), (list(ra.moves[m]), list(rb.moves[m])),
                (ra.centre.get(m), rb.centre.get(m)),
                (ga[0] if ga else 0.0, gb[0] if gb else 0.0))


def leans_of(survey: Survey, boards: Mapping[str, BoardInfo],
             sides: Callable[[str], Sequence[str]]) -> dict[str, list[Lean]]:
    """Every board's leans (by board key), for every base and M with both sides' reach."""
    reach: dict[tuple[str, str], dict[str, Reach]] = defaultdict(dict)
    for job, value in of_measure(survey, "reach", survey.plan.jobs):
        reach[(job.board, job.base.name)][job.side or ""] = value
    out: dict[str, list[Lean]] = defaultdict(list)
    for (board, base), by_side in reach.items():
        if board not in boards:
            continue
        ms = sorted({m for r in by_side.values() for m in r.moves}, key=float)
        for m in ms:
            lean = lean_of(board, base, m, sides(board), by_side)
            if lean is not None:
                out[board].append(lean)
    return dict(out)


@dataclass(frozen=True)
class Verdict:
    """A board's balance over its bases and M."""

    sides: tuple[str, str]
    ahead: tuple[int, int]
    """How many (base, M) put each side ahead beyond the tolerance."""
    ties: int
    largest: Lean | None
    """The lean furthest beyond the tolerance (``None`` when every one is a tie)."""

    @property
    def favoured(self) -> str:
        """The side ahead in more (base, M) ("" when as many, or all tie)."""
        a, b = self.ahead
        return "" if a == b else self.sides[0 if a > b else 1]

    @property
    def score(self) -> tuple[int, int, float]:
        """Order of the balance table: (base, M) ahead, then the largest lead beyond."""
        big = self.largest.beyond if self.largest else (0, 0.0)
        return (abs(self.ahead[0] - self.ahead[1]) + min(self.ahead), big[0], big[1])


def verdict(leans: Sequence[Lean]) -> Verdict | None:
    if not leans:
        return None
    sides = leans[0].sides
    ahead = [0, 0]
    for x in leans:
        if x.favoured:
            ahead[sides.index(x.favoured)] += 1
    beyond = [x for x in leans if not x.tie]
    largest = max(beyond, key=lambda x: x.beyond) if beyond else None
    return Verdict(sides, (ahead[0], ahead[1]), len(leans) - len(beyond), largest)


def ordered(leans: Iterable[Lean]) -> tuple[list[Lean], list[Lean]]:
    """Leans beyond the tolerance, furthest first, and the ties."""
    leans = list(leans)
    beyond = sorted((x for x in leans if not x.tie), key=lambda x: x.beyond, reverse=True)
    return beyond, [x for x in leans if x.tie]


def base_order(bases: Sequence[Base]) -> dict[str, int]:
    """The catalogue's order (least width, then greatest, then name) by base name."""
    return {b.name: i for i, b in enumerate(sorted(bases, key=lambda b: (b.width, b.length,
                                                                          b.name)))}


# ---------------------------------------------------------------------------------------------
# boards


@dataclass
class Board:
    """One board of a survey with everything measured on it."""

    key: str
    info: BoardInfo
    sides: list[str]
    gaps: list[Gap]
    reach: dict[tuple[str, str], Reach]
    """By (side, base name)."""
    odds: dict[tuple[str, str], AdvanceOdds]
    jobs: list[Job]
    leans: list[Lean]
    gap_bases: list[str] = field(default_factory=list)
    """The bases with a gap-fit result, in the catalogue's order."""

    @property
    def verdict(self) -> Verdict | None:
        return verdict(self.leans)

    def targets(self, side: str, base: str, m: str) -> list[int | None]:
        """Phases of ``side``'s ``base`` with M ``m`` to the centre, then to each objective
        (``None`` where out of reach or not measured)."""
        r = self.reach.get((side, base))
        if r is None:
            return [None] * (1 + len(self.info.objectives))
        moves = list(r.moves.get(m, []))
        return [r.centre.get(m)] + [moves[i] if i < len(moves) else None
                                    for i in range(len(self.info.objectives))]

    def phases_key(self, base: str) -> tuple[object, ...]:
        """Everything the phases of ``base`` say on this board (every side, M, target): bases
        with equal keys share a row."""
        return tuple((s, m, tuple(self.targets(s, base, m)))
                     for s in self.sides for m in self.ms(base))

    def ms(self, base: str) -> list[str]:
        """The M of ``base``'s reach on this board, in order."""
        return sorted({m for s in self.sides if (s, base) in self.reach
                       for m in self.reach[(s, base)].moves}, key=float)

    def phase_groups(self) -> list[tuple[list[str], tuple[object, ...]]]:
        """The reach bases in groups of identical phases."""
        return collapse((b, self.phases_key(b)) for b in self.reach_bases())

    def reach_bases(self) -> list[str]:
        """The bases with a reach result for every side, in the catalogue's order."""
        names = [j.base.name for j in self.jobs if j.measure == "gap-fit"] + \
            [b for _, b in self.reach]
        return [n for n in dict.fromkeys(names)
                if all((s, n) in self.reach for s in self.sides)]


def sides_of(info: BoardInfo, jobs: Iterable[Job]) -> list[str]:
    """The board's sides: its zones' players in order, then any other side a job names."""
    return list(info.zones) + sorted({j.side for j in jobs if j.side} - set(info.zones))


def boards_of(survey: Survey, bases: Sequence[Base]) -> list[Board]:
    """The plan's boards grouped by layout (in the plan's order), each layout's own map
    first, each with its results."""
    plan = survey.plan
    order = base_order(bases)
    layouts: dict[str, int] = {}
    for info in plan.boards.values():
        layouts.setdefault(info.layout, len(layouts))
    keys = sorted(plan.boards, key=lambda k: (layouts[plan.boards[k].layout],
                                              not plan.boards[k].own))
    by_board: dict[str, list[Job]] = defaultdict(list)
    for job in plan.jobs:
        by_board[job.board].append(job)
    by_board = {k: sorted(v, key=lambda j: order.get(j.base.name, len(order)))
                for k, v in by_board.items()}
    sides = {k: sides_of(plan.boards[k], by_board.get(k, [])) for k in keys}
    leans = leans_of(survey, plan.boards, lambda k: sides[k])
    out = []
    for key in keys:
        info, jobs = plan.boards[key], by_board.get(key, [])
        reach = {(j.side or "", j.base.name): v for j, v in of_measure(survey, "reach", jobs)}
        odds = {(j.side or "", j.base.name): v
                for j, v in of_measure(survey, "advance-odds", jobs)}
        board_leans = sorted(leans.get(key, []), key=lambda x: (order.get(x.base, 0),
                                                                float(x.m)))
        gap_bases = [j.base.name for j, _ in of_measure(survey, "gap-fit", jobs)]
        out.append(Board(key, info, sides[key], gaps_of(survey, jobs, order), reach, odds,
                         jobs, board_leans, gap_bases))
    return out

"""Ties, balance and identical bases (#29 item 2), on hand-written comparisons.

Two sides tie when they need the same phases summed over the objectives and their ground
after one phase differs by no more than 2 % of its mean; only what lies beyond that puts a side
ahead and orders the balance.
"""

from __future__ import annotations

import pytest

from tabletop.survey.compare import (
    GROUND_TIE,
    BaseGap,
    Gap,
    Lean,
    collapse,
    ordered,
    verdict,
)


def lean(a: list[int | None], b: list[int | None], ground: tuple[float, float] = (100, 100),
         base: str = "32mm", m: str = "6") -> Lean:
    return Lean("board", base, m, ("red", "blue"), (a, b), (None, None), ground)


def test_equal_phases_and_ground_within_the_tolerance_tie() -> None:
    mirrored = lean([1, 3, 2], [3, 1, 2], (101.0, 100.0))
    assert mirrored.lead == 0 and mirrored.tie and mirrored.favoured == ""
    # 2 % of the mean is the edge of the tolerance: within it, a tie; beyond it, a lead
    edge = lean([2, 2], [2, 2], (100 + 100 * GROUND_TIE / (1 - GROUND_TIE / 2) * 0.999, 100))
    assert edge.tie
    more = lean([2, 2], [2, 2], (104.0, 100.0))
    assert not more.tie and more.favoured == "red"
    assert more.beyond == (0, pytest.approx(4 / 102 - GROUND_TIE))


def test_phases_come_before_ground_and_out_of_reach_counts_as_13() -> None:
    x = lean([1, None], [2, 3], (90.0, 110.0))
    # blue: 2 + 3 = 5; red: 1 + 13 = 14: blue is 9 phases ahead, whatever the ground
    assert x.lead == -9 and x.favoured == "blue" and x.beyond[0] == 9


def test_the_balance_is_ordered_by_what_differs_beyond_the_tolerance() -> None:
    ties = [lean([2, 2], [2, 2], (100.0, 101.0), base=b) for b in ("25mm", "32mm")]
    ground = lean([2, 2], [2, 2], (110.0, 100.0), base="60mm")
    phase = lean([1, 2], [2, 2], (100.0, 100.0), base="Rhino hull")
    far = lean([1, 1], [3, 3], (100.0, 100.0), base="100mm")
    beyond, tied = ordered([*ties, ground, phase, far])
    assert [x.base for x in beyond] == ["100mm", "Rhino hull", "60mm"]
    assert [x.base for x in tied] == ["25mm", "32mm"]
    v = verdict([*ties, ground, phase, far])
    assert v is not None and v.ahead == (3, 0) and v.ties == 2 and v.favoured == "red"
    assert v.largest is far
    only_ties = verdict(ties)
    assert only_ties is not None and only_ties.largest is None and only_ties.favoured == ""


def test_identical_rows_of_bases_collapse_in_order() -> None:
    rows = [("25mm", (0, 1)), ("32mm", (0, 1)), ("60mm", (2, 0)), ("40mm", (0, 1)),
            ("Knight", (2, 0))]
    assert collapse(rows) == [(["25mm", "32mm", "40mm"], (0, 1)), (["60mm", "Knight"], (2, 0))]


def test_a_gap_takes_its_largest_base_through() -> None:
    g = Gap("a", "b", 2.2, ((0.0, 0.0), (2.2, 0.0)), {
        "32mm": BaseGap("32mm", True, None, over=True),
        "50mm": BaseGap("50mm", True, 0.23),
        "60mm": BaseGap("60mm", False, -0.16),
    })
    big = g.largest
    assert big is not None and big.base == "50mm"   # infantry goes over, not through
    assert [x.base for x in g.marginal()] == ["50mm"] and g.marginal(0.2) == []
    assert g.fails == ["60mm"] and g.over == ["32mm"]

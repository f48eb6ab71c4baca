"""Which sources a layer's search kept: the vectorised match of the core's source rows against
the sources given (``turn_reach.matched_rows``) is the one-by-one match it replaces."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geometry.turn_reach import matched_rows


def one_by_one(every: np.ndarray, rows: np.ndarray) -> list[int]:
    """Each row matched to the next point of ``every`` within 1e-12, in order (the reference:
    how the layers' sources were matched before)."""
    out, j = [], 0
    for k, (x, y) in enumerate(every.tolist()):
        if j < len(rows) and abs(rows[j][0] - x) < 1e-12 and abs(rows[j][1] - y) < 1e-12:
            out.append(k)
            j += 1
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=40),
       st.data())
def test_the_match_is_the_one_by_one_match(points: list[tuple[int, int]], data) -> None:  # type: ignore[no-untyped-def]
    # few distinct points: repeated ones are common (two turn nodes at one place)
    every = np.array(points, dtype=float).reshape(-1, 2) * 0.25
    kept = data.draw(st.lists(st.booleans(), min_size=len(points), max_size=len(points)))
    rows = every[np.array(kept, dtype=bool)] if len(points) else np.zeros((0, 2))
    got = matched_rows(every, rows)
    assert got.tolist() == one_by_one(every, rows)
    assert len(got) == len(rows)


def test_a_row_off_by_a_rounding_is_matched_one_by_one() -> None:
    every = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    rows = np.array([[3.0 + 4e-13, 4.0], [7.0, 8.0]])
    assert matched_rows(every, rows).tolist() == one_by_one(every, rows) == [1, 3]


def test_every_source_kept_and_none_kept() -> None:
    every = np.random.default_rng(3).uniform(0, 10, (1000, 2))
    assert matched_rows(every, every).tolist() == list(range(1000))
    assert matched_rows(every, np.zeros((0, 2))).tolist() == []
    assert matched_rows(np.zeros((0, 2)), np.zeros((0, 2))).tolist() == []

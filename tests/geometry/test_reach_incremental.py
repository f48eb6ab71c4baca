"""A search carried on with more sources (a turning mover's next round of turn nodes) gives
what a fresh search with all of them gives: the same nodes and distances, and the same
lengths at the turn nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.geometry.visibility import ReachMap

from support.zones_boards import random_reach_map


def _board(seed: int) -> tuple[ReachMap, list[tuple[float, float, float]], np.ndarray]:
    rng = np.random.default_rng(seed)
    rm = random_reach_map(rng)
    # sources: free points at distances a turn on the way could give them
    pts = rng.uniform(1, 19, (40, 2))
    free = ~rm.blocked(pts, pts + 1e-9, None)
    sources = [(float(x), float(y), float(d)) for (x, y), d in
               zip(pts[free], rng.uniform(1, 9, free.sum()), strict=True)]
    nodes = rng.uniform(1, 19, (120, 2))
    return rm, sources, nodes


@pytest.mark.parametrize("seed", range(6))
def test_more_sources_carried_on_equal_a_fresh_search(seed: int) -> None:
    rm, sources, nodes = _board(seed)
    (x, y, _), D = sources.pop(), 10.0
    p = (x, y)
    cut = len(sources) // 3
    first = rm.disk(p, D, sources[:cut])
    again = first.distances(nodes)
    more = rm.disk(p, D, sources, base=first)
    assert more.search_state is not None and first.more_of(more, sources) is not None
    fresh = rm.disk(p, D, sources)
    assert fresh.n_sources == more.n_sources
    np.testing.assert_array_equal(more.nodes, fresh.nodes)
    np.testing.assert_array_equal(more.dist, fresh.dist)
    carried = more.distances(nodes, since=again)
    np.testing.assert_array_equal(carried.out, fresh.distances(nodes).out)
    # some lengths did change (the test sees the carried answer at work)
    assert (carried.out != again.out).any()

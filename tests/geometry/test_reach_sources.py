"""A disk with many sources (a turning mover's turn nodes) is built from fewer wedges, and a
free point's edges from fewer corners, without changing what it reaches: a source whose disk
the others hold casts no wedge, and a point's visible corners are found only as far as it has
left to move."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.geometry import engine, wedges
from tabletop.geometry.tolerance import EPS
from tabletop.geometry.visibility import ReachMap
from tabletop.geometry.wedges import ARC_TOLERANCE, held_sources

from support.zones_boards import random_reach_map


def _board(seed: int) -> tuple[ReachMap, tuple[float, float], list[tuple[float, float, float]]]:
    rng = np.random.default_rng(seed)
    rm = random_reach_map(rng)
    # turn nodes come in rows along edges, a spacing apart, with distances that vary little
    # along a row: many of them lie in a neighbour's disk
    pts = np.concatenate([np.linspace(a, b, 12) for a, b in
                          rng.uniform(1, 19, (8, 2, 2))])
    free = ~rm.blocked(pts, pts + 1e-9, None)
    pts = pts[free]
    start = (float(pts[0, 0]), float(pts[0, 1]))
    dist = rng.uniform(2.0, 6.0, len(pts) - 1)
    sources = [(float(x), float(y), float(d)) for (x, y), d in
               zip(pts[1:], dist, strict=True)]
    return rm, start, sources


@pytest.mark.parametrize("seed", range(8))
def test_the_sources_held_by_others_leave_the_region_the_same(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rm, start, sources = _board(seed)
    disk = rm.disk(start, 9.0, sources)
    held = held_sources(disk)
    assert not held[0]  # the start's own disk always stays
    # each held source: another node sees it and reaches it sooner by the margin, and no
    # node's path comes through it
    for s in np.nonzero(held)[0]:
        assert not (disk.parent == s).any()
        via = disk.dist + np.hypot(*(disk.nodes - disk.nodes[s]).T)
        via[s] = np.inf
        assert via.min() < disk.dist[s] - 2 * ARC_TOLERANCE
    pruned = disk.region()
    monkeypatch.setattr(wedges, "held_sources", lambda d: np.zeros(d.n_sources, bool))
    whole = rm.disk(start, 9.0, sources).region()
    # the same set, up to GEOS's rounding where wedges of different apexes meet along one
    # edge (slivers of up to 1e-8 sq in, none of it farther than the tolerance): nothing gained
    # and nothing lost beyond EPS
    assert pruned.difference(whole.buffer(EPS)).area == 0.0
    assert whole.difference(pruned.buffer(EPS)).area == 0.0
    # (the native engine's overlays round every vertex to its grid of 1e-7": up to 1e-6 sq in)
    assert abs(pruned.area - whole.area) < (1e-6 if engine.engine_name() == "native" else 1e-7)


def test_some_sources_are_held_on_these_boards() -> None:
    held = [int(held_sources(rm.disk(start, 9.0, sources)).sum())
            for rm, start, sources in (_board(seed) for seed in range(8))]
    assert sum(held) > 0, held


def test_a_free_points_corners_are_found_as_far_as_asked_and_again_when_asked_farther() -> None:
    rm, start, _ = _board(3)
    rm.ensure_graph(30.0)
    p = np.array([start])
    near_edges = rm.free_edges(p, np.array([2.0]))[0]
    far_edges = rm.free_edges(p, np.array([12.0]))[0]
    fresh = _board(3)[0]  # the same board, nothing asked of it yet
    fresh.ensure_graph(30.0)
    expected = fresh.free_edges(p, np.array([12.0]))[0]
    # the first answer stops at its radius; a farther one finds the rest, as a fresh map does
    assert near_edges[1].max(initial=0.0) <= 2.0 + 1e-9
    assert len(far_edges[0]) > len(near_edges[0])
    np.testing.assert_array_equal(far_edges[0], expected[0])
    np.testing.assert_allclose(far_edges[1], expected[1])
    # a nearer ask afterwards is answered from what was found (every corner within 12")
    again = rm.free_edges(p, np.array([5.0]))[0]
    np.testing.assert_array_equal(again[0], far_edges[0])

"""The overlap checks' index (``checks.Overlaps``): every item's answer found together, round
by round, is the one a loop over the items would find, taking each item's candidates in the same
order and stopping at the same chunk; and where an item overlaps few others, they are exactly
those a test of every pair finds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from tabletop.geometry.footprints import Footprint, Hull, Oval, Rect, Round
from tabletop.geometry.tolerance import EPS
from tabletop.scenario.checks import (
    OVERLAP_NAMES,
    Overlaps,
    Placed,
    inner_radius,
    outline_ring,
)


def _one_by_one(ix: Overlaps, b: int, below: int | None = None) -> tuple[list[int], bool]:
    """Item ``b``'s answer by the loop the index stands for: its groups (the large items, then
    the 3 x 3 cells around a small item in order; every item for a large one), each cut to the
    items before ``below`` (default ``b``) and taken in chunks of 4, 16, 64, ... until more than
    OVERLAP_NAMES overlaps are found; those found, lowest first."""
    stop = b if below is None else below
    large = np.flatnonzero(~ix.small)
    cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i in np.flatnonzero(ix.small).tolist():
        cells[ix.keys[i]].append(i)
    if ix.small[b]:
        cx, cy = ix.keys[b]
        groups = [large[large < stop]]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (cx + dx, cy + dy) in cells:
                    cell = np.array(cells[cx + dx, cy + dy])
                    groups.append(cell[cell < stop])
    else:
        groups = [np.arange(stop)]
    found: list[int] = []
    x0, y0, x1, y1 = ix.bounds[b]
    for group in groups:
        start, size = 0, OVERLAP_NAMES + 1
        while start < len(group) and len(found) <= OVERLAP_NAMES:
            chunk = group[start:start + size]
            start, size = start + size, size * 4
            box = ix.bounds[chunk]
            chunk = chunk[(box[:, 0] <= x1) & (box[:, 2] >= x0)
                          & (box[:, 1] <= y1) & (box[:, 3] >= y0)]
            if len(chunk):
                hit = ix._hits(np.full(len(chunk), b), chunk)
                found.extend(chunk[hit].tolist())
    found.sort()
    return found[:OVERLAP_NAMES], len(found) > OVERLAP_NAMES


@st.composite
def _items(draw: st.DrawFn) -> list[Placed]:
    """Round bases and polygons (rectangles and L-shapes at a few angles, some large; some
    terrain pieces), spread or piled up."""
    n = draw(st.integers(1, 40))
    spread = draw(st.sampled_from([0.0, 0.5, 3.0, 20.0]))
    out: list[Placed] = []
    for k in range(n):
        if out and draw(st.integers(0, 5)) == 0:
            x, y = out[draw(st.integers(0, len(out) - 1))].centre  # on another's centre
        else:
            x = draw(st.floats(0, 1)) * spread
            y = draw(st.floats(0, 1)) * spread
        size = draw(st.sampled_from([0.5, 0.6, 1.0, 1.0, 5.0]))
        if draw(st.booleans()):
            out.append(Placed(f"i{k}", f"m{k}", (x, y), size, None,
                               (x - size, y - size, x + size, y + size)))
            continue
        # (a sliver too, which shrunk by EPS is empty)
        w, d = size, size * draw(st.sampled_from([0.3, 1.0, 2.0, 1e-7]))
        angle = draw(st.sampled_from([0.0, 30.0, 90.0, 123.4]))
        bent = draw(st.integers(0, 3)) == 0
        if bent:  # an L, its centre near the inner corner (the nearest point of its outline)
            s = 0.05 * min(w, d)
            local = Polygon(np.array([(-w, -d), (w, -d), (w, -d / 2), (-w / 2, -d / 2),
                                      (-w / 2, d), (-w, d)]) - (-w / 2 - s, -d / 2 - s))
        else:
            local = Polygon([(-w, -d), (w, -d), (w, d), (-w, d)])
        poly = shapely.affinity.translate(shapely.affinity.rotate(local, angle, origin=(0, 0)),
                                          x, y)
        if draw(st.integers(0, 5)) == 0:  # a terrain piece (its centre 0, 0, maybe outside)
            out.append(Placed("", f"t{k}", (0.0, 0.0), 0.0, poly, poly.bounds))
            continue
        # (its disk: the largest, none, or a smaller one)
        best = local.exterior.distance(shapely.Point(0, 0))
        inner = draw(st.sampled_from([best, best, 0.0, best * 0.5]))
        # (some as a base whose polygon the index makes when a test needs it)
        lazy = draw(st.integers(0, 2)) == 0
        out.append(Placed(f"i{k}", f"m{k}", (x, y), float(shapely.hausdorff_distance(
            local, shapely.Point(0, 0))), None if lazy else poly, poly.bounds, inner=inner,
            shape=(w, d, angle, bent),
            outline=(Hull(tuple(local.exterior.coords[:-1])), angle) if lazy else None))
    return out


@settings(max_examples=150, deadline=None)
@given(_items(), st.data())
def test_every_answer_is_the_one_by_one_loops(items: list[Placed], data: st.DataObject) -> None:
    ix = Overlaps(items)
    n = len(items)
    got = ix.all_earlier(np.arange(n))
    assert got == [_one_by_one(Overlaps(items), b) for b in range(n)]
    # a prefix as the terrain (the check of the items after it against it alone)
    below = data.draw(st.integers(0, n - 1))
    later = np.arange(below, n)
    assert Overlaps(items).all_earlier(later, below=below) == \
        [_one_by_one(ix, b, below) for b in later.tolist()]
    # few overlaps: exactly those of every pair; many: OVERLAP_NAMES of them and "more"
    for b, (found, more) in enumerate(got):
        earlier = np.arange(b)
        every = earlier[ix._hits(np.full(b, b), earlier)].tolist() if b else []
        assert more == (len(every) > OVERLAP_NAMES)
        assert found == sorted(found) and set(found) <= set(every)
        assert len(found) == min(len(every), OVERLAP_NAMES)


def test_a_pile_costs_a_few_tests_an_item() -> None:
    """10,000 equal bases on one point: each names the 3 lowest and "more" from its first
    chunk (a test of every pair would take 50 million)."""
    items = [Placed(f"i{k}", f"m{k}", (5.0, 5.0), 0.5, None, (4.5, 4.5, 5.5, 5.5))
             for k in range(10_000)]
    ix = Overlaps(items)
    tested = 0
    hits = ix._hits

    def counted(b: np.ndarray, a: np.ndarray) -> np.ndarray:
        nonlocal tested
        tested += len(a)
        return hits(b, a)

    ix._hits = counted  # type: ignore[method-assign]
    got = ix.all_earlier(np.arange(len(items)))
    assert got[0] == ([], False) and got[2] == ([0, 1], False)
    assert got[4] == ([0, 1, 2], True) and got[9_999] == ([0, 1, 2], True)
    assert tested <= (OVERLAP_NAMES + 1) * len(items)


@settings(max_examples=150, deadline=None)
@given(_items())
def test_the_disks_settle_only_what_the_outlines_would(items: list[Placed]) -> None:
    """Every pair: the answer with the disks inside the items is the outlines' answer."""
    ix = Overlaps(items)
    b, a = np.triu_indices(len(items), 1)
    assert ix._hits(b, a).tolist() == ix._exact(b, a).tolist()


@settings(max_examples=100, deadline=None)
@given(_items())
def test_a_shape_shrunk_once_is_each_items_own(items: list[Placed]) -> None:
    """The polygons of items of one shape shrunk by EPS once and moved are each one's own
    shrunk (within rounding), and every pair's answer is the one with every item's own."""
    ix = Overlaps(items)
    own = Overlaps([replace(p, shape=None) for p in items])
    # (a base's polygon made when needed is the one drawn, within rounding)
    for k, p in enumerate(items):
        if p.outline is not None:
            base, facing = p.outline
            drawn = shapely.affinity.translate(shapely.affinity.rotate(
                base.local_polygon(), facing, origin=(0, 0)), *p.centre)
            assert shapely.hausdorff_distance(ix.poly(np.array([k]))[0], drawn) < 1e-9
    idx = np.flatnonzero(~ix.round)
    if len(idx):
        moved, made = ix._shrink(idx), own._shrink(idx)
        assert (shapely.is_empty(moved) == shapely.is_empty(made)).all()
        full = ~shapely.is_empty(made)
        assert (shapely.hausdorff_distance(moved[full], made[full]) < 1e-9).all()
    b, a = np.triu_indices(len(items), 1)
    assert ix._exact(b, a).tolist() == own._exact(b, a).tolist()


def _counted(exact: Callable[[np.ndarray, np.ndarray], np.ndarray], tested: list[int]
             ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def counted(b: np.ndarray, a: np.ndarray) -> np.ndarray:
        tested.append(len(a))
        return exact(b, a)
    return counted


def test_the_disks_at_their_threshold() -> None:
    """Two squares of half side 1 a little nearer and a little farther than 2 - 12 EPS apart
    (whose outlines overlap either way): the disks settle the nearer only, and both answers
    are the outlines'; and a pile of squares is settled with no test of an outline."""
    def square(k: int, x: float) -> Placed:
        poly = Polygon([(x - 1, -1), (x + 1, -1), (x + 1, 1), (x - 1, 1)])
        return Placed(f"i{k}", f"m{k}", (x, 0.0), float(np.sqrt(2)), poly, poly.bounds,
                      inner=1.0)

    for gap, settled in ((2.0 - 12.5 * EPS, True), (2.0 - 11.5 * EPS, False)):
        ix = Overlaps([square(0, 0.0), square(1, gap)])
        one, other = np.array([1]), np.array([0])
        tested: list[int] = []
        ix._exact = _counted(ix._exact, tested)  # type: ignore[method-assign, assignment]
        assert ix._hits(one, other).tolist() == [True]
        assert (not tested) == settled
        assert Overlaps([square(0, 0.0), square(1, gap)])._exact(one, other).tolist() == [True]
    pile = Overlaps([square(k, 3.0) for k in range(1_000)])
    tested = []
    pile._exact = _counted(pile._exact, tested)  # type: ignore[method-assign, assignment]
    got = pile.all_earlier(np.arange(1_000))
    assert got[1] == ([0], False) and got[999] == ([0, 1, 2], True)
    assert not tested


_L = ((-1.0, -1.0), (3.0, -1.0), (3.0, 0.0), (0.0, 0.0), (0.0, 3.0), (-1.0, 3.0))


@pytest.mark.parametrize("base", [
    Round(32.0), Oval(length_mm=60.0, width_mm=35.0), Oval(length_mm=170.0, width_mm=109.0),
    Oval(length_mm=20.0, width_mm=120.0), Rect(frontage_mm=25.0, depth_mm=50.0),
    Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5))),
    Hull(((-1.0, -0.5), (4.0, -0.5), (0.0, 3.0))),  # the centre near an edge
    Hull(_L),  # the centre on the L's inner corner: no disk
    Hull(((1.0, 1.0), (3.0, 1.0), (3.0, 3.0), (1.0, 3.0))),  # the centre outside
    Hull(tuple((float(r * np.cos(t)), float(r * np.sin(t)))  # a star
               for t, r in zip(np.linspace(0, 2 * np.pi, 40, endpoint=False),
                               [3.0, 1.2] * 20, strict=True))),
], ids=lambda b: type(b).__name__)
def test_a_bases_disk_lies_inside_its_outline(base: Footprint) -> None:
    """:func:`checks.inner_radius`: the disk lies inside the outline the checks test, at any facing
    and place, and is not much smaller than the largest about the centre."""
    r = inner_radius(base)
    for facing in (0.0, 37.5, 90.0, 211.0):
        for at in ((0.0, 0.0), (31.5, 17.25), (-999_999.0, 999_999.0)):
            ring = outline_ring(base, at, facing)
            if ring is None:  # a round base: its circle
                assert r == base.radius
                continue
            poly, centre = Polygon(ring), shapely.Point(at)
            best = poly.exterior.distance(centre) if poly.contains(centre) else 0.0
            assert r <= best
            if facing == 0.0 and at == (0.0, 0.0):
                assert r >= best - 1e-6 * max(1.0, best)

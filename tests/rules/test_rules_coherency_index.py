"""Coherency of big units (issue 28): the indexed check gives exactly what measuring every pair
gives (the independent method here: the all-pairs code it replaced), and its work grows with
the close pairs, not with the square of the unit: ``tabletop check`` of a unit of 10,000 models
measured all 50 million pairs."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geometry.footprints import parse_base
from tabletop.rulesets.wh40k_11e import checks
from tabletop.rulesets.wh40k_11e.checks import MAX_FAR_PAIRS, coherency_violations
from tabletop.rulesets.wh40k_11e.warnings import SIMULATED, coherency_warnings
from tabletop.state import Model, Unit

from support.coherency_oracle import all_pairs
from support.hostile import L_HULL
from support.rules_helpers import scenario, unit

BASES = ["32mm", "25mm", "60mm", "oval 60x35mm", "oval 90x52mm", "rect 25x50mm", "hull"]


def _unit(points: list[tuple[float, float, str, float]]) -> Unit:
    models = tuple(
        Model(id=f"m{k}", base=parse_base(b, tuple(map(tuple, L_HULL)) if b == "hull" else None),
              at=(x, y), facing=f)
        for k, (x, y, b, f) in enumerate(points))
    return Unit(id="u", player="red", keywords=("INFANTRY",), M=6.0, W=1, Ld=6, OC=1,
                models=models)


def _seen(unit: Unit) -> list[tuple[str, tuple[str, ...], float]]:
    return [(v.rule, v.models, v.distance or 0.0) for v in coherency_violations(unit)]


placements = st.lists(st.tuples(st.floats(0, 30), st.floats(0, 20), st.sampled_from(BASES),
                                st.sampled_from([0.0, 37.0, 90.0])), min_size=2, max_size=16)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(placements)
def test_the_index_finds_what_measuring_every_pair_finds(points: list[Any]) -> None:
    unit = _unit(points)
    assert _seen(unit) == all_pairs(unit)


@pytest.mark.parametrize("spread", [0.5, 1.9, 2.1, 3.0, 8.0])
def test_rows_and_clusters_at_the_limits(spread: float) -> None:
    """Rows whose gaps straddle 2", units that straddle 9", a lone model far off."""
    for base in ("32mm", "oval 90x52mm", "hull"):
        r = parse_base(base, tuple(map(tuple, L_HULL)) if base == "hull" else None).radius
        row = [(5.0 + k * (2 * r + spread), 10.0, base, 0.0) for k in range(8)]
        cluster = [(5.0 + (k % 3) * 1.2, 20.0 + (k // 3) * 1.2, "25mm", 0.0) for k in range(9)]
        for points in (row, cluster, [*cluster, (40.0, 30.0, base, 90.0)], row + cluster):
            unit = _unit(points)
            assert _seen(unit) == all_pairs(unit), (base, spread, len(points))


def _count_measures(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = checks.footprint_distance

    def counted(*args: Any) -> float:
        calls[0] += 1
        return real(*args)
    monkeypatch.setattr(checks, "footprint_distance", counted)
    return calls


@pytest.mark.slow
def test_a_unit_of_10000_models_measures_few_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """10,000 models of 1 mm in a 6" square (in coherency: no pair measured but by its
    centres) and 1,000 ovals side by side (out of 9" coherency: the list is cut to each model's
    farthest, and only pairs the bounds leave open near the 9" are measured)."""
    calls = _count_measures(monkeypatch)
    tiny = _unit([(5 + (k % 100) * 0.06, 5 + (k // 100) * 0.06, "1mm", 0.0)
                  for k in range(10_000)])
    assert coherency_violations(tiny) == []
    assert calls[0] == 0  # round bases: all by their centres
    ovals = _unit([(2 + (k % 20) * 2.5, 2 + (k // 20) * 1.5, "oval 60x35mm", 90.0)
                   for k in range(1_000)])
    calls[0] = 0
    vs = coherency_violations(ovals)
    assert calls[0] < 1_000 * 999 // 2 // 10, calls[0]  # a tenth of all pairs at most
    assert not [v for v in vs if v.rule == "coherency-2"]
    far = [v for v in vs if v.rule == "coherency-9"]
    assert 0 < len(far) <= 1_000 < MAX_FAR_PAIRS
    assert all(v.distance is not None and v.distance > 9 for v in far)


def test_many_far_pairs_are_cut_to_each_models_farthest() -> None:
    points = [(2 + (k % 20) * 2.0, 2 + (k // 20) * 2.0, "32mm", 0.0) for k in range(200)]
    unit = _unit(points)
    full = [v for v in all_pairs(unit) if v[0] == "coherency-9"]
    assert len(full) > MAX_FAR_PAIRS
    got = [v for v in _seen(unit) if v[0] == "coherency-9"]
    assert set(got) < set(full) and len(got) <= 200
    # each model more than 9" from another is named, with a pair as far as any of its own
    named = {m for _, pair, _ in got for m in pair}
    assert named == {m for _, pair, _ in full for m in pair}
    farthest = {m: max(d for _, pair, d in full if m in pair) for m in named}
    assert all(math.isclose(max(d for _, pair, d in got if m in pair), farthest[m],
                            abs_tol=0.8) for m in named)


def test_a_warning_on_a_huge_unit_does_not_play_out_its_removals() -> None:
    n = SIMULATED + 1
    state = scenario([unit("u", "red", [(2 + (k % 25) * 2.0, 2 + (k // 25) * 2.0)
                                         for k in range(n)])])
    (uid, line), = coherency_warnings(state)
    assert uid == "u" and line.endswith(
        f"the end of the turn would remove models until it is in coherency (not worked out "
        f"here for a unit of {n:,} models on the battlefield; it is for up to {SIMULATED})")

"""The drawing of threat ranges and safe ground (tabletop.view.threatview), without a window."""

from __future__ import annotations

import itertools

import shapely

from tabletop.rules.threat import MAX_ROLL, parse_odds
from tabletop.rulesets.wh40k_11e.threat import safe_ground, unit_threat
from tabletop.scenario.io import load_scenario, shipped
from tabletop.view.threatview import NOT_SIMULATED, Layer, band_colour, rings, safe_shades


def test_the_rings_tile_the_bands_and_the_likelier_are_stronger() -> None:
    th = unit_threat(load_scenario(shipped("demo.toml")), "warriors")
    got = rings(th)
    assert [r for r, _ in got] == list(range(3, MAX_ROLL + 1))
    assert rings(th) is got  # kept for the threat drawn
    for (_, a), (_, b) in itertools.pairwise(got):
        assert a.intersection(b).area < 1e-6  # disjoint
    whole = shapely.union_all([g for _, g in got])
    assert abs(whole.area - th.band(MAX_ROLL).charge.area) < 1e-3  # type: ignore[union-attr]
    alphas = [band_colour(r)[3] for r in range(3, MAX_ROLL + 1)]
    assert alphas == sorted(alphas, reverse=True)
    assert band_colour(3)[:3] != band_colour(12)[:3]


def test_the_layer_odds_and_objectives_and_what_the_legend_says() -> None:
    demo = load_scenario(shipped("demo.toml"))
    lay = Layer()
    assert lay.odds.need == 13
    assert lay.change_odds(1).need == 13 and lay.change_odds(-4).need == 9
    for _ in range(20):
        lay.change_odds(-1)
    assert lay.odds.need == 3
    assert [lay.next_objective(2) for _ in range(4)] == [1, 2, None, 1]
    assert lay.next_objective(0) is None
    lay.threat_unit, lay.threat, lay.threat_state = "warriors", unit_threat(demo, "warriors"), demo
    lines, rolls = lay.legend(demo)
    assert NOT_SIMULATED in lines and rolls == list(range(3, MAX_ROLL + 1))
    lines, _ = lay.legend(load_scenario(shipped("demo.toml")))  # another board: being updated
    assert lines[0].startswith("updating")
    sg = safe_ground(demo, "lieutenant", "normal", parse_odds("9+"), objective=1)
    lay.safe, lay.safe_state = sg, demo
    lines, _ = lay.legend(demo)
    assert any("within range of objective 1" in t for t in lines)
    assert lines.count(NOT_SIMULATED) == 1
    shades = safe_shades(sg, demo)
    assert shades[1].geometry.equals(sg.safe) and len(shades) >= 3  # the objective's ring last
    assert lay.shaded() is not None

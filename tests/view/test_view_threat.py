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


def test_the_threat_ahead_waits_until_the_person_rests(app_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Computing a unit's threat ahead takes up to a second of CPU, during which a click waits:
    right after a click (or while the pointer moves) the idle window leaves it; once input has
    rested for THREAT_AHEAD_AFTER_S it computes it, so T still finds it ready."""
    import time

    import pygame

    from tabletop.view import app as app_module
    from tabletop.view import appconfig

    from support.view_support import click, post

    app = app_factory(load_scenario(shipped("demo.toml")))
    computed: list[str] = []
    real = app.rules.threat

    def threat(state, unit):  # type: ignore[no-untyped-def]
        computed.append(unit)
        return real(state, unit)

    monkeypatch.setattr(app.rules, "threat", threat)
    click(app, app.state.model("hg1")[1].at)  # type: ignore[arg-type]
    assert app.ctrl.focus == "hormagaunts"
    assert not app.warm_one() and not computed  # just clicked: the person is about to act
    post(app, pygame.MOUSEMOTION, pos=(10, 10), rel=(1, 1), buttons=(0, 0, 0))
    assert not app.warm_one() and not computed  # the pointer moves
    rested = time.monotonic() + appconfig.THREAT_AHEAD_AFTER_S + 0.01
    monkeypatch.setattr(app_module.time, "monotonic", lambda: rested)
    assert app.warm_one() and computed == ["hormagaunts"]

"""Threat ranges and safe ground of wh40k-11e: hand-computed boards, the odds of 2D6, and safe
ground checked against an independent charge oracle (tests/support/threat_boards.py)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from tabletop import legal_zone, rulesets
from tabletop.errors import UserError
from tabletop.geometry.outer import GROW_TOLERANCE, SLACK
from tabletop.geometry.tolerance import mm
from tabletop.geometry.visibility import reach_map
from tabletop.rules.threat import (
    MAX_ROLL,
    Odds,
    at_least,
    band_limit,
    parse_odds,
)
from tabletop.rulesets.wh40k_11e.threat import SPACING, safe_ground, unit_threat
from tabletop.scenario.io import load_scenario

from support.paths import SHIPPED
from support.threat_boards import R32, Oracle, rect, samples_in, state, unit, without

OUT = SLACK + GROW_TOLERANCE + 2e-3
"""How far outside the exact region a drawn region may reach on these boards, inches."""
R25 = mm(25) / 2
R40 = mm(40) / 2


# -- the odds of 2D6 ---------------------------------------------------------------------------
def test_the_bands_chances_are_those_of_2d6() -> None:
    rolls = [a + b for a, b in product(range(1, 7), repeat=2)]
    for x in range(2, 14):
        assert at_least(x) == Fraction(sum(r >= x for r in rolls), 36)
    exactly = [at_least(x) - at_least(x + 1) for x in range(2, 13)]
    assert exactly == [Fraction(rolls.count(x), 36) for x in range(2, 13)]
    assert sum(exactly) == 1
    assert at_least(7) == Fraction(7, 12) and at_least(12) == Fraction(1, 36)


def test_odds_as_a_player_writes_them() -> None:
    assert parse_odds("9+") == parse_odds("9") == parse_odds("0.28") == parse_odds("27.8%")
    assert parse_odds("9+").need == 9 and parse_odds("9+").worst == 8
    assert parse_odds("9+").text() == "safe unless 9+ is rolled (28%)"
    assert parse_odds("never").need == 13 and parse_odds("0").need == 13
    assert parse_odds("1").need == 3 and parse_odds("any").need == 3   # a 2 never charges
    assert parse_odds("0.5").need == 8      # 8+ succeeds 42% of the time, 7+ 58%
    assert band_limit(None) == 12 and band_limit("7+") == 7 and band_limit("0.58") == 7
    assert band_limit("0.5") == 7 and band_limit("2%") == 12 and band_limit("3%") == 11
    assert parse_odds("13+").need == 13  # safe unless 13+: out of reach of every roll
    for bad in ("14+", "1+", "-0.1", "x", "150%", "nan", "14"):
        with pytest.raises(UserError, match="no odds"):
            parse_odds(bad)
    assert band_limit("0.999") == 2 and band_limit("100%") == 2  # only the (empty) band of 2


# -- hand-computed boards ----------------------------------------------------------------------
def _lone(x: float, y: float, *, M: float = 6.0, base: str = "32mm", uid: str = "b",
          player: str = "blue", keywords: tuple[str, ...] = ("INFANTRY",)):  # type: ignore[no-untyped-def]
    return unit(uid, player, [(f"{uid}1", x, y)], base=base, M=M, keywords=keywords)


def test_on_open_ground_each_band_is_a_disc_and_each_ring_an_annulus() -> None:
    """A lone charger in the open: it ends its move within M of where it stands; a roll of X
    targets a base within X of that (closest bases), and moves X to end within 2" of it. So a
    base is charged on X when its centre is within M + X + r + r_t: the band (base-touch) is the
    disc of radius M + r + X, the ring of X the annulus between X - 1 and X."""
    st = state([_lone(30.0, 22.0), _lone(3.0, 3.0, uid="r", player="red")])
    th = unit_threat(st, "b")
    assert th.charges and th.move == "normal"
    assert th.band(2) is not None and th.band(2).charge.is_empty  # a 2 never charges
    r = R32
    for x in range(3, MAX_ROLL + 1):
        b = th.band(x)
        assert b is not None and b.chance == at_least(x)
        for reg, radius in ((b.declare, 6.0 + r + x), (b.engage, 6.0 + x + r + 2.0),
                            (b.charge, 6.0 + r + x)):
            for a in np.linspace(0.0, 2 * math.pi, 24, endpoint=False):
                u = np.array([math.cos(a), math.sin(a)])
                inside = Point(*(np.array([30.0, 22.0]) + (radius - 1e-3) * u))
                outside = Point(*(np.array([30.0, 22.0]) + (radius + OUT) * u))
                assert reg.contains(inside) and not reg.contains(outside), (x, radius, a)
        exact = math.pi * (6.0 + r + x) ** 2
        assert exact <= b.charge.area <= exact * (1 + 2 * OUT / (6.0 + r + x))
    # the ring of 7 is the annulus between the discs of 6 and 7: a 32 mm base whose edge is
    # 6.5" from where the charger may end its move is first charged on a 7
    assert th.least_roll(30.0 + 6.0 + r + 6.5, 22.0) == 7
    assert th.least_roll(30.0 + 6.0 + r + 12.5, 22.0) is None


def test_a_target_beyond_the_roll_is_not_charged_though_the_move_could_reach_it() -> None:
    """Rules notes K7: a roll of 7 cannot target a unit 7.5" away, though a 7" move would end
    within 2" of it; rolling 8, it can."""
    foe = _lone(20.0, 20.0, M=1.0)
    gap = 7.5
    tx = 20.0 + 1.0 + R32 + gap + R32  # a 32 mm target 7.5" from the charger's nearest end
    st = state([foe, _lone(tx, 20.0, uid="r", player="red")])
    th = unit_threat(st, "b")
    b7, b8 = th.band(7), th.band(8)
    assert b7 is not None and b8 is not None
    target = Point(tx, 20.0)
    assert b7.engage.distance(target) <= R32        # the move would get there
    assert b7.declare.distance(target) > R32 + 0.4  # the roll may not target it
    assert b8.charge.distance(target) <= R32


def _wall_distance(c: tuple[float, float], t: tuple[float, float], a: tuple[float, float],
                   b: tuple[float, float], r: float) -> float:
    """Length of the shortest path of a disc centre from ``c`` over the top of a wall whose top
    corners, grown by ``r``, are the circles about ``a`` (left) and ``b`` (right) to ``t``:
    tangent, arc, the flat top, arc, tangent."""
    def tangent(p: tuple[float, float], o: tuple[float, float], sign: float) -> tuple[float, float]:
        d = math.dist(p, o)
        ang = math.atan2(p[1] - o[1], p[0] - o[0]) + sign * math.acos(r / d)
        return math.sqrt(d * d - r * r), ang

    t1, phi1 = tangent(c, a, -1.0)   # the tangent point on a's upper left
    t2, phi2 = tangent(t, b, +1.0)   # on b's upper right
    up = math.pi / 2
    return t1 + r * (phi1 % (2 * math.pi) - up) + math.dist(a, b) + r * (up - phi2) + t2


def test_a_wall_the_charge_must_go_round() -> None:
    """An impassable wall from the battlefield's edge to y = 12 between a charger and its
    target: the charge goes over its top end. Hand-computed: 7.68" are needed, so a 7 fails and
    an 8 charges; without the wall the roll needed would be the target's distance, 6."""
    c, t = (10.0, 10.0), (18.0, 6.0)
    wall = rect("wall", "impassable", 14.0, 0.0, 14.5, 12.0)
    foe = _lone(*c, M=2.0)
    st = state([foe, _lone(*t, uid="r", player="red")], [wall])
    rho = R32 + 2.0 + R32
    need = _wall_distance(c, t, (14.0, 12.0), (14.5, 12.0), R32) - 2.0 - rho
    assert need == pytest.approx(7.68, abs=0.01)
    th = unit_threat(st, "b")
    target = Point(*t)
    assert th.band(7).charge.distance(target) > R32 + (8 - need) / 2  # type: ignore[union-attr]
    assert th.band(8).charge.distance(target) <= R32  # type: ignore[union-attr]
    open_ground = unit_threat(state([foe, _lone(*t, uid="r", player="red")]), "b")
    assert open_ground.least_roll(18.0 - R32, 6.0) == 6


def test_a_gap_only_a_small_base_passes() -> None:
    """Two impassable blocks 1.2" apart: a 25 mm charger passes between them and charges a
    target 3" beyond on a 6 (its distance, 5.88"); a 40 mm one must go round the blocks (more
    than 12")."""
    blocks = [rect("L", "impassable", 10.0, 20.0, 29.4, 21.0),
              rect("R", "impassable", 30.6, 20.0, 50.0, 21.0)]
    target = (30.0, 24.0)
    red = _lone(*target, uid="r", player="red")
    small = state([_lone(30.0, 16.0, M=1.0, base="25mm"), red], blocks)
    big = state([_lone(30.0, 16.0, M=1.0, base="40mm"), red], blocks)
    th_small = unit_threat(small, "b")
    th_big = unit_threat(big, "b")
    t = Point(*target)
    # the small one: the roll needed is the target's distance, 8 - 1 - r - r_t = 5.88
    assert th_small.band(5).charge.distance(t) > R32  # type: ignore[union-attr]
    assert th_small.band(6).charge.distance(t) <= R32  # type: ignore[union-attr]
    assert all(b.engage.is_empty or b.engage.distance(t) > R32 for b in th_big.bands)


def _screen_board(monster: bool = False):  # type: ignore[no-untyped-def]
    """A charger 5" behind a screen of nine 32 mm models too close for it to pass: its move must
    stop more than 2" short of the screen, so one path of M + X is too generous behind it. A
    MONSTER (60 mm, M 12) may pass over the screen in its move, not in its charge."""
    screen = unit("screen", "red", [(f"s{i}", 24 + 1.4 * i, 20.0) for i in range(9)])
    foe = unit("foe", "blue", [("f1", 30.0, 15.0)], base="60mm", M=12.0,
               keywords=("MONSTER",)) if monster else unit("foe", "blue", [("f1", 30.0, 15.0)])
    return state([screen, foe])


@pytest.mark.slow
@pytest.mark.parametrize("monster", [False, True])
def test_behind_a_screen_the_move_stops_short_and_the_bands_hold_every_charge(monster: bool
                                                                              ) -> None:
    """Every charge the oracle finds (ends of the move every 0.05" on the rim of the exact zone,
    then the engine's own geodesic disks, the screen in the way) lies in the band (never
    smaller), and the band is no more than half the source spacing beyond it (at most that much
    too generous in a roll)."""
    st = _screen_board(monster)
    th = unit_threat(st, "foe")
    zone = legal_zone(st, "f1", "normal").geometry
    ends = shapely.get_coordinates(shapely.segmentize(zone.boundary, 0.05))
    r = st.unit("foe").models[0].base.radius  # type: ignore[union-attr]
    screen = st.unit("screen")
    rm = reach_map(60.0, 44.0, r, tuple(sorted((m.at[0], m.at[1], m.base.radius)  # type: ignore[index]
                                               for m in screen.models)), ())  # type: ignore[union-attr]
    single = unit_threat(st, "foe")  # the same again: deterministic
    for x in (4, 7, 10):
        reached = shapely.union_all([rm.disk(tuple(q), x).region() for q in ends])
        # (shapely's own buffer: its arcs inscribed, so nothing outside the true growth)
        exact = reached.buffer(r + 2.0, quad_segs=64).intersection(shapely.box(0, 0, 60, 44))
        band = th.band(x).engage  # type: ignore[union-attr]
        # nothing of the exact region outside the band (but slivers of GEOS's rounding)
        edge = shapely.points(shapely.get_coordinates(shapely.segmentize(exact.boundary, 0.05)))
        assert float(shapely.distance(band, edge).max()) < 1e-5, x
        # how far the band reaches beyond (attained on its outline)
        rim = shapely.points(shapely.get_coordinates(shapely.segmentize(band.boundary, 0.05)))
        assert float(shapely.distance(exact, rim).max()) <= SPACING / 2 + 0.01, x
        assert band.equals(single.band(x).engage)  # type: ignore[union-attr]
    for x in range(3, MAX_ROLL):  # the bands grow with the roll
        lo, hi = th.band(x), th.band(x + 1)
        assert lo is not None and hi is not None
        pts = shapely.points(shapely.get_coordinates(lo.charge))
        assert float(shapely.distance(hi.charge, pts).max()) < 1e-6, x
    behind = Point(30.0, 20.0 + R32 + 2.5)
    if monster:  # it moves over the screen and charges from beyond it on a 3
        assert th.least_roll(behind.x, behind.y) == 3
    else:  # one path of M + X alone would have been 2 rolls too generous right behind it
        assert th.least_roll(behind.x, behind.y) >= 9  # type: ignore[operator]


def test_an_engaged_unit_falls_back_and_does_not_charge() -> None:
    th = unit_threat(load_scenario(SHIPPED / "demo.toml"), "genestealers")
    assert not th.charges and th.move == "fall-back" and not th.bands
    assert "cannot declare a charge" in th.reason and not th.move_zone.is_empty


def test_units_off_the_battlefield_and_blocks_say_why() -> None:
    demo = load_scenario(SHIPPED / "demo.toml")
    with pytest.raises(UserError, match="in strategic reserves"):
        unit_threat(demo, "bladeguard")
    with pytest.raises(UserError, match="embarked in"):
        unit_threat(demo, "assault-terminators")
    t9a = load_scenario(SHIPPED / "t9a-lines.toml")
    tool = rulesets.threat_queries(t9a)
    block = t9a.units[0].id
    with pytest.raises(UserError, match="t9a-2 answers no threat ranges"):
        tool.threat(t9a, block)
    with pytest.raises(UserError, match="t9a-2 answers no threat ranges"):
        tool.safe(t9a, block, "advance", Odds(9))
    assert tool.moves() == ()


# -- safe ground -------------------------------------------------------------------------------
def _safe_board():  # type: ignore[no-untyped-def]
    """Red's lone Lieutenant (40 mm) and a red squad of two behind a screen of five; blue's two
    gaunts (25 mm) 12" off, and a dense wall."""
    return state([
        unit("lt", "red", [("lt1", 30.0, 31.0)], base="40mm"),
        unit("sq", "red", [("sq1", 40.0, 31.0), ("sq2", 41.5, 31.0)]),
        unit("screen", "red", [(f"s{i}", 26.0 + 1.5 * i, 24.0) for i in range(5)]),
        unit("foe", "blue", [("f1", 30.0, 14.0), ("f2", 31.5, 14.0)], base="25mm"),
    ], [rect("wall", "dense", 36.0, 20.0, 36.5, 27.0, height=4.0)])


@pytest.mark.slow
@pytest.mark.parametrize(("who", "odds"), [("lt", "7+"), ("lt", "never"), ("sq", "9+")])
def test_safe_ground_holds_no_point_an_enemy_charges_at_the_odds(who: str, odds: str) -> None:
    """Sampled enemy ends (every 0.25" on the rim of each exact zone, a 0.5" grid inside) and
    the engine's own paths: no sampled point of safe ground is charged on a roll below the odds
    (a lone model must also be within the roll; a model of a unit of two may be charged because
    of the other). Points of the zone that are not safe are charged, some of them."""
    st = _safe_board()
    o = parse_odds(odds)
    sg = safe_ground(st, who, "normal", o)
    assert sg.counted == ("foe",)
    lone = who == "lt"
    radius = R40 if lone else R32
    oracle = Oracle(without(st, {who}), "foe", o.worst)
    found_threatened = 0
    for m in sg.models:
        pts = samples_in(m.safe, 0.4, boundary=0.2)
        assert len(pts) > 20, "a test of nothing"
        hit = oracle.charged(pts, radius, declared=not lone)
        bad = pts[hit]
        assert not len(bad), (m.model, bad[:3], oracle.witness(bad[0], radius))
        gone = samples_in(m.threatened, 0.5)
        found_threatened += int(oracle.charged(gone, radius, declared=not lone).sum())
    assert found_threatened > 0, "the oracle finds no charge at all: a test of nothing"


def test_safe_ground_on_the_demo_counts_and_skips_as_it_says() -> None:
    demo = load_scenario(SHIPPED / "demo.toml")
    sg = safe_ground(demo, "intercessors", "normal", parse_odds("9+"), objective=1)
    names = dict(sg.skipped)
    assert "genestealers" in names and "cannot declare a charge" in names["genestealers"]
    assert not set(sg.counted) & set(names)
    assert sg.objective == 1 and sg.odds.need == 9
    # the scouts fall back from the genestealers, which are then free to charge them
    scouts = safe_ground(demo, "scouts", "fall-back", parse_odds("9+"))
    assert "genestealers" in scouts.counted
    ox, oy = demo.objectives[0]
    for m in sg.models:
        assert m.safe.difference(m.zone).area < 1e-9
        if not m.safe.is_empty:
            far = max(Point(ox, oy).distance(Point(c)) for c in
                      shapely.get_coordinates(m.safe))
            assert far <= 3.0 + mm(20) + R32 + 1e-6  # within 3" of the 40 mm marker
    with pytest.raises(UserError, match="objective 9"):
        safe_ground(demo, "intercessors", "normal", parse_odds("9+"), objective=9)
    with pytest.raises(UserError, match="needs its roll"):
        safe_ground(demo, "intercessors", "advance", parse_odds("9+"))

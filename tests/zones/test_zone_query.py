"""The zone engine asked directly: a query of plain data, no game state, no ruleset.

Numbers and names a message quotes come from the query; the zone keeps the query, never a game
state; one seam picks the implementation; a ruleset's entry points give what the engine gives
for the query they build."""

from __future__ import annotations

import dataclasses
import math

import pytest
from shapely.geometry import Point

from tabletop import zones
from tabletop.errors import UserError
from tabletop.geometry.footprints import Round, parse_base
from tabletop.zones import (
    Area,
    Board,
    Body,
    Clearance,
    MoveQuery,
    Piece,
    PlacementQuery,
    Within,
    check_path,
    placement_zone,
    zone_of,
)

B32 = Round(32.0)
WALL = Piece("w1", ((20.0, 10.0), (22.0, 10.0), (22.0, 30.0), (20.0, 30.0)), "impassable",
             "impassable")
LOW = Piece("d1", ((30.0, 0.0), (31.0, 0.0), (31.0, 44.0), (30.0, 44.0)), "dense",
            "too tall for {mover}")


def _board(clearance: float = 3.0) -> Board:
    enemy = Body("e1", B32, (16.0, 20.0), enemy=True)
    friend = Body("f1", B32, (10.0, 24.0))
    return Board(60.0, 44.0, path_models=(enemy,), path_pieces=(WALL, LOW),
                 models=(Body("m1", B32, (10.0, 20.0)), enemy, friend), end_pieces=(WALL,),
                 clearance=clearance)


def _query(board: Board | None = None, limit: float = 6.0) -> MoveQuery:
    return MoveQuery(board or _board(), Body("m1", B32, (10.0, 20.0)), limit, "sprint")


def test_a_query_is_frozen_plain_data_and_its_board_is_compared_by_identity() -> None:
    q = _query()
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.limit = 7.0  # type: ignore[misc]
    assert hash(q) == hash(dataclasses.replace(q))
    assert _board() != _board()  # two boards: two phases' worth of work
    for f in dataclasses.fields(Body):
        assert f.type in ("str", "Footprint", "tuple[float, float]", "float", "bool"), f


def test_the_messages_quote_the_query() -> None:
    z = zone_of(_query())
    assert z.model == "m1" and z.move == "sprint" and z.max_distance == 6.0
    # within 3" (the board's clearance) of e1 at the end: the clearance is the query's
    why = z.explain(13.0, 22.5)
    engaged = [v for v in why if v.rule == "engaged"]
    assert engaged and engaged[0].limit == 3.0
    assert 'it must end more than 3.00" away' in engaged[0].message
    assert "enemy model e1" in engaged[0].message
    # too far: the move's name and limit are the query's
    far = z.explain(17.0, 40.0)
    assert any(v.rule == "too-far" and 'its 6.00" sprint move' in v.message for v in far)
    # a path over the dense piece: its why, with the mover's id in it
    check = check_path(_query(limit=30.0), [(34.0, 20.0)])
    crossing = {v.subject: v.message for v in check.violations if v.rule == "crosses-terrain"}
    assert set(crossing) == {"w1", "d1"} and '(too tall for m1)' in crossing["d1"]
    assert "(impassable)" in crossing["w1"]


def test_the_zone_keeps_its_query_and_no_game_state() -> None:
    from tabletop.state import GameState

    z = zone_of(_query())
    assert isinstance(z.query, MoveQuery)
    seen = [v for v in vars(z).values() if isinstance(v, GameState)]
    assert not seen
    assert z.contains(12.0, 16.0) and not z.contains(21.0, 20.0)
    path = z.path_to(12.0, 16.0)
    assert path is not None and math.isclose(path.length, math.dist((10.0, 20.0), (12.0, 16.0)))


def test_a_wider_clearance_takes_more_away() -> None:
    near = zone_of(_query(_board(2.0))).geometry
    wide = zone_of(_query(_board(3.0))).geometry
    # (within the engines' tolerance: the compiled core rounds to a 1e-7" grid)
    assert wide.area < near.area - 0.1 and wide.difference(near).area < 1e-6


def test_a_placement_keeps_its_rules_in_order() -> None:
    board = _board()
    mover = Body("p1", B32, (0.0, 0.0))
    q = PlacementQuery(board, mover, "drop", rules=(
        Area(((12.0, 0.0), (14.0, 0.0), (14.0, 44.0), (12.0, 44.0)), "no-land", "may not land "
             "there", limit=2.0),
        Clearance(8.0, "far-from-enemy")), engaged=False)
    z = placement_zone(q)
    assert z.move == "drop" and z.start is None and z.path_to(40.0, 20.0) is None
    assert z.contains(40.0, 20.0)
    why = z.explain(13.0, 14.0)
    assert [v.rule for v in why] == ["no-land", "far-from-enemy"]
    assert why[0].message == 'p1 may not land there'
    assert 'it must be more than 8.00" away' in why[1].message
    # a transport's range, with the circumscribed circle
    carrier = Body("t1", parse_base("oval 60x35mm"), (40.0, 20.0), 90.0)
    near = placement_zone(dataclasses.replace(q, rules=(), within=Within(
        (carrier,), 3.0, "in-range", "must stay by the carrier", ("t1",))))
    assert near.geometry.within(Point(40.0, 20.0).buffer(3.0 + 1.5))
    assert [v.rule for v in near.explain(50.0, 20.0)] == ["in-range"]


def test_a_closed_placement_refuses_everywhere() -> None:
    q = PlacementQuery(_board(), Body("p1", B32, (0.0, 0.0)), "drop",
                       closed=("too-soon", "not before round 2"))
    z = placement_zone(q)
    assert z.geometry.is_empty
    assert [v.message for v in z.explain(40.0, 20.0)][:1] == ["not before round 2"]


def test_a_bad_step_is_refused_by_the_query() -> None:
    with pytest.raises(UserError, match="a facing step is a number of degrees from 1 to 90"):
        MoveQuery(_board(), Body("m1", B32, (10.0, 20.0)), 6.0, step=0.5)


def test_one_seam_picks_the_implementation(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop.geometry.engine import engine_name
    from tabletop.zones import seam

    # the engine chosen (TABLETOP_ENGINE, else native where built): both are registered
    assert seam.engine().name == engine_name()
    assert [e.name for e in seam.engines()] == ["python", "native"]
    calls: list[MoveQuery] = []

    def fake(q: MoveQuery) -> zones.Zone:
        calls.append(q)
        return zones.build.zone_of(q)

    assert seam.register(seam.Engine("fake", fake, lambda: None)) is None
    try:
        monkeypatch.setattr(seam, "engine_name", lambda: "fake")
        q = _query()
        zone_of(q)
        assert calls == [q]
    finally:
        seam.unregister("fake")
    assert "fake" not in {e.name for e in seam.engines()}
    # an engine chosen with no implementation registered: the Python one answers
    monkeypatch.setattr(seam, "engine_name", lambda: "elsewhere")
    assert seam.engine().name == "python"


def test_a_rulesets_entry_point_is_the_engine_on_the_query_it_builds() -> None:
    import tabletop
    from tabletop.rulesets.wh40k_11e.zones import move_query

    state = tabletop.load_scenario("fall-back.toml")
    q = move_query(state, "sq1", "fall-back")
    assert move_query(state, "sq1", "normal").board is move_query(state, "sq2", "normal").board
    assert q.board.clearance == 2.0
    z = tabletop.legal_zone(state, "sq1", "fall-back")
    assert z.geometry.equals(zone_of(q).geometry) and z.mode == q.mode


def test_a_ruleset_without_model_zones_says_what_it_answers() -> None:
    import tabletop
    from tabletop import rulesets

    state = tabletop.load_scenario("t9a-lines.toml")
    with pytest.raises(UserError, match="rank-and-file blocks") as err:
        tabletop.legal_zone(state, "spearmen", "normal")
    assert "t9a-2" in str(err.value) and "wh40k-11e" in str(err.value)
    with pytest.raises(UserError, match="t9a-2 has no legal zone of a model"):
        rulesets.of(state).move_query(state, "spearmen", "advance")


def test_a_new_state_with_the_same_terrain_reuses_its_pieces() -> None:
    """States made from one another share their terrain tuple: a pick-up on a new state builds
    no terrain outline or polygon again (the window's moves, the benchmarks' cached pick-ups),
    and a piece's ring is its outline as floats, the first point not repeated."""
    import tabletop
    from tabletop.rulesets.wh40k_11e.zones import move_query

    state = tabletop.load_scenario("demo.toml")
    assert state.terrain
    model = next(m.id for _, m in state.placed_models())
    a = move_query(state, model, "normal").board
    b = move_query(dataclasses.replace(state), model, "normal").board
    assert a is not b and a.path_pieces == b.path_pieces and a.end_pieces == b.end_pieces
    assert all(p is q for p, q in zip(a.end_pieces, b.end_pieces, strict=True))
    closed = Piece("c", ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)))
    assert closed.ring == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0))


def test_an_identity_memo_holds_a_tuple_as_its_slots_allow() -> None:
    memo = zones.IdentityMemo(2)
    key = (1.0, 2.0)
    memo.of(key)["x"] = 1
    assert memo.of(key) == {"x": 1}
    assert memo.of(tuple(float(v) for v in (1, 2))) == {}  # an equal tuple is another object
    for k in range(3):
        memo.of((float(k),))
    assert memo.of(key) == {}


def test_an_outline_is_its_tuple_of_points_with_its_hash_kept() -> None:
    """``end.Outline`` (what ``outline_of`` makes: a piece's ring, a placed model's outline):
    equal to the plain tuple of its points, hashed as it (either finds the other in a dict),
    its hash computed once and kept, kept through pickling (the survey's processes); and a
    new game state's board holds the same outline objects as the state it was made from, so
    the per-phase caches' keys meet them hashed and stop comparing at their identity."""
    import pickle

    from tabletop.geometry.polygons import Outline
    from tabletop.rulesets.wh40k_11e.zones import board_of
    from tabletop.scenario.io import load_scenario
    from tabletop.zones.end import outline_of

    ring = outline_of(Point(1.0, 2.0).buffer(1.0, quad_segs=4))
    plain = tuple(ring)
    assert type(ring) is Outline and type(plain) is tuple
    assert ring == plain and hash(ring) == hash(plain)
    assert {plain: "a"}[ring] == "a" and {ring: "b"}[plain] == "b"
    assert ring._hash == hash(plain)  # kept after the first hash
    again = pickle.loads(pickle.dumps(ring))
    assert again == plain and hash(again) == hash(plain) and type(again) is Outline
    assert ring != tuple(reversed(plain)) and hash(ring) != hash(tuple(reversed(plain)))
    state = load_scenario("tabletop/scenarios/demo.toml")
    moved = dataclasses.replace(state)
    a, b = board_of(state, "red"), board_of(moved, "red")
    assert a is not b and a.path_pieces and a.end_pieces
    assert all(type(p.ring) is Outline for p in (*a.path_pieces, *a.end_pieces))
    assert all(p.ring is q.ring for p, q in zip(a.path_pieces, b.path_pieces, strict=True))


def test_an_identity_memo_forgets_the_least_recently_used_and_what_goes() -> None:
    """One dict look-up a memo however many slots: the least recently used object is
    forgotten first, and an object that goes is forgotten with it (its id may name another
    object later)."""
    import gc

    class Thing:
        pass

    memo = zones.IdentityMemo(2)
    a, b, c = Thing(), Thing(), Thing()
    memo.of(a)["k"] = "a"
    memo.of(b)["k"] = "b"
    assert memo.of(a) == {"k": "a"}  # a used last: b is the least recently used
    memo.of(c)["k"] = "c"
    assert memo.of(a) == {"k": "a"} and memo.of(c) == {"k": "c"} and memo.of(b) == {}
    assert memo.of(a) == {}  # (b came back: a, then used least recently, went)
    assert [r() for r, _ in memo._known.values()] == [b, a]
    del b
    gc.collect()
    assert [r() for r, _ in memo._known.values()] == [a]


def test_a_friend_moving_keeps_the_round_movers_phase_and_an_enemy_moving_does_not() -> None:
    """Each game state has its boards; a round mover's phase (reach map, end regions) depends
    only on the models in its way, its enemies and the terrain, so a state where a friend moved
    finds the phase built for the state before (by the identities of those parts: the units a
    move left as they were keep their bodies), and one where an enemy moved builds its own,
    the zone the same as on a fresh start."""
    import tabletop
    from tabletop.rulesets.wh40k_11e.zones import move_query
    from tabletop.zones import build

    state = tabletop.load_scenario("demo.toml")
    mover_unit, mover = next((u, m) for u, m in state.placed_models()
                             if isinstance(m.base, Round))
    friend = next(u for u in state.units if u.player == mover_unit.player
                  and u.id != mover_unit.id and any(m.at is not None for m in u.models))
    enemy = next(u for u in state.units if u.player != mover_unit.player
                 and any(m.at is not None for m in u.models))

    def nudged(unit: object) -> object:
        ms = tuple(dataclasses.replace(m, at=(m.at[0] + 0.01, m.at[1]))
                   if m.at is not None else m for m in unit.models)  # type: ignore[attr-defined]
        return dataclasses.replace(unit, models=ms)  # type: ignore[type-var]

    build.clear_caches()
    q = move_query(state, mover.id, "normal")
    ph = build.phase_geometry(q)
    q_friend = move_query(state.with_unit(nudged(friend)), mover.id, "normal")
    assert q_friend.board is not q.board
    assert build.phase_geometry(q_friend) is ph
    moved = state.with_unit(nudged(enemy))
    q_enemy = move_query(moved, mover.id, "normal")
    ph_enemy = build.phase_geometry(q_enemy)
    assert ph_enemy is not ph and ph_enemy.key != ph.key
    got = zone_of(q_enemy).geometry
    build.clear_caches()
    fresh = zone_of(move_query(moved, mover.id, "normal")).geometry
    assert got.symmetric_difference(fresh).area < 1e-9


def test_a_friend_moving_keeps_the_turning_movers_phase() -> None:
    """A turning mover's phase (its layers' map and end regions) is found on the new board a
    friend's move makes, by the identities of the models and pieces in its way, as a round
    mover's is."""
    import tabletop
    from tabletop.rulesets.wh40k_11e.zones import move_query
    from tabletop.zones import build

    state = tabletop.load_scenario("demo.toml")
    mover_unit, mover = next((u, m) for u, m in state.placed_models()
                             if not isinstance(m.base, Round))
    friend = next(u for u in state.units if u.player == mover_unit.player
                  and u.id != mover_unit.id and any(m.at is not None for m in u.models))
    moved = dataclasses.replace(friend, models=tuple(
        dataclasses.replace(m, at=(m.at[0] + 0.01, m.at[1])) if m.at is not None else m
        for m in friend.models))
    build.clear_caches()
    q = move_query(state, mover.id, "normal")
    q2 = move_query(state.with_unit(moved), mover.id, "normal")
    assert q2.board is not q.board
    assert build.turn_phase(q2, 15.0) is build.turn_phase(q, 15.0)

"""Legal move zones, set-up zones and path checks of wh40k-11e models: its rules as queries of
the zone engine (:mod:`tabletop.zones`).

The legal zone of a model for a move is the set of base-centre positions, keeping the model's
facing, that it can reach and end at (``docs/rulings.md``):

*reach*
    some chain of straight lines of total length at most ``D`` keeps the base off the path
    obstacles: enemy models (none in Desperate Escape; a MONSTER or VEHICLE mover in a normal
    or advance move passes over models that are neither), impassable terrain, dense terrain
    the model cannot cross (INFANTRY, BEASTS, SWARM and MOBILE cross dense features; other
    models only features with ``height <= 2``) and the outside of the battlefield; a unit
    that takes to the skies (FLY) passes over every model and all terrain;
*end*
    the base overlaps no other model and no terrain feature (light, dense, impassable; an
    ``area`` has no effect), lies wholly on the battlefield, and is more than 2" (engagement
    range) from every enemy base (normal, advance and fall-back moves).

``D`` is the model's own M, M plus the advance roll, or M for a fall-back move (2" less when it
takes to the skies, unless HOVER). :func:`move_query` turns that into a
:class:`~tabletop.zones.query.MoveQuery` (a :class:`~tabletop.zones.query.Board` per state and
kind of mover, kept while the state lives); :func:`legal_zone`, :func:`validate_path` and
:func:`setup_zone` are the entry points (``tabletop.legal_zone`` and friends). How exact the
zones are and how they are built: :mod:`tabletop.zones`.

>>> import tabletop
>>> state = tabletop.load_scenario("fall-back.toml")
>>> legal_zone(state, "sq1", "fall-back").max_distance
6.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tabletop.errors import UserError, describe, ident, quote
from tabletop.geometry.footprints import footprint_distance
from tabletop.geometry.tolerance import EPS
from tabletop.rulesets.wh40k_11e import rulings
from tabletop.state import GameState, Model, Unit
from tabletop.zones import (
    Area,
    Board,
    Body,
    Clearance,
    IdentityMemo,
    MoveQuery,
    PathCheck,
    Piece,
    PlacementQuery,
    Within,
    Zone,
    check_path,
    fmt,
    placement_zone,
    zone_of,
)
from tabletop.zones.end import outline_of

__all__ = [
    "MAX_ROLL",
    "MODES",
    "MOVES",
    "NAME",
    "Zone",
    "board_of",
    "fly_penalty",
    "legal_zone",
    "move_query",
    "placement_query",
    "setup_zone",
    "validate_path",
]

NAME = "wh40k-11e"
"""The ruleset these zones answer for."""
MOVES = ("normal", "advance", "fall-back")
"""Move types with a legal zone."""
MODES = ("ordered-retreat", "desperate-escape")
"""Fall-back modes."""
MAX_ROLL = 36
"""Largest advance roll accepted, after modifiers (the smallest is 1)."""

_STATES = IdentityMemo(4)
"""Per game state: its boards (one per player and kind of mover) and its models as bodies."""
_UNITS = IdentityMemo(1024)
"""Per unit: its placed models as bodies, per player asking (:func:`_bodies`)."""
_TERRAIN = IdentityMemo(4)
"""Per tuple of terrain (shared by the states made from one another): its pieces as the engine
sees them, so that a pick-up on a new state builds no outline or polygon again."""


def _ours(state: GameState) -> None:
    """Refuse a state of another ruleset, saying what that ruleset answers instead."""
    from tabletop import rulesets

    ruleset = rulesets.of(state)
    if ruleset.name != NAME:
        raise UserError(f"legal zones and paths are {NAME}'s (single models); this scenario "
                        f"plays {ruleset.name}: {ruleset.zones}")


def _find(state: GameState, model_id: str) -> tuple[Unit, Model]:
    try:
        return state.model(model_id)
    except KeyError:
        raise UserError(f"no model {quote(str(model_id))} in this scenario (a wh40k model id is "
                        "needed)") from None


def fly_penalty(unit: Unit) -> float:
    """What taking to the skies costs ``unit``: ``FLY_PENALTY`` inches, none with HOVER."""
    return 0.0 if unit.has(rulings.HOVER) else rulings.FLY_PENALTY


def _everyone(state: GameState, player: str) -> list[tuple[Body, bool]]:
    """Every model on the battlefield as a body, an enemy or not of ``player``, and whether
    its unit is MONSTER or VEHICLE (kept per state, and per unit: the units a move leaves as
    they were keep their bodies, the same objects, so that the engine finds what it built for
    them by identity)."""
    memo = _STATES.of(state)
    got = memo.get(("bodies", player))
    if got is None:
        got = []
        for u in state.units:
            if isinstance(u, Unit):
                got.extend(_bodies(u, player))
        memo[("bodies", player)] = got
    return got  # type: ignore[no-any-return]


def _bodies(unit: Unit, player: str) -> list[tuple[Body, bool]]:
    """The placed models of ``unit`` as :func:`_everyone` makes them (kept per unit)."""
    memo = _UNITS.of(unit)
    got = memo.get(player)
    if got is None:
        big = any(unit.has(k) for k in rulings.BIG)
        got = memo[player] = [
            (Body(m.id, m.base, (float(m.at[0]), float(m.at[1])), float(m.facing),
                  enemy=unit.player != player), big)
            for m in unit.models if m.at is not None]
    return got  # type: ignore[no-any-return]


def _why(kind: str) -> str:
    return "impassable" if kind == "impassable" else \
        f"dense and taller than {fmt(rulings.DENSE_LOW)}, which {{mover}} cannot cross"


def board_of(state: GameState, player: str, *, desperate: bool = False,
             over_small: bool = False, crosses_dense: bool = False, fly: bool = False
             ) -> Board:
    """What stands on the battlefield of ``state`` for a mover of ``player``'s (kept per state
    and kind of mover): the enemy models in its way (none in Desperate Escape or when it takes
    to the skies; only MONSTER and VEHICLE ones ``over_small``), the terrain in its way
    (impassable, and dense taller than ``DENSE_LOW`` unless it ``crosses_dense``; none when
    it takes to the skies), every model and terrain feature it may not end on, and the
    engagement range."""
    key = ("board", player, desperate, over_small, crosses_dense, fly)
    memo = _STATES.of(state)
    got = memo.get(key)
    if got is None:
        everyone = _everyone(state, player)
        path_models = tuple(o for o, big in everyone if o.enemy and not fly and not desperate
                            and not (over_small and not big))
        path_pieces, end_pieces = _pieces(state, crosses_dense, fly)
        bf = state.battlefield
        got = Board(bf.width, bf.depth, path_models, path_pieces, tuple(o for o, _ in everyone),
                    end_pieces, rulings.ENGAGEMENT_RANGE)
        memo[key] = got
    return got  # type: ignore[no-any-return]


def _pieces(state: GameState, crosses_dense: bool, fly: bool
            ) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """The terrain that stops a mover's path (impassable, and dense taller than ``DENSE_LOW``
    unless it ``crosses_dense``; none when it takes to the skies) and the terrain it may not
    end on, as pieces (kept per tuple of terrain)."""
    memo = _TERRAIN.of(state.terrain)
    key = (crosses_dense, fly)
    got = memo.get(key)
    if got is None:
        if "outlines" not in memo:
            memo["outlines"] = {t.id: outline_of(t.shape) for t in state.terrain}
        outline = memo["outlines"]
        if "end" not in memo:
            memo["end"] = tuple(Piece(t.id, outline[t.id], t.kind) for t in state.terrain
                                if t.kind in rulings.END_TERRAIN)
        path = tuple(
            Piece(t.id, outline[t.id], t.kind, _why(t.kind)) for t in state.terrain
            if not fly and (t.kind == "impassable" or (
                t.kind == "dense" and not crosses_dense and t.height > rulings.DENSE_LOW)))
        got = memo[key] = (path, memo["end"])
    return got  # type: ignore[no-any-return]


def _mover(model: Model) -> Body:
    assert model.at is not None
    return Body(model.id, model.base, (float(model.at[0]), float(model.at[1])), model.facing)


def move_query(state: GameState, model_id: str, move: str, *, roll: int | None = None,
               mode: str | None = None, fly: bool = False, step: float | None = None
               ) -> MoveQuery:
    """The zone engine's query for ``model_id`` making ``move`` (arguments as
    :func:`legal_zone`); :class:`UserError` for an unknown model, move or mode, a missing or
    bad roll, a model not on the battlefield, a unit that cannot fly."""
    _ours(state)
    unit, model = _find(state, model_id)
    if move not in MOVES:
        raise UserError(f"unknown move {quote(str(move))}: write one of {', '.join(MOVES)}")
    if model.at is None:
        raise UserError(f"model {quote(model_id)} is not on the battlefield")
    if move == "advance":
        if roll is None:
            raise UserError("an advance move needs the advance roll (--roll N)")
        if (not isinstance(roll, int | np.integer) or isinstance(roll, bool)
                or not 1 <= roll <= MAX_ROLL):
            raise UserError(f"an advance roll is a whole number from 1 to {MAX_ROLL}, not "
                            f"{describe(roll)}")
    elif roll is not None:
        raise UserError(f"a roll only applies to an advance move, not to a {move} move")
    if move == "fall-back":
        if mode is None:
            mode = "desperate-escape" if unit.battle_shocked else "ordered-retreat"
        if mode not in MODES:
            raise UserError(f"unknown fall-back mode {quote(str(mode))}: write one of "
                            f"{', '.join(MODES)}")
        if mode == "ordered-retreat" and unit.battle_shocked:
            raise UserError(f"unit {quote(unit.id)} is battle-shocked: it can only fall back by "
                            "Desperate Escape")
    elif mode is not None:
        raise UserError(f"a mode only applies to a fall-back move, not to a {move} move")
    if fly and not unit.has(rulings.FLY):
        raise UserError(f"unit {quote(unit.id)} cannot take to the skies: only a unit with the "
                        f"{rulings.FLY} keyword can (leave out fly / --fly)")
    m = unit.move_of(model)
    limit = m + float(roll) if move == "advance" and roll is not None else m
    if fly:  # taking to the skies: 2" less unless HOVER, over every model and all terrain
        limit = max(limit - fly_penalty(unit), 0.0)
    big_mover = any(unit.has(k) for k in rulings.BIG)
    board = board_of(state, unit.player, desperate=mode == "desperate-escape",
                     over_small=big_mover and move in ("normal", "advance"),
                     crosses_dense=any(unit.has(k) for k in rulings.DENSE_CROSSERS), fly=fly)
    return MoveQuery(board, _mover(model), float(limit), move, mode, step)


def legal_zone(state: GameState, model_id: str, move: str, *, roll: int | None = None,
               mode: str | None = None, fly: bool = False, step: float | None = None
               ) -> Zone:
    """The legal zone of ``model_id`` for ``move`` (see the module docstring).

    Parameters
    ----------
    state : GameState
        The board, with every model where it stands.
    model_id : str
        A wh40k model on the battlefield.
    move : {"normal", "advance", "fall-back"}
    roll : int, optional
        The advance roll (required for ``"advance"``).
    mode : {"ordered-retreat", "desperate-escape"}, optional
        Fall-back mode; default Ordered Retreat, or Desperate Escape if battle-shocked.
    fly : bool
        The unit takes to the skies (a FLY unit, rulings): its move is 2" shorter unless it has
        HOVER and passes over every model and all terrain; where it may end does not change.
    step : float, optional
        For a model on a non-round base, the facing step of its layers in degrees (default
        15, 30 for ovals; :mod:`tabletop.geometry.turning`): smaller is closer to the true zone
        and slower. Between 1 and 90.

    Raises
    ------
    UserError
        Unknown model, move or mode, missing roll, model not on the battlefield, a scenario of
        another ruleset.
    """
    return zone_of(move_query(state, model_id, move, roll=roll, mode=mode, fly=fly, step=step))


def validate_path(state: GameState, model_id: str, move: str,
                  points: Sequence[Sequence[float]], *, roll: int | None = None,
                  mode: str | None = None, fly: bool = False) -> PathCheck:
    """Check a drawn path of straight lines and turns for ``model_id`` making ``move``.

    ``points`` are ``(x, y)`` or ``(x, y, facing)``: the base moves straight to each point at
    its current facing, then turns in place to the facing given (the shorter way); a turn alone
    is a point at the same place with a new facing. The path may begin with the model's
    position (its facing, if given, a turn at the start); otherwise it starts there.

    The swept area of the base along each line is tested exactly (not by sampling), each turn
    by the exact test of :func:`tabletop.zones.paths.turn_violations`, the length of the lines
    (turns cost nothing) against the limit ``D``, and the end against the end rules at the
    final facing. ``fly``: the unit takes to the skies, as in :func:`legal_zone`.

    Returns
    -------
    PathCheck
        ``legal``, ``length``, ``limit`` and every violation with its geometry; ``points``
        carry facings when the base turns or the path gave any.
    """
    return check_path(move_query(state, model_id, move, roll=roll, mode=mode, fly=fly),
                      points)


def placement_query(state: GameState, model_id: str, kind: str, *, mode: str | None = None
                    ) -> PlacementQuery:
    """The zone engine's query for setting ``model_id`` up (arguments as :func:`setup_zone`)."""
    _ours(state)
    unit, model = _find(state, model_id)
    if kind not in ("ingress", "disembark"):
        raise UserError(f"unknown set-up {quote(str(kind))}: write ingress or disembark")
    if model.at is not None:
        # measure from a copy of the state without this model on the board
        model = Model(model.id, model.base, None, model.facing, model.wounds, model.M)
        state = state.with_model(model)
    board = board_of(state, unit.player)
    mover = Body(model.id, model.base, (0.0, 0.0), model.facing)
    if kind == "ingress":
        return _ingress(state, unit, board, mover, mode)
    return _disembark(state, unit, board, mover, mode)


def _ingress(state: GameState, unit: Unit, board: Board, mover: Body, mode: str | None
             ) -> PlacementQuery:
    """Ingress (rulings): wholly within 6" of a battlefield edge, more than 8" from every enemy
    model, not in the enemy deployment zone before battle round 3, from battle round 2; with
    ``mode="deep-strike"`` anywhere more than 8" from every enemy model."""
    W, H = board.width, board.depth
    rnd = state.battle.round
    enemy_player = state.opponent(unit.player)
    edge = rulings.INGRESS_EDGE
    deep = mode == "deep-strike"  # anywhere more than 8" from enemies (rules-notes item 11)
    rules: list[Area | Clearance] = []
    if W > 2 * edge and H > 2 * edge and not deep:
        inner = (W - edge, edge), (W - edge, H - edge), (edge, H - edge), (edge, edge)
        rules.append(Area(inner, "ingress-edge", f"must be set up wholly within {fmt(edge)} of "
                          "a battlefield edge", limit=edge))
    rules.append(Clearance(rulings.INGRESS_ENEMY, "ingress-enemy", "be"))
    dz = None if deep else enemy_player.zone_polygon
    if dz is not None and rnd < rulings.INGRESS_ZONE_FROM_ROUND:
        rules.append(Area(outline_of(dz), "ingress-zone", f"would be in "
                          f"{ident(enemy_player.id)}'s deployment zone before battle round "
                          f"{rulings.INGRESS_ZONE_FROM_ROUND}", (enemy_player.id,)))
    closed = ("ingress-round", f"ingress moves are allowed from battle round "
              f"{rulings.INGRESS_FIRST_ROUND} (this is round {rnd})") \
        if rnd < rulings.INGRESS_FIRST_ROUND else None
    return PlacementQuery(board, mover, "ingress", mode, tuple(rules), closed=closed,
                          engaged=False)


def _disembark(state: GameState, unit: Unit, board: Board, mover: Body, mode: str | None
               ) -> PlacementQuery:
    """Disembark: wholly within 3" of the transport (``rapid``, ``tactical``) or 6"
    (``combat``, ``emergency``), not within engagement range of enemy models except, in combat
    mode, of those the transport is engaged with."""
    if not unit.transport:
        raise UserError(f"unit {quote(unit.id)} is not embarked in a transport")
    try:
        tunit = state.unit(unit.transport)
    except KeyError:
        raise UserError(f"transport {quote(str(unit.transport))} of unit {quote(unit.id)} is "
                        "not in the scenario") from None
    if not isinstance(tunit, Unit) or not any(m.at is not None for m in tunit.models):
        raise UserError(f"transport {quote(str(unit.transport))} is not on the battlefield")
    dmode = mode or "tactical"
    if dmode not in rulings.DISEMBARK_RANGE:
        raise UserError(f"unknown disembark mode {quote(str(dmode))}: write one of "
                        f"{', '.join(rulings.DISEMBARK_RANGE)}")
    rng = rulings.DISEMBARK_RANGE[dmode]
    transport = tuple(_mover(m) for m in tunit.models if m.at is not None)
    engaged_with_transport = frozenset(
        o.id for o in board.enemies if o.id != mover.id and any(
            footprint_distance(t.footprint, t.at, t.facing, o.footprint, o.at, o.facing)
            <= rulings.ENGAGEMENT_RANGE + EPS for t in transport))
    within = Within(transport, rng, "disembark-range", f"must be set up wholly within "
                    f"{fmt(rng)} of transport {ident(unit.transport)} ({dmode} disembark)",
                    tuple(sorted(t.id for t in transport)))
    return PlacementQuery(board, mover, "disembark", mode, within=within,
                          ignore=engaged_with_transport if dmode == "combat" else frozenset())


def setup_zone(state: GameState, model_id: str, kind: str, *, mode: str | None = None) -> Zone:
    """Where ``model_id`` may be set up: ``kind`` is ``"ingress"`` or ``"disembark"``.

    Ingress (rulings): wholly within 6" of a battlefield edge, more than 8" from every enemy
    model, not in the enemy deployment zone before battle round 3, from battle round 2; with
    ``mode="deep-strike"`` anywhere more than 8" from every enemy model, from battle round 2.
    Disembark: wholly within 3" of the transport (``mode`` ``"rapid"`` or ``"tactical"``,
    the default) or 6" (``"combat"``, ``"emergency"``); not within engagement range of enemy
    models except, in combat mode, of those the transport is engaged with. Both: no overlap
    with any model or terrain feature, wholly on the battlefield. The zone has no reach part
    (``path_to`` is ``None``); non-round bases use the exact footprint at the model's facing,
    except for the disembark range, measured with the circumscribed circle (never permissive).
    """
    return placement_zone(placement_query(state, model_id, kind, mode=mode))

"""The parts of a scenario file that fails its schema: each item validated by itself, so that
the checks beyond the schema still run on what does validate and one run reports both kinds
of problem (:func:`partial_state`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from tabletop.scenario.build import build_state
from tabletop.scenario.checks import Partial
from tabletop.scenario.schema import (
    FORMAT,
    MAX_NUMBER,
    SCENARIO_MODELS,
    BattlefieldModel,
    BattleModel,
    DataModel,
    FloorModel,
    Id,
    PlayerModel,
    Point,
    T9aBattleModel,
    T9aScenario,
    T9aTerrain,
    T9aUnit,
    TriggerModel,
    Wh40kModel,
    Wh40kScenario,
    Wh40kTerrain,
    Wh40kUnit,
)
from tabletop.state import (
    GameState,
)

__all__ = [
    "partial_state",
]

class _Wh40kUnitKeys(Wh40kUnit):
    """A wh40k-11e unit's own keys; its models are validated one by one."""

    models: list[Any]  # type: ignore[assignment]

_STRICT = ConfigDict(strict=True, allow_inf_nan=False)

_ID: TypeAdapter[str] = TypeAdapter(Id, config=_STRICT)

_POINT: TypeAdapter[tuple[float, float]] = TypeAdapter(Point, config=_STRICT)

_M = TypeVar("_M", bound=BaseModel)


def _valid(model: type[_M], value: Any) -> _M | None:
    try:
        return model.model_validate(value)
    except ValidationError:
        return None

_STAND_INS: dict[str, Any] = {"name": None, "M": 0.0, "Ld": 0, "OC": 0,
                              "starting_strength": None, "battle_shocked": False, "flags": []}
"""Keys of a wh40k-11e unit no check of the board reads, with what stands in for an invalid one
(``W`` too: see :func:`_unit_keys`), so that a unit with a bad ``M`` still has its models
checked (on the battlefield, overlapping, wounds)."""


def _unit_keys(item: Any) -> _Wh40kUnitKeys | None:
    """A wh40k-11e unit's keys, valid, or with stand-ins for the invalid ones that no check of
    the board reads (and without unknown keys); ``None`` when a key the checks need is bad."""
    try:
        return _Wh40kUnitKeys.model_validate(item)
    except ValidationError as exc:
        bad = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
        unknown = {str(e["loc"][0]) for e in exc.errors()
                   if e["loc"] and e["type"] == "extra_forbidden"}
    if not isinstance(item, dict) or not bad <= {*_STAND_INS, "W", *unknown}:
        return None
    fixed = {k: v for k, v in item.items() if k not in bad}
    fixed.update({k: v for k, v in _STAND_INS.items() if k in bad and k not in unknown})
    if "W" in bad:  # unknown: no model's wounds can be judged against it
        fixed["W"] = max([w for m in item.get("models") or [] if isinstance(m, dict)
                          for w in [m.get("wounds")] if isinstance(w, int)
                          and not isinstance(w, bool) and w > 0] or [1])
    return _valid(_Wh40kUnitKeys, {k: v for k, v in fixed.items() if v is not None})


def _read_id(item: Any) -> str | None:
    """The id of a (possibly invalid) item of the file, if it is a valid id."""
    if not isinstance(item, dict):
        return None
    try:
        return _ID.validate_python(item.get("id"))
    except ValidationError:
        return None


def _items(raw: dict[str, Any], key: str) -> list[Any] | None:
    """The array ``raw[key]`` (empty when absent), ``None`` if it is something else."""
    value = raw.get(key, [])
    return value if isinstance(value, list) else None


def _moving_unit(battle: BattleModel | None, raw: dict[str, Any]) -> str | None:
    if battle is not None:
        return battle.selection.unit if battle.selection is not None else None
    sel = raw.get("battle")
    sel = sel.get("selection") if isinstance(sel, dict) else None
    unit = sel.get("unit") if isinstance(sel, dict) else None
    return unit if isinstance(unit, str) else None


def partial_state(raw: dict[str, Any]) -> tuple[GameState, Partial]:
    """The state of the parts of a parsed file that validate, and what it leaves out.

    For a file that fails its schema: each of ``battle``, ``battlefield``, and each item of
    ``players``, ``terrain``, ``objectives``, ``units`` (each model of a wh40k-11e unit on its
    own) and ``triggers`` is validated by itself and left out when invalid (a wh40k-11e unit
    whose only bad keys are ones no check of the board reads, ``M`` or ``Ld``, is kept with
    stand-ins for them, so that its models are still checked). The
    :class:`~tabletop.scenario.checks.Partial` maps the items kept to their indices in the file and
    records the ids of the items left out, for :func:`~tabletop.scenario.checks.check_state`.
    ``raw["ruleset"]`` must be a known ruleset.
    """
    ruleset = str(raw.get("ruleset"))
    t9a = SCENARIO_MODELS.get(ruleset) is T9aScenario
    ids: list[tuple[str, str]] = []

    battlefield = _valid(BattlefieldModel, raw.get("battlefield", {}))
    battle = _valid(T9aBattleModel if t9a else BattleModel, raw.get("battle"))

    raw_players = _items(raw, "players") if "players" in raw else None
    players: list[tuple[int, PlayerModel]] = []
    player_ids: list[str] | None = [] if raw_players is not None else None
    for i, item in enumerate(raw_players or []):
        player = _valid(PlayerModel, item)
        ident = player.id if player is not None else _read_id(item)
        if ident is not None:
            ids.append((f"players[{i}].id", ident))
        if player is not None:
            players.append((i, player))
        if ident is None or player_ids is None:
            player_ids = None
        else:
            player_ids.append(ident)

    terrain_model: type[Wh40kTerrain | T9aTerrain] = T9aTerrain if t9a else Wh40kTerrain
    terrain: list[tuple[int, Wh40kTerrain | T9aTerrain]] = []
    for i, item in enumerate(_items(raw, "terrain") or []):
        piece = _valid(terrain_model, item)
        ident = piece.id if piece is not None else _read_id(item)
        if ident is not None:
            ids.append((f"terrain[{i}].id", ident))
        if piece is not None:
            terrain.append((i, piece))

    objectives: list[tuple[int, tuple[float, float]]] = []
    for k, item in enumerate(_items(raw, "objectives") or []):
        try:
            objectives.append((k, _POINT.validate_python(item)))
        except ValidationError:
            pass

    raw_units = _items(raw, "units")
    units: list[tuple[int, Wh40kUnit | T9aUnit, tuple[int, ...]]] = []
    skipped_units: set[str] | None = set() if raw_units is not None else None
    skipped_models: set[str] | None = set() if raw_units is not None else None
    for i, item in enumerate(raw_units or []):
        unit: Wh40kUnit | T9aUnit | None = (_valid(T9aUnit, item) if t9a
                                            else _unit_keys(item))
        ident = unit.id if unit is not None else _read_id(item)
        if ident is not None:
            ids.append((f"units[{i}].id", ident))
        if unit is None:
            if ident is None or skipped_units is None:
                skipped_units = None
            else:
                skipped_units.add(ident)
        models: list[Wh40kModel] = []
        kept: list[int] = []
        raw_models = item.get("models", []) if isinstance(item, dict) and not t9a else []
        if not isinstance(raw_models, list):
            skipped_models = None
            raw_models = []
        for j, m in enumerate(raw_models):
            model = _valid(Wh40kModel, m)
            mid = model.id if model is not None else _read_id(m)
            if mid is not None:
                ids.append((f"units[{i}].models[{j}].id", mid))
            if model is not None and unit is not None:
                models.append(model)
                kept.append(j)
            elif mid is None or skipped_models is None:
                skipped_models = None
            else:
                skipped_models.add(mid)
        if isinstance(unit, _Wh40kUnitKeys):
            units.append((i, unit.model_copy(update={"models": models}), tuple(kept)))
        elif unit is not None:
            units.append((i, unit, ()))

    triggers: list[tuple[int, TriggerModel]] = []
    for i, item in enumerate([] if t9a else _items(raw, "triggers") or []):
        trigger = _valid(TriggerModel, item)
        if trigger is not None:
            triggers.append((i, trigger))

    floors: list[tuple[int, FloorModel]] = []
    for i, item in enumerate([] if t9a else _items(raw, "floors") or []):
        floor = _valid(FloorModel, item)
        ident = floor.id if floor is not None else _read_id(item)
        if ident is not None:
            ids.append((f"floors[{i}].id", ident))
        if floor is not None:
            floors.append((i, floor))

    fields: dict[str, Any] = {
        "format": FORMAT, "name": "", "ruleset": ruleset,
        "battlefield": battlefield or BattlefieldModel(),
        "battle": battle or BattleModel.model_construct(round=1, active_player="",
                                                        phase="movement"),
        "players": [p for _, p in players], "terrain": [t for _, t in terrain],
        "objectives": [o for _, o in objectives], "units": [u for _, u, _ in units],
    }
    if not t9a:
        fields["triggers"] = [t for _, t in triggers]
        fields["floors"] = [f for _, f in floors]
        fields["data"] = _valid(DataModel, raw["data"]) if "data" in raw else None
        unknown = raw.get("unknown_height")
        fields["unknown_height"] = unknown if (
            isinstance(unknown, int | float) and not isinstance(unknown, bool)
            and 0 <= unknown <= MAX_NUMBER) else None
    scenario = (T9aScenario if t9a else Wh40kScenario).model_construct(**fields)
    partial = Partial(
        players=tuple(i for i, _ in players), terrain=tuple(i for i, _ in terrain),
        objectives=tuple(k for k, _ in objectives), units=tuple(i for i, _, _ in units),
        models=tuple(kept for _, _, kept in units), triggers=tuple(i for i, _ in triggers),
        floors=tuple(i for i, _ in floors),
        ids=tuple(ids),
        player_ids=tuple(player_ids) if player_ids is not None else None,
        player_count=len(raw_players) if raw_players is not None else None,
        skipped_units=frozenset(skipped_units) if skipped_units is not None else None,
        skipped_models=frozenset(skipped_models) if skipped_models is not None else None,
        battle=battle is not None, battlefield=battlefield is not None,
        moving_unit=_moving_unit(battle, raw),
    )
    return build_state(scenario), partial

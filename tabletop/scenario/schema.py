"""Pydantic models of scenario format 1 (``docs/scenario-format.md``) and its JSON Schema.

The models mirror the file exactly: same keys, same nesting, unknown keys refused
(``extra="forbid"``), no silent conversions (``strict``: ``M = "6"`` or ``W = 6.5`` are errors,
an integer is accepted where a number is expected). The top-level ``ruleset`` chooses the model:
:class:`Wh40kScenario` or :class:`T9aScenario` (a discriminated union, :data:`Scenario`).

Besides the keys of the spec, the program adds the keys a game saved mid-phase needs:
``battle.step``, ``battle.dice_used``, ``battle.selection`` (the unit being moved, where its models
started and the staged actions of ``docs/actions.md``) and ``flags`` on units.

These models are only the file's shape; :mod:`tabletop.scenario.io` turns them into the frozen
:class:`tabletop.state.GameState` and :mod:`tabletop.scenario.checks` checks what a schema cannot
(ids, references, overlaps, the battlefield's edges).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tabletop import rulesets
from tabletop.errors import describe
from tabletop.geometry.footprints import BaseParseError, Footprint, Rect, parse_base
from tabletop.rules.actions import MAX_NUMBER as ACTION_MAX_NUMBER
from tabletop.state import Block, Unit

__all__ = [
    "FORMAT",
    "SCENARIO_ADAPTER",
    "SCENARIO_MODELS",
    "Scenario",
    "T9aScenario",
    "Wh40kScenario",
    "json_schema",
]

FORMAT = 1
"""The scenario format this program reads and writes."""

MAX_NUMBER = ACTION_MAX_NUMBER
"""Largest size of any number in inches or degrees (positions, sizes, facings)."""

MAX_BASE_MM = 10_000.0
"""Largest base size in millimetres."""

MAX_POLYGON_POINTS = 64
"""Most points of a polygon (terrain, a deployment zone, a hull): the real 40kdc layouts have
at most 8 a piece and 28 a zone; a hull of 2,000 points on an enemy made a bike's zone take
14 s (every vertex a corner of the visibility graph), a 256-point hull moving took 11 s."""

MAX_AREA_POINTS = 1024
"""Most points of the outline of a terrain piece without effect on movement (wh40k-11e
``area``, t9a-2 ``open``): no zone, path or passage reads it, so its cost is drawing and
checking it; the current community layouts' traced terrain areas have up to 348."""

NO_MOVEMENT_EFFECT = ("area", "open")
"""Terrain kinds that no move reads (drawn, kept): their outlines may have up to
:data:`MAX_AREA_POINTS` points."""

INT_MAX = 2**63 - 1
"""Largest integer accepted anywhere (TOML integers are 64-bit)."""


# -- value types ----------------------------------------------------------------------------------

def _text(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise PydanticCustomError("text", "not valid Unicode text (a lone surrogate)") from exc
    return value


def _in_range(value: float) -> float:
    """``value`` as a float, refused if it is larger than :data:`MAX_NUMBER` (an integer too
    large for a float too)."""
    if (isinstance(value, int) or math.isfinite(value)) and abs(value) > MAX_NUMBER:
        raise PydanticCustomError(
            "range", "{got} is out of range: numbers in a scenario are at most 1000000 in size",
            {"got": describe(value)})
    return float(value)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PydanticCustomError("number", "expected a number, got {got}",
                                  {"got": describe(value)})
    return _in_range(value)


def _point(value: Any) -> tuple[float, float]:
    if type(value) is list and len(value) == 2:
        # (the usual point, two floats in range, taken as they are: a file's hulls and
        # polygons hold hundreds of thousands)
        x, y = value
        if type(x) is float and type(y) is float and -MAX_NUMBER <= x <= MAX_NUMBER \
                and -MAX_NUMBER <= y <= MAX_NUMBER:
            return (x, y)
    if (not isinstance(value, list | tuple) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)):
        raise PydanticCustomError("point", "a point is [x, y] (two numbers, inches), got {got}",
                                  {"got": describe(value)})
    return (_in_range(value[0]), _in_range(value[1]))


def _path_point(value: Any) -> tuple[float, ...]:
    if (not isinstance(value, list | tuple) or len(value) not in (2, 3)
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)):
        raise PydanticCustomError(
            "point", "a path point is [x, y] or [x, y, facing] (numbers: inches, degrees), "
                     "got {got}", {"got": describe(value)})
    return tuple(_in_range(v) for v in value)


def _polygon(value: Any, most: int = MAX_POLYGON_POINTS) -> Any:
    if not isinstance(value, list | tuple):
        raise PydanticCustomError(
            "polygon", "a polygon is an array of [x, y] points, got {got}",
            {"got": describe(value)})
    if len(value) < 3:
        raise PydanticCustomError(
            "polygon", "a polygon needs at least 3 points, got {n}", {"n": len(value)})
    if len(value) > most:
        raise PydanticCustomError(
            "polygon", "a polygon has at most {most} points, got {n}",
            {"most": most, "n": f"{len(value):,}"})
    return list(value)


def _area_polygon(value: Any) -> Any:
    return _polygon(value, MAX_AREA_POINTS)


def _terrain_points(polygon: list[Any], info: ValidationInfo) -> list[Any]:
    """A terrain piece with an effect on movement has at most :data:`MAX_POLYGON_POINTS`."""
    kind = info.data.get("kind")
    if kind is not None and kind not in NO_MOVEMENT_EFFECT and len(polygon) > MAX_POLYGON_POINTS:
        raise PydanticCustomError(
            "polygon", "a polygon has at most {most} points, got {n}",
            {"most": MAX_POLYGON_POINTS, "n": f"{len(polygon):,}"})
    return polygon


def _id(value: str) -> str:
    if not value:
        raise PydanticCustomError("id", "an id must not be empty")
    return value


@lru_cache(maxsize=256)
def base_of(value: str) -> Footprint:
    """The base a base string of the format describes (``"hull"``: a stand-in triangle), at
    most :data:`MAX_BASE_MM` across; :class:`BaseParseError` with what is accepted otherwise
    (the scenario files' check, and ``tabletop fit --base``'s). Kept for the last few strings
    (a file's thousands of models share a few bases; a refusal is not kept)."""
    base = parse_base(value, hull=((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)))
    sizes = [getattr(base, name) for name in ("diameter_mm", "length_mm", "width_mm",
                                               "frontage_mm", "depth_mm") if hasattr(base, name)]
    if any(not math.isfinite(v) or v > MAX_BASE_MM for v in sizes):
        raise BaseParseError(f"base {describe(value)} is too large: at most "
                             f"{MAX_BASE_MM:g} mm across")
    return base


def _base(value: str) -> str:
    try:
        base_of(value)
    except BaseParseError as exc:
        raise PydanticCustomError("base", str(exc)) from exc
    return value


def _rect_base(value: str) -> str:
    _base(value)
    if not isinstance(parse_base(value), Rect):
        raise PydanticCustomError(
            "base", 'a block of ranks and files stands on rectangular bases: write "rect FxDmm", '
                    'e.g. "rect 20x20mm", got {got}', {"got": describe(value)})
    return value


def _format(value: int) -> int:
    if value != FORMAT:
        raise PydanticCustomError(
            "format", "unsupported format {got}; this program reads format 1", {"got": value})
    return value


Text = Annotated[str, AfterValidator(_text)]
Id = Annotated[str, AfterValidator(_text), AfterValidator(_id)]
Number = Annotated[float, BeforeValidator(_number), Field(allow_inf_nan=False)]
NonNegative = Annotated[float, BeforeValidator(_number), Field(ge=0, allow_inf_nan=False)]
Positive = Annotated[float, BeforeValidator(_number), Field(gt=0, allow_inf_nan=False)]
Int = Annotated[int, Field(ge=-INT_MAX - 1, le=INT_MAX)]
Count = Annotated[int, Field(ge=0, le=INT_MAX)]
PositiveInt = Annotated[int, Field(ge=1, le=INT_MAX)]
_Finite = Annotated[float, Field(allow_inf_nan=False)]
Point = Annotated[
    tuple[_Finite, _Finite],
    BeforeValidator(_point),
    Field(json_schema_extra={"description": "[x, y] in inches"}),
]
PathPoint = Annotated[
    tuple[_Finite, ...],
    BeforeValidator(_path_point),
    Field(json_schema_extra={"description": "[x, y] in inches, or [x, y, facing]: move there, "
                                            "then turn to the facing (degrees)"}),
]
PolygonPoints = Annotated[list[Point], BeforeValidator(_polygon),
                          Field(json_schema_extra={"description": "absolute [x, y] points",
                                                   "minItems": 3,
                                                   "maxItems": MAX_POLYGON_POINTS})]
TerrainPoints = Annotated[list[Point], BeforeValidator(_area_polygon),
                          Field(json_schema_extra={
                              "description": f"absolute [x, y] points (at most "
                                             f"{MAX_POLYGON_POINTS} for a piece that stops or "
                                             f"ends moves, {MAX_AREA_POINTS} for kinds "
                                             f"{', '.join(NO_MOVEMENT_EFFECT)})",
                              "minItems": 3, "maxItems": MAX_AREA_POINTS})]
BaseText = Annotated[str, AfterValidator(_base), Field(
    json_schema_extra={"description": '"32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'})]
RectBaseText = Annotated[str, AfterValidator(_rect_base), Field(
    json_schema_extra={"description": '"rect FxDmm": frontage x depth'})]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


# -- common tables --------------------------------------------------------------------------------

class BattlefieldModel(_Strict):
    """``[battlefield]``: its size in inches."""

    width: Positive = 60.0
    depth: Positive = 44.0


class PlayerModel(_Strict):
    """One of ``[[players]]``."""

    id: Id
    name: Text | None = None
    cp: Count = 0
    deployment_zone: PolygonPoints | None = None
    used: list[Text] = []
    """Program-added: once-per-battle abilities the player has used (``"insane-bravery"``)."""


class StartModel(_Strict):
    """Where a model (or a t9a block: ``model`` is the unit id) stood when its unit was selected."""

    model: Id
    at: Point | None = None
    facing: Number = 0.0


class MoveAction(_Strict):
    """``{"do": "move", "model", "path", "facing"?}``."""

    do: Literal["move"]
    model: Id
    path: Annotated[list[PathPoint], Field(min_length=1)]
    facing: Number | None = None


class PlaceAction(_Strict):
    """``{"do": "place", "model", "at", "facing"?}``."""

    do: Literal["place"]
    model: Id
    at: Point
    facing: Number | None = None


class DistanceAction(_Strict):
    """``{"do": "forward" | "backward" | "sideways", "distance"}``."""

    do: Literal["forward", "backward", "sideways"]
    distance: Number


class WheelAction(_Strict):
    """``{"do": "wheel", "angle"}``: degrees, positive clockwise."""

    do: Literal["wheel"]
    angle: Number


class ReformAction(_Strict):
    """``{"do": "reform", "files", "facing"}``."""

    do: Literal["reform"]
    files: PositiveInt
    facing: Number


StagedAction = Annotated[
    MoveAction | PlaceAction | DistanceAction | WheelAction | ReformAction,
    Field(discriminator="do"),
]


class SelectionModel(_Strict):
    """``battle.selection`` (program-added): the unit being moved and what is staged for it."""

    unit: Id
    move: Text
    mode: Text | None = None
    roll: Int | None = None
    start: list[StartModel] = []
    staged: list[StagedAction] = []
    files: PositiveInt | None = None
    before: dict[str, Any] | None = None
    """The ruleset's record of the unit before it was selected (restored by a refused commit)."""


class RollModel(_Strict):
    """One of ``battle.rolls`` (program-added): a roll made this phase for a unit's move, which
    stands (rulings: "Dice stand")."""

    unit: Id
    what: Text
    dice: list[Annotated[int, Field(ge=1, le=6)]]


class BattleModel(_Strict):
    """``[battle]``: round, active player, phase, dice; step, selection and rolls are
    program-added."""

    round: PositiveInt
    active_player: Id
    phase: Literal["command", "movement"]
    """The phases of wh40k-11e where a game can stand (``next`` passes through the others)."""
    seed: Count | None = None
    step: Text | None = None
    dice_used: Count = 0
    selection: SelectionModel | None = None
    rolls: list[RollModel] = []


class T9aBattleModel(BattleModel):
    """``[battle]`` of t9a-2: besides the spec's ``command`` and ``movement``, its phase may be
    any phase of the t9a-2 turn (program-added), so a game saved after its Movement phase
    loads."""

    phase: Literal["command", "charge", "movement", "magic",  # type: ignore[assignment]
                   "shooting", "melee"]


class TriggerModel(_Strict):
    """One of ``[[triggers]]`` (program-added): a rule attached to a point of the turn.

    ``at``: a point key (``"movement.start"``, ``"command.end.mission"``, ``"unit.move.end"``) or
    a phrase ("at the start of the Movement phase"); ``effect``: one of the ruleset's trigger
    effects (wh40k-11e: ``gain-cp`` with ``target`` and ``amount``, ``battle-shock-roll`` with
    ``unit``, ``desperate-escape-test`` with ``unit`` and ``modifier``, ``flag`` with ``unit`` and
    ``flag``, ``note`` with ``text``), checked with the whole file.
    """

    at: Text
    effect: Text
    name: Text | None = None
    player: Id | None = None
    target: Id | None = None
    amount: Int | None = None
    unit: Id | None = None
    flag: Text | None = None
    text: Text | None = None
    modifier: Int | None = None


# -- wh40k-11e ------------------------------------------------------------------------------------

class Wh40kTerrain(_Strict):
    """A terrain piece of wh40k-11e; ``height_known`` (program-added): ``false`` when the data
    gave no height, which is then the scenario's ``unknown_height``."""

    id: Id
    kind: Literal["area", "light", "dense", "impassable"]
    polygon: TerrainPoints
    height: NonNegative = 0.0
    height_known: bool = True

    _points = field_validator("polygon")(_terrain_points)

    @model_validator(mode="after")
    def _height_or_unknown(self) -> Wh40kTerrain:
        if not self.height_known and "height" in self.model_fields_set:
            raise PydanticCustomError(
                "height", 'a piece with height_known = false takes its height from the '
                          'scenario\'s "unknown_height"; give "height" or "height_known = '
                          'false", not both')
        return self


class Wh40kModel(_Strict):
    """One model of a wh40k-11e unit."""

    id: Id
    base: BaseText
    at: Point | None = None
    facing: Number = 0.0
    wounds: PositiveInt | None = None
    M: NonNegative | None = None
    hull: PolygonPoints | None = None

    @model_validator(mode="after")
    def _hull_matches_base(self) -> Wh40kModel:
        is_hull = self.base.strip().lower() == "hull"
        if is_hull and self.hull is None:
            raise PydanticCustomError(
                "hull", 'base "hull" needs a "hull" polygon (inches, relative to the model\'s '
                        "centre, facing 0)")
        if not is_hull and self.hull is not None:
            raise PydanticCustomError(
                "hull", 'a "hull" polygon is only for base = "hull" (the base is {base})',
                {"base": describe(self.base)})
        return self


class Wh40kUnit(_Strict):
    """A wh40k-11e unit."""

    id: Id
    name: Text | None = None
    player: Id
    keywords: list[Text] = []
    M: NonNegative
    W: PositiveInt
    Ld: Int
    OC: Count
    starting_strength: PositiveInt | None = None
    battle_shocked: bool = False
    location: Literal["battlefield", "strategic-reserves", "embarked"] = "battlefield"
    transport: Id | None = None
    models: Annotated[list[Wh40kModel], Field(min_length=1)]
    flags: list[Text] = []


def _rulesets(unit_type: type, terrain: type[BaseModel]) -> tuple[str, ...]:
    """The registered rulesets whose scenarios hold units of ``unit_type`` on ``terrain``."""
    kinds = set(terrain.model_fields["kind"].annotation.__args__)  # type: ignore[union-attr]
    return tuple(r.name for r in rulesets.REGISTRY.values()
                 if r.unit_type is unit_type and set(r.terrain_kinds) == kinds)


_MODELS_RULESETS = _rulesets(Unit, Wh40kTerrain)
"""Rulesets of individually placed models (wh40k-11e) whose files this schema reads."""


class FloorModel(_Strict):
    """One of ``[[floors]]`` (program-added): a surface above the ground of a terrain feature
    (an upper floor; ``roof``: the feature has a roof). Kept and drawn; no effect on movement."""

    id: Id
    level: PositiveInt = 1
    roof: bool = False
    polygon: PolygonPoints


class DataModel(_Strict):
    """``[data]`` (program-added): where the battlefield came from (the data package and
    version, the layout, deployment map and mission matchup ids)."""

    source: Text
    version: Text | None = None
    layout: Text | None = None
    deployment: Text | None = None
    mission_matchup: Text | None = None
    mission: Text | None = None


class Wh40kScenario(_Strict):
    """A scenario of a ruleset of individually placed models (``"wh40k-11e"``)."""

    format: Annotated[int, AfterValidator(_format)]
    name: Text
    description: Text | None = None
    ruleset: Literal[_MODELS_RULESETS]  # type: ignore[valid-type]
    battlefield: BattlefieldModel = BattlefieldModel()
    battle: BattleModel
    players: list[PlayerModel]
    terrain: list[Wh40kTerrain] = []
    objectives: list[Point] = []
    units: list[Wh40kUnit] = []
    triggers: list[TriggerModel] = []
    unknown_height: NonNegative | None = None
    """Program-added: the height of the terrain pieces with ``height_known = false``."""
    floors: list[FloorModel] = []
    data: DataModel | None = None


# -- t9a-2 ----------------------------------------------------------------------------------------

class T9aTerrain(_Strict):
    """A terrain piece of t9a-2; ``dangerous``: the X of Dangerous Terrain (X) of a piece of kind
    ``"dangerous"`` (1 to 5, default 1)."""

    id: Id
    kind: Literal["open", "impassable", "dangerous"]
    polygon: TerrainPoints
    height: NonNegative = 0.0
    dangerous: Annotated[int, Field(ge=1, le=5)] | None = None

    _points = field_validator("polygon")(_terrain_points)

    @model_validator(mode="after")
    def _dangerous_only_on_dangerous(self) -> T9aTerrain:
        if self.dangerous is not None and self.kind != "dangerous":
            raise PydanticCustomError(
                "dangerous", '"dangerous" (the X of Dangerous Terrain (X)) is only for terrain '
                             'of kind "dangerous", not "{kind}"', {"kind": self.kind})
        return self


class T9aUnit(_Strict):
    """A t9a-2 unit: a block of ``models`` rectangular bases in ranks of ``files``."""

    id: Id
    name: Text | None = None
    player: Id
    Adv: NonNegative
    Mar: NonNegative
    Dis: Int
    base: RectBaseText
    models: PositiveInt
    files: PositiveInt
    starting_models: PositiveInt | None = None
    at: Point
    facing: Number = 0.0
    fleeing: bool = False
    flags: list[Text] = []


_BLOCKS_RULESETS = _rulesets(Block, T9aTerrain)
"""Rulesets of rank-and-file blocks (t9a-2) whose files this schema reads."""


class T9aScenario(_Strict):
    """A scenario of a ruleset of rank-and-file blocks (``"t9a-2"``)."""

    format: Annotated[int, AfterValidator(_format)]
    name: Text
    description: Text | None = None
    ruleset: Literal[_BLOCKS_RULESETS]  # type: ignore[valid-type]
    battlefield: BattlefieldModel = BattlefieldModel()
    battle: T9aBattleModel
    players: list[PlayerModel]
    terrain: list[T9aTerrain] = []
    objectives: list[Point] = []
    units: list[T9aUnit] = []


Scenario = Annotated[Wh40kScenario | T9aScenario, Field(discriminator="ruleset")]
"""A scenario file of either ruleset, chosen by its ``ruleset`` key."""

SCENARIO_ADAPTER: TypeAdapter[Wh40kScenario | T9aScenario] = TypeAdapter(Scenario)
"""Validates a parsed file (a dict) into :class:`Wh40kScenario` or :class:`T9aScenario`."""

SCENARIO_MODELS: dict[str, type[Wh40kScenario | T9aScenario]] = {
    **dict.fromkeys(_MODELS_RULESETS, Wh40kScenario), **dict.fromkeys(_BLOCKS_RULESETS,
                                                                       T9aScenario)}
"""The scenario model of each registered ruleset, by the name its ``ruleset`` key holds: the
model of its kind of units (``Ruleset.unit_type``) whose terrain kinds are the ruleset's."""

_UNREAD = set(rulesets.names()) - set(SCENARIO_MODELS)
if _UNREAD:
    raise RuntimeError("no scenario model reads the files of " + ", ".join(sorted(_UNREAD))
                       + ": its units or terrain kinds differ from every model's")
for _name, _model in SCENARIO_MODELS.items():
    _battle = _model.model_fields["battle"].annotation
    assert {"command", "movement"} | {  # the spec's, and every phase where a game can stand
        p.name for p in rulesets.get(_name).turn.phases if any(step.stop for step in p.steps)
    } == set(_battle.model_fields["phase"].annotation.__args__)  # type: ignore[union-attr]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of scenario format 1 (both rulesets, chosen by ``ruleset``)."""
    schema = SCENARIO_ADAPTER.json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tabletop scenario, format 1",
        "description": "A game state of " + " or ".join(rulesets.names())
                       + ": battlefield, terrain, players, units. "
                       "Inches for distances, millimetres for bases, x right, y down.",
        **schema,
    }

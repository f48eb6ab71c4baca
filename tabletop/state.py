"""The board model: an immutable snapshot of a game.

Everything here is a frozen dataclass of tuples, numbers, strings and footprints, so a state can be
hashed, compared, pickled and shared between workers. The rules core works on these objects only;
pydantic models stay in :mod:`tabletop.scenario`.

Changing a state means building a new one (``dataclasses.replace`` or the ``with_*`` helpers).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal, TypeAlias

from shapely.geometry import Polygon

from tabletop.geometry.blocks import BlockGeom
from tabletop.geometry.footprints import Footprint, Rect, polygon_of
from tabletop.geometry.tolerance import mm

Point: TypeAlias = tuple[float, float]
"""A position ``(x, y)`` in inches."""

Location: TypeAlias = Literal["battlefield", "strategic-reserves", "embarked"]

UNKNOWN_HEIGHT = 3.0
"""The height, inches, of a terrain piece whose data gives none (a scenario's
``unknown_height`` overrides it): taller than the 2" up to which wh40k-11e lets every model
cross dense terrain, so a dense wall of unknown height stops the models that do not cross dense
terrain, as the data's dense features that do have a height (3" to 6") all would. Heights
matter here only for that crossing rule (``docs/data.md``)."""


@dataclass(frozen=True)
class Battlefield:
    """The playing surface, ``width`` along x and ``depth`` along y, in inches."""

    width: float = 60.0
    depth: float = 44.0

    @cached_property
    def polygon(self) -> Polygon:
        """The battlefield as a rectangle."""
        return Polygon([(0, 0), (self.width, 0), (self.width, self.depth), (0, self.depth)])


@dataclass(frozen=True)
class Player:
    """One of the two players."""

    id: str
    name: str | None = None
    cp: int = 0
    deployment_zone: tuple[Point, ...] | None = None
    used: tuple[str, ...] = ()
    """Once-per-battle abilities the player has used (e.g. ``"insane-bravery"``)."""

    @cached_property
    def zone_polygon(self) -> Polygon | None:
        """The deployment zone as a polygon, if the file gives one."""
        return polygon_of(self.deployment_zone) if self.deployment_zone else None


@dataclass(frozen=True)
class Terrain:
    """A terrain piece: an absolute polygon in inches, its kind and height."""

    id: str
    kind: str
    polygon: tuple[Point, ...]
    height: float = 0.0
    dangerous: int | None = None
    """t9a-2: the X of Dangerous Terrain (X) of a piece of kind ``dangerous`` (``None``: the
    ruleset's default)."""
    height_known: bool = True
    """``False``: the data gave no height; ``height`` is then the scenario's
    :attr:`GameState.unknown_height` (or the ruling's default), applied when the file is read."""

    @cached_property
    def shape(self) -> Polygon:
        """The terrain piece as a shapely polygon (repeated vertices removed)."""
        return polygon_of(self.polygon)


@dataclass(frozen=True)
class Floor:
    """A surface above the ground of a terrain feature: an upper floor (``level`` 1 or more)
    and whether the feature has a roof. Kept from the data and drawn; it changes no movement in
    this 2D simulator, where every model stands on the ground (see the data page of the docs)."""

    id: str
    polygon: tuple[Point, ...]
    level: int = 1
    roof: bool = False


@dataclass(frozen=True)
class DataSource:
    """Where a scenario's battlefield came from: the data package and its version, the layout,
    deployment map and mission matchup ids (``None``: not from that data, or not chosen)."""

    source: str
    version: str | None = None
    layout: str | None = None
    deployment: str | None = None
    mission_matchup: str | None = None
    mission: str | None = None


@dataclass(frozen=True)
class Model:
    """One model of a wh40k-11e unit."""

    id: str
    base: Footprint
    at: Point | None = None
    facing: float = 0.0
    wounds: int | None = None
    """Wounds left; ``None`` means the unit's W (unhurt)."""
    M: float | None = None
    """Move characteristic override; ``None`` means the unit's M."""

    @property
    def on_battlefield(self) -> bool:
        """Whether the model stands on the battlefield."""
        return self.at is not None

    @cached_property
    def footprint(self) -> Polygon:
        """The placed footprint (circumscribed polygon for round outlines)."""
        if self.at is None:
            raise ValueError(f"model {self.id} is not on the battlefield")
        return self.base.placed(self.at[0], self.at[1], self.facing)


@dataclass(frozen=True)
class Unit:
    """A wh40k-11e unit."""

    id: str
    player: str
    keywords: tuple[str, ...]
    M: float
    W: int
    Ld: int
    OC: int
    models: tuple[Model, ...]
    name: str | None = None
    starting_strength: int | None = None
    """Starting strength; ``None`` means the number of models in the file."""
    battle_shocked: bool = False
    location: Location = "battlefield"
    transport: str | None = None
    flags: tuple[str, ...] = ()
    """Effects that last until the end of the turn (e.g. ``"advanced"``, ``"fell-back"``)."""

    def has(self, keyword: str) -> bool:
        """Whether the unit has ``keyword`` (case-insensitive)."""
        return keyword.upper() in (k.upper() for k in self.keywords)

    @property
    def strength(self) -> int:
        """Starting strength, defaulting to the number of models."""
        return self.starting_strength if self.starting_strength is not None else len(self.models)

    def wounds_of(self, model: Model) -> int:
        """Wounds left on ``model``."""
        return self.W if model.wounds is None else model.wounds

    def move_of(self, model: Model) -> float:
        """The M characteristic that applies to ``model``."""
        return self.M if model.M is None else model.M


@dataclass(frozen=True)
class Block:
    """A t9a-2 unit: ``models`` rectangular bases in ranks of ``files``."""

    id: str
    player: str
    Adv: float
    Mar: float
    Dis: int
    base: Footprint
    models: int
    files: int
    at: Point
    facing: float = 0.0
    name: str | None = None
    starting_models: int | None = None
    fleeing: bool = False
    flags: tuple[str, ...] = ()

    @property
    def ranks(self) -> int:
        """Number of ranks, counting an incomplete last rank."""
        return -(-self.models // self.files)

    @property
    def start_models(self) -> int:
        """Starting number of models, defaulting to ``models``."""
        return self.starting_models if self.starting_models is not None else self.models

    @cached_property
    def geom(self) -> BlockGeom:
        """The block's geometry as it stands (bases, boundary, arcs, moves)."""
        base = self.base
        if isinstance(base, Rect):
            w, d = mm(base.frontage_mm), mm(base.depth_mm)
        else:
            w = d = 2.0 * base.radius
        return BlockGeom(w, d, self.models, max(1, min(self.files, self.models)),
                         (float(self.at[0]), float(self.at[1])), float(self.facing))


AnyUnit: TypeAlias = Unit | Block


@dataclass(frozen=True)
class Selection:
    """The unit being moved right now and what has been staged for it (saved mid-move too).

    ``start`` holds, for every model of a wh40k unit, ``(model_id, at, facing)`` as it was when the
    unit was selected (``at`` is ``None`` for a model set up from reserves or a transport); for a
    t9a block a single ``(unit_id, at, facing)``. ``staged`` holds the staged actions in order, as
    action objects of ``docs/actions.md`` (``{"do": "move", ...}``, ``{"do": "forward", ...}``), so
    undo drops the last one and replays the rest from ``start``. Treat the dicts as read-only.
    """

    unit: str
    move: str
    mode: str | None = None
    roll: int | None = None
    start: tuple[tuple[str, Point | None, float], ...] = ()
    staged: tuple[dict[str, object], ...] = ()
    files: int | None = None
    """A t9a block's number of files when it was selected."""
    before: dict[str, object] | None = None
    """What the ruleset restores when the selection is taken back (JSON-like, owned by the
    ruleset): for wh40k-11e the unit's flags, battle-shock and place before it was selected (the
    dice and casualties stand)."""


@dataclass(frozen=True)
class Roll:
    """A roll made for a unit's move this phase: it stands (rulings: "Dice stand").

    ``what`` names the roll (``"advance"``, ``"desperate-escape"``, ``"march-test"``); a new
    selection of the unit in the same phase reuses ``dice`` instead of rolling again.
    """

    unit: str
    what: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Battle:
    """Where the game stands: battle round, active player, phase and step, dice."""

    round: int
    active_player: str
    phase: str
    seed: int | None = None
    step: str | None = None
    """Step within the phase; ``None`` means the phase's first step."""
    dice_used: int = 0
    """How many dice have been rolled from ``seed`` so far (dice are a pure function of both)."""
    selection: Selection | None = None
    """The unit being moved, if a move is in progress."""
    rolls: tuple[Roll, ...] = ()
    """The rolls made this phase for units' moves, which stand (cleared when the phase ends)."""


@dataclass(frozen=True)
class GameState:
    """The whole state of a game at one moment (scenario format 1)."""

    name: str
    ruleset: str
    battle: Battle
    players: tuple[Player, Player]
    battlefield: Battlefield = field(default_factory=Battlefield)
    terrain: tuple[Terrain, ...] = ()
    objectives: tuple[Point, ...] = ()
    units: tuple[AnyUnit, ...] = ()
    description: str | None = None
    triggers: tuple[dict[str, object], ...] = ()
    """Rules the scenario attaches to points of the turn (``triggers``: data triggers of
    :func:`tabletop.rules.turns.data_trigger`, plain JSON-like tables; treat as read-only)."""
    unknown_height: float | None = None
    """The height, inches, of the terrain pieces whose data gave none (``height_known``
    false); ``None``: :data:`UNKNOWN_HEIGHT`."""
    floors: tuple[Floor, ...] = ()
    """Upper floors and roofs of terrain features (no effect on movement)."""
    data: DataSource | None = None
    """The data the battlefield was imported from, if any."""

    # -- look-ups -------------------------------------------------------------------------
    def player(self, player_id: str) -> Player:
        """The player with ``player_id``."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def opponent(self, player_id: str) -> Player:
        """The other player."""
        for p in self.players:
            if p.id != player_id:
                return p
        raise KeyError(player_id)

    def unit(self, unit_id: str) -> AnyUnit:
        """The unit with ``unit_id``."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def model(self, model_id: str) -> tuple[Unit, Model]:
        """The wh40k unit and model with ``model_id``."""
        for u in self.units:
            if isinstance(u, Unit):
                for m in u.models:
                    if m.id == model_id:
                        return u, m
        raise KeyError(model_id)

    def placed_models(self) -> tuple[tuple[Unit, Model], ...]:
        """Every wh40k model on the battlefield with its unit."""
        return tuple((u, m) for u in self.units if isinstance(u, Unit)
                     for m in u.models if m.at is not None)

    # -- changes --------------------------------------------------------------------------
    def with_unit(self, unit: AnyUnit) -> GameState:
        """A new state with ``unit`` replacing the unit of the same id."""
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def with_model(self, model: Model) -> GameState:
        """A new state with ``model`` replacing the model of the same id."""
        unit, _ = self.model(model.id)
        models = tuple(model if m.id == model.id else m for m in unit.models)
        return self.with_unit(replace(unit, models=models))

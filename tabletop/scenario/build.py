"""The frozen :class:`~tabletop.state.GameState` of a validated scenario model (the schema's
pydantic models stop here: nothing past scenario I/O sees them).
"""

from __future__ import annotations

from typing import Any

from tabletop.geometry.footprints import parse_base
from tabletop.scenario.schema import (
    T9aScenario,
    T9aUnit,
    Wh40kScenario,
    Wh40kUnit,
)
from tabletop.state import (
    UNKNOWN_HEIGHT,
    Battle,
    Battlefield,
    Block,
    DataSource,
    Floor,
    GameState,
    Model,
    Player,
    Roll,
    Selection,
    Terrain,
    Unit,
)

__all__ = ["build_state", "jsonish"]

def jsonish(value: Any) -> Any:
    """``value`` with its tuples as lists, nested (as JSON would read it back)."""
    if isinstance(value, tuple | list):
        return [jsonish(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonish(v) for k, v in value.items()}
    return value


def build_state(model: Wh40kScenario | T9aScenario) -> GameState:
    """The frozen :class:`GameState` of a validated scenario model."""
    b = model.battle
    selection = None
    if b.selection is not None:
        s = b.selection
        selection = Selection(
            unit=s.unit, move=s.move, mode=s.mode, roll=s.roll,
            start=tuple((e.model, e.at, e.facing) for e in s.start),
            staged=tuple(jsonish(a.model_dump(exclude_none=True)) for a in s.staged),
            files=s.files,
            before=jsonish(s.before) if s.before is not None else None,
        )
    battle = Battle(round=b.round, active_player=b.active_player, phase=b.phase, seed=b.seed,
                    step=b.step, dice_used=b.dice_used, selection=selection,
                    rolls=tuple(Roll(r.unit, r.what, tuple(r.dice)) for r in b.rolls))
    players = tuple(Player(id=p.id, name=p.name, cp=p.cp,
                           deployment_zone=tuple(p.deployment_zone)
                           if p.deployment_zone is not None else None,
                           used=tuple(p.used))
                    for p in model.players)
    unknown = getattr(model, "unknown_height", None)
    applied = UNKNOWN_HEIGHT if unknown is None else unknown
    terrain = tuple(Terrain(id=t.id, kind=t.kind, polygon=tuple(t.polygon),
                            height=t.height if getattr(t, "height_known", True) else applied,
                            dangerous=getattr(t, "dangerous", None),
                            height_known=getattr(t, "height_known", True))
                    for t in model.terrain)
    data = getattr(model, "data", None)
    units: list[Unit | Block] = []
    for u in model.units:
        if isinstance(u, Wh40kUnit):
            units.append(Unit(
                id=u.id, player=u.player, keywords=tuple(u.keywords), M=u.M, W=u.W, Ld=u.Ld,
                OC=u.OC, name=u.name, starting_strength=u.starting_strength,
                battle_shocked=u.battle_shocked, location=u.location, transport=u.transport,
                flags=tuple(u.flags),
                models=tuple(Model(id=m.id, base=parse_base(m.base, tuple(m.hull) if m.hull
                                                            else None),
                                   at=m.at, facing=m.facing, wounds=m.wounds, M=m.M)
                             for m in u.models),
            ))
        else:
            assert isinstance(u, T9aUnit)
            units.append(Block(
                id=u.id, player=u.player, Adv=u.Adv, Mar=u.Mar, Dis=u.Dis,
                base=parse_base(u.base), models=u.models, files=u.files, at=u.at,
                facing=u.facing, name=u.name, starting_models=u.starting_models,
                fleeing=u.fleeing, flags=tuple(u.flags),
            ))
    return GameState(
        name=model.name, ruleset=model.ruleset, battle=battle,
        players=players,  # type: ignore[arg-type]
        battlefield=Battlefield(width=model.battlefield.width, depth=model.battlefield.depth),
        terrain=terrain, objectives=tuple(model.objectives), units=tuple(units),
        description=model.description,
        triggers=tuple(t.model_dump(exclude_none=True)
                       for t in getattr(model, "triggers", ())),
        unknown_height=unknown,
        floors=tuple(Floor(id=f.id, polygon=tuple(f.polygon), level=f.level, roof=f.roof)
                     for f in getattr(model, "floors", ())),
        data=DataSource(**data.model_dump()) if data is not None else None,
    )

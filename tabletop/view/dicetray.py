"""The dice tray: every roll of the phase, each die tied to its model or unit and its purpose.

Pure (no pygame). :func:`tray_rolls` reads the events of one action (``docs/actions.md``: a
``roll`` event, then the events it led to) and the states around it, and says in words what each
roll was for and what came of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.state import GameState, Unit
from tabletop.view.turn import phase_title, player_name, unit_label

__all__ = ["TrayRoll", "purpose", "tray_rolls"]

_PURPOSES = {
    "advance": "Advance roll",
    "desperate-escape": "Desperate Escape hazard rolls",
    "hazard": "Hazard rolls",
    "combat-disembark": "Combat disembark hazard rolls",
    "emergency-disembark": "Emergency disembark hazard rolls",
    "battle-shock": "Battle-shock test",
    "rally": "Rally test",
    "march-test": "March Test",
    "flee": "Flee distance",
    "panic": "Panic test",
    "dangerous-terrain": "Dangerous Terrain test",
}

_RESULT_KINDS = ("rally", "march-test", "flee", "dangerous-terrain", "panic")


def purpose(what: str) -> str:
    """What a roll of kind ``what`` is for, in words."""
    return _PURPOSES.get(what, what.replace("-", " ").capitalize())


@dataclass(frozen=True)
class TrayRoll:
    """One roll in the tray."""

    when: str
    """The phase it was rolled in (``Round 2 · Red · Movement phase``)."""
    purpose: str
    unit: str
    """The unit's name."""
    dice: tuple[tuple[int, str | None], ...]
    """Each die with the model it was rolled for (``None``: for the unit)."""
    result: str = ""
    good: bool | None = None
    """Whether it went the roller's way (``None``: neither)."""


def _when(state: GameState) -> str:
    b = state.battle
    return f"Round {b.round} · {player_name(state, b.active_player)} · {phase_title(state)}"


def _models_for(state: GameState, unit_id: str | None, n: int) -> list[str | None]:
    """The models one die each was rolled for (hazard rolls: the unit's models in order)."""
    if unit_id is None:
        return [None] * n
    try:
        u = state.unit(unit_id)
    except KeyError:
        return [None] * n
    if isinstance(u, Unit) and len(u.models) == n and n > 1:
        return [m.id for m in u.models]
    return [None] * n


def _result(e: dict[str, Any], rest: Sequence[dict[str, Any]], state: GameState
            ) -> tuple[str, bool | None]:
    what, unit = e.get("what"), e.get("unit")
    dice = [int(d) for d in e.get("dice", [])]
    if what == "advance":
        try:
            u = state.unit(str(unit))
        except KeyError:
            return f'+{sum(dice)}"', None
        m = getattr(u, "M", None)
        return (f'+{sum(dice)}" (M {m:g}" + {sum(dice)}" = {m + sum(dice):g}")'
                if isinstance(m, int | float) else f'+{sum(dice)}"'), sum(dice) >= 4
    if what == "battle-shock":
        for r in rest:
            if r.get("kind") == "battle-shock" and r.get("unit") == unit:
                ok = bool(r.get("passed"))
                return (f"{sum(dice)} vs Ld {r.get('Ld')}+: "
                        + ("passed" if ok else "failed: battle-shocked")), ok
        return "", None
    if what in ("desperate-escape", "hazard", "combat-disembark", "emergency-disembark"):
        fails = e.get("failed")
        hits = [f"{r.get('model')} -{r.get('wounds')}W" for r in rest
                if r.get("kind") == "mortal-wounds" and r.get("unit") == unit]
        dead = [str(r.get("model")) for r in rest
                if r.get("kind") == "destroyed" and r.get("model") is not None]
        if not fails:
            return "no failures", True
        words = f"{fails} failed"
        if hits:
            words += ": " + ", ".join(hits)
        if dead:
            words += "; destroyed " + ", ".join(dead)
        return words, False
    for r in rest:
        if r.get("kind") not in _RESULT_KINDS or r.get("unit") != unit:
            continue
        if "passed" in r:
            need = r.get("Dis")
            total = sum(int(v) for v in r.get("dice", dice))
            ok = bool(r["passed"])
            return (f"{total} vs Dis {need}: " if need is not None else "") + (
                "passed" if ok else "failed"), ok
        if r.get("kind") == "flee":
            ext = float(r.get("extended", 0.0))
            text = (f'fled {float(r.get("distance", 0.0)):.1f}"'
                    + (f' (extended {ext:.1f}")' if ext > 1e-9 else "")
                    + (f" away from {r['away_from']}" if r.get("away_from") else ""))
            gone = [x for x in rest if x.get("kind") == "destroyed" and x.get("unit") == unit]
            if gone:
                return f"{text}; destroyed: {gone[0].get('reason')}", False
            return text, None
        if r.get("kind") == "dangerous-terrain":
            return f"{r.get('hits', 0)} hit(s) in {r.get('feature')}", not r.get("hits")
    return "", None


def tray_rolls(before: GameState, events: Sequence[dict[str, Any]]) -> list[TrayRoll]:
    """The rolls among ``events`` (one action's), with their purpose and result; ``before`` is
    the state the action was applied to (units and models as they were when rolled for)."""
    out: list[TrayRoll] = []
    for i, e in enumerate(events):
        if e.get("kind") == "battle-shock" and not e.get("dice"):
            out.append(TrayRoll(_when(before), purpose("battle-shock"),
                                unit_label(before, str(e.get("unit"))), (),
                                "passed automatically (Insane Bravery)", True))
            continue
        if e.get("kind") not in ("roll", "stood"):
            continue
        dice = [int(d) for d in e.get("dice", [])]
        unit = e.get("unit")
        models = _models_for(before, str(unit) if unit is not None else None, len(dice))
        result, good = _result(e, events[i + 1:], before)
        what = str(e.get("what") or "roll")
        text = purpose(what)
        if e.get("kind") == "stood":  # the unit's roll of this phase, used again
            text += " (it stands)"
            if what != "advance":
                result, good = "the result rolled earlier this phase stands", None
        if e.get("modifier"):
            text += f" ({int(e['modifier']):+d})"
        out.append(TrayRoll(_when(before), text,
                            unit_label(before, str(unit)) if unit is not None else "",
                            tuple(zip(dice, models, strict=True)), result, good))
    return out

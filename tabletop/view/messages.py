"""What the window's status line says about an action: which unit, what it did, in the words the
panel uses (move types, phases and steps by their titles, units by their names). No pygame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tabletop.geometry.tolerance import EPS
from tabletop.rules.ruleset import Eligibility
from tabletop.state import Block, GameState, Unit
from tabletop.view import turn
from tabletop.view.bridge import Outcome, Rules
from tabletop.view.controller import setup_source
from tabletop.view.dicetray import tray_rolls

__all__ = ["describe", "describe_entry", "manoeuvre_text", "unit_line"]

MANOEUVRES = ("forward", "backward", "sideways", "wheel", "reform")
"""Actions that stage one manoeuvre of a block."""


def manoeuvre_text(a: dict[str, Any]) -> str:
    """A staged block manoeuvre in words."""
    do = a.get("do")
    if do == "wheel":
        return f"wheel {float(a['angle']):+.1f}°"
    if do == "reform":
        return f"reform to {a.get('files')} files, facing {float(a['facing']):.0f}°"
    if do == "sideways":
        d = float(a["distance"])
        return f'sideways {abs(d):.2f}" to the {"right" if d > 0 else "left"}'
    return f'{do} {float(a.get("distance", 0.0)):.2f}"'


def _title(state: GameState, move: str, mode: object = None) -> str:
    """A move (and its mode) in words inside a sentence: ``normal move``."""
    return turn.moving_title(state, move, mode).lower()


def _inches(d: float) -> str:
    return f'{d:.1f}"'


def _unit_of_model(state: GameState, model_id: str) -> str:
    try:
        return state.model(model_id)[0].id
    except KeyError:
        return ""


def _who(state: GameState, unit_id: str | None) -> str:
    """``Land Raider: `` (the unit's name and a colon), or nothing without a unit."""
    return f"{turn.unit_label(state, unit_id)}: " if unit_id else ""


def _turned(before: GameState, action: dict[str, Any]) -> float | None:
    """The facing a ``move`` turns its model to in place (one point where it stands), if so."""
    pts = action.get("path") or []
    if len(pts) != 1 or len(pts[0]) != 3:
        return None
    try:
        m = before.model(str(action.get("model")))[1]
    except KeyError:
        return None
    if m.at is None or math.dist(m.at, (float(pts[0][0]), float(pts[0][1]))) > EPS:
        return None
    return float(pts[0][2]) % 360.0


def _moved(rules: Rules, state: GameState) -> tuple[int, float]:
    """How many models of the selected unit have moved, and the furthest any has (inches)."""
    sel = state.battle.selection
    if sel is None:
        return 0, 0.0
    ids = dict.fromkeys(str(a.get("model")) for a in sel.staged if a.get("do") == "move")
    used = [rules.used(state, mid) for mid in ids]
    used = [u for u in used if u > EPS]
    return len(used), max(used, default=0.0)


def _waiting_text(rules: Rules, state: GameState) -> str:
    src = setup_source(state, rules.display(state))
    if src is None or not src.waiting:
        return "every model is placed: Enter commits"
    n = len(src.waiting)
    where = (f"from the list or the {turn.unit_label(state, src.source)}" if src.source
             else "from the list")
    return f"{n} more to place ({where})"


def describe(before: GameState, action: dict[str, Any], out: Outcome, rules: Rules) -> str:
    """What an accepted action did, for the status line (``before``: the state it was applied
    to)."""
    do = str(action.get("do"))
    after = out.state
    sel_before = before.battle.selection
    if do == "select":
        unit = str(action.get("unit"))
        title = _title(after, str(action.get("move")), action.get("mode"))
        sel = after.battle.selection
        if sel is None or sel.unit != unit:  # done at once (remain stationary)
            return f"{_who(after, unit)}{title}, done."
        if sel.mode and not action.get("mode"):
            title = _title(after, sel.move, sel.mode)
        extra = ""
        if sel.roll is not None:  # an advance roll, made now or standing from before
            new = any(e.get("kind") == "roll" and e.get("unit") == unit for e in out.events)
            shown = after.unit(unit)
            first = next((m.id for m in getattr(shown, "models", ()) if m.at is not None), None)
            cap = rules.cap(after, first) if first is not None else None
            total = f': {cap:g}" in all' if cap is not None else ""
            extra = (f" (rolled {sel.roll}{total})" if new else
                     f" (its roll of {sel.roll} stands{total})")
        results = [f"{r.purpose}: {r.result}" for r in tray_rolls(after, out.events)
                   if r.result and r.unit == turn.unit_label(after, unit)
                   and not (sel.roll is not None and [v for v, _ in r.dice] == [sel.roll])]
        if results and not isinstance(after.unit(unit), Block):
            extra += " (" + "; ".join(results) + ")"
        if isinstance(after.unit(unit), Block):
            tests = [r for r in tray_rolls(after, out.events) if r.result]
            if tests:
                extra = f" (March Test {[v for v, _ in tests[0].dice]}: {tests[0].result})"
            what = ("drag the handles or use [ ] , . to reform" if sel.move == "reform"
                    else "drag the front edge to move, a front corner to wheel")
            return f"{_who(after, unit)}{title}{extra}; {what}, Enter commits."
        setup = setup_source(after, rules.display(after))
        if setup is not None:
            where = (f"from the list or the {turn.unit_label(after, setup.source)}"
                     if setup.source else "from the list")
            return (f"{_who(after, unit)}{title}{extra}; drag each model {where} onto the "
                    "shaded area.")
        return f"{_who(after, unit)}{title}{extra}; drag its models, Enter commits."
    if do == "move":
        mid = str(action.get("model"))
        who = _who(after, _unit_of_model(after, mid))
        facing = _turned(before, action)
        if facing is not None:
            return f"{who}{mid} turned to {facing:.0f}°; Enter commits."
        used, cap = rules.used(after, mid), rules.cap(after, mid)
        of = f" of {cap:g}\"" if cap is not None else ""
        turns = "" if after.model(mid)[1].base.is_round else ", Q / E turn it"
        return (f"{who}{mid} moved {_inches(used)}{of}; drag again to go on{turns}, Enter "
                "commits.")
    if do == "place":
        mid = str(action.get("model"))
        return f"{_who(after, _unit_of_model(after, mid))}{mid} set up; " \
               f"{_waiting_text(rules, after)}."
    if do in MANOEUVRES:
        who = _who(after, sel_before.unit if sel_before is not None else None)
        return f"{who}{manoeuvre_text(action)} staged; drag again or Enter commits."
    if do == "commit" and sel_before is not None:
        said = "; ".join(f"{r.purpose}, {r.unit}: {r.result}"
                         for r in tray_rolls(after, out.events) if r.result)
        return f"{_who(after, sel_before.unit)}{_committed(before, rules)}." + (
            f" {said}." if said else "")
    if do == "reset" and sel_before is not None:
        return (f"{_who(after, sel_before.unit)}its staged moves are taken back: every model "
                "stands where it started.")
    if do == "next":
        told = "; ".join(f"{r.purpose}, {r.unit}: {r.result}"
                         for r in tray_rolls(after, out.events) if r.result)
        gone = [e for e in out.events
                if e.get("kind") == "destroyed" and e.get("reason") == "coherency"]
        removed = ""
        if gone:
            names = ", ".join(
                f"{e.get('model')} ({turn.unit_label(before, _unit_of_model(before, mid))})"
                for e in gone for mid in [str(e.get("model"))])
            removed = f" Removed for coherency: {names}."
        return f"Now: {turn.where(after)}." + (f" {told}." if told else "") + removed
    unit = str(action.get("unit") or (sel_before.unit if sel_before is not None else ""))
    return f"{_who(after, unit or None)}{do.replace('-', ' ')}: done."


def _committed(before: GameState, rules: Rules) -> str:
    """``Normal move committed (9.3")``: the selected unit's move as a commit ends it."""
    sel = before.battle.selection
    assert sel is not None
    title = _title(before, sel.move, sel.mode)
    unit = before.unit(sel.unit)
    if isinstance(unit, Block):
        done = [manoeuvre_text(a) for a in sel.staged if a.get("do") in MANOEUVRES]
        return f"{title} committed" + (f" ({', '.join(done)})" if done else "")
    placed = [a for a in sel.staged if a.get("do") == "place"]
    if placed:
        n = len(placed)
        return f"{title} committed ({n} model{'s' if n != 1 else ''} set up)"
    n, far = _moved(rules, before)
    if n == 0:
        return f"{title} committed (no model moved)"
    if isinstance(unit, Unit) and len(unit.models) == 1:
        return f"{title} committed ({_inches(far)})"
    return f"{title} committed ({n} model{'s' if n != 1 else ''} moved, up to {_inches(far)})"


def describe_entry(before: GameState, actions: tuple[dict[str, Any], ...]) -> str:
    """A step of the history in words (undo and redo): its unit and what it was."""
    a = actions[0]
    do = str(a.get("do"))
    sel = before.battle.selection
    if do == "reset" and len(actions) > 1 and sel is not None:
        left = {str(x.get("model")) for x in actions[1:]}
        back = [str(x.get("model")) for x in sel.staged if str(x.get("model")) not in left]
        return f"{_who(before, sel.unit)}{', '.join(dict.fromkeys(back)) or 'a model'} put back"
    if do == "select":
        unit = str(a.get("unit"))
        title = _title(before, str(a.get("move")), a.get("mode"))
        return f"{_who(before, unit)}{title} selected"
    if do == "move":
        mid = str(a.get("model"))
        facing = _turned(before, a)
        what = f"{mid} turned to {facing:.0f}°" if facing is not None else f"move of {mid}"
        return f"{_who(before, _unit_of_model(before, mid))}{what}"
    if do == "place":
        mid = str(a.get("model"))
        return f"{_who(before, _unit_of_model(before, mid))}{mid} set up"
    if do in MANOEUVRES:
        return f"{_who(before, sel.unit if sel else None)}{manoeuvre_text(a)}"
    if do == "commit" and sel is not None:
        return f"{_who(before, sel.unit)}{_title(before, sel.move, sel.mode)} " \
               "committed"
    if do == "next":
        return turn.next_label(before)
    unit = str(a.get("unit") or (sel.unit if sel is not None else ""))
    return f"{_who(before, unit or None)}{do.replace('-', ' ')}"


def unit_line(state: GameState, unit_id: str, rows: Sequence[Eligibility] | None = None
              ) -> str:
    """The status line for a unit clicked: what it may do, with the keys. With the rules'
    ``rows`` for the unit (its move types, eligible or not), only those it may make now are
    offered, and when it may make none, the reason is said instead."""
    u = state.unit(unit_id)
    sel = state.battle.selection
    name = u.name or u.id
    if sel is not None and sel.unit == unit_id:
        how = ("drag the front edge to move, a front corner to wheel" if isinstance(u, Block)
               else "drag its models")
        return (f"{name}: moving, {_title(state, sel.move, sel.mode)}; {how}, "
                "Enter commits.")
    threat = "" if isinstance(u, Block) else "; T threat range"  # blocks have none
    who = f"{name} ({turn.player_name(state, u.player)})"
    offered: Sequence[Any] = turn.move_types(state) if rows is None else [r for r in rows if r.ok]
    if not offered and rows:
        reasons = dict.fromkeys(turn.named(state, r.reason) for r in rows if r.reason)
        why = reasons.popitem()[0] if len(reasons) == 1 else "no move type is open to it now"
        return f"{who}: {why}{threat}."
    keys = ", ".join(f"{t.key.upper()} {t.title.lower()}" for t in offered)
    return f"{who}: {keys} (or click one){threat}."


def unit_drag_note(state: GameState, d: Any) -> str:
    """A whole unit's drag in words: how far it goes of what the pointer asks, and the model
    that stops it going further and why (the first reason its zone gives just beyond)."""
    asked = math.hypot(*d.wanted)
    goes = d.offset_t * asked
    if d.limit is None:
        return f'The whole unit moves {goes:.2f}"; every model may end there.'
    s = d.starts[d.limit]
    ahead = min(d.offset_t + 0.02 / max(asked, 1e-9), 1.0)
    z = d.zones.get(d.limit)
    why = ""
    if z is not None and s is not None and hasattr(z, "explain"):
        found = z.explain(s[0] + ahead * d.wanted[0], s[1] + ahead * d.wanted[1])
        if found:
            why = f" ({turn.named(state, found[0].message)})"
    return (f'The whole unit moves {goes:.2f}" of {asked:.2f}": {d.limit} stops it going '
            f"further{why}.")


def unit_drop_note(state: GameState, d: Any) -> str:
    """The status line after a whole unit's drag: the unit moved as one, how far, what stops it
    going further, and what comes next (not one model's figures)."""
    sel = state.battle.selection
    who = f"{turn.unit_label(state, sel.unit)}: " if sel is not None else ""
    note = unit_drag_note(state, d).replace("The whole unit moves", "the whole unit moved", 1)
    return f"{who}{note[:-1]}; drag again to go on, Enter commits."


def skipped_note(before: GameState, after: GameState) -> str:
    """What a ``next`` passed through without playing it, or stopped in without playing it,
    said in the status line (the turn bar shows the same)."""
    skipped = turn.skipped_phases(before, after)
    note = ""
    if skipped:
        names = [s.removesuffix(" phase") for s in skipped]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        note = (f" Passed through the {listed} phase{'s' if len(names) > 1 else ''}: "
                "tabletop does not simulate them.")
    here = next((c for c in turn.phase_bar(after) if c.current), None)
    if here is not None and not here.simulated:
        note += f" The {here.title} phase is not simulated: Space goes on."
    return note

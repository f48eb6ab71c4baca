"""Army lists onto the table: any format ``wh40kdc`` reads, set up legally.

An army list exported from a list builder (NewRecruit JSON, WTC compact or full text, simple
text; ListForge share links, share JSON or text; the GW app's text, with or without its
header; BattleScribe's ``.ros`` and ``.rosz``, through :mod:`tabletop.importers.battlescribe`;
Rosterizer; the 40kdc roster JSON) is read by ``wh40kdc.try_import_roster``, each unit
matched to the data. Each unit becomes a ``wh40k-11e`` unit:

- **models**: the list's own model lines (``loadout_groups``: ``1x Intercessor Sergeant``,
  ``4x Intercessor``), each matched to a row of the unit's composition; without them, each row
  its minimum and the rest of the unit's models the row with the most room. A list that gives
  fewer models than the datasheet's minimum (NewRecruit's simple text without model lines
  reads every unit as one model) gets the count of the datasheet's points tier its points
  match (the most models of that tier), else the minimum, with a warning;
- **bases** per model from its composition row, else the unit's
  (:mod:`tabletop.importers.unit_bases`: draft sizes and stated fallbacks are warned about);
- **characteristics**: ``M``, ``W``, ``Ld``, ``OC`` of the unit's rank-and-file profile (the
  one with the fewest wounds, the last such); a model whose own profile has another ``M``
  carries it; **keywords**: the datasheet's, upper case;
- an attached **leader** (the list's leader attachment) is set up beside its bodyguard unit,
  the nearest unit after it (else before it) of the bodyguard's datasheet.

:func:`armies` sets both armies up (:mod:`tabletop.importers.deployment`): the first list is
red's (the attacker), the second blue's; with one list the opponent is stated: ``none`` (blue
has no units) or ``mirror`` (the same list).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, ident, quote
from tabletop.geometry.footprints import parse_base
from tabletop.importers import battlescribe, dataset
from tabletop.importers.deployment import Group, facing_of, set_up
from tabletop.importers.naming import fresh_id, slug
from tabletop.importers.unit_bases import (
    Base,
    model_rows,
    norm_name,
    row_base,
    row_for,
    unit_record,
)
from tabletop.state import GameState, Model, Unit

__all__ = ["FORMATS", "MAX_BYTES", "Army", "Placed", "armies", "read_army"]

MAX_BYTES = battlescribe.MAX_BYTES
"""Largest army list file read, bytes (a zipped BattleScribe roster's unzipped XML too)."""
FORMATS = ("NewRecruit (JSON, WTC compact or full, simple text), ListForge (share link, JSON "
           "or text), the GW app's text, BattleScribe (.ros, .rosz), Rosterizer, 40kdc roster "
           "JSON")
"""The formats ``wh40kdc`` reads, for messages."""
OPPONENTS = ("none", "mirror")


@dataclass(frozen=True)
class Army:
    """An army list read and matched: its units (models not yet placed), grouped as they are
    set up, and what was guessed or stood in."""

    source: str
    """The file, for messages."""
    format: str
    """The format ``wh40kdc`` recognised (``"gw"``, ``"newrecruit-simple"``, ...)."""
    name: str
    faction: str | None
    groups: tuple[tuple[dict[str, Any], tuple[dict[str, Any], ...]], ...]
    """Per group: the bodyguard (or lone) unit and its leaders, each a dict with ``name``,
    ``record`` (the data's unit), ``models`` (one composition row per model) and ``note``."""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Placed:
    """The state with the armies set up, and the lines that say what was done."""

    state: GameState
    lines: tuple[str, ...]


def _read_bytes(path: str | Path) -> bytes:
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise UserError(f"--roster {p}: no such file (an army list exported from a list "
                        "builder)") from None
    except IsADirectoryError:
        raise UserError(f"--roster {p}: is a folder; give the army list's file") from None
    except OSError as exc:
        raise UserError(f"--roster {p}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise UserError(f"--roster {p}: larger than {MAX_BYTES:,} bytes; an army list is a few "
                        "kilobytes")
    return data


def _list_text(path: str | Path) -> tuple[str, str | None]:
    """The text of the list at ``path`` for ``wh40kdc``, and ``"battlescribe"`` when it was
    BattleScribe's own file (:mod:`tabletop.importers.battlescribe`)."""
    data = _read_bytes(path)
    if battlescribe.is_battlescribe(data):
        return battlescribe.roster_json(data, f"--roster {path}"), "battlescribe"
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        raise UserError(f"--roster {path}: not UTF-8 text (byte {exc.start}); export the list "
                        "again as text or JSON") from None


def _counts(record: Mapping[str, Any], unit: Mapping[str, Any], source: str,
            warnings: list[str]) -> list[tuple[dict[str, Any], int]]:
    """The composition rows of a listed unit with how many models each has."""
    rows = model_rows(record)
    name = str(record.get("name", record["id"]))
    total = int(unit.get("model_count") or 1)
    groups = unit.get("loadout_groups") or []
    out: list[tuple[dict[str, Any], int]] = []
    if groups:
        for g in groups:
            row = row_for(rows, str(g.get("model_name", "")))
            if row is None:
                row = max(rows, key=lambda r: int(r.get("max", 1)))
                listed_name = quote(str(g.get("model_name")))
                warnings.append(f"{source}: {quote(name)}: no model {listed_name} in its "
                                f"datasheet; set up as {quote(str(row.get('name')))}")
            out.append((dict(row), int(g.get("count") or 1)))
        listed = sum(n for _, n in out)
        if listed < total:
            bulk = max(rows, key=lambda r: int(r.get("max", 1)))
            out.append((dict(bulk), total - listed))
        return out
    low = int((record.get("model_count") or {}).get("min", 1))
    if total < low:
        guess = _by_points(record, unit.get("points"))
        total = guess if guess is not None else low
        how = f"its points ({unit.get('points')}) match the tier of {total}" \
            if guess is not None else f"its datasheet's minimum, {total}"
        warnings.append(f"{source}: {quote(name)} is listed with "
                        f"{int(unit.get('model_count') or 1)} model(s), fewer than its "
                        f"datasheet allows (a list without model lines); set up with {how}")
    mins = [int(r.get("min", 0)) for r in rows]
    left = total - sum(mins)
    counts = list(mins)
    if left > 0:
        k = max(range(len(rows)), key=lambda i: int(rows[i].get("max", 1)) - mins[i])
        counts[k] += left
    elif left < 0:  # fewer than the rows' minimums: keep the first rows
        counts = []
        for m in mins:
            counts.append(max(0, min(m, total - sum(counts))))
    return [(dict(r), n) for r, n in zip(rows, counts, strict=True) if n > 0]


def _by_points(record: Mapping[str, Any], points: Any) -> int | None:
    if not isinstance(points, int | float) or isinstance(points, bool):
        return None
    for tier in record.get("points") or []:
        if tier.get("cost") == points:
            return int(tier.get("models_max") or tier.get("models") or 0) or None
    return None


def read_army(path: str | Path) -> Army:
    """Read an army list file (or a share link: a ``http(s)://`` address is the list itself)
    and match its units to the data (:class:`UserError` for a file ``wh40kdc`` cannot read,
    or units it does not know, all listed)."""
    link = isinstance(path, str) and path.lower().startswith(("http://", "https://"))
    text, own_format = (str(path), None) if link else _list_text(path)
    wh = dataset.require()
    source = "--roster " + (str(path)[:60] + ("…" if len(str(path)) > 60 else "") if link
                            else str(path))
    try:
        result = wh.try_import_roster(text)
    except Exception as exc:  # the importer says it never raises; a list must not crash us
        msg = " ".join(str(exc).split())[:200]
        raise UserError(f"{source}: wh40kdc could not read it ({type(exc).__name__}: {msg})"
                        ) from None
    if not result.get("ok"):
        msg = " ".join(str(result.get("message", "")).split())[:200]
        raise UserError(f"{source}: not an army list wh40kdc {dataset.version()} reads "
                        f"({msg}); it reads {FORMATS}")
    roster = result["roster"]
    faction = roster.get("faction_id")
    problems: list[str] = []
    warnings: list[str] = []
    listed: list[dict[str, Any]] = []
    for i, u in enumerate(roster.get("units") or []):
        ref = u.get("ref") or {}
        raw = str(ref.get("raw_name") or f"unit {i + 1}")
        record = unit_record(str(ref["id"]), faction) if ref.get("id") else None
        if record is None:
            close = ", ".join(c.get("name", c.get("id", "")) for c in ref.get("candidates") or [])
            problems.append(f"{source}: unit {quote(raw)} is not in wh40kdc "
                            f"{dataset.version()}" + (f" (did you mean {close}?)" if close else ""))
            continue
        rows: list[dict[str, Any]] = []
        for row, n in _counts(record, u, source, warnings):
            rows.extend([row] * n)
        listed.append({"name": str(record.get("name", raw)), "record": record, "models": rows,
                       "leads": ((u.get("leader_attachment") or {}).get("bodyguard_ref") or {}
                                 ).get("id"), "index": i})
    if problems:
        raise UserError(problems)
    if not listed:
        raise UserError(f"{source}: the army list has no units")
    return Army(source.removeprefix("--roster "), own_format or str(result.get("format")),
                str(roster.get("name") or path), faction, _grouped(listed), tuple(warnings))


def _grouped(listed: list[dict[str, Any]]
             ) -> tuple[tuple[dict[str, Any], tuple[dict[str, Any], ...]], ...]:
    """Each leader with its bodyguard: the nearest unit after it (else before it) of the
    bodyguard's datasheet that is not a leader attached elsewhere."""
    leaders = {i: u for i, u in enumerate(listed) if u["leads"]}
    attached: dict[int, list[dict[str, Any]]] = {}
    for i, u in leaders.items():
        order = [*range(i + 1, len(listed)), *range(i - 1, -1, -1)]
        for j in order:
            if j not in leaders and listed[j]["record"]["id"] == u["leads"]:
                attached.setdefault(j, []).append(u)
                break
        else:
            u["leads"] = None
    placed = {id(u) for us in attached.values() for u in us}
    return tuple((u, tuple(attached.get(i, ()))) for i, u in enumerate(listed)
                 if id(u) not in placed)


def _bulk(record: Mapping[str, Any]) -> dict[str, Any]:
    profiles = record.get("profiles") or [{}]
    low = min(int(p.get("W", 1)) for p in profiles)
    return dict([p for p in profiles if int(p.get("W", 1)) == low][-1])


def _unit(item: Mapping[str, Any], uid: str, player: str, notes: list[str]) -> Unit:
    record = item["record"]
    bulk = _bulk(record)
    profiles = {norm_name(str(p.get("name", ""))): p for p in record.get("profiles") or []}
    models = []
    seen: set[str] = set()
    for k, row in enumerate(item["models"]):
        base: Base = row_base(record, row if row.get("base_size_mm") or row.get("hull_shape_id")
                              else None)
        if base.note and base.source in ("draft", "fallback") and base.note not in seen:
            seen.add(base.note)
            notes.append(f"{ident(uid)} ({item['name']}): {base.note}")
        prof = profiles.get(norm_name(str(row.get("profile_name") or row.get("name", ""))), bulk)
        m_value = prof.get("M", bulk.get("M", 0))
        models.append(Model(id=f"{uid}-{k + 1}", base=parse_base(base.spec, base.hull),
                            M=None if m_value == bulk.get("M") else float(m_value)))
    keywords = tuple(dict.fromkeys(str(k).upper() for k in record.get("keywords") or []))
    return Unit(id=uid, player=player, keywords=keywords, M=float(bulk.get("M", 0)),
                W=int(bulk.get("W", 1)), Ld=int(bulk.get("Ld", 7)), OC=int(bulk.get("OC", 0)),
                models=tuple(models), name=str(item["name"]))


def _groups(army: Army, player: str, taken: set[str], notes: list[str]) -> list[Group]:
    out = []

    def new_id(name: str) -> str:
        uid = fresh_id(f"{player}-{slug(name)}", taken)
        taken.update(f"{uid}-{k + 1}" for k in range(100))  # its models' ids
        return uid

    for body, leaders in army.groups:
        unit = _unit(body, new_id(body["name"]), player, notes)
        lead = tuple(_unit(u, new_id(u["name"]), player, notes) for u in leaders)
        out.append(Group(unit, lead, body["name"]))
    return out


def armies(state: GameState, rosters: Sequence[str | Path], *, opponent: str = "none"
           ) -> Placed:
    """``state`` with the army of each list set up: the first red's, the second blue's (or,
    with one list, ``opponent``: ``none`` or ``mirror``)."""
    if not 1 <= len(rosters) <= 2:
        raise UserError(f"--roster: give one or two army lists, got {len(rosters)}")
    if opponent not in OPPONENTS:
        raise UserError(f"--opponent: {quote(opponent)}; give {' or '.join(OPPONENTS)}")
    read = [read_army(r) for r in rosters]
    players = [p.id for p in state.players]
    plan = list(zip(players, read, strict=False))
    if len(read) == 1 and opponent == "mirror":
        plan.append((players[1], read[0]))
    taken = {u.id for u in state.units} | {p.id for p in state.players} | \
        {t.id for t in state.terrain} | {f.id for f in state.floors}
    lines: list[str] = []
    current = state
    for player, army in plan:
        notes: list[str] = []
        groups = _groups(army, player, taken, notes)
        current = set_up(current, player, groups, who=f"--roster {army.source}")
        units = [u for u in current.units if u.player == player]
        facing = facing_of(current, player)
        summary = ", ".join(f"{u.name} x{len(u.models)}" for u in units if isinstance(u, Unit))
        lines.append(f"{player}: {army.name} ({army.format}, {len(units)} units facing "
                     f"{facing:g} degrees): {summary}")
        lines.extend(f"warning: {w}" for w in (*army.warnings, *notes))
    if len(read) == 1 and opponent == "none":
        lines.append(f"{players[1]}: no army (--opponent none)")
    return Placed(current, tuple(lines))

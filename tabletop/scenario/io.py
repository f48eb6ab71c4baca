"""Reading and writing scenario files (format 1, TOML or JSON).

- :func:`load_scenario` / :func:`loads_scenario` parse, validate (schema, then
  :func:`~tabletop.scenario.checks.check_state`) and build the frozen
  :class:`~tabletop.state.GameState`. Every problem is reported at once as a
  :class:`~tabletop.errors.UserError`, one line each: ``FILE: units[2].models[0].base: ...``,
  in file order. When the schema fails, the checks beyond it still run on the parts of the file
  that do validate (:func:`~tabletop.scenario.partial.partial_state`), so one run reports both
  kinds.
- :func:`dumps_scenario` / :func:`save_scenario` write a state back. Saving is atomic (a temporary
  file in the same folder, then ``os.replace``) and verified: the text is read back and must give
  an identical state, otherwise nothing is written.

Absurd input is refused before it can take long (:mod:`tabletop.scenario.bounds`): files over
:data:`~tabletop.scenario.bounds.MAX_BYTES` are not read, nesting deeper than
:data:`~tabletop.scenario.bounds.MAX_DEPTH` and more than
:data:`~tabletop.scenario.bounds.MAX_MODELS` models are refused before validation. The state is
built by :mod:`tabletop.scenario.build`. Loading never writes anything.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from tabletop.errors import UserError, quote
from tabletop.files import atomic_write, decode_utf8, read_regular
from tabletop.geometry.footprints import Footprint, Hull, Oval, Rect, Round
from tabletop.scenario.bounds import (
    MAX_BYTES,
    Format,
    parse_text,
    refuse_bulky,
    refuse_deep,
    refuse_many_models,
)
from tabletop.scenario.build import build_state, jsonish
from tabletop.scenario.checks import Problem, check_state
from tabletop.scenario.messages import position, render_errors
from tabletop.scenario.partial import partial_state
from tabletop.scenario.schema import (
    FORMAT,
    SCENARIO_ADAPTER,
    SCENARIO_MODELS,
)
from tabletop.state import (
    Block,
    GameState,
    Unit,
)

__all__ = [
    "MAX_PROBLEMS_OF_A_KIND",
    "MAX_PROBLEM_LINES",
    "base_text",
    "check_triggers",
    "dumps_scenario",
    "load_scenario",
    "loads_scenario",
    "read_json",
    "save_scenario",
    "shipped",
    "shipped_names",
    "to_document",
]


MAX_PROBLEMS_OF_A_KIND = 100
"""Most problems of one kind listed (the same key and message but for ids and numbers)."""

MAX_PROBLEM_LINES = 1_000
"""Most lines of problems printed for one file."""


# -- loading --------------------------------------------------------------------------------------

def shipped(name: str) -> Path:
    """Path of a scenario shipped with the package, e.g. ``shipped("demo.toml")``."""
    path = Path(str(resources.files("tabletop") / "scenarios" / name))
    if not path.is_file():
        raise UserError(f"{quote(name)}: no such shipped scenario; available: "
                        f"{', '.join(shipped_names())}")
    return path


def load_scenario(path: str | os.PathLike[str], *, check: bool = True) -> GameState:
    """Load a scenario file: TOML by ``.toml``, JSON by ``.json``, otherwise by its content.

    A bare file name that is not in the current folder but is the name of a shipped scenario
    (``"demo.toml"``) loads the shipped one.

    Raises
    ------
    UserError
        With one line per problem, each starting with the file name.
    """
    p = _existing_or_shipped(Path(path))
    source = str(path)
    fmt: Format | None = {".toml": "toml", ".json": "json"}.get(p.suffix.lower())  # type: ignore[assignment]
    return _loads(_read_bytes(p, source), fmt=fmt, source=source, check=check)


def _existing_or_shipped(path: Path) -> Path:
    try:
        if path.exists() or path.is_symlink() or path.name != str(path):
            return path
    except OSError:  # a name too long for the file system: _read_bytes says so
        return path
    ref = Path(str(resources.files("tabletop") / "scenarios" / path.name))
    return ref if ref.is_file() else path


def _read_bytes(p: Path, source: str, what: str = "a scenario file") -> bytes:
    """The bytes of a regular file of at most :data:`~tabletop.scenario.bounds.MAX_BYTES`, or a
    one-line :class:`UserError` (a FIFO or a device is refused, never waited on:
    :func:`tabletop.files.read_regular`)."""
    try:
        return read_regular(p, MAX_BYTES, source=source, what=what)
    except OSError as exc:
        hint = ""
        if isinstance(exc, FileNotFoundError) and p.name == str(p):
            hint = f" (shipped scenarios, loaded by name: {', '.join(shipped_names())})"
        raise UserError(f"{source}: cannot read the file: {exc.strerror or exc}{hint}") from None


def shipped_names() -> list[str]:
    """The file names of the scenarios shipped with the package, sorted (``tabletop
    scenarios`` lists them; every command loads them by name)."""
    folder = Path(str(resources.files("tabletop") / "scenarios"))
    return sorted(p.name for p in folder.iterdir() if p.suffix in (".toml", ".json"))


def _decode(data: bytes, source: str) -> str:
    return decode_utf8(data, source)


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    """Read a JSON file other than a scenario (an action file, a trigger file) with the same
    bounds as scenario files: size, UTF-8, duplicate keys, nesting, number of values.

    ``what`` names the file in messages (``"an action file"``).
    """
    source = str(path)
    text = _decode(_read_bytes(Path(path), source, what), source)
    refuse_bulky(text, "json", source, what)
    raw = parse_text(text, "json", source, what)
    refuse_deep(raw, source, what, json_text=text)
    return raw


def loads_scenario(text: str | bytes, *, fmt: Format | None = None, source: str = "<string>",
                   check: bool = True) -> GameState:
    """Load a scenario from text. ``fmt=None`` guesses: JSON if it starts with ``{``."""
    return _loads(text, fmt=fmt, source=source, check=check)


def _loads(text: str | bytes, *, fmt: Format | None, source: str, check: bool) -> GameState:
    if len(text) > MAX_BYTES:
        raise UserError(f"{source}: the text is too large ({len(text):,} "
                        f"{'bytes' if isinstance(text, bytes) else 'characters'}; the limit is "
                        f"{MAX_BYTES // (1024 * 1024)} MB)")
    if isinstance(text, bytes):
        text = _decode(text, source)
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "toml"
    refuse_bulky(text, fmt, source)
    raw = parse_text(text, fmt, source)
    refuse_deep(raw, source, json_text=text if fmt == "json" else None)
    refuse_many_models(raw, source)
    ruleset = raw.get("ruleset") if isinstance(raw, dict) else None
    try:
        model = SCENARIO_ADAPTER.validate_python(raw)
    except ValidationError as exc:
        problems = render_errors(exc.errors())
        if check and isinstance(raw, dict) and isinstance(ruleset, str) \
                and ruleset in SCENARIO_MODELS:
            problems += check_state(*partial_state(raw))
        raise UserError(_lines(source, problems, ruleset, raw)) from None
    state = build_state(model)
    if check:
        problems = check_state(state)
        if problems:
            raise UserError(_lines(source, problems, ruleset, raw))
    return state


def check_triggers(state: GameState, specs: Any, source: str) -> None:
    """Check triggers given apart from a scenario (``tabletop apply --triggers``) as if they
    were the scenario's ``triggers``: their keys and values, points of the turn, players and
    units. Raises :class:`UserError` with every problem, paths as ``[i].key``."""
    doc = to_document(state)
    doc["triggers"] = specs
    problems: list[Problem]
    try:
        problems = check_state(build_state(SCENARIO_ADAPTER.validate_python(doc)))
    except ValidationError as exc:
        problems = render_errors(exc.errors())
    ours = [(path.removeprefix("triggers"), msg) for path, msg in problems
            if path == "triggers" or path.startswith("triggers[")]
    if ours:
        raise UserError(_lines(source, ours, state.ruleset, None))


def _lines(source: str, problems: list[Problem], ruleset: Any, raw: Any) -> list[str]:
    """The lines of ``problems`` in file order (a stable sort), each problem once, capped.

    A problem inside a unit or a model names its id after the path. At most
    :data:`MAX_PROBLEMS_OF_A_KIND` problems of one kind (the same key of the format and the same
    message but for ids and numbers) are listed, then one line counts the others; at most
    :data:`MAX_PROBLEM_LINES` lines in all.
    """
    unique = list(dict.fromkeys(problems))
    rs = ruleset if isinstance(ruleset, str) else None
    unique.sort(key=lambda problem: position(problem[0], rs))
    names = _item_names(raw)
    seen: Counter[tuple[str, str]] = Counter()
    listed: list[tuple[tuple[str, str], str | None]] = []  # (kind, line); None: the count
    for path, msg in unique:
        kind = _kind(path, msg)
        seen[kind] += 1
        if seen[kind] <= MAX_PROBLEMS_OF_A_KIND:
            listed.append((kind, f"{source}: {_named_path(path, names)}: {msg}" if path
                           else f"{source}: {msg}"))
        elif seen[kind] == MAX_PROBLEMS_OF_A_KIND + 1:
            listed.append((kind, None))
    out = []
    for kind, line in listed:
        more = seen[kind] - MAX_PROBLEMS_OF_A_KIND
        out.append(line if line is not None else
                   f"{source}: ... and {more:,} more problem{'s' if more > 1 else ''} of this kind")
    if len(out) > MAX_PROBLEM_LINES:
        rest = len(out) - MAX_PROBLEM_LINES
        out = [*out[:MAX_PROBLEM_LINES], f"{source}: ... and {rest:,} more lines of problems"]
    return out


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"(?:… \([\d,]+ characters\))?')
_ITEM = re.compile(r"^units\[(\d+)\](?:\.models\[(\d+)\])?")


def _kind(path: str, msg: str) -> tuple[str, str]:
    """What makes problems alike: the path without indices, the message without ids and
    numbers."""
    return _NUMBER.sub("#", _QUOTED.sub('""', path)), _NUMBER.sub("#", _QUOTED.sub('""', msg))


def _item_names(raw: Any) -> dict[tuple[int, int | None], str]:
    """The id of each unit ``(i, None)`` and wh40k model ``(i, j)`` of a parsed file."""
    names: dict[tuple[int, int | None], str] = {}
    units = raw.get("units") if isinstance(raw, dict) else None
    for i, unit in enumerate(units if isinstance(units, list) else []):
        if not isinstance(unit, dict):
            continue
        if isinstance(unit.get("id"), str):
            names[i, None] = unit["id"]
        models = unit.get("models")
        for j, model in enumerate(models if isinstance(models, list) else []):
            if isinstance(model, dict) and isinstance(model.get("id"), str):
                names[i, j] = model["id"]
    return names


def _named_path(path: str, names: dict[tuple[int, int | None], str]) -> str:
    """``units[0].models[1].at`` -> ``units[0].models[1].at (model "s2")``."""
    m = _ITEM.match(path)
    if m is None:
        return path
    i, j = int(m[1]), int(m[2]) if m[2] is not None else None
    if j is not None and (i, j) in names:
        return f"{path} (model {quote(names[i, j])})"
    if (i, None) in names:
        return f"{path} (unit {quote(names[i, None])})"
    return path


# -- building the state ---------------------------------------------------------------------------


# -- the parts of a file that fails its schema ----------------------------------------------------


# -- writing --------------------------------------------------------------------------------------

def _num_text(v: float) -> str:
    """A number as plain decimals, exactly round-tripping (no exponent: bases need digits)."""
    text = format(Decimal(repr(float(v))), "f")
    return text[:-2] if text.endswith(".0") else text


def base_text(base: Footprint) -> str:
    """The base string of a footprint, exact (``"28.5mm"``, ``"oval 60x35.5mm"``, ``"hull"``)."""
    if isinstance(base, Round):
        return f"{_num_text(base.diameter_mm)}mm"
    if isinstance(base, Oval):
        return f"oval {_num_text(base.length_mm)}x{_num_text(base.width_mm)}mm"
    if isinstance(base, Rect):
        return f"rect {_num_text(base.frontage_mm)}x{_num_text(base.depth_mm)}mm"
    if isinstance(base, Hull):
        return "hull"
    raise TypeError(f"unknown footprint {base!r}")


def _stat(v: float) -> int | float:
    """A characteristic in inches: ``6`` rather than ``6.0`` when whole (it loads as 6.0)."""
    f = float(v)
    return int(f) if f.is_integer() and abs(f) < 2**53 else f


def _points(points: Any) -> list[list[float]]:
    return [[float(x), float(y)] for x, y in points]


def _put(d: dict[str, Any], key: str, value: Any, default: Any = None) -> None:
    if value is not None and not (default is not None and value == default
                                  and type(value) is type(default)):
        d[key] = value


def to_document(state: GameState) -> dict[str, Any]:
    """The scenario file of ``state`` as plain data (dicts, lists, str, int, float, bool)."""
    doc: dict[str, Any] = {"format": FORMAT, "name": state.name}
    _put(doc, "description", state.description)
    doc["ruleset"] = state.ruleset
    doc["battlefield"] = {"width": float(state.battlefield.width),
                          "depth": float(state.battlefield.depth)}
    b = state.battle
    battle: dict[str, Any] = {"round": b.round, "active_player": b.active_player,
                              "phase": b.phase}
    _put(battle, "seed", b.seed)
    _put(battle, "step", b.step)
    if b.dice_used:
        battle["dice_used"] = b.dice_used
    if b.selection is not None:
        s = b.selection
        sel: dict[str, Any] = {"unit": s.unit, "move": s.move}
        _put(sel, "mode", s.mode)
        _put(sel, "roll", s.roll)
        if s.start:
            sel["start"] = [
                {"model": mid, **({"at": [float(at[0]), float(at[1])]} if at is not None else {}),
                 "facing": float(facing)}
                for mid, at, facing in s.start
            ]
        if s.staged:
            sel["staged"] = [jsonish(dict(a)) for a in s.staged]
        _put(sel, "files", s.files)
        if s.before is not None:
            sel["before"] = jsonish(dict(s.before))
        battle["selection"] = sel
    if b.rolls:
        battle["rolls"] = [{"unit": r.unit, "what": r.what, "dice": list(r.dice)}
                           for r in b.rolls]
    doc["battle"] = battle
    players = []
    for p in state.players:
        pd: dict[str, Any] = {"id": p.id}
        _put(pd, "name", p.name)
        pd["cp"] = p.cp
        if p.deployment_zone is not None:
            pd["deployment_zone"] = _points(p.deployment_zone)
        if p.used:
            pd["used"] = list(p.used)
        players.append(pd)
    doc["players"] = players
    if state.terrain:
        terrain = []
        for t in state.terrain:
            td: dict[str, Any] = {"id": t.id, "kind": t.kind}
            if not t.height_known:
                td["height_known"] = False
            elif t.height:
                td["height"] = float(t.height)
            _put(td, "dangerous", t.dangerous)
            td["polygon"] = _points(t.polygon)
            terrain.append(td)
        doc["terrain"] = terrain
    if state.objectives:
        doc["objectives"] = _points(state.objectives)
    if state.units:
        doc["units"] = [_unit_doc(u) for u in state.units]
    if state.triggers:
        doc["triggers"] = [jsonish(dict(t)) for t in state.triggers]
    if state.unknown_height is not None:
        doc["unknown_height"] = float(state.unknown_height)
    if state.floors:
        doc["floors"] = [{"id": f.id, "level": f.level, **({"roof": True} if f.roof else {}),
                          "polygon": _points(f.polygon)} for f in state.floors]
    if state.data is not None:
        d = state.data
        doc["data"] = {k: v for k, v in (
            ("source", d.source), ("version", d.version), ("layout", d.layout),
            ("deployment", d.deployment), ("mission_matchup", d.mission_matchup),
            ("mission", d.mission)) if v is not None}
    return doc


def _unit_doc(u: Unit | Block) -> dict[str, Any]:
    d: dict[str, Any] = {"id": u.id}
    _put(d, "name", u.name)
    d["player"] = u.player
    if isinstance(u, Unit):
        d["keywords"] = list(u.keywords)
        d.update({"M": _stat(u.M), "W": u.W, "Ld": u.Ld, "OC": u.OC})
        _put(d, "starting_strength", u.starting_strength)
        if u.battle_shocked:
            d["battle_shocked"] = True
        if u.location != "battlefield":
            d["location"] = u.location
        _put(d, "transport", u.transport)
        if u.flags:
            d["flags"] = list(u.flags)
        models = []
        for m in u.models:
            md: dict[str, Any] = {"id": m.id, "base": base_text(m.base)}
            if m.at is not None:
                md["at"] = [float(m.at[0]), float(m.at[1])]
            if m.facing:
                md["facing"] = float(m.facing)
            _put(md, "wounds", m.wounds)
            _put(md, "M", None if m.M is None else _stat(m.M))
            if isinstance(m.base, Hull):
                md["hull"] = _points(m.base.points)
            models.append(md)
        d["models"] = models
    else:
        d.update({"Adv": _stat(u.Adv), "Mar": _stat(u.Mar), "Dis": u.Dis,
                  "base": base_text(u.base), "models": u.models, "files": u.files})
        _put(d, "starting_models", u.starting_models)
        d["at"] = [float(u.at[0]), float(u.at[1])]
        d["facing"] = float(u.facing)
        if u.fleeing:
            d["fleeing"] = True
        if u.flags:
            d["flags"] = list(u.flags)
    return d


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_scalar(key)


def _toml_scalar(value: Any) -> str:
    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def _toml_inline(value: Any) -> str:
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = ", ".join(f"{_toml_key(k)} = {_toml_inline(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_inline(v) for v in value) + "]"
    return _toml_scalar(value)


def _toml_value(value: Any) -> str:
    """A value of a ``key = value`` line: arrays of tables one inline table per line."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "[\n" + "".join(f"  {_toml_inline(v)},\n" for v in value) + "]"
    return _toml_inline(value)


def _toml_table(lines: list[str], table: dict[str, Any], header: str | None,
                array: bool = False) -> None:
    if header is not None:
        lines.append("")
        lines.append(f"[[{header}]]" if array else f"[{header}]")
    subtables = []
    for k, v in table.items():
        if isinstance(v, dict):
            subtables.append((k, v))
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in subtables:
        _toml_table(lines, v, f"{header}.{_toml_key(k)}" if header else _toml_key(k))


def _to_toml(doc: dict[str, Any]) -> str:
    lines: list[str] = []
    arrays = ("players", "terrain", "units", "floors")
    top = {k: v for k, v in doc.items() if not isinstance(v, dict) and k not in arrays}
    for k, v in top.items():
        lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in doc.items():
        if isinstance(v, dict):
            _toml_table(lines, v, _toml_key(k))
    for k in arrays:
        for item in doc.get(k, []):
            _toml_table(lines, item, k, array=True)
    return "\n".join(lines) + "\n"


def dumps_scenario(state: GameState, fmt: Format = "toml") -> str:
    """The scenario file of ``state`` as TOML (models one inline table per line) or JSON."""
    doc = to_document(state)
    if fmt == "json":
        return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    if fmt == "toml":
        return _to_toml(doc)
    raise ValueError(f"unknown format {fmt!r}; use 'toml' or 'json'")


def _canonical(state: GameState) -> GameState:
    """``state`` with staged actions as plain JSON data (lists, not tuples), as loading gives."""
    sel = state.battle.selection
    if sel is None or not sel.staged:
        return state
    from dataclasses import replace

    staged = tuple(jsonish(dict(a)) for a in sel.staged)
    return replace(state, battle=replace(state.battle, selection=replace(sel, staged=staged)))


def save_scenario(state: GameState, path: str | os.PathLike[str],
                  fmt: Format | None = None) -> None:
    """Write ``state`` to ``path`` atomically; the format follows the suffix (``.json``: JSON).

    The text is read back before anything is written: if it would not load to an identical state
    (data that format 1 cannot hold), :class:`~tabletop.errors.UserError` (a ``ValueError``) is
    raised and no file is touched; so it is when ``path`` cannot be written
    (:func:`~tabletop.files.atomic_write`).
    """
    p = Path(path)
    if fmt is None:
        fmt = "json" if p.suffix.lower() == ".json" else "toml"
    text = dumps_scenario(state, fmt)
    try:
        back = loads_scenario(text, fmt=fmt, source=str(p), check=False)
    except UserError as exc:
        raise UserError([f"{p}: this state cannot be saved as scenario format 1; nothing written:",
                         *exc.lines]) from None
    if back != _canonical(state):
        raise UserError(f"{p}: this state does not survive saving in format 1; nothing written")
    atomic_write(p, text)

"""Reading and writing scenario files (format 1, TOML or JSON).

- :func:`load_scenario` / :func:`loads_scenario` parse, validate (schema, then
  :func:`~tabletop.scenario.checks.check_state`) and build the frozen
  :class:`~tabletop.state.GameState`. Every problem is reported at once as a
  :class:`~tabletop.errors.UserError`, one line each: ``FILE: units[2].models[0].base: ...``,
  in file order. When the schema fails, the checks beyond it still run on the parts of the file
  that do validate (:func:`partial_state`), so one run reports both kinds.
- :func:`dumps_scenario` / :func:`save_scenario` write a state back. Saving is atomic (a temporary
  file in the same folder, then ``os.replace``) and verified: the text is read back and must give
  an identical state, otherwise nothing is written.

Absurd input is refused before it can take long: files over :data:`MAX_BYTES` are not read,
nesting deeper than :data:`MAX_DEPTH` and more than :data:`MAX_MODELS` models are refused before
validation. Loading never writes anything.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections import Counter
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

import tomli_w
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from tabletop.errors import UserError, quote
from tabletop.files import atomic_write, decode_utf8, long_number, read_regular
from tabletop.geometry.footprints import Footprint, Hull, Oval, Rect, Round, parse_base
from tabletop.scenario.checks import Partial, Problem, check_state
from tabletop.scenario.messages import position, render_errors
from tabletop.scenario.schema import (
    FORMAT,
    MAX_NUMBER,
    SCENARIO_ADAPTER,
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
    describe,
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

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DOTTED_KEY",
    "MAX_ITEMS",
    "MAX_MODELS",
    "MAX_PROBLEMS_OF_A_KIND",
    "MAX_PROBLEM_LINES",
    "MAX_TOML_BYTES",
    "MAX_TOML_LINE",
    "MAX_TOML_LINES",
    "base_text",
    "check_triggers",
    "dumps_scenario",
    "load_scenario",
    "loads_scenario",
    "partial_state",
    "read_json",
    "save_scenario",
    "shipped",
    "shipped_names",
    "to_document",
]

Format = Literal["toml", "json"]

MAX_BYTES = 50 * 1024 * 1024
"""Largest scenario file read (50 MB)."""

MAX_MODELS = 10_000
"""Most models in one scenario (t9a blocks count their ``models``)."""

MAX_DEPTH = 32
"""Deepest nesting of tables and arrays accepted (a valid file needs 7)."""

MAX_ITEMS = 500_000
"""Most commas in a file (array items and keys of JSON and inline tables): ~50 per model."""

MAX_PROBLEMS_OF_A_KIND = 100
"""Most problems of one kind listed (the same key and message but for ids and numbers)."""

MAX_PROBLEM_LINES = 1_000
"""Most lines of problems printed for one file."""

MAX_TOML_BYTES = 8 * 1024 * 1024
"""Largest TOML text parsed (8 MB; a 10,000-model scenario is about 1 MB). Python's TOML parser
is pure Python, so bigger TOML would take long: larger saved states go to JSON."""

MAX_DOTTED_KEY = 3
"""Most parts of a TOML dotted key (``a.b.c``); tomllib is slow on many of them."""

MAX_TOML_LINES = 120_000
"""Most lines in a TOML file (a 10,000-model file in any usual layout needs under 80,000)."""

MAX_TOML_LINE = 1_000_000
"""Longest line of a TOML file, in characters (the TOML parser is pure Python: keep it quick)."""

_SEGMENT = r"""(?:(?<![A-Za-z0-9_-])[A-Za-z0-9_-]++|"[^"\\\n]*+"|'[^'\n]*+')"""
_DEEP_DOTTED_KEY = re.compile(rf"(?:{_SEGMENT}[ \t]*+\.[ \t]*+){{{MAX_DOTTED_KEY}}}")
"""A TOML dotted key of more than MAX_DOTTED_KEY parts (``a.a.a....``)."""

_TOML_POSITION = re.compile(r"^(?P<msg>.*?)\s*\(at line (?P<line>\d+), column (?P<col>\d+)\)\s*$",
                            re.S)

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
    """The bytes of a regular file of at most :data:`MAX_BYTES`, or a one-line
    :class:`UserError` (a FIFO or a device is refused, never waited on:
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
    _refuse_bulky(text, "json", source, what)
    raw = _parse(text, "json", source, what)
    _refuse_deep(raw, source, what)
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
    _refuse_bulky(text, fmt, source)
    raw = _parse(text, fmt, source)
    _refuse_deep(raw, source)
    _refuse_many_models(raw, source)
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


def _parse(text: str, fmt: Format, source: str, what: str = "a scenario file") -> Any:
    try:
        if fmt == "json":
            return json.loads(text, object_pairs_hook=_no_duplicate_keys)
        return tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{source}: line {exc.lineno}, column {exc.colno}: invalid JSON: "
                        f"{exc.msg}") from None
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_POSITION.match(str(exc))
        if m:
            raise UserError(f"{source}: line {m['line']}, column {m['col']}: invalid TOML: "
                            f"{m['msg']}") from None
        raise UserError(f"{source}: invalid TOML: {exc}") from None
    except _DuplicateKey as exc:
        raise UserError(f"{source}: invalid JSON: the key {describe(exc.key)} appears twice in "
                        "one object") from None
    except RecursionError:
        raise UserError(f"{source}: nested deeper than {MAX_DEPTH} levels; {what} needs "
                        "far fewer") from None
    except ValueError:  # a number of over 4,300 digits: Python will not convert it
        where = long_number(text) or f"invalid {fmt.upper()}"
        raise UserError(f"{source}: {where}; {what} needs none over 1,000,000") from None


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _refuse_bulky(text: str, fmt: Format, source: str, what: str = "a scenario file") -> None:
    """Refuse text that would take long to parse, before parsing it (linear, C-speed scans)."""
    commas = text.count(",")
    if commas > MAX_ITEMS:
        raise UserError(f"{source}: too many values ({commas:,} commas; {what} needs "
                        f"fewer than {MAX_ITEMS:,})")
    if fmt != "toml":
        return
    if len(text) > MAX_TOML_BYTES:
        raise UserError(f"{source}: too large for TOML ({len(text):,} characters; the limit is "
                        f"{MAX_TOML_BYTES // (1024 * 1024)} MB); save it as JSON (same keys)")
    lines = text.count("\n")
    if lines > MAX_TOML_LINES:
        raise UserError(f"{source}: too many lines ({lines:,}; the limit for TOML is "
                        f"{MAX_TOML_LINES:,}; JSON has no such limit)")
    start = 0
    looked = False  # at the whole text without its strings and comments
    for number in range(1, lines + 2):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_TOML_LINE:
            raise UserError(f"{source}: line {number} is too long ({end - start:,} characters; "
                            f"the limit for TOML is {MAX_TOML_LINE:,})")
        # Only a line with at least MAX_DOTTED_KEY dots can hold a too long dotted key; a
        # line that seems to is looked at again without comments and strings ("09.07.01.").
        if (not looked and text.count(".", start, end) >= MAX_DOTTED_KEY
                and _DEEP_DOTTED_KEY.search(text, start, end)):
            looked = True
            deep = _deep_dotted_key_line(_toml_skeleton(text))
            if deep is not None:
                raise UserError(f"{source}: line {deep}: a dotted key of more than "
                                f"{MAX_DOTTED_KEY} parts (a.b.c); a scenario file needs no more")
        start = end + 1


_TOML_STRING_OR_COMMENT = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""(?:"{1,2}(?!"))?'
    r"|'''[\s\S]*?'''(?:'{1,2}(?!'))?"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*")
"""A TOML string (of the four kinds) or a comment."""


def _toml_skeleton(text: str) -> str:
    """``text`` without the contents of its strings and without its comments, its line breaks
    kept (so that line numbers stay): what a dotted key can be made of."""
    def blank(m: re.Match[str]) -> str:
        s = m.group()
        if s.startswith("#"):
            return ""
        quote_ = s[:3] if s[:3] in ('"""', "'''") else s[0]
        return quote_ + "\n" * s.count("\n") + quote_
    return _TOML_STRING_OR_COMMENT.sub(blank, text)


def _deep_dotted_key_line(text: str) -> int | None:
    """The line of the first dotted key of more than :data:`MAX_DOTTED_KEY` parts in ``text``."""
    m = _DEEP_DOTTED_KEY.search(text)
    return None if m is None else text.count("\n", 0, m.start()) + 1


def _refuse_deep(raw: Any, source: str, what: str = "a scenario file") -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (iterative, linear time)."""
    stack: list[tuple[Any, int]] = [(raw, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UserError(f"{source}: nested deeper than {MAX_DEPTH} levels; {what} needs far "
                            "fewer")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, dict | list))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value if isinstance(v, dict | list))


def _refuse_many_models(raw: Any, source: str) -> None:
    """Refuse more than :data:`MAX_MODELS` models before validation."""
    if not isinstance(raw, dict) or not isinstance(raw.get("units"), list):
        return
    total = 0
    for unit in raw["units"]:
        if isinstance(unit, dict):
            models = unit.get("models")
            if isinstance(models, list):
                total += len(models)
            elif isinstance(models, int) and not isinstance(models, bool) and models > 0:
                total += models
    if total > MAX_MODELS:
        raise UserError(f"{source}: too many models ({total:,}; the limit is {MAX_MODELS:,})")


# -- building the state ---------------------------------------------------------------------------

def _jsonish(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonish(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonish(v) for k, v in value.items()}
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
            staged=tuple(_jsonish(a.model_dump(exclude_none=True)) for a in s.staged),
            files=s.files,
            before=_jsonish(s.before) if s.before is not None else None,
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


# -- the parts of a file that fails its schema ----------------------------------------------------

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
            sel["staged"] = [_jsonish(dict(a)) for a in s.staged]
        _put(sel, "files", s.files)
        if s.before is not None:
            sel["before"] = _jsonish(dict(s.before))
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
        doc["triggers"] = [_jsonish(dict(t)) for t in state.triggers]
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

    staged = tuple(_jsonish(dict(a)) for a in sel.staged)
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

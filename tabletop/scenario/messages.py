"""Pydantic validation errors rendered as lines a user can act on.

``units[2].models[0].base: unknown base "33 mm"; write "32mm", ...``: the path is the key's place
in the file (dotted keys, ``[i]`` for array items, without pydantic's union tags), then what is
wrong and, where it helps, what to write instead.
"""

from __future__ import annotations

import difflib
import functools
import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from tabletop.errors import describe, quote
from tabletop.scenario.schema import SCENARIO_MODELS, Wh40kScenario

__all__ = ["format_path", "position", "render_errors"]

_ROOTS: dict[str, type[BaseModel]] = dict(SCENARIO_MODELS)

_PATH_PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,80}")


def format_path(parts: typing.Sequence[str | int]) -> str:
    """``("units", 2, "models", 0, "base")`` -> ``"units[2].models[0].base"``.

    A key that is not a plain word (a key of the file with spaces, dots, quotes or control
    characters in it) is written quoted and escaped: ``units[0]["a.b\\n"]``.
    """
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif not _BARE_KEY.fullmatch(str(p)):
            out += f"[{quote(str(p))}]"
        else:
            out += f".{p}" if out else str(p)
    return out


def _strip(tp: Any) -> Any:
    """Remove ``Annotated`` and ``None`` from an annotation."""
    while True:
        origin = get_origin(tp)
        if origin is typing.Annotated:
            tp = get_args(tp)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
            else:
                return tp
        else:
            return tp


def _union_members(tp: Any) -> list[type[BaseModel]]:
    if get_origin(tp) in (Union, types.UnionType):
        return [a for a in get_args(tp) if isinstance(a, type) and issubclass(a, BaseModel)]
    return []


def _tags(model: type[BaseModel]) -> set[str]:
    for name in ("do", "ruleset"):
        field = model.model_fields.get(name)
        if field is not None and get_origin(field.annotation) is Literal:
            return set(get_args(field.annotation))
    return set()


def _walk(loc: tuple[str | int, ...]) -> tuple[list[str | int], Any]:
    """The user-facing path of ``loc`` and the type found at its end (``None`` if unknown)."""
    parts: list[str | int] = []
    current: Any = None
    items = list(loc)
    if items and isinstance(items[0], str) and items[0] in _ROOTS:
        current = _ROOTS[str(items.pop(0))]
    for item in items:
        tp = _strip(current) if current is not None else None
        members = _union_members(tp) if tp is not None else []
        if members and isinstance(item, str):
            chosen = [m for m in members if item in _tags(m)]
            if chosen:
                current = chosen[0]
                continue
        parts.append(item)
        if tp is None:
            current = None
        elif isinstance(item, int) and get_origin(tp) in (list, tuple):
            args = get_args(tp)
            current = args[0] if args else None
        elif isinstance(item, str) and isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(item)
            current = field.annotation if field is not None else None
        else:
            current = None
    return parts, current


def _quoted_choices(expected: str) -> str:
    """``"'a', 'b' or 'c'"`` -> ``'"a", "b" or "c"'``."""
    options = [f'"{o}"' for o in re.findall(r"'([^']*)'", expected)]
    if len(options) < 2:
        return expected.replace("'", '"')
    return ", ".join(options[:-1]) + " or " + options[-1]


def _misplaced_top_level(key: str, loc: Sequence[str | int]) -> str | None:
    """The fix for a top-level key found inside an array item (TOML's ``[[table]]`` trap)."""
    top = {key for model in SCENARIO_MODELS.values() for key in model.model_fields}
    if key not in top or not any(isinstance(part, int) for part in loc):
        return None
    table = next((str(p) for p in loc if isinstance(p, str) and p not in _ROOTS), "table")
    return (f'"{key}" belongs at the top level of the file (in TOML, a key written after a '
            f"[[{table}]] header belongs to that table: move it above the first [[...]] header)")


def _message(err: Mapping[str, Any], parent: Any) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = describe(err.get("input"))
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        key = str(err["loc"][-1])
        tp = _strip(parent)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            allowed = list(tp.model_fields)
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            misplaced = _misplaced_top_level(key, err["loc"])
            if misplaced:
                return f"unknown key; {misplaced}"
            return f"unknown key{hint}; allowed here: {', '.join(allowed)}"
        return "unknown key"
    if kind in ("string_type", "str_type"):
        return f"expected a string, got {got}"
    if kind in ("int_type", "int_from_float", "int_parsing"):
        return f"expected a whole number, got {got}"
    if kind in ("float_type", "float_parsing"):
        return f"expected a number, got {got}"
    if kind == "finite_number":
        return f"expected a finite number, got {got}"
    if kind == "bool_type":
        return f"expected true or false, got {got}"
    if kind in ("list_type", "tuple_type"):
        return f"expected an array, got {got}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"expected a table, got {got}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, got {got}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}, got {got}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, got {got}"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
    if kind == "literal_error":
        return f"unknown value {got}; write {_quoted_choices(str(ctx.get('expected')))}"
    if kind == "union_tag_invalid":
        return (f"unknown value {describe(ctx.get('tag'))}; write "
                f"{_quoted_choices(str(ctx.get('expected_tags')))}")
    return str(err.get("msg", kind))


def render_errors(errors: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """Pydantic ``ValidationError.errors()`` as ``(path, message)`` pairs, in file order."""
    out: list[tuple[str, str]] = []
    for err in errors:
        loc = tuple(err.get("loc", ()))
        kind = err["type"]
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            # The tag itself is the problem: point at the tag's key.
            parts, _ = _walk(loc)
            tag_key = str(err.get("ctx", {}).get("discriminator", "")).strip("'")
            path = format_path([*parts, tag_key])
            if kind == "union_tag_not_found":
                if not parts:
                    out.append((path, "required key is missing; write "
                                + " or ".join(f'"{n}"' for n in SCENARIO_MODELS)))
                else:
                    out.append((path, "required key is missing"))
            else:
                out.append((path, _message(err, None)))
            continue
        if kind in ("model_attributes_type", "model_type", "dict_type") and not loc:
            out.append(("", "a scenario file is a table of keys (format, name, ruleset, battle, "
                            f"players, units, ...), got {describe(err.get('input'))}"))
            continue
        parts, _ = _walk(loc)
        parent_parts, parent = _walk(loc[:-1]) if loc else ([], None)
        del parent_parts
        out.append((format_path(parts), _message(err, parent)))
    return out


def position(path: str, ruleset: str | None = None) -> tuple[int, ...]:
    """A sort key putting ``path`` (``"units[2].models[0].base"``) at its place in the file.

    Keys are ordered as the format lists them (the order of the schema, in which pydantic reports
    its errors), unknown keys after the known ones, array items by index, and a path before the
    paths inside it. ``ruleset`` chooses the schema (wh40k-11e when unknown).
    """
    indices = iter(int(i) for i in _INDEX.findall(path))
    return tuple(next(indices) if slot < 0 else slot
                 for slot in _key_slots(_INDEX.sub("[0]", path), ruleset))


_INDEX = re.compile(r"\[(\d+)\]")


@functools.lru_cache(maxsize=4096)
def _key_slots(template: str, ruleset: str | None) -> tuple[int, ...]:
    """The sort key of a path with its array indices as -1 (filled in by :func:`position`)."""
    current: Any = _ROOTS.get(ruleset or "", Wh40kScenario)
    key: list[int] = []
    for index, name in _PATH_PART.findall(template):
        tp = _strip(current) if current is not None else None
        if index:
            key.append(-1)
            args = get_args(tp) if get_origin(tp) in (list, tuple) else ()
            current = args[0] if args else None
            continue
        for member in _union_members(tp):
            if name in member.model_fields:
                tp = member
                break
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            names = list(tp.model_fields)
            if name in names:
                key.append(names.index(name))
                current = tp.model_fields[name].annotation
                continue
            key.append(len(names))
        else:
            key.append(0)
        current = None
    return tuple(key)

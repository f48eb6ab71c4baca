"""Reading untrusted scenario text within bounds: what is refused before it can take long
(size, number of values, TOML's lines and dotted keys, nesting, number of models), and the
parse itself with one-line errors naming the file, the line and the column.

Scenario files, action files and trigger files all pass through here
(:mod:`tabletop.scenario.io`); the limits are on the Limits page of the docs.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any, Literal

from tabletop.errors import UserError
from tabletop.files import collector_paused, long_number, nested_deeper
from tabletop.scenario.schema import describe

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DOTTED_KEY",
    "MAX_ITEMS",
    "MAX_MODELS",
    "MAX_TOML_BYTES",
    "MAX_TOML_LINE",
    "MAX_TOML_LINES",
    "Format",
    "parse_text",
    "refuse_bulky",
    "refuse_deep",
    "refuse_many_models",
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


def parse_text(text: str, fmt: Format, source: str, what: str = "a scenario file") -> Any:
    """``text`` parsed as ``fmt`` (JSON refusing a key twice in one object), or a one-line
    :class:`UserError` naming ``source``, the line and the column (``what``: the kind of file,
    in messages)."""
    try:
        with collector_paused():
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


def refuse_bulky(text: str, fmt: Format, source: str, what: str = "a scenario file") -> None:
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


def refuse_deep(raw: Any, source: str, what: str = "a scenario file",
                json_text: str | None = None) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (iterative, linear time).

    ``json_text``: the JSON text ``raw`` was read from, whose brackets are counted instead of
    walking the value (:func:`~tabletop.files.nested_deeper`: a few numpy passes; the walk took
    a third of a second of a 4 MB file of hulls)."""
    if json_text is not None:
        if nested_deeper(json_text, MAX_DEPTH):
            raise UserError(f"{source}: nested deeper than {MAX_DEPTH} levels; {what} needs far "
                            "fewer")
        return
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


def refuse_many_models(raw: Any, source: str) -> None:
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

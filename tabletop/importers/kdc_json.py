"""Reading and checking the 40kdc JSON files: each file bounded (:data:`MAX_FILE_BYTES`, a
regular file, UTF-8, nesting), and every value of the wrong kind, number out of bounds or
polygon of too many points one :class:`~tabletop.errors.UserError` line naming the file and
the field (``where``). The limits are in :mod:`tabletop.importers.kdc`'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, quote
from tabletop.files import read_json as read_json_file
from tabletop.scenario.schema import MAX_NUMBER, MAX_POLYGON_POINTS
from tabletop.state import Point

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_POINTS",
    "as_array",
    "as_object",
    "fail",
    "kind_of",
    "num",
    "points",
    "read_id",
    "read_json",
    "vec",
]

MAX_FILE_BYTES = 20 * 2**20
"""Largest 40kdc file read (20 MB; the published layouts file is 0.6 MB)."""

MAX_POINTS = MAX_POLYGON_POINTS
"""Most points of a footprint or a deployment zone (the scenario format's 64)."""


def read_json(path: str | Path, what: str) -> Any:
    """Read a 40kdc JSON file (see *Limits* in :mod:`tabletop.importers.kdc`), turning every failure
    into a one-line :class:`UserError` that names the file."""
    p = Path(path)
    try:
        return read_json_file(p, MAX_FILE_BYTES, what=f"the 40kdc {what}")
    except FileNotFoundError:
        raise UserError(f"{p}: no such file (expected the 40kdc {what})") from None
    except OSError as exc:
        raise UserError(f"{p}: cannot read it ({exc.strerror or exc})") from None


def fail(where: str, message: str) -> UserError:
    """The one-line error of ``message`` about the field ``where``."""
    return UserError(f"{where}: {message}")


def as_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else :func:`fail`."""
    if not isinstance(value, dict):
        raise fail(where, f"expected a JSON object, got {kind_of(value)}")
    return value


def as_array(value: Any, where: str) -> list[Any]:
    """``value`` if it is a JSON array, else :func:`fail`."""
    if not isinstance(value, list):
        raise fail(where, f"expected a JSON array, got {kind_of(value)}")
    return value


def kind_of(value: Any) -> str:
    """What ``value`` is, in words, for a message (``the string "x"``, ``an array``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "an array"
    return "an object"


def num(obj: Mapping[str, Any], key: str, where: str, default: float | None = None,
         *, positive: bool = False, nonnegative: bool = False) -> float:
    """``obj[key]`` (else ``default``) as a finite number of at most ``MAX_NUMBER`` in size
    (above 0 if ``positive``, at least 0 if ``nonnegative``), else :func:`fail`."""
    value = obj.get(key, default)
    if value is None:
        raise fail(f"{where}.{key}", "missing (a number is required)")
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise fail(f"{where}.{key}", f"expected a number, got {kind_of(value)}")
    if abs(value) > MAX_NUMBER:  # (an int of 400 digits is no float: compared as it is)
        shown = f"{value:g}" if isinstance(value, float) or abs(value) < 1e300 else \
            f"a number of {len(str(abs(value))):,} digits"
        raise fail(f"{where}.{key}", f"expected a number of at most {MAX_NUMBER:,.0f} in size, "
                    f"got {shown}")
    if positive and value <= 0:
        raise fail(f"{where}.{key}", f"expected a number above 0, got {value}")
    if nonnegative and value < 0:
        raise fail(f"{where}.{key}", f"expected a number of at least 0, got {value}")
    return float(value)


def points(value: Any, where: str) -> list[Point]:
    """A polygon's ``points`` (3 to :data:`MAX_POINTS` of them), counted before they are read."""
    pts = as_array(value, where)
    if not 3 <= len(pts) <= MAX_POINTS:
        raise fail(where, f"a polygon has 3 to {MAX_POINTS} points, got {len(pts):,}")
    return [vec(p, f"{where}[{i}]") for i, p in enumerate(pts)]


def vec(value: Any, where: str) -> Point:
    """A point ``{"x": number, "y": number}``, else :func:`fail`."""
    if not isinstance(value, dict) or "x" not in value or "y" not in value:
        raise fail(where, f'expected an object {{"x": number, "y": number}}, got {kind_of(value)}')
    return (num(value, "x", where), num(value, "y", where))


def read_id(obj: Mapping[str, Any], where: str) -> str:
    """``obj["id"]``, a non-empty string, else :func:`fail`."""
    value = obj.get("id")
    if not isinstance(value, str) or not value:
        raise fail(f"{where}.id", f"expected a non-empty string, got {kind_of(value)}")
    return value

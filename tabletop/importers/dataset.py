"""The current community data: the ``wh40kdc`` package (an optional extra).

``wh40kdc`` (PyPI, MIT; Alpaca Software and the 40kdc community contributors) embeds the 40kdc
data set: the Chapter Approved 11th edition terrain layouts (re-sourced from Battlemaster), the
terrain templates, deployment maps, mission matchups, units with their bases and hulls, and
importers of army lists. It is installed by the extra ``40kdc``
(``pip install "tabletop-zones[40kdc]"``); everything that reads it goes through this module,
which says so in one line when it is missing. The data page of the docs says which version the
project is tested with and how to update it.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from tabletop.errors import UserError

__all__ = [
    "CREDIT",
    "EXTRA",
    "LICENCE",
    "MISSING",
    "available",
    "by_faction",
    "by_id",
    "dataset",
    "raw",
    "require",
    "version",
]

EXTRA = "40kdc"
"""The optional extra that installs ``wh40kdc``."""
CREDIT = "Alpaca Software and the 40kdc community contributors"
LICENCE = "MIT"
MISSING = ('this needs the community data package wh40kdc, which is not installed: '
           'pip install "tabletop-zones[40kdc]" (or pip install wh40kdc)')
"""The one line said when ``wh40kdc`` is missing."""


def available() -> bool:
    """Whether ``wh40kdc`` can be imported."""
    try:
        require()
    except UserError:
        return False
    return True


@cache
def require() -> ModuleType:
    """The ``wh40kdc`` module; :class:`UserError` (:data:`MISSING`) when it is not installed."""
    try:
        import wh40kdc
    except ImportError:
        raise UserError(MISSING) from None
    return wh40kdc


def version() -> str:
    """The installed ``wh40kdc`` version (``"1.4.5"``)."""
    return str(require().__version__)


@cache
def raw() -> dict[str, list[Any]]:
    """The embedded data set as published: one list of records per collection (read-only)."""
    require()
    from wh40kdc.data import raw_data

    return raw_data()


@cache
def by_id(collection: str) -> dict[str, dict[str, Any]]:
    """The records of ``collection`` (``"terrain_layouts"``, ``"terrain_templates"``,
    ``"deployment_patterns"``, ``"mission_matchups"``, ``"missions"``, ``"hull_shapes"``) by id,
    first one wins."""
    out: dict[str, dict[str, Any]] = {}
    for record in raw()[collection]:
        out.setdefault(str(record["id"]), record)
    return out


@cache
def by_faction(collection: str, key: str) -> dict[tuple[str, str], dict[str, Any]]:
    """The records of ``collection`` (``"units"``, ``"unit_compositions"``) by their faction
    and their ``key`` field (the same unit id recurs across factions), first one wins."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for record in raw()[collection]:
        out.setdefault((str(record["faction_id"]), str(record[key])), record)
    return out


@cache
def dataset() -> Any:
    """The linked ``wh40kdc.Dataset`` of the embedded data (for the army-list importers)."""
    return require().Dataset.embedded()

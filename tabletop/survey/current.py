"""The survey's catalogue of bases on the current community data (``wh40kdc``).

:func:`catalogue` gives every distinct base of the data's units with the number of units on it
(the traced hulls, the draft flying bases and the stated fallbacks included, each said so), as
the survey's catalogue entries: the default bases of
:func:`tabletop.survey.jobs.plan_dataset`, and the names ``--bases`` knows there.
"""

from __future__ import annotations

from typing import Any

from tabletop.importers import dataset
from tabletop.importers.unit_bases import base_catalogue
from tabletop.survey.jobs import entry, hulls, movement_keywords

__all__ = ["catalogue", "known", "source"]


def catalogue() -> list[dict[str, Any]]:
    """Every distinct base of the data's units as survey catalogue entries, most used first:
    ``name`` (``"32mm"``, ``"Falcon hull"``, ``"Rhino hull (stand-in)"``), ``spec`` (the base,
    or a hull's polygon), ``units``, ``width``, ``length``, ``keywords`` (the keyword that
    decides which dense terrain stops it, :func:`~tabletop.survey.jobs.movement_keywords`) and
    ``sources`` (how many of its units got it from a size of the data, a draft size, a traced
    hull or a stated fallback)."""
    from tabletop.geometry.footprints import parse_base

    out = []
    for e in base_catalogue():
        hull = tuple(tuple(p) for p in e["hull"]) if e["hull"] else None
        fp = parse_base(e["spec"], hull)  # type: ignore[arg-type]
        spec: Any = e["spec"] if hull is None else [list(p) for p in hull]
        item = entry(e["name"], spec, fp, e["units"], movement_keywords(e["keyword_sets"]))
        item["sources"] = dict(e["sources"])
        out.append(item)
    return out


def source(bases: list[dict[str, Any]]) -> dict[str, Any]:
    """The plan's ``catalogue`` note for :func:`catalogue`."""
    return {"source": f"wh40kdc {dataset.version()}", "distinct": len(bases),
            "units": sum(int(b["units"]) for b in bases)}


def known() -> list[dict[str, Any]]:
    """The entries ``--bases`` may name on the current data: the catalogue and the shipped
    vehicle hulls."""
    return [*catalogue(), *(dict(h) for h in hulls())]

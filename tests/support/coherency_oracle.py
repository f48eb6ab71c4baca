"""Coherency by measuring every pair of a unit: the code the indexed check replaced (issue 28),
kept as the independent method the tests and ``benchmarks/coherency.py`` compare it with."""

from __future__ import annotations

from tabletop.geometry.tolerance import EPS
from tabletop.rulesets.wh40k_11e.checks import closest
from tabletop.state import Unit

__all__ = ["all_pairs"]


def all_pairs(unit: Unit) -> list[tuple[str, tuple[str, ...], float]]:
    """The coherency violations by measuring every pair (the code the index replaced)."""
    models = [m for m in unit.models if m.at is not None]
    if len(models) < 2:
        return []
    dist = {(i, j): closest(models[i], models[j])[0]
            for i in range(len(models)) for j in range(i + 1, len(models))}
    out = []
    for i, m in enumerate(models):
        best = min((dist[min(i, j), max(i, j)], j) for j in range(len(models)) if j != i)
        if best[0] > 2.0 + EPS:
            out.append(("coherency-2", (m.id, models[best[1]].id), best[0]))
    out += [("coherency-9", (models[i].id, models[j].id), d) for (i, j), d in dist.items()
            if d > 9.0 + EPS]
    return out

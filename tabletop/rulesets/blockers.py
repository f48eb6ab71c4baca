"""Which terrain pieces stop a moving model (``tabletop fit`` and the layout survey)."""

from __future__ import annotations

from typing import Any

from tabletop.rules import rulings
from tabletop.state import GameState

__all__ = ["blocking_pieces"]


def blocking_pieces(state: GameState, keywords: tuple[str, ...] | None
                    ) -> tuple[list[tuple[str, Any]], str]:
    """The terrain pieces (id, polygon) that stop a mover with ``keywords`` (``None``: a model
    that crosses no dense terrain taller than 2", like a vehicle or a monster), and what they
    are."""
    from tabletop import rulesets

    if "dense" not in rulesets.of(state).terrain_kinds:
        return [(t.id, t.shape) for t in state.terrain if t.kind == "impassable"], \
            "impassable terrain"
    crosses = keywords is not None and any(k in keywords for k in rulings.DENSE_CROSSERS)
    out = [(t.id, t.shape) for t in state.terrain if t.kind == "impassable" or
           (t.kind == "dense" and not crosses and t.height > rulings.DENSE_LOW)]
    what = "impassable terrain" + ("" if crosses else
                                   f" and dense terrain taller than {rulings.DENSE_LOW:g}\"")
    return out, what

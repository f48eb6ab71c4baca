"""Which terrain pieces stop a moving model (``tabletop fit`` and the layout survey)."""

from __future__ import annotations

from typing import Any

from tabletop.state import GameState

__all__ = ["blocking_pieces"]


def blocking_pieces(state: GameState, keywords: tuple[str, ...] | None
                    ) -> tuple[list[tuple[str, Any]], str]:
    """The terrain pieces (id, polygon) that stop a mover with ``keywords`` (``None``: a model
    that crosses nothing the others cannot, like a vehicle or a monster), and what they are:
    the ruleset's :meth:`~tabletop.rules.ruleset.Ruleset.path_blockers`."""
    from tabletop import rulesets

    return rulesets.of(state).path_blockers(state, keywords)

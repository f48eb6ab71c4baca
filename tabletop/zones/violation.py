"""One failed rule, with the geometry that caused it, so the window can draw why."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shapely.geometry.base import BaseGeometry

__all__ = ["Violation"]


@dataclass(frozen=True)
class Violation:
    """One failed condition: of a point, a path, a set-up or a unit's move.

    Attributes
    ----------
    rule : str
        A short code. Zones and paths: ``off-battlefield``, ``overlap-model``,
        ``overlap-terrain``, ``engaged``, ``too-far``, ``unreachable``, ``path-too-long``,
        ``crosses-enemy``, ``crosses-terrain``, ``leaves-battlefield``, ``ingress-round``,
        ``ingress-edge``, ``ingress-enemy``, ``ingress-zone``, ``disembark-range``. A unit's
        move: ``coherency-2``, ``coherency-9``, ``overlap``, ``edge``, ``terrain``, ``unplaced``,
        ``setup-enemy``...
    message : str
        The reason in words a player understands (which rule, which models, which distance).
    models : tuple of str
        The ids involved: the moving model first, then the other model or terrain piece.
    distance : float or None
        The distance measured, inches.
    limit : float or None
        The distance the rule allows or demands, inches.
    geometry : shapely geometry or None
        What caused it: a base, an engagement area, a terrain piece, a swept segment, or the
        segment between the closest points.
    """

    rule: str
    message: str
    models: tuple[str, ...] = ()
    distance: float | None = None
    limit: float | None = None
    geometry: BaseGeometry | None = None

    @property
    def subject(self) -> str | None:
        """The other model or terrain piece involved, if any."""
        return self.models[1] if len(self.models) > 1 else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-able form (geometry as WKT)."""
        out: dict[str, Any] = {"rule": self.rule, "message": self.message,
                               "models": list(self.models)}
        if self.distance is not None and math.isfinite(self.distance):
            out["distance"] = round(self.distance, 6)
        if self.limit is not None:
            out["limit"] = self.limit
        if self.geometry is not None:
            out["geometry"] = self.geometry.wkt
        return out

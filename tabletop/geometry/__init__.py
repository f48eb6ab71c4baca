"""Pure geometry: footprints, distances, reachability. Imports nothing else from tabletop."""

from tabletop.geometry.footprints import (
    BASE_HELP,
    BaseParseError,
    Footprint,
    Hull,
    Oval,
    Rect,
    Round,
    circumscribed_circle,
    distance,
    footprint_distance,
    parse_base,
)
from tabletop.geometry.tolerance import EPS, MM_PER_INCH, mm

__all__ = [
    "BASE_HELP",
    "EPS",
    "MM_PER_INCH",
    "BaseParseError",
    "Footprint",
    "Hull",
    "Oval",
    "Rect",
    "Round",
    "circumscribed_circle",
    "distance",
    "footprint_distance",
    "mm",
    "parse_base",
]

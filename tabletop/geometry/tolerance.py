"""The one tolerance and the unit conversions used everywhere."""

from __future__ import annotations

EPS: float = 1e-6
"""Tolerance for floating-point noise in every rules comparison, in inches (nothing larger)."""

MM_PER_INCH: float = 25.4
"""Millimetres per inch: base sizes are in mm, everything else in inches."""


def mm(value_mm: float) -> float:
    """Convert millimetres to inches."""
    return value_mm / MM_PER_INCH

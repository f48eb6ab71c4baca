"""The one conversion between inches on the battlefield and pixels on a surface.

Pure arithmetic, no pygame: testable without SDL. Screen pixels grow right and down, like the
board's inches, so the transform is a scale and an offset (no flip).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

Px = tuple[float, float]
Inches = tuple[float, float]

MIN_SCALE = 2.0
"""Smallest zoom, pixels per inch."""

MAX_SCALE = 400.0
"""Largest zoom, pixels per inch."""


@dataclass(frozen=True)
class Viewport:
    """Map inches to pixels: ``px = origin + inches * scale``.

    Attributes
    ----------
    scale:
        Pixels per inch.
    ox, oy:
        Pixel position of the battlefield's origin (its top-left corner).

    Examples
    --------
    >>> v = Viewport(scale=10.0, ox=5.0, oy=5.0)
    >>> v.to_px(1.0, 2.0)
    (15.0, 25.0)
    >>> v.to_inches(15.0, 25.0)
    (1.0, 2.0)
    """

    scale: float = 16.0
    ox: float = 0.0
    oy: float = 0.0

    @classmethod
    def fit(
        cls,
        width: float,
        depth: float,
        area: tuple[float, float, float, float],
        *,
        margin: float = 0.0,
    ) -> Viewport:
        """The viewport showing a ``width`` x ``depth`` battlefield whole, centred in ``area``.

        ``area`` is ``(left, top, width, height)`` in pixels; ``margin`` pixels are kept free on
        every side.
        """
        left, top, aw, ah = area
        aw2 = max(aw - 2 * margin, 1.0)
        ah2 = max(ah - 2 * margin, 1.0)
        scale = min(aw2 / width, ah2 / depth)
        ox = left + (aw - width * scale) / 2.0
        oy = top + (ah - depth * scale) / 2.0
        return cls(scale=scale, ox=ox, oy=oy)

    def to_px(self, x: float, y: float) -> Px:
        """Pixel position of the point ``(x, y)`` in inches."""
        return (self.ox + x * self.scale, self.oy + y * self.scale)

    def to_inches(self, px: float, py: float) -> Inches:
        """Battlefield position, in inches, of the pixel ``(px, py)``."""
        return ((px - self.ox) / self.scale, (py - self.oy) / self.scale)

    def length(self, inches: float) -> float:
        """A length in inches, in pixels."""
        return inches * self.scale

    def zoomed(self, factor: float, about: Px) -> Viewport:
        """Zoom by ``factor`` keeping the point under the pixel ``about`` where it is.

        The scale is clamped to [:data:`MIN_SCALE`, :data:`MAX_SCALE`].
        """
        scale = min(max(self.scale * factor, MIN_SCALE), MAX_SCALE)
        x, y = self.to_inches(*about)
        return Viewport(scale=scale, ox=about[0] - x * scale, oy=about[1] - y * scale)

    def panned(self, dx: float, dy: float) -> Viewport:
        """Move the picture by ``(dx, dy)`` pixels."""
        return replace(self, ox=self.ox + dx, oy=self.oy + dy)

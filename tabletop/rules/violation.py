"""One failed rule, with the geometry that caused it (:class:`tabletop.zones.violation.Violation`:
the zone engine's, which every rule check returns too)."""

from __future__ import annotations

from tabletop.zones.violation import Violation

__all__ = ["Violation"]

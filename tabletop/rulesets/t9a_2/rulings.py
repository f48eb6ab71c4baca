"""The rulings of t9a-2 as named constants (``docs/rulings.md``, seed 001).

One place for each number or choice; the rules read them as ``rulings.NAME`` when they need
them, so a variant (T9A-2022, say) changes a ruling by changing one attribute.
"""

from __future__ import annotations

MARCH_TEST_RANGE = 8.0
"""A March Test is needed with a non-fleeing enemy unit within this distance (inches)."""

UNIT_SPACING = 1.0
"""At the end of a voluntary move a unit is more than this from other units and impassable
terrain."""

DECIMATED_FRACTION = 0.25
"""A unit with this fraction of its starting models or fewer is Decimated (half Discipline)."""

FLEE_DANGEROUS_TERRAIN = 3
"""Dangerous Terrain (X) for models fleeing through enemies or impassable terrain (seed: 3)."""

DANGEROUS_TERRAIN_VALUE = 1
"""Dangerous Terrain (X) of terrain of kind ``dangerous`` touched by a March or Flee move when the
piece gives no ``dangerous`` key (the scenario format's default, 1)."""

FAILED_MARCH_TEST_MARCHES_AT_ADVANCE = True
"""Seed ruling: a failed March Test still marches, capped at the Advance Rate (T9A-2022: False,
no March Move at all)."""

SWIFT_REFORM = "swift-reform"
"""Block flag of the Swift Reform special rule: reform, then Advance (T18)."""

TURN_FLAGS = frozenset({"moved", "marched", "reformed", "no-shooting", "shaken", "rallied"})
"""Flags that last until the end of the player turn."""


WHEEL_MAX = 180.0
"""A wheel turns at most this many degrees either way (rulings; checked before any swept area
is built)."""

LEGS_AT_MOST_RATE = True
"""The legs of one move in one direction add up to at most that direction's rate: the forward
legs of an Advance or March (its wheels aside) to the Advance or March Rate (seed: "forward, a
distance not exceeding the Advance Rate, with any number of wheels"), backward and sideways legs
to half the Advance Rate. The per-model displacement cap applies besides."""

PANIC_RANGE = 6.0
"""Friends within this of a unit destroyed by fleeing into the battlefield edge take a Panic
test (rulings), inches."""

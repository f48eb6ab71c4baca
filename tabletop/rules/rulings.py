"""The wh40k-11e rulings as named constants: one place for each number (spec/rulings.md).

Code reads them as ``rulings.NAME`` at the moment it needs them, so a ruleset variant (or a test
that proves the zone goldens catch a wrong engagement range) changes a ruling by changing one
attribute here.
"""

from __future__ import annotations

ENGAGEMENT_RANGE = 2.0
"""Engagement range, horizontal inches (heights ignored: a 2D simulator)."""
COHERENCY_ONE = 2.0
"""Coherency: within this of at least one other model of the unit (11e §03.03)."""
COHERENCY_ALL = 9.0
"""Coherency: within this of every other model of the unit (11e §03.03; no 7+ rule)."""

DENSE_CROSSERS = ("INFANTRY", "BEASTS", "SWARM", "MOBILE")
"""Keywords whose models cross dense terrain features (rules-notes item 2)."""
DENSE_LOW = 2.0
"""Other models cross a dense feature only if its ``height`` is at most this, inches."""
BIG = ("MONSTER", "VEHICLE")
"""A mover with one of these passes over models with neither (normal and advance moves)."""
END_TERRAIN = ("light", "dense", "impassable")
"""Terrain kinds no model may end a move overlapping (terrain features; ``area`` has no effect)."""

CORE_CP = 1
"""CP each player gains in the Gain Core CP step (08.02)."""
INSANE_BRAVERY_CP = 1
"""Cost of the Insane Bravery stratagem (once per battle)."""
HAZARD_FAIL_MAX = 2
"""A hazard roll fails on this or less (06.03)."""
HAZARD_MW = 1
HAZARD_MW_BIG = 3
"""Mortal wounds per failed hazard roll; the second when every model is MONSTER or VEHICLE."""

INGRESS_FIRST_ROUND = 2
"""Ingress moves are allowed from this battle round."""
INGRESS_EDGE = 6.0
"""Ingress: wholly within this of a battlefield edge, inches."""
INGRESS_ENEMY = 8.0
"""Ingress: more than this from every enemy model, inches."""
INGRESS_ZONE_FROM_ROUND = 3
"""From this battle round an ingress may end in the enemy deployment zone."""
RESERVES_LAST_ROUND = 3
"""Units still in strategic reserves at the end of this battle round are destroyed."""
DISEMBARK_RANGE = {"rapid": 3.0, "tactical": 3.0, "combat": 6.0}
"""Disembark: wholly within this of the transport, per mode, inches."""
EMBARK_RANGE = 3.0
"""Embark: every model within this of the transport, inches."""

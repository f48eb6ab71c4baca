"""The rulings of wh40k-11e as named constants (``docs/rulings.md``, seeds 000 and 004).

One place for each number or choice, so a variant (or a test that proves the zone goldens catch
a wrong engagement range) changes a ruling by changing one attribute: the ruleset reads them as
``rulings.NAME`` when it needs them. The first ones are those it builds the zone engine's
queries from (:mod:`tabletop.rulesets.wh40k_11e.zones`: engagement range, crossing, set-up
distances); the engine itself knows no ruleset.
"""

from __future__ import annotations

ENGAGEMENT_RANGE = 2.0
"""Engagement range, horizontal inches (heights ignored: a 2D simulator)."""
COHERENCY_ONE = 2.0
"""Coherency: within this of at least one other model of the unit (11e §03.03)."""
COHERENCY_ALL = 9.0
"""Coherency: within this of every other model of the unit (11e §03.03; no 7+ rule)."""

DENSE_CROSSERS = ("INFANTRY", "BEASTS", "SWARM", "MOBILE")
"""Keywords whose models cross dense terrain features (``docs/rulings.md``)."""
DENSE_LOW = 2.0
"""Other models cross a dense feature only if its ``height`` is at most this, inches."""
BIG = ("MONSTER", "VEHICLE")
"""A mover with one of these passes over models with neither (normal and advance moves)."""
FLY = "FLY"
"""A unit with this keyword may take to the skies in a normal, advance or fall-back move: it
passes over every model and all terrain (rulings)."""
HOVER = "HOVER"
"""A FLY unit with this keyword takes to the skies without losing distance."""
FLY_PENALTY = 2.0
"""Taking to the skies costs this much of the move's maximum distance, inches (21.03)."""
END_TERRAIN = ("light", "dense", "impassable")
"""Terrain kinds no model may end a move overlapping (terrain features; ``area`` has no effect)."""

INGRESS_FIRST_ROUND = 2
"""Ingress moves are allowed from this battle round."""
INGRESS_EDGE = 6.0
"""Ingress: wholly within this of a battlefield edge, inches."""
INGRESS_ENEMY = 8.0
"""Ingress: more than this from every enemy model, inches."""
INGRESS_ZONE_FROM_ROUND = 3
"""From this battle round an ingress may end in the enemy deployment zone."""
DISEMBARK_RANGE = {"rapid": 3.0, "tactical": 3.0, "combat": 6.0, "emergency": 6.0}
"""Disembark: wholly within this of the transport, per mode, inches (``emergency``: the
transport was destroyed, 18.05; unengaged, with no exception for the transport's enemies)."""


CORE_CP = 1
"""CP each player gains in the Gain Core CP step (08.02)."""
INSANE_BRAVERY_CP = 1
"""Cost of the Insane Bravery stratagem (once per battle)."""
HAZARD_FAIL_MAX = 2
"""A hazard roll fails on this or less (06.03)."""
HAZARD_MW = 1
HAZARD_MW_BIG = 3
"""Mortal wounds per failed hazard roll; the second when every model is MONSTER or VEHICLE."""
RESERVES_LAST_ROUND = 3
"""Units still in strategic reserves at the end of this battle round are destroyed."""
EMBARK_RANGE = 3.0
"""Embark: every model within this of the transport, inches."""
BANE_OF_COWARDS = "BANE OF COWARDS"
"""Enemy ability (a keyword): -1 to Desperate Escape hazard rolls of a battle-shocked unit."""
DEEP_STRIKE = "DEEP STRIKE"
"""The keyword that allows the deep-strike mode of an ingress move."""
AS_CLOSE_AS_POSSIBLE = 0.1
"""Emergency disembark (18.05) "as close as possible": a model is refused if a free spot of its
set-up zone would put its base more than this closer to the destroyed transport, inches."""
OBJECTIVE_RANGE = 3.0
"""A model is in range of an objective marker within this, horizontal inches (rules notes §13)."""
OBJECTIVE_MARKER_MM = 40.0
"""An objective marker is a disc of this diameter, millimetres."""

"""Rulings the legal-zone engine reads: skirmish movement (``docs/rulings.md``, seeds 000 and 004).

The zone engine (:mod:`tabletop.rules.zones`) and the end-of-move checks of a skirmish ruleset
read them as ``rulings.NAME`` at the moment they need them, so a ruleset variant (or a test that
proves the zone goldens catch a wrong engagement range) changes a ruling by changing one
attribute here. The values are those of wh40k-11e; its other rulings (Command points, hazards,
reserves) are in its own package.
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
UNKNOWN_HEIGHT = 3.0
"""The height, inches, of a terrain piece whose data gives none (a scenario's
``unknown_height`` overrides it): taller than :data:`DENSE_LOW`, so a dense wall of unknown
height stops the models that do not cross dense terrain, as the data's dense features that do
have a height (3" to 6") all would. Heights matter here only for that crossing rule."""
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

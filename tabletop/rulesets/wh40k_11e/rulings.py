"""The rulings of wh40k-11e as named constants (``docs/rulings.md``, seeds 000 and 004).

One place for each number or choice, so a variant changes a ruling by changing one attribute.
The movement rulings the legal-zone engine reads (engagement range, coherency, crossing,
set-up distances) are in :mod:`tabletop.rules.rulings`.
"""

from __future__ import annotations

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

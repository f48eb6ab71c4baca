"""Rulesets other than the wh40k core: t9a-2 rank-and-file movement."""

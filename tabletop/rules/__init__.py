"""What every ruleset shares: the interface, actions, dice, results, turns, triggers and tools.

:class:`~tabletop.rules.ruleset.Ruleset` is the interface every ruleset implements; the other
modules hold the form of actions, results and violations, the turn structure and its triggers,
dice, and the queries of the window's tools. Each ruleset's own rules are in its package under
:mod:`tabletop.rulesets`.
"""

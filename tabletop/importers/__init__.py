"""Importers: build scenario states from data published by others.

:mod:`tabletop.importers.kdc` reads the 40kdc community data set (terrain layouts, terrain
templates, deployment maps) and :mod:`tabletop.importers.kdc_units` its units file. Importers sit
beside the scenario I/O layer: they build :class:`tabletop.state.GameState` objects, which
:mod:`tabletop.scenario.io` writes.
"""

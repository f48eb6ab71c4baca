"""tabletop: exact legal move zones and movement rules for miniature wargames.

The public API is re-exported here lazily, so ``import tabletop`` stays cheap and never imports
pygame (only :mod:`tabletop.view` does); type checkers see the real signatures (the imports under
``TYPE_CHECKING``).

>>> import tabletop
>>> state = tabletop.load_scenario("fall-back.toml")  # a shipped scenario, by name
>>> zone = tabletop.legal_zone(state, "sq1", "fall-back", mode="ordered-retreat")
>>> zone.max_distance  # its M of 6"
6.0
>>> {v.rule for v in zone.explain(*state.model("sq1")[1].at)}  # it may not stay where it is
{'engaged'}
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

DISTRIBUTION = "tabletop-zones"
"""The name to install the package by (``pip install tabletop-zones``): the name ``tabletop`` on
the package index belongs to another project. The import name is ``tabletop``."""

if TYPE_CHECKING:  # what the lazy imports below give, for type checkers
    from tabletop.errors import UserError
    from tabletop.geometry.tolerance import EPS
    from tabletop.rulesets import apply_action, apply_actions
    from tabletop.rulesets.wh40k_11e.zones import Zone, legal_zone, setup_zone, validate_path
    from tabletop.scenario.io import load_scenario, save_scenario, shipped
    from tabletop.state import GameState

_EXPORTS: dict[str, str] = {
    "load_scenario": "tabletop.scenario.io",
    "save_scenario": "tabletop.scenario.io",
    "shipped": "tabletop.scenario.io",
    "legal_zone": "tabletop.rulesets.wh40k_11e.zones",
    "validate_path": "tabletop.rulesets.wh40k_11e.zones",
    "setup_zone": "tabletop.rulesets.wh40k_11e.zones",
    "Zone": "tabletop.rulesets.wh40k_11e.zones",
    "apply_action": "tabletop.rulesets",
    "apply_actions": "tabletop.rulesets",
    "GameState": "tabletop.state",
    "UserError": "tabletop.errors",
    "EPS": "tabletop.geometry.tolerance",
}

__all__ = [
    "DISTRIBUTION",
    "EPS",
    "GameState",
    "UserError",
    "Zone",
    "__version__",
    "apply_action",
    "apply_actions",
    "legal_zone",
    "load_scenario",
    "save_scenario",
    "setup_zone",
    "shipped",
    "validate_path",
]
assert sorted(__all__) == sorted(["DISTRIBUTION", "__version__", *_EXPORTS])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tabletop' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

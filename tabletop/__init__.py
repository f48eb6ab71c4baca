"""tabletop: exact legal move zones and movement rules for miniature wargames.

The public API is re-exported here lazily, so ``import tabletop`` stays cheap and never imports
pygame (only :mod:`tabletop.view` does).

>>> import tabletop
>>> state = tabletop.load_scenario(tabletop.shipped("fall-back.toml"))    # doctest: +SKIP
>>> zone = tabletop.legal_zone(state, "sq1", "fall-back", mode="ordered-retreat")  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "load_scenario": "tabletop.scenario.io",
    "save_scenario": "tabletop.scenario.io",
    "shipped": "tabletop.scenario.io",
    "legal_zone": "tabletop.rules.zones",
    "validate_path": "tabletop.rules.zones",
    "setup_zone": "tabletop.rules.zones",
    "Zone": "tabletop.rules.zones",
    "apply_action": "tabletop.rulesets",
    "apply_actions": "tabletop.rulesets",
    "GameState": "tabletop.state",
    "UserError": "tabletop.errors",
    "EPS": "tabletop.geometry.tolerance",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tabletop' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

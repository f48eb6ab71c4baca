"""The outcome of one action, shared by every ruleset."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.rules.violation import Violation
from tabletop.state import GameState

__all__ = ["ActionResult", "Refusal"]


@dataclass(frozen=True)
class ActionResult:
    """What applying one action did.

    ``state`` is the new state (the unchanged input state when ``ok`` is false); ``reasons`` are
    the refusal in words; ``events`` what happened (rolls, CP, battle-shock, mortal wounds, models
    destroyed, moves, steps); ``violations`` the failed conditions with their geometry.
    """

    state: GameState
    ok: bool = True
    reasons: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    violations: tuple[Violation, ...] = field(default=())

    def to_json(self, index: int) -> dict[str, Any]:
        """The result object of ``tabletop apply`` (``docs/actions.md``)."""
        out: dict[str, Any] = {"index": index, "ok": self.ok, "reasons": list(self.reasons),
                               "events": list(self.events)}
        if self.violations:
            out["violations"] = [v.to_json() for v in self.violations]
        return out


class Refusal(Exception):
    """Raised inside a rule when an action is refused; carries the reasons and violations."""

    def __init__(self, reasons: str | list[str], violations: list[Violation] | None = None,
                 events: list[dict[str, Any]] | None = None) -> None:
        self.reasons = [reasons] if isinstance(reasons, str) else list(reasons)
        self.violations = list(violations or [])
        self.events = list(events or [])
        super().__init__("; ".join(self.reasons))

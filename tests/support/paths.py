"""Where the tests find the repository, the shipped scenarios and the read-only ``../shared``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
PACKAGE = REPO / "tabletop"
SHIPPED = PACKAGE / "scenarios"
SHARED = REPO.parent / "shared"
"""The read-only community data and spec beside the checkout (absent on some machines)."""
KDC_DATA = SHARED / "data" / "40kdc"
SPEC_EXAMPLES = SHARED / "spec" / "examples"
ACTIONS = TESTS / "actions"

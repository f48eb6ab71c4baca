"""The layers import one way, and nothing but the view imports pygame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tabletop"

# Each layer may import only itself and the layers listed before it.
LAYERS = ["geometry", "state", "rules", "rulesets", "scenario", "importers", "view", "cli"]
SHARED = {"errors", "files"}  # imported by any layer; imports nothing from tabletop


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "tabletop" or len(parts) < 2:
        return None
    return parts[1].removesuffix(".py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_import_tabletop_and_rules_without_pygame() -> None:
    code = (
        "import sys, tabletop, tabletop.state, tabletop.geometry, tabletop.errors\n"
        "import importlib, pkgutil\n"
        "for pkg in ('tabletop.rules', 'tabletop.rulesets', 'tabletop.scenario'):\n"
        "    try:\n"
        "        m = importlib.import_module(pkg)\n"
        "    except ModuleNotFoundError:\n"
        "        continue\n"
        "    for info in pkgutil.iter_modules(m.__path__):\n"
        "        importlib.import_module(pkg + '.' + info.name)\n"
        "import tabletop.cli\n"
        "tabletop.cli.build_parser()\n"
        "assert 'pygame' not in sys.modules, 'pygame was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_imports_go_one_way() -> None:
    order = {name: i for i, name in enumerate(LAYERS)}
    problems = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        own = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.stem != "__init__" \
            else None
        if own in (None, "__main__", "__init__"):
            continue
        for mod in _imports(path):
            if mod.split(".")[0] == "pygame" and own != "view":
                problems.append(f"{rel} imports pygame")
            target = _layer(mod)
            if target is None or target == own or target in SHARED:
                continue
            if own in SHARED:
                problems.append(f"{rel} (shared) imports {mod}")
            elif own in order and target in order and order[target] > order[own]:
                problems.append(f"{rel} ({own}) imports {mod} ({target})")
    assert not problems, "\n".join(problems)

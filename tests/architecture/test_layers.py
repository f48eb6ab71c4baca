"""The layers import one way, and nothing but the view imports pygame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import PACKAGE

# Each layer may import only itself and the layers listed before it.
LAYERS = [
    "geometry", "state", "rules", "rulesets", "scenario", "importers", "survey", "view", "cli",
]
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
        "for pkg in ('tabletop.rules', 'tabletop.rulesets', 'tabletop.scenario',\n"
        "            'tabletop.survey'):\n"
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


# The 40kdc importer builds battles of one ruleset from that ruleset's community data: it names it.
NAMES_ITS_RULESET = {"importers", "cli/new.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The string constants that are docstrings (of modules, classes, functions, attributes)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


@pytest.mark.slow
def test_only_a_rulesets_own_package_names_it() -> None:
    """Nothing outside ``tabletop/rulesets/<name>/`` names a ruleset: no import of a ruleset's
    package but by the registry (``tabletop/rulesets/__init__.py``), and no code (docstrings
    and comments aside) holding a ruleset's name or its package's module path. The command line,
    the window and the scenario files ask the registry (``rulesets.of(state)``)."""
    from tabletop import rulesets

    names = rulesets.names()
    packages = {r.__class__.__module__.split(".")[2] for r in rulesets.REGISTRY.values()}
    assert packages == {p.name for p in (PACKAGE / "rulesets").iterdir()
                        if (p / "__init__.py").is_file()}, "every ruleset package is registered"
    problems = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "rulesets" and len(rel.parts) > 2:
            continue  # inside a ruleset's own package
        if rel.parts[0] in NAMES_ITS_RULESET or rel.as_posix() in NAMES_ITS_RULESET:
            continue
        registry = rel.as_posix() == "rulesets/__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docs:
                said = [n for n in names if n in node.value]
                said += [p for p in packages if f"tabletop.rulesets.{p}" in node.value]
                if said:
                    problems.append(f"{rel}:{node.lineno} names {', '.join(said)}")
            if registry:
                continue
            mods: list[str] = []
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for mod in mods:
                bits = mod.split(".")
                if bits[:2] == ["tabletop", "rulesets"] and len(bits) > 2 and bits[2] in packages:
                    problems.append(f"{rel}:{node.lineno} imports {mod}")
    assert not problems, "\n".join(problems)

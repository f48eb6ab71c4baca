"""The layers import one way, only public names cross modules, the zone engine and the rules'
interface know no ruleset, the view reaches the zone engine only through a ruleset's tools, and
nothing but the view imports pygame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import PACKAGE

# Each layer may import only itself and the layers listed before it.
LAYERS = [
    "geometry", "zones", "state", "rules", "rulesets", "scenario", "importers", "survey", "view",
    "cli",
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
# The package's root re-exports wh40k-11e's documented entry points (tabletop.legal_zone...).
NAMES_ITS_RULESET = {"importers", "cli/new.py", "__init__.py"}


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


# -- only public names cross modules ---------------------------------------------------------------
REPO = PACKAGE.parent


def _is_module(dotted: str) -> bool:
    p = REPO.joinpath(*dotted.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(path: Path) -> list[str]:
    """Where ``path`` uses another tabletop module's private name: ``from X import _y``, or
    ``X._y`` of a tabletop module ``X`` it imported."""
    rel = path.relative_to(REPO)
    own = ".".join(rel.with_suffix("").parts)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] == "tabletop":
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if _is_module(full):
                    modules[a.asname or a.name] = full
                elif _private(a.name) and node.module != own:
                    out.append(f"{rel}:{node.lineno} from {node.module} import {a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "tabletop" and a.asname:
                    modules[a.asname] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in modules and _private(node.attr) \
                and modules[node.value.id] != own:
            out.append(f"{rel}:{node.lineno} {modules[node.value.id]}.{node.attr}")
    return out


def test_only_public_names_cross_modules() -> None:
    """No module of tabletop/ (nor a test or a benchmark) imports another's private name or
    reads one off an imported module: what a caller needs is public API."""
    problems = [p for folder in ("tabletop", "tests", "benchmarks")
                for path in sorted((REPO / folder).rglob("*.py")) for p in private_uses(path)]
    assert not problems, "\n".join(problems)


def test_a_private_import_is_caught(tmp_path: Path) -> None:
    bad = REPO / "tabletop" / "zones" / "_probe_private_use.py"
    try:
        bad.write_text("from tabletop.zones.build import _reach_inputs\n"
                       "from tabletop.zones import end\nend._placed\n", encoding="utf-8")
        assert private_uses(bad) == [
            "tabletop/zones/_probe_private_use.py:1 from tabletop.zones.build import _reach_inputs",
            "tabletop/zones/_probe_private_use.py:3 tabletop.zones.end._placed"]
    finally:
        bad.unlink()


# -- the zone engine and the rules' interface know no ruleset --------------------------------------
RULESET_FREE = ("rules", "zones", "geometry")
"""Packages that name no ruleset, import none and read none of their constants."""


def _ruleset_words() -> tuple[set[str], set[str], set[str]]:
    """The rulesets' names and packages, their rulings' constant names, and the keywords their
    rulings list (``INFANTRY``, ``VEHICLE``...)."""
    from tabletop import rulesets

    names = {n.lower() for n in rulesets.names()}
    names |= {r.__class__.__module__.split(".")[2] for r in rulesets.REGISTRY.values()}
    names |= {"wh40k", "t9a"}
    constants: set[str] = set()
    keywords: set[str] = set()
    for path in (PACKAGE / "rulesets").glob("*/rulings.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id.isupper():
                        constants.add(target.id)
                for c in ast.walk(node.value):
                    if isinstance(c, ast.Constant) and isinstance(c.value, str) \
                            and c.value.isupper() and len(c.value) > 2:
                        keywords.add(c.value)
    return names, constants, keywords


def ruleset_mentions(path: Path, names: set[str], constants: set[str], keywords: set[str]
                     ) -> list[str]:
    """Where ``path`` names a ruleset, imports one, or uses a ruleset's constant or keyword
    (docstrings and comments aside)."""
    rel = path.relative_to(REPO)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        said = ""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            low = node.value.lower()
            hit = [n for n in names if n in low] + \
                [k for k in keywords if k in node.value.split() or k == node.value]
            said = ", ".join(sorted(hit))
        elif isinstance(node, ast.Name | ast.Attribute):
            ident = node.id if isinstance(node, ast.Name) else node.attr
            if ident in constants or any(n in ident.lower() for n in names):
                said = ident
        elif isinstance(node, ast.Import | ast.ImportFrom):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""]
            said = ", ".join(m for m in mods if m.startswith("tabletop.rulesets"))
        if said:
            out.append(f"{rel}:{node.lineno} {said}")
    return out


def test_the_zone_engine_and_the_rules_interface_name_no_ruleset() -> None:
    """Nothing in tabletop/rules/, tabletop/zones/ or tabletop/geometry/ names a ruleset, imports
    one, or reads a ruleset's rulings or keywords: the numbers and names a zone's messages quote
    arrive in the query (tabletop.zones.query)."""
    words = _ruleset_words()
    assert {"ENGAGEMENT_RANGE", "DENSE_LOW", "WHEEL_MAX"} <= words[1]
    assert {"INFANTRY", "VEHICLE", "MONSTER"} <= words[2]
    problems = [p for pkg in RULESET_FREE for path in sorted((PACKAGE / pkg).rglob("*.py"))
                for p in ruleset_mentions(path, *words)]
    assert not problems, "\n".join(problems)


def test_a_ruleset_constant_in_the_engine_is_caught(tmp_path: Path) -> None:
    words = _ruleset_words()
    bad = REPO / "tabletop" / "zones" / "_probe_ruleset.py"
    try:
        bad.write_text('"""A probe."""\nfrom tabletop.rulesets.wh40k_11e import rulings\n'
                       'r = rulings.ENGAGEMENT_RANGE\nk = ("VEHICLE",)\n', encoding="utf-8")
        got = ruleset_mentions(bad, *words)
        assert [g.split(" ", 1)[0] for g in got].count("tabletop/zones/_probe_ruleset.py:3") >= 1
        assert any(g.endswith("tabletop.rulesets.wh40k_11e") for g in got), got
        assert any(g.endswith("VEHICLE") for g in got), got
    finally:
        bad.unlink()


# -- the view reaches the zone engine through a ruleset's tools -----------------------------------
ENGINE_MODULES = ("tabletop.zones", "tabletop.geometry.visibility", "tabletop.geometry.geodesic",
                  "tabletop.geometry.wedges", "tabletop.geometry.rays",
                  "tabletop.geometry.turning", "tabletop.geometry.turn_reach")
"""The zone engine: its package and the geometry it is built from."""


def test_the_view_asks_the_zone_engine_only_through_a_rulesets_tools() -> None:
    """The window gets zones, set-up zones and threat ranges from the ruleset's tools
    (``rulesets.of(state).tools``, :mod:`tabletop.rules.tools`), never from the engine."""
    problems = []
    for path in sorted((PACKAGE / "view").rglob("*.py")):
        for mod in _imports(path):
            if any(mod == m or mod.startswith(m + ".") for m in ENGINE_MODULES):
                problems.append(f"{path.relative_to(REPO)} imports {mod}")
    assert not problems, "\n".join(problems)

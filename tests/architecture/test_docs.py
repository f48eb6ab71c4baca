"""The project's documentation rules: a short README whose links resolve, and docstrings that
cite the project's own docs pages, never files outside the repository. (The site itself is
checked by CI's ``mkdocs build --strict``: every page in the navigation, every link and anchor.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
README_MOST_LINES = 150
OUTSIDE = re.compile(r"(?<![\w/])(?:spec/[\w-]+\.md|shared/[\w./-]+|rules-notes|the README)")
"""What a docstring must not cite: the shared specification and reference files beside the
repository (the docs pages supersede them), and the README, which no longer holds a reference."""


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, (
        f"README.md has {len(lines)} lines: the reference goes to docs/, figures to "
        "benchmarks/RESULTS.md")


def test_the_readme_links_resolve() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(((?:docs|assets)/[^)#\s]+)", text)
    assert targets, "the README links into docs/"
    missing = [t for t in targets if not (REPO / t).is_file()]
    assert not missing, missing


def _docstrings(tree: ast.AST) -> list[ast.Constant]:
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            found += [s.value for s in body if isinstance(s, ast.Expr)
                      and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)]
    return found


def test_docstrings_cite_the_projects_own_docs() -> None:
    problems = []
    for path in sorted((REPO / "tabletop").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for doc in _docstrings(tree):
            for m in OUTSIDE.finditer(str(doc.value)):
                problems.append(f"{path.relative_to(REPO)}:{doc.lineno}: {m.group(0)}")
    assert not problems, "cite docs/*.md instead:\n" + "\n".join(problems)

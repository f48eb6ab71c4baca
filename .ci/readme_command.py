"""Print one of the two commands at the top of README.md: ``run`` (first) or ``tests`` (second)."""

import re
import sys
from pathlib import Path

text = Path(__file__).resolve().parents[1].joinpath("README.md").read_text(encoding="utf-8")
blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, flags=re.S)
commands = [b.strip() for b in blocks[:2]]
which = sys.argv[1] if len(sys.argv) > 1 else "tests"
print(commands[0] if which == "run" else commands[1])

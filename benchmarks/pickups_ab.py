"""Cached pick-ups of two checkouts of the project, alternately: is a change within 10 %?

Run from the repository root with two checkouts (``git worktree add /tmp/old COMMIT``)::

    .venv/bin/python benchmarks/pickups_ab.py /tmp/old /tmp/new [--rounds 10] [--reps 25]

Each round runs each checkout once in a process of its own (the order swapped every round),
on the boards of ``benchmarks/zones.py`` of that checkout: for 10, 30, 100 and 300 enemies and
D = 6 and 12, a round mover's pick-up *same* (the same state again: the benchmark's *cached*
column) and *fresh* (a new state object made from it, as after a move in the window: the
per-phase caches warm, the board objects new); and the tank and the bike of the turning boards
(normal move, fresh). Every pick-up is timed in CPU time (``time.process_time``, what a shared
machine inflates least), median of ``--reps`` per round. Prints, per board, the median of each
checkout over the rounds and the median (min-max) of the new / old ratios of the same round.
The Python engine (``TABLETOP_ENGINE=python``) in both.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path


def one(repo: Path, reps: int) -> None:
    """Time the pick-ups of the checkout ``repo`` (this process imports its ``tabletop``)."""
    os.environ["TABLETOP_ENGINE"] = "python"
    sys.path.insert(0, str(repo))
    spec = importlib.util.spec_from_file_location("zones_bench", repo / "benchmarks" / "zones.py")
    assert spec is not None and spec.loader is not None
    zb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zb)
    import tabletop
    from tabletop.state import Model, Unit

    assert Path(tabletop.__file__).is_relative_to(repo), tabletop.__file__

    def cpu_ms(fn) -> float:  # type: ignore[no-untyped-def]
        c = time.process_time()
        fn()
        return (time.process_time() - c) * 1000

    out = []
    for n in (10, 30, 100, 300):
        st = zb.board(n)
        for D in (6.0, 12.0):
            zb.ours(st, D)  # the per-phase caches
            same = [cpu_ms(lambda st=st, D=D: zb.ours(st, D)) for _ in range(reps)]
            fresh = [cpu_ms(lambda st=st, D=D: zb.ours(replace(st), D)) for _ in range(reps)]
            out.append(f"{n}/{D:g} same {statistics.median(same):.3f}")
            out.append(f"{n}/{D:g} fresh {statistics.median(fresh):.3f}")
    for name, _, base, kw, _, _ in zb.TURNING:
        for n in (30, 100, 300):
            st0 = zb.board(n)
            mover = Unit("red", "red", kw, 6.0, 2, 6, 1, (Model("mv", base, zb.START, 90.0),))
            st = replace(st0, units=(mover, *st0.units[1:]))
            tabletop.legal_zone(st, "mv", "normal")
            fresh = [cpu_ms(lambda st=st: tabletop.legal_zone(replace(st), "mv", "normal"))
                     for _ in range(max(3, reps // 3))]
            out.append(f"{name.split()[0]}{n}/6 fresh {statistics.median(fresh):.3f}")
    print(" | ".join(out))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="the checkout to compare against")
    ap.add_argument("new", type=Path, help="the checkout with the change")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--reps", type=int, default=25)
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:  # a child: time the checkout given as "old"
        one(args.old.resolve(), args.reps)
        return
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.rounds):
        for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
            repo = getattr(args, which).resolve()
            text = subprocess.run([sys.executable, __file__, str(repo), str(repo), "--one",
                                   "--reps", str(args.reps)], capture_output=True, text=True,
                                  check=True).stdout
            runs[which].append({m[1]: float(m[2]) for m in
                                re.finditer(r"(\S+ (?:same|fresh)) ([\d.]+)", text)})
        print(f"round {r + 1} of {args.rounds}", file=sys.stderr, flush=True)
    print(f"{'board':<18} {'old ms':>8} {'new ms':>8}  new / old, median (min-max) of rounds")
    ratios = []
    for key in runs["old"][0]:
        o = [d[key] for d in runs["old"]]
        n = [d[key] for d in runs["new"]]
        rs = [b / a for a, b in zip(o, n, strict=True)]
        ratios.append(statistics.median(n) / statistics.median(o))
        print(f"{key:<18} {statistics.median(o):>8.2f} {statistics.median(n):>8.2f}  "
              f"{statistics.median(rs):.3f} ({min(rs):.2f}-{max(rs):.2f})")
    print(f"geometric mean over the boards of new / old medians: "
          f"{statistics.geometric_mean(ratios):.3f}")


if __name__ == "__main__":
    main()

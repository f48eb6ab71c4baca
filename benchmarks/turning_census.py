"""Census of the turning fuzz family's costly inputs (issue 15, item 7): every one, cold.

    python benchmarks/turning_census.py [--steps default,7.5] [--moves normal,advance,fall-back]
        [--models 6] [--scenarios demo.toml,...] [--top 25]

``benchmarks/fuzz.py`` draws zone queries of models that turn (``tests/support/hostile.py``,
``turning_queries``) at random; the slow ones are first pick-ups (every cache cold) of the few
costly combinations, which a run of 100,000 meets by chance or not. The costly part of such an
input is drawn from finite lists: a shipped wh40k scenario, one of its active models, the base it
is given (none: its own, or one of ``NON_ROUND_BASES``, a hull one of ``HULLS``), a facing step
and a move. This script goes through every combination of those (each with an advance roll of
6, the largest) and times, in CPU seconds:

- *cold*: the zone of the combination's first model with every cache cleared first (a new
  program: the layers, turn regions and end regions of the board, and the pick-up);
- the same model again on a new board object (the per-phase work kept: its pick-up alone), and
  every other model of the list on one (up to ``--models`` a scenario: its turning models and
  round ones spread over its army);

and counts a combination's worst input as the phase (cold minus the first pick-up) plus its
slowest pick-up: what the fuzzer pays the first time it draws that combination with that model.
Prints how many combinations and inputs there are, how many are slow (over 2 s, as the fuzzer
counts), the median, and the slowest ``--top`` with what dominates them. The fuzzer also draws
the query points, hostile facings and invalid steps (refused before any geometry); those cost
little and are left out here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from tqdm import tqdm

from tabletop import legal_zone
from tabletop.errors import UserError
from tabletop.state import Unit
from tabletop.zones import clear_caches

from support import hostile

SLOW = 2.0
"""CPU seconds over which an input counts as slow (as in ``benchmarks/fuzz.py``)."""


def _models(name: str, limit: int) -> tuple[list[str], list[str]]:
    """The scenario's active models that turn, and up to ``limit`` models in all (round ones
    spread over the army)."""
    state = hostile.shipped_state(name)
    active = [m for u in state.units if isinstance(u, Unit)
              and u.player == state.battle.active_player for m in u.models if m.at]
    turning = [m.id for m in active if not m.base.is_round]
    rest = [m.id for m in active if m.base.is_round]
    room = max(0, limit - len(turning))
    spread = rest[::max(1, len(rest) // room)][:room] if room and rest else []
    return turning, turning + spread


def _zone_cpu(state, model: str, move: str, step: float | None) -> float:  # type: ignore[no-untyped-def]
    c0 = time.process_time()
    try:
        legal_zone(state, model, move, roll=6 if move == "advance" else None, step=step)
    except UserError:
        pass
    return time.process_time() - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default="default,7.5",
                    help="facing steps, 'default' for none (the fuzzer draws 7.5, 15, 30, 90)")
    ap.add_argument("--moves", default="normal,advance,fall-back")
    ap.add_argument("--models", type=int, default=6, help="models per scenario at most")
    ap.add_argument("--scenarios", default=",".join(hostile.WH40K))
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    steps = [None if s == "default" else float(s) for s in args.steps.split(",")]
    moves = args.moves.split(",")
    variants: list[tuple[str | None, int | None]] = [(None, None)]
    variants += [(b, None) for b in dict.fromkeys(hostile.NON_ROUND_BASES) if b != "hull"]
    variants += [("hull", k) for k in range(len(hostile.HULLS))]
    plan = []
    for name in args.scenarios.split(","):
        turning, models = _models(name, args.models)
        for base, hull in variants:
            mine = turning if base is None else models
            if mine:
                plan += [(name, base, hull, step, move, mine) for step in steps for move in moves]
    rows: list[tuple[float, float, str]] = []  # (worst input, phase, what)
    inputs: list[float] = []
    refused = 0
    for name, base, hull, step, move, mine in tqdm(plan, unit="combination"):
        states = [(m, hostile.turning_state(name, m, base, hull, None)) for m in mine]
        states = [(m, s) for m, s in states if s is not None]
        if not states:
            refused += 1
            continue
        clear_caches()
        first, st0 = states[0]
        cold = _zone_cpu(st0, first, move, step)
        picks = {first: _zone_cpu(replace(st0), first, move, step)}
        for m, st in states[1:]:
            picks[m] = _zone_cpu(replace(st), m, move, step)
        phase = max(0.0, cold - picks[first])
        worst_model = max(picks, key=picks.__getitem__)
        inputs += [phase + t for t in picks.values()]
        what = (f"{name} {worst_model} base={base or 'own'}{'' if hull is None else f' #{hull}'}"
                f" step={step or 'default'} {move}")
        rows.append((phase + picks[worst_model], phase, what))
    rows.sort(reverse=True)
    print(f"\n{len(rows):,} combinations ({refused:,} refused by the loader), "
          f"{len(inputs):,} inputs (combination x model), cold, CPU s")
    if inputs:
        print(f"inputs: median {statistics.median(inputs):.2f} s, max {max(inputs):.2f} s; "
              f"over 1 s: {sum(t > 1.0 for t in inputs):,}, over {SLOW:g} s (slow): "
              f"{sum(t > SLOW for t in inputs):,}")
        print(f"combinations whose worst input is slow: {sum(r[0] > SLOW for r in rows):,}")
    print(f"\n{'worst input':>11} {'phase':>7}  combination (its slowest model)")
    for worst, phase, what in rows[:args.top]:
        print(f"{worst:>9.2f} s {phase:>5.2f} s  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

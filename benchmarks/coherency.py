"""Time the coherency check of big units: the indexed check against measuring every pair.

    python benchmarks/coherency.py [--repeat 3]

Units of 1 mm bases 0.06" apart in a square (in coherency) and of 32 mm bases 1.5" apart (out
of 9" coherency), of 100 to 10,000 models; for each, ``coherency_violations`` (the indexed
check) and the all-pairs code it replaced (``tests/support/coherency_oracle.py``, what a user
had before), alternately, ``--repeat`` times; prints the median wall seconds of each and the
ratio. Every pair is measured only up to 1,000 models (2,000 take over a minute: it grows as
the square); beyond that the all-pairs column is projected from 1,000 as n^2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from tabletop.geometry.footprints import parse_base
from tabletop.rulesets.wh40k_11e.checks import coherency_violations
from tabletop.state import Model, Unit

from support.coherency_oracle import all_pairs

MEASURED_UP_TO = 1_000


def unit(n: int, base: str, spacing: float) -> Unit:
    side = max(1, round(n ** 0.5))
    fp = parse_base(base)
    models = tuple(Model(id=f"m{k}", base=fp, at=(2 + (k % side) * spacing,
                                                   2 + (k // side) * spacing))
                   for k in range(n))
    return Unit(id="u", player="red", keywords=("INFANTRY",), M=6.0, W=1, Ld=6, OC=1,
                models=models)


def timed(fn: object, u: Unit) -> float:
    start = time.perf_counter()
    fn(u)  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import os
    print(f"coherency of big units, median of {args.repeat} (wall s), load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'unit':<28} {'indexed':>9} {'all pairs':>10} {'ratio':>8}")
    for base, spacing, what in (("1mm", 0.06, "1 mm, in coherency"),
                                ("32mm", 1.5, "32 mm, spread out")):
        base_old = None
        for n in (100, 300, 1_000, 3_000, 10_000):
            u = unit(n, base, spacing)
            new, old = [], []
            for _ in range(args.repeat):
                new.append(timed(coherency_violations, u))
                if n <= MEASURED_UP_TO:
                    old.append(timed(all_pairs, u))
            t_new = statistics.median(new)
            if old:
                t_old = statistics.median(old)
                base_old = (n, t_old)
                shown = f"{t_old:>10.2f}"
            else:
                assert base_old is not None
                t_old = base_old[1] * (n / base_old[0]) ** 2
                shown = f"{'~' + format(t_old, '.0f'):>10}"
            print(f"{what + f', {n:,}':<28} {t_new:>9.3f} {shown} {t_old / t_new:>7.0f}x",
                  flush=True)
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

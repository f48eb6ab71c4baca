"""Time per legal zone on the real 40kdc layouts (issue 8, item 4).

For each of the 33 published layouts, builds a battle with ``tabletop new``'s deployment
(red: Intercessor Squad x10, Redemptor Dreadnought; blue: Boyz x20, Outrider Squad x3) and times
a normal-move legal zone for the first model of every unit ("first": the layout's terrain is new
to the caches) and again for its second model ("next": enemies and terrain cached, as on a pick-up
during a move). Prints one line per layout and the median, 95th percentile and maximum per mover.

    .venv/bin/python benchmarks/kdc_zones.py [--data ../shared/data/40kdc] [--layouts N]

Data: Alpaca Software and the 40kdc community contributors, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from tabletop.importers.kdc import load_data, read_layouts
from tabletop.importers.kdc_units import new_battle, read_units
from tabletop.rules.zones import legal_zone
from tabletop.state import Unit

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "40kdc"
RED = "Intercessor Squad x10, Redemptor Dreadnought"
BLUE = "Boyz x20, Outrider Squad"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT, help="folder of the 40kdc files")
    ap.add_argument("--layouts", type=int, default=None, help="only the first N layouts")
    args = ap.parse_args(argv)
    layouts_path = args.data / "terrain-layouts.json"
    if not layouts_path.exists():
        print(f"{layouts_path}: not found (give --data FOLDER)", file=sys.stderr)
        return 2
    catalogue = read_units(args.data / "units_11e_provisional_all.csv")
    ids = [lay["id"] for lay in read_layouts(layouts_path)][: args.layouts]
    times: dict[str, dict[str, list[float]]] = {}
    print(f"{'layout':<38} {'unit':<30} {'first ms':>8} {'next ms':>8} {'area':>7}")
    for layout_id in ids:
        state = new_battle(load_data(layouts_path, layout_id).state(), catalogue,
                           [("red", RED), ("blue", BLUE)])
        for unit in state.units:
            assert isinstance(unit, Unit)
            row = times.setdefault(unit.name or unit.id, {"first": [], "next": []})
            t0 = time.perf_counter()
            zone = legal_zone(state, unit.models[0].id, "normal")
            t1 = time.perf_counter()
            row["first"].append(t1 - t0)
            nxt = ""
            if len(unit.models) > 1:
                t2 = time.perf_counter()
                legal_zone(state, unit.models[1].id, "normal")
                row["next"].append(time.perf_counter() - t2)
                nxt = _ms(row["next"][-1])
            print(f"{layout_id:<38} {unit.name or unit.id:<30} {_ms(t1 - t0):>8} {nxt:>8} "
                  f"{zone.area:7.1f}")
    print()
    print(f"{'mover':<30} {'':>6} {'median':>8} {'p95':>8} {'max':>8}  (ms per zone)")
    for name, row in times.items():
        for kind, values in row.items():
            if not values:
                continue
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            print(f"{name:<30} {kind:>6} {_ms(statistics.median(values)):>8} {_ms(p95):>8} "
                  f"{_ms(max(values)):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

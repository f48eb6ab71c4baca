"""``tabletop new``: a battle on a 40kdc layout with armies from the 40kdc units file."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop.cli._output import emit

ORDER = 41


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``new`` sub-command."""
    p = subparsers.add_parser(
        "new",
        help="write a new battle: a 40kdc layout, a deployment map and two armies",
        description="Build a wh40k-11e battle: the terrain of a 40kdc layout, a deployment map, "
        "and for each player the listed units with their profile (M, W, Ld, OC, keywords) and "
        "bases from the 40kdc units file, deployed in coherency wholly inside the player's "
        "deployment zone and off terrain features. Red is the attacker, blue the defender. "
        "Data: Alpaca Software and the 40kdc community contributors, CC BY 4.0.",
    )
    p.add_argument("--units", metavar="UNITS.csv", required=True,
                   help="the 40kdc units file (units_11e_provisional_all.csv)")
    p.add_argument("--layout", metavar="ID",
                   help="terrain layout id (default: an open battlefield)")
    p.add_argument("--deployment", metavar="ID",
                   help="deployment map id (default: the layout's own map)")
    p.add_argument("--red", metavar="ARMY", default="",
                   help='red army, e.g. "Intercessors x10, Redemptor Dreadnought" ("x10" = '
                   "models; default: the unit's minimum)")
    p.add_argument("--blue", metavar="ARMY", default="", help="blue army, as --red")
    p.add_argument("--layouts", metavar="FILE",
                   help="terrain-layouts.json (default: beside the units file)")
    p.add_argument("--deployments", metavar="FILE",
                   help="deployment-patterns.json (default: beside the units file)")
    p.add_argument("-o", "--output", metavar="SCENARIO", required=True,
                   help="scenario file to write (.toml or .json)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the battle and save it."""
    from tabletop.errors import UserError
    from tabletop.importers.kdc import CREDIT, DEPLOYMENTS_FILE, LICENCE, load_data
    from tabletop.importers.kdc_units import new_battle, read_units
    from tabletop.scenario.io import save_scenario

    units_path = Path(args.units)
    folder = units_path.parent
    layouts = Path(args.layouts) if args.layouts else folder / "terrain-layouts.json"
    deployments = Path(args.deployments) if args.deployments else folder / DEPLOYMENTS_FILE
    if not args.layout and not args.deployment:
        raise UserError("new: give --layout ID (its own deployment map is used) or "
                        "--deployment ID; see `tabletop import-layout LAYOUTS.json --list`")
    if not args.red.strip() and not args.blue.strip():
        raise UserError('new: give at least one army, e.g. --red "Intercessor Squad x10"')
    catalogue = read_units(units_path)
    data = load_data(layouts if args.layout else None, args.layout,
                     deployment_id=args.deployment, deployments_path=deployments)
    if data.deployment is None:
        raise UserError(f"new: layout {args.layout} names no deployment map; give --deployment ID")
    armies = [(pid, text) for pid, text in (("red", args.red), ("blue", args.blue))
              if text.strip()]
    state = new_battle(data.state(), catalogue, armies)
    out = Path(args.output)
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise UserError(f"-o {out}: the folder {out.parent} does not exist")
    try:
        save_scenario(state, out)
    except OSError as exc:
        raise UserError(f"-o {out}: cannot write it ({exc.strerror or exc})") from None
    for pid in ("red", "blue"):
        units = [u for u in state.units if u.player == pid]
        if units:
            names = ", ".join(f"{u.name} x{len(getattr(u, 'models', ()))}" for u in units)
            emit(f"{pid}: {names}")
    emit(f"wrote {out}: {state.name}")
    emit(f"Data: {CREDIT}, {LICENCE}.")
    return 0

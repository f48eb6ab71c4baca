"""``tabletop import-layout``: a scenario from a published 40kdc terrain layout."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop.cli._output import emit

ORDER = 40


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``import-layout`` sub-command."""
    p = subparsers.add_parser(
        "import-layout",
        help="write a scenario from a 40kdc terrain layout and deployment map",
        description="Read the 40kdc terrain-layouts.json (with terrain-templates.json beside it) "
        "and deployment-patterns.json as published, place every terrain piece, and write a "
        "scenario with the terrain (areas as 'area', features as 'light' or 'dense' with their "
        "height), both deployment zones (red = attacker, blue = defender) and the objectives. "
        "Data: Alpaca Software and the 40kdc community contributors, CC BY 4.0.",
    )
    p.add_argument("layouts", metavar="LAYOUTS.json", help="the 40kdc terrain-layouts.json")
    p.add_argument("--layout", metavar="ID", help="id of the layout to import (see --list)")
    p.add_argument("--deployment", metavar="ID",
                   help="id of the deployment map (default: the layout's own map)")
    p.add_argument("--deployments", metavar="FILE",
                   help="deployment-patterns.json (default: the one beside LAYOUTS.json)")
    p.add_argument("-o", "--output", metavar="SCENARIO",
                   help="scenario file to write (.toml or .json)")
    p.add_argument("--list", action="store_true",
                   help="list the layouts and deployment maps in the files, and stop")
    p.set_defaults(func=run)


def summary(state_terrain: tuple[object, ...]) -> str:
    """``"16 areas, 28 features (12 light, 16 dense)"``."""
    kinds = [getattr(t, "kind", "") for t in state_terrain]
    light, dense = kinds.count("light"), kinds.count("dense")
    return f"{kinds.count('area')} areas, {light + dense} features ({light} light, {dense} dense)"


def run(args: argparse.Namespace) -> int:
    """List the files, or import one layout and save the scenario."""
    from tabletop.errors import UserError
    from tabletop.importers.kdc import CREDIT, LICENCE, list_lines, load_data
    from tabletop.scenario.io import save_scenario

    if args.list:
        for line in list_lines(args.layouts, args.deployments):
            emit(line)
        return 0
    if not args.layout:
        raise UserError("import-layout: give --layout ID (see --list for the ids)")
    if not args.output:
        raise UserError("import-layout: give -o SCENARIO.toml (or .json), the file to write")
    data = load_data(args.layouts, args.layout, deployment_id=args.deployment,
                     deployments_path=args.deployments)
    state = data.state()
    out = Path(args.output)
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise UserError(f"-o {out}: the folder {out.parent} does not exist")
    try:
        save_scenario(state, out)
    except OSError as exc:
        raise UserError(f"-o {out}: cannot write it ({exc.strerror or exc})") from None
    zones = "no deployment zones" if data.deployment is None else \
        f"deployment map {data.deployment.get('id')} (red = attacker, blue = defender), " \
        f"{len(state.objectives)} objectives"
    emit(f"wrote {out}: layout {args.layout}, {summary(state.terrain)}, {zones}")
    emit(f"Data: {CREDIT}, {LICENCE}.")
    return 0

"""``tabletop new``: a battle on a current layout (``wh40kdc``) with armies from army lists, or
on an older 40kdc file with armies from its units file."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop.cli._output import emit

ORDER = 41

OPPONENTS = ("none", "mirror")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``new`` sub-command."""
    p = subparsers.add_parser(
        "new",
        help="write a new battle: a current layout, its deployment map and your army lists",
        description="Build a wh40k-11e battle on a layout of the community data (the wh40kdc "
        "package, extra 40kdc): its terrain as the rules see it (walls as wall sections of "
        "their thickness, terrain areas, upper floors kept), its own deployment map and "
        "mission matchup (or --deployment), and the units of each army list (--roster: any "
        "format wh40kdc reads: NewRecruit, ListForge, the GW app, BattleScribe .ros/.rosz, "
        "Rosterizer, roster JSON) "
        "set up legally in their player's deployment zone. The first roster is red's (the "
        "attacker), the second blue's (the defender). With --units: the older 40kdc files "
        "(units CSV, --red/--blue army text). Data: Alpaca Software and the 40kdc community "
        "contributors.",
    )
    p.add_argument("--list", action="store_true",
                   help="list the current layouts and deployment maps, and stop")
    p.add_argument("--layout", metavar="ID",
                   help="terrain layout id (see --list)")
    p.add_argument("--deployment", metavar="ID",
                   help="deployment map id (default: the layout's own map)")
    p.add_argument("--roster", metavar="LIST", action="append", default=[],
                   help="an army list exported from a list builder (a file, or a ListForge share "
                   "link; give it twice: red's, then blue's)")
    p.add_argument("--opponent", choices=OPPONENTS,
                   help="with one --roster: blue's army (none: no units; mirror: the same "
                   "list; default none)")
    p.add_argument("--unknown-height", type=float, metavar="INCHES",
                   help="height of the terrain pieces the data gives none (default: the "
                   "ruling's, 3\"); written to the scenario as unknown_height")
    p.add_argument("--units", metavar="UNITS.csv",
                   help="older 40kdc files: the units file (units_11e_provisional_all.csv); "
                   "the layouts are then read from beside it")
    p.add_argument("--red", metavar="ARMY", default="",
                   help='with --units: red army, e.g. "Intercessors x10, Redemptor Dreadnought" '
                   '("x10" = models; default: the unit\'s minimum)')
    p.add_argument("--blue", metavar="ARMY", default="",
                   help="with --units: blue army, as --red")
    p.add_argument("--layouts", metavar="FILE",
                   help="with --units: terrain-layouts.json (default: beside the units file)")
    p.add_argument("--deployments", metavar="FILE",
                   help="with --units: deployment-patterns.json (default: beside the units "
                   "file)")
    p.add_argument("-o", "--output", metavar="SCENARIO",
                   help="scenario file to write (.toml or .json)")
    p.set_defaults(func=run)


def _check_output(out: Path) -> None:
    from tabletop.errors import UserError

    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise UserError(f"-o {out}: the folder {out.parent} does not exist")


def _save(state: object, out: Path) -> None:
    from tabletop.errors import UserError
    from tabletop.scenario.io import save_scenario

    try:
        save_scenario(state, out)  # type: ignore[arg-type]
    except OSError as exc:
        raise UserError(f"-o {out}: cannot write it ({exc.strerror or exc})") from None


def run(args: argparse.Namespace) -> int:
    """Build the battle and save it."""
    from tabletop.errors import UserError

    if args.units:
        return _run_old(args)
    for name in ("red", "blue", "layouts", "deployments"):
        if getattr(args, name):
            raise UserError(f"--{name}: belongs to the older 40kdc files; give --units "
                            "UNITS.csv with it, or use --roster with the current data")
    from tabletop.importers import battlefields

    if args.list:
        emit(battlefields.list_lines())
        return 0
    if not args.layout:
        raise UserError("new: give --layout ID (see tabletop new --list)")
    if not args.output:
        raise UserError("new: give -o SCENARIO.toml (or .json), the file to write")
    if len(args.roster) > 2:
        raise UserError(f"--roster: at most two army lists (red's, then blue's), got "
                        f"{len(args.roster)}")
    if args.opponent and len(args.roster) != 1:
        raise UserError("--opponent: chooses blue's army when there is one --roster; "
                        f"there are {len(args.roster)}")
    if args.unknown_height is not None and not 0 <= args.unknown_height <= 1000:
        raise UserError(f"--unknown-height: {args.unknown_height:g} is out of range; give 0 to "
                        "1000 inches")
    out = Path(args.output)
    _check_output(out)
    board = battlefields.board(args.layout, args.deployment,
                               unknown_height=args.unknown_height)
    state = board.state
    lines = [f"layout {board.layout.id} ({board.layout.name}), deployment map "
             f"{board.deployment}, mission matchup {board.layout.mission_matchup or 'none'}",
             f"terrain: {board.summary()}"]
    if args.roster:
        from tabletop.importers.rosters import armies

        placed = armies(state, args.roster, opponent=args.opponent or "none")
        state = placed.state
        lines.extend(placed.lines)
    _save(state, out)
    emit(lines)
    emit(f"wrote {out}: {state.name}")
    emit(battlefields.credit())
    return 0


def _run_old(args: argparse.Namespace) -> int:
    """The older 40kdc files: a units CSV and army text."""
    from tabletop.errors import UserError
    from tabletop.importers.kdc import CREDIT, DEPLOYMENTS_FILE, LICENCE, load_data
    from tabletop.importers.kdc_units import new_battle, read_units

    for name in ("roster", "opponent", "unknown_height", "list"):
        if getattr(args, name):
            raise UserError(f"--{name.replace('_', '-')}: belongs to the current data; leave "
                            "--units out to use it")
    if not args.output:
        raise UserError("new: give -o SCENARIO.toml (or .json), the file to write")
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
    _check_output(out)
    _save(state, out)
    for pid in ("red", "blue"):
        units = [u for u in state.units if u.player == pid]
        if units:
            names = ", ".join(f"{u.name} x{len(getattr(u, 'models', ()))}" for u in units)
            emit(f"{pid}: {names}")
    emit(f"wrote {out}: {state.name}")
    emit(f"Data: {CREDIT}, {LICENCE}.")
    return 0

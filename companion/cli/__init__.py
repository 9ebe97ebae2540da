"""The ``companion`` command line.

Each subcommand lives in its own module ``companion/cli/cmd_<name>.py`` that defines

* ``HELP``: one line for ``companion --help``;
* ``register(parser)``: adds the subcommand's arguments to its ``argparse`` parser;
* ``run(args) -> int``: does the work and returns the exit status.

Subcommands are discovered, so a new one is a new file and nothing else changes. Heavy imports
(OpenCV, Flask) belong inside ``run`` so that ``companion --help`` stays instant.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

from companion import __version__
from companion.errors import UserError


def _subcommand_modules():
    package = sys.modules[__name__]
    names = sorted(
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if info.name.startswith("cmd_")
    )
    for name in names:
        yield name[len("cmd_"):].replace("_", "-"), importlib.import_module(f"{__name__}.{name}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Tabletop referee: an overhead camera reads the pieces, a rules engine "
        "judges each move, a board of LEDs and a tablet dashboard tell the players.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, module in _subcommand_modules():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except UserError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(f"companion {args.command}: interrupted", file=sys.stderr)
        return 130

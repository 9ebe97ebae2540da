"""``companion bench <suite>``: measure speed and accuracy; figures go into BENCHMARKS.md."""

from __future__ import annotations

import argparse
import json

HELP = "measure speed and accuracy (rules, vision, referee, device); figures for BENCHMARKS.md"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.bench import suites

    parser.add_argument("--json", dest="json_before", metavar="FILE",
                        help="also write the figures as JSON to FILE (before or after SUITE)")
    sub = parser.add_subparsers(dest="suite", metavar="SUITE", required=True)
    for name, module in suites().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        p.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
        module.register(p)
        p.set_defaults(_suite=module)


def run(args: argparse.Namespace) -> int:
    from companion.bench.common import dump_json, machine

    figures = args._suite.run(args)
    out = getattr(args, "json", None) or getattr(args, "json_before", None)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(dump_json({"suite": args.suite, "machine": machine(), "figures": figures}))
            fh.write("\n")
    return 0

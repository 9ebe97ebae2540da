"""``companion demo``: a scripted game through the whole chain, with no camera and no board."""

from __future__ import annotations

import argparse

HELP = "play a scripted game on the synthetic table, with the emulated board (no hardware needed)"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.cli.common import add_data_dir
    from companion.games import GAMES

    parser.add_argument("--game", default="haut-les-cubes", choices=sorted(GAMES), metavar="GAME",
                        help="the game to play (default haut-les-cubes)")
    parser.add_argument("--headless", action="store_true",
                        help="print the verdicts and a summary, then exit (no dashboard)")
    parser.add_argument("--board", default="emulated", metavar="PORT",
                        help="'emulated' (default), 'none', 'auto' or a serial port: where the "
                             "LEDs and the score display are")
    parser.add_argument("--lang", default="en", choices=("fr", "en"), help="language of the lines")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from companion.demo.play import (demo_script, open_demo_table, play_observations,
                                     print_summary, summarise)
    from companion.demo.report import Printer
    from companion.paths import data_dir

    script = demo_script(args.game)
    table, opened = open_demo_table(str(data_dir(args.data_dir)), args.board)
    table.add_listener(Printer(sys.stdout, args.lang))
    try:
        print(f"{script.title or args.game}: {len(script.steps)} steps, players "
              f"{', '.join(script.players)}", flush=True)
        play_observations(table, script)
        print_summary(summarise(table, opened), sys.stdout)
    finally:
        if opened is not None:
            opened.close()
        table.close()
    return 0


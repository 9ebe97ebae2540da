"""``companion demo``: a scripted game through the whole chain, with no camera and no board.

The game's demo script is drawn by the synthetic table as a video (hands moving the pieces,
illegal moves put right, questions answered by the script's people) and played through the same
referee loop as a real table: stillness gate, camera reader, referee, emulated LED board and,
unless ``--headless``, the dashboard on localhost. ``--ideal`` skips the camera and gives the
referee the script's exact observations instead (the rules engine alone, in a second).
"""

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
    parser.add_argument("--ideal", action="store_true",
                        help="no video: referee the script from its exact observations (rules only)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the synthetic video's seed (light, noise, hands; default 0)")
    parser.add_argument("--board", default="emulated", metavar="PORT",
                        help="'emulated' (default), 'none', 'auto' or a serial port: where the "
                             "LEDs and the score display are")
    parser.add_argument("--host", default="127.0.0.1",
                        help="dashboard: address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="dashboard: port (default 8080)")
    parser.add_argument("--pin", help="dashboard: the referee's PIN (default: a random one, printed)")
    parser.add_argument("--lang", default="en", choices=("fr", "en"), help="language of the lines")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    import signal
    import sys
    import time

    from companion.demo.play import (demo_script, open_demo_table, play_observations,
                                     print_summary, summarise)
    from companion.demo.report import Printer
    from companion.paths import data_dir

    script = demo_script(args.game)
    table, opened = open_demo_table(str(data_dir(args.data_dir)), args.board)
    table.add_listener(Printer(sys.stdout, args.lang))
    handle = None
    try:
        if not args.headless:
            from companion.web import serve

            handle = serve(table, host=args.host, port=args.port, pin=args.pin, announce=True)
        print(f"{script.title or args.game}: {len(script.steps)} steps, players "
              f"{', '.join(script.players)}"
              + ("" if args.ideal else f"; rendering the video (seed {args.seed})"), flush=True)
        started = time.monotonic()
        stats = None
        if args.ideal:
            play_observations(table, script, pace=0.0 if args.headless else 0.6)
        else:
            from companion.demo.video import play_video

            stats = play_video(table, script, seed=args.seed, realtime=not args.headless).stats
        print_summary(summarise(table, opened), sys.stdout)
        if stats is not None:
            print(f"video: {stats.frames} frames, {stats.readings} read, {stats.hands} with a "
                  f"hand over the table, {stats.unreadable} unreadable; "
                  f"{time.monotonic() - started:.0f} s", flush=True)
        if handle is not None:
            print("the game is over; the dashboard stays open until Ctrl-C", flush=True)
            while True:
                signal.pause()  # until Ctrl-C (SIGINT raises KeyboardInterrupt)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
    finally:
        if handle is not None:
            handle.stop()
        if opened is not None:
            opened.close()
        table.close()
    return 0

"""``companion serve``: the dashboard for the latest game in a log, without a camera.

Useful to review a game after the evening (read-only unless ``--resume``), to go on refereeing
by hand from the tablet (``--resume``), and for the dashboard's own tests.
"""

from __future__ import annotations

import argparse

HELP = "serve the dashboard for the latest game in the log, without a camera (review or resume)"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.cli.common import add_data_dir

    add_data_dir(parser)
    parser.add_argument("--resume", action="store_true",
                        help="continue the latest unfinished game (the referee can act on it); "
                             "without it the latest game is shown read-only for review")
    parser.add_argument("--game-id", metavar="ID", help="show this game rather than the latest")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default 0.0.0.0: every network interface)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080; 0: any free)")
    parser.add_argument("--pin", help="the referee's PIN, 4 to 12 digits (default: a random one, "
                                      "printed at start)")
    parser.add_argument("--advertise", metavar="ADDRESS",
                        help="the address the QR code gives tablets, when this computer has "
                             "several (see the list printed at start)")
    parser.add_argument("--threads", type=int, help="server threads (default: enough for the "
                                                    "stream caps)")
    parser.add_argument("--max-streams", type=int, default=64,
                        help="most live tablets at once (default 64)")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr",
                        help="the dashboard's default language (default fr)")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")


def run(args: argparse.Namespace) -> int:
    import signal
    import sys
    import threading

    from companion.errors import UserError
    from companion.paths import data_dir
    from companion.runtime.table import Table
    from companion.web.server import print_banner, serve

    table = Table(data_dir(args.data_dir))
    try:
        read_only = False
        if args.resume:
            table.resume_game(args.game_id)
        else:
            game_id = args.game_id or table.log.latest_game()
            if game_id is not None:
                if game_id not in {g["id"] for g in table.log.games()}:
                    raise UserError(f"no game {game_id!r} in {table.log.path}",
                                    hint="`companion log list` shows the games")
                table.resume_game(game_id)
                read_only = True
        table.set_camera("absent", "no camera: serving the log")
        # Ctrl-C or a stop from the moment the address is printed stops the dashboard cleanly:
        # the handlers are in place before anyone can be told where to connect
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        config = {"max_streams": args.max_streams, "read_only": read_only, "lang": args.lang}
        handle = serve(table, host=args.host, port=args.port, pin=args.pin, threads=args.threads,
                       advertise=args.advertise, announce=False, config=config)
        if args.no_qr:
            print(f"Dashboard: {handle.url}\nReferee PIN: {handle.pin}", flush=True)
        else:
            print_banner(handle, sys.stdout)
        if read_only:
            print("Showing the latest game for review (read-only); --resume to act on it.",
                  flush=True)
        while not stop.is_set() and handle.running:
            stop.wait(1.0)
        handle.stop()
        print("Dashboard stopped.", flush=True)
    finally:
        table.close()
    return 0

"""``companion log``: the games in the event log, and their events as JSON lines."""

from __future__ import annotations

import argparse

HELP = "list the games in the event log, or export their events as JSON lines"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.cli.common import add_data_dir

    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="the games in the log, one a line")
    add_data_dir(p)
    p = sub.add_parser("export", help="events as JSON lines (the latest game by default)")
    p.add_argument("--game-id", metavar="ID", help="the game to export (see `companion log list`)")
    p.add_argument("--all", action="store_true", help="every game in the log")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of the terminal")
    add_data_dir(p)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from companion.errors import UserError
    from companion.paths import data_dir
    from companion.store import EventLog

    log = EventLog.in_dir(data_dir(args.data_dir))
    try:
        if args.action == "list":
            for info in log.games():
                state = "ended" if info["ended"] else "in progress"
                print(f"{info['id']}  {info['game']:<18} {info['events']:>5} events  {state}")
            return 0
        if args.all:
            events = log.iter_events(None)
        else:
            game_id = args.game_id or log.latest_game()
            if game_id is None:
                raise UserError(f"the log {log.path} holds no game yet")
            if game_id not in {g["id"] for g in log.games()}:
                raise UserError(f"no game {game_id!r} in {log.path}",
                                hint="`companion log list` shows the games")
            events = log.iter_events(game_id)
        out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
        try:
            for event in events:
                out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
        finally:
            if args.out:
                out.close()
    finally:
        log.close()
    return 0

"""``companion referee``: referee a game from camera readings in a file."""

from __future__ import annotations

import argparse

HELP = "referee a game from a file of observations (JSON lines), one verdict a line"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.cli.common import add_data_dir, add_game_args

    add_game_args(parser)
    parser.add_argument("--observations", required=True, metavar="FILE.jsonl",
                        help="one observation a line (docs/observation.md), plus referee lines "
                             "(answers, undo, corrections)")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    from companion.cli.common import parse_options, parse_players, print_json
    from companion.errors import BadInput
    from companion.paths import data_dir
    from companion.referee import Referee
    from companion.referee.script_lines import feed
    from companion.store import EventLog

    try:
        handle = open(args.observations, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read {args.observations}: {exc.strerror}") from None
    log = EventLog.in_dir(data_dir(args.data_dir))
    try:
        if args.resume:
            referee = Referee.resume(log, game=args.game)
            done = referee.session.last_seq and _last_line(log, referee.session.game_id)
        else:
            referee = Referee.start(log, args.game, parse_players(args.players),
                                    parse_options(args.option), seed=args.seed, actor="file",
                                    source={"observations": str(args.observations)})
            done = 0
            first = log.events(referee.session.game_id)[0]
            print_json({"event": first.type, "seq": first.seq, "game_id": first.game_id,
                        **first.data})
        with handle:
            for event in feed(referee, handle, source=str(args.observations), skip_to=done or 0):
                print_json({"event": event.type, "seq": event.seq, **{
                    k: v for k, v in event.data.items() if k != "source"}})
        status = referee.status()
        print_json({"event": "summary", "game_id": referee.session.game_id,
                    "scores": status["scores"], "outcome": status.get("outcome"),
                    "waiting": status["waiting"]})
    finally:
        log.close()
    return 0


def _last_line(log, game_id: str) -> int:
    line = 0
    for event in log.events(game_id):
        src = event.data.get("source") or {}
        if isinstance(src, dict) and isinstance(src.get("line"), int):
            line = max(line, src["line"])
    return line

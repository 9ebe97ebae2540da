"""Arguments and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import UserError


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the event log, keyframes and calibration live "
                             "(default: $COMPANION_DATA_DIR or ~/.local/share/companion)")


def add_game_args(parser: argparse.ArgumentParser, *, players_required: bool = False) -> None:
    from companion.games import GAMES

    parser.add_argument("--game", required=True, choices=sorted(GAMES), metavar="GAME",
                        help="the game: " + ", ".join(GAMES))
    parser.add_argument("--players", required=players_required, metavar="A,B,...",
                        help="the seats in clockwise play order, first player first "
                             "(for Haut les Cubes the giants' colours, e.g. red,blue,green)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a named option of the rulings (repeatable), e.g. push_uphill=true")
    parser.add_argument("--seed", type=int, default=0, help="seed of any chance in the setup")
    parser.add_argument("--resume", action="store_true",
                        help="continue the latest unfinished game of this kind from the log")


def parse_players(text: str | None) -> list[str]:
    if not text:
        raise UserError("say who plays: --players red,blue,green (first player first)")
    players = [p.strip() for p in text.split(",") if p.strip()]
    return players


def parse_options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UserError(f"--option {pair!r}: write NAME=VALUE, e.g. push_uphill=true")
        name, value = pair.split("=", 1)
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value
    return out


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, separators=(",", ":")), flush=True)

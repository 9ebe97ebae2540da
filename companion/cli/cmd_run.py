"""``companion run``: referee a real game at a real table."""

from __future__ import annotations

import argparse

HELP = "referee a game at the table: camera, LED board and dashboard (--camera 0 --serial auto)"


def register(parser: argparse.ArgumentParser) -> None:
    from companion.cli.common import add_data_dir, add_game_args

    add_game_args(parser)
    parser.add_argument("--camera", default="0", metavar="SOURCE",
                        help="the camera: a webcam index (0), a stream URL (rtsp://, http://), a "
                             "video file or a folder of images (default 0)")
    parser.add_argument("--calibration", metavar="FILE",
                        help="the calibration file (default: calibration.json in the data dir; "
                             "without one the markers alone locate the table)")
    parser.add_argument("--serial", default="auto", metavar="PORT",
                        help="the LED board: 'auto' (find it by USB id), a port or pyserial URL, "
                             "'emulated', or 'none' (default auto)")
    parser.add_argument("--host", default="0.0.0.0", help="dashboard: address to listen on")
    parser.add_argument("--port", type=int, default=8080, help="dashboard: port (default 8080)")
    parser.add_argument("--pin", help="dashboard: the referee's PIN (default: a random one, printed)")
    parser.add_argument("--advertise", metavar="ADDRESS",
                        help="dashboard: the address the QR code gives tablets (with several "
                             "network interfaces)")
    parser.add_argument("--headless", action="store_true",
                        help="no dashboard: verdicts on the terminal, questions answered there")
    parser.add_argument("--lang", default="fr", choices=("fr", "en"),
                        help="language of the terminal lines (default fr)")
    parser.add_argument("--read-early", action="store_true",
                        help="read the table on its first still frame, during the stillness "
                             "gate's wait (a quicker verdict; resume a game as it was run)")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from companion.cli.common import parse_options, parse_players
    from companion.demo.report import Printer
    from companion.paths import data_dir
    from companion.runtime.board import open_board
    from companion.runtime.console import Console
    from companion.runtime.loop import RefereeLoop, last_frame_judged
    from companion.runtime.table import Table
    from companion.vision.frames import ResilientSource, open_source
    from companion.vision.readers import make_reader
    from companion.vision.stillness import StillnessGate

    from calibration.store import load_calibration

    data = data_dir(args.data_dir)
    calibration = load_calibration(args.calibration) if args.calibration else \
        load_calibration(Path(data) / "calibration.json")
    table = Table(data)
    board = open_board(args.serial, table.set_device)
    if board is not None:
        table.board, table.board_view = board.driver, board.view
    table.set_calibration(**_calibration_summary(calibration))
    table.add_listener(Printer(sys.stdout, args.lang))
    handle = None
    source = None
    try:
        if args.resume:
            table.resume_game(game=args.game)
        else:
            table.start_game(args.game, parse_players(args.players), parse_options(args.option),
                             seed=args.seed, actor="cli", source={"camera": args.camera})
        reader = make_reader(args.game, calibration=calibration)
        finite = Path(args.camera).exists()  # a video file or a folder can be read again
        source = ResilientSource(lambda: open_source(args.camera), table.set_camera,
                                 name=f"camera {args.camera}")
        loop = RefereeLoop(table, source, reader, StillnessGate(),
                           skip_to=last_frame_judged(table) if (args.resume and finite) else -1,
                           overlay=_overlay(reader), read_early=args.read_early)
        if not args.headless:
            from companion.web import serve

            handle = serve(table, host=args.host, port=args.port, pin=args.pin,
                           advertise=args.advertise, announce=True)
        console = Console(table, sys.stdin, sys.stdout)
        console.start()
        loop.run()
    except KeyboardInterrupt:
        print("\nstopped; `companion run ... --resume` goes on with this game", file=sys.stderr)
    finally:
        if handle is not None:
            handle.stop()
        if source is not None:
            source.close()
        if board is not None:
            board.close()
        table.close()
    return 0


def _calibration_summary(calibration) -> dict:
    camera = getattr(calibration, "camera", None)
    pose = getattr(calibration, "pose", None)
    return {
        "camera": None if camera is None else f"{camera.source}, RMS "
        + ("?" if camera.rms is None else f"{camera.rms:.2f} px"),
        "table": None if pose is None else "measured",
    }


def _overlay(reader):
    from companion.demo.video import overlay_for

    return overlay_for(reader)

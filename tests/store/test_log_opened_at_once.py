"""The event log opened by several connections at once, as it is being created.

The referee creates the log when a game starts, while the dashboard, a second `companion`
command or a person looking at the file may open it at the same moment. Each opening creates
the tables if they are missing and writes the schema's version once: two openings that both
found no version used to both write it, and the second failed with "UNIQUE constraint failed:
meta.key", reported as an unusable log (a clean-clone test run hit it while a test polled the
log of a game being started).
"""

from __future__ import annotations

import threading

from companion.store import EventLog


def test_a_new_log_opened_by_many_at_once_opens_for_all(tmp_path):
    failures: list[BaseException] = []
    for round_ in range(60):
        path = tmp_path / f"round{round_}" / EventLog.FILENAME
        barrier = threading.Barrier(8)

        def open_it() -> None:
            barrier.wait()
            try:
                with EventLog(path):
                    pass
            except BaseException as exc:  # noqa: BLE001 - collected and reported below
                failures.append(exc)

        threads = [threading.Thread(target=open_it) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []
    with EventLog(tmp_path / "round0" / EventLog.FILENAME) as log:
        game = log.new_game("haut-les-cubes", {"players": ["red", "blue"]})
        assert [e.type for e in log.events(game.game_id)] == ["game.started"]

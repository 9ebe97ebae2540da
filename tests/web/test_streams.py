"""The live channels on a real waitress server: the event stream (numbered, caught up from
Last-Event-ID, resynchronised when too far behind or after a restart, heartbeats, capped) and
the camera view (MJPEG, shared frames, capped)."""

from __future__ import annotations

import http.client
import time

import numpy as np
import pytest

from companion import events as ev
from companion.runtime.bus import EventBus
from companion.web import serve

from web_helpers import PIN, EventStream, play, wait_for


def first_real(messages, skip=("heartbeat",)):
    for event_id, data in messages:
        if data["type"] not in skip:
            return event_id, data
    raise AssertionError("the stream ended")


def test_a_new_stream_starts_with_a_snapshot_then_every_event_numbered(server, table):
    stream = EventStream(server.port)
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        messages = stream.messages()
        event_id, data = first_real(messages)
        assert data["type"] == "resync" and data["data"]["reason"] == "new stream"
        snap = data["data"]["snapshot"]
        assert snap["game"]["name"] == "haut-les-cubes"
        assert event_id == f"{table.bus.epoch}-{snap['bus']['last_id']}"
        play(table.referee, "red: N -5,1^0")
        event_id, data = first_real(messages)
        assert data["type"] == ev.MOVE_JUDGED
        assert event_id == f"{table.bus.epoch}-{data['id']}" and data["id"] == snap["bus"]["last_id"] + 1
        assert data["data"]["event"]["notation"] == "red: N -5,1^0"
        assert data["data"]["status"]["active"] == "blue"
        table.set_camera("connected", "test camera", fps=12)
        _, data = first_real(messages)
        assert data["type"] == ev.CAMERA_STATUS and data["data"]["fps"] == 12
    finally:
        stream.close()


@pytest.mark.parametrize("how", ["header", "query"])
def test_a_sleeping_tablet_catches_up_from_its_last_event(server, table, how):
    epoch, last = table.bus.epoch, table.bus.last_id
    play(table.referee, "red: N -5,1^0")
    play(table.referee, "blue: M -4,-2")
    missed = [m.id for m in table.bus.since(last)]
    assert len(missed) >= 3
    token = f"{epoch}-{last}"
    stream = (EventStream(server.port, last=token) if how == "header"
              else EventStream(server.port, query=f"?last={token}"))
    try:
        messages = stream.messages()
        got = []
        while len(got) < len(missed):
            event_id, data = first_real(messages)
            assert data["type"] != "resync"
            got.append(data["id"])
            assert event_id == f"{epoch}-{data['id']}"
        assert got == missed
    finally:
        stream.close()


def test_too_far_behind_or_from_another_run_means_resync(data_dir):
    from companion.runtime.table import Table

    table = Table(data_dir)
    table.bus = EventBus(keep=5)  # a short memory, to fall out of it quickly
    table.start_game("haut-les-cubes", ["red", "blue", "green"], actor="test")
    for status in ("connecting", "connected", "lost", "reconnecting", "connected", "lost", "absent"):
        table.set_camera(status, status)
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN, config={"heartbeat_s": 1.0})
    try:
        for last, reason in ((f"{table.bus.epoch}-1", "no longer kept"),
                             ("0123abc-3", "restarted"),
                             (f"{table.bus.epoch}-999999", "restarted"),
                             ("garbage", "restarted")):
            stream = EventStream(handle.port, last=last)
            try:
                event_id, data = first_real(stream.messages())
                assert data["type"] == "resync" and reason in data["data"]["reason"], last
                assert data["data"]["snapshot"]["bus"]["last_id"] == table.bus.last_id
                assert event_id == f"{table.bus.epoch}-{table.bus.last_id}"
            finally:
                stream.close()
    finally:
        handle.stop()
        table.close()


def test_a_quiet_stream_sends_heartbeats(server, table):
    stream = EventStream(server.port, last=f"{table.bus.epoch}-{table.bus.last_id}")
    try:
        start = time.monotonic()
        for event_id, data in stream.messages():
            if data["type"] == ev.HEARTBEAT:
                assert event_id is None  # a heartbeat does not move the browser's position
                assert data["data"]["last_id"] == table.bus.last_id
                break
            assert time.monotonic() - start < 10, "no heartbeat"
    finally:
        stream.close()


def test_streams_are_capped_with_a_clear_answer_and_dead_clients_free_their_place(table):
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN,
                   config={"heartbeat_s": 0.3, "max_streams": 2, "max_cameras": 1})
    try:
        assert handle.threads >= 2 + 1 + 2
        a = EventStream(handle.port)
        b = EventStream(handle.port)
        assert a.status == 200 and b.status == 200
        c = EventStream(handle.port)
        assert c.status == 503 and int(c.response.getheader("Retry-After")) > 0
        assert "close another tab" in c.body()["message"]
        c.close()
        a.close()  # the client goes away; the next heartbeat's write fails and frees its place

        def admitted():
            d = EventStream(handle.port)
            if d.status == 200:
                return d
            d.close()
            return None

        d = wait_for(admitted, timeout=10, interval=0.2, what="a freed stream slot")
        health = http.client.HTTPConnection("127.0.0.1", handle.port, timeout=5)
        health.request("GET", "/api/health")
        streams = __import__("json").loads(health.getresponse().read())["streams"]
        assert streams["open"] == 2 and streams["refused"] >= 1
        health.close()
        b.close()
        d.close()
    finally:
        handle.stop()


def read_part(response):
    """One part of a multipart/x-mixed-replace response: (headers, body)."""
    line = response.readline()
    while line.strip() in (b"", b"--frame"):
        line = response.readline()
    headers = {}
    while line.strip():
        key, _, value = line.decode().partition(":")
        headers[key.strip().lower()] = value.strip()
        line = response.readline()
    body = response.read(int(headers["content-length"]))
    return headers, body


def test_the_camera_view_is_one_shared_encoding_and_capped(table):
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN, config={"max_cameras": 2})
    conns = []
    try:
        table.feed.push(np.full((540, 1920, 3), 90, np.uint8), force=True)
        responses = []
        for _ in range(2):
            conn = http.client.HTTPConnection("127.0.0.1", handle.port, timeout=10)
            conn.request("GET", "/api/camera.mjpg")
            response = conn.getresponse()
            assert response.status == 200
            assert response.getheader("Content-Type") == "multipart/x-mixed-replace; boundary=frame"
            conns.append(conn)
            responses.append(response)
        parts = [read_part(r) for r in responses]
        latest = table.feed.latest()
        assert all(body == latest.jpeg for _, body in parts)  # encoded once, shared
        assert all(h["content-type"] == "image/jpeg" for h, _ in parts)
        table.feed.push(np.full((540, 1920, 3), 200, np.uint8), force=True)
        newest = table.feed.latest()

        def shows_newest():
            return read_part(responses[0])[1] == newest.jpeg

        wait_for(shows_newest, timeout=10, what="the next frame")
        third = http.client.HTTPConnection("127.0.0.1", handle.port, timeout=10)
        third.request("GET", "/api/camera.mjpg")
        refused = third.getresponse()
        assert refused.status == 503 and b"camera views" in refused.read()
        third.close()
        assert table.feed.viewers == 2
    finally:
        for conn in conns:
            conn.close()
        handle.stop()


def test_stop_ends_open_streams(table):
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN)
    stream = EventStream(handle.port)
    messages = stream.messages()
    first_real(messages)
    handle.stop()
    assert not handle.running
    leftover = list(messages)  # the stream ends rather than hanging
    assert all(data["type"] in ("heartbeat", "resync") or "id" in data for _, data in leftover)
    stream.close()
    with pytest.raises(OSError):
        http.client.HTTPConnection("127.0.0.1", handle.port, timeout=2).request("GET", "/")

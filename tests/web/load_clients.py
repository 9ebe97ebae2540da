"""The tablets of the load test, in a process of their own (as tablets are other machines): event
streams that record when each message arrives, and camera viewers that count frames.

Runs in a child process started by ``test_load.py``; talks to the parent through a queue."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from typing import Any


def _stream(port: int, last: str, out: dict[str, Any], ready: threading.Barrier,
            final: Any, stop: Any) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    arrivals: list[tuple[int, float, float]] = []
    out["status"] = None
    try:
        conn.request("GET", "/api/events", headers={"Last-Event-ID": last})
        response = conn.getresponse()
        out["status"] = response.status
        ready.wait(30)
        data: list[str] = []
        stopped_at = None
        while True:
            if stop.is_set():
                stopped_at = stopped_at or time.monotonic()
                done = final.value > 0 and arrivals and arrivals[-1][0] >= final.value
                if done or time.monotonic() - stopped_at > 15:
                    break
            try:
                raw = response.readline()
            except socket.timeout:
                continue
            if not raw:
                break
            line = raw.decode().rstrip("\r\n")
            if line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                message = json.loads("\n".join(data))
                data = []
                if "id" in message:
                    arrivals.append((message["id"], time.time(), message["ts"]))
    except Exception as exc:  # reported to the parent, which fails the test with it
        out["error"] = repr(exc)
    finally:
        out["arrivals"] = arrivals
        conn.close()


def _viewer(port: int, out: dict[str, Any], ready: threading.Barrier, stop: Any) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    frames, size = 0, 0
    try:
        conn.request("GET", "/api/camera.mjpg")
        response = conn.getresponse()
        out["status"] = response.status
        ready.wait(30)
        start = time.monotonic()
        while not stop.is_set():
            try:
                line = response.readline()
            except socket.timeout:
                continue
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
                response.readline()
                size += len(response.read(length))
                frames += 1
        out["seconds"] = time.monotonic() - start
    except Exception as exc:
        out["error"] = repr(exc)
    finally:
        out["frames"], out["bytes"] = frames, size
        conn.close()


def run(port: int, last: str, streams: int, viewers: int, final: Any, stop: Any,
        results: Any) -> None:
    """Open ``streams`` event streams (from ``last``) and ``viewers`` camera views; say
    "ready" once all are open, then record until ``stop`` and put the results on ``results``."""
    ready = threading.Barrier(streams + viewers + 1)
    stream_out = [dict() for _ in range(streams)]
    viewer_out = [dict() for _ in range(viewers)]
    threads = [threading.Thread(target=_stream, args=(port, last, o, ready, final, stop), daemon=True)
               for o in stream_out]
    threads += [threading.Thread(target=_viewer, args=(port, o, ready, stop), daemon=True)
                for o in viewer_out]
    for t in threads:
        t.start()
    try:
        ready.wait(30)
        results.put({"ready": True})
    except threading.BrokenBarrierError:
        results.put({"ready": False})
    for t in threads:
        t.join(40)
    results.put({"streams": stream_out, "viewers": viewer_out})

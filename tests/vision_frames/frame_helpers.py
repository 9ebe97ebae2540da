"""Helpers for the frame-source tests: numbered frames and a local MJPEG server."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np


def numbered_image(i: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A frame whose index can be read back from its brightness (robust to compression)."""
    w, h = size
    img = np.full((h, w, 3), 10 + 20 * i, np.uint8)
    cv2.putText(img, str(i), (10, h - 20), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
    return img


def index_of(image: np.ndarray) -> int:
    """Inverse of :func:`numbered_image` (reads the border brightness)."""
    return int(round((float(np.median(image[:10, :, :])) - 10) / 20))


class MjpegServer:
    """A phone-camera stand-in: serves ``frames`` numbered frames as multipart MJPEG over HTTP,
    and can be stopped and started again on the same port."""

    def __init__(self, frames: int = 40):
        self.frames = frames
        self.port = 0
        self._server: ThreadingHTTPServer | None = None
        self.start()

    def start(self) -> None:
        frames = self.frames

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                for i in range(frames):
                    data = cv2.imencode(".jpg", numbered_image(i % 12))[1].tobytes()
                    try:
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                         + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")
                    except (BrokenPipeError, ConnectionResetError):
                        return

            def log_message(self, *args):
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/video.mjpg"

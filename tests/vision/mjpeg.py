"""A network camera for the vision tests: a picture served as an MJPEG stream over HTTP (``multipart/x-mixed-replace``,
as IP cameras serve it and OpenCV's FFmpeg reads it) from this process, which can stall (its connections held, no
frame sent: a new one gets the headers and then nothing), go silent (a new connection taken and not answered at all:
a camera booting), stop (its port closed, its connections cut: a camera unplugged or rebooting) and start again on
the same port. Its frames differ as a real sensor's do (a little noise on each, ``NOISY`` of them by turns), or,
``frozen``, are the very same frame over and over (a camera or encoder stuck). ``junk``, when set, is sent on each
connection in place of its next frame, which is then held as stalled (a broken or hostile camera: one header line a
megabyte long). ``taken`` is when each connection was taken, ``held`` each one's life once closed, (taken, closed),
on the monotonic clock: how long a client waited."""

from __future__ import annotations

import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np

NOISY = 6  # frames of one picture, each with its own noise, sent by turns


def noisy(image: np.ndarray, n: int = NOISY) -> list[bytes]:
    """``n`` JPEGs of ``image``, each with its own sensor noise (sigma 1.5 levels): no two decode alike."""
    rng = np.random.default_rng(0)
    return [cv2.imencode(".jpg", np.clip(image + rng.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8),
                         [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes() for _ in range(n)]


class Stream:
    def __init__(self, image: np.ndarray, fps: float = 5.0) -> None:
        self.fps, self.stalled, self.silent, self.frozen, self._server = fps, False, False, False, None
        self._conns: set[socket.socket] = set()
        self.junk: bytes | None = None
        self.taken: list[float] = []
        self.held: list[tuple[float, float]] = []
        self.show(image)
        self.port = 0
        self.start()
        self.url = f"http://127.0.0.1:{self.port}/table.mjpg"

    def show(self, image: np.ndarray) -> None:
        """Serve ``image`` from the next frame on, with a sensor's noise."""
        self._jpegs = noisy(image)

    def _jpeg(self, n: int) -> bytes:
        """The ``n``-th frame sent on a connection: the first of the picture's, over and over while frozen."""
        return self._jpegs[0 if self.frozen else n % len(self._jpegs)]

    def start(self) -> None:
        stream = self

        class Camera(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stream._conns.add(self.connection)
                taken, answered = time.monotonic(), not stream.silent
                stream.taken.append(taken)
                try:
                    if answered:
                        self.send_response(200)
                        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                        self.end_headers()
                    sent, junked = 0, False
                    while stream._server is self.server:
                        if answered and stream.junk is not None and not junked:
                            self.wfile.write(stream.junk)
                            junked = True
                        elif answered and not stream.stalled and not junked:
                            jpeg, sent = stream._jpeg(sent), sent + 1
                            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n"
                                             % (len(jpeg), jpeg))
                        if select.select([self.connection], [], [], 1 / stream.fps)[0] and not self.connection.recv(4096):
                            break  # the watch hung up (or this camera stopped)
                except OSError:
                    pass  # the watch went away
                finally:
                    stream._conns.discard(self.connection)
                    stream.held.append((taken, time.monotonic()))

            def log_message(self, *args) -> None:
                pass

        self.stalled = self.silent = False
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Camera)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        for conn in list(self._conns):
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

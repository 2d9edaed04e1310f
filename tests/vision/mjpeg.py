"""A network camera for the vision tests: a picture served as an MJPEG stream over HTTP (``multipart/x-mixed-replace``,
as IP cameras serve it and OpenCV's FFmpeg reads it) from this process, which can stall (its connections held, no
frame sent: a new one gets the headers and then nothing), go silent (a new connection taken and not answered at all:
a camera booting), stop (its port closed, its connections cut: a camera unplugged or rebooting) and start again on
the same port. ``taken`` is when each connection was taken, ``held`` each one's life once closed, (taken, closed),
on the monotonic clock: how long a client waited."""

from __future__ import annotations

import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np


class Stream:
    def __init__(self, image: np.ndarray, fps: float = 5.0) -> None:
        self.fps, self.stalled, self.silent, self._server, self._conns = fps, False, False, None, set()
        self.taken: list[float] = []
        self.held: list[tuple[float, float]] = []
        self.show(image)
        self.port = 0
        self.start()
        self.url = f"http://127.0.0.1:{self.port}/table.mjpg"

    def show(self, image: np.ndarray) -> None:
        """Serve ``image`` from the next frame on."""
        self._jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()

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
                    while stream._server is self.server:
                        if answered and not stream.stalled:
                            jpeg = stream._jpeg
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

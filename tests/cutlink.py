"""A TCP proxy between a program and its broker whose link a test can cut silently, as a switch or a Wi-Fi that drops
packets does: no RST, no FIN, nothing forwarded either way, both ends' sockets still open. ``cut()`` stops forwarding
(the bytes wait in the kernel's buffers, as unacknowledged segments wait for their retransmission), ``mend()`` lets
them go on; an end that closed its socket meanwhile closes the other when the link is mended, as a peer's FIN or RST
would arrive then. A connection made while cut gets no byte through (its CONNECT is never answered); one its client
gave up before the link was mended never reaches the broker (as a SYN that was never answered), one still open then
does, with what its client sent meanwhile."""

from __future__ import annotations

import select
import socket
import threading

from bus.mqtt import parse_url

POLL_S = 0.05


class CutLink:
    """Listens on a free port of 127.0.0.1 and forwards each connection to ``(host, port)``; ``url(broker_url)`` is
    the same URL through the proxy. Use as a context manager, or ``close()``."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._flowing = threading.Event()
        self._flowing.set()
        self._closed = threading.Event()
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="cutlink", daemon=True).start()

    def url(self, broker_url: str) -> str:
        """``broker_url`` (``mqtt://user:password@host:port``) with this proxy's address."""
        a = parse_url(broker_url)
        return broker_url.replace(f"@{a.host}:{a.port}", f"@127.0.0.1:{self.port}")

    def cut(self) -> None:
        self._flowing.clear()

    def mend(self) -> None:
        self._flowing.set()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._join, args=(client,), daemon=True).start()

    def _join(self, client: socket.socket) -> None:
        """Connect ``client`` to the target once the link flows, unless it gave up meanwhile."""
        sent = b""
        if not self._flowing.is_set():
            self._flowing.wait()
            client.setblocking(False)
            try:
                while chunk := client.recv(65536):
                    sent += chunk
                client.close()  # closed by its client while cut: never reached the broker
                return
            except BlockingIOError:
                client.setblocking(True)
            except OSError:
                client.close()
                return
        try:
            upstream = socket.create_connection(self.target)
            upstream.sendall(sent)
        except OSError:
            client.close()
            return
        with self._lock:
            self._socks += [client, upstream]
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        """Copy ``src`` to ``dst`` while the link flows; at ``src``'s end, end ``dst`` too."""
        try:
            while not self._closed.is_set():
                if not self._flowing.wait(POLL_S):
                    continue
                if not select.select([src], [], [], POLL_S)[0]:
                    continue
                self._flowing.wait()  # cut while waiting for bytes: they wait too
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self._closed.set()
        self._flowing.set()
        self._listener.close()
        with self._lock:
            for s in self._socks:
                s.close()

    def __enter__(self) -> CutLink:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

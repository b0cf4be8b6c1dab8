"""A fake Bolt server on 127.0.0.1 for the tests that must see what a client sends, or how it fails."""
from __future__ import annotations

import socket
import threading


class FakeBolt:
    """A listener that answers the Bolt handshake (version 4.4) and keeps every byte a client sends; with
    `handshake` False it reads the first bytes and closes, as a Bolt server without TLS does on a TLS handshake."""

    def __init__(self, handshake: bool = True) -> None:
        self.handshake = handshake
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.received = bytearray()
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            with client:
                client.settimeout(1)
                try:
                    self.received += client.recv(20)  # magic and four proposed versions
                    if not self.handshake:
                        continue
                    client.sendall(bytes([0, 0, 4, 4]))
                    while chunk := client.recv(4096):
                        self.received += chunk  # HELLO carries the credentials; never answered
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.server.close()

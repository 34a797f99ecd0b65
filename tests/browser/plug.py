"""The network between a phone and the live server, as a plug a test can pull out.

Chromium's offline switch (Playwright's ``context.set_offline``) is no proof that
the server is out of reach: it does not reliably stop a service worker's own
fetches. Seen in ``test_offline_fallback``: a worker's fetch begun after the
switch had answered reached the server, and the real page was shown where the
worker's page for a page not kept was due (3 runs in 145 at load 9-14).
A test that needs the server gone reaches it through a ``Plug`` and pulls it.
"""

from __future__ import annotations

import socket
import threading
from urllib.parse import urlsplit


class Plug:
    """A relay between the phone and the server that can be pulled out: while
    out, every connection (open or new) is closed before a byte reaches the server."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.connected = True
        self.body_bytes: int | None = None  # set: each answer is cut this many bytes into its body
        self.in_headers = False  # set: each answer is cut after its status line
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target) if self.connected else None
            with self.lock:
                # Looked at again under the lock: a pull() while the server's socket was
                # opening has already closed every open one, and would miss these two.
                if server is None or not self.connected:
                    for s in (client, server):
                        if s is not None:
                            s.close()
                    continue
                self.open.update((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket, answers: bool = False) -> None:
        seen = b""
        try:
            while data := a.recv(65536):
                if answers and self.in_headers:
                    seen += data
                    line = seen.find(b"\r\n")
                    if line >= 0:
                        b.sendall(seen[: line + 2])
                        break
                    continue
                if answers and self.body_bytes is not None:
                    seen += data
                    head = seen.find(b"\r\n\r\n")
                    if head >= 0:  # the headers and the first bytes of the body, then the cut
                        b.sendall(seen[: head + 4 + self.body_bytes])
                        break
                    continue
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
                with self.lock:
                    self.open.discard(s)

    def pull(self) -> None:
        with self.lock:
            self.connected = False
            for s in list(self.open):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.open.clear()

    def push(self) -> None:
        self.connected = True

    def cut_answers(self, body_bytes: int | None, in_headers: bool = False) -> None:
        """From now on every answer stops ``body_bytes`` into its body, or after its
        status line (``in_headers``); ``None``: whole again."""
        self.body_bytes = body_bytes
        self.in_headers = in_headers

    def close(self) -> None:
        self.pull()
        self.listener.close()

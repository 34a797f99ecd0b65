"""A webhook receiver on 127.0.0.1 for the tests and the benchmark: records
what it is sent, and answers by path: ``/ok`` 200, ``/fail`` 500,
``/redirect`` 302 to ``/ok`` on the metadata address, ``/huge`` an endless
body, ``/hang`` nothing until released."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    base: str
    received: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    release: threading.Event = field(default_factory=threading.Event)
    huge_written: list[int] = field(default_factory=list)

    def wait_for(self, count: int, seconds: float = 60.0) -> list[Received]:
        """Block until ``count`` requests arrived (or give up after ``seconds``)."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout=seconds)
            return list(self.received)


@contextmanager
def receiver() -> Iterator[Receiver]:
    state = Receiver(base="")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with state.arrived:
                state.received.append(Received(self.path, dict(self.headers.items()), body))
                state.arrived.notify_all()
            if self.path == "/hang":
                state.release.wait(120)
                return
            if self.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
                self.end_headers()
                return
            if self.path == "/huge":
                self.send_response(200)
                self.end_headers()
                written = 0
                try:
                    for _ in range(10_000):  # 10 MB, unless the client stops reading
                        self.wfile.write(b"x" * 1024)
                        written += 1024
                except OSError:
                    pass
                state.huge_written.append(written)
                return
            self.send_response(500 if self.path == "/fail" else 200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()

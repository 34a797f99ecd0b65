"""Start gunicorn for a script that needs a real server: the production smoke
test and the benchmarks.

``with serve(env, workers=2) as base:`` starts ``gunicorn league.wsgi`` on a
free port of 127.0.0.1 (loopback only), waits until ``/healthz`` answers and
yields the base URL (``http://127.0.0.1:PORT``); leaving the block stops the
server and every worker it forked. A server that exits early or never answers
raises ``RuntimeError`` instead of letting the caller measure nothing.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick on 127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(port: int, server: subprocess.Popen, timeout: float = 30.0) -> None:
    """Until ``GET /healthz`` gets any answer. Any status counts: behind the
    smoke test's pretend proxy a plain-HTTP request is redirected to HTTPS,
    and that answer too says the workers serve."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode} before answering")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        try:
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
        finally:
            conn.close()
    raise RuntimeError(f"gunicorn did not answer /healthz on 127.0.0.1:{port} within {timeout:.0f} s")


@contextmanager
def serve(env: dict[str, str], *, workers: int = 2, args: Sequence[str] = ("--log-level", "warning"),
          cwd: Path = REPO) -> Iterator[str]:
    """gunicorn with ``workers`` workers and the extra command-line ``args``,
    under ``env``; yields its base URL and stops it (SIGTERM to its process
    group, then SIGKILL if it has not gone in 30 s) when the block ends."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "league.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         *args],
        cwd=cwd, env=env, start_new_session=True,  # its own group: the workers stop with it
    )
    try:
        wait_until_up(port, server)
        yield f"http://127.0.0.1:{port}"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


@contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway ``redis-server`` (Debian's package) on a free port of
    127.0.0.1, nothing saved to disk; yields its URL (``redis://...:PORT/0``)
    once it accepts connections, and stops it on leaving the block."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="tenbou-redis-") as tmp:
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no", "--dir", tmp], stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                if server.poll() is not None:
                    raise RuntimeError(f"redis-server exited with status {server.returncode}")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server never answered on port {port}") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(timeout=10)

"""How many times a public page is computed when it goes out of the cache
under many spectators at once: the page cache's miss herd (issue 28).

    python tests/benchmarks/bench_page_fill.py [--workers 4] [--threads 1] [--clients 32] [--rounds 5]
        [--before DIR]

Not collected by pytest. Serves the project for real: gunicorn (DEBUG off,
``--workers`` workers of ``--threads`` threads each), Redis as the shared
cache, a throwaway SQLite file with an event of 64 players whose first round
is being played. Each round moves the series' stamps (as any change does; a
page's 600 s expiry is the same miss), then ``--clients`` spectators without
a session ask for the event's public page at the same moment. Counted, from
Redis's ``MONITOR``: how many times the page was computed (each computation
stores it once: a ``SET`` of its ``cached-response:`` key); timed: the
slowest spectator's answer. Every answer must be a 200 with the same bytes.

``--before DIR`` (DIR = ``git archive 247c9a6 | tar -x -C DIR``) serves that
copy of the code too, with its own database and Redis, round for round in
the same run. The load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
SLUG = "fill"
SEED = f"""
from league.models import Round
from league.services import event
from tests.factories import make_series
series = make_series("ema-2016", name="Fill open", kind="tournament", slug="{SLUG}")
event.configure_event(series=series, rounds=4)
event.import_registrations(series=series, text="number,first name,last name\\n" + "".join(
    f"{{i}},P{{i}},L{{i}}\\n" for i in range(1, 65)))
report = event.seat_rounds(series=series)
event.check_in(registrations=series.registrations.all())
first = report.rounds[0]
event.publish_round(round=first)
event.start_round(round=Round.objects.get(pk=first.pk))
print("series", series.pk)
"""
# A change, as far as the pages know: the series' new stamps (league/stamps.py).
MOVE = "from league import stamps; stamps.publish_on_commit([{series}])"
COMPUTED = re.compile(r'^"SET" ":1:cached-response:')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, path: str = "/healthz", timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answered on 127.0.0.1:{port}{path}")


@contextmanager
def process(args: list[str], **kwargs: object) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(args, start_new_session=True, stdout=subprocess.DEVNULL, **kwargs)  # type: ignore[call-overload]
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Tree:
    """One copy of the code, served: its database, its Redis, its gunicorn."""

    def __init__(self, name: str, root: Path, stack: ExitStack, workers: int, threads: int) -> None:
        self.name, self.root = name, root
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"tenbou-fill-{name}-")))
        redis_port, self.port = free_port(), free_port()
        stack.enter_context(process(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                     "--appendonly", "no"]))
        self.redis_port = redis_port
        self.env = {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
                    "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "CACHE_URL": f"redis://127.0.0.1:{redis_port}/0",
                    "DJANGO_SETTINGS_MODULE": "league.settings", "PYTHONPATH": str(root)}
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=root, env=self.env, check=True)
        made = subprocess.run([PY, "manage.py", "shell", "--no-imports", "-c", SEED], cwd=root, env=self.env,
                              check=True, capture_output=True, text=True)
        self.series = int(made.stdout.split("series", 1)[1].split()[0])
        worker_class = ["--worker-class", "gthread", "--threads", str(threads)] if threads > 1 else []
        stack.enter_context(process([PY, "-m", "gunicorn", "league.wsgi", "--bind", f"127.0.0.1:{self.port}",
                                     "--workers", str(workers), *worker_class, "--log-level", "warning"],
                                    cwd=root, env=self.env))
        wait_for(self.port)
        wait_for(self.port, f"/series/{SLUG}/event/")  # every worker's imports, before the first round
        for _ in range(4 * workers):
            wait_for(self.port, f"/series/{SLUG}/event/")

    def move_stamps(self) -> None:
        subprocess.run([PY, "manage.py", "shell", "--no-imports", "-c", MOVE.format(series=self.series)],
                       cwd=self.root, env=self.env, check=True)

    def round(self, clients: int) -> tuple[int, float]:
        """(computations, the slowest answer's seconds) of ``clients`` asking at once."""
        self.move_stamps()
        sets: list[str] = []
        ready = threading.Event()
        monitor = threading.Thread(target=_monitor, args=(self.redis_port, sets, ready), daemon=True)
        monitor.start()
        ready.wait(5)
        barrier = threading.Barrier(clients)
        answers: list[tuple[int, bytes, float]] = []
        lock = threading.Lock()

        def spectator() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.connect()
            barrier.wait()
            started = time.perf_counter()
            conn.request("GET", f"/series/{SLUG}/event/")
            response = conn.getresponse()
            body = response.read()
            took = time.perf_counter() - started
            conn.close()
            with lock:
                answers.append((response.status, body, took))

        threads = [threading.Thread(target=spectator) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(0.2)  # the last SETs reach the monitor
        _stop_monitor(self.redis_port)
        monitor.join(5)
        if {status for status, _, _ in answers} != {200} or len({body for _, body, _ in answers}) != 1:
            raise SystemExit(f"{self.name}: not every spectator had the same page: "
                             f"{sorted({status for status, _, _ in answers})}")
        return sum(1 for line in sets if COMPUTED.search(line)), max(took for _, _, took in answers)


def _monitor(port: int, sets: list[str], ready: threading.Event) -> None:
    """Each command Redis runs, until a client sends ``ECHO stop-monitor``."""
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(b"MONITOR\r\n")
    buffer = b""
    while b"\r\n" not in buffer:
        buffer += conn.recv(65536)
    ready.set()
    buffer = buffer.split(b"\r\n", 1)[1]
    while True:
        chunk = conn.recv(1 << 20)
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\r\n")
        for line in lines:
            text = line.decode("utf-8", "replace")
            command = text.split("] ", 1)[1] if "] " in text else text
            if '"stop-monitor"' in command:
                conn.close()
                return
            if command.startswith('"SET"'):
                sets.append(command)


def _stop_monitor(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(b"ECHO stop-monitor\r\n")
        conn.recv(100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (README's production command: 4)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (more than 1: gthread workers)")
    parser.add_argument("--clients", type=int, default=32, help="spectators asking at the same moment")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a copy of the code before (git archive 247c9a6 | tar -x -C DIR)")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is needed")
    with ExitStack() as stack:
        trees = [Tree("after", REPO, stack, args.workers, args.threads)]
        if args.before:
            trees.insert(0, Tree("before", args.before.resolve(), stack, args.workers, args.threads))
        results: dict[str, list[tuple[int, float]]] = {t.name: [] for t in trees}
        for _ in range(args.rounds):
            for tree in trees:
                results[tree.name].append(tree.round(args.clients))
        load = os.getloadavg()
        print(f"{args.clients} spectators at once after a change, gunicorn {args.workers} workers x {args.threads} "
              f"thread(s), Redis cache, SQLite; {args.rounds} rounds; load average {load[0]:.2f} {load[1]:.2f} "
              f"{load[2]:.2f} on {os.cpu_count()} cores")
        for name, rounds in results.items():
            computed = [c for c, _ in rounds]
            slowest = [s * 1000 for _, s in rounds]
            print(f"  {name:6}: the page computed {computed} times (median {statistics.median(computed):g}); "
                  f"slowest answer median {statistics.median(slowest):.0f} ms (rounds: "
                  f"{', '.join(f'{s:.0f}' for s in slowest)})")
        if args.before:
            b, a = (statistics.median(s for _, s in results[n]) for n in ("before", "after"))
            print(f"  slowest answer after / before: {a / b:.2f}x")


if __name__ == "__main__":
    main()

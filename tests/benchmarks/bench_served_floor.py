"""What a served request costs the worker, bare and logged in, with the
database connection kept or made anew per request (issue 28).

    python tests/benchmarks/bench_served_floor.py [--seconds 8] [--rounds 3] [--keep 0 60]

Not collected by pytest. The in-process benchmarks (``bench_entry.py``,
``bench_preview.py``) go through Django's test client, which never closes
the database connection between requests; a served worker does, when
``CONN_MAX_AGE`` is 0. This one serves the project for real: gunicorn, one
sync worker, DEBUG off, on a throwaway SQLite file (or ``DATABASE_URL``),
once per ``--keep`` value given as CONN_MAX_AGE, and ``wrk`` (one
connection, on loopback) asks ``GET /healthz`` bare, then with a scorer's
session cookie (the session and user read: the floor of any staff request).
Each figure is the worker's CPU (user + system, from /proc) per request,
the best of ``--rounds``; ratios are to the bare request of the same server.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks


def _session(env: dict[str, str]) -> str:
    """A scorer's session key, made in the database the server will read."""
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "from tests.factories import make_scorer, make_series\n"
        "import uuid\n"
        "run = uuid.uuid4().hex[:8]\n"
        "user = make_scorer(make_series(slug='served-' + run), username='served-' + run)\n"
        "c = Client(); c.force_login(user); print(c.cookies['sessionid'].value)\n"
    )
    out = subprocess.run([PY, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


def _wrk(port: int, seconds: int, cookie: str | None) -> int:
    args = ["wrk", "-t1", "-c1", f"-d{seconds}s", f"http://127.0.0.1:{port}/healthz"]
    if cookie:
        args[1:1] = ["-H", f"Cookie: sessionid={cookie}"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"wrk saw errors:\n{out}")
    return int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]


def serve_and_measure(env: dict[str, str], keep: str, seconds: int, cookie: str) -> dict[str, float]:
    port = _port()
    server_env = {**env, "CONN_MAX_AGE": keep}
    master = subprocess.Popen([PY, "-m", "gunicorn", "league.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}",
                               "--log-level", "warning"], env=server_env, cwd=ROOT, start_new_session=True)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
        worker = int(children[0])
        out: dict[str, float] = {}
        tick = os.sysconf("SC_CLK_TCK")
        for name, who in (("bare", None), ("logged_in", cookie)):
            _wrk(port, 1, who)  # warm
            before = _cpu_ticks(worker)
            n = _wrk(port, seconds, who)
            out[name] = (_cpu_ticks(worker) - before) / tick / n * 1000
        return out
    finally:
        master.send_signal(signal.SIGTERM)
        master.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", nargs="+", default=["0", "60"], help="CONN_MAX_AGE values to compare")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed (apt-get install wrk)")
    with tempfile.TemporaryDirectory(prefix="bench-served-") as tmp:
        env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-served-floor-" + "x" * 40,
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "league.settings",
               "VERSIONS_DIR": tmp, "PYTHONPATH": str(ROOT)}
        env.setdefault("DATABASE_URL", f"sqlite:///{tmp}/served.sqlite3")
        # Set-up with DEBUG on (manage.py's checks want a shared cache with it off);
        # the same SECRET_KEY signs the session the server then reads.
        setup_env = {**env, "DEBUG": "1"}
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], env=setup_env, cwd=ROOT, check=True)
        cookie = _session(setup_env)
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for keep in args.keep:
                got = serve_and_measure(env, keep, args.seconds, cookie)
                for name, ms in got.items():
                    best.setdefault(keep, {})[name] = min(ms, best.get(keep, {}).get(name, ms))
        vendor = "postgresql" if env["DATABASE_URL"].startswith("postgres") else "sqlite"
        print(f"{vendor}, gunicorn 1 sync worker, DEBUG off, worker CPU ms per request, best of {args.rounds}; "
              f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'CONN_MAX_AGE':>12}  {'bare':>6}  {'logged in':>9}  {'x bare':>6}")
        for keep, got in best.items():
            print(f"{keep:>12}  {got['bare']:6.3f}  {got['logged_in']:9.3f}  {got['logged_in'] / got['bare']:6.1f}")


if __name__ == "__main__":
    main()

"""The WSGI entry point freezes a worker's long-lived objects out of the
garbage collector: once loaded, and once warm (league/wsgi.py says why).
Run in a process of its own: a freeze lasts for the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

WORKER = """
import gc, json
import league.wsgi as wsgi
from django.test import Client

client = Client()
counts = {"loaded": gc.get_freeze_count()}
for _ in range(wsgi.WARM_REQUESTS - 1):
    client.get("/healthz")
counts["one short of warm"] = gc.get_freeze_count()
client.get("/healthz")
counts["warm"] = gc.get_freeze_count()
for _ in range(wsgi.WARM_REQUESTS):
    client.get("/healthz")
counts["long after"] = gc.get_freeze_count()
print(json.dumps(counts))
"""


def test_a_worker_freezes_what_it_keeps_once_loaded_and_once_warm() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "league.settings"}
    done = subprocess.run([sys.executable, "-c", WORKER], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True, timeout=300)
    counts = json.loads(done.stdout.splitlines()[-1])
    assert counts["loaded"] > 10_000  # Django, the project and its imports
    # Frozen objects may still be freed by their count of references, never added to but by a freeze.
    assert counts["one short of warm"] <= counts["loaded"]
    assert counts["warm"] > counts["one short of warm"]  # what the first requests made and kept
    assert counts["long after"] <= counts["warm"]  # once: later requests' objects stay collectable

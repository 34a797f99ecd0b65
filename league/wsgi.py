"""The WSGI entry point (``gunicorn league.wsgi``, and ``runserver``).

A warm worker holds a few hundred thousand long-lived objects (modules, URL
patterns, compiled templates, the engine's tables), and every full garbage
collection walked them all: 100 to 400 ms on a busy two-core machine, every
few hundred requests, in whichever request was at hand, so the slowest saves
of an event day were collections (tests/benchmarks/bench_event_load.py).
They are frozen (``gc.freeze``: left out of every later collection) once the
application is loaded and again after the worker's first ``WARM_REQUESTS``
requests, which load the rest; a full collection then walks only what later
requests made. Frozen objects are never freed, so only what a worker keeps
anyway is frozen: the second time after one full collection.
"""

import gc
import os
from typing import Any

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

application = get_wsgi_application()
gc.freeze()

WARM_REQUESTS = 100
_served = 0


def _freeze_once_warm(**kwargs: Any) -> None:
    global _served
    _served += 1
    if _served == WARM_REQUESTS:
        request_finished.disconnect(_freeze_once_warm)
        gc.collect()  # once in a worker's life: what is garbage now is not frozen
        gc.freeze()


request_finished.connect(_freeze_once_warm)

"""What the event benchmarks (bench_stages.py, bench_tournament.py) share:
a throwaway test database, an event with its roster, and a timer that
counts queries. Imported after ``django.setup()``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.db import connection
from django.test.utils import CaptureQueriesContext, setup_test_environment

from league.models import Series
from league.services import event
from tests.factories import make_series

T = TypeVar("T")


@contextmanager
def throwaway_database() -> Iterator[None]:
    """A test database made for the run and destroyed after it."""
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def new_event(rounds: int) -> Series:
    """An EMA-rules tournament of ``rounds`` rounds, nobody registered yet."""
    series = make_series("ema-2016", name="Benchmark open", kind="tournament")
    event.configure_event(series=series, rounds=rounds)
    return series


def roster(players: int, *, teams: bool = False) -> str:
    """A registration file of ``players`` players (in teams of 4 if ``teams``)."""
    if teams:
        return "number,first name,last name,team,country\n" + "".join(
            f"{i},P{i},L{i},Team {(i - 1) // 4},NL\n" for i in range(1, players + 1))
    return "number,first name,last name\n" + "".join(f"{i},P{i},L{i}\n" for i in range(1, players + 1))


def timed(fn: Callable[[], T], repeat: int = 5) -> tuple[float, int, T]:
    """(best seconds, queries of one call, the result) of ``repeat`` calls."""
    best, queries, result = float("inf"), 0, None
    for _ in range(repeat):
        connection.queries_log.clear()  # the log keeps 9,000 queries; the set-up filled it
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - started)
        queries = len(ctx)
    return best, queries, result  # type: ignore[return-value]

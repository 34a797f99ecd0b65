"""Property: any field of an exported event's series header, replaced by a
value of another type, size or range (NUL, 10,000 characters, 10**30, NaN,
year 9999 with an offset, nesting) or dropped, is imported or refused with a
code, never a traceback (issue 29). A refusal stores nothing; what is
imported exports again. Each example runs in a savepoint that is rolled back.
A fixed, derandomized budget so CI is deterministic.

Each example picks one of the header's sections (its top-level keys), a place
in it, and one kind of damage: dropped, or a value of one family of ``HOSTILE``.
CI's 45 examples (the same every run) are counted, and the test asserts that
they damaged every section, did every kind of damage, and were both imported
and refused: together they prove the import survives each kind of damage in
each part of the header. Each example imports the whole event (17 games),
which is the test's cost. ``TENBOU_FUZZ_EXAMPLES=N`` is the long run
(docs/development.md)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import game_records
from league.models import Player, Series
from tests.league.test_event_records import finished_event
from tests.tenhou.mutate import examples

pytestmark = pytest.mark.fuzz

# Every value a damaged field may take, by family: each is counted and must be reached.
HOSTILE = {
    "none": st.none(),
    "boolean": st.booleans(),
    "integer": st.integers(min_value=-(10**30), max_value=10**30),
    "chosen": st.sampled_from([0, -1, 1, 4, 2**15, 2**31, 2**63, 10**20, 1.5, "1", "", "x" * 10_000, "\x00",
                               "AB\x00CD", "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00",
                               "2026-05-16T10:00:00", "2026-02-30", "2026-05-16", "started", "draft",
                               "stage:snake+swap", "tournament", "league"]),
    "float": st.floats(allow_nan=True, allow_infinity=True),
    "text": st.text(max_size=12),
    "nested": st.recursive(st.integers(min_value=-5, max_value=40) | st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=3),
                           max_leaves=10),
}
DAMAGE = ["dropped", *HOSTILE]


def paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the header a value sits, containers included."""
    out = [at] if at else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, (*at, i))
    return out


@pytest.fixture(scope="module")
def exported(django_db_setup: Any, django_db_blocker: Any) -> list[str]:
    with django_db_blocker.unblock(), transaction.atomic():
        lines = list(game_records.series_lines(finished_event()))
        transaction.set_rollback(True)
    return lines


class _RollBack(Exception):
    pass


@pytest.mark.django_db
def test_a_damaged_series_header_is_imported_or_refused_never_crashes(exported: list[str]) -> None:
    sections = list(json.loads(exported[0]))
    seen: Counter[str] = Counter()

    @settings(max_examples=examples(45), derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def damage(data: Any) -> None:
        header = json.loads(exported[0])
        section = data.draw(st.sampled_from(sections), label="section")
        where = data.draw(st.sampled_from(paths(header[section], (section,))), label="where")
        parent = header
        for key in where[:-1]:
            parent = parent[key]
        kind = data.draw(st.sampled_from(DAMAGE), label="kind")
        if kind == "dropped":
            del parent[where[-1]]
        else:
            parent[where[-1]] = data.draw(HOSTILE[kind], label="value")
        text = json.dumps(header, ensure_ascii=False)
        try:
            with transaction.atomic():
                players = Player.objects.count()
                try:
                    report = game_records.import_lines([text, *exported[1:]], slug="fuzz")
                except game_records.ImportRefused as refused:
                    assert all(e.line in range(1, len(exported) + 1) and e.code for e in refused.errors)
                    assert not Series.objects.filter(slug="fuzz").exists() and Player.objects.count() == players
                    outcome = "refused"
                else:
                    # Stored: it exports, and the export imports again.
                    again = list(game_records.series_lines(report.series))
                    game_records.import_lines(again, slug="fuzz-again")
                    outcome = "imported"
                raise _RollBack
        except _RollBack:
            seen.update([f"section {section}", f"damage {kind}", outcome])

    damage()
    # What CI's budget reached: every section, every kind of damage, both outcomes.
    wanted = {f"section {s}" for s in sections} | {f"damage {k}" for k in DAMAGE} | {"imported", "refused"}
    assert wanted <= set(seen), sorted(wanted - set(seen))

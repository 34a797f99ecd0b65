"""The demo league built once per test run, copied into each test that reads it.

``manage.py demo_league`` plays every hand through the services (12 s on SQLite,
more on PostgreSQL); the tests that only read the demo take a copy of its rows
instead. The rows are read once from a build that is rolled back, then inserted
raw (the values as built, ``auto_now`` fields included) into each test's database.
Under pytest-xdist one worker builds them and the others read them from a file
(tests/conftest.py, ``_demo_rows``); with ``TENBOU_DEMO_ROWS`` (.ci/run) the later
passes of one CI run read the first pass's file too.
Tests of the command itself (tests/league/test_demo_league.py, test_production.py)
still run it.
"""

from __future__ import annotations

import pickle
from io import StringIO
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction

Rows = list[tuple[Any, list[Any]]]


def build() -> Rows:
    """Run the command in a transaction that is rolled back; every row it added, by model.

    With DEBUG off, as a test run has it and as tests/league/test_production.py
    reads these rows: the first build of a production set-up, which makes no login."""
    from django.conf import settings

    if settings.DEBUG:
        raise RuntimeError("the tests' copy of the demo is built with DEBUG off (test_production.py reads it so)")
    models = apps.get_models(include_auto_created=True)
    with transaction.atomic():
        before = {m: set(m._base_manager.values_list("pk", flat=True)) for m in models}
        call_command("demo_league", "--allow-without-debug", stdout=StringIO())
        rows = [(m, [o for o in m._base_manager.order_by("pk") if o.pk not in before[m]]) for m in models]
        transaction.set_rollback(True)
    return [(m, objs) for m, objs in rows if objs]


def dumps(rows: Rows) -> bytes:
    """The rows for another test process of the same checkout (another worker, or
    another pass of .ci/run on another database engine: the values are Python's)."""
    # A model class pickles by name, and an auto-created one (a many-to-many
    # table) has none in its module: the label stands for it. The instances
    # pickle by their app label and model name (Django's model_unpickle).
    return pickle.dumps([(model._meta.label, columns(model), objs) for model, objs in rows])


def loads(data: bytes) -> Rows:
    """The rows ``dumps`` wrote; refused if a model's columns changed since (a file kept from another checkout)."""
    rows = []
    for label, written, objs in pickle.loads(data):
        model = apps.get_model(label)
        if written != columns(model):
            raise RuntimeError(f"the demo rows were written for other columns of {label}: delete the file "
                               "(TENBOU_DEMO_ROWS names one for several runs of the same checkout only)")
        rows.append((model, objs))
    return rows


def columns(model: Any) -> list[str]:
    return [f.attname for f in model._meta.local_concrete_fields]


def load(rows: Rows) -> None:
    """Insert the rows as built (raw: no field's pre_save runs), then move PostgreSQL's sequences past them."""
    for model, objs in rows:
        fields = model._meta.local_concrete_fields
        size = connection.ops.bulk_batch_size(fields, objs) or len(objs)
        for i in range(0, len(objs), size):
            model._base_manager._insert(objs[i:i + size], fields=fields, raw=True, using=connection.alias)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [m for m, _ in rows]):
            cursor.execute(sql)

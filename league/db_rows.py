"""Whole model rows read by statements built once, for the reads every
staff request makes (the session's user, the game with its series): the
ORM's building of a ``get()`` costs several times its run on these small
rows (issue 28). The columns, their order and their converters are the
ones the ORM's compiler uses, so a row built here equals the ORM's, field by
field (tests/league/test_session_reads.py, tests/league/test_game_read.py).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Model


class Columns:
    """A model's concrete columns in a hand-built ``SELECT`` under a table
    ``alias``, and how to build the instance from their values."""

    def __init__(self, db: Any, model: type[Model], alias: str) -> None:
        q = db.ops.quote_name
        meta = model._meta
        fields = meta.concrete_fields
        self.model = model
        self.sql = ", ".join(f"{alias}.{q(f.column)}" for f in fields)
        self.width = len(fields)
        self.names = [f.attname for f in fields]
        self.converters: list[tuple[list[Any], Any]] = []
        for f in fields:
            col = f.get_col(meta.db_table)
            self.converters.append((db.ops.get_db_converters(col) + col.get_db_converters(db), col))

    def build(self, db: Any, values: Sequence[Any]) -> Any:
        """The instance, as the ORM builds it from the same row."""
        out = []
        for value, (convs, col) in zip(values, self.converters, strict=True):
            for conv in convs:
                value = conv(value, col, db)
            out.append(value)
        return self.model.from_db(db.alias, self.names, out)


# Per connection (one per thread): the converters are bound to the
# connection's own operations, as the ORM's compiler takes them.
_BUILT: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def built(db: Any, name: str, make: Callable[[Any], Any]) -> Any:
    """``make(db)``, once per connection and ``name``."""
    per_db = _BUILT.get(db)
    if per_db is None:
        per_db = _BUILT[db] = {}
    value = per_db.get(name)
    if value is None:
        value = per_db[name] = make(db)
    return value

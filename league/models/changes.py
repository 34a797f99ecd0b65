"""Which rounds each change of a series' results touched, so the season read
(league.standings.season) recomputes those rounds and not the whole series.

One row per change of results, written on ``stamps.results_changed`` (sent by
``league.models.series_changed`` and a game's deletion) inside the
change's transaction after the series row is updated: the update locks that
row until the commit, so the rows of one series are numbered in the order
their changes committed. ``rounds`` None is a change nobody described (a
series edited, an import, a rename): a reader recomputes everything. A
rolled-back change leaves no row; ``nonce`` tells a row from another given
the same number later (SQLite hands a number back after a rollback, and a
restored backup numbers afresh).
"""

from __future__ import annotations

import secrets

from django.db import models

from league import stamps
from league.models.people import Series


def _nonce() -> str:
    return secrets.token_hex(8)


class ResultsChange(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    rounds = models.JSONField(null=True)  # the round numbers touched; None: any
    nonce = models.CharField(max_length=16, default=_nonce, editable=False)

    class Meta:
        indexes = [models.Index(fields=["series", "id"], name="results_change_series_id")]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.rounds if self.rounds is not None else 'everything'}"


def rounds_since(series_id: int, note: tuple[int, str] | None) -> tuple[set[int] | None, tuple[int, str] | None]:
    """The rounds whose results changed since ``note`` (the last note a
    reader saw, id and nonce), or None when that cannot be told (the note is
    gone or is another's now, or a change since was not described): read
    everything. With the last note now, for the reader to keep. One query."""
    notes = ResultsChange.objects.filter(series_id=series_id)
    if note is not None:
        found = list(notes.filter(id__gte=note[0]).order_by("id").values_list("id", "nonce", "rounds"))
        if found:
            last = (found[-1][0], found[-1][1])
            if (found[0][0], found[0][1]) == note and all(r is not None for _, _, r in found[1:]):
                return {n for _, _, r in found[1:] for n in r}, last
            return None, last
    head = notes.order_by("-id").values_list("id", "nonce").first()
    return None, (head[0], head[1]) if head is not None else None


def note_change(series_ids: list[int], rounds: list[int] | None = None, **kwargs: object) -> None:
    """The receiver of ``stamps.results_changed``: one note per series, in the
    change's transaction (``rounds`` None: the change was not described)."""
    ResultsChange.objects.bulk_create(ResultsChange(series_id=i, rounds=rounds) for i in series_ids)


stamps.results_changed.connect(note_change, dispatch_uid="results-change-notes")

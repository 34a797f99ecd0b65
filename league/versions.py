"""Which state of a series the public pages show, known without a database query.

Every change to a series moves ``Series.version`` inside its transaction
(``changed`` below does both), and once that transaction commits it publishes
a new *stamp* for the series: a token never used before and the time of the
change. Public pages are cached whole under the stamp's token and carry it in
their ETag, so a request for a cached page reads one small cache entry and
touches no database.

Why a fresh token and not the version number: the token is published after
the commit, and a page cached under it is computed after it was read, so it
always holds the committed change, in whatever order two commits publish.
A rolled-back change publishes nothing.

The stamps live in the ``versions`` cache, which every worker must share:
the page cache itself (redis) when it is shared, else a directory on this
machine (see settings), which every process of one deployment reads.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from typing import NamedTuple

from django.core.cache import caches
from django.db import transaction
from django.db.models import F

VERSIONS = "versions"  # the cache alias
EVERYTHING = "all"  # the stamp of pages that show every series (the series list)


class Stamp(NamedTuple):
    token: str
    changed: int  # seconds since the epoch: the page's Last-Modified


def _new_stamp() -> Stamp:
    return Stamp(secrets.token_hex(8), int(time.time()))


def stamp(series_id: int | str) -> Stamp:
    """The current stamp of a series (or of ``EVERYTHING``), made on first use."""
    store = caches[VERSIONS]
    key = f"stamp:{series_id}"
    found = store.get(key)
    if found is None:
        # Another process may add its own first; either is new, and the one
        # kept is what both use from here.
        store.add(key, _new_stamp(), None)
        found = store.get(key) or _new_stamp()
    return Stamp(*found)


def changed(series_ids: Iterable[int], *, slugs: Iterable[str] = ()) -> None:
    """Move the version of these series now, inside the caller's transaction,
    and publish new stamps when it commits (never, if it rolls back).

    ``slugs`` are slugs whose series may have changed (a rename): their
    lookups are forgotten too.
    """
    from league.models import Series  # the models call this on save

    ids = sorted(set(series_ids))
    if ids:
        Series.objects.filter(pk__in=ids).update(version=F("version") + 1)
    publish_on_commit(ids, slugs=slugs)


def publish_on_commit(series_ids: Iterable[int], *, slugs: Iterable[str] = ()) -> None:
    """New stamps for these series (and for the series list) after the commit."""
    keys = [f"stamp:{i}" for i in series_ids]
    gone = [f"slug:{s}" for s in slugs]

    def publish() -> None:
        store = caches[VERSIONS]
        store.set_many({k: _new_stamp() for k in [*keys, f"stamp:{EVERYTHING}"]}, None)
        if gone:
            store.delete_many(gone)

    transaction.on_commit(publish)


def series_for_slug(slug: str) -> int | None:
    """The pk of the series with this slug, remembered; None if there is none."""
    from league.models import Series

    store = caches[VERSIONS]
    pk = store.get(f"slug:{slug}")
    if pk is None:
        pk = Series.objects.filter(slug=slug).values_list("pk", flat=True).first()
        if pk is not None:
            store.set(f"slug:{slug}", pk, None)
    return pk


def series_for_game(game_id: int) -> int | None:
    """The pk of a game's series, remembered (a game never changes series)."""
    from league.models import Game

    store = caches[VERSIONS]
    pk = store.get(f"game:{game_id}")
    if pk is None:
        pk = Game.objects.filter(pk=game_id).values_list("series_id", flat=True).first()
        if pk is not None:
            store.set(f"game:{game_id}", pk, None)
    return pk


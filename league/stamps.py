"""Which state of a series the public pages show, known without a database query.

Every change to a series moves ``Series.version`` inside its transaction
(``league.models.series_changed`` does both), and once that transaction commits it publishes
a new *stamp*: a token never used before and the time of the change. A
separate *results* stamp moves only for what finished games decide, and a
*lineup* stamp for every change but a hand of a game being played (the
series page shows of such a game its table and seats, which no hand moves).
Public pages are cached under a stamp and carry it in their ETag.

Promises: a page cached under a stamp holds the committed change (the token is
published after the commit and the page computed after it is read, in whatever
order two commits publish); a rolled-back change publishes nothing; every
worker and command sees the same stamps (redis, or ``VERSIONS_DIR`` with
``DirectoryStore``). Where they live and what a request reads: docs/architecture.md,
"Cache layers".
"""

from __future__ import annotations

import functools
import mmap
import os
import secrets
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, Protocol

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.dispatch import Signal

# Sent by ``league.models.series_changed`` when what finished games decide may have moved, inside the
# caller's transaction, with ``series_ids``: the webhooks' "standings changed".
results_changed = Signal()

VERSIONS = "versions"  # the cache alias
EVERYTHING = "all"  # the stamp of pages that show every series (the series list)


class Stamp(NamedTuple):
    token: str
    changed: int  # seconds since the epoch: the page's Last-Modified


class Store(Protocol):
    def get(self, key: str) -> str | None: ...
    def set_many(self, values: dict[str, str]) -> None: ...
    def add(self, key: str, value: str) -> None: ...
    def delete_many(self, keys: list[str]) -> None: ...
    def clear(self) -> None: ...


class DirectoryStore:
    """Keys as files of one directory: a write replaces a file whole
    (``os.replace``), an add creates it only if absent (``os.link``), so a
    reader never sees half a value. Keys are slugs and numbers: file names.

    Reads are remembered in the process, and a *generation* says when to
    forget them: eight bytes in the file ``.generation``, mapped into every
    process's memory (``mmap``, shared), which every write overwrites with
    new random bytes after its files are in place. A read compares them with
    those its memory was filled under (no system call) and empties the memory
    if they moved: a request costs no file read while nothing changes. The
    generation is read before a file, so what is remembered is never older
    than the generation it is remembered under. Random bytes, not a counter:
    two writers need no lock, and a value never comes back to one a reader
    saw (no ABA).

    If a cleaner of the temporary directory takes the directory away, a
    process still maps the deleted file: each process checks at most every
    ``recheck`` seconds (one ``stat``) that its mapping is the file in the
    directory, and the writers check before every write.
    """

    GENERATION = ".generation"
    MEMO_LIMIT = 10_000  # keys remembered per process (series, slugs, games looked up)

    def __init__(self, path: str, *, recheck: float = 1.0) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.prefix = f"{self.path}{os.sep}"  # every request reads here: no pathlib
        self.recheck = recheck
        # The generation read and what was read under it, replaced whole: a
        # thread that read an older generation fills a dict no longer used.
        self._memo: tuple[bytes, dict[str, str | None]] = (b"", {})
        self._map: mmap.mmap | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) of the mapped generation
        self._checked = float("-inf")
        self._lock = threading.Lock()  # a threaded server: one remap at a time

    def _mapping(self, *, now: bool = False) -> mmap.mmap:
        """The generation's mapping, checked against the directory if it is
        ``recheck`` seconds since the last check (or ``now``)."""
        if self._map is not None and not now and time.monotonic() < self._checked + self.recheck:
            return self._map
        with self._lock:
            path = self.prefix + self.GENERATION
            try:
                st = os.stat(path)
                current = (st.st_dev, st.st_ino) == self._file and st.st_size >= 8
            except FileNotFoundError:
                current = False
            if not current or self._map is None:
                self._map, self._file = self._open(path)
                self._memo = (b"", {})  # remembered under a file that is gone
            self._checked = time.monotonic()
            return self._map

    def _open(self, path: str) -> tuple[mmap.mmap, tuple[int, int]]:
        # Made as the stamp files are (0o666 less the umask); a process that
        # may not write it (another user's) still maps it to read.
        try:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            except FileNotFoundError:
                self.path.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            access = mmap.ACCESS_WRITE
        except PermissionError:
            fd, access = os.open(path, os.O_RDONLY), mmap.ACCESS_READ
        try:
            st = os.fstat(fd)
            if st.st_size < 8 and access == mmap.ACCESS_WRITE:
                os.ftruncate(fd, 8)  # zeros: a generation like any other
            return mmap.mmap(fd, 8, access=access), (st.st_dev, st.st_ino)
        finally:
            os.close(fd)  # the mapping keeps the file

    def get(self, key: str) -> str | None:
        generation = self._mapping()[:8]
        seen, memo = self._memo
        if generation != seen or len(memo) >= self.MEMO_LIMIT:
            memo = {}  # bounded: a crawler asking for every game number is forgotten
            self._memo = (generation, memo)
        try:
            return memo[key]
        except KeyError:
            pass
        try:
            fd = os.open(self.prefix + key, os.O_RDONLY)
        except FileNotFoundError:
            value = None
        else:
            try:
                value = os.read(fd, 256).decode()
            finally:
                os.close(fd)
        memo[key] = value
        return value

    def _moved(self) -> None:
        """Tell every process that read before this write to read again."""
        self._mapping(now=True)[:8] = secrets.token_bytes(8)

    def _written(self, value: str) -> Path:
        tmp = self.path / f".tmp-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            tmp.write_bytes(value.encode())
        except FileNotFoundError:
            # A cleaner of the temporary directory took it: every stamp is
            # new again, which costs recomputed pages, never stale ones.
            self.path.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(value.encode())
        return tmp

    def set_many(self, values: dict[str, str]) -> None:
        for key, value in values.items():
            os.replace(self._written(value), self.path / key)
        self._moved()

    def add(self, key: str, value: str) -> None:
        tmp = self._written(value)
        try:
            os.link(tmp, self.path / key)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
        self._moved()

    def delete_many(self, keys: list[str]) -> None:
        for key in keys:
            (self.path / key).unlink(missing_ok=True)
        self._moved()

    def clear(self) -> None:
        for f in self.path.iterdir():
            if f.name != self.GENERATION:
                f.unlink(missing_ok=True)
        self._moved()


class CacheStore:
    """Keys in the shared ``versions`` cache, kept until replaced."""

    def get(self, key: str) -> str | None:
        return caches[VERSIONS].get(key)

    def set_many(self, values: dict[str, str]) -> None:
        caches[VERSIONS].set_many(values, None)

    def add(self, key: str, value: str) -> None:
        caches[VERSIONS].add(key, value, None)

    def delete_many(self, keys: list[str]) -> None:
        caches[VERSIONS].delete_many(keys)

    def clear(self) -> None:
        caches[VERSIONS].clear()


@functools.cache
def store() -> Store:
    directory = getattr(settings, "VERSIONS_DIR", None)
    return DirectoryStore(directory) if directory else CacheStore()


def _new_stamp() -> str:
    return f"{secrets.token_hex(8)}:{int(time.time())}"


@functools.lru_cache(maxsize=1024)
def _stamp(text: str) -> Stamp:
    token, changed = text.split(":")
    return Stamp(token, int(changed))


def stamp(series_id: int | str, *, kind: str = "stamp") -> Stamp:
    """The current stamp of a series (or of ``EVERYTHING``), made on first
    use; ``kind="results"`` is its results stamp. Inside a transaction that
    changed the series, its new stamp is published first (``publish_on_commit``)."""
    key = f"{kind}-{series_id}"
    _publish_pending(key)
    found = store().get(key)
    if found is None:
        # Another process may add its own first; either is new, and the one
        # kept is what both use from here.
        new = _new_stamp()
        store().add(key, new)
        found = store().get(key) or new
    return _stamp(found)


class _Publication:
    """A change's new stamps: an ``on_commit`` callback, so Django keeps it
    for the commit and drops it with a rolled-back block (a savepoint too)."""

    __slots__ = ("done", "keys")

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.done = False  # published already: a reader inside asked, or the callback ran

    def __call__(self) -> None:
        values = {k: _new_stamp() for k in self.keys}
        store().set_many(values)
        # A test's captured callbacks stay in the connection's list once run.
        self.done = True


# Set when this thread registers a publication, cleared when a reader finds
# none pending: a thread that changed nothing (a public page) asks no more.
class _Pending(threading.local):
    maybe = False


_pending = _Pending()


def _publish_pending(key: str) -> None:
    """Publish now every change of this transaction whose stamps include
    ``key`` and that is not published yet: a reader inside the transaction
    sees its own change. The pending changes are the connection's
    ``on_commit`` callbacks (``run_on_commit``, Django's own list: a tuple
    whose second item is the callback), which hold only what is not rolled back."""
    if not _pending.maybe:
        return
    connection = transaction.get_connection()
    left = False
    if connection.in_atomic_block:
        for pending in connection.run_on_commit:
            publication = pending[1]
            if isinstance(publication, _Publication) and not publication.done:
                if key in publication.keys:
                    publication()
                else:
                    left = True
    _pending.maybe = left


def publish_on_commit(
    series_ids: Iterable[int], *, slugs: Iterable[str] = (), results: bool = True, lineup: bool = True
) -> None:
    """New stamps for these series (and for the series list) once the
    transaction commits, and before that only if a reader inside the
    transaction asks for one of them (``stamp``).

    The commit's is the one that matters: a page computed while the
    transaction was open read the data as it was before the commit, and is
    cached under an older stamp, which the commit's makes unreachable. The
    early one lets code that reads inside the same transaction (a test, a
    command that checks its own work) see its change, and costs a
    rolled-back change nothing but a few recomputed pages; a transaction
    with no such reader (a hand's save) writes the stamps once.

    ``results=False``: the results stamps stay; ``lineup=False`` (a hand of a
    game being played): the lineup stamps stay too. What moves the results
    moves the lineup."""
    ids = list(series_ids)
    keys = [f"stamp-{i}" for i in ids] + ([f"results-{i}" for i in ids] if results else [])
    keys += [f"lineup-{i}" for i in ids] if results or lineup else []
    publication = _Publication([*keys, f"stamp-{EVERYTHING}"])
    # A rename: the slug's lookup goes, and so do the webhooks' note of the series (its slug is in their
    # payloads); at once as well, as their readers (views.cached, services.webhooks) read the store itself.
    gone = [f"slug-{s}" for s in slugs] + ([f"hooks-{i}" for i in ids] if slugs else [])
    _pending.maybe = True
    transaction.on_commit(publication)  # outside a transaction: at once
    if gone:
        if transaction.get_connection().in_atomic_block:
            store().delete_many(gone)
        transaction.on_commit(lambda: store().delete_many(gone))


def results_token(series_id: int) -> str:
    """The token of what the series' finished games decide."""
    return stamp(series_id, kind="results").token

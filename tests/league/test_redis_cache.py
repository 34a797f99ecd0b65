"""``league.redis_cache.RedisCache`` (production's cache, CACHE_URL=redis://)
against a real Redis started here: every operation the project and its
libraries use answers as Django's own backend answers, on the same server,
and one client is built per pool, not one per operation.

Needs ``redis-server`` (Debian's package): skipped with the reason on a
machine without it, unless TENBOU_REQUIRE_REDIS=1 (.ci/run), where it runs."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.serve import redis_server

pytestmark = pytest.mark.skipif(
    not shutil.which("redis-server") and not os.environ.get("TENBOU_REQUIRE_REDIS"),
    reason="redis-server is not installed (apt-get install redis-server); .ci/run installs it",
)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


def _caches(url: str) -> tuple[Any, Any]:
    from django.core.cache.backends.redis import RedisCache as Djangos

    from league.redis_cache import RedisCache

    ours = RedisCache(url, {"KEY_PREFIX": "ours"})
    theirs = Djangos(url, {"KEY_PREFIX": "theirs"})
    ours.clear()
    return ours, theirs


def _script(cache: Any) -> list[Any]:
    """The operations the project and its libraries use (the page cache, the
    stamps, the kept reads, django-ratelimit's counts), and what each answered."""
    out: list[Any] = []
    out.append(cache.get("missing", "default"))
    cache.set("a", {"parts": [1, 2.5, "x", None]}, 30)
    out.append(cache.get("a"))
    out.append(cache.add("a", "other", 30))
    out.append(cache.add("b", "new", 30))
    cache.set_many({"c": 1, "d": "two"}, 30)
    out.append(cache.get_many(["a", "b", "c", "d", "e"]))
    out.append(cache.incr("c"))
    out.append(cache.incr("c", 5))
    with pytest.raises(ValueError):
        cache.incr("missing")
    out.append(cache.touch("d", 60))
    out.append(cache.has_key("d"))
    out.append(cache.delete("d"))
    out.append(cache.delete("d"))
    cache.delete_many(["a", "b"])
    out.append(cache.get_many(["a", "b", "c"]))
    cache.set("gone", "soon", 0)  # a timeout of 0 stores nothing
    out.append(cache.get("gone"))
    return out


def test_it_answers_as_djangos_own_backend(redis_url: str) -> None:
    ours, theirs = _caches(redis_url)
    theirs.clear()
    assert _script(ours) == _script(theirs)
    # The same keys and serializer: what one writes under a prefix, the other reads.
    same = type(ours)(redis_url, {"KEY_PREFIX": "theirs"})
    theirs.set("from-django", {"k": 1}, 30)
    assert same.get("from-django") == {"k": 1}
    same.set("from-ours", [1, "x"], 30)
    assert theirs.get("from-ours") == [1, "x"]


def test_one_client_per_pool_not_per_operation(redis_url: str) -> None:
    from django.core.cache.backends.redis import RedisCache as Djangos

    ours, theirs = _caches(redis_url)
    assert ours._cache.get_client() is ours._cache.get_client(write=True) is ours._cache.get_client("k")
    # Django's own builds one per call: the cost this backend saves.
    assert theirs._cache.get_client() is not theirs._cache.get_client()
    assert isinstance(theirs, Djangos)


def test_the_settings_name_it_for_redis() -> None:
    import subprocess as sp
    import sys

    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.CACHES['default']['BACKEND'], settings.CACHES['versions']['BACKEND'])")
    env = {**os.environ, "CACHE_URL": "redis://127.0.0.1:6379/0", "DJANGO_SETTINGS_MODULE": "league.settings"}
    out = sp.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["league.redis_cache.RedisCache"] * 2

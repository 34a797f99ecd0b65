"""Django's Redis cache backend, with one Redis client per connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every cache operation, on the pool it keeps; redis-py 5 on copies the table
of some 170 response callbacks into each new client. On this project's
requests, which ask the cache once or twice (a page's stamp and its cached
body, a read kept for hand entry), that build cost more client CPU than the
operation's round trip (tests/benchmarks/bench_redis_ops.py). A client on a
pool is safe to share between threads (redis-py's own documentation), so the
client built for a pool is kept with it and every operation on that pool
uses it. Everything else is Django's: the pools, the serializer, the
operations, their options (``CACHES[...]["OPTIONS"]``).

The hook is Django's own: ``RedisCacheClient.get_client`` takes the key "so
that [...] custom cache client can be implemented" (its comment), and
``RedisCache`` builds its client from ``self._class``.
tests/league/test_redis_cache.py runs Django's operations on both against a
real Redis.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class HeldClientRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` whose ``get_client`` gives the client it built for
    the pool chosen (one per server), built on first use."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: dict[int, tuple[Any, Any]] = {}  # id(pool) -> (pool, its client)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        held = self._held.get(id(pool))
        if held is None or held[0] is not pool:
            held = self._held[id(pool)] = (pool, self._client(connection_pool=pool))
        return held[1]


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with a client held per pool."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = HeldClientRedisCacheClient

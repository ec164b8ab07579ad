"""Rate-limit counters that hold under concurrency, in whichever store the cache uses.

A limit of N per window is counted as a sliding window estimated from two fixed windows: the
current one's count plus the previous one's, weighted by how much of it the sliding window
still covers. A request is counted by one atomic step (Redis: a Lua script around ``INCR``;
PostgreSQL: one ``INSERT … ON CONFLICT DO UPDATE … RETURNING``; local memory: under the
cache's lock), and a refused request is taken back out, so that N parallel requests can never
all read the same old count: at most N are admitted in a window, plus a small slack when the
previous window's requests came in a burst at its end (the estimate spreads them evenly), never
more than N times the share of the window elapsed since it turned.

When the store cannot be reached, ``hit`` raises ``CounterUnavailable``: the throttles decide
what that means (accounts/throttles.py).
"""

from __future__ import annotations

import datetime as dt
import math
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache, caches
from django.db import DatabaseError, connections, transaction
from django.utils import timezone

COUNTERS_TABLE = "accounts_ratecounter"
REQUEST_ATTRIBUTE = "arlington_rate_limit"  # the tightest Window of a request, for its headers

# KEYS: this window's counter, the previous window's. ARGV: limit, weight of the previous
# window (0..1), the counter's life (ms). Returns {admitted (0/1), count after this request}.
HIT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local estimate = previous * tonumber(ARGV[2]) + count
if estimate > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return {0, math.ceil(estimate - 1)}
end
return {1, math.ceil(estimate)}
"""

_local_lock = threading.Lock()


class CounterUnavailable(Exception):
    """The store that keeps the counts (Redis, or the database) cannot be reached."""


@dataclass(frozen=True, slots=True)
class Window:
    """The outcome of one counted request: what the RateLimit-* headers say."""

    admitted: bool
    limit: int
    remaining: int
    reset: int  # seconds until the current fixed window turns


def _store() -> str:
    backend = str(caches.settings["default"]["BACKEND"])
    if backend.endswith("RedisCache"):
        return "redis"
    if backend.endswith("DatabaseCache"):
        return "database"
    return "local"


def hit(
    key: str, limit: int, duration: int, *, count: bool = True, now: float | None = None
) -> Window:
    """Count one request against ``key`` (``limit`` per ``duration`` seconds), atomically.

    With ``count=False`` only read where the count stands (and admit if under the limit).
    ``now`` is the clock's reading (the throttles pass their own timer's).
    """
    now = time.time() if now is None else now
    number = int(now // duration)
    weight = 1 - (now - number * duration) / duration
    current, previous = f"ratelimit:{key}:{number}", f"ratelimit:{key}:{number - 1}"
    reset = max(1, math.ceil((number + 1) * duration - now))
    store = _store()
    try:
        if store == "redis":
            admitted, estimate = _redis_hit(current, previous, limit, weight, duration, count)
        elif store == "database":
            admitted, estimate = _database_hit(current, previous, limit, weight, duration, count)
        else:
            admitted, estimate = _local_hit(current, previous, limit, weight, duration, count)
    except (DatabaseError, OSError, _redis_errors()) as error:
        raise CounterUnavailable(str(error)) from error
    return Window(admitted, limit, max(0, limit - estimate), reset)


def release(key: str, duration: int, *, now: float | None = None) -> None:
    """Take back one request counted against ``key`` in the current window (never below 0)."""
    name = f"ratelimit:{key}:{int((time.time() if now is None else now) // duration)}"
    store = _store()
    try:
        if store == "redis":
            _redis_client().eval(
                "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then "
                "return redis.call('DECR', KEYS[1]) end return 0",
                1,
                name,
            )
        elif store == "database":
            with connections["default"].cursor() as cursor:
                cursor.execute(
                    f"UPDATE {COUNTERS_TABLE} SET count = count - 1 WHERE key = %s AND count > 0",
                    [name],
                )
        else:
            with _local_lock:
                value = cache.get(name, 0)
                if value > 0:
                    cache.set(name, value - 1, 2 * duration)
    except (DatabaseError, OSError, _redis_errors()) as error:
        raise CounterUnavailable(str(error)) from error


def _redis_errors() -> type[Exception]:
    from redis.exceptions import RedisError

    return RedisError


def _redis_client() -> Any:
    return cache._cache.get_client(write=True)  # type: ignore[attr-defined]


def _redis_hit(
    current: str, previous: str, limit: int, weight: float, duration: int, count: bool
) -> tuple[bool, int]:
    client = _redis_client()
    if not count:
        found, before = client.mget(current, previous)
        estimate = math.ceil(int(before or 0) * weight + int(found or 0))
        return estimate < limit, estimate
    admitted, estimate = client.eval(
        HIT, 2, current, previous, limit, f"{weight:.6f}", 2 * duration * 1000
    )
    return bool(admitted), int(estimate)


def _database_hit(
    current: str, previous: str, limit: int, weight: float, duration: int, count: bool
) -> tuple[bool, int]:
    expires = timezone.now() + dt.timedelta(seconds=2 * duration)
    with transaction.atomic(using="default"), connections["default"].cursor() as cursor:
        if count:
            cursor.execute(
                f"INSERT INTO {COUNTERS_TABLE} (key, count, expires) VALUES (%s, 1, %s) "
                f"ON CONFLICT (key) DO UPDATE SET count = {COUNTERS_TABLE}.count + 1 "
                "RETURNING count",
                [current, expires],
            )
            (found,) = cursor.fetchone()
        else:
            cursor.execute(f"SELECT count FROM {COUNTERS_TABLE} WHERE key = %s", [current])
            row = cursor.fetchone()
            found = row[0] if row else 0
        cursor.execute(f"SELECT count FROM {COUNTERS_TABLE} WHERE key = %s", [previous])
        row = cursor.fetchone()
        estimate = math.ceil((row[0] if row else 0) * weight + found)
        if not count:
            return estimate < limit, estimate
        if estimate > limit:
            cursor.execute(
                f"UPDATE {COUNTERS_TABLE} SET count = count - 1 WHERE key = %s", [current]
            )
            return False, estimate - 1
        if random.random() < 0.01:  # now and then, forget the windows that have passed
            cursor.execute(f"DELETE FROM {COUNTERS_TABLE} WHERE expires < now()")
    return True, estimate


def _local_hit(
    current: str, previous: str, limit: int, weight: float, duration: int, count: bool
) -> tuple[bool, int]:
    with _local_lock:
        found = int(cache.get(current, 0)) + (1 if count else 0)
        estimate = math.ceil(int(cache.get(previous, 0)) * weight + found)
        if not count:
            return estimate < limit, estimate
        if estimate > limit:
            return False, estimate - 1
        cache.set(current, found, 2 * duration)
    return True, estimate

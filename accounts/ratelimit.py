"""Rate-limit counters that hold under concurrency, in whichever store the cache uses.

A limit of N per window is counted as a sliding window estimated from two fixed windows: the
current one's count plus the previous one's, weighted by how much of it the sliding window
still covers. A request is counted by one atomic step (Redis: a Lua script around ``INCR``;
PostgreSQL: a transaction that holds the key's advisory lock; local memory: under a lock of the
process), and a refused request is taken back out, so that N parallel requests can never all
read the same old count: at most N are admitted in a window, plus a small slack when the
previous window's requests came in a burst at its end (the estimate spreads them evenly), never
more than N times the share of the window elapsed since it turned.

The clock is read inside that atomic step (Redis: its ``TIME``), never before it: a request
that read the time just before a window turned, and reached the store only after another
request had already counted in the new window, would otherwise still count in the old one,
after the new window's request had read the old one's count as final, and a burst at the turn
of a window could get past the limit.

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

# KEYS: the counter's name without its window. ARGV: limit, the window (s), count (1) or only
# read (0). The window is chosen from Redis's own clock, inside the script. Returns {admitted
# (0/1), count after this request, the window's number, ms until it turns, the previous
# window's count, the current one's}.
HIT = """
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local duration, limit = tonumber(ARGV[2]), tonumber(ARGV[1])
local number = math.floor(now / duration)
local weight = 1 - (now - number * duration) / duration
local current = KEYS[1] .. ':' .. string.format('%d', number)
local previous = KEYS[1] .. ':' .. string.format('%d', number - 1)
local reset = math.ceil(((number + 1) * duration - now) * 1000)
local earlier = tonumber(redis.call('GET', previous) or '0')
local before = earlier * weight
if ARGV[3] == '0' then
  local found = tonumber(redis.call('GET', current) or '0')
  local estimate = math.ceil(before + found)
  return {estimate < limit and 1 or 0, estimate, number, reset, earlier, found}
end
local count = redis.call('INCR', current)
if count == 1 then redis.call('PEXPIRE', current, duration * 2000) end
local estimate = before + count
if estimate > limit then
  redis.call('DECR', current)
  return {0, math.ceil(estimate - 1), number, reset, earlier, count - 1}
end
return {1, math.ceil(estimate), number, reset, earlier, count}
"""

_local_lock = threading.Lock()

# admitted, the estimate after it, the window, s until it turns, the previous and current counts
Hit = tuple[bool, int, int, float, int, int]


class CounterUnavailable(Exception):
    """The store that keeps the counts (Redis, or the database) cannot be reached."""


@dataclass(frozen=True, slots=True)
class Window:
    """The outcome of one counted request: what the RateLimit-* headers say."""

    admitted: bool
    limit: int
    remaining: int
    reset: int  # seconds until the current fixed window turns
    number: int  # the fixed window it was counted in, for ``release``
    retry: int = 0  # when refused: seconds until one more request would be admitted


def clock() -> float:
    """The time the database and local-memory stores count by, read inside their atomic step
    (Redis reads its own)."""
    return time.time()


def _store() -> str:
    backend = str(caches.settings["default"]["BACKEND"])
    if backend.endswith("RedisCache"):
        return "redis"
    if backend.endswith("DatabaseCache"):
        return "database"
    return "local"


def hit(key: str, limit: int, duration: int, *, count: bool = True) -> Window:
    """Count one request against ``key`` (``limit`` per ``duration`` seconds), atomically.

    With ``count=False`` only read where the count stands (and admit if under the limit).
    """
    name = f"ratelimit:{key}"
    store = _store()
    try:
        if store == "redis":
            found = _redis_hit(name, limit, duration, count)
        elif store == "database":
            found = _database_hit(name, limit, duration, count)
        else:
            found = _local_hit(name, limit, duration, count)
    except (DatabaseError, OSError, _redis_errors()) as error:
        raise CounterUnavailable(str(error)) from error
    admitted, estimate, number, reset, previous, current = found
    retry = 0 if admitted else retry_after(limit, duration, previous, current, duration - reset)
    return Window(
        admitted, limit, max(0, limit - estimate), max(1, math.ceil(reset)), number, retry
    )


def retry_after(limit: int, duration: int, previous: int, current: int, elapsed: float) -> int:
    """Seconds until one more request would be admitted, if no other came meanwhile: the
    previous window's weight falls as time passes, and when the window turns its count becomes
    the previous one. ``elapsed`` is the time since the current window began. At least 1."""
    room = limit - 1  # one more request is admitted while the estimate stays within this
    if current <= room:
        if previous * (1 - elapsed / duration) <= room - current:
            return 1
        at = duration * (1 - (room - current) / previous)  # within this window
        return max(1, math.ceil(at - elapsed))
    # after the turn, this window's count is the previous one's, weighed down from 1
    then = duration * (1 - room / current) if current else 0.0
    return max(1, math.ceil(duration - elapsed + then))


def release(key: str, duration: int, number: int) -> None:
    """Take back one request counted against ``key`` in the fixed window ``number`` (the
    ``Window`` it got), never below 0: once that window has turned, its count is the previous
    one's, and taking one back still lowers the estimate."""
    name = f"ratelimit:{key}:{number}"
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


def _windows(name: str, duration: int, now: float) -> tuple[str, str, float, int, float]:
    """The current and previous windows' counters at ``now``: their names, the previous one's
    weight, the current one's number and the seconds until it turns."""
    number = int(now // duration)
    weight = 1 - (now - number * duration) / duration
    reset = (number + 1) * duration - now
    return f"{name}:{number}", f"{name}:{number - 1}", weight, number, reset


def _redis_errors() -> type[Exception]:
    from redis.exceptions import RedisError

    return RedisError


def _redis_client() -> Any:
    return cache._cache.get_client(write=True)  # type: ignore[attr-defined]


def _redis_hit(name: str, limit: int, duration: int, count: bool) -> Hit:
    admitted, estimate, number, reset, previous, current = _redis_client().eval(
        HIT, 1, name, limit, duration, "1" if count else "0"
    )
    return (
        bool(admitted),
        int(estimate),
        int(number),
        int(reset) / 1000,
        int(previous),
        int(current),
    )


def _database_hit(name: str, limit: int, duration: int, count: bool) -> Hit:
    connection = connections["default"]
    with transaction.atomic(using="default"), connection.cursor() as cursor:
        if count and connection.vendor == "postgresql":
            # Every count on this key waits for the one before to commit, and reads the clock
            # after it has (a read only needs none): SQLite's transactions already take its
            # write lock when they begin.
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('ratelimit:' || %s, 0))", [name]
            )
        current, previous, weight, number, reset = _windows(name, duration, clock())
        cursor.execute(f"SELECT count FROM {COUNTERS_TABLE} WHERE key = %s", [previous])
        row = cursor.fetchone()
        earlier = row[0] if row else 0
        if not count:
            cursor.execute(f"SELECT count FROM {COUNTERS_TABLE} WHERE key = %s", [current])
            row = cursor.fetchone()
            found = row[0] if row else 0
            estimate = math.ceil(earlier * weight + found)
            return estimate < limit, estimate, number, reset, earlier, found
        expires = timezone.now() + dt.timedelta(seconds=2 * duration)
        cursor.execute(
            f"INSERT INTO {COUNTERS_TABLE} (key, count, expires) VALUES (%s, 1, %s) "
            f"ON CONFLICT (key) DO UPDATE SET count = {COUNTERS_TABLE}.count + 1 "
            "RETURNING count",
            [current, expires],
        )
        (found,) = cursor.fetchone()
        estimate = math.ceil(earlier * weight + found)
        if estimate > limit:
            cursor.execute(
                f"UPDATE {COUNTERS_TABLE} SET count = count - 1 WHERE key = %s", [current]
            )
            return False, estimate - 1, number, reset, earlier, found - 1
        if random.random() < 0.01:  # now and then, forget the windows that have passed
            cursor.execute(f"DELETE FROM {COUNTERS_TABLE} WHERE expires < now()")
    return True, estimate, number, reset, earlier, found


def _local_hit(name: str, limit: int, duration: int, count: bool) -> Hit:
    with _local_lock:
        current, previous, weight, number, reset = _windows(name, duration, clock())
        earlier = int(cache.get(previous, 0))
        found = int(cache.get(current, 0)) + (1 if count else 0)
        estimate = math.ceil(earlier * weight + found)
        if not count:
            return estimate < limit, estimate, number, reset, earlier, found
        if estimate > limit:
            return False, estimate - 1, number, reset, earlier, found - 1
        cache.set(current, found, 2 * duration)
    return True, estimate, number, reset, earlier, found

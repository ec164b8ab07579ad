"""A request that reaches the count late, across the turn of a window, is still limited.

The counts live in the database (``CACHE_BACKEND=database``): each request is counted by a
transaction of its own, on a connection of its own, from threads that run at once. The clock is
faked, so that the window turns exactly between two requests.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from accounts import ratelimit
from tests import harness, locks

LIMIT, DURATION = 10, 60
TURN = 60.0 * 1_000_000  # the start of a window


class Clock:
    """The counters' clock. The thread named ``late`` reads its time, then stalls until
    ``go`` is set: a request slowed by a busy machine just after it read the time."""

    def __init__(self) -> None:
        self.now = TURN - 0.1  # the last tenth of a second of a window
        self.read, self.go = threading.Event(), threading.Event()

    def __call__(self) -> float:
        value = self.now
        if threading.current_thread().name.startswith("late"):
            self.read.set()
            assert self.go.wait(timeout=120), "the test never let the late request go on"
        return value


def counted(key: str) -> bool:
    try:
        return ratelimit.hit(key, LIMIT, DURATION).admitted
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_request_that_read_the_time_before_the_turn_cannot_pass_the_limit(settings, monkeypatch):
    """Nine requests counted at the end of a window; a tenth reads the time and stalls; the
    window turns and an eleventh comes. The eleventh must not read the old window's count as
    final while the tenth is still to be counted in it: the two would both be admitted, eleven
    within a fifth of a second against a limit of ten."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "arlington_cache",
        },
    }
    clock = Clock()
    monkeypatch.setattr(ratelimit, "clock", clock)
    key = "test_turn_of_a_window"
    assert [counted(key) for _ in range(9)] == [True] * 9

    with ThreadPoolExecutor(1, thread_name_prefix="late") as late_thread:
        late = late_thread.submit(counted, key)
        assert clock.read.wait(timeout=60), "the late request never read the time"
        clock.now = TURN + 0.1  # the window has turned
        with ThreadPoolExecutor(1, thread_name_prefix="next") as next_thread:
            following = next_thread.submit(counted, key)
            # Either the next request is answered at once, or it waits for the late one's lock.
            harness.wait_until(
                lambda: following.done() or locks.waiting_for_a_lock() > 0,
                what="the next request answered, or waiting for the late one",
            )
            clock.go.set()
            admitted = [late.result(timeout=60), following.result(timeout=60)]

    assert admitted == [True, False]


def test_retry_after_counts_the_sliding_window_not_the_fixed_one():
    """Ten requests at the end of a window: the refusal says 13 s (7 to the turn, then 6 for
    the old window's weight to fall enough), not the 7 s to the turn, after which the next
    request was refused again. One second into the new window it says 5."""
    assert ratelimit.retry_after(LIMIT, DURATION, previous=0, current=10, elapsed=53) == 13
    assert ratelimit.retry_after(LIMIT, DURATION, previous=10, current=0, elapsed=1) == 5
    assert ratelimit.retry_after(LIMIT, DURATION, previous=4, current=9, elapsed=30) == 30


def test_a_request_sent_after_retry_after_is_admitted_and_one_sooner_is_not(monkeypatch):
    """Local memory, the clock faked: waiting what Retry-After says is enough, and needed."""
    clock = Clock()
    clock.now = TURN - 7  # seven seconds before the window turns
    monkeypatch.setattr(ratelimit, "clock", clock)
    key = "test_retry_after"
    assert all(ratelimit.hit(key, LIMIT, DURATION).admitted for _ in range(LIMIT))
    refused = ratelimit.hit(key, LIMIT, DURATION)
    assert not refused.admitted and (refused.reset, refused.retry) == (7, 13)
    start = clock.now
    clock.now = start + refused.retry - 1
    assert not ratelimit.hit(key, LIMIT, DURATION).admitted
    clock.now = start + refused.retry
    assert ratelimit.hit(key, LIMIT, DURATION).admitted

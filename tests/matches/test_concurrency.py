"""Two scorekeepers at one table: parallel submissions on PostgreSQL, with real transactions.

Each thread has its own database connection; a barrier releases them together.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from matches.models import Hand, HandResult, Seat
from tests.matches.builders import went_out
from tests.matches.conftest import client_for, record, start_match

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def in_parallel(task: Callable[[int], Any], count: int = THREADS) -> list[Any]:
    """Run ``task(i)`` in ``count`` threads started together; return results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = task(i)
        except Exception as error:  # noqa: BLE001 - reported to the test below
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_runs_on_postgresql():
    assert connection.vendor == "postgresql"


def test_parallel_hands_get_consecutive_numbers_and_exact_totals(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])

    def submit(i: int) -> int:
        response = record(client_for(carol), match["id"], went_out(players[i % 3], players))
        return response.status_code

    statuses = in_parallel(submit)
    assert statuses == [201] * THREADS
    numbers = sorted(Hand.objects.filter(match_id=match["id"]).values_list("number", flat=True))
    assert numbers == list(range(1, THREADS + 1))
    for seat in Seat.objects.filter(match_id=match["id"]):
        nets = HandResult.objects.filter(hand__match_id=match["id"], player=seat.player)
        assert seat.total == sum(nets.values_list("net", flat=True))
    last = HandResult.objects.filter(hand__match_id=match["id"], hand__number=THREADS)
    assert {r.player_id: r.total for r in last} == {
        s.player_id: s.total for s in Seat.objects.filter(match_id=match["id"])
    }


def test_parallel_retries_with_one_key_record_exactly_one_hand(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = went_out(players[0], players)

    def submit(i: int) -> tuple[int, Any]:
        response = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="same-key")
        return response.status_code, response.json()

    answers = in_parallel(submit)
    assert [status for status, _ in answers] == [201] * THREADS
    assert all(answer == answers[0][1] for _, answer in answers)
    assert Hand.objects.filter(match_id=match["id"]).count() == 1

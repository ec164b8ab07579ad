"""When PostgreSQL cannot be reached: 503 in the envelope, nothing half-written, then recovery."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.models import Hand, HandResult, HandRevision, Seat
from tests.factories import client_for, record, start_match, went_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dead_database():
    """Point the connection at a port where nothing listens, then restore it.

    While the database is down, a pooled connection is waited for half a second, not the
    configured ten (DATABASE_POOL_TIMEOUT): the answer is the same 503, sooner.
    """
    real_port = connection.settings_dict["PORT"]
    pool = connection.settings_dict["OPTIONS"].get("pool")

    def kill() -> None:
        connection.close()
        connection.close_pool()  # the pool keeps the address it was opened with
        connection.settings_dict["PORT"] = "1"
        if pool:
            connection.settings_dict["OPTIONS"]["pool"] = {**pool, "timeout": 0.5}

    def restore() -> None:
        connection.close()
        connection.close_pool()
        connection.settings_dict["PORT"] = real_port
        if pool:
            connection.settings_dict["OPTIONS"]["pool"] = pool

    yield kill, restore
    restore()


def test_healthz_reports_the_database(api_client_plain, dead_database):
    kill, restore = dead_database
    assert api_client_plain.get("/healthz").json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
    }
    kill()
    down = api_client_plain.get("/healthz")
    assert down.status_code == 503
    assert down.json()["database"] == "unreachable"
    restore()
    assert api_client_plain.get("/healthz").status_code == 200


def test_a_hand_sent_while_the_database_is_down_gets_503_and_writes_nothing(
    carol, club, roster, dead_database
):
    kill, restore = dead_database
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    record(client_for(carol), match["id"], went_out(players[0], players))
    before = (
        Hand.objects.count(),
        HandResult.objects.count(),
        HandRevision.objects.count(),
        sorted(Seat.objects.values_list("total", flat=True)),
    )

    kill()
    client = client_for(carol)
    client.raise_request_exception = False  # a 5xx is also reported to the logs, as it should be
    response = record(client, match["id"], went_out(players[1], players))
    assert response.status_code == 503
    assert response.json()["type"] == "server_error"
    assert response.json()["errors"][0]["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0

    restore()
    after = (
        Hand.objects.count(),
        HandResult.objects.count(),
        HandRevision.objects.count(),
        sorted(Seat.objects.values_list("total", flat=True)),
    )
    assert after == before
    resumed = record(client_for(carol), match["id"], went_out(players[1], players))
    assert resumed.status_code == 201
    assert resumed.json()["number"] == 2


def test_with_the_database_cache_the_rulings_answer_while_the_database_is_down(
    settings, api_client_plain, dead_database
):
    kill, restore = dead_database
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "arlington_cache",
        }
    }
    meld = {"cards": ["5H", "6H", "7H"]}
    kill()
    try:
        api_client_plain.raise_request_exception = False
        answer = api_client_plain.post("/api/v1/rulings/meld/", meld, format="json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["valid"] is True
        assert "RateLimit-Limit" not in answer  # counted nowhere: the limits failed open
    finally:
        restore()

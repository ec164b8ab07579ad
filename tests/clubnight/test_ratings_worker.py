"""A ratings replay too long for the request that asked for it is left to the worker.

Short replays run once the hand has committed, before the request answers (test_ratings.py).
A correction of an old match in a big club would replay every match after it: above
``RATINGS_REPLAY_INLINE_MATCHES`` the request answers at once, the ratings say
``recomputing`` with their values from before, and the worker's run of the queued replay
brings them to what rating from scratch gives.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from clubnight.models import PendingReplay, Rating, RatingEntry
from clubnight.ratings import NEWCOMER, rate
from tests.clubnight.games import outright, play
from tests.clubnight.test_ratings import _stored_ratings, rows
from tests.factories import correct, full_packs, work

REPLAY = "clubnight.tasks.replay"


@pytest.fixture
def worker_in_the_test(monkeypatch):
    """The worker's check for stale connections would close the test's own connection."""
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    return work


def queued_replays() -> int:
    return DBTaskResult.objects.filter(task_path=REPLAY, status="READY").count()


def test_a_long_replay_is_queued_and_the_worker_runs_it(
    as_carol, as_victor, club, roster, settings, worker_in_the_test
):
    settings.RATINGS_REPLAY_INLINE_MATCHES = 2
    ann, ben, cleo = roster[:3]
    first = play(as_carol, club, [ann, ben], [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2)
    outright(as_carol, club, ben, cleo)
    outright(as_carol, club, cleo, ann)
    # each finish replays one match: done before its request answered
    assert queued_replays() == 0
    before = rows(as_victor, club)
    assert {name: row["matches"] for name, row in before.items()} == {"Ann": 2, "Ben": 2, "Cleo": 2}

    # Correcting the first match replays all three: more than two, so the worker's job.
    response = correct(as_carol, first, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    assert response.status_code == 200, response.json()
    assert queued_replays() == 1
    assert PendingReplay.objects.filter(club=club).count() == 1
    waiting = as_victor.get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert waiting["Ratings-Status"] == "recomputing"
    assert {row["name"]: row for row in waiting.json()} == before  # the ratings from before

    worker_in_the_test()

    assert queued_replays() == 0
    assert not PendingReplay.objects.exists()
    done = as_victor.get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert done["Ratings-Status"] == "current"
    ann_1, ben_1 = rate([NEWCOMER, NEWCOMER], [2, 1])  # Ben wins the corrected first match
    ben_2, cleo_2 = rate([ben_1, NEWCOMER], [1, 2])
    cleo_3, ann_3 = rate([cleo_2, ann_1], [1, 2])
    table = {row["name"]: row for row in done.json()}
    assert table["Ann"]["mu"] == pytest.approx(ann_3.mu, abs=1e-4)
    assert table["Ben"]["mu"] == pytest.approx(ben_2.mu, abs=1e-4)
    assert table["Cleo"]["mu"] == pytest.approx(cleo_3.mu, abs=1e-4)
    # and exactly what rating every match from scratch gives
    replayed = _stored_ratings()
    RatingEntry.objects.all().delete()
    Rating.objects.all().delete()
    call_command("rerate", stdout=io.StringIO())
    assert _stored_ratings() == replayed


def test_a_queued_replay_finds_nothing_left_once_another_took_its_changes(
    as_carol, as_victor, club, roster, settings, worker_in_the_test
):
    settings.RATINGS_REPLAY_INLINE_MATCHES = 0  # every replay to the worker
    ann, ben = roster[:2]
    play(as_carol, club, [ann, ben], [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2)
    play(as_carol, club, [ann, ben], [full_packs(ben.pk, ann.pk, second_holds="KC")] * 2)
    assert queued_replays() == 2
    assert PendingReplay.objects.filter(club=club).count() == 2

    worker_in_the_test()  # the first replay takes both changes; the second has nothing to do

    assert queued_replays() == 0
    assert not PendingReplay.objects.exists()
    assert RatingEntry.objects.filter(club=club).count() == 4
    done = as_victor.get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert done["Ratings-Status"] == "current"
    assert sorted(row["matches"] for row in done.json()) == [2, 2]

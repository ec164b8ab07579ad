"""The ratings replay runs once the hand has committed, and says so while it runs.

Another connection holds the club's replay lock, as a long replay would: the hand that
finishes a match commits, its replay waits, and meanwhile the ratings answer
``Ratings-Status: recomputing`` with the ratings from before, and once it has run the
standings show the new ratings. Committed rows, a real second connection and thread.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import connection, transaction

from clubnight import ratings
from clubnight.models import PendingReplay
from matches.models import Hand
from tests.factories import record, start_match, went_out

pytestmark = pytest.mark.django_db(transaction=True)


def _dsn() -> str:
    params = connection.get_connection_params()
    return psycopg.conninfo.make_conninfo(
        **{k: v for k, v in params.items() if k in {"dbname", "user", "host", "port", "password"}}
    )


def _wait_for(condition, what: str, seconds: float = 30) -> None:
    """Wait until ``condition()`` holds: each check is a query, not a guess at a duration."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def test_the_replay_waits_outside_the_hand_and_the_ratings_say_recomputing(
    as_carol, as_victor, club, roster
):
    ann, ben = roster[:2]
    match = start_match(as_carol, club, [ann, ben])["id"]
    hand = went_out(ann.pk, [ann.pk, ben.pk])
    for _ in range(2):
        assert record(as_carol, match, hand).status_code == 201
    url = f"/api/v1/clubs/{club.pk}/ratings/"
    standings = f"/api/v1/clubs/{club.pk}/standings/"
    assert as_victor.get(url)["Ratings-Status"] == "current"

    answers = {}
    with psycopg.connect(_dsn(), autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", [ratings.lock_id(club.pk, "arlington")])

        def finish() -> None:
            try:
                answers["finish"] = record(as_carol, match, hand)  # the third hand finishes it
            finally:
                connection.close()

        thread = threading.Thread(target=finish)
        thread.start()
        try:
            _wait_for(
                lambda: (
                    holder.execute(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                        " AND NOT granted AND database = (SELECT oid FROM pg_database"
                        " WHERE datname = current_database())"
                    ).fetchone()[0]
                    > 0
                ),
                "the replay waiting for the club's lock",
            )
            # the hand is committed while its replay waits: the replay is outside its transaction
            assert Hand.objects.filter(match_id=match).count() == 3
            assert PendingReplay.objects.filter(club=club).count() == 1
            waiting = as_victor.get(url)
            assert waiting["Ratings-Status"] == "recomputing"
            assert waiting.json() == []  # the ratings from before the match finished
            history = as_victor.get(f"/api/v1/players/{ann.pk}/ratings/")
            assert history["Ratings-Status"] == "recomputing"
            # the table is cached now, before the ratings are in it
            table = as_victor.get(standings).json()
            assert [row["rating"] for row in table] == [None, None]
        finally:
            holder.execute("SELECT pg_advisory_unlock_all()")
            thread.join(30)
    assert answers["finish"].status_code == 201
    done = as_victor.get(url)
    assert done["Ratings-Status"] == "current"
    assert [row["name"] for row in done.json()] == ["Ann", "Ben"]
    assert not PendingReplay.objects.exists()
    # the replay moved the standings on: the table cached while it waited is not served
    rated = {row["name"]: row["rating"] for row in done.json()}
    assert {row["name"]: row["rating"] for row in as_victor.get(standings).json()} == rated


def test_a_match_unfinished_while_the_replay_reads_is_left_out_whole(
    as_carol, as_victor, club, roster
):
    """A replay reads the finished matches and their seats; a void that unfinishes one of them
    commits while it reads. Another connection holds the seats' table from before the replay
    starts (as a void's writes would hold its rows) with the match already unfinished, not yet
    committed, and lets it go once the replay waits for it: the replay rates the matches as
    they stood at one moment, never a match read as finished with no seats to rate."""
    from clubnight.models import Rating
    from tests import locks
    from tests.clubnight.games import outright

    ann, ben, cleo = roster[:3]
    first = outright(as_carol, club, ann, ben)
    second = outright(as_carol, club, cleo, ben)
    PendingReplay.objects.create(club=club, ruleset="arlington", match_id=first)
    failures: list[BaseException] = []

    def replay() -> None:
        try:
            with transaction.atomic():
                ratings.replay_club(club_id=club.pk, ruleset="arlington")
        except BaseException as failure:  # noqa: BLE001  (said by the test)
            failures.append(failure)
        finally:
            connection.close()

    with psycopg.connect(_dsn()) as voider:  # one transaction, committed below
        voider.execute("LOCK TABLE matches_seat IN ACCESS EXCLUSIVE MODE")
        voider.execute(
            "UPDATE matches_match SET status = 'in_progress', finished_at = NULL WHERE id = %s",
            [second],
        )
        thread = threading.Thread(target=replay, name="replay")
        thread.start()
        locks.finished_or_waiting(thread)
        voider.commit()
    thread.join(30)
    assert not thread.is_alive()
    assert failures == []
    assert not PendingReplay.objects.exists()
    # the second match is left out: Ann and Ben are rated by the first alone, Cleo not at all
    kept = {r.player_id: (r.mu, r.matches) for r in Rating.objects.filter(club=club)}
    with transaction.atomic():
        ratings.rebuild(club_id=club.pk, ruleset="arlington")
    assert kept == {r.player_id: (r.mu, r.matches) for r in Rating.objects.filter(club=club)}
    assert set(kept) == {ann.pk, ben.pk}

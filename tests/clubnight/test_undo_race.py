"""Undoing a round while a scorekeeper records its first hand: real concurrent connections on
PostgreSQL. Whichever takes the match's lock first wins; the other is refused cleanly."""

from __future__ import annotations

import csv
import io
import threading

import psycopg
import pytest
from django.db import connection, connections

from clubnight import tournaments
from clubnight.models import Round
from matches.models import Hand, Match
from tests import locks
from tests.factories import client_for, went_out

pytestmark = pytest.mark.django_db(transaction=True)


def run(task, results, key):
    def body():
        try:
            results[key] = task()
        finally:
            connections.close_all()

    thread = threading.Thread(target=body)
    thread.start()
    return thread


def queued_behind_a_match(match_id: int, tasks: dict, first: str) -> dict[str, int]:
    """Run the two ``tasks`` while another connection holds the match's row lock: ``first``
    queues behind it, then the other behind ``first``; the lock is released and each task's
    result kept under its name, in the order they were queued."""
    results: dict[str, int] = {}
    second = next(name for name in tasks if name != first)
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=False) as holder:  # holds the match's row lock
        holder.execute("SELECT 1 FROM matches_match WHERE id = %s FOR UPDATE", [match_id])
        threads = [run(tasks[first], results, first)]
        locks.until_waiting(1)  # the first is queued behind the lock
        threads.append(run(tasks[second], results, second))
        locks.until_waiting(2)  # and the second behind it
        holder.rollback()  # release: the first in the queue goes first
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def drawn(carol, club, roster):
    night = tournaments.tournament_create(
        club=club, name="Race night", players=[p.pk for p in roster[:3]], user=carol
    )
    round_ = tournaments.round_draw(tournament=night, user=carol)
    match = round_.tables.get().match
    return night, match, list(match.seats.order_by("position").values_list("player", flat=True))


@pytest.mark.parametrize("first", ["undo", "hand"])
def test_an_undo_and_a_first_hand_at_once_one_wins_cleanly(carol, drawn, first):
    night, match, seated = drawn
    url = f"/api/v1/tournaments/{night.pk}/rounds/1/"
    tasks = {
        "undo": lambda: client_for(carol).delete(url).status_code,
        "hand": lambda: (
            client_for(carol)
            .post(f"/api/v1/matches/{match.pk}/hands/", went_out(seated[0], seated), format="json")
            .status_code
        ),
    }
    results = queued_behind_a_match(match.pk, tasks, first)
    if first == "undo":
        assert results == {"undo": 204, "hand": 404}
        assert not Match.objects.filter(pk=match.pk).exists()
        assert not Round.objects.filter(tournament=night).exists()
    else:
        assert results == {"hand": 201, "undo": 409}
        assert Hand.objects.filter(match=match).count() == 1
        assert Round.objects.filter(tournament=night).count() == 1


def test_the_leaderboard_csv_keeps_its_columns_when_a_round_is_undone_meanwhile(carol, drawn):
    """The download read the night's rounds twice, for its header and for its rows; a round
    undone between the two reads gave them different lengths, and the answer was a 500. The
    undo is made, and committed, as the download reads the rounds the first time."""
    night, match, seated = drawn
    undone: dict[str, int] = {}

    def undo_after_the_first_read(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if '"clubnight_round"."number"' in sql and not undone:
            url = f"/api/v1/tournaments/{night.pk}/rounds/1/"
            run(lambda: client_for(carol).delete(url).status_code, undone, "undo").join(60)
        return result

    with connection.execute_wrapper(undo_after_the_first_read):
        response = client_for(carol).get(f"/api/v1/tournaments/{night.pk}/leaderboard/csv/")
    assert undone == {"undo": 204}
    assert response.status_code == 200, response.content
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header, lines = rows[0], rows[1:]
    assert "round_1" in header and len(lines) == len(seated)
    assert all(len(line) == len(header) for line in lines)


def test_a_public_link_to_a_table_whose_round_is_undone_meanwhile_is_made_or_refused(
    alice, carol, club, roster
):
    """The owner makes a public link to a table's match just as the director undoes the round:
    the undo is sent the moment the link's request has read the match. Either the undo waits
    and deletes the link with the match, or the link is refused; never a link to a match
    deleted under it (an error at commit, a 500)."""
    from clubnight.models import PublicLink

    night = tournaments.tournament_create(
        club=club, name="Race night", players=[p.pk for p in roster[:3]], user=carol
    )
    match = tournaments.round_draw(tournament=night, user=carol).tables.get().match
    undone: dict = {}

    def undo_once_the_match_is_read(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if 'FROM "matches_match"' in sql and "INSERT" not in sql and not undone:
            url = f"/api/v1/tournaments/{night.pk}/rounds/1/"
            undone["thread"] = run(
                lambda: client_for(carol).delete(url).status_code, undone, "undo"
            )
            locks.finished_or_waiting(undone["thread"])  # done, or waiting for the link's lock
        return result

    body = {"scope": "match", "match": match.pk}
    with connection.execute_wrapper(undo_once_the_match_is_read):
        made = client_for(alice).post(f"/api/v1/clubs/{club.pk}/public-links/", body, format="json")
    undone.pop("thread").join(60)
    assert undone == {"undo": 204}
    assert made.status_code == 201
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not PublicLink.objects.filter(club=club).exists()  # deleted with its match

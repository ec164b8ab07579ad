"""A leaderboard, board or standings table read while a hand commits counts it everywhere or
nowhere: its statements read one snapshot.

The read is stopped between two of its statements (before the one whose SQL the test names);
a hand is recorded and committed meanwhile; then the read goes on. PostgreSQL, real
transactions, the read in a thread of its own.
"""

from __future__ import annotations

from typing import Any

import pytest

from clubnight import tournaments
from matches.models import Club, SecondEntry
from tests import locks
from tests.factories import client_for, start_match, went_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(carol, club, roster) -> tuple[int, int, list[int]]:
    """A night of one table of three, its first hand recorded: the night, the match, the
    seated players in seat order."""
    night = tournaments.tournament_create(
        club=club, name="Friday", players=[p.pk for p in roster[:3]], user=carol
    )
    match = tournaments.round_draw(tournament=night, user=carol, seed=1).tables.get().match
    seated = list(match.seats.order_by("position").values_list("player_id", flat=True))
    record(carol, match.pk, seated)
    return night.pk, match.pk, seated


def record(user, match: int, seated: list[int]) -> None:
    body = went_out(seated[0], seated)
    response = client_for(user).post(f"/api/v1/matches/{match}/hands/", body, format="json")
    assert response.status_code == 201, response.json()


def read_while_a_hand_commits(url: str, marker: str, user, recorder, match, seated) -> Any:
    """GET ``url`` as ``user``, stopped before its statement containing ``marker`` while
    ``recorder`` records the next hand of ``match``: the answer's body."""
    results: dict[str, Any] = {}
    thread, release = locks.paused_before(
        marker, "read", lambda: client_for(user).get(url), results
    )
    try:
        assert thread.is_alive()  # stopped between two of its statements
        record(recorder, match, seated)
    finally:
        release.set()
    thread.join(60)
    assert results["read"].status_code == 200
    return results["read"].json()


def test_a_leaderboard_read_as_a_hand_commits_agrees_with_its_round_column(victor, carol, table):
    night, match, seated = table
    rows = read_while_a_hand_commits(
        f"/api/v1/tournaments/{night}/leaderboard/", "SUM(", victor, carol, match, seated
    )
    # one round: each player's points are their total in it
    assert [(row["points"], row["rounds"]) for row in rows] == [
        (row["points"], [row["points"]]) for row in rows
    ]


def test_the_board_read_as_a_hand_commits_shows_the_same_totals_at_the_table_and_on_the_leaderboard(
    victor, carol, table
):
    night, match, seated = table
    board = read_while_a_hand_commits(
        f"/api/v1/tournaments/{night}/board/", "SUM(", victor, carol, match, seated
    )
    at_the_table = {seat["player"]: seat["total"] for seat in board["round"]["tables"][0]["seats"]}
    on_the_leaderboard = {row["player"]: row["points"] for row in board["leaderboard"]}
    assert on_the_leaderboard == at_the_table


def test_standings_read_as_a_match_finishes_never_count_more_unconfirmed_than_played(
    victor, carol, club, roster
):
    """A club that asks for a second entry: one match finished, nobody having confirmed its
    hands; another one hand from its finish, which is recorded while the table is read."""
    Club.objects.filter(pk=club.pk).update(second_entry=SecondEntry.REQUIRED)
    seated = [p.pk for p in roster[:3]]
    finished, finishing = (start_match(client_for(carol), club, roster[:3])["id"] for _ in "ab")
    for _ in range(3):
        record(carol, finished, seated)
    for _ in range(2):
        record(carol, finishing, seated)

    rows = read_while_a_hand_commits(
        f"/api/v1/clubs/{club.pk}/standings/",
        "matches_handconfirmation",
        victor,
        carol,
        finishing,
        seated,
    )

    rows = rows["results"] if isinstance(rows, dict) else rows
    assert [(row["matches_played"], row["unconfirmed_matches"]) for row in rows] == [
        (row["matches_played"], row["matches_played"]) for row in rows
    ]

"""Drawing a round while a correction reopens a finished table of an earlier round: real
concurrent connections on PostgreSQL. The draw locks the night's matches, so whichever takes
round 1's match first decides: a correction first holds the draw back (409), a draw first
stands, and the correction after it reopens the table as any later correction would."""

from __future__ import annotations

import pytest

from clubnight import tournaments
from clubnight.models import Round
from matches.models import Match, MatchStatus
from tests.clubnight.test_undo_race import queued_behind_a_match
from tests.factories import client_for, correct, record, went_out

pytestmark = pytest.mark.django_db(transaction=True)


def finish(client, match: Match, seated: list[int]) -> None:
    """Three hands the first seat goes out in: 1,020 points, the table is finished."""
    for _ in range(3):
        assert record(client, match.pk, went_out(seated[0], seated)).status_code == 201


@pytest.fixture
def second_round_played(carol, club, roster):
    """A night of two players: round 1 finished, round 2 drawn and finished."""
    night = tournaments.tournament_create(
        club=club, name="Race night", players=[p.pk for p in roster[:2]], user=carol
    )
    client = client_for(carol)
    first = None
    for _ in range(2):
        match = tournaments.round_draw(tournament=night, user=carol).tables.get().match
        seated = list(match.seats.order_by("position").values_list("player", flat=True))
        finish(client, match, seated)
        first = first or (match, seated)
    return night, *first


@pytest.mark.parametrize("first", ["correction", "draw"])
def test_a_draw_and_a_correction_reopening_round_1_at_once(carol, second_round_played, first):
    night, match, seated = second_round_played
    tasks = {
        "correction": lambda: (
            correct(client_for(carol), match.pk, 3, went_out(seated[1], seated)).status_code
        ),
        "draw": lambda: (
            (
                client_for(carol).post(f"/api/v1/tournaments/{night.pk}/rounds/", {}, format="json")
            ).status_code
        ),
    }
    results = queued_behind_a_match(match.pk, tasks, first)  # round 1's match held
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS  # the correction reopened it either way
    if first == "correction":
        assert results == {"correction": 200, "draw": 409}
        assert Round.objects.filter(tournament=night).count() == 2
    else:
        assert results == {"draw": 201, "correction": 200}
        assert Round.objects.filter(tournament=night).count() == 3

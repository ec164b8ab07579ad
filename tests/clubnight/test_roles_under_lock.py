"""A director demoted or removed while their change to a night waits is refused.

The change passes the role check, then queues for the night (another director's change holds
it), or is paused just before it reads the role again; the owner demotes the director to
viewer, or removes them, meanwhile. The change, reading the role again, is refused (403) and
nothing is written. PostgreSQL, real transactions, one thread per request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import connection

from clubnight import tournaments
from clubnight.models import Entrant, Round, Tournament
from matches.models import Match
from tests import locks
from tests.factories import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def owners_change(alice, club, requester, change: str) -> int:
    members = f"/api/v1/clubs/{club.pk}/members/"
    if change == "demote":
        body = {"user": requester.username, "role": "viewer"}
        return client_for(alice).post(members, body, format="json").status_code
    return client_for(alice).delete(f"{members}{requester.username}/").status_code


def written(club) -> tuple[Any, ...]:
    """Everything the changes below can write."""
    return (
        list(Tournament.objects.filter(club=club).values_list("pk", flat=True)),
        list(Round.objects.filter(tournament__club=club).values_list("pk", flat=True)),
        sorted(Entrant.objects.filter(tournament__club=club).values_list("player", "withdrawn")),
        Match.objects.filter(club=club).count(),
    )


@pytest.fixture
def night(carol, club, roster) -> Tournament:
    return tournaments.tournament_create(
        club=club, name="Friday", players=[p.pk for p in roster[:4]], user=carol
    )


def _draw(night: Tournament, roster, user) -> int:
    url = f"/api/v1/tournaments/{night.pk}/rounds/"
    return client_for(user).post(url, {"seed": 1}, format="json").status_code


def _undo(night: Tournament, roster, user) -> int:
    return client_for(user).delete(f"/api/v1/tournaments/{night.pk}/rounds/1/").status_code


def _late_arrival(night: Tournament, roster, user) -> int:
    url = f"/api/v1/tournaments/{night.pk}/entrants/"
    return client_for(user).post(url, {"player": roster[4].pk}, format="json").status_code


def _withdraw(night: Tournament, roster, user) -> int:
    url = f"/api/v1/tournaments/{night.pk}/entrants/{roster[0].pk}/"
    return client_for(user).delete(url).status_code


def _drawn(night: Tournament, user) -> None:
    tournaments.round_draw(tournament=night, user=user, seed=1)


DIRECTORS_CHANGES: dict[str, tuple[Callable[..., None] | None, Callable[..., int]]] = {
    "draw a round": (None, _draw),
    "undo a round": (_drawn, _undo),
    "a late arrival": (None, _late_arrival),
    "withdraw an entrant": (None, _withdraw),
}


@pytest.mark.parametrize("change", ["demote", "remove"])
@pytest.mark.parametrize("name", list(DIRECTORS_CHANGES))
def test_a_director_demoted_or_removed_while_their_change_waits_for_the_night_is_refused(
    alice, carol, club, roster, night, name, change
):
    prepare, send = DIRECTORS_CHANGES[name]
    if prepare is not None:
        prepare(night, carol)
    before = written(club)
    results: dict[str, int] = {}
    params = connection.get_connection_params()
    with psycopg.connect(**params) as holder:
        # another director's change to the night is under way
        holder.execute("SELECT 1 FROM clubnight_tournament WHERE id = %s FOR UPDATE", [night.pk])
        request = locks.started("change", lambda: send(night, roster, carol), results)
        locks.until_waiting(1)  # the director's change queues for the night
        assert owners_change(alice, club, carol, change) == (200 if change == "demote" else 204)
        holder.rollback()
    request.join(60)

    assert (results["change"], written(club)) == (403, before)


CREATIONS = {
    "a club night": lambda club, roster: (
        "/api/v1/tournaments/",
        {"club": club.pk, "name": "Saturday", "players": [p.pk for p in roster[:4]]},
    ),
    "a match": lambda club, roster: (
        "/api/v1/matches/",
        {"club": club.pk, "players": [p.pk for p in roster[:3]]},
    ),
}


@pytest.mark.parametrize("change", ["demote", "remove"])
@pytest.mark.parametrize("name", list(CREATIONS))
def test_a_scorekeeper_demoted_or_removed_just_before_making_a_night_or_match_is_refused(
    alice, carol, club, roster, name, change
):
    url, body = CREATIONS[name](club, roster)
    before = written(club)
    results: dict[str, int] = {}

    thread, release = locks.paused_before(  # just before the role is read again
        "LEFT JOIN matches_membership ms",
        "create",
        lambda: client_for(carol).post(url, body, format="json").status_code,
        results,
    )
    try:
        assert owners_change(alice, club, carol, change) == (200 if change == "demote" else 204)
    finally:
        release.set()
    thread.join(60)

    assert (results["create"], written(club)) == (403, before)

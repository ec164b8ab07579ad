"""Every endpoint has a query budget, and no list costs more queries for more rows.

The operations are tests/matches/endpoints.py's tables plus creating a club, the rulings and the
token exchange. Each budget is the count measured when it was set, so a new query anywhere
fails here and has to be argued for. The clients log in with ``force_authenticate``: a request
with a token adds one query (the token and its user, in one join), a session two.

Every list (anything answering a page of ``results`` or a JSON array) is also called with 2 and
with 12 rows in it, all on one page (pages hold 50), and must cost the same either way: an N+1
shows up as 10 more queries. An endpoint that answers a list without a scaling case fails.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from matches.models import Membership, Player, Role, Season
from matches.services import clubs as club_services
from matches.services import matches as match_services
from tests.factories import (
    client_for,
    correct,
    make_user,
    record,
    start_match,
    went_out,
    whole_pack_out,
)
from tests.matches import endpoints
from tests.matches.endpoints import API, Endpoint, World

RULINGS = [
    Endpoint(
        "meld ruling",
        "post",
        lambda w: f"{API}/rulings/meld/",
        lambda w: {"cards": ["JS", "2D=QS", "KS"]},
    ),
    Endpoint(
        "hand ruling",
        "post",
        lambda w: f"{API}/rulings/hand/",
        lambda w: went_out("ann", ["ann", "bob", "cat"]),
    ),
    Endpoint(
        "discard ruling", "post", lambda w: f"{API}/rulings/discard/", lambda w: {"card": "QS"}
    ),
    Endpoint(
        "take-discards ruling",
        "post",
        lambda w: f"{API}/rulings/take-discards/",
        lambda w: {"top_card": "7H", "from_hand": ["7D", "2C=7S"]},
    ),
    Endpoint(
        "extend ruling",
        "post",
        lambda w: f"{API}/rulings/extend/",
        lambda w: {"meld": ["7H", "7D", "7C"], "add": ["7S"]},
    ),
]
TOKEN = Endpoint(
    "token",
    "post",
    lambda w: f"{API}/auth/token/",
    lambda w: {"username": "alice", "password": "alice-pw-1234"},
)
CREATE_CLUB = Endpoint(
    "create club", "post", lambda w: f"{API}/clubs/", lambda w: {"name": "Another club"}
)
PUBLIC = [*RULINGS, TOKEN]
SIGNED_IN = [*endpoints.ALL, CREATE_CLUB]

# Queries per request, as measured with the owner signed in (rulings and token: no login).
BUDGETS = {
    # reads
    "club detail": 3,
    "club members": 4,
    "player detail": 5,
    "season detail": 2,
    "match detail": 6,  # its unconfirmed hands, and its hands' changes for the ETag
    "hands list": 8,  # with each hand's confirmations
    "hand detail": 7,
    "hand revisions": 4,
    "hand draft": 3,  # access; the match and its seats in one statement; the parts
    # standings computed, not cached (the cache starts empty): access, the seats' figures, the
    # players' names and ratings; a cached table saves the last two
    "club standings": 3,
    "season standings": 3,
    "player matches": 4,
    # writes to an object of the club; a change reads its row under a lock in a transaction
    # of its own, which the test's transaction makes a savepoint (SAVEPOINT, RELEASE)
    "rename club": 6,
    "replace club": 6,
    # the requester's role is read again once the club's members are locked, and so is the
    # membership a removal removes; a removal first locks the players linked to the member
    "add member": 12,
    "remove member": 12,
    # saving a player also moves the club's standings stamp on: the tables show names; the
    # roster's names are read to compare a new name with them in any case and script, under the
    # club's lock (one statement), so that two players named alike at once wait for each other
    "rename player": 8,
    "replace player": 8,
    "rename season": 5,
    "replace season": 5,
    # access; match and seats locked, then read once the lock is held (a statement each, so that
    # the read sees every write committed before the lock: matches/locking.py); the hand, its
    # results, the seats, the match and the revision written in one statement each; then its
    # event (the outbox): its place in the club's feed and the event, one statement each, and a
    # read of the club's webhooks: +3 on every write below.
    "record hand": 13,
    # the drafts read apart from the lock, as above, and the corrector's role read under it
    "correct hand": 20,
    # the hand's confirmations go with it; its event reads whether the club asks for a second
    # entry (the match's marks, as its answer gives them); the role read under the lock
    "void hand": 20,
    # access; match and seats locked, then read; the part read, written, and the draft read
    # back: no event, no webhook (a draft is not a hand)
    "write draft ending": 8,
    "write draft player": 8,
    # creates
    # the roster's names too, as for a rename; in a transaction of its own (SAVEPOINT,
    # RELEASE), so that a login it links to is checked under the club's lock until it is written
    "create player": 10,  # the club locked to compare the name, as a rename
    "create season": 5,
    # its event's place in the club's feed, one statement more; the role read again first
    "create match": 15,
    "create club": 5,
    # lists
    "clubs": 3,
    "players": 2,
    "seasons": 2,
    "matches": 5,
    # public
    "meld ruling": 0,
    "hand ruling": 0,
    "discard ruling": 0,
    "take-discards ruling": 0,
    "extend ruling": 0,
    "token": 6,  # the per-account sign-in limit counts the account it finds (accounts/usernames.py)
}


def queries(call: Callable[[], Any]) -> tuple[int, Any]:
    """How many queries ``call`` ran, and what it answered."""
    with CaptureQueriesContext(connection) as captured:
        answer = call()
    return len(captured.captured_queries), answer


def test_every_endpoint_has_a_budget():
    names = [endpoint.name for endpoint in [*SIGNED_IN, *PUBLIC]]
    assert len(names) == len(set(names))
    assert set(names) == set(BUDGETS)


@pytest.mark.parametrize("endpoint", SIGNED_IN, ids=str)
def test_signed_in_endpoints_stay_within_their_budget(
    endpoint, alices_world, as_alice, bob, django_assert_max_num_queries
):
    with django_assert_max_num_queries(BUDGETS[endpoint.name]):
        response = endpoint.call(as_alice, alices_world)
    assert response.status_code < 300, (endpoint.name, response.status_code)


@pytest.mark.parametrize("endpoint", PUBLIC, ids=str)
def test_public_endpoints_stay_within_their_budget(
    endpoint, alices_world, api_client_plain, django_assert_max_num_queries
):
    with django_assert_max_num_queries(BUDGETS[endpoint.name]):
        response = endpoint.call(api_client_plain, alices_world)
    assert response.status_code == 200, (endpoint.name, response.status_code)


# --- lists: as many queries for 12 rows as for 2 ---------------------------------------------


def fresh_world(tag: str) -> tuple[World, APIClient]:
    """A new owner's club as in ``alices_world``: roster, season, a match with one hand."""
    owner = make_user(f"owner-{tag}")
    club = club_services.club_create(name=f"Club {tag}", user=owner)
    roster = [
        Player.objects.create(club=club, name=name) for name in ("Ann", "Ben", "Cleo", "Dev", "Eve")
    ]
    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2025, 3, 1))
    client = client_for(owner)
    seated = [p.pk for p in roster[:3]]
    match = start_match(client, club, roster[:3], season=season.pk)
    assert record(client, match["id"], went_out(seated[0], seated)).status_code == 201
    world = World(club=club, players=roster, season=season, match=match["id"], seated=seated)
    return world, client


def _many_clubs(world: World, client: APIClient, rows: int) -> str:
    for i in range(rows - 1):
        club_services.club_create(name=f"{world.club.name} {i}", user=world.club.created_by)
    return f"{API}/clubs/"


def _many_players(world: World, client: APIClient, rows: int) -> str:
    Player.objects.bulk_create(Player(club=world.club, name=f"Extra {i}") for i in range(rows))
    return f"{API}/players/?name=extra"


def _many_seasons(world: World, client: APIClient, rows: int) -> str:
    Season.objects.bulk_create(
        Season(club=world.club, name=f"Season {i}", starts_on=dt.date(2000 + i, 1, 1))
        for i in range(rows - 1)
    )
    return f"{API}/seasons/"


def _many_matches(world: World, client: APIClient, rows: int) -> str:
    for i in range(rows - 1):  # two to four players, so that seats vary too
        seated = world.players[i % 2 : i % 2 + 2 + i % 3]
        match_services.match_create(
            club=world.club, players=[p.pk for p in seated], user=world.club.created_by
        )
    return f"{API}/matches/"


def _many_hands(world: World, client: APIClient, rows: int) -> str:
    for i in range(1, rows):  # the winner rotates: 840 each after 12 hands, still in progress
        body = went_out(world.seated[i % 3], world.seated)
        assert record(client, world.match, body).status_code == 201
    return f"{API}/matches/{world.match}/hands/"


def _many_revisions(world: World, client: APIClient, rows: int) -> str:
    url = f"{API}/matches/{world.match}/hands/1/"
    for i in range(1, rows):
        body = {**went_out(world.seated[i % 3], world.seated), "reason": f"dispute {i}"}
        response = correct(client, world.match, 1, body)
        assert response.status_code == 200, response.json()
    return f"{url}revisions/"


def _many_members(world: World, client: APIClient, rows: int) -> str:
    Membership.objects.bulk_create(
        Membership(club=world.club, user=make_user(f"{world.club.pk}-member{i}"), role=Role.VIEWER)
        for i in range(rows - 1)
    )
    return f"{API}/clubs/{world.club.pk}/members/"


def _many_player_matches(world: World, client: APIClient, rows: int) -> str:
    for i in range(rows - 1):
        match_services.match_create(
            club=world.club,
            players=[world.player.pk, world.players[1 + i % 4].pk],
            user=world.club.created_by,
        )
    return f"{API}/players/{world.player.pk}/matches/"


def _finished_pairs(world: World, client: APIClient, rows: int) -> None:
    """Finished matches of the season in which ``rows`` new players took part."""
    extra = [Player.objects.create(club=world.club, name=f"Standing {i}") for i in range(rows)]
    for first, second in zip(extra[::2], extra[1::2], strict=True):
        match = start_match(client, world.club, [first, second], season=world.season.pk)
        for _ in range(2):  # 640 each time: finished after the second
            body = whole_pack_out(first.pk, second.pk)
            assert record(client, match["id"], body).status_code == 201


def _club_standings(world: World, client: APIClient, rows: int) -> str:
    _finished_pairs(world, client, rows)
    return f"{API}/clubs/{world.club.pk}/standings/"


def _season_standings(world: World, client: APIClient, rows: int) -> str:
    _finished_pairs(world, client, rows)
    return f"{API}/seasons/{world.season.pk}/standings/"


# list endpoint → puts ``rows`` rows in a fresh world's list and returns its URL
SCALING: dict[str, Callable[[World, APIClient, int], str]] = {
    "clubs": _many_clubs,
    "players": _many_players,
    "seasons": _many_seasons,
    "matches": _many_matches,
    "hands list": _many_hands,
    "hand revisions": _many_revisions,
    "club members": _many_members,
    "player matches": _many_player_matches,
    "club standings": _club_standings,
    "season standings": _season_standings,
}


def rows_of(body: Any) -> list[Any] | None:
    """The rows of a list answer (a page or a bare array); None for anything else."""
    if isinstance(body, list):
        return body
    if isinstance(body, dict) and {"count", "next", "previous", "results"} <= body.keys():
        rows: list[Any] = body["results"]
        return rows
    return None


@pytest.mark.parametrize("endpoint", [e for e in SIGNED_IN if e.method == "get"], ids=str)
def test_every_list_endpoint_has_a_scaling_case(endpoint, alices_world, as_alice):
    is_list = rows_of(endpoint.call(as_alice, alices_world).json()) is not None
    assert is_list == (endpoint.name in SCALING), endpoint.name


def list_queries(name: str, rows: int) -> int:
    """Queries of one call to the list ``name`` holding ``rows`` rows, all on its first page."""
    world, client = fresh_world(f"{name} {rows}")
    url = SCALING[name](world, client, rows)
    url += ("&" if "?" in url else "?") + "page=1"
    number, response = queries(lambda: client.get(url))
    assert response.status_code == 200, response.json()
    assert len(rows_of(response.json())) == rows
    return number


@pytest.mark.parametrize("name", list(SCALING))
def test_a_list_costs_no_more_queries_for_more_rows(name, db, _fast_passwords):
    few, many = list_queries(name, 2), list_queries(name, 12)
    print(f"{name}: {few} queries for 2 rows, {many} for 12")
    assert few <= BUDGETS[name]
    assert many == few

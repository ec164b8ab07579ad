"""Roles inside a club: viewers read; scorekeepers also score and keep the roster; owners manage.

Alice owns the club, Carol keeps score, Victor watches.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.factories import client_for, make_user, record, shared_rows, went_out
from tests.matches import endpoints
from tests.matches.conftest import make_club, make_roster, make_world
from tests.matches.endpoints import Endpoint, World, snapshot

ROLES = ["alice", "carol", "victor"]  # owner, scorekeeper, viewer
ROLE_NAMES = {"carol": "scorekeeper", "victor": "viewer"}

# What each role gets from each write: (owner, scorekeeper, viewer).
EXPECTED = {
    "rename club": (200, 403, 403),
    "replace club": (200, 403, 403),
    "add member": (202, 403, 403),  # an invitation, until bob accepts
    "remove member": (204, 403, 403),
    "rename player": (200, 200, 403),
    "replace player": (200, 200, 403),
    "create player": (201, 201, 403),
    "rename season": (200, 403, 403),
    "replace season": (200, 403, 403),
    "create season": (201, 403, 403),
    "create match": (201, 201, 403),
    "record hand": (201, 201, 403),
    "correct hand": (200, 200, 403),
    "void hand": (204, 204, 403),
    "write draft ending": (200, 200, 403),
    "write draft player": (200, 200, 403),
}
WRITES = endpoints.OBJECT_WRITES + endpoints.CREATES


def test_the_table_covers_every_write():
    assert set(EXPECTED) == {endpoint.name for endpoint in WRITES}


@pytest.fixture(scope="module")
def _shared(django_db_setup, django_db_blocker) -> Iterator[tuple[dict, World]]:
    """Alice's world and its four users, built once for the module; each test's writes are
    rolled back to it."""
    with shared_rows(django_db_blocker):
        with django_db_blocker.unblock():
            users = {name: make_user(name) for name in ("alice", "bob", "carol", "victor")}
            club = make_club(users["alice"], users["carol"], users["victor"])
            world = make_world(club, make_roster(club), client_for(users["carol"]))
        yield users, world


@pytest.fixture
def alice(_shared, db):
    return _shared[0]["alice"]


@pytest.fixture
def bob(_shared, db):
    return _shared[0]["bob"]


@pytest.fixture
def carol(_shared, db):
    return _shared[0]["carol"]


@pytest.fixture
def victor(_shared, db):
    return _shared[0]["victor"]


@pytest.fixture
def alices_world(_shared, db) -> World:
    return _shared[1]


@pytest.fixture
def clients(as_alice, as_carol, as_victor):
    return {"alice": as_alice, "carol": as_carol, "victor": as_victor}


@pytest.mark.parametrize("username", ROLES)
@pytest.mark.parametrize("endpoint", endpoints.READS + endpoints.LISTS, ids=str)
def test_every_member_reads_everything(endpoint: Endpoint, username, clients, alices_world):
    response = endpoint.call(clients[username], alices_world)
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("username", ROLES)
@pytest.mark.parametrize("endpoint", WRITES, ids=str)
def test_each_role_may_write_only_what_it_is_for(
    endpoint: Endpoint, username, clients, bob, alices_world
):
    expected = EXPECTED[endpoint.name][ROLES.index(username)]
    before = snapshot()
    response = endpoint.call(clients[username], alices_world)
    assert response.status_code == expected, response.content
    if expected == 403:
        assert response.json()["type"] == "client_error"
        assert [e["code"] for e in response.json()["errors"]] == ["permission_denied"]
        # the sentence says which roles may, and the requester's: never DRF's generic one
        detail = response.json()["errors"][0]["detail"]
        if endpoint.name == "write draft player":  # one's own part only: no part is victor's
            assert detail.startswith("Your login is no player's at this table"), detail
        else:
            assert detail.startswith("Only the club's"), detail
            assert detail.endswith(f"you are a {ROLE_NAMES[username]} in it."), detail
        assert snapshot() == before
    else:
        assert snapshot() != before


def test_a_viewer_promoted_to_scorekeeper_can_record(as_alice, as_victor, alices_world):
    body = went_out(alices_world.seated[2], alices_world.seated)
    assert record(as_victor, alices_world.match, body).status_code == 403
    promoted = as_alice.post(
        f"/api/v1/clubs/{alices_world.club.pk}/members/",
        {"user": "victor", "role": "scorekeeper"},
        format="json",
    )
    assert promoted.status_code == 200
    assert record(as_victor, alices_world.match, body).status_code == 201


def test_a_scorekeeper_demoted_to_viewer_can_no_longer_record(as_alice, as_carol, alices_world):
    demoted = as_alice.post(
        f"/api/v1/clubs/{alices_world.club.pk}/members/",
        {"user": "carol", "role": "viewer"},
        format="json",
    )
    assert demoted.status_code == 200
    body = went_out(alices_world.seated[2], alices_world.seated)
    assert record(as_carol, alices_world.match, body).status_code == 403
    assert as_carol.get(f"/api/v1/matches/{alices_world.match}/").status_code == 200


def test_a_viewer_is_refused_a_hand_before_it_is_read(as_victor, alices_world):
    before = snapshot()
    legal = went_out(alices_world.seated[2], alices_world.seated)
    for body in ({"ending": "no such ending"}, legal):
        response = record(as_victor, alices_world.match, body)
        assert response.status_code == 403
        assert [e["code"] for e in response.json()["errors"]] == ["permission_denied"]
    assert snapshot() == before

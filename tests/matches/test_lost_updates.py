"""Two changes to one club, player, season or membership at once: neither is lost.

PostgreSQL, real transactions, one thread (and connection) per request, released together by
a barrier, as in tests/matches/test_concurrency.py. Each race is run several times: before
changes were read under a row lock, a rename raced against linking a login lost the rename in
nearly every trial.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from functools import partial

import psycopg
import pytest
from django.db import connection, connections

from matches.models import Club, Invitation, Membership, Player, Role, Season
from matches.services import clubs as club_services
from tests import harness, locks
from tests.factories import client_for, make_user
from tests.matches.test_concurrency import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

TRIALS = 8


def patch(user, url: str, body: dict, **headers) -> int:
    return client_for(user).patch(url, body, format="json", **headers).status_code


def post(user, url: str, body: dict) -> int:
    return client_for(user).post(url, body, format="json").status_code


def race(*requests: Callable[[], int]) -> list[int]:
    """The statuses of the requests, sent at once, each from its own thread."""
    return in_parallel(lambda i: requests[i](), count=len(requests))


def test_a_rename_and_a_linked_login_at_once_both_land(alice, carol, club):
    for trial in range(TRIALS):
        player = Player.objects.create(club=club, name=f"Player {trial}")
        url = f"/api/v1/players/{player.pk}/"
        statuses = race(
            partial(patch, alice, url, {"name": f"Renamed {trial}"}),
            partial(patch, alice, url, {"user": "carol"}),
        )
        assert statuses == [200, 200]
        player.refresh_from_db()
        assert (player.name, player.user_id) == (f"Renamed {trial}", carol.pk), trial
        player.user = None  # a login is one player's: the next trial links it again
        player.save()


def test_a_seasons_start_and_end_set_at_once_both_land(alice, club):
    for trial in range(TRIALS):
        season = Season.objects.create(club=club, name=f"Season {trial}")
        url = f"/api/v1/seasons/{season.pk}/"
        statuses = race(
            partial(patch, alice, url, {"starts_on": "2026-03-01"}),
            partial(patch, alice, url, {"ends_on": "2026-05-31"}),
        )
        assert statuses == [200, 200]
        season.refresh_from_db()
        assert (season.starts_on, season.ends_on) == (dt.date(2026, 3, 1), dt.date(2026, 5, 31))


def test_a_start_and_an_end_that_cross_at_once_are_refused_one_with_400(alice, club):
    for trial in range(TRIALS):
        season = Season.objects.create(
            club=club,
            name=f"Season {trial}",
            starts_on=dt.date(2026, 3, 1),
            ends_on=dt.date(2026, 5, 31),
        )
        url = f"/api/v1/seasons/{season.pk}/"
        statuses = race(
            partial(patch, alice, url, {"starts_on": "2026-05-01"}),
            partial(patch, alice, url, {"ends_on": "2026-04-01"}),
        )
        assert sorted(statuses) == [200, 400]
        season.refresh_from_db()
        assert season.ends_on >= season.starts_on


def test_two_renames_of_a_club_with_one_etag_exactly_one_wins(alice, club):
    for trial in range(TRIALS):
        etag = client_for(alice).get(f"/api/v1/clubs/{club.pk}/")["ETag"]
        names = [f"North {trial}", f"South {trial}"]
        url = f"/api/v1/clubs/{club.pk}/"
        statuses = race(
            *(partial(patch, alice, url, {"name": name}, HTTP_IF_MATCH=etag) for name in names)
        )
        assert sorted(statuses) == [200, 412]
        winner = names[statuses.index(200)]
        assert Club.objects.get(pk=club.pk).name == winner


def test_two_owners_demoting_each_other_at_once_leave_the_club_an_owner(alice, club):
    for trial in range(TRIALS):
        dora = make_user(f"dora{trial}")
        Membership.objects.update_or_create(club=club, user=alice, defaults={"role": Role.OWNER})
        club_services.membership_set(club=club, user=dora, role=Role.OWNER)
        url = f"/api/v1/clubs/{club.pk}/members/"
        statuses = race(
            partial(post, alice, url, {"user": dora.username, "role": "viewer"}),
            partial(post, dora, url, {"user": "alice", "role": "viewer"}),
        )
        # The second is refused: as the last owner's demotion (400), or, if its requester was
        # demoted first, for want of the owner's role (403).
        assert sorted(statuses) in ([200, 400], [200, 403])
        assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1
        Membership.objects.filter(user=dora).delete()


def test_one_person_invited_twice_at_once_has_one_invitation(alice, club):
    for trial in range(TRIALS):
        newcomer = make_user(f"newcomer{trial}")
        body = {"user": newcomer.username, "role": "viewer"}
        url = f"/api/v1/clubs/{club.pk}/members/"
        statuses = race(partial(post, alice, url, body), partial(post, alice, url, body))
        assert statuses == [202, 202]
        assert not Membership.objects.filter(club=club, user=newcomer).exists()
        assert Invitation.objects.filter(club=club, invitee=newcomer).count() == 1


def wait_until_blocked(observer: psycopg.Connection) -> None:
    """Return once a session of the test database waits for a lock."""

    def blocked() -> bool:
        (waiting,) = observer.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        ).fetchone()
        return bool(waiting)

    harness.wait_until(blocked, what="the request waiting for the club's lock")


@pytest.mark.parametrize("change", ["add", "remove"])
def test_an_owner_demoted_while_their_change_waits_is_refused(alice, club, change):
    dora, newcomer = make_user("dora"), make_user("newcomer")
    club_services.membership_set(club=club, user=dora, role=Role.OWNER)
    club_services.membership_set(club=club, user=newcomer, role=Role.VIEWER)
    url = f"/api/v1/clubs/{club.pk}/members/"
    answer: dict[str, int] = {}

    def doras_change() -> None:
        try:
            if change == "add":
                body = {"user": "newcomer", "role": "owner"}
                answer["status"] = client_for(dora).post(url, body, format="json").status_code
            else:
                answer["status"] = client_for(dora).delete(f"{url}newcomer/").status_code
        finally:
            connections.close_all()

    params = connection.get_connection_params()
    with psycopg.connect(**params) as alices, psycopg.connect(**params, autocommit=True) as watch:
        # Alice's change to the members holds the club while Dora's request arrives.
        alices.execute("SELECT 1 FROM matches_club WHERE id = %s FOR UPDATE", [club.pk])
        worker = threading.Thread(target=doras_change)
        worker.start()
        wait_until_blocked(watch)
        alices.execute(
            "UPDATE matches_membership SET role = 'viewer' WHERE club_id = %s AND user_id = %s",
            [club.pk, dora.pk],
        )
        alices.commit()
        worker.join(timeout=30)
    assert answer["status"] == 403
    assert Membership.objects.get(club=club, user=newcomer).role == Role.VIEWER


def test_a_member_removed_while_a_role_change_waits_is_invited_not_brought_back(alice, club):
    """Dora changes Sam's role while Alice removes Sam. Dora's request found Sam a member, then
    waited for the club's lock; Alice's removal commits first. Sam must stay removed: the
    change invites him (202), as it would have had it come after the removal."""
    dora, sam = make_user("dora"), make_user("sam")
    club_services.membership_set(club=club, user=dora, role=Role.OWNER)
    club_services.membership_set(club=club, user=sam, role=Role.SCOREKEEPER)
    url = f"/api/v1/clubs/{club.pk}/members/"
    answer: dict[str, int] = {}

    def doras_change() -> None:
        try:
            body = {"user": "sam", "role": "owner"}
            answer["status"] = client_for(dora).post(url, body, format="json").status_code
        finally:
            connections.close_all()

    params = connection.get_connection_params()
    with psycopg.connect(**params) as alices, psycopg.connect(**params, autocommit=True) as watch:
        # Alice's removal holds the club while Dora's request arrives.
        alices.execute("SELECT 1 FROM matches_club WHERE id = %s FOR UPDATE", [club.pk])
        worker = threading.Thread(target=doras_change)
        worker.start()
        wait_until_blocked(watch)
        alices.execute(
            "DELETE FROM matches_membership WHERE club_id = %s AND user_id = %s", [club.pk, sam.pk]
        )
        alices.commit()
        worker.join(timeout=30)
    assert answer["status"] == 202
    assert not Membership.objects.filter(club=club, user=sam).exists()
    invited = Invitation.objects.get(club=club, invitee=sam, revoked_at__isnull=True)
    assert invited.role == Role.OWNER


@pytest.mark.parametrize("first,second", [("Straße", "STRASSE"), ("Ὀδυσσεύς", "ὈΔΥΣΣΕΎΣ")])
def test_two_players_named_alike_at_once_make_one_player(carol, club, first, second):
    """Two phones add "Straße" and "STRASSE" (one name, that the database's LOWER keeps apart):
    the second is sent the moment the first has read the roster. The second waits for the
    first and is refused (400 unique), or the first for the second: one player, never two."""
    from matches.models import name_key

    url = "/api/v1/players/"
    other: dict = {}

    def add_the_other_once_the_roster_is_read(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if 'SELECT "matches_player"."name"' in sql and not other:
            body = {"club": club.pk, "name": second}
            other["thread"] = threading.Thread(target=lambda: other.update(status=post_once(body)))
            other["thread"].start()
            locks.finished_or_waiting(other["thread"])  # done, or waiting for the first
        return result

    def post_once(body: dict) -> int:
        try:
            return post(carol, url, body)
        finally:
            connections.close_all()

    with connection.execute_wrapper(add_the_other_once_the_roster_is_read):
        status = post(carol, url, {"club": club.pk, "name": first})
    other.pop("thread").join(60)
    assert sorted([status, other["status"]]) == [201, 400]
    names = Player.objects.filter(club=club).values_list("name", flat=True)
    assert [n for n in names if name_key(n) == name_key(first)] in ([first], [second])

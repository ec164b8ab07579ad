"""Linking a player to a login while the club's members change: the link and what it checks
(the login is a member, and no other player) are decided under the club's lock, which a
member's removal and every other link wait for. Real transactions on PostgreSQL, each request in
a thread of its own, and a connection of the test's own holding a row to fix the order.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, connections

from matches.models import Membership, Player
from tests import locks
from tests.factories import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def send(request: Callable[[], Any], answers: dict[str, Any], name: str) -> threading.Thread:
    """Send ``request`` from a thread of its own; its status goes into ``answers[name]``."""

    def run() -> None:
        try:
            answers[name] = request().status_code
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def holding(sql: str, params: list[Any]) -> Iterator[None]:
    """A connection of the test's own runs ``sql`` (a row lock) and holds it for the block."""
    with psycopg.connect(**connection.get_connection_params(), autocommit=False) as holder:
        holder.execute(sql, params)
        yield
        holder.commit()


def ended(*threads: threading.Thread) -> None:
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), f"{thread.name} did not end within a minute"


def linked_to(user) -> list[str]:
    return sorted(Player.objects.filter(user=user).values_list("name", flat=True))


@pytest.mark.parametrize("second", ["link", "new player"])
def test_one_login_linked_to_two_players_at_once_is_refused_once(
    alice, club, roster, victor, second
):
    """Both requests found Victor linked to nobody before either was written: both answered
    200, and Victor was Ann and Ben at once (writing both players' parts of a hand). Both now
    read under the club's lock, so the second finds the first's link. The first waits to be
    written (the test holds Victor's row, which the link's write refers to)."""
    owner = client_for(alice)
    ann, ben = roster[:2]
    requests = {
        "link": lambda: owner.patch(f"/api/v1/players/{ben.pk}/", {"user": "victor"}, "json"),
        "new player": lambda: owner.post(
            "/api/v1/players/", {"club": club.pk, "name": "Fay", "user": "victor"}, "json"
        ),
    }
    answers: dict[str, Any] = {}
    with holding("SELECT 1 FROM auth_user WHERE id = %s FOR UPDATE", [victor.pk]):
        first = send(
            lambda: owner.patch(f"/api/v1/players/{ann.pk}/", {"user": "victor"}, "json"),
            answers,
            "first",
        )
        locks.until_waiting(1)  # checked, and waiting to be written
        other = send(requests[second], answers, "second")
        locks.until_waiting(2)
    ended(first, other)

    assert answers["first"] == 200
    assert answers["second"] == 400  # login_taken
    assert linked_to(victor) == ["Ann"]


def test_a_login_linked_as_its_member_is_removed_is_unlinked_with_the_rest(
    alice, club, roster, victor
):
    """The link found Victor a member; before it was written, the removal went through, found
    no player linked to Victor yet, and the link then made a non-member Ann (and Ann again if
    Victor ever came back). The removal now waits for the link, and unlinks it. The link is
    held in its own thread between its checks and its write."""
    owner = client_for(alice)
    ann = roster[0]
    checked, go = threading.Event(), threading.Event()

    def pause_before_writing(execute, sql, params, many, context):
        if sql.startswith('UPDATE "matches_player"') and not checked.is_set():
            checked.set()
            go.wait(60)
        return execute(sql, params, many, context)

    def link() -> Any:
        with connection.execute_wrapper(pause_before_writing):
            return owner.patch(f"/api/v1/players/{ann.pk}/", {"user": "victor"}, "json")

    answers: dict[str, Any] = {}
    linking = send(link, answers, "link")
    assert checked.wait(60)
    removal = send(
        lambda: owner.delete(f"/api/v1/clubs/{club.pk}/members/victor/"), answers, "removal"
    )
    locks.finished_or_waiting(removal)
    go.set()
    ended(linking, removal)

    assert answers == {"link": 200, "removal": 204}
    assert not Membership.objects.filter(club=club, user=victor).exists()
    assert linked_to(victor) == []


def test_unlinking_a_player_as_its_member_is_removed_does_not_deadlock(alice, club, roster, victor):
    """A change of link holds the player, then the club; the removal holds the club, then
    unlinks the member's players. Taken in those orders at once, each waited for the other and
    PostgreSQL failed one of them. The removal now holds the member's players first."""
    owner = client_for(alice)
    ann = roster[0]
    Player.objects.filter(pk=ann.pk).update(user=victor)
    answers: dict[str, Any] = {}
    with holding("SELECT 1 FROM matches_club WHERE id = %s FOR UPDATE", [club.pk]):
        removal = send(
            lambda: owner.delete(f"/api/v1/clubs/{club.pk}/members/victor/"), answers, "removal"
        )
        locks.until_waiting(1)  # the removal waits for the club
        unlink = send(
            lambda: owner.patch(f"/api/v1/players/{ann.pk}/", {"user": None}, "json"),
            answers,
            "unlink",
        )
        locks.until_waiting(2)  # and the unlink for the removal, or for the club
    ended(removal, unlink)

    assert answers == {"removal": 204, "unlink": 200}
    assert linked_to(victor) == []

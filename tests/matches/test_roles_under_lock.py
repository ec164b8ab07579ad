"""Every write of a match reads the requester's role again once the match is locked.

A request passes the role check, then queues for its match, held by another phone's write; the
owner demotes the requester to viewer, or removes them, meanwhile. Either the change commits
first and the request, reading the role again under the lock, is refused (403, nothing
written), or the change waits for the request: never a write by a viewer, or by someone no
longer a member, after the change. PostgreSQL, real transactions, one thread per request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from django.db import connection

from matches.models import Hand, HandConfirmation, HandDraftPart, LiveEvent, LiveHand
from tests import locks
from tests.factories import client_for, correct, start_match, went_out

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Table:
    """The match the race is about, its club, its seated players (Ann, Ben, Cleo) and its URL."""

    match: int
    club: int
    players: list[int]

    @property
    def url(self) -> str:
        return f"/api/v1/matches/{self.match}/"

    def live_tag(self, user) -> str:
        return client_for(user).get(f"{self.url}live/").headers["ETag"]


def written(table: Table) -> tuple[Any, ...]:
    """Everything the writes below can change, to tell whether one was made."""
    return (
        list(Hand.objects.filter(match_id=table.match).values_list("number", "version")),
        HandConfirmation.objects.filter(hand__match_id=table.match).count(),
        list(LiveHand.objects.filter(match_id=table.match).values_list("status", "version")),
        list(LiveEvent.objects.filter(live__match_id=table.match).values_list("id", "undone")),
        list(HandDraftPart.objects.filter(match_id=table.match).values_list("id", "version")),
    )


def record_hand(table: Table, user) -> None:
    ann = table.players[0]
    response = client_for(user).post(
        f"{table.url}hands/", went_out(ann, table.players), format="json"
    )
    assert response.status_code == 201, response.json()


def start_live(table: Table, user) -> None:
    response = client_for(user).post(f"{table.url}live/", {"turned_up": "7H"}, format="json")
    assert response.status_code == 201, response.json()


def draw(table: Table, user) -> None:
    ben = table.players[1]
    response = client_for(user).post(
        f"{table.url}live/events/",
        {"type": "draw", "player": ben},
        format="json",
        HTTP_IF_MATCH=table.live_tag(user),
    )
    assert response.status_code == 200, response.json()


def write_bens_part(table: Table, user) -> None:
    part = f"{table.url}hands/1/draft/players/{table.players[1]}/"
    body = {"melds": [], "hand": ["4H"], "version": 0}
    assert client_for(user).put(part, body, format="json").status_code == 200


@dataclass
class Write:
    """A write the requester sends, after ``prepare`` (made by Carol, a scorekeeper still)."""

    prepare: Callable[[Table, Any], None] | None
    send: Callable[[Table, Any], int]


def _record(table: Table, user) -> int:
    body = went_out(table.players[0], table.players)
    return client_for(user).post(f"{table.url}hands/", body, format="json").status_code


def _correct(table: Table, user) -> int:
    body = {**went_out(table.players[1], table.players), "reason": "Ben went out"}
    return correct(client_for(user), table.match, 1, body).status_code


def _void(table: Table, user) -> int:
    return client_for(user).delete(f"{table.url}hands/1/?reason=misdealt").status_code


def _live_start(table: Table, user) -> int:
    return (
        client_for(user).post(f"{table.url}live/", {"turned_up": "7H"}, format="json").status_code
    )


def _live_event(table: Table, user) -> int:
    tag = table.live_tag(user)
    body = {"type": "draw", "player": table.players[1]}
    client = client_for(user)
    return client.post(
        f"{table.url}live/events/", body, format="json", HTTP_IF_MATCH=tag
    ).status_code


def _live_undo(table: Table, user) -> int:
    tag = table.live_tag(user)
    return client_for(user).delete(f"{table.url}live/events/last/", HTTP_IF_MATCH=tag).status_code


def _live_abandon(table: Table, user) -> int:
    return client_for(user).delete(f"{table.url}live/").status_code


def _bens_part(table: Table, user) -> int:
    part = f"{table.url}hands/1/draft/players/{table.players[1]}/"
    body = {"melds": [], "hand": ["4H"], "version": 0}
    return client_for(user).put(part, body, format="json").status_code


def _ending(table: Table, user) -> int:
    body = {"ending": "went_out", "went_out": table.players[0], "version": 0}
    return (
        client_for(user).put(f"{table.url}hands/1/draft/ending/", body, format="json").status_code
    )


def _discard(table: Table, user) -> int:
    return client_for(user).delete(f"{table.url}hands/1/draft/").status_code


def _contest(table: Table, user) -> int:
    part = f"{table.url}hands/1/draft/players/{table.players[1]}/contest/"
    body = {"melds": [], "hand": ["5C"], "version": 1}
    return client_for(user).put(part, body, format="json").status_code


def _contest_drop(table: Table, user) -> int:
    return (
        client_for(user)
        .delete(f"{table.url}hands/1/draft/players/{table.players[1]}/contest/")
        .status_code
    )


def offer_a_contest(table: Table, user) -> None:
    write_bens_part(table, user)
    assert _contest(table, user) == 200


SCOREKEEPERS_WRITES = {
    "a hand": (Write(None, _record), 201),
    "correction": (Write(record_hand, _correct), 200),
    "void": (Write(record_hand, _void), 204),
    "live start": (Write(None, _live_start), 201),
    "live event": (Write(start_live, _live_event), 200),
    "live undo": (Write(lambda t, u: (start_live(t, u), draw(t, u)), _live_undo), 200),
    "live abandon": (Write(start_live, _live_abandon), 204),
    "another player's part": (Write(None, _bens_part), 200),
    "the ending": (Write(None, _ending), 200),
    "start the hand again": (Write(write_bens_part, _discard), 204),
    "another version of a part": (Write(write_bens_part, _contest), 200),
    "withdrawing that version": (Write(offer_a_contest, _contest_drop), 200),
}


def race(alice, requester, table: Table, write: Write, change: str) -> tuple[int, bool]:
    """The requester's write queued behind a holder of the match while the owner makes
    ``change`` to them; its status, and whether the change committed first."""
    results: dict[str, int] = {}

    def owners_change() -> int:
        members = f"/api/v1/clubs/{table.club}/members/"
        if change == "demote":
            body = {"user": requester.username, "role": "viewer"}
            return client_for(alice).post(members, body, format="json").status_code
        return client_for(alice).delete(f"{members}{requester.username}/").status_code

    params = connection.get_connection_params()
    with psycopg.connect(**params) as holder:
        # another phone's write of this match is under way
        holder.execute("SELECT 1 FROM matches_match WHERE id = %s FOR UPDATE", [table.match])
        request = locks.started("write", lambda: write.send(table, requester), results)
        locks.until_waiting(1)  # the write queues for the match
        owner = locks.started("change", owners_change, results)
        locks.finished_or_waiting(owner, waiting=2)
        changed_first = not owner.is_alive()
        holder.rollback()
    request.join(60)
    owner.join(60)
    assert results["change"] == (200 if change == "demote" else 204)
    return results["write"], changed_first


@pytest.fixture
def table(as_carol, club, roster) -> Table:
    match = start_match(as_carol, club, roster[:3])["id"]
    return Table(match, club.pk, [p.pk for p in roster[:3]])


@pytest.mark.parametrize("change", ["demote", "remove"])
@pytest.mark.parametrize("name", list(SCOREKEEPERS_WRITES))
def test_a_scorekeeper_demoted_or_removed_while_their_write_waits_is_refused(
    alice, carol, table, name, change
):
    write, accepted = SCOREKEEPERS_WRITES[name]
    if write.prepare is not None:
        write.prepare(table, carol)
    before = written(table)

    status, changed_first = race(alice, carol, table, write, change)

    if changed_first:
        assert (status, written(table)) == (403, before)
    else:  # the change waited for the write, made before it
        assert status == accepted
        assert written(table) != before


def test_a_member_removed_while_their_confirmation_waits_is_refused(alice, carol, victor, table):
    record_hand(table, carol)
    before = written(table)

    def confirm(table: Table, user) -> int:
        return client_for(user).post(f"{table.url}hands/1/confirmations/").status_code

    status, changed_first = race(alice, victor, table, Write(None, confirm), "remove")

    if changed_first:
        assert (status, written(table)) == (403, before)
    else:
        assert status == 201
        assert written(table) != before

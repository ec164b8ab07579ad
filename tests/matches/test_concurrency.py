"""Two scorekeepers at one table: parallel submissions on PostgreSQL, with real transactions.

Each thread has its own database connection; a barrier releases them together.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from matches import standings
from matches.models import (
    Hand,
    HandDraftPart,
    HandResult,
    HandRevision,
    Invitation,
    Membership,
    Player,
    Season,
    Seat,
)
from matches.services import keys
from tests import locks
from tests.factories import client_for, full_packs, make_user, record, start_match, went_out

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
RETRIES = 20


def in_parallel(task: Callable[[int], Any], count: int = THREADS) -> list[Any]:
    """Run ``task(i)`` in ``count`` threads started together; return results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = task(i)
        except Exception as error:  # noqa: BLE001 - reported to the test below
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_runs_on_postgresql():
    assert connection.vendor == "postgresql"


def test_parallel_hands_get_consecutive_numbers_and_exact_totals(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])

    def submit(i: int) -> int:
        response = record(client_for(carol), match["id"], went_out(players[i % 3], players))
        return response.status_code

    # Six hands, two wins each: nobody can reach 1,000 (3 × 340) whatever order they commit in,
    # so no hand is refused because an earlier one finished the match.
    hands = 6
    statuses = in_parallel(submit, count=hands)
    assert statuses == [201] * hands
    numbers = sorted(Hand.objects.filter(match_id=match["id"]).values_list("number", flat=True))
    assert numbers == list(range(1, hands + 1))
    for seat in Seat.objects.filter(match_id=match["id"]):
        nets = HandResult.objects.filter(hand__match_id=match["id"], player=seat.player)
        assert seat.total == sum(nets.values_list("net", flat=True))
    last = HandResult.objects.filter(hand__match_id=match["id"], hand__number=hands)
    assert {r.player_id: r.total for r in last} == {
        s.player_id: s.total for s in Seat.objects.filter(match_id=match["id"])
    }


def test_parallel_retries_with_one_key_record_exactly_one_hand(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = went_out(players[0], players)

    def submit(i: int) -> tuple[int, Any]:
        response = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="same-key")
        return response.status_code, response.json()

    answers = in_parallel(submit, count=RETRIES)
    statuses = [status for status, _ in answers]
    # The first records; a retry that lands while it runs is told so (409) and records
    # nothing; a retry after it replays its answer.
    assert set(statuses) <= {201, 409}, statuses
    created = [answer for status, answer in answers if status == 201]
    assert created and all(answer == created[0] for answer in created)
    in_flight = [answer for status, answer in answers if status == 409]
    assert all(a["errors"][0]["code"] == "idempotency_key_in_progress" for a in in_flight)
    assert Hand.objects.filter(match_id=match["id"]).count() == 1
    assert HandRevision.objects.filter(match_id=match["id"]).count() == 1


def test_of_two_simultaneous_corrections_exactly_one_wins(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    record(client_for(carol), match["id"], went_out(players[0], players))
    url = f"/api/v1/matches/{match['id']}/hands/1/"

    def correct(i: int) -> int:
        body = went_out(players[1 + i % 2], players)
        return client_for(carol).put(url, body, format="json", HTTP_IF_MATCH='"1"').status_code

    statuses = in_parallel(correct, count=2)
    assert sorted(statuses) == [200, 412]
    assert HandRevision.objects.filter(match_id=match["id"], number=1).count() == 2
    assert Hand.objects.get(match_id=match["id"], number=1).version == 2


def test_a_retry_while_the_first_is_still_running_gets_409_and_records_nothing(carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = went_out(players[0], players)
    with psycopg.connect(**connection.get_connection_params()) as first:
        # Another app server is still recording the first submission with this key.
        first.execute("BEGIN")
        first.execute(
            "SELECT pg_advisory_xact_lock(%s)",
            [keys.key_lock_id(match["id"], carol.pk, "slow-network")],
        )
        retry = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="slow-network")
        assert retry.status_code == 409
        assert retry.json()["errors"][0]["code"] == "idempotency_key_in_progress"
        assert retry["Retry-After"] == "1"  # the request ahead of it is done within moments
        assert Hand.objects.filter(match_id=match["id"]).count() == 0
        first.execute("ROLLBACK")
    later = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="slow-network")
    assert later.status_code == 201


def _match_row_xmax(match_id: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT xmax::text FROM matches_match WHERE id = %s", [match_id])
        return str(cursor.fetchone()[0])


def test_outsiders_and_viewers_neither_wait_for_nor_take_a_matchs_lock(
    carol, victor, bob, club, roster
):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = went_out(players[0], players)
    refused = [(client_for(bob), 404), (client_for(victor), 403)]
    unlocked = _match_row_xmax(match["id"])
    for client, status in refused:  # nobody holds the lock: they do not take it either
        assert record(client, match["id"], body).status_code == status
        assert _match_row_xmax(match["id"]) == unlocked
    with psycopg.connect(**connection.get_connection_params()) as first:
        # A scorekeeper's request holds the lock: the refused ones are answered regardless.
        first.execute("BEGIN")
        first.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match["id"]])
        answers = in_parallel(
            lambda i: record(refused[i][0], match["id"], body).status_code, count=2
        )
        first.execute("ROLLBACK")
    assert answers == [404, 403]
    assert Hand.objects.filter(match_id=match["id"]).count() == 0


def test_two_matches_with_a_shared_player_can_finish_together(carol, club, roster):
    ann, ben, cleo = roster[:3]
    season = Season.objects.create(club=club, name="Winter")
    client = client_for(carol)
    first = start_match(client, club, [ann, ben], season=season.pk)
    second = start_match(client, club, [ann, cleo], season=season.pk)
    record(client, first["id"], full_packs(ann.pk, ben.pk))
    record(client, second["id"], full_packs(ann.pk, cleo.pk))

    def finish(i: int) -> int:
        match, other = (first, ben) if i == 0 else (second, cleo)
        return record(client_for(carol), match["id"], full_packs(ann.pk, other.pk)).status_code

    assert in_parallel(finish, count=2) == [201, 201]
    kept = standings.standings(scope=standings.Scope(club.pk, season.pk))
    counted = standings.standings(
        scope=standings.Scope(club.pk, season.pk, date_from=dt.date(2000, 1, 1))
    )
    assert kept == counted
    assert {row["name"]: row["matches_played"] for row in kept} == {"Ann": 2, "Ben": 1, "Cleo": 1}


def test_two_owners_cannot_demote_each_other_at_once(alice, carol, club):
    Membership.objects.filter(club=club, user=carol).update(role="owner")
    pairs = [(alice, carol), (carol, alice)]

    def demote(i: int) -> int:
        who, whom = pairs[i]
        return (
            client_for(who)
            .post(
                f"/api/v1/clubs/{club.pk}/members/",
                {"user": whom.username, "role": "viewer"},
                format="json",
            )
            .status_code
        )

    statuses = sorted(in_parallel(demote, count=2))
    # The loser is refused: the last owner (400), or no longer an owner at all (403).
    assert statuses in ([200, 400], [200, 403])
    assert Membership.objects.filter(club=club, role="owner").count() == 1


def test_two_people_racing_for_the_last_use_of_an_invitation_one_gets_it(alice, club):
    invitation = Invitation.objects.create(club=club, role="viewer", max_uses=1, created_by=alice)
    racers = [make_user(f"racer{i}") for i in range(THREADS)]

    def accept(i: int) -> int:
        url = f"/api/v1/invitations/{invitation.code}/accept/"
        return client_for(racers[i]).post(url).status_code

    assert sorted(in_parallel(accept)) == [201] + [410] * (THREADS - 1)
    assert Membership.objects.filter(club=club, user__in=racers).count() == 1
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_a_version_offered_while_the_part_is_written_never_outlives_the_write(
    alice, carol, club, roster
):
    """Carol's phone writes Ann's part while Alice's offers another version beside the one it
    saw, at the same moment, ten times over: whichever commits first, the other decides from
    what it reads under the match's lock. Either the offer lands and the write settles it, or
    the write lands and the offer, of a version the part has left, is refused: never an offer
    left beside a part it does not differ from."""
    match = start_match(client_for(carol), club, roster[:3])
    ann = roster[0].pk
    part = f"/api/v1/matches/{match['id']}/hands/1/draft/players/{ann}/"
    first = client_for(carol).put(part, {"hand": ["4H"], "version": 0}, format="json")
    assert first.status_code == 200
    for version in range(1, 11):

        def race(i: int, version: int = version) -> int:
            if i == 0:
                body = {"hand": ["4H", f"{version % 9 + 2}C"], "version": version}
                return client_for(carol).put(part, body, format="json").status_code
            body = {"melds": [["5S", "6S", "7S"]], "hand": [], "version": version}
            return client_for(alice).put(f"{part}contest/", body, format="json").status_code

        wrote, offered = in_parallel(race, count=2)
        assert wrote == 200 and offered in (200, 409), (wrote, offered)
        (row,) = HandDraftPart.objects.filter(match_id=match["id"], player_id=ann)
        assert (row.version, row.contest) == (version + 1, None)


def test_two_sign_ups_of_one_name_in_two_cases_make_one_account(alice, club, monkeypatch):
    """Two invitations, two newcomers choosing "racer" and "RACER" at once. The first is held
    inside its transaction, its account saved but not committed, until the second has either
    finished or is waiting for it; then it commits. The second must find the first's account
    (400 username_taken), not make another that differs only in case."""
    from rest_framework.test import APIClient

    from matches import invitations

    codes = [
        Invitation.objects.create(club=club, role="viewer", created_by=alice).code for _ in range(2)
    ]
    reached, held, use = threading.Event(), threading.Event(), invitations._use

    def use_once_released(invitation, user):
        if threading.current_thread().name == "first":
            reached.set()  # its account saved, not committed
            held.wait(timeout=60)
        return use(invitation, user)

    monkeypatch.setattr(invitations, "_use", use_once_released)
    results: dict[str, Any] = {}

    def sign_up(name: str, code: str, username: str) -> threading.Thread:
        def body() -> None:
            try:
                answer = APIClient().post(
                    f"/api/v1/invitations/{code}/signup/",
                    {"username": username, "password": "a-long-pass-phrase-9"},
                    format="json",
                )
                results[name] = (answer.status_code, answer.json())
            finally:
                connections.close_all()

        thread = threading.Thread(target=body, name=name)
        thread.start()
        return thread

    first = sign_up("first", codes[0], "racer")
    assert reached.wait(timeout=60), "the first sign-up never saved its account"
    second = sign_up("second", codes[1], "RACER")
    locks.finished_or_waiting(second)
    held.set()
    first.join(timeout=60)
    second.join(timeout=60)
    assert results["first"][0] == 201
    assert results["second"][0] == 400
    assert results["second"][1]["errors"][0]["code"] == "username_taken"
    assert get_user_model().objects.filter(username__iexact="racer").count() == 1


def test_an_account_made_in_the_admin_and_a_sign_up_of_the_name_make_one_account(
    alice, club, monkeypatch
):
    """The admin adds "racer" while a newcomer signs up as "RACER". The admin's request is held
    inside its transaction, its form checked and its account saved but not committed, until
    the sign-up has either finished or is waiting for it. The sign-up must find the admin's
    account (400 username_taken), not make another that differs only in case."""
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.admin import AccountAdmin

    staff = get_user_model().objects.create_superuser("staff", password="staff-pass-phrase-9")
    code = Invitation.objects.create(club=club, role="viewer", created_by=alice).code
    reached, held, save_model = threading.Event(), threading.Event(), AccountAdmin.save_model

    def save_then_wait(self, request, obj, form, change):
        save_model(self, request, obj, form, change)
        reached.set()  # checked and saved, not committed
        held.wait(timeout=60)

    monkeypatch.setattr(AccountAdmin, "save_model", save_then_wait)
    results: dict[str, Any] = {}

    def add_in_the_admin() -> int:
        browser = Client()
        browser.force_login(staff)
        phrase = "a long enough Passphrase 7"
        answer = browser.post(
            "/admin/auth/user/add/",
            {
                "username": "racer",
                "usable_password": "true",
                "password1": phrase,
                "password2": phrase,
            },
        )
        return answer.status_code

    def sign_up() -> tuple[int, Any]:
        answer = APIClient().post(
            f"/api/v1/invitations/{code}/signup/",
            {"username": "RACER", "password": "a-long-pass-phrase-9"},
            format="json",
        )
        return answer.status_code, answer.json()

    first = locks.started("admin", add_in_the_admin, results)
    assert reached.wait(timeout=60), "the admin never saved its account"
    second = locks.started("sign-up", sign_up, results)
    locks.finished_or_waiting(second)
    held.set()
    first.join(timeout=60)
    second.join(timeout=60)
    assert results["admin"] == 302  # added: on to the account's page
    status, body = results["sign-up"]
    assert status == 400
    assert body["errors"][0]["code"] == "username_taken"
    assert get_user_model().objects.filter(username__iexact="racer").count() == 1


@pytest.mark.parametrize("write", ["hand", "match"])
@pytest.mark.parametrize("edit", ["rename", "link", "remove member"])
def test_editing_a_seated_player_while_their_table_writes_is_no_deadlock(
    alice, carol, victor, club, roster, write, edit
):
    """The owner renames Ann, links her to a login or removes the member she is, while her
    table records a hand or starts a match. Each writes the club's row (the feed's numbering)
    and the edit holds Ann's row; at commit the hand's or match's references to Ann are checked
    against her row. The table's write queues for the club's row first, then the edit: neither
    may wait for the other (a deadlock, a 503)."""
    ann = roster[0]
    seated = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    if write == "hand":
        url, body = f"/api/v1/matches/{match['id']}/hands/", went_out(seated[0], seated)
    else:
        url, body = "/api/v1/matches/", {"club": club.pk, "players": seated}
    if edit == "remove member":  # Ann is Victor's login; the owner removes Victor from the club
        Player.objects.filter(pk=ann.pk).update(user=victor)

    def edit_ann() -> int:
        owner = client_for(alice)
        if edit == "remove member":
            return owner.delete(f"/api/v1/clubs/{club.pk}/members/victor/").status_code
        change = {"name": "Annie"} if edit == "rename" else {"user": victor.username}
        return owner.patch(f"/api/v1/players/{ann.pk}/", change, format="json").status_code

    results: dict[str, int] = {}

    params = connection.get_connection_params()
    with psycopg.connect(**params) as holder:
        # another writer of the club (a hand at another table) holds its row for a moment
        holder.execute("SELECT 1 FROM matches_club WHERE id = %s FOR UPDATE", [club.pk])
        table = locks.started(
            write, lambda: client_for(carol).post(url, body, format="json").status_code, results
        )
        locks.until_waiting(1)  # the table's write queues for the club's row
        owner = locks.started(edit, edit_ann, results)
        locks.until_waiting(2)  # the edit holds Ann's row and queues for the club's row too
        holder.rollback()
    table.join(60)
    owner.join(60)
    assert results == {write: 201, edit: 204 if edit == "remove member" else 200}


def test_inviting_someone_again_as_they_accept_is_no_deadlock(alice, club):
    """The owner names Xena again (a new role) just as Xena accepts her invitation: the owner's
    request is sent the moment the acceptance holds the invitation. The acceptance commits, the
    owner's request answers as ever (202), and no invitation is left to a member."""
    from matches.invitations import invitation_invite_user

    xena = make_user("xena")
    invitation_invite_user(club=club, username="xena", role="viewer", by=alice)
    code = Invitation.objects.get(club=club, invitee=xena).code
    again: dict[str, Any] = {}

    def invite_again() -> None:
        try:
            body = {"user": "xena", "role": "scorekeeper"}
            url = f"/api/v1/clubs/{club.pk}/members/"
            again["status"] = client_for(alice).post(url, body, format="json").status_code
        finally:
            connections.close_all()

    def invite_again_once_the_invitation_is_held(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "FOR UPDATE" in sql and "matches_invitation" in sql and "thread" not in again:
            again["thread"] = threading.Thread(target=invite_again)
            again["thread"].start()
            locks.finished_or_waiting(again["thread"])  # waiting for the invitation's row
        return result

    with connection.execute_wrapper(invite_again_once_the_invitation_is_held):
        accepted = client_for(xena).post(f"/api/v1/invitations/{code}/accept/").status_code
    again.pop("thread").join(60)
    assert (accepted, again["status"]) == (201, 202)
    assert Membership.objects.get(club=club, user=xena).role == "viewer"
    assert not Invitation.objects.filter(club=club, invitee=xena, uses=0).exists()


def test_a_keyed_hand_waiting_for_its_match_holds_no_expired_key_record(carol, club, roster):
    """A hand sent with an Idempotency-Key looks for its key before it queues for the match.
    It used to delete the match's expired key records there too, and held them while it
    waited: the request holding the match, deleting them as well, then waited for it (a
    deadlock, a 503). They are deleted under the match's lock only: while the hand waits, the
    expired record is free, and once it has the match the record goes."""
    from django.conf import settings
    from django.utils import timezone

    from matches.models import IdempotencyRecord

    match = start_match(client_for(carol), club, roster[:3])
    seated = [p.pk for p in roster[:3]]
    expired = IdempotencyRecord.objects.create(
        match_id=match["id"], user=carol, key="0" * 64, fingerprint="0" * 64, response={}
    )
    long_ago = timezone.now() - dt.timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS + 60)
    IdempotencyRecord.objects.filter(pk=expired.pk).update(created_at=long_ago)
    url = f"/api/v1/matches/{match['id']}/hands/"
    result: dict[str, int] = {}

    def carols_hand() -> None:
        try:
            body = went_out(seated[0], seated)
            answer = client_for(carol).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
            result["status"] = answer.status_code
        finally:
            connections.close_all()

    params = connection.get_connection_params()
    with psycopg.connect(**params) as holder, psycopg.connect(**params) as other:
        # another phone's hand of this match is being written
        holder.execute("SELECT 1 FROM matches_match WHERE id = %s FOR UPDATE", [match["id"]])
        worker = threading.Thread(target=carols_hand)
        worker.start()
        locks.until_waiting(1)  # Carol's hand looked for its key and queues for the match
        free = other.execute(
            "SELECT id FROM matches_idempotencyrecord WHERE id = %s FOR UPDATE NOWAIT",
            [expired.pk],
        ).fetchall()
        other.rollback()
        holder.rollback()
        worker.join(60)
    assert free == [(expired.pk,)]
    assert result["status"] == 201
    assert not IdempotencyRecord.objects.filter(pk=expired.pk).exists()

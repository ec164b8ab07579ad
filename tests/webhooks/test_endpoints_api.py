"""Owners register, read, change, rotate and delete their club's webhooks; nobody else does."""

from __future__ import annotations

import pytest
from standardwebhooks import Webhook

from matches.models import EventType
from tests.factories import client_for
from webhooks import errors, services
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db

HOOK = {"url": "http://127.0.0.1:18859/hooks", "events": ["hand.recorded", "match.finished"]}


def codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]


@pytest.fixture
def allow_loopback(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True


def register(client, club, body=HOOK):
    return client.post(f"/api/v1/clubs/{club.pk}/webhooks/", body, format="json")


def test_registering_answers_the_endpoint_and_its_secret(as_alice, club, allow_loopback):
    response = register(as_alice, club, {**HOOK, "description": "Our league app"})

    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["secret"].startswith("whsec_")
    Webhook(created["secret"])  # a secret the library reads
    assert created["events"] == HOOK["events"]
    assert created["enabled"] is True and created["failure_count"] == 0
    assert response["Location"].endswith(f"/clubs/{club.pk}/webhooks/{created['id']}/")
    listed = as_alice.get(f"/api/v1/clubs/{club.pk}/webhooks/").json()["results"]
    assert [e["id"] for e in listed] == [created["id"]]
    assert "secret" not in listed[0]


def test_a_webhook_registered_disabled_is_sent_nothing_until_enabled(
    as_alice, club, allow_loopback
):
    """`enabled: false` on registration was ignored: the webhook came back enabled."""
    from matches import events
    from matches.models import EventType
    from webhooks.models import Delivery

    created = register(as_alice, club, {**HOOK, "enabled": False})
    assert created.status_code == 201 and created.json()["enabled"] is False
    events.write(club_id=club.pk, type=EventType.MATCH_FINISHED, data={"match": 1})
    assert not Delivery.objects.exists()
    url = f"/api/v1/clubs/{club.pk}/webhooks/{created.json()['id']}/"
    assert as_alice.patch(url, {"enabled": True}, format="json").json()["enabled"] is True
    events.write(club_id=club.pk, type=EventType.MATCH_FINISHED, data={"match": 2})
    assert Delivery.objects.count() == 1


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "http://localhost/hook",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://100.64.0.1/",  # shared address space
        "http://192.0.0.8/",  # IETF protocol assignments
        "http://198.18.0.1/",  # benchmarking
        "http://[64:ff9b::a00:1]/",  # NAT64 of 10.0.0.1
        "http://[64:ff9b::7f00:1]/",  # NAT64 of 127.0.0.1
        "http://[64:ff9b:1::808:808]/",  # NAT64 for local use
        "http://[2002:a00:1::]/",  # 6to4 of 10.0.0.1
        "http://[2002:7f00:1::]/",  # 6to4 of 127.0.0.1
        "http://[::a00:1]/",  # IPv4-compatible 10.0.0.1
        "http://[::808:808]/",  # IPv4-compatible, deprecated whatever it wraps
        "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",  # Teredo
    ],
)
def test_a_private_target_is_refused(as_alice, club, url):
    response = register(as_alice, club, {**HOOK, "url": url})
    assert response.status_code == 400
    assert codes(response) == ["webhook_target_private"]
    assert response.json()["errors"][0]["attr"] == "url"
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    ("url", "code", "named"),
    [
        ("ftp://127.0.0.1:18859/hooks", "webhook_url_scheme", "ftp://"),
        ("FTPS://127.0.0.1:18859/hooks", "webhook_url_scheme", "ftps://"),
        ("gopher://example.org/hooks", "webhook_url_scheme", "gopher://"),
        ("ws://127.0.0.1:18859/hooks", "webhook_url_scheme", "ws://"),
        ("http://127.0.0.1:99999/hooks", "webhook_url_port", "99999"),
        ("http://[::1]:0/hooks", "webhook_url_port", "0"),
        ("http://user:pw@127.0.0.1:18859/hooks", "webhook_url_credentials", "password"),
    ],
)
def test_a_url_events_cannot_be_sent_to_as_written_is_refused_naming_why(
    as_alice, club, allow_loopback, url, code, named
):
    response = register(as_alice, club, {**HOOK, "url": url})
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [(code, "url")]
    assert named in response.json()["errors"][0]["detail"]
    assert not Endpoint.objects.exists()
    created = register(as_alice, club).json()["id"]
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/webhooks/{created}/", {"url": url}, format="json"
    )
    assert (changed.status_code, codes(changed)) == (400, [code])
    assert Endpoint.objects.get().url == HOOK["url"]


def test_a_port_written_out_and_an_https_url_are_accepted(as_alice, club, allow_loopback):
    for url in ("https://127.0.0.1:443/hooks", "HTTP://[::1]:65535/hooks"):
        assert register(as_alice, club, {**HOOK, "url": url}).status_code == 201, url


@pytest.mark.parametrize("url", ["http://[64:ff9b::808:808]/", "http://[2002:808:808::]/"])
def test_a_public_address_wrapped_in_ipv6_is_accepted(as_alice, club, url):
    assert register(as_alice, club, {**HOOK, "url": url}).status_code == 201


def test_a_retried_registration_with_its_key_gets_the_first_answer(as_alice, club, allow_loopback):
    first = as_alice.post(
        f"/api/v1/clubs/{club.pk}/webhooks/", HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    again = as_alice.post(
        f"/api/v1/clubs/{club.pk}/webhooks/", HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Endpoint.objects.count() == 1
    other = as_alice.post(
        f"/api/v1/clubs/{club.pk}/webhooks/",
        {**HOOK, "description": "another"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert (other.status_code, codes(other)) == (422, ["idempotency_key_reused"])


def test_the_same_url_and_events_twice_is_refused_naming_the_first(as_alice, club, allow_loopback):
    first = register(as_alice, club).json()
    reordered = {**HOOK, "events": list(reversed(HOOK["events"]))}
    again = register(as_alice, club, reordered)
    assert (again.status_code, codes(again)) == (409, ["webhook_duplicate"])
    assert str(first["id"]) in again.json()["errors"][0]["detail"]
    assert Endpoint.objects.count() == 1
    fewer = register(as_alice, club, {**HOOK, "events": ["hand.recorded"]})
    assert fewer.status_code == 201
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/webhooks/{fewer.json()['id']}/",
        {"events": HOOK["events"]},
        format="json",
    )
    assert (changed.status_code, codes(changed)) == (409, ["webhook_duplicate"])


def test_a_club_holds_a_limited_number_of_webhooks(as_alice, club, bobs_club, allow_loopback):
    Endpoint.objects.bulk_create(
        Endpoint(club=club, url=f"http://127.0.0.1/{i}", events=["hand.recorded"])
        for i in range(services.MAX_WEBHOOKS_PER_CLUB)
    )
    refused = register(as_alice, club)
    assert (refused.status_code, codes(refused)) == (409, ["webhook_limit_reached"])
    assert Endpoint.objects.filter(club=club).count() == services.MAX_WEBHOOKS_PER_CLUB
    Endpoint.objects.filter(club=club).first().delete()
    assert register(as_alice, club).status_code == 201


def test_a_host_that_resolves_nowhere_is_refused(as_alice, club):
    response = register(as_alice, club, {**HOOK, "url": "http://nowhere.invalid/"})
    assert (response.status_code, codes(response)) == (400, ["webhook_target_unresolvable"])


def test_an_unknown_event_type_is_refused(as_alice, club, allow_loopback):
    response = register(as_alice, club, {**HOOK, "events": ["hand.eaten"]})
    assert (response.status_code, codes(response)) == (400, ["invalid_choice"])


def test_changing_rotating_and_deleting(as_alice, club, allow_loopback, settings):
    created = register(as_alice, club).json()
    url = f"/api/v1/clubs/{club.pk}/webhooks/{created['id']}/"

    changed = as_alice.patch(url, {"events": ["hand.voided"]}, format="json")
    assert changed.json()["events"] == ["hand.voided"]
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = False
    moved = as_alice.patch(url, {"url": "http://10.0.0.1/"}, format="json")
    assert (moved.status_code, codes(moved)) == (400, ["webhook_target_private"])
    rotated = as_alice.post(f"{url}rotate-secret/").json()
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != created["secret"]
    assert Endpoint.objects.get().secret == rotated["secret"]
    assert as_alice.delete(url).status_code == 204
    assert as_alice.get(url).status_code == 404


def test_a_disabled_endpoint_is_enabled_again(as_alice, club, allow_loopback):
    created = register(as_alice, club).json()
    Endpoint.objects.update(disabled_at="2026-01-01T00:00:00Z", failure_count=8)
    url = f"/api/v1/clubs/{club.pk}/webhooks/{created['id']}/"
    shown = as_alice.get(url).json()
    assert (shown["enabled"], shown["failure_count"]) == (False, 8)
    assert shown["disabled_at"] is not None
    test = as_alice.post(f"{url}test/")
    assert (test.status_code, codes(test)) == (409, ["webhook_disabled"])

    enabled = as_alice.patch(url, {"enabled": True}, format="json").json()
    assert (enabled["enabled"], enabled["failure_count"], enabled["disabled_at"]) == (True, 0, None)


def test_a_change_read_before_a_rotation_or_a_disabling_does_not_undo_them(
    as_alice, club, allow_loopback
):
    """A change of the description, read before the secret was rotated and before the worker
    disabled the endpoint, writes only the description: the new secret and the disabling
    stay."""
    created = register(as_alice, club).json()
    read_before = Endpoint.objects.get(pk=created["id"])  # as the PATCH read it
    rotated = services.secret_rotate(endpoint=Endpoint.objects.get(pk=created["id"]))
    Endpoint.objects.update(disabled_at="2026-01-01T00:00:00Z", failure_count=8)  # the worker

    changed = services.endpoint_update(endpoint=read_before, changes={"description": "bar"})

    kept = Endpoint.objects.get(pk=created["id"])
    assert kept.description == "bar" == changed.description
    assert (kept.secret, kept.previous_secret) == (rotated.secret, created["secret"])
    assert (kept.failure_count, kept.disabled_at is not None) == (8, True)
    assert changed.secret == rotated.secret  # the answer shows the endpoint as it now is


def test_a_test_message_is_refused_for_a_webhook_disabled_since_it_was_read(
    as_alice, club, allow_loopback
):
    created = register(as_alice, club).json()
    read_before = Endpoint.objects.get(pk=created["id"])  # as the request read it
    Endpoint.objects.update(disabled_at="2026-01-01T00:00:00Z", failure_count=8)  # the worker
    with pytest.raises(errors.EndpointDisabled):
        services.test_send(endpoint=read_before)
    assert not Delivery.objects.exists()


def test_only_owners_manage_webhooks(as_alice, club, carol, victor, bob, allow_loopback):
    created = register(as_alice, club).json()
    url = f"/api/v1/clubs/{club.pk}/webhooks/{created['id']}/"
    for member in (carol, victor):
        assert register(client_for(member), club).status_code == 403
        assert client_for(member).get(url).status_code == 403
    outsider = client_for(bob)
    assert register(outsider, club).status_code == 404
    assert outsider.get(url).status_code == 404
    assert outsider.post(f"{url}rotate-secret/").status_code == 404
    assert outsider.get(f"{url}deliveries/").status_code == 404
    assert Endpoint.objects.get().secret == created["secret"]


def test_another_clubs_webhook_is_not_found_through_ones_own_club(
    as_alice, as_bob, club, bobs_club, allow_loopback
):
    bobs = register(as_bob, bobs_club).json()
    assert as_alice.get(f"/api/v1/clubs/{club.pk}/webhooks/{bobs['id']}/").status_code == 404


def test_an_event_type_listed_twice_counts_once(as_alice, club, allow_loopback):
    """events is a set of types: a client that builds its list by appending is not refused,
    and the webhook answers each type once, as it sends each event once."""
    twice = {**HOOK, "events": ["hand.recorded", "match.finished", "hand.recorded"]}
    made = register(as_alice, club, twice)
    assert made.status_code == 201
    assert made.json()["events"] == ["hand.recorded", "match.finished"]
    # and so it is the same webhook as one registered without the repetition
    assert codes(register(as_alice, club)) == ["webhook_duplicate"]
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/webhooks/{made.json()['id']}/",
        {"events": ["match.finished", "match.finished"]},
        format="json",
    )
    assert changed.status_code == 200 and changed.json()["events"] == ["match.finished"]


def test_every_type_with_one_again_is_every_type_not_too_long_a_list(
    as_alice, club, allow_loopback
):
    """The list's length was checked before the repetitions went: seven types and one of them
    again (or one type eight times) was refused with max_length."""
    every = [value for value, _ in EventType.choices]
    made = register(as_alice, club, {**HOOK, "events": [*every, every[0]]})
    assert made.status_code == 201, made.json()
    assert made.json()["events"] == every
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/webhooks/{made.json()['id']}/",
        {"events": ["hand.recorded"] * 8},
        format="json",
    )
    assert changed.status_code == 200 and changed.json()["events"] == ["hand.recorded"]
    unknown = register(as_alice, club, {**HOOK, "events": [every[0], every[0], "bogus"]})
    assert unknown.status_code == 400
    assert [(e["code"], e["attr"]) for e in unknown.json()["errors"]] == [
        ("invalid_choice", "events.2")
    ]


@pytest.mark.django_db(transaction=True)
def test_a_webhooks_host_is_looked_up_before_any_transaction_opens(
    as_alice, club, allow_loopback, monkeypatch
):
    """Asking the name server may take seconds (one that never answers: 10 s and more). On the
    embedded SQLite a transaction holds the one write lock from its start, so a lookup inside
    one held every table's writes back, and past the busy timeout they failed (503). The
    lookup runs before the registration's transaction (and the Idempotency-Key's) and before
    a change's."""
    from django.db import connection

    from webhooks import targets

    looked_up, resolve = [], targets.resolve

    def noting_the_transaction(url: str):
        looked_up.append((url, connection.in_atomic_block))
        return resolve(url)

    monkeypatch.setattr(targets, "resolve", noting_the_transaction)
    made = as_alice.post(
        f"/api/v1/clubs/{club.pk}/webhooks/", HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert made.status_code == 201
    moved = {"url": "http://127.0.0.1:18860/hooks"}
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/webhooks/{made.json()['id']}/", moved, format="json"
    )
    assert changed.status_code == 200
    assert looked_up == [(HOOK["url"], False), (moved["url"], False)]


def test_a_registration_sent_again_with_its_key_is_answered_as_the_first(
    as_alice, club, allow_loopback, monkeypatch
):
    """The same key and body get the first answer again, even when the name server cannot
    answer the retry (the flaky network the key is for): the host is looked up only for a
    registration to make, after the key's first answer is looked for."""
    from webhooks import targets

    url = f"/api/v1/clubs/{club.pk}/webhooks/"
    first = as_alice.post(url, HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201

    def no_name_server(url: str):
        raise targets.UnsafeTarget("webhook_target_unresolvable", "127.0.0.1")

    monkeypatch.setattr(targets, "resolve", no_name_server)
    again = as_alice.post(url, HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    refused = as_alice.post(url, HOOK, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert refused.status_code == 400
    assert codes(refused) == ["webhook_target_unresolvable"]


@pytest.mark.django_db(transaction=True)
def test_a_registration_under_way_does_not_hold_back_the_clubs_match_writes(
    as_alice, alice, carol, club, roster, allow_loopback
):
    """A webhook's registration holds the club's row while it counts the club's webhooks; a
    match write reads its requester's role with that row held too (FOR KEY SHARE). Held FOR
    UPDATE, the registration made every match write of the club wait for it."""
    from tests import locks
    from tests.factories import start_match

    match = start_match(client_for(carol), club, roster[:3])["id"]
    results: dict[str, object] = {}
    registration, release = locks.paused_before(  # its lock taken, counting the webhooks
        'FROM "webhooks_endpoint"',
        "registration",
        lambda: register(client_for(alice), club).status_code,
        results,
    )
    try:
        assert registration.is_alive()
        live = locks.started(
            "live start",
            lambda: (
                client_for(carol)
                .post(f"/api/v1/matches/{match}/live/", {"turned_up": "7H"}, format="json")
                .status_code
            ),
            results,
        )
        locks.finished_or_waiting(live)
        finished_first = not live.is_alive()
    finally:
        release.set()
    registration.join(60)
    live.join(60)
    assert finished_first
    assert (results["live start"], results["registration"]) == (201, 201)

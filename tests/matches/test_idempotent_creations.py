"""Idempotency-Key on every POST that creates something: a retry gets the first answer."""

from __future__ import annotations

import pytest

from accounts.models import DeviceToken, IdempotentAnswer
from clubnight.models import PublicLink, Tournament
from matches.models import Club, Invitation, Match, Player, Season

API = "/api/v1"
KINDS = ["match", "player", "season", "club", "invitation", "club night", "public link"]


@pytest.fixture
def creations(club, roster):
    """Each creating POST: (url, body, what it creates)."""
    return {
        "match": (
            f"{API}/matches/",
            {"club": club.pk, "players": [p.pk for p in roster[:3]]},
            Match,
        ),
        "player": (f"{API}/players/", {"club": club.pk, "name": "Fay"}, Player),
        "season": (f"{API}/seasons/", {"club": club.pk, "name": "Summer"}, Season),
        "club": (f"{API}/clubs/", {"name": "Second club"}, Club),
        "invitation": (f"{API}/clubs/{club.pk}/invitations/", {"role": "viewer"}, Invitation),
        "club night": (
            f"{API}/tournaments/",
            {"club": club.pk, "name": "Friday night", "players": [p.pk for p in roster[:4]]},
            Tournament,
        ),
        "public link": (f"{API}/clubs/{club.pk}/public-links/", {"scope": "standings"}, PublicLink),
    }


@pytest.mark.parametrize("kind", KINDS)
def test_a_retry_with_the_same_key_gets_the_first_answer_and_creates_nothing(
    as_alice, creations, kind
):
    url, body, model = creations[kind]
    before = model.objects.count()
    first = as_alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"{kind}-1")
    assert first.status_code == 201, first.json()
    again = as_alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"{kind}-1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert again["Location"] == first["Location"]
    assert "Idempotent-Replayed" not in first
    assert model.objects.count() == before + 1


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_key_with_another_body_is_refused(as_alice, creations, kind):
    url, body, model = creations[kind]
    assert as_alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    other = {**body, "name": "Other"} if "name" in body else {**body, "role": "scorekeeper"}
    if kind == "match":
        other = {**body, "table": "T9"}
    refused = as_alice.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "idempotency_key_reused"


def test_without_a_key_two_posts_create_two_matches(as_alice, creations):
    url, body, _ = creations["match"]
    assert (
        as_alice.post(url, body, format="json").json()["id"]
        != (as_alice.post(url, body, format="json").json()["id"])
    )


def test_keys_are_per_user(as_alice, as_carol, creations):
    url, body, _ = creations["match"]
    mine = as_alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    theirs = as_carol.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert mine.json()["id"] != theirs.json()["id"]
    assert "Idempotent-Replayed" not in theirs


def test_a_refused_creation_is_not_kept_and_may_be_sent_again_fixed(as_alice, club, roster):
    url = f"{API}/matches/"
    refused = as_alice.post(
        url, {"club": club.pk, "players": [roster[0].pk]}, format="json", HTTP_IDEMPOTENCY_KEY="m"
    )
    assert refused.status_code == 400
    fixed = as_alice.post(
        url,
        {"club": club.pk, "players": [p.pk for p in roster[:2]]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="m",
    )
    assert fixed.status_code == 201


def test_an_unreadable_key_is_refused(as_alice, creations):
    url, body, _ = creations["player"]
    response = as_alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="é" * 3)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_idempotency_key"


def test_a_device_token_retried_with_its_key_is_the_same_token(api_client_plain, alice):
    body = {"username": "alice", "password": "alice-pw-1234", "name": "Phone"}
    url = f"{API}/auth/tokens/"
    first = api_client_plain.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="sign-in-1")
    again = api_client_plain.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="sign-in-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["token"] == first.json()["token"]
    assert again["Idempotent-Replayed"] == "true"
    assert DeviceToken.objects.filter(user=alice).count() == 1
    kept = IdempotentAnswer.objects.get(user=alice)
    # the table keeps neither the key nor the token nor anything a password could be read from
    assert "sign-in-1" not in kept.key_digest
    assert first.json()["token"] not in kept.answer
    assert "alice-pw-1234" not in kept.fingerprint
    wrong = api_client_plain.post(
        url, {**body, "password": "wrong"}, format="json", HTTP_IDEMPOTENCY_KEY="sign-in-1"
    )
    assert wrong.status_code == 400  # the credentials are checked before any replay

"""Device tokens: one per phone or app, named, listed, revocable one by one, expiring, hashed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import DeviceToken

TOKENS = "/api/v1/auth/tokens/"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="alice-pw-1234")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password="bob-pw-1234")


def sign_in(username: str, name: str | None = "phone", **extra) -> dict:
    body = {"username": username, "password": f"{username}-pw-1234"}
    if name is not None:
        body["name"] = name
    response = APIClient().post(TOKENS, body, format="json", **extra)
    assert response.status_code == 201, response.content
    return {**response.json(), "location": response["Location"]}


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def test_a_username_and_password_give_a_named_expiring_token(alice, settings):
    before = timezone.now()
    issued = sign_in("alice", "Alice's phone")
    assert set(issued) == {"id", "token", "expiry", "name", "location"}
    assert issued["name"] == "Alice's phone"
    expiry = dt.datetime.fromisoformat(issued["expiry"])
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    assert before + ttl <= expiry <= timezone.now() + ttl
    assert issued["location"] == f"http://testserver{TOKENS}{issued['id']}/"
    assert with_token(issued["token"]).get("/api/v1/clubs/").status_code == 200


def test_the_token_is_kept_hashed(alice):
    issued = sign_in("alice")
    row = DeviceToken.objects.values().get(pk=issued["id"])
    assert issued["token"] not in [str(value) for value in row.values()]
    assert row["digest"] != issued["token"]


def test_without_a_name_the_device_is_named_by_its_user_agent(alice):
    issued = sign_in("alice", name=None, HTTP_USER_AGENT="ScoreApp/2.1 (Android 14)")
    assert issued["name"] == "ScoreApp/2.1 (Android 14)"


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "wrong"},
        {"username": "nobody", "password": "alice-pw-1234"},
    ],
)
def test_wrong_credentials_are_a_400_and_give_no_token(alice, body):
    response = APIClient().post(TOKENS, body, format="json")
    assert response.status_code == 400
    assert codes(response) == [("authorization", "non_field_errors")]
    assert not DeviceToken.objects.exists()


@pytest.mark.parametrize("typed", ["racer", "RACER", "ｒａｃｅｒ", " Racer ", "Racer"])
def test_a_username_signs_in_in_any_case_or_width_as_sign_up_compares_them(db, typed):
    """Sign-up refuses a name that differs from another in case alone, so every spelling
    names one account: the token endpoint and the sign-in form both find it."""
    racer = get_user_model().objects.create_user("Racer", password="Racer-pw-1234")
    body = {"username": typed, "password": "Racer-pw-1234"}
    issued = APIClient().post(TOKENS, body, format="json")
    assert issued.status_code == 201, issued.content
    assert DeviceToken.objects.get(pk=issued.json()["id"]).user == racer

    form = Client().post("/sign-in/", body, secure=True)
    assert form.status_code == 302 and form.wsgi_request.user == racer


def test_accounts_that_differ_only_in_case_each_sign_in_written_exactly(db):
    """Accounts made before the case rule: a name written exactly names its own account; one
    written in a third case names neither, rather than either."""
    users = get_user_model().objects
    lower = users.create_user("ann", password="ann-pw-1234")
    upper = users.create_user("ANN", password="ann-pw-1234")
    for typed, who in (("ann", lower), ("ANN", upper)):
        body = {"username": typed, "password": "ann-pw-1234"}
        issued = APIClient().post(TOKENS, body, format="json")
        assert DeviceToken.objects.get(pk=issued.json()["id"]).user == who
    third = APIClient().post(TOKENS, {"username": "Ann", "password": "ann-pw-1234"}, format="json")
    assert third.status_code == 400 and codes(third) == [("authorization", "non_field_errors")]


def test_missing_credentials_are_required(db):
    response = APIClient().post(TOKENS, {}, format="json")
    assert response.status_code == 400
    assert set(codes(response)) == {("required", "username"), ("required", "password")}


def test_i_list_my_devices_never_their_keys(alice, bob):
    phone, tablet = sign_in("alice", "phone"), sign_in("alice", "tablet")
    sign_in("bob", "bob's phone")
    response = with_token(phone["token"]).get(TOKENS)
    assert response.status_code == 200
    rows = response.json()["results"]
    assert {row["name"] for row in rows} == {"phone", "tablet"}
    assert set(rows[0]) == {"id", "name", "created", "expiry", "last_used", "current"}
    assert {row["name"]: row["current"] for row in rows} == {"phone": True, "tablet": False}
    text = response.content.decode()
    assert phone["token"] not in text and tablet["token"] not in text


def test_revoking_one_device_signs_out_only_that_device(alice):
    phone, tablet = sign_in("alice", "phone"), sign_in("alice", "lost tablet")
    response = with_token(phone["token"]).delete(tablet["location"])
    assert response.status_code == 204
    lost = with_token(tablet["token"]).get("/api/v1/clubs/")
    assert lost.status_code == 401
    assert codes(lost) == [("authentication_failed", None)]
    assert with_token(phone["token"]).get("/api/v1/clubs/").status_code == 200


def test_another_users_device_is_not_found(alice, bob):
    mine, theirs = sign_in("alice"), sign_in("bob")
    assert with_token(mine["token"]).delete(theirs["location"]).status_code == 404
    assert with_token(mine["token"]).get(theirs["location"]).status_code == 404
    assert with_token(theirs["token"]).get("/api/v1/clubs/").status_code == 200


def test_logout_revokes_the_token_it_was_sent_with(alice):
    phone, tablet = sign_in("alice", "phone"), sign_in("alice", "tablet")
    response = with_token(phone["token"]).post("/api/v1/auth/logout/")
    assert response.status_code == 204
    assert with_token(phone["token"]).get("/api/v1/clubs/").status_code == 401
    assert with_token(tablet["token"]).get("/api/v1/clubs/").status_code == 200


def test_using_a_token_renews_its_expiry(alice, settings):
    issued = sign_in("alice")
    soon = timezone.now() + dt.timedelta(hours=1)
    DeviceToken.objects.filter(pk=issued["id"]).update(expiry=soon)
    assert with_token(issued["token"]).get("/api/v1/clubs/").status_code == 200
    renewed = DeviceToken.objects.get(pk=issued["id"])
    assert renewed.expiry > timezone.now() + settings.REST_KNOX["TOKEN_TTL"] - dt.timedelta(
        minutes=1
    )
    assert renewed.last_used is not None


def test_an_expired_token_is_refused(alice):
    issued = sign_in("alice")
    DeviceToken.objects.filter(pk=issued["id"]).update(
        expiry=timezone.now() - dt.timedelta(seconds=1)
    )
    response = with_token(issued["token"]).get("/api/v1/clubs/")
    assert response.status_code == 401
    assert codes(response) == [("authentication_failed", None)]


def test_a_token_sent_as_bearer_is_refused_with_the_way_to_send_it(alice):
    issued = sign_in("alice")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {issued['token']}")
    response = client.get("/api/v1/clubs/")
    assert response.status_code == 401
    assert codes(response) == [("authentication_failed", None)]
    assert '"Authorization: Token <key>"' in response.json()["errors"][0]["detail"]
    assert with_token(issued["token"]).get("/api/v1/clubs/").status_code == 200


def test_the_legacy_token_keeps_working_beside_device_tokens(alice):
    legacy = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": "alice-pw-1234"}, format="json"
    )
    assert legacy.status_code == 200
    assert set(legacy.json()) == {"token"}
    key = legacy.json()["token"]
    assert with_token(key).get("/api/v1/clubs/").status_code == 200
    device = sign_in("alice")
    assert with_token(device["token"]).get("/api/v1/clubs/").status_code == 200
    assert with_token(key).post("/api/v1/auth/logout/").status_code == 204
    assert not Token.objects.filter(key=key).exists()
    assert with_token(key).get("/api/v1/clubs/").status_code == 401


def test_device_token_requests_are_throttled_like_the_legacy_endpoint(alice, monkeypatch):
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"auth": "2/min", "auth_account": "100/hour"}
    )
    guesses = [
        APIClient().post(TOKENS, {"username": "alice", "password": "x"}, format="json").status_code
        for _ in range(3)
    ]
    assert guesses == [400, 400, 429]


def test_the_token_routes_need_a_login_except_signing_in(db):
    assert APIClient().get(TOKENS).status_code == 401
    assert APIClient().post("/api/v1/auth/logout/").status_code == 401


def test_the_schema_describes_device_tokens_and_marks_the_legacy_endpoint(openapi_schema):
    paths = openapi_schema["paths"]
    schemas = openapi_schema["components"]["schemas"]
    sign_in = paths["/api/v1/auth/tokens/"]["post"]
    request = sign_in["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert set(schemas[request.rsplit("/", 1)[1]]["properties"]) == {"username", "password", "name"}
    answer = sign_in["responses"]["201"]["content"]["application/json"]["schema"]["$ref"]
    assert {"token", "expiry", "name"} <= set(schemas[answer.rsplit("/", 1)[1]]["properties"])
    assert "security" not in sign_in or sign_in["security"] in ([], [{}])
    assert paths["/api/v1/auth/token/"]["post"]["deprecated"] is True
    assert {"get", "delete"} <= set(paths["/api/v1/auth/tokens/{id}/"])
    assert "204" in paths["/api/v1/auth/logout/"]["post"]["responses"]


@pytest.mark.parametrize("key", ["\u00e9" * 64, "\u00e9" * 40])
def test_a_token_that_is_not_ascii_is_a_401_never_a_500(db, key):
    response = with_token(key).get("/api/v1/clubs/")
    assert response.status_code == 401
    assert codes(response) == [("authentication_failed", None)]


def test_a_token_revoked_while_it_is_being_renewed_is_a_401_never_a_500(alice, monkeypatch):
    import knox.auth

    issued = sign_in("alice")
    DeviceToken.objects.update(expiry=timezone.now() + dt.timedelta(days=1))  # due for renewal
    real_hash = knox.auth.hash_token

    def revoked_meanwhile(token: str) -> str:
        DeviceToken.objects.all().delete()  # another device revokes it after the lookup
        return real_hash(token)

    monkeypatch.setattr(knox.auth, "hash_token", revoked_meanwhile)
    client = with_token(issued["token"])
    client.raise_request_exception = False
    response = client.get("/api/v1/clubs/")
    assert response.status_code == 401, response.content
    assert codes(response) == [("authentication_failed", None)]

"""Password guessing is slowed per address and per account, on the token endpoint and the admin.

The two share their counters (matches/api/throttles.py). Past the per-account limit even the
right password is refused until the window passes, so a refusal never tells a right guess.
"""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import clear_url_caches
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts import ratelimit

TOKEN_URL = "/api/v1/auth/token/"
ADMIN_LOGIN = "/admin/login/"
PASSWORD = "staff-pw-1234"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(ratelimit, "clock", clock)
    return clock


@pytest.fixture
def rates(monkeypatch):
    def set_rates(**rates: str) -> None:
        monkeypatch.setattr(
            SimpleRateThrottle,
            "THROTTLE_RATES",
            {"auth": "100/min", "auth_account": "100/min", **rates},
        )

    return set_rates


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(
        "staff", password=PASSWORD, is_staff=True, is_superuser=True
    )


def token(password: str, address: str, username: str = "staff") -> int:
    return (
        APIClient()
        .post(
            TOKEN_URL,
            {"username": username, "password": password},
            format="json",
            REMOTE_ADDR=address,
        )
        .status_code
    )


def admin_login(password: str, address: str, username: str = "staff") -> tuple[int, bool]:
    """The status of an admin login, and whether it signed in."""
    client = Client()
    response = client.post(
        ADMIN_LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code, "_auth_user_id" in client.session


def test_failed_tokens_for_one_account_from_many_addresses_are_limited(staff, rates, clock):
    rates(auth_account="3/min")
    guesses = [token("wrong", f"198.51.100.{i}") for i in range(4)]
    assert guesses == [400, 400, 400, 429]
    assert token(PASSWORD, "198.51.100.99") == 429  # the right password, still refused
    clock.now += 61
    assert token(PASSWORD, "198.51.100.99") == 200


def test_attempts_refused_at_the_address_limit_do_not_count_against_the_account(
    staff, rates, clock
):
    """The club's address has used up its failed attempts: the staff member's right password
    is refused there, again and again. Nothing was tried, so the account has no failure: from
    another address it signs in at once, rather than being locked out for the window."""
    rates(auth="2/min", auth_account="3/min")
    assert [token("wrong", "203.0.113.5", username=f"x{i}") for i in range(2)] == [400, 400]
    assert [token(PASSWORD, "203.0.113.5") for _ in range(4)] == [429] * 4
    assert token(PASSWORD, "203.0.113.6") == 200
    assert admin_login(PASSWORD, "203.0.113.5") == (429, False)  # the admin's form alike
    assert [admin_login(PASSWORD, "203.0.113.5")[0] for _ in range(3)] == [429] * 3
    assert admin_login(PASSWORD, "203.0.113.7") == (302, True)


def test_successful_tokens_do_not_count_against_the_account(staff, rates, clock):
    rates(auth_account="2/min")
    assert [token(PASSWORD, "198.51.100.1") for _ in range(4)] == [200] * 4


def test_another_account_is_not_slowed_by_guesses_at_the_first(staff, rates, clock):
    rates(auth_account="2/min")
    get_user_model().objects.create_user("other", password=PASSWORD)
    assert [token("wrong", "198.51.100.1") for _ in range(3)] == [400, 400, 429]
    assert token(PASSWORD, "198.51.100.2", username="other") == 200


def test_the_429_says_when_to_come_back(staff, rates, clock):
    rates(auth_account="1/min")
    token("wrong", "198.51.100.1")
    response = APIClient().post(
        TOKEN_URL, {"username": "staff", "password": "x"}, format="json", REMOTE_ADDR="198.51.100.2"
    )
    assert response.status_code == 429
    assert response.json()["errors"][0]["code"] == "throttled"
    # 40 s into the minute: 20 s to its turn, then the whole next minute, for the failure's
    # weight in the sliding window to fall to nothing (the limit is 1)
    assert int(response["Retry-After"]) == 80
    clock.now += 79
    assert token(PASSWORD, "198.51.100.3") == 429
    clock.now += 1
    assert token(PASSWORD, "198.51.100.3") == 200


def test_admin_login_is_limited_per_account_and_refuses_the_right_password(staff, rates, clock):
    rates(auth_account="3/min")
    guesses = [admin_login("wrong", f"198.51.100.{i}") for i in range(3)]
    assert guesses == [(200, False)] * 3
    status, signed_in = admin_login(PASSWORD, "198.51.100.50")
    assert (status, signed_in) == (429, False)
    clock.now += 61
    assert admin_login(PASSWORD, "198.51.100.50") == (302, True)


def test_admin_login_is_limited_per_address(staff, rates, clock):
    rates(auth="3/min")
    attempts = [admin_login("wrong", "203.0.113.9", username=f"user{i}")[0] for i in range(4)]
    assert attempts == [200, 200, 200, 429]
    assert admin_login(PASSWORD, "203.0.113.9") == (429, False)
    assert admin_login(PASSWORD, "203.0.113.10") == (302, True)


def test_a_club_signing_in_behind_one_address_is_not_refused(staff, rates, clock):
    """Players on a club's one Wi-Fi address share it: only failed attempts count there."""
    rates(auth="3/min")
    for i in range(6):
        get_user_model().objects.create_user(f"player{i}", password=PASSWORD)
    assert [token(PASSWORD, "203.0.113.7", username=f"player{i}") for i in range(6)] == [200] * 6
    assert [token("wrong", "203.0.113.7", username=f"player{i}") for i in range(4)] == [
        400,
        400,
        400,
        429,
    ]


def test_admin_sign_ins_behind_one_address_do_not_count(staff, rates, clock):
    rates(auth="2/min")
    assert [admin_login(PASSWORD, "203.0.113.8") for _ in range(4)] == [(302, True)] * 4
    assert [admin_login("wrong", "203.0.113.8")[0] for _ in range(3)] == [200, 200, 429]


def test_the_admin_and_the_token_endpoint_share_the_account_count(staff, rates, clock):
    rates(auth_account="3/min")
    assert token("wrong", "198.51.100.1") == 400
    assert admin_login("wrong", "198.51.100.2") == (200, False)
    assert token("wrong", "198.51.100.3") == 400
    assert admin_login(PASSWORD, "198.51.100.4") == (429, False)
    assert token(PASSWORD, "198.51.100.5") == 429


def test_the_admin_login_page_still_shows(staff):
    assert Client().get(ADMIN_LOGIN).status_code == 200


@pytest.fixture
def admin_switched_off(settings):
    import arlington_site.urls

    settings.ADMIN_ENABLED = False
    clear_url_caches()
    importlib.reload(arlington_site.urls)
    yield
    settings.ADMIN_ENABLED = True
    clear_url_caches()
    importlib.reload(arlington_site.urls)


def test_the_admin_can_be_switched_off(staff, admin_switched_off):
    assert Client().get("/admin/").status_code == 404
    form = {"username": "staff", "password": PASSWORD}
    assert Client().post(ADMIN_LOGIN, form).status_code == 404
    assert token(PASSWORD, "198.51.100.1") == 200


def form_sign_in(url: str, password: str, address: str, username: str = "staff"):
    """A session sign-in through one of the forms: the answer, and whether it signed in."""
    client = Client()
    response = client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)
    return response, "_auth_user_id" in client.session


def test_the_apps_sign_in_form_is_limited_and_says_why(staff, rates, clock):
    """The app's /sign-in/ counts failures with the token endpoint's counters; refused, it
    shows the form again with the reason and the username kept, and checks no password."""
    rates(auth_account="3/min")
    guesses = [form_sign_in("/sign-in/", "wrong", f"198.51.100.{i}") for i in range(3)]
    assert [(answer.status_code, signed_in) for answer, signed_in in guesses] == [(200, False)] * 3
    refused, signed_in = form_sign_in("/sign-in/", PASSWORD, "198.51.100.50")
    assert (refused.status_code, signed_in) == (429, False)
    assert 0 < int(refused["Retry-After"]) <= 60
    page = refused.content.decode()
    assert "Too many sign-in attempts; try again in" in page
    assert 'value="staff"' in page and 'name="password"' in page
    clock.now += 61
    answer, signed_in = form_sign_in("/sign-in/", PASSWORD, "198.51.100.50")
    assert (answer.status_code, signed_in) == (302, True)


def test_the_browsable_apis_sign_in_is_limited_per_address(staff, rates, clock):
    rates(auth="3/min")
    url = "/api/auth/login/"
    attempts = [form_sign_in(url, "wrong", "203.0.113.9", f"user{i}")[0] for i in range(4)]
    assert [answer.status_code for answer in attempts] == [200, 200, 200, 429]
    refused, signed_in = form_sign_in(url, PASSWORD, "203.0.113.9")
    assert (refused.status_code, signed_in) == (429, False)
    assert form_sign_in(url, PASSWORD, "203.0.113.10")[1] is True


def test_an_account_locked_through_the_api_is_locked_in_every_form(staff, rates, clock):
    rates(auth_account="3/min")
    assert [token("wrong", f"198.51.100.{i}") for i in range(3)] == [400] * 3
    for url in ("/sign-in/", "/api/auth/login/", ADMIN_LOGIN):
        answer, signed_in = form_sign_in(url, PASSWORD, "198.51.100.77")
        assert (answer.status_code, signed_in) == (429, False), url


@pytest.mark.parametrize(
    "spelling", [" staff", "staff\t", "\u3000staff", "ｓｔａｆｆ", "STAFF", "Staff "]
)
def test_another_spelling_of_one_account_counts_against_it(staff, rates, clock, spelling):
    """The token endpoints strip white space and the forms also fold full-width letters (NFKC):
    every spelling that reaches one account counts as that account."""
    rates(auth_account="3/min")
    assert token("wrong", "198.51.100.1", username=spelling) == 400
    assert admin_login("wrong", "198.51.100.2", username=spelling) == (200, False)
    assert token("wrong", "198.51.100.3", username=spelling) == 400
    assert token(PASSWORD, "198.51.100.99") == 429
    assert admin_login(PASSWORD, "198.51.100.98") == (429, False)


@pytest.mark.parametrize("spelling", ["alıce", "ALİCE", "Alice", "ａｌｉｃｅ"])
def test_every_spelling_that_reaches_an_account_counts_as_that_account(db, rates, clock, spelling):
    """The count names the account sign-in finds, not a folding of its own: the database
    compares case its own way (a dotless ı is I there, and not to Python's casefold), and a
    spelling it matches must not get a count of its own past the account's limit."""
    from accounts import usernames

    alice = get_user_model().objects.create_user("alice", password=PASSWORD)
    rates(auth_account="2/hour")
    assert [token("wrong", f"198.51.100.{i}", username="alice") for i in (1, 2)] == [400, 400]
    reaches = usernames.find(get_user_model().objects.all(), spelling) == alice
    # the right password, under a spelling: refused while the account is locked, if it reaches
    # the account at all (else it signs in to no account)
    assert token(PASSWORD, "198.51.100.9", username=spelling) == (429 if reaches else 400)


def test_a_wrong_password_is_checked_once(db, monkeypatch):
    """The backend that finds a username in any case decides alone: Django's own, listed after
    it for the sessions it signed in before, never checks the same password a second time."""
    user_model = get_user_model()
    user_model.objects.create_user("alice", password=PASSWORD)
    checked = []
    check = user_model.check_password
    monkeypatch.setattr(
        user_model, "check_password", lambda user, raw: checked.append(raw) or check(user, raw)
    )
    assert token("wrong", "198.51.100.1", username="alice") == 400
    assert checked == ["wrong"]


def test_a_session_signed_in_before_the_any_case_backend_stays_signed_in(db):
    """Django keeps the backend's path in the session, and drops a session whose backend is no
    longer listed: every phone signed in before would have been signed out by the upgrade."""
    alice = get_user_model().objects.create_user("alice", password=PASSWORD)
    client = Client()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get("/api/v1/auth/tokens/", secure=True).status_code == 200


@pytest.mark.parametrize(
    ("language", "said"),
    [("pt", "e uma palavra-passe corretos"), ("fr", "et un mot de passe valides")],
)
def test_a_wrong_password_is_refused_in_the_pages_language(staff, language, said):
    """Django's Portuguese sentence wrote "password" beside the form's "Palavra-passe"."""
    answer = Client().post(
        "/sign-in/",
        {"username": "staff", "password": "wrong"},
        HTTP_ACCEPT_LANGUAGE=language,
        REMOTE_ADDR="198.51.100.3",
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert said in page and "e password corretos" not in page

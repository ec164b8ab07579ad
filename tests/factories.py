"""Factories for the whole suite, in one module: people, clubs' matches, hands and live hands.

Tests import what they build from here; conftest files only declare fixtures (built from these).

- People and the API: ``make_user`` (password ``<username>-pw-1234``), ``client_for`` (an API
  client signed in as a user), ``start_match`` and ``record`` (through the API, as a client
  would), ``create_match`` and ``record_hand`` (the service, then the API: for browser tests).
- Hands entered whole: ``went_out``, ``full_packs``, ``whole_pack_out``, with their nets
  worked out by hand from the card values (Q♠ 50, A 20, 2 20, K Q J 10 9 8 = 10,
  7 6 5 4 3 = 5).
- A hand played live: ``ann_goes_out`` and ``finish`` (Ann deals, Ben and Cleo draw and
  discard, Ann goes out).
- Webhooks: ``work`` runs the queued tasks that are due, as the worker would.
- Rows a whole module shares: ``shared_rows`` builds them once, in a transaction that each
  test's own runs inside (as a savepoint), and rolls them back after the module's last test.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test.utils import override_settings
from rest_framework.test import APIClient

PASSWORD = "{username}-pw-1234"


# --- people and the API -----------------------------------------------------------------------


def make_user(username: str):
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD.format(username=username)
    )


# Hashing test passwords cheaply: the real hasher costs most of a test's setup.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@contextlib.contextmanager
def shared_rows(django_db_blocker) -> Iterator[None]:
    """Rows built once for a module (in the ``with`` block before the fixture's ``yield``).

    They live in a transaction left open until the module is done: each test's own transaction
    (``db``) is a savepoint inside it, so every test meets the same rows and leaves them as it
    found them, and the last one's teardown rolls them all back. For as long, passwords are
    hashed cheaply (MD5), so that the users made here can sign in during the tests, and the
    test client speaks plain HTTP (production settings would redirect it to HTTPS).
    """
    overrides = override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS, SECURE_SSL_REDIRECT=False)
    overrides.enable()
    atomic = transaction.atomic()
    try:
        with django_db_blocker.unblock():
            atomic.__enter__()
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
        overrides.disable()


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def start_match(client: APIClient, club, players, **extra) -> dict:
    """A match started through the API; its JSON."""
    response = client.post(
        "/api/v1/matches/",
        {"club": club.pk, "players": [p.pk for p in players], **extra},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def record(client: APIClient, match_id: int, body: dict, **headers):
    """POST a hand; the response, whatever it is."""
    return client.post(f"/api/v1/matches/{match_id}/hands/", body, format="json", **headers)


def correct(client: APIClient, match_id: int, number: int, body: dict):
    """PUT a correction of hand ``number`` over whatever version it is at (If-Match: *); the
    response, whatever it is."""
    url = f"/api/v1/matches/{match_id}/hands/{number}/"
    return client.put(url, body, format="json", HTTP_IF_MATCH="*")


def create_match(club, players, *, user, season=None, table=""):
    """A match started through the service, as the API would (seats in the order given)."""
    from matches.services import matches as match_services

    return match_services.match_create(
        club=club,
        players=[player.pk for player in players],
        user=user,
        season=None if season is None else season.pk,
        table=table,
    )


def record_hand(match, body: dict, *, user) -> dict[str, Any]:
    """Record a hand through the API's own client, as a scorekeeper's app would; its JSON."""
    response = client_for(user).post(f"/api/v1/matches/{match.pk}/hands/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


# --- hands entered whole ----------------------------------------------------------------------
# Legal hands for tests, with nets worked out by hand from the card values.
# Card values: Q♠ 50, A 20, 2 20, K Q J 10 9 8 = 10, 7 6 5 4 3 = 5.

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]

# The player who goes out: 13 cards melded, 80 + 60 + 30 + 70 = 240, plus the bonus: net 340.
WINNER = {
    "melds": [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]],
    "hand": [],
}
WINNER_NET = 340

# The others: a 15-point run melded, 80 points held: net -65 each. Seats 3 and 4 use the
# second pack's copies of seats 1 and 2's held cards.
_LOSER_HELD = [
    ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"],
    ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"],
]
_LOSER_RUNS = [["5D", "6D", "7D"], ["5C", "6C", "7C"], ["5H", "6H", "7H"], ["5S", "6S", "7S"]]
LOSER_NET = -65


def went_out(winner: int, players: list[int]) -> dict[str, object]:
    """A hand in which ``winner`` goes out (+340) and every other player scores -65."""
    results = []
    others = 0
    for player in players:
        if player == winner:
            results.append({"player": player, **WINNER})
        else:
            results.append(
                {"player": player, "melds": [_LOSER_RUNS[others]], "hand": _LOSER_HELD[others % 2]}
            )
            others += 1
    return copy.deepcopy({"ending": "went_out", "went_out": winner, "results": results})


def _pack_melds(holding: str) -> list[list[str]]:
    """One whole pack melded as thirteen sets of a rank, less the card held."""
    melds = []
    for rank in RANKS:
        meld = [rank + suit for suit in SUITS if rank + suit != holding]
        melds.append(meld)
    return melds


PACK_POINTS = 540  # the 52 cards of one pack added up


def full_packs(
    first: int, second: int, *, first_holds: str = "3C", second_holds: str = "3C"
) -> dict[str, object]:
    """Stock exhausted: each of two players melds a whole pack but the one card they hold.

    Net = 540 - 2 x (the held card's value): holding 3C gives 530, KC 520, QS 440.
    """
    return {
        "ending": "stock_exhausted",
        "went_out": None,
        "results": [
            {"player": first, "melds": _pack_melds(first_holds), "hand": [first_holds]},
            {"player": second, "melds": _pack_melds(second_holds), "hand": [second_holds]},
        ],
    }


def whole_pack_out(winner: int, other: int) -> dict[str, object]:
    """``winner`` melds a whole pack and goes out (540 + 100 = 640); ``other`` holds 13 cards
    of the second pack, 90 points, melding nothing (-90)."""
    held = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "KC", "3D", "4D", "5D"]
    return {
        "ending": "went_out",
        "went_out": winner,
        "results": [
            {"player": winner, "melds": _pack_melds(holding=""), "hand": []},
            {"player": other, "melds": [], "hand": held},
        ],
    }


# --- a hand played live -----------------------------------------------------------------------
# A hand played live for tests: Ann deals, Ben and Cleo draw and discard, Ann goes out.
# Nets worked out by hand: Ann melds 8D 8C 2C=8H (30) and four sets of three (15 each) and goes
# out: 190. Ben holds BEN_13 (125): -125. Cleo holds CLEO_13 (140): -140.

BEN_13 = ["2D", "4H", "KC", "KD", "KH", "JC", "JD", "JH", "10C", "10D", "10H", "6C", "6D"]
CLEO_13 = ["AC", "AD", "AH", "QC", "QD", "QH", "9D", "9H", "9S", "6H", "6S", "5S", "3S"]
NETS = (190, -125, -140)


def ann_goes_out(ann: int, ben: int, cleo: int) -> list[dict]:
    """The events of the hand, with the 7H turned up and Ann dealing (Ben plays first)."""
    return [
        {"type": "draw", "player": ben},
        {"type": "discard", "player": ben, "card": "9C"},
        {"type": "draw", "player": cleo},
        {"type": "discard", "player": cleo, "card": "8D"},
        {"type": "take_pile", "player": ann, "meld": ["8D", "8C", "2C=8H"]},
        {"type": "meld", "player": ann, "cards": ["3C", "3D", "3H"]},
        {"type": "meld", "player": ann, "cards": ["4C", "4D", "4H"]},
        {"type": "meld", "player": ann, "cards": ["5C", "5D", "5H"]},
        {"type": "meld", "player": ann, "cards": ["7H", "7D", "7C"]},
        {"type": "discard", "player": ann, "card": "9C"},
    ]


def finish(ben: int, cleo: int) -> dict:
    return {"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}}


# --- webhooks ---------------------------------------------------------------------------------


def work() -> None:
    """Run the queued tasks that are due, as `python manage.py worker --batch` does."""
    from django.core.management import call_command

    call_command("worker", batch=True, startup_delay=False, reload=False, verbosity=0)


def empty_caches() -> None:
    """Every cache emptied: the shared one and each process's own copies (settings.CACHES)."""
    from django.conf import settings
    from django.core.cache import caches

    for alias in settings.CACHES:
        caches[alias].clear()

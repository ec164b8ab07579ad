"""Who may call what, for every operation of the OpenAPI document, proven request by request.

The operations come from the document the API serves, not from a hand-kept list: an operation
the rule table below does not classify fails the suite. Two clubs, Alice's and Bob's, each
have an owner, a scorekeeper, a viewer, a roster, a season and a match with a recorded hand.
Each operation is called on each club by each kind of caller:

- anonymous: 401 everywhere but the public operations (rulings, token), which answer 200;
- outsider (the other club's owner): 404 for the club's objects, 400 for creating in the club,
  never a 2xx on them, and never one of the club's ids in a list;
- viewer: reads 2xx, writes 403; scorekeeper: scoring 2xx, managing 403; owner: all 2xx.

Whatever the answer, the other club's rows are the same before and after; a refused request
changes no row at all.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.api import openapi
from tests.factories import shared_rows
from tests.matches import endpoints
from tests.matches.endpoints import World

PUBLIC = "public"  # no login: the rulings and the token exchange
ANY_USER = "any user"  # any signed-in user, for themselves (creating a club)
LIST = "list"  # any signed-in user; shows only the caller's clubs' objects
READ = "read"  # any member of the club
SCORE = "score"  # scorekeepers and owners of the club
MANAGE = "manage"  # owners of the club
# The caller's own account (device tokens): no club's rows; tests/api/test_device_tokens.py
# proves that nobody reaches another user's tokens.
ACCOUNT = "account"
# Reached by an invitation's code, not by club role: tests/matches/test_invitations_api.py.
CODE = "code"

CONFIRM = "POST /api/v1/matches/{match_pk}/hands/{number}/confirmations/"
# Without Redis (these tests), a caller the stream admits gets its 503 instead of the stream:
# the rules are checked before that (tests/matches/test_live_stream.py watches real streams).
STREAM = "GET /api/v1/matches/{match_pk}/live/stream/"

RULES = {
    "POST /api/v1/auth/token/": PUBLIC,
    "POST /api/v1/auth/tokens/": ACCOUNT,
    "GET /api/v1/auth/tokens/": ACCOUNT,
    "GET /api/v1/auth/tokens/{id}/": ACCOUNT,
    "DELETE /api/v1/auth/tokens/{id}/": ACCOUNT,
    "POST /api/v1/auth/logout/": ACCOUNT,
    "GET /api/v1/clubs/{id}/invitations/": MANAGE,
    "POST /api/v1/clubs/{id}/invitations/": MANAGE,
    "GET /api/v1/clubs/{id}/invitations/{invitation}/": MANAGE,
    "DELETE /api/v1/clubs/{id}/invitations/{invitation}/": MANAGE,
    "GET /api/v1/invitations/": ACCOUNT,
    "GET /api/v1/invitations/{code}/": CODE,
    "DELETE /api/v1/invitations/{code}/": CODE,
    "POST /api/v1/invitations/{code}/accept/": CODE,
    "POST /api/v1/invitations/{code}/signup/": CODE,
    "POST /api/v1/rulings/meld/": PUBLIC,
    "POST /api/v1/rulings/hand/": PUBLIC,
    "POST /api/v1/rulings/discard/": PUBLIC,
    "POST /api/v1/rulings/take-discards/": PUBLIC,
    "POST /api/v1/rulings/extend/": PUBLIC,
    "POST /api/v1/rulings/rummy/meld/": PUBLIC,
    "POST /api/v1/rulings/rummy/hand/": PUBLIC,
    "POST /api/v1/rulings/rummy/lay-off/": PUBLIC,
    "POST /api/v1/rulings/rummy/discard/": PUBLIC,
    "GET /api/v1/rulesets/": PUBLIC,
    "GET /api/v1/rulesets/{name}/": PUBLIC,
    **{
        f"POST /api/v1/rulings/{{ruleset}}/{name}/": PUBLIC
        for name in ("meld", "hand", "discard", "take-discards", "extend", "lay-off")
    },
    "GET /api/v1/clubs/": LIST,
    "POST /api/v1/clubs/": ANY_USER,
    "GET /api/v1/clubs/{id}/": READ,
    "PUT /api/v1/clubs/{id}/": MANAGE,
    "PATCH /api/v1/clubs/{id}/": MANAGE,
    "GET /api/v1/clubs/{id}/members/": READ,
    "POST /api/v1/clubs/{id}/members/": MANAGE,
    "DELETE /api/v1/clubs/{id}/members/{username}/": MANAGE,
    "GET /api/v1/clubs/{id}/standings/": READ,
    "GET /api/v1/clubs/{id}/standings/csv/": READ,
    "GET /api/v1/players/": LIST,
    "POST /api/v1/players/": SCORE,
    "GET /api/v1/players/{id}/": READ,
    "PUT /api/v1/players/{id}/": SCORE,
    "PATCH /api/v1/players/{id}/": SCORE,
    "GET /api/v1/players/{id}/matches/": READ,
    "GET /api/v1/seasons/": LIST,
    "POST /api/v1/seasons/": MANAGE,
    "GET /api/v1/seasons/{id}/": READ,
    "PUT /api/v1/seasons/{id}/": MANAGE,
    "PATCH /api/v1/seasons/{id}/": MANAGE,
    "GET /api/v1/seasons/{id}/standings/": READ,
    "GET /api/v1/seasons/{id}/standings/csv/": READ,
    "GET /api/v1/matches/": LIST,
    "POST /api/v1/matches/": SCORE,
    "GET /api/v1/matches/{id}/": READ,
    "GET /api/v1/matches/{match_pk}/hands/": READ,
    "POST /api/v1/matches/{match_pk}/hands/": SCORE,
    "GET /api/v1/matches/{match_pk}/hands/{number}/": READ,
    "PUT /api/v1/matches/{match_pk}/hands/{number}/": SCORE,
    "DELETE /api/v1/matches/{match_pk}/hands/{number}/": SCORE,
    "GET /api/v1/matches/{match_pk}/hands/{number}/revisions/": READ,
    "GET /api/v1/matches/{match_pk}/hands/{number}/draft/": READ,
    "DELETE /api/v1/matches/{match_pk}/hands/{number}/draft/": SCORE,
    "PUT /api/v1/matches/{match_pk}/hands/{number}/draft/ending/": SCORE,
    "PUT /api/v1/matches/{match_pk}/hands/{number}/draft/players/{player}/": SCORE,
    "PUT /api/v1/matches/{match_pk}/hands/{number}/draft/players/{player}/contest/": SCORE,
    "DELETE /api/v1/matches/{match_pk}/hands/{number}/draft/players/{player}/contest/": SCORE,
    # any member confirms a hand (the players at a table are often viewers)
    CONFIRM: READ,
    "GET /api/v1/matches/{match_pk}/hands/{number}/live/": READ,
    "GET /api/v1/matches/{match_pk}/live/": READ,
    "GET /api/v1/matches/{match_pk}/live/stream/": READ,
    "POST /api/v1/matches/{match_pk}/live/stream-ticket/": READ,
    "POST /api/v1/matches/{match_pk}/live/": SCORE,
    "DELETE /api/v1/matches/{match_pk}/live/": SCORE,
    "POST /api/v1/matches/{match_pk}/live/events/": SCORE,
    "DELETE /api/v1/matches/{match_pk}/live/events/last/": SCORE,
    "GET /api/v1/clubs/{id}/ratings/": READ,
    "GET /api/v1/players/{id}/ratings/": READ,
    "GET /api/v1/tournaments/": LIST,
    "POST /api/v1/tournaments/": SCORE,
    "GET /api/v1/tournaments/{id}/": READ,
    "GET /api/v1/tournaments/{id}/rounds/": READ,
    "POST /api/v1/tournaments/{id}/rounds/": SCORE,
    "GET /api/v1/tournaments/{id}/leaderboard/": READ,
    "GET /api/v1/tournaments/{id}/leaderboard/csv/": READ,
    "GET /api/v1/tournaments/{id}/rounds/{number}/": READ,
    "DELETE /api/v1/tournaments/{id}/rounds/{number}/": SCORE,
    "GET /api/v1/tournaments/{id}/entrants/": READ,
    "POST /api/v1/tournaments/{id}/entrants/": SCORE,
    "GET /api/v1/tournaments/{id}/entrants/{player}/": READ,
    "DELETE /api/v1/tournaments/{id}/entrants/{player}/": SCORE,
    "GET /api/v1/tournaments/{id}/board/": READ,
    "GET /api/v1/clubs/{id}/public-links/": MANAGE,
    "POST /api/v1/clubs/{id}/public-links/": MANAGE,
    "DELETE /api/v1/clubs/{id}/public-links/{link_pk}/": MANAGE,
    "GET /api/v1/clubs/{id}/events/": READ,
    "GET /api/v1/clubs/{id}/webhooks/": MANAGE,
    "POST /api/v1/clubs/{id}/webhooks/": MANAGE,
    "GET /api/v1/clubs/{id}/webhooks/{webhook_pk}/": MANAGE,
    "PATCH /api/v1/clubs/{id}/webhooks/{webhook_pk}/": MANAGE,
    "DELETE /api/v1/clubs/{id}/webhooks/{webhook_pk}/": MANAGE,
    "POST /api/v1/clubs/{id}/webhooks/{webhook_pk}/rotate-secret/": MANAGE,
    "POST /api/v1/clubs/{id}/webhooks/{webhook_pk}/test/": MANAGE,
    "GET /api/v1/clubs/{id}/webhooks/{webhook_pk}/deliveries/": MANAGE,
    "POST /api/v1/clubs/{id}/webhooks/{webhook_pk}/deliveries/{delivery_pk}/redeliver/": MANAGE,
}

CALLERS = ["anonymous", "outsider", "viewer", "scorekeeper", "owner"]
MAY_WRITE = {SCORE: {"scorekeeper", "owner"}, MANAGE: {"owner"}}
OPERATIONS = [f"{method.upper()} {path}" for path, method, _ in openapi.operations()]
CLUB_OPERATIONS = [label for label in OPERATIONS if RULES.get(label) not in (ACCOUNT, CODE)]

# Where each table of the matches app keeps its club, so that a club's rows can be compared.
CLUB_OF_ROW = {
    "Club": "pk",
    "Membership": "club",
    "Player": "club",
    "Season": "club",
    "Match": "club",
    "Seat": "match__club",
    "Hand": "match__club",
    "HandResult": "hand__match__club",
    "HandRevision": "match__club",
    "HandConfirmation": "hand__match__club",
    "HandDraftPart": "match__club",
    "IdempotencyRecord": "match__club",
    "Invitation": "club",
    "LiveHand": "match__club",
    "LiveEvent": "live__match__club",
    "Event": "club",
}


def test_every_operation_of_the_schema_is_classified():
    assert set(OPERATIONS) - set(RULES) == set(), "classify the new operations in RULES"
    assert set(RULES) - set(OPERATIONS) == set(), "these operations left the schema"


def test_every_table_says_where_its_club_is():
    models = {model.__name__ for model in apps.get_app_config("matches").get_models()}
    assert models == set(CLUB_OF_ROW)


def club_querysets(club_id: int) -> dict[str, Any]:
    """Every table's rows that belong to a club, as a queryset a table."""
    matches = apps.get_app_config("matches")
    return {
        name: matches.get_model(name).objects.filter(**{path: club_id}).order_by("pk").values()
        for name, path in CLUB_OF_ROW.items()
    }


@functools.cache
def club_rows_query(club_id: int) -> tuple[str, tuple[Any, ...]]:
    """The one PostgreSQL statement of :func:`rows_of` and its parameters: built once per club,
    since the statement depends on nothing but the club's id."""
    columns, params = [], []
    for queryset in club_querysets(club_id).values():
        sql, values = queryset.query.sql_with_params()
        pk = connection.ops.quote_name(queryset.model._meta.pk.column)
        columns.append(f"(SELECT json_agg(t ORDER BY t.{pk})::text FROM ({sql}) t)")
        params.extend(values)
    return "SELECT " + ", ".join(columns), tuple(params)


def rows_of(club_id: int) -> dict[str, Any]:
    """Every row that belongs to a club, table by table: one query for all of them.

    The matrix compares these before and after each of its several hundred requests, so the
    tables are read in one round trip (on PostgreSQL, each table's rows as a JSON array).
    """
    if connection.vendor != "postgresql":
        return {name: list(rows) for name, rows in club_querysets(club_id).items()}
    sql, params = club_rows_query(club_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(zip(CLUB_OF_ROW, cursor.fetchone(), strict=True))


@dataclass
class Clubs:
    """Alice's and Bob's clubs, each with an owner, a scorekeeper and a viewer."""

    worlds: dict[str, World]  # "alice" or "bob" -> that club's world
    staff: dict[str, dict[str, str]]  # "alice" or "bob" -> role -> username
    tokens: dict[str, dict[str, str]]  # username -> the Authorization header of their token

    def other(self, name: str) -> str:
        return "bob" if name == "alice" else "alice"

    def username(self, name: str, caller: str) -> str | None:
        """Who ``caller`` is for the club of ``name``: the outsider owns the other club."""
        if caller == "anonymous":
            return None
        if caller == "outsider":
            return self.staff[self.other(name)]["owner"]
        return self.staff[name][caller]


@pytest.fixture(scope="module")
def _clubs(django_db_setup, django_db_blocker) -> Iterator[Clubs]:
    """Both clubs, built once for the module (each test's requests are rolled back)."""
    with shared_rows(django_db_blocker):
        with django_db_blocker.unblock():
            staff = {"alice": ("carol", "victor"), "bob": ("sam", "wendy")}
            worlds = {
                owner: openapi.build_world(owner, scorekeeper=keeper, viewer=viewer)
                for owner, (keeper, viewer) in staff.items()
            }
            get_user_model().objects.create_user(username="newcomer", password="newcomer-pw-1234")
            tokens = {
                user.username: openapi.token_for(user) for user in get_user_model().objects.all()
            }
        yield Clubs(
            worlds=worlds,
            staff={
                owner: {"owner": owner, "scorekeeper": keeper, "viewer": viewer}
                for owner, (keeper, viewer) in staff.items()
            },
            tokens=tokens,
        )


@pytest.fixture
def clubs(_clubs, db, settings) -> Clubs:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True  # a webhook registered on this machine
    return _clubs


def client_as(clubs: Clubs, username: str | None) -> APIClient:
    """A client signed in with the user's API token (made with the clubs), or anonymous."""
    client = APIClient()
    if username is not None:
        client.credentials(**{"HTTP_" + k.upper(): v for k, v in clubs.tokens[username].items()})
    return client


def request_example(operation: dict[str, Any]) -> Any:
    """The request body the document itself shows, if it shows one."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    for example in content.get("examples", {}).values():
        return example["value"]
    return None


def body_for(label: str, operation: dict[str, Any], url: str, club: World, owner: str) -> Any:
    """A request body that the right caller gets accepted: a valid one, for the target club."""
    own = {
        "POST /api/v1/auth/token/": {"username": owner, "password": f"{owner}-pw-1234"},
        "POST /api/v1/clubs/": {"name": "A new club"},
        "POST /api/v1/clubs/{id}/members/": {"user": "newcomer", "role": "scorekeeper"},
        "POST /api/v1/clubs/{id}/invitations/": {"role": "scorekeeper", "max_uses": 2},
        "POST /api/v1/tournaments/": {
            "club": club.club.pk,
            "name": "Tuesday night",
            "players": [p.pk for p in club.players],
        },
        "POST /api/v1/tournaments/{id}/rounds/": {"seating": "random"},
        "POST /api/v1/clubs/{id}/public-links/": {"scope": "standings"},
        "POST /api/v1/clubs/{id}/webhooks/": {
            "url": "http://127.0.0.1:18859/hooks",
            "events": ["hand.recorded"],
        },
    }
    if label in own:
        return own[label]
    if label == "POST /api/v1/tournaments/{id}/entrants/":  # a late arrival on the roster
        return {
            "player": apps.get_model("matches", "Player")
            .objects.create(club=club.club, name="Late arrival")
            .pk
        }
    live = {  # the world's live hand: its first player (the third seat) has drawn
        "POST /api/v1/matches/{match_pk}/live/": {"turned_up": "KD"},
        "POST /api/v1/matches/{match_pk}/live/events/": {
            "type": "discard",
            "player": club.seated[2],
            "card": "9C",
        },
    }
    if label in live:
        return live[label]
    if (example := request_example(operation)) is not None:
        return example
    method = label.split()[0].lower()
    for endpoint in endpoints.ALL:
        if endpoint.method == method and endpoint.url(club) == url:
            return None if endpoint.body is None else endpoint.body(club)
    return None


def ids_in(answer: Any) -> set[int]:
    """The ids of the rows of a paginated list."""
    return {row["id"] for row in answer["results"]}


def ids_of_club(path: str, club: World) -> set[int]:
    """The ids a list at ``path`` would show of this club."""
    collection = path.removeprefix("/api/v1/").strip("/")
    matches = apps.get_app_config("matches")
    if collection == "clubs":
        return {club.club.pk}
    if collection == "tournaments":
        tournaments = apps.get_model("clubnight", "Tournament").objects.filter(club=club.club)
        return set(tournaments.values_list("pk", flat=True))
    model = {"players": "Player", "seasons": "Season", "matches": "Match"}[collection]
    return set(matches.get_model(model).objects.filter(club=club.club).values_list("pk", flat=True))


def expected_statuses(rule: str, caller: str, addressed: bool) -> set[int]:
    """What ``caller`` gets from an operation of ``rule`` on a club's objects.

    ``addressed``: the club's object is in the path; otherwise the club is named in the body.
    """
    ok = {200, 201, 202, 204}
    if rule == PUBLIC:
        return {200}
    if caller == "anonymous":
        return {401}
    if rule in (LIST, ANY_USER):
        return ok
    if caller == "outsider":
        return {404} if addressed else {400}
    if rule == READ or caller in MAY_WRITE[rule]:
        return ok
    return {403}


def call(label: str, target: str, caller: str, clubs: Clubs) -> list[str]:
    """Call ``label`` on the club of ``target`` as ``caller``: what went against the rules."""
    method, path = label.split(" ", 1)
    operation = openapi.operation(path, method.lower())
    club, other = clubs.worlds[target], clubs.worlds[clubs.other(target)]
    staff = clubs.staff[target]
    url = path.format(**openapi.path_values(path, club, member=staff["viewer"]))
    body = body_for(label, operation, url, club, staff["owner"])
    client = client_as(clubs, clubs.username(target, caller))
    headers = {}
    if method == "PUT" and "/hands/" in path and "/draft/" not in path:  # a correction names
        # the version it corrects (a draft's part names its version in the body)
        read = client_as(clubs, staff["owner"]).get(url)
        headers = {"HTTP_IF_MATCH": read["ETag"]} if read.has_header("ETag") else {}
    if "/live/" in path and method in ("POST", "DELETE"):  # a live write names the state
        live_url = f"/api/v1/matches/{club.match}/live/"
        if path.endswith("/live/") and method == "POST":  # starting needs no hand in play
            assert client_as(clubs, staff["owner"]).delete(live_url).status_code == 204
        read = client_as(clubs, staff["owner"]).get(live_url)
        headers = {"HTTP_IF_MATCH": read["ETag"]} if read.has_header("ETag") else {}
    # a live hand in play holds its number: no hand recorded, no draft written or thrown away
    contest = path.endswith("/contest/")
    if (
        (path.endswith("/hands/") and method == "POST")
        or ("/draft/" in path and method in ("PUT", "DELETE"))
        or contest
    ):
        live_url = f"/api/v1/matches/{club.match}/live/"
        assert client_as(clubs, staff["owner"]).delete(live_url).status_code == 204
    if contest:  # a version offered beside a part differs from the part as written: write it
        owner = client_as(clubs, staff["owner"])
        part_url = url.removesuffix("contest/")
        player = int(part_url.rstrip("/").rsplit("/", 1)[-1])
        draft = owner.get(part_url.split("/players/")[0] + "/").json()
        seen = next((p["version"] for p in draft["players"] if p["player"] == player), 0)
        written = owner.put(part_url, {"hand": ["4H"], "version": seen}, format="json")
        assert written.status_code == 200, written.json()
        body = {"melds": [["5H", "6H", "7H"]], "hand": [], "version": seen + 1}
    if "/rounds/{number}/" in path:  # a round of the night to read or undo
        from clubnight.models import Tournament
        from clubnight.tournaments import round_draw

        night = Tournament.objects.get(pk=openapi.tournament_of(club))
        round_draw(tournament=night, user=night.created_by)
    before = {"club": rows_of(club.club.pk), "other": rows_of(other.club.pk)}

    response = getattr(client, method.lower())(url, body, format="json", **headers)

    wrong = []
    expected = expected_statuses(RULES[label], caller, addressed="{" in path)
    if label == CONFIRM and caller == "owner":  # let in by the role, refused as the hand's author
        expected = {409}
    if label == STREAM and expected <= {200, 201, 202, 204}:
        expected = {503}
    if response.status_code not in expected:
        wrong.append(
            f"answered {response.status_code}, not {sorted(expected)}: {response.content[:300]!r}"
        )
    if rows_of(other.club.pk) != before["other"]:
        wrong.append("changed another club's rows")
    if response.status_code >= 400 and rows_of(club.club.pk) != before["club"]:
        wrong.append("was refused but changed a row")
    if RULES[label] == LIST and caller != "anonymous":
        foreign = club if caller == "outsider" else other
        hidden = ids_of_club(path, foreign)
        if not ids_in(response.json()).isdisjoint(hidden):
            wrong.append("listed another club's rows")
        if path != "/api/v1/clubs/":
            # Filtering by another club's id answers as an unknown id does: 400, no rows.
            filtered = client.get(url, {"club": foreign.club.pk})
            if filtered.status_code != 400:
                wrong.append(f"filtered by another club's id, answered {filtered.status_code}")
    return wrong


@pytest.mark.parametrize("target", ["alice", "bob"], ids=lambda name: f"{name}'s club")
@pytest.mark.parametrize("label", CLUB_OPERATIONS)
def test_each_caller_gets_what_the_rule_table_says(label, target, clubs):
    """Each caller in turn, each request rolled back, so that every caller meets the same club."""
    assert label in RULES, f"{label} is not classified in RULES"
    wrong = {}
    for caller in CALLERS:
        with transaction.atomic():
            if found := call(label, target, caller, clubs):
                wrong[caller] = found
            transaction.set_rollback(True)
    assert not wrong, "\n".join(f"{caller}: {'; '.join(found)}" for caller, found in wrong.items())

"""Every endpoint of the matches API that touches a club's objects, as data for parametrized tests.

A row is (name, method, url builder, body builder); both builders take the `World` of the
club under test, so no test ever names a primary key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model

from matches.models import (
    Club,
    Hand,
    HandDraftPart,
    HandResult,
    HandRevision,
    IdempotencyRecord,
    Invitation,
    Match,
    Membership,
    Player,
    Season,
    Seat,
)
from tests.factories import went_out

API = "/api/v1"


@dataclass(frozen=True)
class World:
    """A club with its roster, a season, and a match of three players with one hand recorded."""

    club: Club
    players: list[Player]
    season: Season
    match: int
    seated: list[int]

    @property
    def player(self) -> Player:
        return self.players[0]


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    url: Callable[[World], str]
    body: Callable[[World], Any] | None = None
    headers: tuple[tuple[str, str], ...] = ()

    def call(self, client: Any, world: World) -> Any:
        body = None if self.body is None else self.body(world)
        extra = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in self.headers}
        return getattr(client, self.method)(self.url(world), body, format="json", **extra)

    def __str__(self) -> str:
        return self.name


def _hand(world: World) -> dict[str, Any]:
    return went_out(world.seated[1], world.seated)


def _match_body(world: World) -> dict[str, Any]:
    return {"club": world.club.pk, "players": [p.pk for p in world.players[:2]]}


def _hands(world: World) -> str:
    return f"{API}/matches/{world.match}/hands/"


READS = [
    Endpoint("club detail", "get", lambda w: f"{API}/clubs/{w.club.pk}/"),
    Endpoint("club members", "get", lambda w: f"{API}/clubs/{w.club.pk}/members/"),
    Endpoint("player detail", "get", lambda w: f"{API}/players/{w.player.pk}/"),
    Endpoint("season detail", "get", lambda w: f"{API}/seasons/{w.season.pk}/"),
    Endpoint("match detail", "get", lambda w: f"{API}/matches/{w.match}/"),
    Endpoint("hands list", "get", _hands),
    Endpoint("hand detail", "get", lambda w: f"{_hands(w)}1/"),
    Endpoint("hand revisions", "get", lambda w: f"{_hands(w)}1/revisions/"),
    Endpoint("hand draft", "get", lambda w: f"{_hands(w)}2/draft/"),
    Endpoint("club standings", "get", lambda w: f"{API}/clubs/{w.club.pk}/standings/"),
    Endpoint("season standings", "get", lambda w: f"{API}/seasons/{w.season.pk}/standings/"),
    Endpoint("player matches", "get", lambda w: f"{API}/players/{w.player.pk}/matches/"),
]

# Writes addressed to an object of the club (its id is in the URL).
OBJECT_WRITES = [
    Endpoint(
        "rename club",
        "patch",
        lambda w: f"{API}/clubs/{w.club.pk}/",
        lambda w: {"name": "Taken over"},
    ),
    Endpoint(
        "replace club",
        "put",
        lambda w: f"{API}/clubs/{w.club.pk}/",
        lambda w: {"name": "Taken over"},
    ),
    Endpoint(
        "add member",
        "post",
        lambda w: f"{API}/clubs/{w.club.pk}/members/",
        lambda w: {"user": "bob", "role": "owner"},
    ),
    Endpoint("remove member", "delete", lambda w: f"{API}/clubs/{w.club.pk}/members/victor/"),
    Endpoint(
        "rename player",
        "patch",
        lambda w: f"{API}/players/{w.player.pk}/",
        lambda w: {"name": "Renamed"},
    ),
    Endpoint(
        "replace player",
        "put",
        lambda w: f"{API}/players/{w.player.pk}/",
        lambda w: {"club": w.club.pk, "name": "Renamed"},
    ),
    Endpoint(
        "rename season",
        "patch",
        lambda w: f"{API}/seasons/{w.season.pk}/",
        lambda w: {"name": "Renamed"},
    ),
    Endpoint(
        "replace season",
        "put",
        lambda w: f"{API}/seasons/{w.season.pk}/",
        lambda w: {"club": w.club.pk, "name": "Renamed"},
    ),
    Endpoint("record hand", "post", _hands, _hand),
    Endpoint(
        "correct hand",
        "put",
        lambda w: f"{_hands(w)}1/",
        lambda w: {**_hand(w), "reason": "dispute"},
        headers=(("If-Match", "*"),),
    ),
    Endpoint("void hand", "delete", lambda w: f"{_hands(w)}1/"),
    Endpoint(
        "write draft ending",
        "put",
        lambda w: f"{_hands(w)}2/draft/ending/",
        lambda w: {"ending": "went_out", "went_out": w.seated[1], "version": 0},
    ),
    Endpoint(
        "write draft player",
        "put",
        lambda w: f"{_hands(w)}2/draft/players/{w.seated[1]}/",
        lambda w: {"melds": [["JS", "2D=QS", "KS"]], "hand": ["4H"], "version": 0},
    ),
]

# Writes that create something in the club named in the body.
CREATES = [
    Endpoint(
        "create player",
        "post",
        lambda w: f"{API}/players/",
        lambda w: {"club": w.club.pk, "name": "Newcomer"},
    ),
    Endpoint(
        "create season",
        "post",
        lambda w: f"{API}/seasons/",
        lambda w: {"club": w.club.pk, "name": "Autumn"},
    ),
    Endpoint("create match", "post", lambda w: f"{API}/matches/", _match_body),
]

LISTS = [
    Endpoint("clubs", "get", lambda w: f"{API}/clubs/"),
    Endpoint("players", "get", lambda w: f"{API}/players/"),
    Endpoint("seasons", "get", lambda w: f"{API}/seasons/"),
    Endpoint("matches", "get", lambda w: f"{API}/matches/"),
]

ALL = READS + OBJECT_WRITES + CREATES + LISTS

TABLES: list[type[Model]] = [
    Club,
    Membership,
    Player,
    Season,
    Match,
    Seat,
    Hand,
    HandResult,
    HandRevision,
    HandDraftPart,
    IdempotencyRecord,
    Invitation,
]


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every matches table, so a test can prove a request changed nothing."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in TABLES}

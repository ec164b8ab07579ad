"""The project's own OpenAPI document, generated in-process, and the worlds the schema tests call.

The document is what `/api/schema/` serves: drf-spectacular's generator over the URL conf,
rendered to JSON so that lazy translations and enums become plain values. It is built once per
test run; whoever asks gets a copy of their own (``document``, ``operation``, ``component``), so
a test that changes what it was given changes nobody else's. One parsed copy stays here for the
look-ups (the document is about 2.7 MB of JSON: parsing it takes a tenth of a second or more,
which the authorization matrix alone would otherwise pay hundreds of times).
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
from collections.abc import Iterator
from typing import Any

from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.plumbing import _load_enum_name_overrides
from drf_spectacular.renderers import OpenApiJsonRenderer
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.validation import validate_schema
from rest_framework.authtoken.models import Token

from matches.models import Hand, Membership, Player, Role, Season
from tests.factories import ann_goes_out, client_for, finish, make_user, start_match
from tests.matches.endpoints import World

METHODS = ("get", "put", "patch", "post", "delete")


def built() -> tuple[dict[str, Any], tuple[str, ...]]:
    """The document built now, from the games registered now, and what drf-spectacular warned
    of. drf-spectacular keeps the enum names of ``ENUM_NAME_OVERRIDES`` (the registered games
    among them) from one build to the next: they are read again, before and after, so that a
    test that registers a game changes no later document."""
    _load_enum_name_overrides.cache_clear()
    GENERATOR_STATS.reset()
    try:
        generator = spectacular_settings.DEFAULT_GENERATOR_CLASS()
        schema = generator.get_schema(request=None, public=True)
        return schema, (*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache)
    finally:
        _load_enum_name_overrides.cache_clear()


@functools.cache
def _rendered() -> tuple[bytes, tuple[str, ...]]:
    """The document as served, built once per run, and what drf-spectacular warned of."""
    schema, warnings = built()
    return OpenApiJsonRenderer().render(schema), warnings


@functools.cache
def _parsed() -> dict[str, Any]:
    """The one parsed document the look-ups below read; never handed out as it is."""
    parsed: dict[str, Any] = json.loads(_rendered()[0])
    return parsed


def generated() -> tuple[dict[str, Any], list[str]]:
    """A fresh copy of the document and its warnings: a test that changes its copy (Schemathesis
    fills in examples) changes no other test's."""
    rendered, warnings = _rendered()
    loaded: dict[str, Any] = json.loads(rendered)
    return loaded, list(warnings)


def document() -> dict[str, Any]:
    """The OpenAPI document of the API, as a client downloads it."""
    return generated()[0]


def checked_document() -> dict[str, Any]:
    """The document, as `manage.py spectacular --validate --fail-on-warn` would accept it."""
    loaded, warnings = generated()
    assert warnings == []
    validate_schema(loaded)
    return loaded


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of a copy of the document, in its order."""
    for path, item in document()["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def operation(path: str, method: str) -> dict[str, Any]:
    """A copy of one operation of the document: ``operation("/api/v1/clubs/", "post")``."""
    found: dict[str, Any] = copy.deepcopy(_parsed()["paths"][path][method])
    return found


def component(kind: str, name: str) -> dict[str, Any]:
    """A copy of one component: ``component("schemas", "Club")``."""
    found: dict[str, Any] = copy.deepcopy(_parsed()["components"][kind][name])
    return found


def resolved(node: dict[str, Any], document: dict[str, Any] | None = None) -> dict[str, Any]:
    """A node with its ``$ref`` followed: in the built document (a copy), or in ``document``
    (a schema as served, say)."""
    while "$ref" in node:
        _, _, kind, name = node["$ref"].split("/")
        node = component(kind, name) if document is None else document["components"][kind][name]
    return node


def declared_codes(path: str, method: str, status: int) -> set[str]:
    """The error codes the document lists for one answer of one operation, as a generated
    client with strict enums reads them: ``declared_codes("/api/v1/clubs/", "post", 409)``."""
    answer = resolved(operation(path, method)["responses"][str(status)])
    envelope = resolved(answer["content"]["application/json"]["schema"])
    item = resolved(envelope["properties"]["errors"]["items"])
    return set(resolved(item["properties"]["code"])["enum"])


def parameters_of(operation: dict[str, Any]) -> list[dict[str, Any]]:
    """An operation's parameters, a shared one (a ``$ref`` to a component) given as it is."""
    return [
        component("parameters", p["$ref"].rsplit("/", 1)[1]) if "$ref" in p else p
        for p in operation.get("parameters", [])
    ]


def token_for(user: Any) -> dict[str, str]:
    """The Authorization header of a user's API token."""
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


def device_token_of(user: Any) -> int:
    """The id of one of the user's device tokens, issued now if they have none."""
    from accounts.models import DeviceToken

    token = DeviceToken.objects.filter(user=user).first()
    if token is None:
        token, _key = DeviceToken.objects.create(user=user, name="schema tests")
    return int(token.pk)


def invitation_of(world: World) -> int:
    """The id of an invitation to the world's club, made now if it has none."""
    return int(_invitation(world).pk)


def code_of(world: World) -> str:
    return str(_invitation(world).code)


def _invitation(world: World) -> Any:
    from matches.models import Invitation

    found = Invitation.objects.filter(club=world.club, invitee__isnull=True).first()
    return found or Invitation.objects.create(
        club=world.club, role="viewer", created_by=world.club.created_by
    )


def tournament_of(world: World) -> int:
    """The id of a club night of the world's club, every player entered, no round drawn."""
    from clubnight.models import Tournament
    from clubnight.tournaments import tournament_create

    found = Tournament.objects.filter(club=world.club).first()
    return int(
        (
            found
            or tournament_create(
                club=world.club,
                name="Club night",
                players=[p.pk for p in world.players],
                user=world.club.created_by,
            )
        ).pk
    )


def public_link_of(world: World) -> int:
    """The id of a public link to the world's club's standings, made now if it has none."""
    from clubnight.models import PublicLink

    found = PublicLink.objects.filter(club=world.club).first()
    return int((found or PublicLink.objects.create(club=world.club, scope="standings")).pk)


def webhook_of(world: World) -> int:
    """The id of a webhook of the world's club, registered now if it has none."""
    from webhooks.models import Endpoint

    found = Endpoint.objects.filter(club=world.club).first()
    return int(
        (
            found
            or Endpoint.objects.create(
                club=world.club, url="http://127.0.0.1:18859/hooks", events=["hand.recorded"]
            )
        ).pk
    )


def delivery_of(world: World) -> int:
    """The id of a delivery to the world's webhook: a test message, queued now if none is."""
    from webhooks import services
    from webhooks.models import Delivery, Endpoint

    endpoint = Endpoint.objects.get(pk=webhook_of(world))
    found = Delivery.objects.filter(endpoint=endpoint).first()
    return int((found or services.test_send(endpoint=endpoint)).pk)


def build_world(
    owner: str, *, scorekeeper: str | None = None, viewer: str | None = None, club_name: str = ""
) -> World:
    """A club owned by ``owner`` with a roster, a season, and a match with one hand recorded.

    The hand is played live (its event log is kept), and the next hand is being played live:
    its first player has drawn.
    """
    from matches import live
    from matches.services import clubs as club_services
    from scoring import Card

    users = {"owner": make_user(owner)}
    club = club_services.club_create(
        name=club_name or f"{owner.title()}'s club", user=users["owner"]
    )
    for role, username in ((Role.SCOREKEEPER, scorekeeper), (Role.VIEWER, viewer)):
        if username:
            Membership.objects.create(club=club, user=make_user(username), role=role)
    roster = [
        Player.objects.create(club=club, name=f"{owner.title()} {name}")
        for name in ("Ann", "Ben", "Cleo", "Dev", "Eve")
    ]
    season = Season.objects.create(
        club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31)
    )
    owner_client = client_for(users["owner"])
    seated = [p.pk for p in roster[:3]]
    match = start_match(owner_client, club, roster[:3], season=season.pk)
    ann, ben, cleo = seated
    played = live.live_start(match_id=match["id"], turned_up=Card.parse("7H"), user=users["owner"])
    for event in [*ann_goes_out(ann, ben, cleo), finish(ben, cleo)]:
        live.live_append(
            match_id=match["id"],
            data=event,
            user=users["owner"],
            if_match=("*",),
        )
    assert Hand.objects.filter(match_id=match["id"], number=1, live=played).exists()
    live.live_start(match_id=match["id"], turned_up=Card.parse("KD"), user=users["owner"])
    live.live_append(
        match_id=match["id"],
        data={"type": "draw", "player": cleo},
        user=users["owner"],
        if_match=("*",),
    )
    return World(club=club, players=roster, season=season, match=match["id"], seated=seated)


def path_values(path: str, world: World, member: str) -> dict[str, Any]:
    """Path parameters that name the world's own objects: its club, player, season, match
    (a draft's: the next hand, the first seated player)."""
    collection = path.removeprefix("/api/v1/").split("/")[0]
    objects = {
        "clubs": world.club.pk,
        "players": world.player.pk,
        "seasons": world.season.pk,
        "matches": world.match,
    }
    if collection == "auth":  # the owner's own device token
        objects["auth"] = device_token_of(world.club.created_by)
    if collection == "tournaments":
        objects["tournaments"] = tournament_of(world)
    values: dict[str, Any] = {
        "match_pk": world.match,
        "number": 2 if "/draft/" in path else 1,  # a draft is of the next hand, hand 2
        "player": world.seated[0],
        "username": member,
        "invitation": invitation_of(world),
        "code": code_of(world),
        "name": "rummy",  # a game of GET rulesets/; rulings/{ruleset}/ by a game that has it
        "ruleset": "rummy" if path.endswith("/lay-off/") else "arlington",
    }
    if "{link_pk}" in path:
        values["link_pk"] = public_link_of(world)
    if "{webhook_pk}" in path:
        values["webhook_pk"] = webhook_of(world)
    if "{delivery_pk}" in path:
        values["delivery_pk"] = delivery_of(world)
    if "{id}" in path:
        values["id"] = objects[collection]
    return {name: value for name, value in values.items() if "{" + name + "}" in path}

"""Hostile input into every field of every operation of the OpenAPI document, as four people.

For each operation that takes a body or a path, query or header parameter, the test sends deep
nesting, lone surrogates, NUL bytes, overlong strings, huge and non-finite numbers and values of
the wrong type into every one of them (every leaf and container of a body built from its
schema), as the club's owner, a viewer, an outsider and anonymously. Every answer must be JSON
and a 4xx in the error envelope (never a 5xx, never HTML), and a refused request must leave the
database as it was: a fingerprint of every table's rows is compared around each write.

Some query parameters may answer 2xx to an odd value, since for them it is no error: free text
(the ``name`` and ``table`` filters find nothing, a void's ``reason`` is kept as written), a
list's ``ordering`` (unknown keys are ignored), and an id filter (``?player=-1`` finds no
match); so may an ``Idempotency-Key`` of printable ASCII, which is a valid key. Such an answer
must still be JSON (or an empty 204). Each request runs in a savepoint rolled back after it, so
every probe meets the same world.
"""

from __future__ import annotations

import copy
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.api import openapi
from tests.factories import shared_rows

pytestmark = pytest.mark.django_db

MARK = "\u2063hostile\u2063"  # a placeholder string, replaced by raw JSON text
DEPTH = 1000

# Raw JSON texts put in place of one value of a body.
HOSTILE_JSON = {
    "lone surrogate": json.dumps("5H\ud800"),
    "NUL": json.dumps("ali\u0000ce"),
    "overlong": json.dumps("Q" * 20_000),
    "huge integer": "1" + "0" * 400,
    "past bigint": "9223372036854775808",
    "1e999": "1e999",
    "NaN": "NaN",
    "object": '{"a": 1}',
    "list": "[1, [2]]",
    "boolean": "true",
    "deep": "[" * DEPTH + "]" * DEPTH,
}
# A number is read as its text by a text field (DRF's CharField): no error there.
AS_TEXT = {"past bigint"}
# Texts put in place of one path, query or header parameter (before percent-encoding).
HOSTILE_TEXT = {
    "NUL": "1\u0000",
    "overlong": "9" * 5_000,
    "past bigint": "9223372036854775808",
    "negative": "-1",
    "1e999": "1e999",
    "letters": "[[abc",
    "surrogate bytes": "%ED%A0%80",  # sent as is: UTF-8 of a lone surrogate, invalid
    "bad UTF-8": "%FF%FE",
}
LENIENT_QUERY = {"name", "table", "ordering", "reason", "player"}
# Documented but not read: a season's table is that season's whatever ?season= says.
IGNORED_QUERY = {("season", "/api/v1/seasons/{id}/standings/")}
TOLERANT = {"Accept-Language", "lang"}  # an unknown language falls back to English
# Any 1 to 255 printable ASCII characters make an Idempotency-Key ("-1" and "[[abc" too), so
# such a text may be answered as the request would be without it; any other text is a 400.
FREE_TEXT_HEADERS = {"Idempotency-Key"}


def lenient_header(name: str, text: str) -> bool:
    return name in FREE_TEXT_HEADERS and 0 < len(text) <= 255 and text.isprintable()


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its ``$ref`` (and a first ``allOf``/``oneOf`` branch) followed."""
    while True:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            schema = openapi.component("schemas", name)
        elif "allOf" in schema or "oneOf" in schema:
            schema = (schema.get("allOf") or schema["oneOf"])[0]
        else:
            return schema


def skeleton(schema: dict[str, Any]) -> Any:
    """A plain value of the schema's shape: one item per list, every writable property."""
    schema = resolve(schema)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {
            name: skeleton(prop)
            for name, prop in schema.get("properties", {}).items()
            if not resolve(prop).get("readOnly")
        }
    if kind == "array":
        return [skeleton(schema.get("items", {}))]
    if "enum" in schema:
        return next((value for value in schema["enum"] if value is not None), "x")
    return {"integer": 1, "number": 1, "boolean": True}.get(kind, "x")


def paths_in(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a value: each container and each leaf."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths_in(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths_in(child, (*prefix, index))


def value_at(body: Any, place: tuple[Any, ...]) -> Any:
    for step in place:
        body = body[step]
    return body


def with_hostile(body: Any, place: tuple[Any, ...], raw: str) -> str:
    """The body as JSON text, with the value at ``place`` replaced by raw JSON text."""
    marked = copy.deepcopy(body)
    target = marked
    for step in place[:-1]:
        target = target[step]
    target[place[-1]] = MARK
    return json.dumps(marked).replace(json.dumps(MARK), raw)


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, method, operation in openapi.operations()
        if "requestBody" in operation
        or any(
            p["in"] in {"path", "query", "header"} and p["name"] not in TOLERANT
            for p in openapi.parameters_of(operation)
        )
    ]


def fingerprint() -> str:
    """One digest of every row of every table the project's models keep."""
    parts = [
        f"(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) "
        f"FROM {connection.ops.quote_name(model._meta.db_table)} t)"
        for model in apps.get_models()
    ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + " || ".join(parts))
        return str(cursor.fetchone()[0])


@pytest.fixture(scope="module")
def _worlds(django_db_setup, django_db_blocker) -> Iterator[tuple[Any, dict[str, dict[str, str]]]]:
    """Alice's club (Victor watches) and Bob's, with the tokens of the three, built once for the
    module: each test's requests are rolled back, so every test meets the same rows."""
    with shared_rows(django_db_blocker):
        with django_db_blocker.unblock():
            world = openapi.build_world("alice", viewer="victor")
            bobs = openapi.build_world("bob")
            tokens = {
                "owner": openapi.token_for(world.club.created_by),
                "viewer": openapi.token_for(
                    world.club.memberships.get(user__username="victor").user
                ),
                "outsider": openapi.token_for(bobs.club.created_by),
            }
        yield world, tokens


@pytest.fixture
def people(_worlds, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world, tokens = _worlds
    clients = {
        "owner": APIClient(headers=tokens["owner"]),
        "viewer": APIClient(headers=tokens["viewer"]),
        "outsider": APIClient(headers=tokens["outsider"]),
        "anonymous": APIClient(),
    }
    for client in clients.values():
        client.raise_request_exception = False  # a 500 is reported, with the others
    return world, clients


class Probe:
    """Sends one operation's requests and checks each answer."""

    def __init__(self, path: str, method: str, world: Any, clients: dict[str, APIClient]):
        self.path, self.method, self.clients = path, method, clients
        self.values = openapi.path_values(path, world, member="victor")
        self.failures: list[str] = []
        self.sent = 0
        # Every probe runs in a savepoint rolled back after it, so each one starts from the
        # database as it is now: its fingerprint, taken once, is what a refused write must
        # leave behind (taking it before each probe would read the same rows again).
        self.before = fingerprint() if method != "get" else ""

    def url(self, **override: str) -> str:
        values = {
            name: urllib.parse.quote(str(value), safe="") for name, value in self.values.items()
        }
        values.update(override)
        return self.path.format(**values)

    def send(
        self,
        label: str,
        url: str,
        body: str | None = None,
        lenient: bool = False,
        headers: dict[str, str] | None = None,
    ) -> None:
        extra = {"HTTP_IF_MATCH": "*"} if self.method == "put" else {}
        extra.update({f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()})
        writes = self.method != "get"
        for who, client in self.clients.items():
            cache.clear()  # no throttle counts a probe
            with transaction.atomic():
                response = (
                    getattr(client, self.method)(
                        url, body, content_type="application/json", **extra
                    )
                    if body is not None
                    else getattr(client, self.method)(url, **extra)
                )
                self.sent += 1
                problem = self.judge(response, lenient)
                refused = response.status_code >= 400
                if not problem and writes and refused and fingerprint() != self.before:
                    problem = "the database changed"
                transaction.set_rollback(True)
            if problem:
                self.failures.append(f"{who} {self.method.upper()} {label}: {problem}")

    @staticmethod
    def judge(response: Any, lenient: bool) -> str | None:
        status = response.status_code
        if lenient and status == 204:
            return None
        if not response.get("Content-Type", "").startswith("application/json"):
            return f"{status} in {response['Content-Type']}"
        if lenient and 200 <= status < 300:
            return None
        if not 400 <= status < 500:
            return f"answered {status}"
        body = response.json()
        if body.get("type") not in {"validation_error", "client_error"} or not body.get("errors"):
            return f"{status} outside the envelope: {body}"
        if not all(error.get("code") for error in body["errors"]):
            return f"{status} without codes: {body}"
        return None


@pytest.mark.parametrize(
    ("path", "method", "operation"), operations(), ids=[f"{m} {p}" for p, m, _ in operations()]
)
def test_hostile_input_is_refused_in_the_envelope_and_changes_nothing(
    path, method, operation, people
):
    world, clients = people
    probe = Probe(path, method, world, clients)
    schema = (
        operation.get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema")
    )
    if schema is not None:
        body = skeleton(schema)
        probe.send("the whole body nested deep", probe.url(), "[" * DEPTH + "]" * DEPTH)
        for place in paths_in(body):
            text_field = isinstance(value_at(body, place), str)
            for name, raw in HOSTILE_JSON.items():
                if text_field and name in AS_TEXT:
                    continue
                where = ".".join(map(str, place))
                probe.send(f"{where} = {name}", probe.url(), with_hostile(body, place, raw))
    default_body = json.dumps(skeleton(schema)) if schema is not None else None
    for parameter in openapi.parameters_of(operation):
        name, where = parameter["name"], parameter["in"]
        if name in TOLERANT:
            continue
        for label, text in HOSTILE_TEXT.items():
            raw = text if text.startswith("%") else urllib.parse.quote(text, safe="")
            if where == "path":
                probe.send(f"{name} = {label}", probe.url(**{name: raw}), default_body)
            elif where == "query":
                lenient = name in LENIENT_QUERY or (name, path) in IGNORED_QUERY
                probe.send(
                    f"?{name} = {label}",
                    f"{probe.url()}?{name}={raw}",
                    default_body,
                    lenient=lenient,
                )
            elif where == "header" and not text.startswith("%"):
                probe.send(
                    f"{name}: {label}",
                    probe.url(),
                    default_body,
                    lenient=lenient_header(name, text),
                    headers={name: text},
                )
    assert probe.sent > 0
    assert not probe.failures, "\n".join(probe.failures[:40])

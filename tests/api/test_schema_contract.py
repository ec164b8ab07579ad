"""The schema a client generator reads: valid, split into request and answer models, headers
declared, tags by resource, one language parameter; and the server does what it declares."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openapi_spec_validator import validate

from tests.api import openapi
from tests.api.openapi import resolved

LANGUAGES = ["en", "fr", "pt"]


@pytest.fixture(scope="module")
def served(django_db_blocker) -> dict[str, Any]:
    """The document `/api/schema/` serves, as JSON, to an anonymous client."""
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"}, secure=True)
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_served_schema_is_valid_openapi(served):
    validate(served)


def test_no_write_operation_requires_a_field_that_only_answers_carry(served):
    for path, method, operation in openapi.operations():
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is None:
            continue
        schema = resolved(body["schema"], served)
        for name in schema.get("required", []):
            field = resolved(schema["properties"][name], served)
            assert not field.get("readOnly"), f"{method} {path} requires read-only {name}"
        read_only = {n for n, f in schema.get("properties", {}).items() if f.get("readOnly")}
        assert not read_only, f"{method} {path} takes read-only fields {read_only}"


def test_no_request_field_with_a_default_is_required(served):
    """A field the server fills in when it is left out is optional in every request body
    (`MatchCreateRequest.table`, `ruleset`…), so a generated client may leave it out; the
    TypeScript check passes `--default-non-nullable false` because openapi-typescript would
    otherwise make every field with a `default` required, whatever `required` says."""
    defaulted = 0
    for name, schema in served["components"]["schemas"].items():
        if not name.endswith("Request"):
            continue
        for field, definition in schema.get("properties", {}).items():
            if "default" in definition:
                defaulted += 1
                assert field not in schema.get("required", []), f"{name}.{field} is required"
    assert defaulted >= 5


@pytest.mark.parametrize(
    ("path", "absent"),
    [
        ("/api/v1/auth/token/", "token"),
        ("/api/v1/seasons/", "id"),
        ("/api/v1/seasons/", "created_at"),
        ("/api/v1/players/", "id"),
        ("/api/v1/clubs/", "role"),
    ],
)
def test_login_and_creation_bodies_do_not_ask_for_what_the_server_makes(served, path, absent):
    body = served["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert absent not in resolved(body["schema"], served).get("properties", {})


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/{id}/standings/csv/", "/api/v1/seasons/{id}/standings/csv/"]
)
def test_the_csv_export_is_described_as_text_with_its_columns(served, path):
    answer = served["paths"][path]["get"]["responses"]["200"]
    assert list(answer["content"]) == ["text/csv"]
    assert answer["content"]["text/csv"]["schema"]["type"] == "string"
    for column in ("rank", "player", "name", "victory_points", "average_net"):
        assert f"`{column}`" in answer["description"]


def test_csv_is_offered_only_by_the_csv_operations(served):
    for path, method, operation in openapi.operations():
        names = {p["name"] for p in openapi.parameters_of(operation)}
        assert "format" not in names, (method, path)
        for status, answer in operation["responses"].items():
            if "text/csv" in answer.get("content", {}):
                assert path.endswith("/csv/") and status == "200", (method, path, status)
    content = served["paths"]["/api/v1/clubs/{id}/standings/"]["get"]["responses"]["200"]
    assert list(content["content"]) == ["application/json"]
    assert resolved(content["content"]["application/json"]["schema"], served)["type"] == "array"


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/{id}/standings/", "/api/v1/seasons/{id}/standings/"]
)
def test_the_ordering_parameter_has_no_empty_default(served, path):
    (ordering,) = [
        p for p in served["paths"][path]["get"]["parameters"] if p.get("name") == "ordering"
    ]
    assert "default" not in ordering["schema"]


def test_season_standings_do_not_advertise_a_season_filter(served):
    names = {
        resolved(p, served)["name"]
        for p in served["paths"]["/api/v1/seasons/{id}/standings/"]["get"]["parameters"]
    }
    assert "season" not in names
    names = {
        resolved(p, served)["name"]
        for p in served["paths"]["/api/v1/clubs/{id}/standings/"]["get"]["parameters"]
    }
    assert "season" in names


def headers_of(served, path: str, method: str, status: str) -> dict[str, Any]:
    answer = resolved(served["paths"][path][method]["responses"][status], served)
    return {name: resolved(header, served) for name, header in answer.get("headers", {}).items()}


HAND = "/api/v1/matches/{match_pk}/hands/{number}/"
HANDS = "/api/v1/matches/{match_pk}/hands/"


@pytest.mark.parametrize(
    ("path", "method", "status"),
    [
        (HANDS, "post", "201"),
        (HAND, "get", "200"),
        (HAND, "put", "200"),
    ],
)
def test_a_hand_answer_declares_its_etag(served, path, method, status):
    assert "ETag" in headers_of(served, path, method, status)


def test_a_correction_says_if_match_takes_the_etag_quoted(served):
    (if_match,) = [
        p for p in served["paths"][HAND]["put"]["parameters"] if p.get("name") == "If-Match"
    ]
    assert '"3"' in if_match["description"]
    assert if_match["required"] is True


def test_recording_a_hand_declares_the_replay_header(served):
    assert "Idempotent-Replayed" in headers_of(served, HANDS, "post", "201")


def test_every_answer_declares_its_language_and_every_429_and_503_when_to_retry(served):
    for path, method, operation in openapi.operations():
        for status in operation["responses"]:
            headers = headers_of(served, path, method, status)
            assert "Content-Language" in headers, (method, path, status)
            if status in ("429", "503"):
                assert "Retry-After" in headers, (method, path, status)


def test_the_conflicts_a_wait_resolves_declare_when_to_ask_again(served):
    """A 409 idempotency_key_in_progress or delivery_in_progress carries Retry-After; a client
    generated from the description can read it without a header of its own."""
    paths = {p for p, _, _ in openapi.operations()}
    redeliver = next(p for p in paths if p.endswith("/redeliver/"))
    for path in (HANDS, redeliver):
        retry = headers_of(served, path, "post", "409")["Retry-After"]
        assert retry["schema"]["type"] == "integer" and not retry.get("required")


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/", "/api/v1/players/", "/api/v1/seasons/", "/api/v1/matches/", HANDS]
)
def test_every_creation_declares_its_location(served, path):
    assert headers_of(served, path, "post", "201")["Location"]["required"] is True


def test_a_revision_describes_the_hand_it_keeps(served):
    revision = served["components"]["schemas"]["Revision"]["properties"]["hand"]
    hand = resolved(revision["allOf"][0] if "allOf" in revision else revision, served)
    assert {"ending", "went_out", "results"} <= set(hand["properties"])


def test_operations_are_tagged_by_resource_with_plain_ids(served):
    tags, ids = set(), []
    for _path, _method, operation in openapi.operations():
        tags.update(operation["tags"])
        ids.append(operation["operationId"])
    assert "v1" not in tags
    assert {"clubs", "players", "seasons", "matches", "rulings", "auth"} <= tags
    assert not [i for i in ids if i.startswith("v1_")]
    assert len(ids) == len(set(ids))


def test_one_shared_language_parameter(served):
    text = json.dumps(served)
    assert text.count(json.dumps(LANGUAGES)) + text.count('["en", "pt", "fr"]') == 1
    shared = served["components"]["parameters"]
    for path, method, operation in openapi.operations():
        refs = [p["$ref"] for p in operation["parameters"] if "$ref" in p]
        inline = [p["name"] for p in operation["parameters"] if "$ref" not in p]
        assert "lang" not in inline and "Accept-Language" not in inline, (method, path)
        assert {resolved({"$ref": r}, served)["name"] for r in refs} >= {"lang", "Accept-Language"}
    assert {p["name"] for p in shared.values()} >= {"lang", "Accept-Language"}


def test_every_operation_has_a_summary_and_every_summary_an_operation(served):
    from arlington_site.summaries import SUMMARIES

    missing, ids = [], set()
    for path, method, operation in openapi.operations():
        ids.add(operation["operationId"])
        if not operation.get("summary", "").strip():
            missing.append(f"{method.upper()} {path}")
    assert missing == []
    assert set(SUMMARIES) - ids == set()


@pytest.mark.parametrize(
    ("component", "field"),
    [("Match", "status"), ("Seat", "total"), ("HandWithMatch", "version"), ("Club", "name")],
)
def test_fields_every_answer_carries_are_required(served, component, field):
    assert field in served["components"]["schemas"][component]["required"]


def test_answer_models_leave_optional_only_what_an_answer_may_leave_out(served):
    optional = {
        name: set(schema["properties"]) - set(schema.get("required", []))
        for name, schema in served["components"]["schemas"].items()
        if schema.get("type") == "object"
        and "properties" in schema
        and not name.endswith("Request")
        and not name.startswith("Patched")
    }
    assert optional["Option"] == {"min", "max", "choices"}
    assert optional["RecordConflictErrorResponse"] == {"recorded", "differences"}
    assert optional["PaginatedMatchList"] == set()
    assert optional["Match"] == optional["Hand"] == optional["Player"] == set()


def test_every_request_body_is_required(served):
    bodies = [
        (method, path, operation["requestBody"].get("required"))
        for path, method, operation in openapi.operations()
        if "requestBody" in operation
    ]
    assert ("patch", "/api/v1/clubs/{id}/", True) in bodies
    assert ("post", "/api/v1/matches/{match_pk}/live/events/", True) in bodies
    assert [b for b in bodies if b[2] is not True] == []


def test_the_live_event_discriminator_maps_every_event_type(served):
    from matches.api.live import EVENTS

    event = served["components"]["schemas"]["LiveEventRequest"]
    mapping = event["discriminator"]["mapping"]
    assert set(mapping) == set(EVENTS)
    for kind, ref in mapping.items():
        field = resolved({"$ref": ref}, served)["properties"]["type"]
        assert resolved(field.get("allOf", [field])[0], served)["enum"] == [kind]
    assert {o["$ref"] for o in event["oneOf"]} == set(mapping.values())


STREAM = "/api/v1/matches/{match_pk}/live/stream/"


def test_the_live_stream_is_described_with_its_events_and_authenticated_like_the_rest(served):
    operation = served["paths"][STREAM]["get"]
    state = served["paths"]["/api/v1/matches/{match_pk}/live/"]["get"]
    assert operation["summary"]
    assert operation["security"] == state["security"]
    answer = operation["responses"]["200"]
    assert answer["content"]["text/event-stream"]["schema"]["type"] == "string"
    for name in ("`state`", "`recorded`", "`abandoned`", "heartbeat", "`id:`"):
        assert name in operation["description"]
    assert {"200", "401", "404", "429", "503"} <= set(operation["responses"])
    codes = resolved(operation["responses"]["429"]["content"]["application/json"]["schema"], served)
    assert codes["properties"]["errors"]["items"]["properties"]["code"]["enum"] == [
        "too_many_watchers"
    ]
    for name in ("LiveStreamRecorded", "LiveStreamAbandoned"):
        assert served["components"]["schemas"][name]["allOf"][0] == {
            "$ref": "#/components/schemas/LiveState"
        }


@pytest.mark.parametrize(
    "path", ["/api/v1/rulings/meld/", "/api/v1/rulings/{ruleset}/meld/", "/api/v1/rulesets/"]
)
def test_open_operations_document_the_401_of_a_bad_token(served, path):
    (method,) = [m for m in served["paths"][path] if m in openapi.METHODS]
    operation = served["paths"][path][method]
    assert "401" in operation["responses"]
    assert {} in operation["security"] and {"deviceToken": []} in operation["security"]


@pytest.mark.django_db
def test_an_open_operation_refuses_a_revoked_token_and_serves_no_token(client):
    from tests.factories import make_user

    token = openapi.token_for(make_user("rita"))
    body = {"cards": ["3H", "4H", "5H"]}
    anonymous = client.post("/api/v1/rulings/meld/", body, content_type="application/json")
    assert anonymous.status_code == 200
    from rest_framework.authtoken.models import Token

    Token.objects.all().delete()
    revoked = client.post(
        "/api/v1/rulings/meld/",
        body,
        content_type="application/json",
        headers={"Authorization": token["Authorization"]},
    )
    assert revoked.status_code == 401
    assert revoked.json()["errors"][0]["code"] == "authentication_failed"


def test_the_stream_names_its_event_models_and_takes_a_ticket(served):
    operation = served["paths"]["/api/v1/matches/{match_pk}/live/stream/"]["get"]
    events = operation["responses"]["200"]["content"]["text/event-stream"]["x-events"]
    assert events == {
        "state": {"$ref": "#/components/schemas/LiveState"},
        "recorded": {"$ref": "#/components/schemas/LiveStreamRecorded"},
        "abandoned": {"$ref": "#/components/schemas/LiveStreamAbandoned"},
    }
    [ticket] = [p for p in operation["parameters"] if p.get("name") == "ticket"]
    assert (ticket["in"], ticket["required"]) == ("query", False)
    issuing = served["paths"]["/api/v1/matches/{match_pk}/live/stream-ticket/"]["post"]
    answer = resolved(issuing["responses"]["201"]["content"]["application/json"]["schema"], served)
    assert set(answer["required"]) == {"url", "expires_at"}


def test_a_players_read_declares_the_record_it_answers(served):
    answer = served["paths"]["/api/v1/players/{id}/"]["get"]["responses"]["200"]
    model = resolved(answer["content"]["application/json"]["schema"], served)
    assert "record" in model["properties"]
    assert "record" in model["required"]


def test_every_operation_taking_an_idempotency_key_declares_its_409_and_422(served):
    taking = [
        (path, method, operation)
        for path, method, operation in openapi.operations()
        if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))
    ]
    assert len(taking) >= 10
    for path, method, operation in taking:
        assert {"409", "422"} <= set(operation["responses"]), (method, path)


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/v1/clubs/{id}/public-links/", "post"),
        ("/api/v1/clubs/{id}/invitations/", "post"),
        ("/api/v1/tournaments/", "post"),
        ("/api/v1/tournaments/{id}/rounds/", "post"),
        ("/api/v1/tournaments/{id}/entrants/", "post"),
    ],
)
def test_a_change_a_viewer_is_refused_declares_its_403(served, path, method):
    assert "403" in served["paths"][path][method]["responses"]


def test_every_304_answer_declares_the_etag_it_carries(served):
    """A client that polls with If-None-Match keeps the ETag of each answer, 304s included."""
    bare = [
        f"{method.upper()} {path}"
        for path, operations in served["paths"].items()
        for method, operation in operations.items()
        if "304" in operation.get("responses", {})
        and "ETag" not in operation["responses"]["304"].get("headers", {})
    ]
    polled = [
        path
        for path, operations in served["paths"].items()
        for operation in operations.values()
        if "304" in operation.get("responses", {})
    ]
    assert polled and bare == []


def test_every_ruling_says_what_it_answers_in_the_client_s_words(served):
    """The rulings once all carried their view's docstring, written for the code's readers
    ("``ruleset_name`` fixes the game"); each now says what a client gets, and a game's own
    routes first say what the game is."""
    from scoring.api.rulings import RULING_DESCRIPTION

    rulings = {
        path: operations["post"]["description"]
        for path, operations in served["paths"].items()
        if path.startswith("/api/v1/rulings/")
    }
    assert rulings and all(text.endswith(RULING_DESCRIPTION) for text in rulings.values())
    assert not any("ruleset_name" in text for text in rulings.values())
    assert rulings["/api/v1/rulings/rummy/meld/"].startswith("Classic Rummy")


@pytest.mark.parametrize("conflict", ["Record", "Correction", "Void", "DraftWrite", "LiveStart"])
def test_every_hand_write_declares_the_409_of_a_game_no_longer_installed(served, conflict):
    codes = served["components"]["schemas"][f"{conflict}ConflictErrorItemCodeEnum"]["enum"]
    assert "game_not_installed" in codes


def test_a_players_card_figures_are_always_given(served):
    """Both databases give a player's card figures (0 before any hand): never null."""
    record = served["components"]["schemas"]["PlayerRecord"]
    for name in ("wild_twos_melded", "queen_of_spades_held"):
        field = record["properties"][name]
        assert "nullable" not in field and "SQLite" not in field["description"], name
        assert name in record["required"]


def test_every_answer_that_may_be_a_replay_declares_it(served):
    """An operation taking an Idempotency-Key may send any of its successful answers again,
    marked Idempotent-Replayed: each of them declares that header (a hand's 200 and 201, a live
    event's 200 and 201, a sign-in's 201)."""
    missing = [
        (method, path, status)
        for path, operations in served["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict)
        and any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))
        for status, answer in operation["responses"].items()
        if status.startswith("2") and "Idempotent-Replayed" not in answer.get("headers", {})
    ]
    assert missing == []


def conflict_codes(document: dict[str, Any], operation: dict[str, Any]) -> set[str]:
    """The codes an operation's 409 declares."""
    answer = resolved(operation["responses"]["409"], document)
    body = resolved(answer["content"]["application/json"]["schema"], document)
    item = resolved(body["properties"]["errors"]["items"], document)
    return set(resolved(item["properties"]["code"], document)["enum"])


def test_every_operation_taking_an_idempotency_key_declares_what_it_answers(served):
    """The header's limits, as the server reads it (else 400 invalid_idempotency_key), and the
    409 of a retry while the first request is still being recorded, beside the operation's own
    409s (registering a webhook: a duplicate, the limit)."""
    taking = 0
    for path, item in served["paths"].items():
        for method, operation in item.items():
            parameters = [resolved(p, served) for p in operation.get("parameters", [])]
            keys = [p for p in parameters if p["name"] == "Idempotency-Key"]
            if not keys:
                continue
            taking += 1
            assert keys[0]["schema"] == {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "pattern": "^[ -~]+$",
            }, f"{method} {path}"
            if path.endswith("/live/events/"):
                continue  # a live hand's events are appended one at a time under its lock
            assert "idempotency_key_in_progress" in conflict_codes(served, operation), (
                f"{method} {path}"
            )
    assert taking >= 10
    webhooks = served["paths"]["/api/v1/clubs/{id}/webhooks/"]["post"]
    assert {"webhook_duplicate", "webhook_limit_reached"} <= conflict_codes(served, webhooks)

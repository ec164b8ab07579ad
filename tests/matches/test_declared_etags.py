"""Every answer that sends an ETag, made for real, declares it in the OpenAPI description, so
that a generated client can read it and send it back in If-Match or If-None-Match."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Season
from tests.factories import record, start_match, went_out


def headers_of(document: dict[str, Any], path: str, method: str, status: str) -> set[str]:
    answer = document["paths"][path][method]["responses"][status]
    while "$ref" in answer:
        answer = document["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    return set(answer.get("headers", {}))


@pytest.mark.django_db
def test_every_answer_that_sends_an_etag_declares_it(
    openapi_schema, as_carol, as_alice, club, roster
):
    """Each read or change a client follows with If-Match or If-None-Match, made for real: the
    ETag it answers is in the schema for that operation and status, and a read of the same
    ETag is a 304."""
    seated = [p.pk for p in roster[:3]]
    season = Season.objects.create(club=club, name="Spring", starts_on="2026-03-01")
    match = start_match(as_carol, club, roster[:3])["id"]
    live = f"/api/v1/matches/{match}/live/"
    calls: list[tuple[str, str, str, Any]] = [
        ("/api/v1/players/{id}/", "get", f"/api/v1/players/{seated[0]}/", {}),
        ("/api/v1/players/{id}/", "patch", f"/api/v1/players/{seated[0]}/", {"name": "Annie"}),
        ("/api/v1/clubs/{id}/", "get", f"/api/v1/clubs/{club.pk}/", {}),
        ("/api/v1/seasons/{id}/", "get", f"/api/v1/seasons/{season.pk}/", {}),
        ("/api/v1/matches/{id}/", "get", f"/api/v1/matches/{match}/", {}),
        ("/api/v1/matches/{match_pk}/live/", "post", live, {"turned_up": "7H"}),
        ("/api/v1/matches/{match_pk}/live/", "get", live, {}),
    ]
    checked = []
    for template, method, url, body in calls:
        response = getattr(as_carol, method)(url, body, format="json")
        assert response.status_code in (200, 201), (url, response.json())
        assert "ETag" in response, (method, url)
        declared = headers_of(openapi_schema, template, method, str(response.status_code))
        assert "ETag" in declared, (method, template, response.status_code)
        if method == "get":
            again = as_carol.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
            assert again.status_code == 304, (url, again.status_code)
        checked.append(response)
    state = checked[-1].json()
    event = as_carol.post(
        f"{live}events/",
        {"type": "draw", "player": state["turn"]},
        format="json",
        HTTP_IF_MATCH=checked[-1]["ETag"],
    )
    assert event.status_code == 200 and "ETag" in event
    assert "ETag" in headers_of(
        openapi_schema, "/api/v1/matches/{match_pk}/live/events/", "post", "200"
    )
    undone = as_carol.delete(f"{live}events/last/", HTTP_IF_MATCH=event["ETag"])
    assert undone.status_code == 200 and "ETag" in undone
    last = "/api/v1/matches/{match_pk}/live/events/last/"
    assert "ETag" in headers_of(openapi_schema, last, "delete", "200")
    as_carol.delete(live, HTTP_IF_MATCH=undone["ETag"])
    record(as_carol, match, went_out(seated[0], seated))
    confirmed = as_alice.post(f"/api/v1/matches/{match}/hands/1/confirmations/")
    assert confirmed.status_code == 201 and "ETag" in confirmed
    confirmations = "/api/v1/matches/{match_pk}/hands/{number}/confirmations/"
    assert "ETag" in headers_of(openapi_schema, confirmations, "post", "201")

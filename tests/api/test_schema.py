"""The OpenAPI description third-party apps build on: complete, valid, warning-free."""


def test_every_rulings_endpoint_is_documented_with_examples(openapi_schema):
    for name in ("meld", "hand", "discard", "take-discards", "extend"):
        operation = openapi_schema["paths"][f"/api/v1/rulings/{name}/"]["post"]
        body = operation["requestBody"]["content"]["application/json"]
        assert body["examples"], name
        assert operation["responses"]["200"]["content"]["application/json"]["examples"], name
        assert "400" in operation["responses"], name
        assert "429" in operation["responses"], name


def test_state_conflicts_on_hands_are_documented(openapi_schema):
    hands = openapi_schema["paths"]["/api/v1/matches/{match_pk}/hands/"]["post"]["responses"]
    hand = openapi_schema["paths"]["/api/v1/matches/{match_pk}/hands/{number}/"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(hands)
    assert "409" in hand["put"]["responses"]
    assert "409" in hand["delete"]["responses"]


def test_every_validation_error_is_documented_with_the_one_open_envelope(openapi_schema):
    """Real answers name paths such as results.1.melds.0 and the engine's codes: no enum of
    field paths or codes may refuse them."""
    schemas = openapi_schema["components"]["schemas"]
    for path, item in openapi_schema["paths"].items():
        for operation in item.values():
            answer = operation["responses"].get("400")
            if answer is None:
                continue
            name = answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
            mapping = schemas[name]["discriminator"]["mapping"]
            if "validation_error" in mapping:
                assert mapping["validation_error"].endswith("/ValidationErrorResponse"), path
    item = schemas["ValidationErrorResponse"]["properties"]["errors"]["items"]["$ref"]
    fields = schemas[item.rsplit("/", 1)[-1]]["properties"]
    assert "enum" not in fields["code"] and "enum" not in fields["attr"]


def test_the_standings_document_their_query_errors(openapi_schema):
    for path in ("/api/v1/clubs/{id}/standings/", "/api/v1/seasons/{id}/standings/"):
        answer = openapi_schema["paths"][path]["get"]["responses"]["400"]
        name = answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert (
            "validation_error"
            in openapi_schema["components"]["schemas"][name]["discriminator"]["mapping"]
        )

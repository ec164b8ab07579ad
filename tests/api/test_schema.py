"""The OpenAPI description third-party apps build on: complete, valid, warning-free."""

import pytest
import yaml
from django.core.management import call_command


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    target = tmp_path_factory.mktemp("schema") / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    return yaml.safe_load(target.read_text())


def test_every_rulings_endpoint_is_documented_with_examples(schema):
    for name in ("meld", "hand", "discard", "take-discards", "extend"):
        operation = schema["paths"][f"/api/v1/rulings/{name}/"]["post"]
        body = operation["requestBody"]["content"]["application/json"]
        assert body["examples"], name
        assert operation["responses"]["200"]["content"]["application/json"]["examples"], name
        assert "400" in operation["responses"], name
        assert "429" in operation["responses"], name


def test_state_conflicts_on_hands_are_documented(schema):
    hands = schema["paths"]["/api/v1/matches/{match_pk}/hands/"]["post"]["responses"]
    hand = schema["paths"]["/api/v1/matches/{match_pk}/hands/{number}/"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(hands)
    assert "409" in hand["put"]["responses"]
    assert "409" in hand["delete"]["responses"]

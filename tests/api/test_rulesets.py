"""GET /api/v1/rulesets/ and /api/v1/rulesets/{name}/"""

import pytest

URL = "/api/v1/rulesets/"

ARLINGTON = {
    "name": "arlington",
    "label": "Arlington",
    "players": {"min": 2, "max": 5},
    "packs": 2,
    "wild_rank": "2",
    "meld_sizes": {"min": 3, "max": 4},
    "target": 1000,
    "endings": ["went_out", "stock_exhausted"],
    "flags": [],
    "options": [],
    "live": {"take": "pile"},
}
RUMMY = {
    "name": "rummy",
    "label": "Rummy",
    "players": {"min": 2, "max": 6},
    "packs": 1,
    "wild_rank": None,
    "meld_sizes": {"min": 3, "max": None},
    "target": 100,
    "endings": ["went_out"],
    "flags": [{"name": "rummy", "label": "Went out all at once (rummy)", "default": False}],
    "options": [
        {"name": "target", "default": 100, "min": 1, "max": 100000},
        {"name": "ace", "default": "low", "choices": ["low", "high_or_low"]},
    ],
    "live": {"take": "discard"},
}


def without_description(item):
    assert isinstance(item.pop("description"), str) and item
    return item


def test_anyone_lists_every_game_the_default_first_as_a_plain_list(api_client):
    response = api_client.get(URL)
    assert response.status_code == 200
    assert [without_description(item) for item in response.json()] == [ARLINGTON, RUMMY]


@pytest.mark.parametrize("expected", [ARLINGTON, RUMMY], ids=["arlington", "rummy"])
def test_one_game_is_described_by_its_name(api_client, expected):
    response = api_client.get(f"{URL}{expected['name']}/")
    assert response.status_code == 200
    assert without_description(response.json()) == expected


def test_an_unknown_game_is_a_404_in_the_error_envelope(api_client):
    response = api_client.get(f"{URL}poker/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize(
    ("language", "label", "flag"),
    [
        ("pt", "Rummy", "Bateu de uma vez (rummy)"),
        ("fr", "Rami", "Sortie d'un coup (rami)"),
    ],
)
def test_labels_follow_accept_language(api_client, language, label, flag):
    answer = api_client.get(f"{URL}rummy/", HTTP_ACCEPT_LANGUAGE=language).json()
    assert (answer["label"], answer["flags"][0]["label"]) == (label, flag)
    english = api_client.get(f"{URL}rummy/").json()
    assert answer["description"] != english["description"]


def test_both_operations_are_in_the_schema_with_a_summary(openapi_schema):
    for path in ("/api/v1/rulesets/", "/api/v1/rulesets/{name}/"):
        operation = openapi_schema["paths"][path]["get"]
        assert operation["summary"]
        assert operation["responses"]["200"]["content"]["application/json"]["examples"]
    listed = openapi_schema["paths"]["/api/v1/rulesets/"]["get"]["responses"]["200"]
    assert listed["content"]["application/json"]["schema"]["type"] == "array"

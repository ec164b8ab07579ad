"""POST /api/v1/rulings/{ruleset}/…: one set of rulings for every game, keyed by its name."""

import pytest

MELD = {"cards": ["JS", "2D=QS", "KS"]}
HAND = {
    "ending": "went_out",
    "went_out": "ann",
    "results": [
        {"player": "ann", "melds": [["7H", "7D", "7C"], ["5S", "6S", "7S", "8S"]], "hand": []},
        {"player": "bob", "melds": [], "hand": ["KD", "4H", "AS"]},
    ],
}


@pytest.mark.parametrize(
    ("ruleset", "ruling", "body", "old"),
    [
        ("arlington", "meld", MELD, "rulings/meld/"),
        ("arlington", "hand", HAND, "rulings/hand/"),
        ("arlington", "discard", {"card": "QS"}, "rulings/discard/"),
        (
            "arlington",
            "take-discards",
            {"top_card": "7H", "from_hand": ["7D", "2C=7S"]},
            "rulings/take-discards/",
        ),
        ("arlington", "extend", {"meld": ["JS", "QS", "KS"], "add": ["2C=AS"]}, "rulings/extend/"),
        ("rummy", "meld", {"cards": ["QH", "KH", "AH"], "ace": "high_or_low"}, None),
        ("rummy", "hand", {**HAND, "rummy": True}, None),
        ("rummy", "lay-off", {"meld": ["10H", "9H", "8H"], "add": ["JH", "QH"]}, None),
        ("rummy", "discard", {"card": "7H", "taken_from_discards": "7H"}, None),
    ],
)
def test_a_game_s_ruling_answers_as_its_documented_route(api_client, ruleset, ruling, body, old):
    documented = old or f"rulings/{ruleset}/{ruling}/"
    expected = api_client.post(f"/api/v1/{documented}", body, format="json")
    response = api_client.post(f"/api/v1/rulings/{ruleset}/{ruling}/", body, format="json")
    assert response.status_code == expected.status_code == 200
    assert response.json() == expected.json()


def test_rummy_answers_a_rummy_flag_and_pip_values(api_client):
    answer = api_client.post("/api/v1/rulings/rummy/hand/", {**HAND, "rummy": True}, format="json")
    body = answer.json()
    assert body["rummy"] is True
    assert [r["net"] for r in body["results"]] == [30, -30]
    assert body["results"][1]["held"][0] == {"card": "KD", "points": 10}


@pytest.mark.parametrize(
    "url",
    [
        "rulings/arlington/lay-off/",
        "rulings/rummy/take-discards/",
        "rulings/rummy/extend/",
        "rulings/poker/meld/",
    ],
)
def test_a_ruling_the_game_does_not_have_is_a_404(api_client, url):
    response = api_client.post(f"/api/v1/{url}", {"card": "QS"}, format="json")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_a_game_s_option_is_read_from_the_body(api_client):
    low = api_client.post(
        "/api/v1/rulings/rummy/meld/", {"cards": ["QH", "KH", "AH"]}, format="json"
    )
    assert [v["code"] for v in low.json()["violations"]] == ["run_ace_high"]
    bad = api_client.post(
        "/api/v1/rulings/rummy/meld/", {"cards": ["QH", "KH", "AH"], "ace": "up"}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["attr"] == "ace"


def test_the_routes_by_ruleset_are_in_the_schema_with_their_games(openapi_schema):
    paths = openapi_schema["paths"]
    take = paths["/api/v1/rulings/{ruleset}/take-discards/"]["post"]
    assert take["summary"]
    (parameter,) = [p for p in take["parameters"] if p.get("name") == "ruleset"]
    assert parameter["schema"]["enum"] == ["arlington"]
    (layoff,) = [
        p
        for p in paths["/api/v1/rulings/{ruleset}/lay-off/"]["post"]["parameters"]
        if p.get("name") == "ruleset"
    ]
    assert layoff["schema"]["enum"] == ["rummy"]
    assert "/api/v1/rulings/rummy/meld/" in paths and "/api/v1/rulings/meld/" in paths

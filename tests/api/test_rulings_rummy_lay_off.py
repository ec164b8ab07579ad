"""POST /api/v1/rulings/rummy/lay-off/"""

import pytest

URL = "/api/v1/rulings/rummy/lay-off/"


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ({"meld": ["7H", "7D", "7S"], "add": ["7C"]}, []),
        ({"meld": ["10H", "9H", "8H"], "add": ["JH"]}, []),
        ({"meld": ["10H", "9H", "8H"], "add": ["QH", "JH"]}, []),
        ({"meld": ["10H", "9H", "8H"], "add": ["7H"]}, []),
        ({"meld": ["10H", "9H", "8H"], "add": ["7H", "6H"]}, []),
        ({"meld": ["10H", "9H", "8H"], "add": ["QH"]}, ["run_not_consecutive"]),
        ({"meld": ["7H", "7D", "7S"], "add": ["8H"]}, ["set_mixed_ranks"]),
        ({"meld": ["7H", "7D", "7S"], "add": ["7D"]}, ["too_many_copies"]),
        ({"meld": ["JS", "QS", "KS"], "add": ["AS"]}, ["run_ace_high"]),
        ({"meld": ["JS", "QS", "KS"], "add": ["AS"], "ace": "high_or_low"}, []),
        (
            {"meld": ["QS", "KS", "AS"], "add": ["2S"], "ace": "high_or_low"},
            ["run_around_the_corner"],
        ),
        ({"meld": ["7H", "7D", "7S"], "add": ["2C=7C"]}, ["no_wild_cards", "set_mixed_ranks"]),
    ],
)
def test_a_lay_off_is_bound_by_the_meld_rules(api_client, body, codes):
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["allowed"] is (not codes)
    assert sorted({v["code"] for v in answer["violations"]}) == codes
    assert answer["meld"] == body["meld"] + body["add"]


def test_anyone_may_lay_off_on_another_players_meld_where_arlington_refuses(api_client):
    body = {"meld": ["7H", "7D", "7S"], "add": ["7C"], "player": "bob", "owner": "ann"}
    assert api_client.post(URL, body, format="json").json()["allowed"] is True
    arlington = api_client.post("/api/v1/rulings/extend/", body, format="json").json()
    assert [v["code"] for v in arlington["violations"]] == ["not_your_meld"]


def test_laying_off_nothing_is_a_400(api_client):
    response = api_client.post(URL, {"meld": ["7H", "7D", "7S"], "add": []}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "add"

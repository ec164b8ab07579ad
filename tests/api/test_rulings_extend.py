"""POST /api/v1/rulings/extend/"""

import pytest

URL = "/api/v1/rulings/extend/"


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ({"meld": ["JS", "QS", "KS"], "add": ["AS"]}, []),
        ({"meld": ["JS", "QS", "KS"], "add": ["10S", "AS"]}, ["meld_too_long"]),
        ({"meld": ["JS", "2D=QS", "KS"], "add": ["2C=10S"]}, ["wild_queen_of_spades"]),
        ({"meld": ["JS", "QS", "KS"], "add": ["2C=10S"]}, []),
        ({"meld": ["7H", "7D", "7S"], "add": ["8H"]}, ["set_mixed_ranks"]),
        (
            {"meld": ["7H", "7D", "7S"], "add": ["7C"], "player": "bob", "owner": "ann"},
            ["not_your_meld"],
        ),
        ({"meld": ["7H", "7D", "7S"], "add": ["7C"], "player": "ann", "owner": "ann"}, []),
    ],
)
def test_extending_is_bound_by_the_meld_rules_and_ownership(api_client, body, codes):
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["allowed"] is (not codes)
    assert sorted(v["code"] for v in answer["violations"]) == codes
    assert answer["meld"] == [c.upper() for c in body["meld"] + body["add"]]


def test_adding_nothing_is_a_400(api_client):
    response = api_client.post(URL, {"meld": ["7H", "7D", "7S"], "add": []}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "add"

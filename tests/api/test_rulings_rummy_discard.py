"""POST /api/v1/rulings/rummy/discard/"""

import pytest

URL = "/api/v1/rulings/rummy/discard/"


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ({"card": "QS"}, []),
        ({"card": "2D"}, []),
        ({"card": "7H", "taken_from_discards": None}, []),
        ({"card": "7H", "taken_from_discards": "7D"}, []),
        ({"card": "7H", "taken_from_discards": "7H"}, ["discard_taken_card"]),
        ({"card": "7h", "taken_from_discards": "7♥"}, ["discard_taken_card"]),
    ],
)
def test_any_card_but_the_one_just_taken_from_the_pile_may_be_discarded(api_client, body, codes):
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["allowed"] is (not codes)
    assert [v["code"] for v in answer["violations"]] == codes


def test_the_queen_of_spades_is_an_ordinary_card_in_rummy(api_client):
    assert api_client.post(URL, {"card": "QS"}, format="json").json()["allowed"] is True
    arlington = api_client.post("/api/v1/rulings/discard/", {"card": "QS"}, format="json")
    assert arlington.json()["allowed"] is False


def test_an_unreadable_taken_card_is_a_400(api_client):
    response = api_client.post(URL, {"card": "7H", "taken_from_discards": "7X"}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == ("invalid_card", "taken_from_discards")

"""POST /api/v1/rulings/take-discards/"""

import pytest

URL = "/api/v1/rulings/take-discards/"


@pytest.mark.parametrize(
    ("top", "from_hand", "codes"),
    [
        ("7H", ["7D", "2C=7S"], []),
        ("2C", ["2D", "2S"], []),
        ("2C=8H", ["9H", "10H"], []),
        ("7H", ["7D"], ["meld_too_short", "take_discards_needs_two"]),
        ("7H", ["8D", "9D"], ["run_mixed_suits"]),
        ("7H", ["7D", "7S", "7C", "7H"], ["meld_too_long"]),
    ],
)
def test_taking_the_pile_needs_a_new_meld_with_two_cards_from_hand(
    api_client, top, from_hand, codes
):
    response = api_client.post(URL, {"top_card": top, "from_hand": from_hand}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["allowed"] is (not codes)
    assert sorted(v["code"] for v in body["violations"]) == codes
    assert body["meld"][0] == top.upper()


def test_unreadable_card_in_hand_is_a_400_with_its_position(api_client):
    response = api_client.post(URL, {"top_card": "7H", "from_hand": ["7D", "7Z"]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "from_hand.1"

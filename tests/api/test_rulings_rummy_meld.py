"""POST /api/v1/rulings/rummy/meld/"""

import pytest

URL = "/api/v1/rulings/rummy/meld/"


@pytest.mark.parametrize(
    ("body", "kind", "codes"),
    [
        ({"cards": ["7H", "7D", "7C"]}, "set", []),
        ({"cards": ["7H", "7D", "7C", "7S"]}, "set", []),
        ({"cards": ["3H", "4H", "5H", "6H", "7H", "8H", "9H"]}, "run", []),
        ({"cards": ["9C", "KC", "JC", "10C", "QC"]}, "run", []),
        ({"cards": ["AS", "2S", "3S"]}, "run", []),
        ({"cards": ["2S", "3S", "4S"]}, "run", []),
        ({"cards": ["QS", "KS", "AS"]}, None, ["run_ace_high"]),
        ({"cards": ["QS", "KS", "AS"], "ace": "low"}, None, ["run_ace_high"]),
        ({"cards": ["QS", "KS", "AS"], "ace": "high_or_low"}, "run", []),
        ({"cards": ["10D", "JD", "QD", "KD", "AD"], "ace": "high_or_low"}, "run", []),
        ({"cards": ["AD", "2D", "3D"], "ace": "high_or_low"}, "run", []),
        ({"cards": ["KS", "AS", "2S"], "ace": "high_or_low"}, None, ["run_around_the_corner"]),
        ({"cards": ["KS", "AS", "2S"]}, None, ["run_around_the_corner"]),
        ({"cards": ["7H", "7D"]}, None, ["meld_too_short"]),
        ({"cards": ["7H", "7D", "8D"]}, None, ["set_mixed_ranks"]),
        ({"cards": ["5H", "6D", "7H"]}, None, ["run_mixed_suits"]),
        ({"cards": ["5H", "6H", "8H"]}, None, ["run_not_consecutive"]),
        ({"cards": ["7H", "7H", "7D"]}, None, ["too_many_copies"]),
        ({"cards": ["7H", "7D", "7C", "7S", "7H"]}, None, ["too_many_copies"]),
        (
            {"cards": ["5H", "2C=6H", "7H"]},
            None,
            ["no_wild_cards", "run_mixed_suits", "run_not_consecutive"],
        ),
        ({"cards": ["5H", "2H", "7H"]}, None, ["run_not_consecutive"]),
    ],
)
def test_a_meld_is_ruled_by_the_rummy_rules_and_the_ace_option(api_client, body, kind, codes):
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["valid"] is (not codes)
    assert answer["kind"] == kind
    assert sorted({v["code"] for v in answer["violations"]}) == codes


def test_cards_are_named_with_their_pip_values(api_client):
    answer = api_client.post(
        URL, {"cards": ["QH", "KH", "AH"], "ace": "high_or_low"}, format="json"
    ).json()
    assert answer["cards"] == [
        {"card": "QH", "points": 10},
        {"card": "KH", "points": 10},
        {"card": "AH", "points": 1},
    ]
    assert answer["points"] == 21


@pytest.mark.parametrize(
    ("body", "attr", "code"),
    [
        ({"cards": ["7H", "7D", "ZZ"]}, "cards.2", "invalid_card"),
        ({"cards": ["7H", "7D", "7C"], "ace": "high"}, "ace", "invalid_choice"),
        ({"cards": "7H 7D 7C"}, "cards", "not_a_list"),
    ],
)
def test_unreadable_input_is_a_400_naming_the_field(api_client, body, attr, code):
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["attr"], error["code"]) == (attr, code)

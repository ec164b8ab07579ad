"""POST /api/v1/rulings/hand/"""

import copy

import pytest

URL = "/api/v1/rulings/hand/"

HAND = {
    "ending": "went_out",
    "went_out": "ann",
    "results": [
        {
            "player": "ann",
            "melds": [
                ["JS", "QS", "KS"],
                ["7H", "7D", "2C=7S"],
                ["3C", "4C", "5C", "6C"],
                ["AH", "AD", "AC"],
            ],
            "hand": [],
        },
        {
            "player": "bob",
            "melds": [["5D", "6D", "7D"], ["9S", "9H", "9D", "9C"]],
            "hand": ["2D", "4H", "8S", "8H", "KD", "KC"],
        },
    ],
}


def test_a_legal_hand_is_scored_and_itemised(api_client):
    response = api_client.post(URL, HAND, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True
    assert body["violations"] == []
    summary = [
        (r["player"], r["melded_points"], r["hand_penalty"], r["bonus"], r["net"])
        for r in body["results"]
    ]
    assert summary == [("ann", 165, 0, 100, 265), ("bob", 55, 65, 0, -10)]
    assert body["results"][0]["melds"][0]["kind"] == "run"
    assert body["results"][0]["melds"][0]["points"] == 70
    assert body["results"][1]["held"][0] == {"card": "2D", "points": 20}


def test_every_violation_of_the_hand_is_listed_with_its_path(api_client):
    hand = copy.deepcopy(HAND)
    hand["results"][1]["melds"][0] = ["5D", "6D", "8D"]
    hand["results"][0]["hand"] = ["QS"]
    hand["results"][1]["hand"].append("QS")
    body = api_client.post(URL, hand, format="json").json()
    assert body["valid"] is False
    found = sorted((v["code"], v["attr"]) for v in body["violations"])
    assert found == [
        ("card_count_exceeded", "results.1.hand"),
        ("run_not_consecutive", "results.1.melds.0"),
        ("went_out_with_cards", "results.0.hand"),
    ]
    assert "Q♠" in next(
        v["detail"] for v in body["violations"] if v["code"] == "card_count_exceeded"
    )


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda h: h["results"].append(copy.deepcopy(h["results"][1])), "players_mismatch"),
        (lambda h: h.update(went_out="carol"), "went_out_unknown_player"),
        (lambda h: h.update(went_out=None), "went_out_missing"),
        (lambda h: h["results"][1].update(hand=[]), "player_without_cards"),
        (lambda h: h["results"][1]["melds"].pop(), "too_few_cards"),
        (lambda h: h.update(ending="stock_exhausted", went_out=None), "player_without_cards"),
    ],
)
def test_deal_level_checks(api_client, change, code):
    hand = copy.deepcopy(HAND)
    change(hand)
    body = api_client.post(URL, hand, format="json").json()
    assert body["valid"] is False
    assert code in {v["code"] for v in body["violations"]}


@pytest.mark.parametrize(
    ("change", "attr"),
    [
        (lambda h: h.update(ending="finished"), "ending"),
        (lambda h: h["results"][1]["hand"].append("2D=QS"), "results.1.hand.6"),
        (lambda h: h["results"][0]["melds"][2].__setitem__(1, "4X"), "results.0.melds.2.1"),
        (lambda h: h["results"][0].pop("player"), "results.0.player"),
        (lambda h: h["results"][0].update(melds="JS QS KS"), "results.0.melds"),
        (lambda h: h.update(results={}), "results"),  # the list itself, not a field of it
        (lambda h: h["results"].__setitem__(0, ["JS"]), "results.0"),
    ],
)
def test_unreadable_hand_is_a_400_naming_the_field(api_client, change, attr):
    hand = copy.deepcopy(HAND)
    change(hand)
    response = api_client.post(URL, hand, format="json")
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert attr in [e["attr"] for e in response.json()["errors"]]
    assert not any("non_field_errors" in e["attr"] for e in response.json()["errors"])


def test_hundreds_of_melds_are_refused_before_any_work(api_client):
    hand = copy.deepcopy(HAND)
    hand["results"][0]["melds"] = [["5H", "6H", "7H"]] * 300
    response = api_client.post(URL, hand, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "max_length"


def test_a_flags_object_is_read_and_a_flag_arlington_lacks_is_refused(api_client):
    """Arlington hands have no flags: ``rummy`` passes, as on a recorded hand; others are 400."""
    plain = api_client.post(URL, HAND, format="json").json()
    with_rummy = api_client.post(URL, {**HAND, "flags": {"rummy": True}}, format="json")
    assert with_rummy.status_code == 200
    assert with_rummy.json() == plain
    refused = api_client.post(URL, {**HAND, "flags": {"bonus": True}}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "code": "unknown_flag",
            "detail": "bonus is not a flag of Arlington hands, which have none.",
            "attr": "flags.bonus",
        }
    ]

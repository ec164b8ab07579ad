"""POST /api/v1/rulings/rummy/hand/"""

import copy

import pytest

URL = "/api/v1/rulings/rummy/hand/"

# Three players are dealt seven cards each. Ann went out; bob laid off 8S on ann's run.
HAND = {
    "ending": "went_out",
    "went_out": "ann",
    "results": [
        {"player": "ann", "melds": [["7H", "7D", "7C"], ["5S", "6S", "7S", "8S"]], "hand": []},
        {"player": "bob", "melds": [["JD", "QD", "KD"]], "hand": ["KC", "4H", "AS"]},
        {"player": "cat", "melds": [], "hand": ["2C", "3C", "10H", "QH", "9D", "9C", "AH"]},
    ],
}


def summary(answer):
    return [
        (r["player"], r["melded_points"], r["hand_penalty"], r["bonus"], r["net"])
        for r in answer["results"]
    ]


def test_every_other_player_pays_the_winner_the_pips_left_in_hand(api_client):
    response = api_client.post(URL, HAND, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert answer["valid"] is True, answer["violations"]
    assert answer["rummy"] is False
    # bob: K 10 + 4 + A 1 = 15; cat: 2 + 3 + 10 + Q 10 + 9 + 9 + A 1 = 44; melds cost nothing.
    assert summary(answer) == [
        ("ann", 0, 0, 59, 59),
        ("bob", 0, 15, 0, -15),
        ("cat", 0, 44, 0, -44),
    ]
    assert answer["results"][1]["held"] == [
        {"card": "KC", "points": 10},
        {"card": "4H", "points": 4},
        {"card": "AS", "points": 1},
    ]


def test_a_rummy_makes_every_other_player_pay_double(api_client):
    answer = api_client.post(URL, {**HAND, "rummy": True}, format="json").json()
    assert answer["valid"] is True, answer["violations"]
    assert answer["rummy"] is True
    assert summary(answer) == [
        ("ann", 0, 0, 118, 118),
        ("bob", 0, 30, 0, -30),
        ("cat", 0, 88, 0, -88),
    ]


def test_the_nets_of_a_hand_add_up_to_nothing(api_client):
    for flag in (False, True):
        answer = api_client.post(URL, {**HAND, "rummy": flag}, format="json").json()
        assert sum(r["net"] for r in answer["results"]) == 0


def test_the_ace_option_decides_whether_an_ace_high_run_is_legal(api_client):
    hand = copy.deepcopy(HAND)
    hand["results"][1]["melds"] = [["QD", "KD", "AD"]]
    low = api_client.post(URL, hand, format="json").json()
    assert [(v["code"], v["attr"]) for v in low["violations"]] == [
        ("run_ace_high", "results.1.melds.0")
    ]
    both = api_client.post(URL, {**hand, "ace": "high_or_low"}, format="json").json()
    assert both["valid"] is True


def _drop_cat(h):
    del h["results"][2]


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (
            lambda h: h.update(ending="stock_exhausted", went_out=None),
            [("stock_never_exhausted", "ending")],
        ),
        (
            lambda h: h.update(went_out=None),
            [("went_out_missing", "went_out"), ("player_without_cards", "results.0.hand")],
        ),
        (
            lambda h: h.update(went_out="dan"),
            [("went_out_unknown_player", "went_out"), ("player_without_cards", "results.0.hand")],
        ),
        (
            lambda h: h["results"][0]["hand"].append("9H"),
            [("went_out_with_cards", "results.0.hand")],
        ),
        (lambda h: h["results"][1].update(hand=[]), [("player_without_cards", "results.1.hand")]),
        (
            lambda h: h["results"][2]["hand"].__setitem__(6, "KC"),
            [("card_count_exceeded", "results.2.hand")],
        ),
        (
            lambda h: h["results"][2]["hand"].append("JC"),
            [("held_more_than_dealt", "results.2.hand")],
        ),
        (
            lambda h: h["results"][1]["hand"].extend(["2S", "3S", "4S", "9S", "6H"]),
            [("held_more_than_dealt", "results.1.hand")],
        ),
        (
            lambda h: h["results"][1]["melds"].append(["2S", "3S", "4S", "5S"]),
            [("card_count_exceeded", "results.1.melds.1")],
        ),
        (
            lambda h: h["results"][0]["melds"][0].__setitem__(2, "2C=7C"),
            [
                ("card_count_exceeded", "results.2.hand"),
                ("no_wild_cards", "results.0.melds.0"),
                ("set_mixed_ranks", "results.0.melds.0"),
            ],
        ),
        (
            lambda h: h["results"].append(copy.deepcopy(h["results"][1])),
            [
                ("card_count_exceeded", "results.3.hand"),
                ("card_count_exceeded", "results.3.melds.0"),
                ("players_mismatch", "results"),
            ],
        ),
        (_drop_cat, []),
    ],
)
def test_every_violation_of_the_hand_is_listed_with_its_path(api_client, change, found):
    hand = copy.deepcopy(HAND)
    change(hand)
    answer = api_client.post(URL, hand, format="json").json()
    assert sorted({(v["code"], v["attr"]) for v in answer["violations"]}) == sorted(found)
    assert answer["valid"] is (not found)


def test_seven_players_are_too_many(api_client):
    hand = copy.deepcopy(HAND)
    hand["results"][2]["hand"].remove("AH")  # six players are dealt six each
    for name, card in (("dan", "2D"), ("eve", "3D"), ("fay", "4D"), ("gus", "5D")):
        hand["results"].append({"player": name, "melds": [], "hand": [card]})
    answer = api_client.post(URL, hand, format="json").json()
    assert [(v["code"], v["attr"]) for v in answer["violations"]] == [
        ("players_mismatch", "results")
    ]
    hand["results"].pop()
    assert api_client.post(URL, hand, format="json").json()["valid"] is True


def test_a_rummy_is_melded_from_one_deal_and_one_draw(api_client):
    # Two players are dealt ten: a rummy puts down at most eleven cards.
    hand = {
        "ending": "went_out",
        "went_out": "ann",
        "rummy": True,
        "results": [
            {
                "player": "ann",
                "melds": [["AH", "2H", "3H", "4H", "5H"], ["9C", "9D", "9S"], ["KD", "KH"]],
                "hand": [],
            },
            {"player": "bob", "melds": [], "hand": ["QC"]},
        ],
    }
    hand["results"][0]["melds"][2].append("KC")
    assert api_client.post(URL, hand, format="json").json()["valid"] is True
    hand["results"][0]["melds"][2].append("KS")
    answer = api_client.post(URL, hand, format="json").json()
    assert [(v["code"], v["attr"]) for v in answer["violations"]] == [
        ("rummy_not_all_at_once", "results.0.melds")
    ]
    hand["rummy"] = False
    assert api_client.post(URL, hand, format="json").json()["valid"] is True


def test_a_hand_that_cannot_be_read_is_a_400(api_client):
    hand = copy.deepcopy(HAND)
    hand["results"][1]["hand"][0] = "2D=QS"
    response = api_client.post(URL, hand, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == ("declaration_outside_meld", "results.1.hand.0")


def test_flags_read_the_same_as_a_recorded_hands_flags_object(api_client):
    """A recorded hand's body states its flags in ``flags``; the ruling reads that body too."""
    as_object = api_client.post(URL, {**HAND, "flags": {"rummy": True}}, format="json").json()
    top_level = api_client.post(URL, {**HAND, "rummy": True}, format="json").json()
    assert as_object["rummy"] is True
    assert (
        summary(as_object)
        == summary(top_level)
        == [
            ("ann", 0, 0, 118, 118),
            ("bob", 0, 30, 0, -30),
            ("cat", 0, 88, 0, -88),
        ]
    )


def test_a_flag_given_at_the_top_level_wins_over_the_flags_object(api_client):
    body = {**HAND, "rummy": False, "flags": {"rummy": True}}
    answer = api_client.post(URL, body, format="json").json()
    assert answer["rummy"] is False
    assert summary(answer)[0] == ("ann", 0, 0, 59, 59)


def test_a_flag_the_game_does_not_have_is_refused_by_name(api_client):
    response = api_client.post(URL, {**HAND, "flags": {"rumy": True}}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "code": "unknown_flag",
            "detail": "rumy is not a flag of Rummy hands; their flags are: rummy.",
            "attr": "flags.rumy",
        }
    ]

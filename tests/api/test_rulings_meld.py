"""POST /api/v1/rulings/meld/"""

import pytest
from rest_framework.throttling import ScopedRateThrottle

URL = "/api/v1/rulings/meld/"


def test_legal_run_with_a_wild_queen_of_spades_scores_seventy(api_client):
    response = api_client.post(URL, {"cards": ["js", "2D=QS", "K♠"]}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True
    assert body["kind"] == "run"
    assert body["points"] == 70
    assert body["cards"] == [
        {"card": "JS", "represents": "JS", "wild": False, "points": 10},
        {"card": "2D", "represents": "QS", "wild": True, "points": 50},
        {"card": "KS", "represents": "KS", "wild": False, "points": 10},
    ]
    assert body["violations"] == []
    assert body["suggestions"] == []


def test_broken_rules_are_an_answer_listing_every_code(api_client):
    response = api_client.post(URL, {"cards": ["JS", "2D=QS", "2C=KS", "QS", "AS"]}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert body["kind"] is None
    codes = sorted(v["code"] for v in body["violations"])
    assert codes == ["meld_too_long", "run_not_consecutive", "wild_queen_of_spades"]
    assert all(v["detail"] for v in body["violations"])


def test_a_bare_two_that_cannot_stand_for_itself_gets_a_suggestion(api_client):
    body = api_client.post(URL, {"cards": ["5H", "2C", "7H"]}, format="json").json()
    assert body["valid"] is False
    assert body["suggestions"] == [["5H", "2C=6H", "7H"]]


def test_set_of_twos_refuses_declarations(api_client):
    body = api_client.post(URL, {"cards": ["2H", "2C=2D", "2S"]}, format="json").json()
    assert [v["code"] for v in body["violations"]] == ["twos_set_declares_other_card"]
    assert "2♣=2♦" in body["violations"][0]["detail"]


@pytest.mark.parametrize(
    ("cards", "code", "attr"),
    [
        (["JS", "QX", "KS"], "invalid_card", "cards.1"),
        (["JS", "7H=QS", "KS"], "declaration_on_non_two", "cards.1"),
        (["JS", 12, "KS"], "invalid_card", "cards.1"),
        ("JS QS KS", "not_a_list", "cards"),
    ],
)
def test_unreadable_cards_are_a_400_naming_the_card(api_client, cards, code, attr):
    response = api_client.post(URL, {"cards": cards}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert [(e["code"], e["attr"]) for e in body["errors"]] == [(code, attr)]


def test_missing_field_is_a_400(api_client):
    response = api_client.post(URL, {}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "code": "required",
        "detail": response.json()["errors"][0]["detail"],
        "attr": "cards",
    }


def test_malformed_json_is_a_400_not_a_500(api_client):
    response = api_client.post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "parse_error"


def test_absurdly_long_meld_is_refused_before_work(api_client):
    response = api_client.post(URL, {"cards": ["5H"] * 500}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "max_length"


def test_rulings_are_throttled_with_the_error_envelope(api_client, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"rulings": "2/min"})
    statuses = [
        api_client.post(URL, {"cards": ["5H", "6H", "7H"]}, format="json").status_code
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    body = api_client.post(URL, {"cards": ["5H", "6H", "7H"]}, format="json").json()
    assert body["type"] == "client_error"
    assert body["errors"][0]["code"] == "throttled"


@pytest.mark.parametrize(
    ("card", "shown"),
    [
        (["7D"], '["7D"] is not a card'),  # as sent in JSON, not as Python writes a list
        (7, "7 is not a card"),
        ("Q" * 3000, "QQQQQQQQQQQQQQQQQQQQQQQ… is not a card"),  # cut, not echoed whole
        ("", '"" is not a card'),  # blank: in quotes, or the sentence would start with nothing
        ("  ", '"  " is not a card'),
    ],
)
def test_an_unreadable_card_is_named_as_sent_and_briefly(api_client, card, shown):
    response = api_client.post(URL, {"cards": ["JS", card, "KS"]}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["code"], error["attr"]) == ("invalid_card", "cards.1")
    assert error["detail"].startswith(shown), error["detail"]
    assert len(error["detail"]) < 120

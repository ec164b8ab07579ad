"""POST /api/v1/rulings/discard/"""

import pytest

URL = "/api/v1/rulings/discard/"


@pytest.mark.parametrize(
    ("card", "allowed"), [("QS", False), ("q♠", False), ("QH", True), ("2C", True), ("AS", True)]
)
def test_only_the_queen_of_spades_may_never_be_discarded(api_client, card, allowed):
    response = api_client.post(URL, {"card": card}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["allowed"] is allowed
    codes = [v["code"] for v in body["violations"]]
    assert codes == ([] if allowed else ["queen_of_spades_discard"])


@pytest.mark.parametrize(
    ("card", "code"),
    [("2D=QS", "declaration_outside_meld"), ("11H", "invalid_card"), (None, "null")],
)
def test_an_unreadable_discard_is_a_400(api_client, card, code):
    response = api_client.post(URL, {"card": card}, format="json")
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [(code, "card")]

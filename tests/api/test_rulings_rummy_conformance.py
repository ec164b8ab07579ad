"""The golden Rummy cases, over HTTP: the rulings endpoints answer what the engine does."""

from __future__ import annotations

import pytest

from tests.scoring.test_conformance_rummy import cases_of


@pytest.mark.parametrize("case", cases_of("melds"))
def test_meld_cases_over_http(api_client, case):
    body = {"cards": case["cards"], **({"ace": case["ace"]} if "ace" in case else {})}
    answer = api_client.post("/api/v1/rulings/rummy/meld/", body, format="json").json()
    assert answer["valid"] is case["expect"]["valid"]
    assert sorted({v["code"] for v in answer["violations"]}) == case["expect"]["violations"]


@pytest.mark.parametrize("case", [c for c in cases_of("hands") if "seated" not in c.values[0]])
def test_hand_cases_over_http(api_client, case):
    answer = api_client.post("/api/v1/rulings/rummy/hand/", case["input"], format="json").json()
    assert answer["valid"] is case["expect"]["valid"]
    assert {(v["code"], v["attr"]) for v in answer["violations"]} == {
        (v["code"], v["attr"]) for v in case["expect"]["violations"]
    }
    if "results" in case["expect"]:
        assert [r["net"] for r in answer["results"]] == [
            r["net"] for r in case["expect"]["results"]
        ]


@pytest.mark.parametrize("case", cases_of("turns"))
def test_turn_cases_over_http(api_client, case):
    path = "lay-off" if case["action"] == "lay_off" else "discard"
    answer = api_client.post(f"/api/v1/rulings/rummy/{path}/", case["input"], format="json")
    assert answer.status_code == 200
    assert answer.json()["allowed"] is case["expect"]["allowed"]
    assert sorted({v["code"] for v in answer.json()["violations"]}) == case["expect"]["violations"]

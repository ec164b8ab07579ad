"""The golden Rummy cases of docs/conformance/rummy-*.json, run against this engine.

Like Arlington's tables (tests/scoring/test_conformance.py), they are plain JSON any other
Rummy scorer can run; these tests also check the tables themselves: every Rummy code has an
illegal case with a legal neighbour, no deal holds a card twice, and every score adds up by a
pip table written out here, independently of the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring import Card, Code, parse_meld, rummy
from tests.scoring.conformance import assert_hand_ruling, assert_live_case, hand_input

CONFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "conformance"
FILES = ("melds", "hands", "turns", "live")


def load(name: str) -> list[dict[str, Any]]:
    with (CONFORMANCE / f"rummy-{name}.json").open(encoding="utf-8") as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


TABLES = {name: load(name) for name in FILES}


def cases_of(name: str) -> list[Any]:
    return [pytest.param(case, id=case["id"]) for case in TABLES[name]]


def expected_codes(name: str, case: dict[str, Any]) -> set[str]:
    violations = case["expect"]["violations"]
    if name == "hands":
        return {v["code"] for v in violations}
    return set(violations)


def is_legal(case: dict[str, Any]) -> bool:
    expect = case["expect"]
    return bool(expect["valid"] if "valid" in expect else expect["allowed"])


def ace(data: dict[str, Any]) -> rummy.Ace:
    return rummy.Ace(data.get("ace", "low"))


# --- running the cases -------------------------------------------------------------------


@pytest.mark.parametrize("case", cases_of("melds"))
def test_meld_ruling(case: dict[str, Any]) -> None:
    ruling = rummy.rule_meld(parse_meld(case["cards"]), ace=ace(case))
    expect = case["expect"]
    assert ruling.valid is expect["valid"]
    assert (ruling.kind.value if ruling.kind else None) == expect["kind"]
    assert sorted({v.code.value for v in ruling.violations}) == expect["violations"]
    if "points" in expect:
        assert ruling.points == expect["points"]


@pytest.mark.parametrize("case", cases_of("hands"))
def test_hand_ruling(case: dict[str, Any]) -> None:
    data = case["input"]
    ruling = rummy.rule_hand(
        hand_input(data), rummy=data.get("rummy", False), ace=ace(data), seated=case.get("seated")
    )
    assert_hand_ruling(ruling, case["expect"])


@pytest.mark.parametrize("case", cases_of("live"))
def test_live_ruling(case: dict[str, Any]) -> None:
    assert case["ruleset"] == "rummy"
    assert_live_case(case)


@pytest.mark.parametrize("case", cases_of("turns"))
def test_turn_ruling(case: dict[str, Any]) -> None:
    data = case["input"]
    if case["action"] == "discard":
        taken = data.get("taken_from_discards")
        ruling = rummy.rule_discard(
            Card.parse(data["card"]), taken_from_discards=Card.parse(taken) if taken else None
        )
    else:
        ruling = rummy.rule_lay_off(
            parse_meld(data["meld"]), parse_meld(data["add"]), ace=ace(data)
        )
    expect = case["expect"]
    assert ruling.allowed is expect["allowed"]
    assert sorted({v.code.value for v in ruling.violations}) == expect["violations"]
    if "meld" in expect:
        assert ruling.meld is not None
        assert [c.code for c in ruling.meld] == expect["meld"]


# --- checking the tables themselves ------------------------------------------------------


LIVE_CODES = {
    "take_pile_not_allowed",
    "pass_not_allowed",
    "draw_not_top_card",
    "not_your_turn",
    "draw_first",
    "already_drawn",
    "would_strand_taken_card",
}


def by_id(name: str) -> dict[str, dict[str, Any]]:
    return {case["id"]: case for case in TABLES[name]}


@pytest.mark.parametrize("code", sorted(c.value for c in rummy.RummyCode))
def test_every_rummy_code_has_an_illegal_case_and_a_legal_neighbour(code: str) -> None:
    illegal = [
        (name, case)
        for name in FILES
        for case in TABLES[name]
        if code in expected_codes(name, case)
    ]
    assert illegal, f"no golden case breaks {code}"
    assert any(is_legal(by_id(name)[case["neighbour"]]) for name, case in illegal)


@pytest.mark.parametrize("name", FILES)
def test_case_ids_are_unique(name: str) -> None:
    ids = [case["id"] for case in TABLES[name]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("name", FILES)
def test_every_illegal_case_names_a_legal_neighbour_and_only_those(name: str) -> None:
    cases = by_id(name)
    for case in TABLES[name]:
        if is_legal(case):
            assert "neighbour" not in case, case["id"]
        else:
            assert is_legal(cases[case["neighbour"]]), case["id"]


@pytest.mark.parametrize("name", FILES)
def test_only_rummy_codes_are_expected(name: str) -> None:
    known = {c.value for c in rummy.RummyCode}
    if name == "live":  # and the live table's own codes, the same in every game
        known |= {c.value for c in Code if c.value in LIVE_CODES}
    for case in TABLES[name]:
        assert expected_codes(name, case) <= known, case["id"]


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in cases_of("hands")
        if "card_count_exceeded" not in expected_codes("hands", c.values[0])
    ],
)
def test_hand_cases_are_deals_from_one_pack(case: dict[str, Any]) -> None:
    cards = Counter(
        text.split("=")[0]
        for entry in case["input"]["results"]
        for text in [*(t for meld in entry["melds"] for t in meld), *entry["hand"]]
    )
    assert max(cards.values()) == 1
    assert sum(cards.values()) <= 52


# Pip values written out again, independently of the engine, to check the arithmetic.
PIPS = {"A": 1, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 11)}


@pytest.mark.parametrize(
    "case", [c for c in cases_of("hands") if "results" in c.values[0]["expect"]]
)
def test_expected_hand_scores_add_up(case: dict[str, Any]) -> None:
    data = case["input"]
    double = 2 if data.get("rummy") else 1
    paid = {
        e["player"]: double * sum(PIPS[card[:-1]] for card in e["hand"]) for e in data["results"]
    }
    for result in case["expect"]["results"]:
        winner = result["player"] == data["went_out"]
        assert result["melded_points"] == 0
        assert result["hand_penalty"] == (0 if winner else paid[result["player"]])
        assert result["bonus"] == (sum(paid.values()) if winner else 0)
        assert result["net"] == result["bonus"] - result["hand_penalty"]
    assert sum(result["net"] for result in case["expect"]["results"]) == 0


@pytest.mark.parametrize(
    "case", [c for c in cases_of("melds") if "points" in c.values[0]["expect"]]
)
def test_expected_meld_points_add_up(case: dict[str, Any]) -> None:
    assert case["expect"]["points"] == sum(PIPS[card[:-1]] for card in case["cards"])

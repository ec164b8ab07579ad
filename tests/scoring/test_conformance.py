"""The golden cases of docs/conformance/*.json, run against this engine.

The tables are plain JSON so that any other Arlington scorer can run them too
(docs/conformance.md describes them). Besides running every case, these tests check the
tables themselves: every violation code has an illegal case and a legal neighbour, and the
recorded hands are realistic deals.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring import (
    NOTATION_MESSAGES,
    Card,
    Code,
    MeldCard,
    NotationError,
    parse_cards,
    parse_meld,
    rule_discard,
    rule_extend,
    rule_hand,
    rule_meld,
    rule_take_discards,
    suggest_declarations,
)
from tests.scoring.conformance import assert_hand_ruling, assert_live_case, hand_input

CONFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "conformance"
FILES = ("cards", "melds", "hands", "turns", "live", "live-pass")
CARD_COUNT_CODES = {"too_few_cards", "card_count_exceeded", "stock_exhausted_card_count"}


def load(name: str) -> list[dict[str, Any]]:
    """The cases of one table."""
    with (CONFORMANCE / f"{name}.json").open(encoding="utf-8") as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


TABLES = {name: load(name) for name in (*FILES, "rummy-live")}
"""Arlington's tables, and Rummy's live table: the live codes belong to the live table of every
game, and one of them (``take_pile_not_allowed``) only a game without ``take_pile`` can break."""


def cases_of(name: str) -> list[Any]:
    """The cases of one table as pytest parameters, identified by their id."""
    return [pytest.param(case, id=case["id"]) for case in TABLES[name]]


def expected_codes(name: str, case: dict[str, Any]) -> set[str]:
    """The violation codes a case expects, whatever the table."""
    expect = case["expect"]
    if name == "cards":
        return {expect["error"]} if "error" in expect else set()
    if name == "hands":
        return {v["code"] for v in expect["violations"]}
    return set(expect["violations"])


def is_legal(name: str, case: dict[str, Any]) -> bool:
    """Whether a case expects its input to be accepted."""
    expect = case["expect"]
    if name == "cards":
        return "error" not in expect
    return bool(expect["valid"] if "valid" in expect else expect["allowed"])


# --- running the cases -------------------------------------------------------------------


PARSERS = {
    "card": Card.parse,
    "meld_card": MeldCard.parse,
    "meld": parse_meld,
    "cards": parse_cards,
}


@pytest.mark.parametrize("case", cases_of("cards"))
def test_card_notation(case: dict[str, Any]) -> None:
    parse = PARSERS[case["context"]]
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(NotationError) as caught:
            parse(case["input"])
        assert caught.value.code == expect["error"]
        if "index" in expect:
            assert caught.value.index == expect["index"]
        return
    parsed = parse(case["input"])
    if isinstance(parsed, tuple):
        assert [item.code for item in parsed] == expect["code"]
    else:
        assert parsed.code == expect["code"]
        if "points" in expect:
            assert parsed.points == expect["points"]


@pytest.mark.parametrize("case", cases_of("melds"))
def test_meld_ruling(case: dict[str, Any]) -> None:
    cards = parse_meld(case["cards"])
    ruling = rule_meld(cards)
    expect = case["expect"]
    assert ruling.valid is expect["valid"]
    assert (ruling.kind.value if ruling.kind else None) == expect["kind"]
    assert sorted({v.code.value for v in ruling.violations}) == expect["violations"]
    if "points" in expect:
        assert ruling.points == expect["points"]
    if "card_points" in expect:
        assert [card.points for card in ruling.cards] == expect["card_points"]
    if "suggestions" in expect:
        offered = {tuple(c.code for c in meld) for meld in suggest_declarations(cards)}
        assert offered == {tuple(meld) for meld in expect["suggestions"]}


@pytest.mark.parametrize("case", cases_of("hands"))
def test_hand_ruling(case: dict[str, Any]) -> None:
    ruling = rule_hand(
        hand_input(case["input"]),
        seated=case.get("seated"),
        check_card_counts=case.get("check_card_counts", True),
    )
    assert_hand_ruling(ruling, case["expect"])


@pytest.mark.parametrize("case", cases_of("turns"))
def test_turn_ruling(case: dict[str, Any]) -> None:
    data = case["input"]
    if case["action"] == "discard":
        ruling = rule_discard(Card.parse(data["card"]))
    elif case["action"] == "take_discards":
        ruling = rule_take_discards(MeldCard.parse(data["top_card"]), parse_meld(data["from_hand"]))
    else:
        ruling = rule_extend(
            parse_meld(data["meld"]),
            parse_meld(data["add"]),
            player=data.get("player"),
            owner=data.get("owner"),
        )
    expect = case["expect"]
    assert ruling.allowed is expect["allowed"]
    assert sorted({v.code.value for v in ruling.violations}) == expect["violations"]
    if "meld" in expect:
        assert ruling.meld is not None
        assert [c.code for c in ruling.meld] == expect["meld"]


@pytest.mark.parametrize("case", cases_of("live") + cases_of("live-pass"))
def test_live_ruling(case: dict[str, Any]) -> None:
    assert_live_case(case)


# --- checking the tables themselves ------------------------------------------------------


@pytest.mark.parametrize("code", sorted(c.value for c in Code))
def test_every_rule_code_has_an_illegal_case_and_a_legal_neighbour(code: str) -> None:
    illegal = [
        (name, case)
        for name in ("melds", "hands", "turns", "live", "live-pass", "rummy-live")
        for case in TABLES[name]
        if code in expected_codes(name, case)
    ]
    assert illegal, f"no golden case breaks {code}"
    assert any(is_legal(name, by_id(name)[case["neighbour"]]) for name, case in illegal)


@pytest.mark.parametrize("code", sorted(NOTATION_MESSAGES))
def test_every_notation_code_has_an_error_case_and_a_legal_neighbour(code: str) -> None:
    failing = [case for case in TABLES["cards"] if expected_codes("cards", case) == {code}]
    assert failing, f"no golden case raises {code}"
    assert any(is_legal("cards", by_id("cards")[case["neighbour"]]) for case in failing)


def by_id(name: str) -> dict[str, dict[str, Any]]:
    """A table's cases by id."""
    return {case["id"]: case for case in TABLES[name]}


@pytest.mark.parametrize("name", FILES)
def test_case_ids_are_unique(name: str) -> None:
    ids = [case["id"] for case in TABLES[name]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("name", FILES)
def test_every_illegal_case_names_a_legal_neighbour_and_only_those(name: str) -> None:
    cases = by_id(name)
    for case in TABLES[name]:
        if is_legal(name, case):
            assert "neighbour" not in case, case["id"]
        else:
            neighbour = cases[case["neighbour"]]
            assert is_legal(name, neighbour), case["id"]


@pytest.mark.parametrize("name", FILES)
def test_only_known_codes_are_expected(name: str) -> None:
    known = set(NOTATION_MESSAGES) if name == "cards" else {c.value for c in Code}
    for case in TABLES[name]:
        assert expected_codes(name, case) <= known, case["id"]


def realistic(case: dict[str, Any]) -> bool:
    """Whether a hand case must be a realistic deal: it does not test the card counts."""
    return case.get("check_card_counts", True) and not (
        expected_codes("hands", case) & CARD_COUNT_CODES
    )


@pytest.mark.parametrize("case", [c for c in cases_of("hands") if realistic(c.values[0])])
def test_hand_cases_are_realistic_deals(case: dict[str, Any]) -> None:
    physical: Counter[str] = Counter()
    total = 0
    for entry in case["input"]["results"]:
        cards = [text.split("=")[0] for meld in entry["melds"] for text in meld] + entry["hand"]
        assert len(cards) >= 13, entry["player"]
        total += len(cards)
        physical.update(cards)
    if case["input"]["ending"] == "stock_exhausted":
        assert total in (103, 104)
    if len({entry["player"] for entry in case["input"]["results"]}) == len(
        case["input"]["results"]
    ):
        assert max(physical.values()) <= 2


# Card values written out again, independently of the engine, to check the hand arithmetic.
VALUES = {
    "A": 20,
    "2": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}


def value(card: str) -> int:
    """What a card scores, by the table in docs/rules.md."""
    return 50 if card == "QS" else VALUES[card[:-1]]


@pytest.mark.parametrize(
    "case", [c for c in cases_of("hands") if "results" in c.values[0]["expect"]]
)
def test_expected_hand_scores_add_up(case: dict[str, Any]) -> None:
    entries = {entry["player"]: entry for entry in case["input"]["results"]}
    for result in case["expect"]["results"]:
        entry = entries[result["player"]]
        declared = [text.split("=")[-1] for meld in entry["melds"] for text in meld]
        assert result["melded_points"] == sum(value(card) for card in declared)
        assert result["hand_penalty"] == sum(value(card) for card in entry["hand"])
        went_out = case["input"]["ending"] == "went_out" and (
            case["input"].get("went_out") == result["player"]
        )
        assert result["bonus"] == (100 if went_out else 0)
        assert result["net"] == result["melded_points"] - result["hand_penalty"] + result["bonus"]


@pytest.mark.parametrize(
    "case", [c for c in cases_of("melds") if "points" in c.values[0]["expect"]]
)
def test_expected_meld_points_add_up(case: dict[str, Any]) -> None:
    expect = case["expect"]
    if expect["kind"] == "twos":
        declared = [text.split("=")[0] for text in case["cards"]]
    else:
        declared = [text.split("=")[-1] for text in case["cards"]]
    assert expect["points"] == sum(value(card) for card in declared)
    if "card_points" in expect:
        assert expect["card_points"] == [value(card) for card in declared]

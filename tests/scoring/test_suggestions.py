"""Suggestions for bare twos are searched only where a declaration could make the meld legal."""

import scoring.melds
from scoring import parse_meld, suggest_declarations


def test_a_meld_too_long_to_be_legal_is_not_searched(monkeypatch):
    calls = []
    real = scoring.melds._rule

    def counting(cards):
        calls.append(cards)
        return real(cards)

    monkeypatch.setattr(scoring.melds, "_rule", counting)
    assert suggest_declarations(parse_meld(["5H", "2C", "7H", "2D", "9H", "10H"])) == ()
    assert len(calls) == 0


def test_a_short_meld_is_searched_and_answered():
    assert [[c.code for c in m] for m in suggest_declarations(parse_meld(["5H", "2C", "7H"]))] == [
        ["5H", "2C=6H", "7H"]
    ]

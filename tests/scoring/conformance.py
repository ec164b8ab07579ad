"""What the Arlington and Rummy conformance tests share: a hand case read, a hand ruling checked."""

from __future__ import annotations

from typing import Any

from scoring import Ending, HandInput, HandRuling, PlayerInput, parse_cards, parse_meld


def hand_input(data: dict[str, Any]) -> HandInput:
    """The engine's input for a hand given as the API's JSON."""
    return HandInput(
        ending=Ending(data["ending"]),
        went_out=data.get("went_out"),
        results=tuple(
            PlayerInput(
                player=entry["player"],
                melds=tuple(parse_meld(meld) for meld in entry["melds"]),
                held=parse_cards(entry["hand"]),
            )
            for entry in data["results"]
        ),
    )


def assert_hand_ruling(ruling: HandRuling, expect: dict[str, Any]) -> None:
    """The ruling finds the case's violations (code and path), and its figures when given."""
    assert {(v.code.value, v.path) for v in ruling.violations} == {
        (v["code"], v["attr"]) for v in expect["violations"]
    }
    assert ruling.valid is expect["valid"]
    if "results" in expect:
        got = [
            {
                "player": r.player,
                "melded_points": r.melded_points,
                "hand_penalty": r.hand_penalty,
                "bonus": r.bonus,
                "net": r.net,
            }
            for r in ruling.results
        ]
        assert got == expect["results"]

"""Two entries of one hand agree whatever their order, and every difference is named."""

from __future__ import annotations

import random

import pytest

from scoring import Ending, HandInput, PlayerInput, compare_hands, parse_cards, parse_meld


def player(name: str, melds: list[list[str]], held: list[str]) -> PlayerInput:
    return PlayerInput(name, tuple(parse_meld(m) for m in melds), parse_cards(held))


ANN = player("ann", [["JS", "QS", "KS"], ["7H", "7D", "2C=7S"], ["AS", "AH", "AD"]], [])
BEN = player("ben", [["5D", "6D", "7D"]], ["2D", "4H", "4H"])
RECORDED = HandInput(Ending.WENT_OUT, "ann", (ANN, BEN))


def shuffled(hand: HandInput, seed: int) -> HandInput:
    """The same hand with its players, melds and every meld's and hand's cards reordered."""
    rng = random.Random(seed)
    players = []
    for entry in hand.results:
        melds = [tuple(rng.sample(m, len(m))) for m in entry.melds]
        rng.shuffle(melds)
        players.append(
            PlayerInput(entry.player, tuple(melds), tuple(rng.sample(entry.held, len(entry.held))))
        )
    rng.shuffle(players)
    return HandInput(hand.ending, hand.went_out, tuple(players))


@pytest.mark.parametrize("seed", range(20))
def test_the_same_hand_in_any_order_agrees(seed):
    assert compare_hands(RECORDED, shuffled(RECORDED, seed)).same


def test_a_two_declared_as_itself_agrees_with_a_plain_two():
    a = HandInput(Ending.STOCK_EXHAUSTED, None, (player("x", [["2H", "2D", "2C"]], ["3C"]),))
    b = HandInput(Ending.STOCK_EXHAUSTED, None, (player("x", [["2H=2H", "2C", "2D"]], ["3C"]),))
    assert compare_hands(a, b).same


CASES = [
    # what the submission changes, and the difference it must report for that player
    (
        "another declaration",
        HandInput(
            Ending.WENT_OUT,
            "ann",
            (
                player("ann", [["JS", "QS", "KS"], ["7H", "7D", "2C=7C"], ["AS", "AH", "AD"]], []),
                BEN,
            ),
        ),
        {
            "player": "ann",
            "melds_only_recorded": ["7H 7D 2C=7S"],
            "melds_only_submitted": ["7H 7D 2C=7C"],
        },
    ),
    (
        "a held card",
        HandInput(
            Ending.WENT_OUT, "ann", (ANN, player("ben", [["5D", "6D", "7D"]], ["2D", "4H", "5H"]))
        ),
        {"player": "ben", "held_only_recorded": ["4H"], "held_only_submitted": ["5H"]},
    ),
    (
        "a card moved from a meld to the hand",
        HandInput(
            Ending.WENT_OUT, "ann", (ANN, player("ben", [], ["5D", "6D", "7D", "2D", "4H", "4H"]))
        ),
        {
            "player": "ben",
            "melds_only_recorded": ["5D 6D 7D"],
            "held_only_submitted": ["5D", "6D", "7D"],
        },
    ),
    (
        "one copy fewer of a card held twice",
        HandInput(Ending.WENT_OUT, "ann", (ANN, player("ben", [["5D", "6D", "7D"]], ["2D", "4H"]))),
        {"player": "ben", "held_only_recorded": ["4H"]},
    ),
]


@pytest.mark.parametrize(("case", "submitted", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_difference_names_the_player_and_the_cards(case, submitted, expected):
    found = compare_hands(RECORDED, submitted)
    assert not found.same
    assert found.ending is None
    (difference,) = found.players
    assert difference.player == expected["player"]
    as_text = {
        "melds_only_recorded": [
            " ".join(c.code for c in m) for m in difference.melds_only_recorded
        ],
        "melds_only_submitted": [
            " ".join(c.code for c in m) for m in difference.melds_only_submitted
        ],
        "held_only_recorded": [c.code for c in difference.held_only_recorded],
        "held_only_submitted": [c.code for c in difference.held_only_submitted],
    }
    assert {key: value for key, value in as_text.items() if value} == {
        key: value for key, value in expected.items() if key != "player"
    }


def test_another_player_out_names_both_players_and_the_cards_they_hold():
    submitted = HandInput(
        Ending.WENT_OUT,
        "ben",
        (
            player("ann", [["JS", "QS", "KS"], ["7H", "7D", "2C=7S"]], ["AS"]),
            player("ben", [["5D", "6D", "7D"], ["2D", "4H", "4H"]], []),
        ),
    )
    found = compare_hands(RECORDED, submitted)
    by_player = {d.player: d for d in found.players}
    assert by_player["ann"].went_out == (True, False)
    assert by_player["ben"].went_out == (False, True)
    assert [c.code for c in by_player["ann"].held_only_submitted] == ["AS"]


def test_the_ending_and_the_flags_are_compared():
    a = HandInput(Ending.STOCK_EXHAUSTED, None, (player("x", [["AS", "AH", "AD"]], ["3C"]),))
    b = HandInput(Ending.WENT_OUT, "x", (player("x", [["AS", "AH", "AD"]], ["3C"]),))
    found = compare_hands(a, b, recorded_flags={"rummy": False}, submitted_flags={"rummy": True})
    assert found.ending == (Ending.STOCK_EXHAUSTED, Ending.WENT_OUT)
    assert [(f.name, f.recorded, f.submitted) for f in found.flags] == [("rummy", False, True)]


def test_a_player_in_only_one_entry_differs_by_all_they_hold():
    submitted = HandInput(Ending.WENT_OUT, "ann", (ANN, BEN, player("cleo", [], ["9C"])))
    (difference,) = compare_hands(RECORDED, submitted).players
    assert difference.player == "cleo"
    assert [c.code for c in difference.held_only_submitted] == ["9C"]

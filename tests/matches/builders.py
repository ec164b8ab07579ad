"""Legal hands for tests, with nets worked out by hand from the card values.

Card values: Q♠ 50, A 20, 2 20, K Q J 10 9 8 = 10, 7 6 5 4 3 = 5.
"""

from __future__ import annotations

import copy

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]

# The player who goes out: 13 cards melded, 80 + 60 + 30 + 70 = 240, plus the bonus: net 340.
WINNER = {
    "melds": [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]],
    "hand": [],
}
WINNER_NET = 340

# The others: a 15-point run melded, 80 points held: net -65 each. Seats 3 and 4 use the
# second pack's copies of seats 1 and 2's held cards.
_LOSER_HELD = [
    ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"],
    ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"],
]
_LOSER_RUNS = [["5D", "6D", "7D"], ["5C", "6C", "7C"], ["5H", "6H", "7H"], ["5S", "6S", "7S"]]
LOSER_NET = -65


def went_out(winner: int, players: list[int]) -> dict[str, object]:
    """A hand in which ``winner`` goes out (+340) and every other player scores -65."""
    results = []
    others = 0
    for player in players:
        if player == winner:
            results.append({"player": player, **WINNER})
        else:
            results.append(
                {"player": player, "melds": [_LOSER_RUNS[others]], "hand": _LOSER_HELD[others % 2]}
            )
            others += 1
    return copy.deepcopy({"ending": "went_out", "went_out": winner, "results": results})


def _pack_melds(holding: str) -> list[list[str]]:
    """One whole pack melded as thirteen sets of a rank, less the card held."""
    melds = []
    for rank in RANKS:
        meld = [rank + suit for suit in SUITS if rank + suit != holding]
        melds.append(meld)
    return melds


PACK_POINTS = 540  # the 52 cards of one pack added up


def full_packs(
    first: int, second: int, *, first_holds: str = "3C", second_holds: str = "3C"
) -> dict[str, object]:
    """Stock exhausted: each of two players melds a whole pack but the one card they hold.

    Net = 540 - 2 x (the held card's value): holding 3C gives 530, KC 520, QS 440.
    """
    return {
        "ending": "stock_exhausted",
        "went_out": None,
        "results": [
            {"player": first, "melds": _pack_melds(first_holds), "hand": [first_holds]},
            {"player": second, "melds": _pack_melds(second_holds), "hand": [second_holds]},
        ],
    }


def whole_pack_out(winner: int, other: int) -> dict[str, object]:
    """``winner`` melds a whole pack and goes out (540 + 100 = 640); ``other`` holds 13 cards
    of the second pack, 90 points, melding nothing (-90)."""
    held = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "KC", "3D", "4D", "5D"]
    return {
        "ending": "went_out",
        "went_out": winner,
        "results": [
            {"player": winner, "melds": _pack_melds(holding=""), "hand": []},
            {"player": other, "melds": [], "hand": held},
        ],
    }

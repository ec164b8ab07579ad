"""The fixed hands bench/taps.py enters: what a scorekeeper copies off the table at the end of
a hand of Arlington, each one legal (every player accounts for 13 cards or more, two packs).

A hand is ``(title, ending, players)``: ``ending`` is the index of the player who went out or
``"stock_exhausted"``; each player is ``(melds, held)`` in seat order, the melds in the order
they lie on the table and each meld's cards in the order they lie in it (a two standing for a
card is written ``2D=QS``).
"""

from __future__ import annotations

from collections import Counter

Meld = list[str]
Player = tuple[list[Meld], list[str]]
Hand = tuple[str, "int | str", list[Player]]

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _split(text: str) -> list[str]:
    return text.split()


def _p(melds: str, held: str) -> Player:
    """``"JS 2D=QS KS | 5H 6H 7H 8H"`` and ``"3C 7D"``: melds apart by bars, cards by spaces."""
    return ([_split(m) for m in melds.split("|") if m.strip()], _split(held))


HANDS: list[Hand] = [
    (
        "3 players: J♠ 2♦=Q♠ K♠ goes out",
        0,
        [
            _p("JS 2D=QS KS | 5H 6H 7H 8H | KH KD KC | 9C 9D 9H 9S", ""),
            _p("4S 5S 6S | 10H 10D 10C", "3C 7D 8S JH QD AC 2H"),
            _p("AH AD AS", "3D 4D 6C 7C 8C JC QH 10S 3H 4H"),
        ],
    ),
    (
        "3 players: a two stands for an ace",
        1,
        [
            _p("8C 9C 10C", "AS 5S 6H 9D 10D KD QS 4C 3H 2S"),
            _p("QH KH 2C=AH | 7S 7H 7D 7C | 3D 4D 5D 6D | JS JH JC", ""),
            _p("5C 5H 5D | 8S 9S 10S", "4H 6S 3S AC KC QC JD"),
        ],
    ),
    (
        "3 players: a set of twos",
        2,
        [
            _p("3C 4C 5C 6C | 8D 8H 8S", "9C KD 7S 4H 5H QC"),
            _p("JS QS KS", "3H 4D 5D 7D 9D 10D JD QD KC 8C"),
            _p("2S 2H 2D | AS AH AC | 10H JH QH KH | 6S 6D 6C 6H", ""),
        ],
    ),
    (
        "3 players: a two as itself in A 2 3 4",
        0,
        [
            _p("AS 2S 3S 4S | KC KD KS | 7H 8H 9H 10H | QD QC QH", ""),
            _p("5D 6D 7D | JC JD JH", "3C 9S 10S 8C 4H 6H 2C"),
            _p("9C 10C JC QC", "3D 4D 5S 6S 8D 9D AH AD QS"),
        ],
    ),
    (
        "3 players: Q♠ melded in a run",
        1,
        [
            _p("5C 6C 7C | KD KH KC", "2D 3S 9H 9D 4D QH JD"),
            _p("4H 5H 6H | 8C 8D 8S 8H | 10S JS QS KS | AD AC AH", ""),
            _p("3D 3H 3C", "7S 7D 6S 5S 9C 10C 10H JH QC AS"),
        ],
    ),
    (
        "3 players: a wild two in a set",
        2,
        [
            _p("QS QH QC | 3H 4H 5H", "2C 8S 10D KS 6D AH KH"),
            _p("10S 10H 10C", "3S 4S 5D 8H 8C JS JC KC AC 6H"),
            _p("7H 7D 2S=7C | JD QD KD AD | 4C 5C 6C | 9S 9H 9D 9C", ""),
        ],
    ),
    (
        "5 players: plain melds",
        0,
        [
            _p("5S 6S 7S 8S | KH KD KC | AS AH AD AC | 10D JD QD", ""),
            _p("9H 10H JH | 3C 3D 3S", "4C 6D 8C QC 2H 7H KS"),
            _p("4H 5H 6H 7H", "9S 9C 10S JS QH 8D 5C 2D QS"),
            _p("JC JS JH", "3H 4D 5D 6C 7C 8H 9D 10C KS 2C"),
            _p("2S 2H 2C", "AS 3H 4S 7D 8D 9H 10H QD KD JD"),
        ],
    ),
    (
        "5 players: 2♦=Q♠ and a two for an ace",
        3,
        [
            _p("3H 4H 5H | 9C 9D 9S", "6C 7C KC 10D QH AS 4S"),
            _p("JS 2D=QS KS", "3C 4C 5D 6D 7D 8H 8S 10H JD AH"),
            _p("QH KH 2C=AH | 6S 7S 8S", "3D 4D 5C 9H 10C JC QD"),
            _p("AD AC AS | 10S JS QS KS | 7H 8H 9H 10H | KD KD KC", ""),
            _p("5S 5H 5C", "6H 7D 8D 9D 10S JH QC 3S 4D 2H"),
        ],
    ),
    (
        "5 players: long hands held",
        4,
        [
            _p("AH AD AC", "3S 4S 5S 6D 7D 8C 9C 10H JH QD"),
            _p("KS KH KD", "3H 4H 5D 6C 7S 8D 9S 10D JC QC"),
            _p("6H 7H 8H", "3D 4D 5C 6S 7C 9D 10S JD QH KC"),
            _p("9H 10H JH QH", "3C 4C 5H 2S 8S AS 10C JS KC"),
            _p("2D 2C 2H | 3S 4S 5S 6S | 8C 8D 8H | 7S 7D 7C 7H", ""),
        ],
    ),
    (
        "3 players: the stock ran out",
        "stock_exhausted",
        [
            _p(
                "AS AH AD AC | KS KH KD KC | QH QD QC | JS JH JD JC | 3S 4S 5S 6S | 7H 8H 9H 10H"
                " | 5D 6D 7D 8D",
                "9C 10C 2S",
            ),
            _p(
                "AS AH AD | KS KH KD | 10S 10D 10C | 3H 4H 5H 6H | 7C 8C 9C | 2H 2D 2C",
                "4D 3D AC KC",
            ),
            _p("7S 8S 9S 10S | QS QH QD | JS JH JD | 3C 4C 5C 6C", "REST"),
        ],
    ),
]

TOP_DISCARD = "QC"  # the stock-run-out hand's card left over: 103 cards on the table


def full_deal() -> Counter[str]:
    """Two packs."""
    return Counter({rank + suit: 2 for rank in RANKS for suit in SUITS})


def resolve(hand: Hand) -> Hand:
    """The stock-run-out hand's last player holds "the rest": every card not elsewhere on the
    table, but the top discard."""
    title, ending, players = hand
    if not any("REST" in held for _, held in players):
        return hand
    left = full_deal()
    for melds, held in players:
        for card in [*(c.split("=")[0] for m in melds for c in m), *held]:
            if card != "REST":
                left[card] -= 1
    left[TOP_DISCARD] -= 1
    ordered = sorted(left.items(), key=lambda kv: _order(kv[0]))
    rest = [card for card, n in ordered for _ in range(n)]
    players = [(melds, rest if held == ["REST"] else held) for melds, held in players]
    return (title, ending, players)


def _order(card: str) -> tuple[int, int]:
    return (SUITS.index(card[-1]), RANKS.index(card[:-1]))


def check(hand: Hand) -> list[str]:
    """What is wrong with a hand by the engine's own ruling (empty when it is legal)."""
    import scoring
    from scoring.hands import HandInput, PlayerInput, rule_hand

    title, ending, players = resolve(hand)
    inputs = tuple(
        PlayerInput(i, tuple(scoring.parse_meld(m) for m in melds), scoring.parse_cards(held))
        for i, (melds, held) in enumerate(players)
    )
    stock = ending == "stock_exhausted"
    ruling = rule_hand(
        HandInput(
            scoring.Ending.STOCK_EXHAUSTED if stock else scoring.Ending.WENT_OUT,
            None if stock else ending,
            inputs,
        )
    )
    used = Counter(c.split("=")[0] for melds, _ in players for m in melds for c in m)
    used.update(c for _, held in players for c in held)
    over = [card for card, n in used.items() if n > 2]
    found = [f"{v.code} at {v.path}: {v.values}" for v in ruling.violations]
    return found + [f"{c} ×3" for c in over]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    for hand in HANDS:
        problems = check(hand)
        cards = sum(len(h) + sum(map(len, m)) for m, h in resolve(hand)[2])
        print(hand[0], cards, "cards", "OK" if not problems else problems)

"""A real deck behind a live table: what the engine must never see, to play legal hands with.

The engine rules from what the table can see; this side knows every card, so it can choose
legal moves, and check at the end that the engine's ruling equals the whole-hand ruling of
the real final table.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from random import Random

from scoring import (
    ALL_CARDS,
    QUEEN_OF_SPADES,
    Card,
    Ending,
    HandInput,
    MeldCard,
    PlayerInput,
    Rank,
    rule_extend,
    rule_meld,
)

DEAL = 13


FREE = {rank: [c for c in ALL_CARDS if c.rank is rank and c != QUEEN_OF_SPADES] for rank in Rank}
"""The cards a wild two may stand for in a set of each rank (never Q♠: rule 6)."""
NATURAL = {c: MeldCard.natural(c) for c in ALL_CARDS}


@dataclass
class RealTable:
    """Every card of one hand: hands, stock (next first), discard pile (top last), melds."""

    players: tuple[Hashable, ...]
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    melds: list[tuple[int, tuple[MeldCard, ...]]] = field(default_factory=list)
    ending: Ending | None = None
    went_out: Hashable | None = None

    @classmethod
    def shuffled(cls, players: Sequence[Hashable], rng: Random) -> RealTable:
        deck = [c for c in ALL_CARDS for _ in range(2)]
        rng.shuffle(deck)
        n = len(players)
        hands = [sorted(deck[i * DEAL : (i + 1) * DEAL], key=lambda c: c.index) for i in range(n)]
        return cls(tuple(players), hands, deck[DEAL * n + 1 :], [deck[DEAL * n]])

    # --- what a move does to the real cards ---------------------------------------------

    def draw(self, seat: int) -> Card | None:
        """Draw (turning the pile over first if needed); None when nothing was left."""
        if not self.stock:
            if len(self.pile) <= 1:
                self.ending = Ending.STOCK_EXHAUSTED
                return None
            self.stock, self.pile = self.pile[:-1], self.pile[-1:]
        drawn = self.stock.pop(0)
        self.hands[seat].append(drawn)
        return drawn

    def take_pile(self, seat: int, meld: tuple[MeldCard, ...]) -> None:
        top = self.pile[-1]
        rest = self.pile[:-1]
        self.pile = []
        used = [c.card for c in meld]
        used.remove(top)
        self._spend(seat, used)
        self.melds.append((seat, meld))
        self.hands[seat].extend(rest)
        self._out_if_empty(seat)

    def meld(self, seat: int, cards: tuple[MeldCard, ...]) -> None:
        self._spend(seat, [c.card for c in cards])
        self.melds.append((seat, cards))
        self._out_if_empty(seat)

    def extend(self, seat: int, index: int, cards: tuple[MeldCard, ...]) -> None:
        self._spend(seat, [c.card for c in cards])
        owner, meld = self.melds[index]
        self.melds[index] = (owner, meld + cards)
        self._out_if_empty(seat)

    def discard(self, seat: int, discarded: Card) -> None:
        self._spend(seat, [discarded])
        self.pile.append(discarded)
        self._out_if_empty(seat)

    def _spend(self, seat: int, cards: Sequence[Card]) -> None:
        for c in cards:
            self.hands[seat].remove(c)

    def _out_if_empty(self, seat: int) -> None:
        if not self.hands[seat]:
            self.ending, self.went_out = Ending.WENT_OUT, self.players[seat]

    def final_table(self) -> HandInput:
        """The hand as a scorekeeper would enter it whole."""
        assert self.ending is not None
        return HandInput(
            self.ending,
            self.went_out,
            tuple(
                PlayerInput(
                    player,
                    tuple(m for owner, m in self.melds if owner == seat),
                    tuple(self.hands[seat]),
                )
                for seat, player in enumerate(self.players)
            ),
        )

    # --- legal moves ----------------------------------------------------------------------

    def stuck(self, seat: int) -> bool:
        """Holding only Q♠ in the play phase: nothing may be discarded (an undo at the table)."""
        hand = self.hands[seat]
        return bool(hand) and all(c == QUEEN_OF_SPADES for c in hand)

    def pile_melds(self, seat: int) -> list[tuple[MeldCard, ...]]:
        """New melds of the top discard and two cards from hand."""
        top = self.pile[-1]
        return [
            meld
            for meld in _melds_with(top, self.hands[seat])
            if not _leaves_only_queens(self.hands[seat], meld[1:])
        ]

    def hand_melds(self, seat: int) -> list[tuple[MeldCard, ...]]:
        """New melds of three cards from hand."""
        hand = self.hands[seat]
        found = []
        for c in sorted(set(hand), key=lambda c: c.index):
            rest = list(hand)
            rest.remove(c)
            found.extend((NATURAL[c], *m) for m in _pairs_with(c, rest))
        unique = {tuple(sorted(m, key=lambda x: x.key)): m for m in found}
        return [m for m in unique.values() if not _leaves_only_queens(hand, m)]

    def extensions(self, seat: int) -> list[tuple[int, tuple[MeldCard, ...]]]:
        """One natural card from hand added to one of the player's own melds."""
        hand = self.hands[seat]
        found = []
        for index, (owner, meld) in enumerate(self.melds):
            if owner != seat or len(meld) >= 4:
                continue
            for c in sorted(set(hand), key=lambda c: c.index):
                add = (NATURAL[c],)
                if rule_extend(meld, add).allowed and not _leaves_only_queens(hand, add):
                    found.append((index, add))
        return found

    def discards(self, seat: int) -> list[Card]:
        return sorted({c for c in self.hands[seat] if c != QUEEN_OF_SPADES}, key=lambda c: c.index)


def _leaves_only_queens(hand: Sequence[Card], cards: Sequence[MeldCard]) -> bool:
    rest = Counter(hand)
    rest.subtract(c.card for c in cards)
    left = [c for c, n in rest.items() for _ in range(n)]
    return bool(left) and all(c == QUEEN_OF_SPADES for c in left)


def _melds_with(top: Card, hand: Sequence[Card]) -> list[tuple[MeldCard, ...]]:
    base = NATURAL[top]
    return [(base, *pair) for pair in _pairs_with(top, hand)]


def _pairs_with(first: Card, hand: Sequence[Card]) -> list[tuple[MeldCard, MeldCard]]:
    """Two cards of ``hand`` that make a legal meld with ``first`` (twos declared for sets)."""
    found: list[tuple[MeldCard, MeldCard]] = []
    related = [c for c in hand if c.rank is first.rank or c.suit is first.suit or c.is_two]
    for a, b in itertools.combinations(sorted(related, key=lambda c: c.index), 2):
        options = [(NATURAL[a], NATURAL[b])]
        if not first.is_two:
            options.extend(_declared_pairs(first, a, b))
        for pair in options:
            if rule_meld((NATURAL[first], *pair)).valid:
                found.append(pair)
    return found


def _declared_pairs(first: Card, a: Card, b: Card) -> list[tuple[MeldCard, MeldCard]]:
    """Twos among ``a`` and ``b`` declared as free cards of ``first``'s rank (never Q♠)."""
    free = FREE[first.rank]
    pairs = []
    for x, y in ((a, b), (b, a)):
        if x.is_two and not y.is_two:
            for declared in free:
                pairs.append((MeldCard(x, declared), NATURAL[y]))
                break
    if a.is_two and b.is_two:
        pairs.append((MeldCard(a, free[0]), MeldCard(b, free[-1])))
    return pairs

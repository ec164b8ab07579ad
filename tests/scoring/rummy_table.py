"""A real one-pack deck behind a Rummy live table: what the engine must never see.

Like tests/scoring/live_table.py for Arlington: this side knows every card, chooses legal
Rummy moves (docs/rules.md R1-R10) and gives the final table to compare with the engine's.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from random import Random

from scoring import ALL_CARDS, Card, Ending, HandInput, MeldCard, PlayerInput, rummy

NATURAL = {c: MeldCard.natural(c) for c in ALL_CARDS}


@dataclass
class RummyTable:
    """Every card of one Rummy hand: hands, stock (next first), pile (top last), melds."""

    players: tuple[Hashable, ...]
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    melds: list[tuple[int, tuple[MeldCard, ...]]] = field(default_factory=list)
    ending: Ending | None = None
    went_out: Hashable | None = None
    taken: Card | None = None
    discarded: list[bool] = field(default_factory=list)

    @classmethod
    def shuffled(cls, players: Sequence[Hashable], rng: Random) -> RummyTable:
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        n, size = len(players), rummy.deal_size(len(players))
        hands = [sorted(deck[i * size : (i + 1) * size], key=lambda c: c.index) for i in range(n)]
        return cls(
            tuple(players), hands, deck[size * n + 1 :], [deck[size * n]], discarded=[False] * n
        )

    # --- what a move does to the real cards ---------------------------------------------

    def draw(self, seat: int) -> Card:
        """Draw; an empty stock is first the whole pile turned over (unshuffled, oldest first)."""
        if not self.stock:
            self.stock, self.pile = self.pile, []
        drawn = self.stock.pop(0)
        self.hands[seat].append(drawn)
        self.taken = None
        return drawn

    def take_discard(self, seat: int) -> Card:
        top = self.pile.pop()
        self.hands[seat].append(top)
        self.taken = top
        return top

    def meld(self, seat: int, cards: tuple[MeldCard, ...]) -> None:
        self._spend(seat, [c.card for c in cards])
        self.melds.append((seat, cards))
        self._out_if_empty(seat)

    def extend(self, seat: int, index: int, cards: tuple[MeldCard, ...]) -> None:
        self._spend(seat, [c.card for c in cards])
        owner, meld = self.melds[index]
        self.melds[index] = (owner, meld + cards)
        self._out_if_empty(seat)

    def discard(self, seat: int, card: Card) -> None:
        self._spend(seat, [card])
        self.pile.append(card)
        if self.hands[seat]:
            self.discarded[seat] = True
        self._out_if_empty(seat)

    def _spend(self, seat: int, cards: Sequence[Card]) -> None:
        for c in cards:
            self.hands[seat].remove(c)

    def _out_if_empty(self, seat: int) -> None:
        if not self.hands[seat]:
            self.ending, self.went_out = Ending.WENT_OUT, self.players[seat]

    @property
    def went_rummy(self) -> bool:
        """Out before ending any turn with a discard: all at once."""
        return self.went_out is not None and not self.discarded[self.players.index(self.went_out)]

    def final_table(self) -> HandInput:
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

    # --- legal moves (never leaving only the card just taken, which could not be discarded) --

    def _leaves_only_taken(self, seat: int, cards: Sequence[Card]) -> bool:
        rest = list(self.hands[seat])
        for c in cards:
            rest.remove(c)
        return rest == [self.taken] if self.taken is not None else False

    def hand_melds(self, seat: int) -> list[tuple[MeldCard, ...]]:
        """New melds of three cards from hand."""
        hand = sorted(self.hands[seat], key=lambda c: c.index)
        return [
            meld
            for combo in itertools.combinations(hand, 3)
            if rummy.rule_meld(meld := tuple(NATURAL[c] for c in combo)).valid
            and not self._leaves_only_taken(seat, combo)
        ]

    def extensions(self, seat: int) -> list[tuple[int, tuple[MeldCard, ...]]]:
        """One card from hand laid off on any meld on the table."""
        return [
            (index, (NATURAL[c],))
            for index, (_, meld) in enumerate(self.melds)
            for c in sorted(set(self.hands[seat]), key=lambda c: c.index)
            if rummy.rule_lay_off(meld, (NATURAL[c],)).allowed
            and not self._leaves_only_taken(seat, [c])
        ]

    def discards(self, seat: int) -> list[Card]:
        return sorted((c for c in self.hands[seat] if c != self.taken), key=lambda c: c.index)

"""Meld classification and validation (rulings 1-8).

>>> r = rule_meld(parse_meld(["JS", "2D=QS", "KS"]))
>>> r.valid, r.kind, r.points
(True, <MeldKind.RUN: 'run'>, 70)
>>> [v.code.value for v in rule_meld(parse_meld(["KH", "AH", "2H"])).violations]
['run_around_the_corner']
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.cards import ALL_CARDS, QUEEN_OF_SPADES, MeldCard, Rank, Suit, parse_meld  # noqa: F401 (doctests)
from scoring.violations import Code, Violation, violation

MIN_MELD = 3
MAX_MELD = 4
COPIES_PER_CARD = 2


class MeldKind(enum.StrEnum):
    """The three kinds of meld."""

    SET = "set"
    RUN = "run"
    TWOS = "twos"


@dataclass(frozen=True, slots=True)
class MeldRuling:
    """The ruling on one meld: every violation at once, and its points from the declared cards."""

    cards: tuple[MeldCard, ...]
    kind: MeldKind | None
    points: int
    violations: tuple[Violation, ...]

    @property
    def valid(self) -> bool:
        """Whether the meld breaks no rule."""
        return not self.violations

    @property
    def notation(self) -> list[str]:
        """The meld in canonical notation, in the order given."""
        return [card.code for card in self.cards]


def meld_text(cards: Sequence[MeldCard]) -> str:
    """The meld as a human reads it: ``JS 2D=QS KS``."""
    return " ".join(card.code for card in cards)


def rule_meld(cards: Sequence[MeldCard]) -> MeldRuling:
    """Classify and validate a meld, reporting every violation at once.

    The ruling does not depend on the order the cards are listed in.

    >>> rule_meld(parse_meld(["7H", "2C=7D", "2S=7C"])).kind
    <MeldKind.SET: 'set'>
    """
    return _rule(tuple(cards))


@lru_cache(maxsize=8192)
def _rule(cards: tuple[MeldCard, ...]) -> MeldRuling:
    # One pass gathers what every check needs: this runs for every meld of every hand.
    count = len(cards)
    ranks: set[Rank] = set()
    suits: set[Suit] = set()
    declared: set[int] = set()
    physical: set[int] = set()
    wild = twos = points = 0
    for c in cards:
        represents, card = c.represents, c.card
        ranks.add(represents.rank)
        suits.add(represents.suit)
        declared.add(represents.index)
        physical.add(card.index)
        points += c.points
        wild += c.wild
        twos += card.is_two

    found: list[Violation] = []
    if count < MIN_MELD:
        found.append(violation(Code.MELD_TOO_SHORT, meld=meld_text(cards), count=count))
    elif count > MAX_MELD:
        found.append(violation(Code.MELD_TOO_LONG, meld=meld_text(cards), count=count))

    kind: MeldKind
    if count and twos == count:
        kind = MeldKind.TWOS
        if wild:
            found.extend(
                violation(Code.TWOS_SET_DECLARES_OTHER_CARD, card=c.code) for c in cards if c.wild
            )
            points = sum(c.card.points for c in cards)
    elif len(ranks) <= 1:
        kind = MeldKind.SET
    elif len(suits) == 1:
        kind = MeldKind.RUN
        _run_order(cards, ranks, found)
    elif len(ranks) < count:
        kind = MeldKind.SET
        names = ", ".join(r.value for r in sorted(ranks, key=lambda r: r.order))
        found.append(violation(Code.SET_MIXED_RANKS, meld=meld_text(cards), ranks=names))
    else:
        kind = MeldKind.RUN
        names = ", ".join(s.value for s in Suit if s in suits)
        found.append(violation(Code.RUN_MIXED_SUITS, meld=meld_text(cards), suits=names))
        _run_order(cards, ranks, found)
    if wild >= 2 and kind is not MeldKind.TWOS:
        _wild_queen(cards, found)
    # A third copy of a card needs at least two repeats among the cards.
    if len(declared) <= count - 2 or len(physical) <= count - 2:
        _copies(cards, found)
    return MeldRuling(cards, None if found else kind, points, tuple(found))


def _run_order(cards: tuple[MeldCard, ...], ranks: set[Rank], found: list[Violation]) -> None:
    if len(ranks) == len(cards):
        low = sorted(c.represents.rank.order for c in cards)
        if low[-1] - low[0] == len(low) - 1:
            return
        if Rank.ACE in ranks:
            high = sorted(
                14 if c.represents.rank is Rank.ACE else c.represents.rank.order for c in cards
            )
            if high[-1] - high[0] == len(high) - 1:
                return
    if {Rank.KING, Rank.ACE, Rank.TWO} <= ranks:
        found.append(violation(Code.RUN_AROUND_THE_CORNER, meld=meld_text(cards)))
    else:
        found.append(violation(Code.RUN_NOT_CONSECUTIVE, meld=meld_text(cards)))


def _wild_queen(cards: tuple[MeldCard, ...], found: list[Violation]) -> None:
    found.extend(
        violation(Code.WILD_QUEEN_OF_SPADES, card=c.code, meld=meld_text(cards))
        for c in cards
        if c.wild and c.represents == QUEEN_OF_SPADES
    )


def _copies(cards: tuple[MeldCard, ...], found: list[Violation]) -> None:
    declared = [c.represents.index for c in cards]
    physical = [c.card.index for c in cards]
    worst: dict[int, int] = {}
    for indexes in (declared, physical):
        for index in set(indexes):
            count = indexes.count(index)
            if count > COPIES_PER_CARD:
                worst[index] = max(count, worst.get(index, 0))
    found.extend(
        violation(
            Code.TOO_MANY_COPIES, meld=meld_text(cards), card=ALL_CARDS[index].code, count=count
        )
        for index, count in sorted(worst.items())
    )


MAX_SUGGESTED_TWOS = 2
MAX_SUGGESTIONS = 5


def suggest_declarations(cards: Sequence[MeldCard]) -> tuple[tuple[MeldCard, ...], ...]:
    """Legal melds obtained by declaring what bare twos stand for, when the meld is not legal.

    A ruling never assumes a declaration; it only offers these.

    >>> [[c.code for c in m] for m in suggest_declarations(parse_meld(["5H", "2C", "7H"]))]
    [['5H', '2C=6H', '7H']]
    """
    cards = tuple(cards)
    bare = [i for i, c in enumerate(cards) if c.card.is_two and not c.wild]
    naturals = [c.represents for c in cards if not c.card.is_two]
    if (
        not bare
        or not naturals
        or len(bare) > MAX_SUGGESTED_TWOS
        or len(cards) > MAX_MELD
        or _rule(cards).valid
    ):
        return ()  # nothing to suggest, or no declaration could make it legal
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    candidates = [card for card in ALL_CARDS if card.rank in ranks or card.suit in suits]
    found: list[tuple[MeldCard, ...]] = []
    for choice in itertools.product(*([None, *candidates] for _ in bare)):
        if all(c is None for c in choice):
            continue
        attempt = list(cards)
        for index, declared in zip(bare, choice, strict=True):
            if declared is not None:
                attempt[index] = MeldCard(cards[index].card, declared)
        meld = tuple(attempt)
        if _rule(meld).valid:
            found.append(meld)
    found.sort(key=lambda meld: (sum(c.wild for c in meld), [c.code for c in meld]))
    return tuple(found[:MAX_SUGGESTIONS])

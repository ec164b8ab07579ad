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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.cards import ALL_CARDS, QUEEN_OF_SPADES, Card, MeldCard, Rank, parse_meld  # noqa: F401 (doctests)
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
    text = meld_text(cards)
    found: list[Violation] = []
    if len(cards) < MIN_MELD:
        found.append(violation(Code.MELD_TOO_SHORT, meld=text, count=len(cards)))
    elif len(cards) > MAX_MELD:
        found.append(violation(Code.MELD_TOO_LONG, meld=text, count=len(cards)))

    kind: MeldKind | None
    if cards and all(c.card.is_two for c in cards):
        kind = MeldKind.TWOS
        found.extend(
            violation(Code.TWOS_SET_DECLARES_OTHER_CARD, card=c.code) for c in cards if c.wild
        )
    else:
        kind, shape = _classify([c.represents for c in cards], text)
        found.extend(shape)
        found.extend(_wild_queen(cards, text))
    found.extend(_copies(cards, text))
    points = sum(c.card.points if kind is MeldKind.TWOS else c.points for c in cards)
    return MeldRuling(cards, kind if not found else None, points, tuple(found))


def _classify(declared: list[Card], text: str) -> tuple[MeldKind, list[Violation]]:
    ranks = [card.rank for card in declared]
    suits = {card.suit for card in declared}
    if len(set(ranks)) <= 1:
        return MeldKind.SET, []
    if len(suits) == 1:
        return MeldKind.RUN, _run_order(ranks, text)
    if max(Counter(ranks).values()) > 1:
        names = ", ".join(sorted({r.value for r in ranks}, key=lambda v: Rank(v).order))
        return MeldKind.SET, [violation(Code.SET_MIXED_RANKS, meld=text, ranks=names)]
    names = ", ".join(s.value for s in sorted(suits, key=lambda s: "SHDC".index(s.value)))
    found = [violation(Code.RUN_MIXED_SUITS, meld=text, suits=names)]
    found.extend(_run_order(ranks, text))
    return MeldKind.RUN, found


def _run_order(ranks: list[Rank], text: str) -> list[Violation]:
    low = sorted(r.order for r in ranks)
    high = sorted(14 if r is Rank.ACE else r.order for r in ranks)
    if _consecutive(low) or _consecutive(high):
        return []
    present = set(ranks)
    if {Rank.KING, Rank.ACE, Rank.TWO} <= present:
        return [violation(Code.RUN_AROUND_THE_CORNER, meld=text)]
    return [violation(Code.RUN_NOT_CONSECUTIVE, meld=text)]


def _consecutive(orders: list[int]) -> bool:
    return all(b - a == 1 for a, b in itertools.pairwise(orders))


def _wild_queen(cards: tuple[MeldCard, ...], text: str) -> list[Violation]:
    wild = [c for c in cards if c.wild]
    if len(wild) < 2:
        return []
    return [
        violation(Code.WILD_QUEEN_OF_SPADES, card=c.code, meld=text)
        for c in wild
        if c.represents == QUEEN_OF_SPADES
    ]


def _copies(cards: tuple[MeldCard, ...], text: str) -> list[Violation]:
    declared = Counter(c.represents for c in cards)
    physical = Counter(c.card for c in cards)
    worst: dict[Card, int] = {}
    for counter in (declared, physical):
        for card, count in counter.items():
            if count > COPIES_PER_CARD:
                worst[card] = max(count, worst.get(card, 0))
    return [
        violation(Code.TOO_MANY_COPIES, meld=text, card=card.code, count=count)
        for card, count in sorted(worst.items(), key=lambda item: ALL_CARDS.index(item[0]))
    ]


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
    if not bare or not naturals or len(bare) > MAX_SUGGESTED_TWOS or _rule(cards).valid:
        return ()
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

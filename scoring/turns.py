"""Rulings on a turn: discarding, taking the discard pile, extending a meld (rulings 14-16).

>>> rule_discard(Card.parse("QS")).allowed
False
>>> r = rule_take_discards(MeldCard.parse("7H"), parse_meld(["7D", "2C=7S"]))
>>> r.allowed, [c.code for c in r.meld]
(True, ['7H', '7D', '2C=7S'])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring.cards import QUEEN_OF_SPADES, Card, MeldCard, parse_meld  # noqa: F401
from scoring.melds import rule_meld
from scoring.violations import Code, Violation, violation

MIN_FROM_HAND = 2


@dataclass(frozen=True, slots=True)
class TurnRuling:
    """Whether a move is allowed, the meld it would make, and every violation."""

    meld: tuple[MeldCard, ...] | None
    violations: tuple[Violation, ...]

    @property
    def allowed(self) -> bool:
        """Whether the move breaks no rule."""
        return not self.violations


def rule_discard(card: Card) -> TurnRuling:
    """May this card be discarded? Never the queen of spades (ruling 14)."""
    if card == QUEEN_OF_SPADES:
        return TurnRuling(None, (violation(Code.QUEEN_OF_SPADES_DISCARD, card=card.code),))
    return TurnRuling(None, ())


def rule_take_discards(top_card: MeldCard, from_hand: Sequence[MeldCard]) -> TurnRuling:
    """May the discard pile be taken? The top card and two or more from hand make a new meld."""
    meld = (top_card, *from_hand)
    found: list[Violation] = []
    if len(from_hand) < MIN_FROM_HAND:
        found.append(
            violation(
                Code.TAKE_DISCARDS_NEEDS_TWO, "from_hand", card=top_card.code, count=len(from_hand)
            )
        )
    found.extend(rule_meld(meld).violations)
    return TurnRuling(meld, tuple(found))


def rule_extend(
    meld: Sequence[MeldCard],
    add: Sequence[MeldCard],
    *,
    player: Hashable | None = None,
    owner: Hashable | None = None,
) -> TurnRuling:
    """May these cards be added to this meld? Only to your own, and the result must be legal.

    >>> r = rule_extend(parse_meld(["JS", "QS", "KS"]), parse_meld(["2C=AS"]))
    >>> r.allowed, [c.code for c in r.meld]
    (True, ['JS', 'QS', 'KS', '2C=AS'])
    """
    extended = (*meld, *add)
    found: list[Violation] = []
    if player is not None and owner is not None and player != owner:
        found.append(violation(Code.NOT_YOUR_MELD, player=player, owner=owner))
    found.extend(rule_meld(extended).violations)
    return TurnRuling(extended, tuple(found))

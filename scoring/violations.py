"""Violation codes, violations as values, and the one place their sentences are written.

A violation is a code, its parameters and where it was found. The human sentence is
rendered from the code and parameters by :func:`render`, which takes a translation
function so that the API can serve English, Portuguese and French.

>>> v = Violation(Code.QUEEN_OF_SPADES_DISCARD, (("card", "QS"),))
>>> render(v)
'QS cannot be discarded: the queen of spades must be melded.'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final


class Code(enum.StrEnum):
    """Stable, public violation codes (docs/rules.md explains each)."""

    MELD_TOO_SHORT = "meld_too_short"
    MELD_TOO_LONG = "meld_too_long"
    SET_MIXED_RANKS = "set_mixed_ranks"
    RUN_MIXED_SUITS = "run_mixed_suits"
    RUN_NOT_CONSECUTIVE = "run_not_consecutive"
    RUN_AROUND_THE_CORNER = "run_around_the_corner"
    TWOS_SET_DECLARES_OTHER_CARD = "twos_set_declares_other_card"
    WILD_QUEEN_OF_SPADES = "wild_queen_of_spades"
    TOO_MANY_COPIES = "too_many_copies"
    PLAYERS_MISMATCH = "players_mismatch"
    CARD_COUNT_EXCEEDED = "card_count_exceeded"
    WENT_OUT_MISSING = "went_out_missing"
    WENT_OUT_UNKNOWN_PLAYER = "went_out_unknown_player"
    WENT_OUT_NOT_ALLOWED = "went_out_not_allowed"
    WENT_OUT_WITH_CARDS = "went_out_with_cards"
    PLAYER_WITHOUT_CARDS = "player_without_cards"
    TOO_FEW_CARDS = "too_few_cards"
    STOCK_EXHAUSTED_CARD_COUNT = "stock_exhausted_card_count"
    QUEEN_OF_SPADES_DISCARD = "queen_of_spades_discard"
    TAKE_DISCARDS_NEEDS_TWO = "take_discards_needs_two"
    NOT_YOUR_MELD = "not_your_meld"


Params = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its code, the values it names, and the path of the offending part."""

    code: Code
    params: Params = ()
    path: str | None = None

    @property
    def values(self) -> Mapping[str, str]:
        """The parameters as a mapping."""
        return dict(self.params)

    def at(self, path: str) -> Violation:
        """The same violation found at ``path`` (prefixing any path it already has)."""
        return Violation(self.code, self.params, f"{path}.{self.path}" if self.path else path)


def violation(code: Code, path: str | None = None, **params: object) -> Violation:
    """Build a violation, turning every parameter into text."""
    return Violation(code, tuple((k, str(v)) for k, v in params.items()), path)


def gettext_noop(message: str) -> str:
    """Mark a sentence for translation catalogs; the translation happens in :func:`render`."""
    return message


MESSAGES: Final[Mapping[Code, str]] = {
    Code.MELD_TOO_SHORT: gettext_noop(
        "A meld needs at least 3 cards; {meld} has {count}."),
    Code.MELD_TOO_LONG: gettext_noop(
        "No meld may exceed 4 cards; {meld} has {count}."),
    Code.SET_MIXED_RANKS: gettext_noop(
        "A set must be all one rank; {meld} mixes {ranks}."),
    Code.RUN_MIXED_SUITS: gettext_noop(
        "A run must be all one suit; {meld} mixes {suits}."),
    Code.RUN_NOT_CONSECUTIVE: gettext_noop(
        "A run must be consecutive ranks; {meld} is not."),
    Code.RUN_AROUND_THE_CORNER: gettext_noop(
        "An ace is low in A-2-3 or high in Q-K-A, never around the corner as in {meld}."),
    Code.TWOS_SET_DECLARES_OTHER_CARD: gettext_noop(
        "In a set of twos every two stands for itself; {card} may not be declared."),
    Code.WILD_QUEEN_OF_SPADES: gettext_noop(
        "{card} may stand for the queen of spades only when every other card of {meld} "
        "is natural."),
    Code.TOO_MANY_COPIES: gettext_noop(
        "{meld} holds {card} {count} times; two packs hold only two of each card."),
    Code.PLAYERS_MISMATCH: gettext_noop(
        "Every seated player must appear exactly once: {problem}."),
    Code.CARD_COUNT_EXCEEDED: gettext_noop(
        "{card} appears {count} times in this deal; two packs hold only two."),
    Code.WENT_OUT_MISSING: gettext_noop(
        "The hand ended with a player going out, but no player is named as going out."),
    Code.WENT_OUT_UNKNOWN_PLAYER: gettext_noop(
        "{player} is named as going out but is not among the players of this hand."),
    Code.WENT_OUT_NOT_ALLOWED: gettext_noop(
        "The stock ran out, so nobody went out; {player} cannot be named as going out."),
    Code.WENT_OUT_WITH_CARDS: gettext_noop(
        "{player} went out, so must have melded and hold no card; {problem}."),
    Code.PLAYER_WITHOUT_CARDS: gettext_noop(
        "{player} holds no card, but only the player who went out can end with none."),
    Code.TOO_FEW_CARDS: gettext_noop(
        "{player} accounts for {count} cards, melded and held; every player has at least 13."),
    Code.STOCK_EXHAUSTED_CARD_COUNT: gettext_noop(
        "When the stock runs out the players hold or have melded 103 or 104 cards; "
        "this hand accounts for {count}."),
    Code.QUEEN_OF_SPADES_DISCARD: gettext_noop(
        "{card} cannot be discarded: the queen of spades must be melded."),
    Code.TAKE_DISCARDS_NEEDS_TWO: gettext_noop(
        "To take the discard pile, meld its top card {card} with at least two cards from "
        "your hand; {count} given."),
    Code.NOT_YOUR_MELD: gettext_noop(
        "{player} may add cards only to their own melds; this meld belongs to {owner}."),
}  # fmt: skip


NOTATION_MESSAGES: Final[Mapping[str, str]] = {
    "invalid_card": gettext_noop(
        "{text} is not a card: write a rank (A, 2-10 or T, J, Q, K) then a suit (S, H, D, C)."),
    "declaration_on_non_two": gettext_noop(
        "{text}: only a two may stand for another card."),
    "declaration_outside_meld": gettext_noop(
        "{text}: a declaration such as 2D=QS belongs in a meld, not here."),
    "not_a_list": gettext_noop(
        "{text} is not a list of cards."),
}  # fmt: skip


def _identity(message: str) -> str:
    return message


def render(item: Violation, translate: Callable[[str], str] = _identity) -> str:
    """The human sentence for a violation, through ``translate`` (Django's gettext in the API)."""
    return translate(MESSAGES[item.code]).format_map(dict(item.params))


def render_notation(code: str, text: str, translate: Callable[[str], str] = _identity) -> str:
    """The human sentence for a notation error with ``code`` about ``text``.

    >>> render_notation("declaration_on_non_two", "7H=7D")
    '7H=7D: only a two may stand for another card.'
    """
    return translate(NOTATION_MESSAGES[code]).format(text=text)

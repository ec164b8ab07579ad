"""Cards, the two-pack notation and card values.

A card is a rank and a suit. Input is lenient (``10h``, ``TH``, ``10♥``); output is one
canonical ASCII form (``10H``). A card in a meld may be a two standing for another card,
written ``2D=QS``.

>>> Card.parse("t♥").code
'10H'
>>> MeldCard.parse("2d=qs")
MeldCard.parse('2D=QS')
>>> MeldCard.parse("2D=QS").points
50
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, NoReturn, TypeVar

T = TypeVar("T")


class ScoringError(Exception):
    """Base class of the errors the engine raises for input it cannot read."""


class NotationError(ScoringError, ValueError):
    """A card or declaration that cannot be read, with a stable code and the offending text."""

    def __init__(self, code: str, text: str, index: int | None = None) -> None:
        super().__init__(f"{code}: {text!r}")
        self.code = code
        self.text = text
        self.index = index


class Suit(enum.Enum):
    """The four suits, by their canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons: identity hashing is correct and much faster than Enum's default.
    __hash__ = object.__hash__


class Rank(enum.Enum):
    """The thirteen ranks, by their canonical notation."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    __hash__ = object.__hash__

    @property
    def order(self) -> int:
        """Position in a run with the ace low: A=1, 2=2, ..., K=13."""
        return _RANK_ORDER[self]


_RANK_ORDER: Final = {rank: i for i, rank in enumerate(Rank, start=1)}
_SUIT_ORDER: Final = {suit: i for i, suit in enumerate(Suit)}

_SUIT_ALIASES: Final = {
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_RANK_ALIASES: Final = {rank.value: rank for rank in Rank} | {"T": Rank.TEN}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card. Two packs are used, so equal cards are interchangeable."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False)
    """Position in :data:`ALL_CARDS` (suit by suit, ace to king): equality and hash use it."""
    code: str = field(init=False, repr=False)
    """The canonical ASCII notation, such as ``10H``."""
    points: int = field(init=False, repr=False)
    """What the card scores melded, or costs held.

    >>> [Card.parse(c).points for c in ("QS", "QH", "AC", "2D", "9S", "7H")]
    [50, 10, 20, 20, 10, 5]
    """
    is_two: bool = field(init=False, repr=False)
    """Whether the card is a two, the wild card of Arlington."""

    def __post_init__(self) -> None:
        # Computed once: cards are read and compared on every request.
        index = _SUIT_ORDER[self.suit] * 13 + _RANK_ORDER[self.rank] - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "code", self.rank.value + self.suit.value)
        object.__setattr__(self, "points", _value(self.rank, self.suit))
        object.__setattr__(self, "is_two", self.rank is Rank.TWO)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card in any accepted form.

        >>> Card.parse(" 10♦ ").code, Card.parse("qs").code
        ('10D', 'QS')
        """
        if not isinstance(text, str):
            _bad(text)
        return _parse_card(text)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _value(rank: Rank, suit: Suit) -> int:
    if rank is Rank.QUEEN and suit is Suit.SPADES:
        return 50
    if rank in (Rank.ACE, Rank.TWO):
        return 20
    if rank.order >= 8:
        return 10
    return 5


ALL_CARDS: Final = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_BY_KEY: Final = {(card.rank, card.suit): card for card in ALL_CARDS}
QUEEN_OF_SPADES: Final = _BY_KEY[(Rank.QUEEN, Suit.SPADES)]


_EMOJI_PRESENTATION: Final = "\ufe0f"  # phone keyboards send ♥️ as ♥ + this selector


@lru_cache(maxsize=4096)
def _parse_card(text: str) -> Card:
    raw = text.replace(_EMOJI_PRESENTATION, "").strip().upper()
    if "=" in raw:
        raise NotationError("declaration_outside_meld", text)
    if len(raw) < 2 or raw[-1] not in _SUIT_ALIASES or raw[:-1] not in _RANK_ALIASES:
        raise NotationError("invalid_card", text)
    return _BY_KEY[(_RANK_ALIASES[raw[:-1]], _SUIT_ALIASES[raw[-1]])]


@dataclass(frozen=True, slots=True, eq=False)
class MeldCard:
    """A card as melded: the physical card and the card it stands for.

    Only a two may stand for another card; any other card stands for itself.
    """

    card: Card
    represents: Card
    key: int = field(init=False, repr=False)
    """The pair as one number: equality and hash use it."""
    wild: bool = field(init=False, repr=False)
    """Whether this is a two standing for a card other than itself."""
    points: int = field(init=False, repr=False)
    """A melded card scores the value of the card it stands for."""
    code: str = field(init=False, repr=False)
    """Canonical notation: ``7H``, ``2C`` or ``2D=QS``."""

    def __post_init__(self) -> None:
        wild = self.card != self.represents
        if wild and not self.card.is_two:
            text = f"{self.card.code}={self.represents.code}"
            raise NotationError("declaration_on_non_two", text)
        object.__setattr__(self, "key", self.card.index * 52 + self.represents.index)
        object.__setattr__(self, "wild", wild)
        object.__setattr__(self, "points", self.represents.points)
        code = f"{self.card.code}={self.represents.code}" if wild else self.card.code
        object.__setattr__(self, "code", code)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MeldCard):
            return self.key == other.key
        return NotImplemented

    def __hash__(self) -> int:
        return self.key

    @staticmethod
    def parse(text: str) -> MeldCard:
        """Read ``7H``, ``2C`` (a two standing for itself) or ``2D=QS``.

        >>> MeldCard.parse("2h=2h") == MeldCard.parse("2H")
        True
        """
        if not isinstance(text, str):
            _bad(text)
        return _parse_meld_card(text)

    @staticmethod
    def natural(card: Card) -> MeldCard:
        """The card standing for itself."""
        return MeldCard(card, card)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"MeldCard.parse({self.code!r})"


@lru_cache(maxsize=4096)
def _parse_meld_card(text: str) -> MeldCard:
    physical, sep, declared = text.partition("=")
    if "=" in declared:
        raise NotationError("invalid_card", text)
    try:
        card = _parse_card(physical)
        represents = _parse_card(declared) if sep else card
    except NotationError as error:
        raise NotationError(error.code, text) from None
    if sep and not card.is_two:
        raise NotationError("declaration_on_non_two", text)
    return MeldCard(card, represents)


def parse_meld(texts: object) -> tuple[MeldCard, ...]:
    """Read a meld given as a list of card strings.

    >>> [str(c) for c in parse_meld(["js", "2d=qs", "KS"])]
    ['JS', '2D=QS', 'KS']
    """
    if not isinstance(texts, (list, tuple)):
        raise NotationError("not_a_list", shown(texts))
    try:
        return tuple(map(_parse_meld_card, texts))
    except Exception:  # find which card, and say so, on the slow path
        return tuple(_at(i, MeldCard.parse, text) for i, text in enumerate(texts))


def parse_cards(texts: object) -> tuple[Card, ...]:
    """Read a list of plain cards, such as the cards left in a hand.

    >>> [c.code for c in parse_cards(["2d", "4♥"])]
    ['2D', '4H']
    """
    if not isinstance(texts, (list, tuple)):
        raise NotationError("not_a_list", shown(texts))
    try:
        return tuple(map(_parse_card, texts))
    except Exception:  # find which card, and say so, on the slow path
        return tuple(_at(i, Card.parse, text) for i, text in enumerate(texts))


def _at(index: int, parse: Callable[[str], T], text: object) -> T:
    try:
        return parse(text)  # type: ignore[arg-type]
    except NotationError as error:
        raise NotationError(error.code, error.text, index) from None


def _bad(value: object) -> NoReturn:
    raise NotationError("invalid_card", shown(value))


def shown(value: object) -> str:
    """A value that is not card text, written as the JSON it came in: ``["7D"]``, ``null``.

    >>> shown(["7D"]), shown(None), shown(7)
    ('["7D"]', 'null', '7')
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from JSON: as Python writes it
        return repr(value)

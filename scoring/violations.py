"""Violation codes, violations as values, and the one place their sentences are written.

A violation is a code, its parameters and where it was found. The human sentence is
rendered from the code and parameters by :func:`render`, which takes a translation
function so that the API can serve English, Portuguese and French. Cards are named as
players say them (:func:`card_name`), with their face in parentheses; melds and suits are
shown as the cards show them, the suits as ♠♥♦♣ in every language (:func:`faces`).

>>> v = Violation(Code.QUEEN_OF_SPADES_DISCARD, (("card", "QS"),))
>>> render(v)
'The queen of spades (Q♠) cannot be discarded, not even as the last card: it must be melded.'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from scoring.cards import MeldCard, Rank, Suit


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
    NOT_YOUR_TURN = "not_your_turn"
    DRAW_FIRST = "draw_first"
    ALREADY_DRAWN = "already_drawn"
    DRAW_CARD_UNKNOWN = "draw_card_unknown"
    DRAW_NOT_TOP_CARD = "draw_not_top_card"
    TAKE_PILE_TOP_CARD = "take_pile_top_card"
    UNKNOWN_MELD = "unknown_meld"
    MORE_CARDS_THAN_HELD = "more_cards_than_held"
    KNOWN_CARDS_IN_HAND = "known_cards_in_hand"
    HAND_ENDED = "hand_ended"
    HAND_NOT_ENDED = "hand_not_ended"
    HELD_COUNT_MISMATCH = "held_count_mismatch"
    HELD_KNOWN_CARD_MISSING = "held_known_card_missing"
    TAKE_PILE_NOT_ALLOWED = "take_pile_not_allowed"
    TAKE_DISCARD_NOT_ALLOWED = "take_discard_not_allowed"
    DISCARD_PILE_EMPTY = "discard_pile_empty"
    PASS_NOT_ALLOWED = "pass_not_allowed"
    WOULD_STRAND_TAKEN_CARD = "would_strand_taken_card"


Params = tuple[tuple[str, str], ...]

RuleCode = enum.StrEnum
"""The base of every ruleset's code enum: :class:`Code` is Arlington's (``scoring.rummy`` has
Rummy's). A code's value is what the API returns; its sentence comes from its enum's
:class:`Catalogue`, so two rulesets may share a code and say it in their own words."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its code, the values it names, and the path of the offending part."""

    code: RuleCode
    params: Params = ()
    path: str | None = None

    @property
    def values(self) -> Mapping[str, str]:
        """The parameters as a mapping."""
        return dict(self.params)

    def at(self, path: str) -> Violation:
        """The same violation found at ``path`` (prefixing any path it already has)."""
        return Violation(self.code, self.params, f"{path}.{self.path}" if self.path else path)


def violation(code: RuleCode, path: str | None = None, **params: object) -> Violation:
    """Build a violation, turning every parameter into text."""
    return Violation(code, tuple((k, str(v)) for k, v in params.items()), path)


def gettext_noop(message: str) -> str:
    """Mark a sentence for translation catalogs; the translation happens in :func:`render`."""
    return message


MESSAGES: Final[Mapping[Code, str]] = {
    Code.MELD_TOO_SHORT: gettext_noop("A meld needs at least 3 cards; {meld} has {count}."),
    Code.MELD_TOO_LONG: gettext_noop("No meld may exceed 4 cards; {meld} has {count}."),
    Code.SET_MIXED_RANKS: gettext_noop("A set must be all one rank; {meld} mixes {ranks}."),
    Code.RUN_MIXED_SUITS: gettext_noop("A run must be all one suit; {meld} mixes {suits}."),
    Code.RUN_NOT_CONSECUTIVE: gettext_noop("A run must be consecutive ranks; {meld} is not."),
    Code.RUN_AROUND_THE_CORNER: gettext_noop(
        "An ace is low in A-2-3 or high in Q-K-A, never around the corner as in {meld}."
    ),
    Code.TWOS_SET_DECLARES_OTHER_CARD: gettext_noop(
        "In a set of twos every two stands for itself; {card} is not allowed."
    ),
    Code.WILD_QUEEN_OF_SPADES: gettext_noop(
        "{card} is refused: a two may stand for the queen of spades only when every other "
        "card of {meld} is natural."
    ),
    Code.TOO_MANY_COPIES: gettext_noop(
        "{meld} holds {card} {count} times; two packs hold only two of each card."
    ),
    Code.PLAYERS_MISMATCH: gettext_noop("Every seated player must appear exactly once: {problem}."),
    Code.CARD_COUNT_EXCEEDED: gettext_noop(
        "{card} appears {count} times in this deal; two packs hold only two."
    ),
    Code.WENT_OUT_MISSING: gettext_noop(
        "The hand ended with a player going out, but no player is named as going out."
    ),
    Code.WENT_OUT_UNKNOWN_PLAYER: gettext_noop(
        "{player} is named as going out but is not among the players of this hand."
    ),
    Code.WENT_OUT_NOT_ALLOWED: gettext_noop(
        "The stock ran out, so nobody went out; {player} cannot be named as going out."
    ),
    Code.WENT_OUT_WITH_CARDS: gettext_noop(
        "{player} went out, so must have melded and hold no card; {problem}."
    ),
    Code.PLAYER_WITHOUT_CARDS: gettext_noop(
        "{player} holds no card, but only the player who went out can end with none."
    ),
    Code.TOO_FEW_CARDS: gettext_noop(
        "{player} has too few cards, melded and held: {count}; every player has at least 13."
    ),
    Code.STOCK_EXHAUSTED_CARD_COUNT: gettext_noop(
        "When the stock runs out the players hold or have melded 103 or 104 cards; "
        "this hand accounts for {count}."
    ),
    Code.QUEEN_OF_SPADES_DISCARD: gettext_noop(
        "{card} cannot be discarded, not even as the last card: it must be melded."
    ),
    Code.TAKE_DISCARDS_NEEDS_TWO: gettext_noop(
        "To take the discard pile, meld its top card, {card}, with at least two cards from "
        "your hand; {count} given."
    ),
    Code.NOT_YOUR_MELD: gettext_noop(
        "{player} may add cards only to their own melds; this meld belongs to {owner}."
    ),
    Code.NOT_YOUR_TURN: gettext_noop("It is {turn}'s turn, not {player}'s."),
    Code.DRAW_FIRST: gettext_noop(
        "{player} must start the turn by drawing from the stock or taking from the discard pile."
    ),
    Code.ALREADY_DRAWN: gettext_noop(
        "{player} has already drawn this turn: now meld, add to a meld, or discard."
    ),
    Code.DRAW_CARD_UNKNOWN: gettext_noop(
        "{card} cannot be named: a card drawn from the stock is known only once the stock has "
        "been turned over from the discards."
    ),
    Code.DRAW_NOT_TOP_CARD: gettext_noop(
        "{card} is not the next card of the turned-over stock; that card is {top}."
    ),
    Code.TAKE_PILE_TOP_CARD: gettext_noop(
        "To take the discard pile the new meld must use its top card, {card}; {meld} does not."
    ),
    Code.UNKNOWN_MELD: gettext_noop(
        "There is no meld number {meld}: the table holds {count} melds, numbered from 0."
    ),
    Code.MORE_CARDS_THAN_HELD: gettext_noop(
        "This move plays {count} from the hand of {player}, which holds only {held}."
    ),
    Code.KNOWN_CARDS_IN_HAND: gettext_noop(
        "{player} holds {held} cards and {cards} among them are known, taken with the discard "
        "pile or drawn from the turned-over stock; {count} other cards cannot come from that "
        "hand."
    ),
    Code.HAND_ENDED: gettext_noop(
        "The hand has ended: only the cards left in each hand can be entered now."
    ),
    Code.HAND_NOT_ENDED: gettext_noop(
        "The hand is still being played: it ends when a player goes out or nothing is left to "
        "turn over as the stock."
    ),
    Code.HELD_COUNT_MISMATCH: gettext_noop(
        "Cards left in the hand of {player}: {held} by the play so far, {count} entered."
    ),
    Code.HELD_KNOWN_CARD_MISSING: gettext_noop(
        "{player} is known to hold {card}, taken with the discard pile or drawn from the "
        "turned-over stock, but it is not among the cards entered."
    ),
    Code.TAKE_PILE_NOT_ALLOWED: gettext_noop(
        "In this game only the top discard is taken (take_discard), never the whole pile."
    ),
    Code.TAKE_DISCARD_NOT_ALLOWED: gettext_noop(
        "In this game the discard pile is taken whole, with a new meld of its top card "
        "(take_pile), never its top card alone."
    ),
    Code.DISCARD_PILE_EMPTY: gettext_noop("The discard pile is empty: draw from the stock."),
    Code.PASS_NOT_ALLOWED: gettext_noop(
        "{player} cannot end the turn without discarding: {problem}."
    ),
    Code.WOULD_STRAND_TAKEN_CARD: gettext_noop(
        "{player} would be left holding only {card}, taken from the discard pile this turn, "
        "which cannot be discarded in the same turn: keep another card, or play every card to "
        "go out."
    ),
}

PROBLEMS: Final[Mapping[str, str]] = {
    "duplicate": gettext_noop("{player} is listed {count} times"),
    "player_count": gettext_noop("{min} to {max} play, not {count}"),
    "missing": gettext_noop("{player} is missing"),
    "not_seated": gettext_noop("{player} is not seated at this table"),
    "holds_cards": gettext_noop("holds {cards}"),
    "melded_nothing": gettext_noop("melded nothing"),
    "no_pass": gettext_noop("in this game every turn ends with a discard or by going out"),
    "holds_other": gettext_noop(
        "only a player who holds nothing but cards that can never be discarded may pass, and "
        "{player} holds other cards"
    ),
    "meld": gettext_noop("their card can be added to meld number {meld}"),
    "new_meld": gettext_noop("their cards make a meld"),
}
"""The clauses a ``problem`` parameter names, for the codes that cover several situations."""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The sentences of one ruleset's codes and the clauses of their ``problem`` parameters."""

    messages: Mapping[Any, str]
    problems: Mapping[str, str]


CATALOGUES: Final[dict[type[RuleCode], Catalogue]] = {Code: Catalogue(MESSAGES, PROBLEMS)}
"""Each code enum's catalogue; a ruleset's module adds its own when it defines its codes."""


NOTATION_MESSAGES: Final[Mapping[str, str]] = {
    "invalid_card": gettext_noop(
        "{text} is not a card: write a rank (A, 2-10 or T, J, Q, K) then a suit (S, H, D, C)."
    ),
    "declaration_on_non_two": gettext_noop("{text}: only a two may stand for another card."),
    "declaration_outside_meld": gettext_noop(
        "{text}: a declaration such as 2D=QS belongs in a meld, not here."
    ),
    "not_a_list": gettext_noop("{text} is not a list of cards."),
}


RANK_NAMES: Final[Mapping[Rank, str]] = {
    Rank.ACE: gettext_noop("the ace"),
    Rank.TWO: gettext_noop("the two"),
    Rank.THREE: gettext_noop("the three"),
    Rank.FOUR: gettext_noop("the four"),
    Rank.FIVE: gettext_noop("the five"),
    Rank.SIX: gettext_noop("the six"),
    Rank.SEVEN: gettext_noop("the seven"),
    Rank.EIGHT: gettext_noop("the eight"),
    Rank.NINE: gettext_noop("the nine"),
    Rank.TEN: gettext_noop("the ten"),
    Rank.JACK: gettext_noop("the jack"),
    Rank.QUEEN: gettext_noop("the queen"),
    Rank.KING: gettext_noop("the king"),
}
"""Each rank with its article, as the start of a card's name ("a dama", "la dame")."""

SUIT_PHRASES: Final[Mapping[Suit, str]] = {
    Suit.SPADES: gettext_noop("{rank} of spades"),
    Suit.HEARTS: gettext_noop("{rank} of hearts"),
    Suit.DIAMONDS: gettext_noop("{rank} of diamonds"),
    Suit.CLUBS: gettext_noop("{rank} of clubs"),
}
"""Each suit as the phrase that completes a rank's name ("{rank} de espadas")."""

WILD_PHRASE: Final = gettext_noop("{card} standing for {represents}")
"""A two named with the card it is declared as."""

KIND_LABELS: Final[Mapping[str, str]] = {
    "set": gettext_noop("set"),
    "run": gettext_noop("run"),
    "twos": gettext_noop("set of twos"),
}
"""What players call each meld kind (the API keeps the stable value beside it)."""

ENDING_LABELS: Final[Mapping[str, str]] = {
    "went_out": gettext_noop("a player went out"),
    "stock_exhausted": gettext_noop("the stock ran out"),
}
"""How each way a hand ends is said (the API keeps the stable value beside it)."""


def _identity(message: str) -> str:
    return message


def card_name(code: str, translate: Callable[[str], str] = _identity) -> str:
    """A card, or a two and what it stands for, named as players say it.

    >>> card_name("QS"), card_name("AH")
    ('the queen of spades', 'the ace of hearts')
    >>> card_name("2D=QS")
    'the two of diamonds standing for the queen of spades'
    """
    melded = MeldCard.parse(code)
    name = _plain_name(melded.card.rank, melded.card.suit, translate)
    if not melded.wild:
        return name
    represents = _plain_name(melded.represents.rank, melded.represents.suit, translate)
    return translate(WILD_PHRASE).format(card=name, represents=represents)


def _plain_name(rank: Rank, suit: Suit, translate: Callable[[str], str]) -> str:
    return translate(SUIT_PHRASES[suit]).format(rank=translate(RANK_NAMES[rank]))


SUIT_SYMBOLS: Final[Mapping[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""The suits as every language's players see them on the cards (and the app shows them)."""

CARD_LISTS: Final = ("meld", "cards", "top")
"""The parameters holding cards in notation, which a sentence shows as faces ("4♥ 5♥ 7♥")."""

EMPTY_MELD: Final = gettext_noop("an empty meld")
"""A meld of no card, as a sentence names it ("A meld needs at least 3 cards; an empty meld has
0."), rather than leaving a blank where its cards would be."""


def faces(text: str) -> str:
    """Cards in notation as the cards show them, the rank then the suit's symbol; anything
    that is not a card (a meld's number) is left as it is.

    >>> faces("JS 2D=QS KS"), faces("10H"), faces("3")
    ('J♠ 2♦=Q♠ K♠', '10♥', '3')
    """

    def face(token: str) -> str:
        card, _, represents = token.partition("=")
        if len(card) < 2 or card[-1] not in SUIT_SYMBOLS or (represents and len(represents) < 2):
            return token
        shown = card[:-1] + SUIT_SYMBOLS[card[-1]]
        return f"{shown}={face(represents)}" if represents else shown

    return " ".join(face(token) for token in text.split(" "))


def render(item: Violation, translate: Callable[[str], str] = _identity) -> str:
    """The human sentence for a violation, through ``translate`` (Django's gettext in the API).

    >>> render(violation(Code.CARD_COUNT_EXCEEDED, card="AH", count=3))
    'The ace of hearts (A♥) appears 3 times in this deal; two packs hold only two.'
    >>> render(violation(Code.PLAYERS_MISMATCH, problem="missing", player="bob"))
    'Every seated player must appear exactly once: bob is missing.'
    >>> render(violation(Code.MELD_TOO_SHORT, meld="", count=0))
    'A meld needs at least 3 cards; an empty meld has 0.'
    """
    catalogue = CATALOGUES[type(item.code)]
    values = dict(item.params)
    for key in CARD_LISTS:
        if key in values:
            values[key] = faces(values[key])
    if values.get("meld") == "":
        values["meld"] = translate(EMPTY_MELD)
    if "suits" in values:
        values["suits"] = ", ".join(SUIT_SYMBOLS.get(s, s) for s in values["suits"].split(", "))
    if "card" in values:
        values["card"] = f"{card_name(values['card'], translate)} ({faces(values['card'])})"
    if "problem" in values:
        values["problem"] = translate(catalogue.problems[values["problem"]]).format_map(values)
    template = translate(catalogue.messages[item.code])
    sentence = template.format_map(values)
    if template.startswith("{card}"):
        return sentence[:1].upper() + sentence[1:]
    return sentence


NOTATION_SHOWN = 24
"""The longest text a notation sentence repeats whole; a longer one is cut, ending in "…"."""


def render_notation(code: str, text: str, translate: Callable[[str], str] = _identity) -> str:
    """The human sentence for a notation error with ``code`` about ``text``.

    >>> render_notation("declaration_on_non_two", "7H=7D")
    '7H=7D: only a two may stand for another card.'
    >>> render_notation("invalid_card", "Q" * 3000)[:30]
    'QQQQQQQQQQQQQQQQQQQQQQQ… is no'
    >>> render_notation("invalid_card", "")[:20]  # a blank text is shown in quotes, as written
    '"" is not a card: wr'
    """
    if not text.strip():
        return translate(NOTATION_MESSAGES[code]).format(text=f'"{text}"')
    if len(text) > NOTATION_SHOWN:
        text = text[: NOTATION_SHOWN - 1] + "…"
    return translate(NOTATION_MESSAGES[code]).format(text=text)


def label(value: str, translate: Callable[[str], str] = _identity) -> str:
    """The human name of a meld kind or a hand's ending, from its stable value.

    >>> label("twos"), label("stock_exhausted")
    ('set of twos', 'the stock ran out')
    """
    return translate({**KIND_LABELS, **ENDING_LABELS}[value])

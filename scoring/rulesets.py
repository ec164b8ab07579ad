"""The games the service scores, behind one interface: Arlington and classic Rummy.

A ruleset owns its meld rules, deal rules, scoring, finish and codes; the rulesets share the
card notation and the value types. The matches app and the live table ask a match's ruleset,
never a game's module directly, so a third game is one new module registered in
:data:`RULESETS`.

>>> from scoring import parse_meld
>>> [ruleset(name).rule_meld(parse_meld(["3H", "4H", "5H", "6H", "7H"]), {}).valid
...  for name in ("arlington", "rummy")]
[False, True]
>>> ruleset("rummy").options_with_defaults({"target": 250})
{'target': 250, 'ace': 'low'}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from scoring import hands, match, melds, rummy, turns
from scoring.cards import Card, MeldCard
from scoring.hands import HandInput, HandRuling
from scoring.match import Finish
from scoring.melds import MeldRuling
from scoring.turns import TurnRuling

Options = Mapping[str, object]
"""A match's options, as stored: each of the ruleset's :class:`Option` names with its value."""


@dataclass(frozen=True, slots=True)
class Option:
    """A setting fixed when a match is created: an integer in a range, or one of some words."""

    name: str
    default: int | str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


class Ruleset(Protocol):
    """What a game's rules answer; options are already read and hold every option's value.

    Turn rules (discarding, adding to a meld) and the deal size are here for live play.
    """

    @property
    def name(self) -> str:
        """The stable name, as a match's ``ruleset`` holds it."""

    @property
    def min_players(self) -> int:
        """The fewest players at a table."""

    @property
    def max_players(self) -> int:
        """The most players at a table."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The options a match of this game is created with."""

    @property
    def hand_flags(self) -> tuple[str, ...]:
        """Yes/no facts a recorded hand states besides its melds and cards (Rummy: ``rummy``)."""

    def deal_size(self, players: int) -> int:
        """How many cards each player is dealt."""

    def card_points(self, card: Card) -> int:
        """What a card held at the end of a hand counts."""

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        """Classify and validate one meld."""

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        """Score a finished hand and report every violation; ``net`` adds to a total."""

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        """May ``player`` add these cards to the meld ``owner`` put down?"""

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        """May this card be discarded, given the card taken from the discard pile this turn?"""

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        """After a completed hand: is the match over, and who won?"""

    def winner_deals(self, seats: int) -> bool:
        """Whether the winner of a hand deals the next one (else the deal passes left)."""

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        """The seat that deals the next hand, from this hand's dealer and who went out."""

    def options_with_defaults(self, given: Options) -> dict[str, object]:
        """Every option's value: the given ones (already checked) and the defaults."""


class _Options:
    options: tuple[Option, ...] = ()

    def options_with_defaults(self, given: Options) -> dict[str, object]:
        return {option.name: given.get(option.name, option.default) for option in self.options}


class Arlington(_Options):
    """Arlington, by the existing engine's functions (its behaviour is unchanged)."""

    name = "arlington"
    min_players = hands.MIN_PLAYERS
    max_players = hands.MAX_PLAYERS
    hand_flags: tuple[str, ...] = ()

    def deal_size(self, players: int) -> int:
        return hands.MIN_CARDS_PER_PLAYER

    def card_points(self, card: Card) -> int:
        return card.points

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        return melds.rule_meld(cards)

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        return hands.rule_hand(hand, seated=seated)

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        return turns.rule_extend(meld, add, player=player, owner=owner)

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        return turns.rule_discard(card)

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        return match.decide_finish(totals)

    def winner_deals(self, seats: int) -> bool:
        return False

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return (dealer + 1) % seats


class Rummy(_Options):
    """Classic Rummy (``scoring.rummy``), with its target score and where the ace stands."""

    name = "rummy"
    min_players = rummy.MIN_PLAYERS
    max_players = rummy.MAX_PLAYERS
    hand_flags = ("rummy",)
    options = (
        Option("target", rummy.DEFAULT_TARGET, minimum=1, maximum=rummy.MAX_TARGET),
        Option("ace", rummy.Ace.LOW.value, choices=tuple(a.value for a in rummy.Ace)),
    )

    def deal_size(self, players: int) -> int:
        return rummy.deal_size(players)

    def card_points(self, card: Card) -> int:
        return rummy.pips(card)

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        return rummy.rule_meld(cards, ace=_ace(options))

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        went_rummy = bool(flags.get("rummy", False))
        return rummy.rule_hand(hand, rummy=went_rummy, ace=_ace(options), seated=seated)

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        return rummy.rule_lay_off(meld, add, ace=_ace(options))

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        return rummy.rule_discard(card, taken_from_discards=taken_from_discards)

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        target = int(str(options.get("target", rummy.DEFAULT_TARGET)))
        return rummy.decide_finish(totals, target=target)

    def winner_deals(self, seats: int) -> bool:
        return seats == 2

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return rummy.next_dealer(seats=seats, dealer=dealer, went_out=went_out)


def _ace(options: Options) -> rummy.Ace:
    return rummy.Ace(str(options.get("ace", rummy.Ace.LOW.value)))


ARLINGTON: Final = Arlington()
RUMMY: Final = Rummy()
RULESETS: Final[Mapping[str, Ruleset]] = {ARLINGTON.name: ARLINGTON, RUMMY.name: RUMMY}
"""Every ruleset by its stable name; the first is the default."""
DEFAULT: Final = ARLINGTON.name


def ruleset(name: str) -> Ruleset:
    """The ruleset of that name (``KeyError`` for an unknown one).

    >>> ruleset("rummy").deal_size(3), ruleset("arlington").deal_size(3)
    (7, 13)
    """
    return RULESETS[name]

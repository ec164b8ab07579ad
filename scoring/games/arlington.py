"""Arlington (Oklahoma Rummy), by the engine's own functions: the default game.

>>> from scoring import parse_meld
>>> RULESET.rule_meld(parse_meld(["JS", "2D=QS", "KS"]), {}).points
70
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Final

from scoring import hands, match, melds, turns
from scoring.cards import QUEEN_OF_SPADES, Card, MeldCard, Rank
from scoring.hands import Ending, HandInput, HandRuling
from scoring.match import Finish
from scoring.melds import MeldRuling
from scoring.rulesets import BaseRuleset, Extends, MeldSizes, Options, Take
from scoring.turns import TurnRuling
from scoring.violations import Code, gettext_noop


class Arlington(BaseRuleset):
    """Arlington, by the existing engine's functions (its behaviour is unchanged)."""

    name = "arlington"
    label = gettext_noop("Arlington")
    description = gettext_noop(
        "Oklahoma Rummy: two packs, wild twos, the 50-point queen of spades, played to 1,000."
    )
    min_players = hands.MIN_PLAYERS
    max_players = hands.MAX_PLAYERS
    packs = melds.COPIES_PER_CARD
    wild_rank = Rank.TWO
    meld_sizes = MeldSizes(melds.MIN_MELD, melds.MAX_MELD)
    target = match.TARGET_TOTAL
    endings = (Ending.WENT_OUT, Ending.STOCK_EXHAUSTED)
    take = Take.PILE
    extends = Extends.OWN
    turn_over_keeps_top = True
    card_count_code = Code.CARD_COUNT_EXCEEDED
    never_discarded = QUEEN_OF_SPADES

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

    def suggest(
        self, cards: Sequence[MeldCard], options: Options
    ) -> tuple[tuple[MeldCard, ...], ...]:
        return tuple(melds.suggest_declarations(cards))

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

    def rule_take(
        self, top_card: MeldCard, from_hand: Sequence[MeldCard], options: Options
    ) -> TurnRuling:
        return turns.rule_take_discards(top_card, from_hand)

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        return match.decide_finish(totals)

    def winner_deals(self, seats: int) -> bool:
        return False

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return (dealer + 1) % seats


RULESET: Final = Arlington()

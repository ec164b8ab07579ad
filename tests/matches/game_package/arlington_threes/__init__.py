"""Threes: sets of three or four of a rank only, from one pack; seven cards each.

A melded card scores 1, a card left in hand costs 1, going out earns 5; the match is played
to 20. Its name and description are in Portuguese too (locale/, compiled when installed).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from django.utils.translation import gettext_lazy

from scoring import (
    Card,
    Code,
    Ending,
    HandInput,
    HandRuling,
    MeldCard,
    MeldKind,
    MeldRuling,
    PlayerResult,
    TurnRuling,
    rummy,
)
from scoring.match import Finish
from scoring.rulesets import BaseRuleset, Extends, MeldSizes, Option, Options, Take
from scoring.violations import violation


class Threes(BaseRuleset):
    name = "threes"
    label = gettext_lazy("Threes")
    description = gettext_lazy("Sets only, from one pack, played to 20.")
    min_players, max_players = 2, 4
    packs = 1
    meld_sizes = MeldSizes(3, 4)
    target = 20
    endings = (Ending.WENT_OUT,)
    take = Take.DISCARD
    extends = Extends.ANY
    turn_over_keeps_top = False
    card_count_code = rummy.RummyCode.CARD_COUNT_EXCEEDED
    # an option of the same name as Rummy's, with other choices: it must not rename Rummy's
    # in the OpenAPI description
    options = (Option("ace", "one", choices=("one", "eleven"), description="What an ace counts."),)

    def deal_size(self, players: int) -> int:
        return 7

    def card_points(self, card: Card) -> int:
        return 1

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        text = " ".join(c.code for c in cards)
        found = []
        if len(cards) < 3:
            found.append(violation(Code.MELD_TOO_SHORT, meld=text, count=len(cards)))
        if len(cards) > 4:
            found.append(violation(Code.MELD_TOO_LONG, meld=text, count=len(cards)))
        ranks = sorted({c.card.rank.value for c in cards})
        if len(ranks) > 1:
            found.append(violation(Code.SET_MIXED_RANKS, meld=text, ranks=", ".join(ranks)))
        return MeldRuling(tuple(cards), None if found else MeldKind.SET, len(cards), tuple(found))

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        found = []
        results = []
        for i, entry in enumerate(hand.results):
            melds = tuple(self.rule_meld(meld, options) for meld in entry.melds)
            for j, meld in enumerate(melds):
                found.extend(v.at(f"results.{i}.melds.{j}") for v in meld.violations)
            results.append(
                PlayerResult(
                    player=entry.player,
                    melds=melds,
                    held=entry.held,
                    melded_points=sum(len(meld) for meld in entry.melds),
                    hand_penalty=len(entry.held),
                    bonus=5 if entry.player == hand.went_out else 0,
                )
            )
        return HandRuling(tuple(results), tuple(found))

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        extended = (*meld, *add)
        return TurnRuling(extended, self.rule_meld(extended, options).violations)

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        return TurnRuling(None, ())

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        return rummy.decide_finish(totals, target=self.target)

    def winner_deals(self, seats: int) -> bool:
        return False

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return (dealer + 1) % seats


RULESET = Threes()

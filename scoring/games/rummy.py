"""Classic Rummy (``scoring.rummy``), with its target score and where the ace stands.

>>> from scoring import parse_meld
>>> RULESET.rule_meld(parse_meld(["3H", "4H", "5H", "6H", "7H"]), {}).valid
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Final

from scoring import rummy
from scoring.cards import Card, MeldCard
from scoring.hands import Ending, HandInput, HandRuling
from scoring.match import Finish
from scoring.melds import MeldRuling
from scoring.rulesets import BaseRuleset, Extends, Flag, MeldSizes, Option, Options, Take
from scoring.rummy import RummyCode
from scoring.turns import TurnRuling
from scoring.violations import gettext_noop

ACE_CHOICES: Final = tuple(a.value for a in rummy.Ace)
"""The ace option's words; the OpenAPI description names their enum ``AceEnum`` by them, so
that a game of a package with an ``ace`` option of its own leaves Rummy's its name."""


class Rummy(BaseRuleset):
    """Classic Rummy (``scoring.rummy``), with its target score and where the ace stands."""

    name = "rummy"
    label = gettext_noop("Rummy")
    description = gettext_noop(
        "Classic Rummy: one pack, runs of any length, lay-offs on any meld; the others pay the "
        "winner what they hold."
    )
    min_players = rummy.MIN_PLAYERS
    max_players = rummy.MAX_PLAYERS
    packs = 1
    meld_sizes = MeldSizes(rummy.MIN_MELD, None)
    target = rummy.DEFAULT_TARGET
    endings = (Ending.WENT_OUT,)
    flags = (Flag("rummy", gettext_noop("Went out all at once (rummy)")),)
    take = Take.DISCARD
    extends = Extends.ANY
    turn_over_keeps_top = False
    card_count_code = RummyCode.CARD_COUNT_EXCEEDED
    options = (
        Option(
            "target",
            rummy.DEFAULT_TARGET,
            minimum=1,
            maximum=rummy.MAX_TARGET,
            description="The total that ends the match (100 unless the match says otherwise).",
        ),
        Option(
            "ace",
            rummy.Ace.LOW.value,
            choices=ACE_CHOICES,
            description='Where an ace may stand in a run: "low" (A-2-3 only, the default) or '
            '"high_or_low" (A-2-3 or Q-K-A, never K-A-2).',
        ),
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

    def live_flags(self, *, all_at_once: bool) -> dict[str, bool]:
        return {"rummy": all_at_once}

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        target = int(str(options.get("target", rummy.DEFAULT_TARGET)))
        return rummy.decide_finish(totals, target=target)

    def winner_deals(self, seats: int) -> bool:
        return seats == 2

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return rummy.next_dealer(seats=seats, dealer=dealer, went_out=went_out)


def _ace(options: Options) -> rummy.Ace:
    return rummy.Ace(str(options.get("ace", rummy.Ace.LOW.value)))


RULESET: Final = Rummy()

"""What a hand leaves behind at the table: every seat's figures, the finish, who deals next.

Recording a hand, correcting one and voiding the last all end here: each gives the seats as
they were, every player's total as it now is and who went out before and after the change;
``after_hand`` works out the rest, with the match's own finish rule (``decide``).

>>> seats = [SeatState("ann", 990, 2), SeatState("bob", 980, 1)]
>>> after = after_hand(seats, {"ann": 1030, "bob": 1030}, decide=decide_finish, out_after="ann")
>>> after.finish.shared_victory, [(s.player, s.winner, s.went_out, str(s.victory_points))
...                               for s in after.seats]
(True, [('ann', True, 3, '0.5000'), ('bob', True, 1, '0.5000')])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from scoring.match import Finish, dealer_position, decide_finish

VICTORY_POINT_PLACES = Decimal("0.0001")
"""A shared victory's part, as a seat keeps it: 1/3 is 0.3333."""


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat's running figures: its player, their total, and how many hands they went out in."""

    player: Hashable
    total: int
    went_out: int


@dataclass(frozen=True, slots=True)
class SeatAfter:
    """A seat's figures after a hand: also whether they won and their part of the victory."""

    player: Hashable
    total: int
    went_out: int
    winner: bool
    victory_points: Decimal


@dataclass(frozen=True, slots=True)
class AfterHand:
    """The seats in their order, and the match's finish."""

    seats: tuple[SeatAfter, ...]
    finish: Finish

    @property
    def winners(self) -> tuple[Hashable, ...]:
        return self.finish.winners


def victory_share(finish: Finish) -> Decimal:
    """What each winner's seat counts: 1, or 1/k of a k-way shared victory; 0 before the end.

    >>> victory_share(Finish(True, ("ann", "bob", "cat")))
    Decimal('0.3333')
    """
    if not finish.winners:
        return Decimal(0)
    return (Decimal(1) / len(finish.winners)).quantize(VICTORY_POINT_PLACES)


def after_hand(
    seats: Sequence[SeatState],
    totals: Mapping[Hashable, int],
    *,
    decide: Callable[[Mapping[Hashable, int]], Finish] = decide_finish,
    out_before: Hashable | None = None,
    out_after: Hashable | None = None,
) -> AfterHand:
    """The seats after a change to the match's hands, and whether it is over.

    ``totals`` are every seated player's totals after the change; ``out_before`` is who went
    out in the hand as it was (a corrected or voided hand; None for a new hand or nobody),
    ``out_after`` who went out in it as it now is (a recorded or corrected hand). The finish is
    ``decide`` on the totals: a correction that would end the match before its last hand is
    refused before this is asked, and the hand before a voided one never finished the match.
    """
    finish = decide(totals)
    share = victory_share(finish)
    after = []
    for seat in seats:
        winner = seat.player in finish.winners
        went_out = seat.went_out - (seat.player == out_before) + (seat.player == out_after)
        after.append(
            SeatAfter(
                player=seat.player,
                total=totals[seat.player],
                went_out=went_out,
                winner=winner,
                victory_points=share if winner else Decimal(0),
            )
        )
    return AfterHand(tuple(after), finish)


def dealer(
    seated: Sequence[Hashable],
    number: int,
    *,
    first_dealer: Hashable,
    previous: tuple[Hashable, Hashable | None] | None = None,
    winner_deals: bool = False,
    next_dealer: Callable[..., int] | None = None,
) -> Hashable:
    """Who deals hand ``number``: ``seated`` in seating order, the deal passing clockwise from
    ``first_dealer``; where the winner of a hand deals the next (``winner_deals``), the hand
    before decides (``previous``: its dealer and who went out), by the ruleset's
    ``next_dealer`` (``seats``, ``dealer`` and ``went_out`` as positions).

    >>> dealer(["ann", "bob", "cat"], 2, first_dealer="bob")
    'cat'
    """
    if number > 1 and winner_deals and previous is not None and next_dealer is not None:
        last_dealer, went_out = previous
        position = next_dealer(
            seats=len(seated),
            dealer=seated.index(last_dealer),
            went_out=seated.index(went_out) if went_out in seated else None,
        )
        return seated[position]
    return seated[dealer_position(number, len(seated), seated.index(first_dealer))]

"""The match around the hands: the dealer's rotation and the 1,000-point finish (rulings 18-19).

>>> decide_finish({"ann": 1010, "bob": 1040, "cat": 990})
Finish(finished=True, winners=('bob',))
>>> decide_finish({"ann": 1020, "bob": 1020}).shared_victory
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

TARGET_TOTAL = 1000


@dataclass(frozen=True, slots=True)
class Finish:
    """Whether the match is over after a hand, and who won (several players share a tie)."""

    finished: bool
    winners: tuple[Hashable, ...] = ()

    @property
    def shared_victory(self) -> bool:
        """Whether two or more players tied on the highest total."""
        return len(self.winners) > 1


def decide_finish(totals: Mapping[Hashable, int]) -> Finish:
    """After a completed hand: once any total reaches 1,000 the highest total wins.

    >>> decide_finish({"ann": 999, "bob": 400})
    Finish(finished=False, winners=())
    """
    if not totals or max(totals.values()) < TARGET_TOTAL:
        return Finish(False)
    best = max(totals.values())
    return Finish(True, tuple(player for player, total in totals.items() if total == best))


def dealer_position(hand_number: int, seat_count: int, first_dealer: int) -> int:
    """The seat that deals hand ``hand_number`` (1-based): the deal passes clockwise.

    >>> [dealer_position(n, 3, 1) for n in (1, 2, 3, 4)]
    [1, 2, 0, 1]
    """
    return (first_dealer + hand_number - 1) % seat_count


@dataclass(frozen=True, slots=True)
class Replay:
    """Running totals after each hand, and the first hand (1-based) after which the match ends."""

    totals: tuple[dict[Hashable, int], ...]
    finished_after: int | None
    finish: Finish


def replay(
    players: Sequence[Hashable],
    nets: Sequence[Mapping[Hashable, int]],
    decide: Callable[[Mapping[Hashable, int]], Finish] = decide_finish,
) -> Replay:
    """Replay a match's hands in order, as a correction must; ``decide`` is the ruleset's finish.

    >>> r = replay(["ann", "bob"], [{"ann": 600, "bob": 10}, {"ann": 500, "bob": 20}])
    >>> r.totals[-1], r.finished_after, r.finish.winners
    ({'ann': 1100, 'bob': 30}, 2, ('ann',))
    """
    running = dict.fromkeys(players, 0)
    totals: list[dict[Hashable, int]] = []
    finished_after: int | None = None
    finish = Finish(False)
    for number, hand in enumerate(nets, start=1):
        for player in players:
            running[player] += hand[player]
        totals.append(dict(running))
        if finished_after is None:
            outcome = decide(running)
            if outcome.finished:
                finished_after, finish = number, outcome
    return Replay(tuple(totals), finished_after, finish)

"""Whether two entries of one played hand agree, and if not, what differs (one hand, one record).

Two phones at a table may enter the same hand. The entries agree when they describe the same
deal: the same ending and player out, the same flags, and for each player the same melds (with
the same declarations) and the same held cards. Order never matters: players, melds and the
cards of a meld are compared as multisets, and two packs make equal cards interchangeable.

>>> from scoring.cards import parse_cards, parse_meld
>>> from scoring.hands import Ending, HandInput, PlayerInput
>>> recorded = HandInput(Ending.WENT_OUT, "ann", (
...     PlayerInput("ann", (parse_meld(["JS", "QS", "KS"]), parse_meld(["7H", "7D", "2C=7S"])), ()),
...     PlayerInput("ben", (parse_meld(["5D", "6D", "7D"]),), parse_cards(["2D", "4H"])),
... ))
>>> same = HandInput(Ending.WENT_OUT, "ann", (
...     PlayerInput("ben", (parse_meld(["7D", "5D", "6D"]),), parse_cards(["4H", "2D"])),
...     PlayerInput("ann", (parse_meld(["2C=7S", "7D", "7H"]), parse_meld(["KS", "JS", "QS"])), ()),
... ))
>>> compare_hands(recorded, same).same
True
>>> other = HandInput(Ending.WENT_OUT, "ann", (
...     PlayerInput("ann", (parse_meld(["JS", "QS", "KS"]), parse_meld(["7H", "7D", "7S"])), ()),
...     PlayerInput("ben", (parse_meld(["5D", "6D", "7D"]),), parse_cards(["2D", "5H"])),
... ))
>>> [str(d) for d in compare_hands(recorded, other).players]
['ann: melds only recorded 7H 7D 2C=7S; melds only submitted 7H 7D 7S', \
'ben: held only recorded 4H; held only submitted 5H']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scoring.cards import Card, MeldCard
from scoring.hands import Ending, HandInput, PlayerInput
from scoring.melds import meld_text

Meld = tuple[MeldCard, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PlayerDifference:
    """What one player's part of the recorded hand and of the submitted one do not share.

    Melds and held cards are listed as each entry gave them; ``went_out`` is
    ``(recorded, submitted)`` when the entries disagree on whether this player went out.
    """

    player: Hashable
    melds_only_recorded: tuple[Meld, ...] = ()
    melds_only_submitted: tuple[Meld, ...] = ()
    held_only_recorded: tuple[Card, ...] = ()
    held_only_submitted: tuple[Card, ...] = ()
    went_out: tuple[bool, bool] | None = None

    def __str__(self) -> str:
        """One line a person can read: the player, then each difference with its cards."""
        parts = [
            f"{label} {text}"
            for label, text in (
                ("melds only recorded", " / ".join(map(meld_text, self.melds_only_recorded))),
                ("melds only submitted", " / ".join(map(meld_text, self.melds_only_submitted))),
                ("held only recorded", _cards(self.held_only_recorded)),
                ("held only submitted", _cards(self.held_only_submitted)),
            )
            if text
        ]
        if self.went_out is not None:
            parts.append(f"went out recorded {self.went_out[0]}, submitted {self.went_out[1]}")
        return f"{self.player}: " + "; ".join(parts)


@dataclass(frozen=True, slots=True)
class FlagDifference:
    """A yes/no fact of the hand (Rummy: ``rummy``) the two entries state differently."""

    name: str
    recorded: bool
    submitted: bool


@dataclass(frozen=True, slots=True)
class HandDifferences:
    """Every difference between a recorded hand and a submitted one; none when they agree."""

    ending: tuple[Ending, Ending] | None = None
    """``(recorded, submitted)`` when the entries end the hand differently."""
    flags: tuple[FlagDifference, ...] = ()
    players: tuple[PlayerDifference, ...] = ()
    """The players whose parts differ: the recorded hand's order, then players only submitted."""

    @property
    def same(self) -> bool:
        """Whether the two entries describe the same hand."""
        return self.ending is None and not self.flags and not self.players


def compare_hands(
    recorded: HandInput,
    submitted: HandInput,
    *,
    recorded_flags: Mapping[str, bool] | None = None,
    submitted_flags: Mapping[str, bool] | None = None,
) -> HandDifferences:
    """Compare two entries of one hand as multisets; report every difference, player by player.

    ``*_flags`` are the hand's yes/no facts as each entry states them (absent counts as false).
    A player who appears in only one entry differs by everything they hold.

    >>> from scoring.cards import parse_cards, parse_meld
    >>> a = HandInput(Ending.STOCK_EXHAUSTED, None, (
    ...     PlayerInput(1, (parse_meld(["AS", "AH", "AD"]),), parse_cards(["3C"])),))
    >>> b = HandInput(Ending.WENT_OUT, 1, (PlayerInput(1, (parse_meld(["AH", "AD", "AS"]),), ()),))
    >>> found = compare_hands(a, b, submitted_flags={"rummy": True})
    >>> found.ending, [(f.name, f.recorded, f.submitted) for f in found.flags]
    ((<Ending.STOCK_EXHAUSTED: 'stock_exhausted'>, <Ending.WENT_OUT: 'went_out'>), \
[('rummy', False, True)])
    >>> [(d.held_only_recorded, d.went_out) for d in found.players]
    [((Card.parse('3C'),), (False, True))]
    """
    ending = None if recorded.ending is submitted.ending else (recorded.ending, submitted.ending)
    flags = _flag_differences(recorded_flags or {}, submitted_flags or {})
    out_recorded = _went_out(recorded)
    out_submitted = _went_out(submitted)
    theirs = {entry.player: entry for entry in submitted.results}
    ours = {entry.player: entry for entry in recorded.results}
    order = [*ours, *(player for player in theirs if player not in ours)]
    players = []
    for player in order:
        difference = _player_difference(
            player,
            ours.get(player),
            theirs.get(player),
            (player == out_recorded, player == out_submitted),
        )
        if difference is not None:
            players.append(difference)
    return HandDifferences(ending, flags, tuple(players))


def _went_out(hand: HandInput) -> Hashable | None:
    return hand.went_out if hand.ending is Ending.WENT_OUT else None


def _flag_differences(
    recorded: Mapping[str, bool], submitted: Mapping[str, bool]
) -> tuple[FlagDifference, ...]:
    names = sorted(set(recorded) | set(submitted))
    return tuple(
        FlagDifference(name, bool(recorded.get(name)), bool(submitted.get(name)))
        for name in names
        if bool(recorded.get(name)) != bool(submitted.get(name))
    )


def _player_difference(
    player: Hashable,
    recorded: PlayerInput | None,
    submitted: PlayerInput | None,
    went_out: tuple[bool, bool],
) -> PlayerDifference | None:
    melds_recorded = recorded.melds if recorded else ()
    melds_submitted = submitted.melds if submitted else ()
    only_recorded, only_submitted = _unshared(melds_recorded, melds_submitted, _meld_key)
    held_recorded, held_submitted = _unshared(
        recorded.held if recorded else (),
        submitted.held if submitted else (),
        lambda card: card.index,
    )
    difference = PlayerDifference(
        player,
        only_recorded,
        only_submitted,
        held_recorded,
        held_submitted,
        None if went_out[0] == went_out[1] else went_out,
    )
    unchanged = not (only_recorded or only_submitted or held_recorded or held_submitted)
    return None if unchanged and difference.went_out is None else difference


def _meld_key(meld: Meld) -> tuple[int, ...]:
    """A meld as a multiset of cards as melded: what stands for what, in no order."""
    return tuple(sorted(card.key for card in meld))


def _unshared(
    recorded: Sequence[T], submitted: Sequence[T], key: Callable[[T], Hashable]
) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """The items of each side that the other does not have, counting repeats (multisets)."""
    left = Counter(map(key, submitted))
    only_recorded = []
    for item in recorded:
        k = key(item)
        if left[k]:
            left[k] -= 1
        else:
            only_recorded.append(item)
    right = Counter(map(key, recorded))
    only_submitted = []
    for item in submitted:
        k = key(item)
        if right[k]:
            right[k] -= 1
        else:
            only_submitted.append(item)
    return tuple(only_recorded), tuple(only_submitted)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)

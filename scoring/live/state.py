"""The state of a live hand as the table has seen it, and the answers about it.

The state is a frozen value: every ruling answers a new one.

>>> from scoring.cards import Card
>>> from scoring.live import deal
>>> table = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
>>> table.turn_player, table.phase, table.hand_sizes
('ann', <Phase.DRAW: 'draw'>, (13, 13))
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.cards import Card, MeldCard
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.hands import Ending, HandInput, HandRuling
from scoring.rulesets import Options, Ruleset
from scoring.violations import Violation

PACK_SIZE = 52
"""One pack, no jokers."""


class Phase(enum.StrEnum):
    """Where the player whose turn it is stands in the turn."""

    DRAW = "draw"
    """The turn starts: draw from the stock or take from the discard pile, as the game allows."""
    PLAY = "play"
    """Drawn: meld, add to melds, then discard (or go out, or pass when nothing else is legal)."""
    ENDED = "ended"
    """A player went out, or nothing was left to turn over: only the held cards remain."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its place, its owner and its declared cards (fixed once melded)."""

    index: int
    owner: Hashable
    cards: tuple[MeldCard, ...]


@dataclass(frozen=True, slots=True)
class LiveHand:
    """One hand as the table has seen it so far."""

    number: int
    players: tuple[Hashable, ...]
    """Seated clockwise."""
    dealer: Hashable
    turn: int
    """The seat whose turn it is (the player who went out, once the hand has ended)."""
    phase: Phase
    stock: int
    stock_known: tuple[Card, ...]
    """The stock's cards, next first, once it has been turned over; empty while private."""
    discards: tuple[Card, ...]
    """Bottom first, top last."""
    melds: tuple[TableMeld, ...]
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand."""
    known: tuple[tuple[Card, ...], ...]
    """Cards known to be in each seat's hand (taken from the pile, drawn from a known stock)."""
    seen: tuple[int, ...] = field(repr=False)
    """How many copies of each card (by its index in ``ALL_CARDS``) the table has seen."""
    ending: Ending | None = None
    went_out: Hashable | None = None
    events: int = 0
    """How many events the hand has accepted."""
    taken: Card | None = None
    """The card taken from the discard pile this turn, if one was (it may not be discarded)."""
    discarded: tuple[bool, ...] = ()
    """Whether each seat has ended a turn with a discard: going out before that is going out all
    at once (its last card may be a discard)."""
    rules: Ruleset = field(default=ARLINGTON, repr=False, compare=False)
    options: Options = field(default_factory=dict, repr=False, compare=False)
    """The match's options, every one of them."""

    @property
    def turn_player(self) -> Hashable | None:
        """The player whose turn it is, or ``None`` once the hand has ended."""
        return None if self.phase is Phase.ENDED else self.players[self.turn]


@dataclass(frozen=True, slots=True)
class LiveRuling:
    """The ruling on one event: the state after it, or the unchanged state and every violation."""

    state: LiveHand
    violations: tuple[Violation, ...] = ()

    @property
    def accepted(self) -> bool:
        """Whether the event breaks no rule."""
        return not self.violations


@dataclass(frozen=True, slots=True)
class Finished:
    """The ended hand as a hand entered whole, and its ruling (``hand`` is None if refused)."""

    hand: HandInput | None
    ruling: HandRuling | None
    violations: tuple[Violation, ...]
    flags: Mapping[str, bool] = field(default_factory=dict)
    """The hand's flags as the play decided them (Rummy: ``rummy``, out all at once)."""

    @property
    def valid(self) -> bool:
        """Whether the held cards agree with the play and the hand breaks no rule."""
        return not self.violations


def reveal(
    seen: tuple[int, ...], cards: Sequence[Card], copies: int
) -> tuple[tuple[int, ...], list[tuple[Card, int]]]:
    counts = list(seen)
    excess: dict[Card, int] = {}
    for card in cards:
        counts[card.index] += 1
        if counts[card.index] > copies:
            excess[card] = counts[card.index]
    return tuple(counts), sorted(excess.items(), key=lambda item: item[0].index)

"""The events of a live hand: what a player does on their turn, as values."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from scoring.cards import Card, MeldCard, parse_cards, parse_meld


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock; ``card`` only when it is known (a turned-over stock)."""

    player: Hashable
    card: Card | None = None

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Draw(17).as_dict(), Draw(17, Card.parse("5h")).as_dict()
        ({'type': 'draw', 'player': 17}, {'type': 'draw', 'player': 17, 'card': '5H'})
        """
        data: dict[str, object] = {"type": "draw", "player": self.player}
        if self.card is not None:
            data["card"] = self.card.code
        return data


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole discard pile: ``meld`` is the new meld of its top card and 2+ from hand."""

    player: Hashable
    meld: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> TakePile(17, parse_meld(["7H", "7D", "2C=7S"])).as_dict()
        {'type': 'take_pile', 'player': 17, 'meld': ['7H', '7D', '2C=7S']}
        """
        return {"type": "take_pile", "player": self.player, "meld": [c.code for c in self.meld]}


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile into the hand (games whose ``take`` is ``discard``)."""

    player: Hashable

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> TakeDiscard(17).as_dict()
        {'type': 'take_discard', 'player': 17}
        """
        return {"type": "take_discard", "player": self.player}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without discarding, holding only cards that can never be played (ruling 20)."""

    player: Hashable

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Pass(17).as_dict()
        {'type': 'pass', 'player': 17}
        """
        return {"type": "pass", "player": self.player}


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay a new meld from hand."""

    player: Hashable
    cards: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Meld(17, parse_meld(["JS", "QS", "KS"])).as_dict()
        {'type': 'meld', 'player': 17, 'cards': ['JS', 'QS', 'KS']}
        """
        return {"type": "meld", "player": self.player, "cards": [c.code for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Extend:
    """Add cards from hand to a meld on the table, by its index (the game says whose melds)."""

    player: Hashable
    meld: int
    cards: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Extend(17, 3, parse_meld(["8H"])).as_dict()
        {'type': 'extend', 'player': 17, 'meld': 3, 'cards': ['8H']}
        """
        return {
            "type": "extend",
            "player": self.player,
            "meld": self.meld,
            "cards": [c.code for c in self.cards],
        }


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by discarding one card (going out if it was the last)."""

    player: Hashable
    card: Card

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Discard(17, Card.parse("9c")).as_dict()
        {'type': 'discard', 'player': 17, 'card': '9C'}
        """
        return {"type": "discard", "player": self.player, "card": self.card.code}


Event = Draw | TakePile | TakeDiscard | Meld | Extend | Discard | Pass


def event_from_dict(data: Mapping[str, object]) -> Event:
    """Read back an event written by its ``as_dict`` (raises ``NotationError`` on a bad card).

    >>> event_from_dict({"type": "extend", "player": 17, "meld": 0, "cards": ["2c=as"]})
    Extend(player=17, meld=0, cards=(MeldCard.parse('2C=AS'),))
    """
    kind, player = data["type"], data["player"]
    assert isinstance(player, Hashable)
    if kind == "draw":
        card = data.get("card")
        return Draw(player, None if card is None else parse_cards([card])[0])
    if kind == "take_pile":
        return TakePile(player, parse_meld(data["meld"]))
    if kind == "take_discard":
        return TakeDiscard(player)
    if kind == "pass":
        return Pass(player)
    if kind == "meld":
        return Meld(player, parse_meld(data["cards"]))
    if kind == "extend":
        index = data["meld"]
        assert isinstance(index, int)
        return Extend(player, index, parse_meld(data["cards"]))
    if kind == "discard":
        return Discard(player, parse_cards([data["card"]])[0])
    raise ValueError(f"not an event type: {kind!r}")

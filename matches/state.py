"""A match as it stands as a typed value: its seats in order, who deals next, who won.

It is the one producer of a match's JSON: the match endpoints answer ``to_json(with_marks=True)``
(``from_match``), a hand's answer carries it without the marks (``hands.RecordedHand.match``),
and so do the events of the feed. The OpenAPI schema of both is made from this type
(matches/api/serializers/schema.py).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from matches.models import (
    Hand,
    Match,
    MatchStatus,
    Seat,
    SecondEntry,
    ruleset_choices,
)
from matches.values import _from_iso, _json, _to_json
from scoring import after, rulesets

Previous = tuple[int, int | None]
"""The hand before's dealer and the player who went out in it (None if nobody did)."""


def dealer(
    match_id: int,
    first_dealer: int,
    seated: Sequence[int],
    number: int,
    *,
    ruleset: str = rulesets.DEFAULT,
    previous: Previous | None = None,
) -> int:
    """The player who deals hand ``number``: ``seated`` are player ids in seating order.

    The deal passes clockwise from the first dealer, except where the match's ruleset has the
    winner of a hand deal the next (Rummy for two): then the hand before decides, as
    ``previous`` gives it or, when not given, as read from the match's hands. The one rule is
    ``scoring.after.dealer``; this finds what it needs.
    """
    rules = rulesets.ruleset(ruleset)
    winner_deals = number > 1 and rules.winner_deals(len(seated))
    if winner_deals and previous is None:
        previous = (
            Hand.objects.filter(match_id=match_id, number=number - 1)
            .values_list("dealer_id", "went_out_id")
            .first()
        )
    found: int = after.dealer(  # type: ignore[assignment]
        seated,
        number,
        first_dealer=first_dealer,
        previous=previous,
        winner_deals=winner_deals,
        next_dealer=rules.next_dealer,
    )
    return found


@dataclass(frozen=True, slots=True)
class SeatLine:
    """A seat of a match: its player and their running total."""

    JSON: ClassVar = ("seat", "player", "name", "total", "winner")

    seat: int
    player: int
    name: str
    total: int
    winner: bool

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatLine:
        return cls(data["seat"], data["player"], data["name"], data["total"], data["winner"])


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match as it stands after a hand: its seats in order, who deals next, who won."""

    JSON: ClassVar = (
        "id",
        "club",
        "season",
        "table",
        "ruleset",
        "options",
        "status",
        "seats",
        "hands_played",
        "next_hand",
        "next_dealer",
        "dealer_after_next",
        "first_dealer",
        "winners",
        "shared_victory",
        "created_by",
        "created_at",
        "finished_at",
    )
    JSON_WITH_MARKS: ClassVar = (
        *JSON[: JSON.index("shared_victory") + 1],
        "unconfirmed_hands",
        *JSON[JSON.index("created_by") :],
    )
    """The names of the match's own answer: its marks too."""

    id: int
    club: int
    season: int | None
    table: str
    status: str = field(metadata={"choices": MatchStatus.choices})
    seats: tuple[SeatLine, ...]
    hands_played: int
    first_dealer: int
    created_by: str
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    ruleset: str = field(default=rulesets.DEFAULT, metadata={"choices": ruleset_choices})
    options: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "help": 'The ruleset\'s options, all of them, e.g. {"target": 100, "ace": "low"}.'
        },
    )
    previous: Previous | None = None
    """The last hand's dealer and winner, when known; the next dealer may depend on them."""
    unconfirmed_hands: list[int] | None = field(
        default=None,
        metadata={
            "help": "When the club asks for a second entry (`second_entry: required`): the "
            "numbers of the hands nobody has confirmed yet, as they stand; else null."
        },
    )
    """A mark of the match, given only where the match itself is answered (``with_marks``)."""

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED

    @property
    def next_hand(self) -> int | None:
        return None if self.finished else self.hands_played + 1

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand; null once the match is finished, or while its game is not
        installed (its rules say who deals)."""
        if self.finished or self.ruleset not in rulesets.RULESETS:
            return None
        seated = [line.player for line in self.seats]
        return dealer(
            self.id,
            self.first_dealer,
            seated,
            self.hands_played + 1,
            ruleset=self.ruleset,
            previous=self.previous,
        )

    @property
    def dealer_after_next(self) -> dict[str, int] | None:
        """Who deals the hand after the next one, by the id of the player who goes out of the
        next (`"none"`: the stock runs out), so that a client can move on past a hand it has not
        sent yet; null once the match is finished."""
        next_dealer = self.next_dealer
        if next_dealer is None:
            return None
        seated = [line.player for line in self.seats]

        def following(went_out: int | None) -> int:
            return dealer(
                self.id,
                self.first_dealer,
                seated,
                self.hands_played + 2,
                ruleset=self.ruleset,
                previous=(next_dealer, went_out),
            )

        return {**{str(player): following(player) for player in seated}, "none": following(None)}

    @property
    def winners(self) -> list[int]:
        return [line.player for line in self.seats if line.winner]

    @property
    def shared_victory(self) -> bool:
        return len(self.winners) > 1

    def to_json(self, *, with_marks: bool = False) -> dict[str, Any]:
        """The match as the API answers it: with a hand, its seats in order, who deals next, who
        won; answered for itself (``with_marks``), also its marks (``unconfirmed_hands``)."""
        if not with_marks:
            return _to_json(self)
        return {name: _json(getattr(self, name)) for name in self.JSON_WITH_MARKS}

    @classmethod
    def from_json(cls, data: dict[str, Any], *, previous: Previous | None = None) -> MatchState:
        """The value ``to_json`` gave; ``previous`` as the JSON leaves it out."""
        return cls(
            id=data["id"],
            club=data["club"],
            season=data["season"],
            table=data["table"],
            status=data["status"],
            seats=tuple(map(SeatLine.from_json, data["seats"])),
            hands_played=data["hands_played"],
            first_dealer=data["first_dealer"],
            created_by=data["created_by"],
            created_at=_from_iso(data["created_at"]),
            finished_at=_from_iso(data["finished_at"]),
            # answers kept before rulesets hold Arlington's hands
            ruleset=data.get("ruleset", rulesets.DEFAULT),
            options=data.get("options", {}),
            previous=previous,
            unconfirmed_hands=data.get("unconfirmed_hands"),
        )


def match_state(
    match: Match, seats: Iterable[Seat], *, unconfirmed_hands: list[int] | None = None
) -> MatchState:
    """A match loaded with its creator, and its seats with their players."""
    return MatchState(
        id=match.pk,
        club=match.club_id,
        season=match.season_id,
        table=match.table,
        status=str(match.status),
        seats=tuple(
            SeatLine(seat.position, seat.player_id, seat.player.name, seat.total, seat.winner)
            for seat in sorted(seats, key=lambda seat: seat.position)
        ),
        hands_played=match.hands_played,
        first_dealer=match.first_dealer_id,
        created_by=match.created_by.username,
        created_at=match.created_at,
        finished_at=match.finished_at,
        ruleset=match.ruleset,
        options=match.options,
        unconfirmed_hands=unconfirmed_hands,
    )


def from_match(match: Match) -> MatchState:
    """A match loaded as ``selectors.matches_visible_to`` loads it (its creator, club, seats with
    their players and ``unconfirmed`` hands prefetched), with its marks."""
    unconfirmed = None
    if match.club.second_entry == SecondEntry.REQUIRED:
        unconfirmed = sorted(hand.number for hand in getattr(match, "unconfirmed", None) or [])
    return match_state(match, match.seats.all(), unconfirmed_hands=unconfirmed)

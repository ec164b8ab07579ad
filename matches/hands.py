"""A recorded hand as a typed value: what the services return, and the API's answer.

``hand_record`` builds it from what it has just written, without reading anything back; the
reads build it from rows (``from_rows``). Its JSON (``to_json``) is the answer's body, the one
an idempotency record keeps, so that a retry is answered with the hand as it was first recorded
(``from_json``); the OpenAPI schema is made from its names and types (``JSON`` and the
annotations; matches/api/serializers/schema.py).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rest_framework.fields import DateTimeField

from matches.models import (
    Ending,
    Hand,
    HandConfirmation,
    HandResult,
    Match,
    MatchStatus,
    Seat,
    ruleset_choices,
)
from scoring import MeldKind, after, rulesets

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

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED

    @property
    def next_hand(self) -> int | None:
        return None if self.finished else self.hands_played + 1

    @property
    def next_dealer(self) -> int | None:
        if self.finished:
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

    def to_json(self) -> dict[str, Any]:
        """The match as the API answers it with a hand: its seats in order, who deals next, who
        won."""
        return _to_json(self)

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
        )


@dataclass(frozen=True, slots=True)
class MeldLine:
    """A meld of a player's result, as stored: its cards in notation, its kind, its points."""

    JSON: ClassVar = ("cards", "kind", "points")

    cards: list[str]
    kind: str = field(metadata={"choices": [k.value for k in MeldKind]})
    points: int

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class HeldLine:
    """A card left in a player's hand, and what it costs them."""

    JSON: ClassVar = ("card", "points")

    card: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


def meld_lines(melds: Iterable[dict[str, Any]]) -> tuple[MeldLine, ...]:
    """Melds as a result row stores them."""
    return tuple(MeldLine(m["cards"], m["kind"], m["points"]) for m in melds)


def held_lines(held: Iterable[dict[str, Any]]) -> tuple[HeldLine, ...]:
    """Held cards as a result row stores them."""
    return tuple(HeldLine(h["card"], h["points"]) for h in held)


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One player's part of a hand: melds and held cards, their points and total."""

    JSON: ClassVar = (
        "player",
        "name",
        "melds",
        "held",
        "melded_points",
        "hand_penalty",
        "bonus",
        "net",
        "total",
    )

    player: int
    name: str
    melds: tuple[MeldLine, ...]
    held: tuple[HeldLine, ...]
    melded_points: int
    hand_penalty: int
    bonus: int
    net: int
    total: int = field(metadata={"help": "The player's running total after this hand."})

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ResultLine:
        return cls(
            data["player"],
            data["name"],
            meld_lines(data["melds"]),
            held_lines(data["held"]),
            data["melded_points"],
            data["hand_penalty"],
            data["bonus"],
            data["net"],
            data["total"],
        )


@dataclass(frozen=True, slots=True)
class Confirmation:
    """Another member's word that the hand, as it stands, is the hand played."""

    JSON: ClassVar = ("by", "device", "at")

    by: str = field(metadata={"help": "The member who confirmed the hand."})
    device: str = field(
        metadata={
            "help": "Where from: `token:<id>` for a device token, `session:<12 hex>` for a "
            "signed-in browser, `legacy-token` for the legacy token; empty when unknown."
        }
    )
    at: datetime.datetime

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Confirmation:
        return cls(data["by"], data["device"], datetime.datetime.fromisoformat(data["at"]))


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A hand with its results in seating order and its match; ``replayed`` for a retry.

    ``to_json`` is the API's answer, byte for byte; the OpenAPI schema is made from the same
    names and types (``matches.api.serializers.hands.HandWithMatchSerializer``), and an idempotency
    record keeps the answer, which ``from_json`` reads back.
    """

    JSON: ClassVar = (
        "number",
        "dealer",
        "ending",
        "went_out",
        "rummy",
        "flags",
        "version",
        "results",
        "recorded_by",
        "recorded_at",
        "updated_at",
        "confirmations",
        "match",
    )

    number: int
    dealer: int
    ending: str = field(metadata={"choices": Ending.choices})
    went_out: int | None
    version: int = field(metadata={"help": "Bumped by every correction."})
    results: tuple[ResultLine, ...]
    recorded_by: str
    recorded_at: datetime.datetime
    updated_at: datetime.datetime
    match: MatchState
    replayed: bool = False
    flags: dict[str, bool] = field(
        default_factory=dict,
        metadata={
            "help": "The yes/no facts the match's game asks of a hand, each stated "
            '(Rummy: {"rummy": …}; Arlington: {}).'
        },
    )
    confirmations: tuple[Confirmation, ...] = field(
        default=(),
        metadata={
            "help": "Confirmations of the hand as it stands (its current version), oldest "
            "first: an agreeing second entry or `POST .../confirmations/` from another member "
            "or device."
        },
    )
    agreed: bool = False
    """The hand was already recorded, and the submission agreed with it: nothing new written."""

    @property
    def rummy(self) -> bool | None:
        """Rummy hands: whether the winner went out all at once; null in Arlington."""
        went_rummy = self.flags.get("rummy")
        return None if went_rummy is None else bool(went_rummy)

    def to_json(self, *, with_match: bool = True) -> dict[str, Any]:
        """The hand as the API answers it, with its match unless ``with_match`` is false: each
        player's itemised result and total.

        Recording a hand is the API's busiest write, and walking nested output serializers
        cost more than the rest of presenting it, so the value writes its own JSON."""
        body = _to_json(self)
        if not with_match:
            del body["match"]
        return body

    @classmethod
    def from_json(
        cls, data: dict[str, Any], *, replayed: bool = False, agreed: bool = False
    ) -> RecordedHand:
        """The value ``to_json`` gave (with its match)."""
        match = data["match"]
        last = match["hands_played"] == data["number"]
        return cls(
            number=data["number"],
            dealer=data["dealer"],
            ending=data["ending"],
            went_out=data["went_out"],
            version=data["version"],
            flags=data.get("flags", {}),
            results=tuple(map(ResultLine.from_json, data["results"])),
            recorded_by=data["recorded_by"],
            recorded_at=datetime.datetime.fromisoformat(data["recorded_at"]),
            updated_at=datetime.datetime.fromisoformat(data["updated_at"]),
            confirmations=tuple(map(Confirmation.from_json, data.get("confirmations", []))),
            # the hand before the next is this one when it is the last
            match=MatchState.from_json(
                match, previous=(data["dealer"], data["went_out"]) if last else None
            ),
            replayed=replayed,
            agreed=agreed,
        )


def _to_json(value: Any) -> dict[str, Any]:
    """A value's JSON, its names (``JSON``) in order."""
    return {name: _json(getattr(value, name)) for name in value.JSON}


def _json(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return _when(value)
    if isinstance(value, tuple):
        return [item.to_json() for item in value]
    if hasattr(value, "JSON"):
        return value.to_json()
    return value


_datetime = DateTimeField()  # DRF's own rendering of a timestamp (ISO 8601, "Z" for UTC)


def _when(value: datetime.datetime | None) -> str | None:
    return None if value is None else _datetime.to_representation(value)


def _from_iso(text: Any) -> Any:
    return None if text is None else datetime.datetime.fromisoformat(text)


def match_state(match: Match, seats: Iterable[Seat]) -> MatchState:
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
    )


def from_rows(
    hand: Hand,
    results: Iterable[HandResult],
    match: MatchState,
    confirmations: Iterable[HandConfirmation] = (),
) -> RecordedHand:
    """A hand loaded with its recorder, its results with their players, and its match.

    ``confirmations`` are the hand's, with their members; those of earlier versions are left out.
    """
    return RecordedHand(
        number=hand.number,
        dealer=hand.dealer_id,
        ending=str(hand.ending),
        went_out=hand.went_out_id,
        flags=hand.flags,
        version=hand.version,
        results=tuple(
            ResultLine(
                r.player_id,
                r.player.name,
                meld_lines(r.melds),
                held_lines(r.held),
                r.melded_points,
                r.hand_penalty,
                r.bonus,
                r.net,
                r.total,
            )
            for r in sorted(results, key=lambda r: r.position)
        ),
        recorded_by=hand.recorded_by.username,
        recorded_at=hand.recorded_at,
        updated_at=hand.updated_at,
        match=match,
        confirmations=tuple(
            Confirmation(c.by.username, c.device, c.at)
            for c in confirmations
            if c.version == hand.version
        ),
    )


def from_hand(hand: Hand) -> RecordedHand:
    """A hand loaded as ``selectors.hands_of`` loads it: results, match, seats and
    confirmations prefetched."""
    state = match_state(hand.match, hand.match.seats.all())
    return from_rows(hand, hand.results.all(), state, hand.confirmations.all())

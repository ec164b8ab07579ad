"""A recorded hand as a typed value: what the services return, and the API's answer (``body``).

``hand_record`` builds it from what it has just written, without reading anything back; the
reads build it from rows (``from_rows``). A value is also what an idempotency record keeps, so
that a retry is answered with the hand as it was first recorded (``to_json``, ``from_json``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rest_framework.fields import DateTimeField

from matches.models import Hand, HandConfirmation, HandResult, Match, MatchStatus, Seat
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

    seat: int
    player: int
    name: str
    total: int
    winner: bool


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match as it stands after a hand: its seats in order, who deals next, who won."""

    id: int
    club: int
    season: int | None
    table: str
    status: str
    seats: tuple[SeatLine, ...]
    hands_played: int
    first_dealer: int
    created_by: str
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    ruleset: str = rulesets.DEFAULT
    options: dict[str, Any] = field(default_factory=dict)
    previous: Previous | None = None
    """The last hand's dealer and winner, when known; the next dealer may depend on them."""

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED

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
        """Who deals the hand after the next, by who goes out of the next (``none``: nobody)."""
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

    def body(self) -> dict[str, Any]:
        """The match as the API answers it (``MatchSerializer`` describes it): its seats in
        order, who deals next, who won."""
        winners = self.winners
        return {
            "id": self.id,
            "club": self.club,
            "season": self.season,
            "table": self.table,
            "ruleset": self.ruleset,
            "options": self.options,
            "status": self.status,
            "seats": [
                {
                    "seat": line.seat,
                    "player": line.player,
                    "name": line.name,
                    "total": line.total,
                    "winner": line.winner,
                }
                for line in self.seats
            ],
            "hands_played": self.hands_played,
            "next_hand": None if self.finished else self.hands_played + 1,
            "next_dealer": self.next_dealer,
            "dealer_after_next": self.dealer_after_next,
            "first_dealer": self.first_dealer,
            "winners": winners,
            "shared_victory": len(winners) > 1,
            "created_by": self.created_by,
            "created_at": _when(self.created_at),
            "finished_at": _when(self.finished_at),
        }


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One player's part of a hand: melds and held cards as stored, their points and total."""

    player: int
    name: str
    melds: list[dict[str, Any]]
    held: list[dict[str, Any]]
    melded_points: int
    hand_penalty: int
    bonus: int
    net: int
    total: int


@dataclass(frozen=True, slots=True)
class Confirmation:
    """Another member's word that the hand, as it stands, is the hand played."""

    by: str
    device: str
    at: datetime.datetime

    def to_json(self) -> dict[str, str]:
        return {"by": self.by, "device": self.device, "at": self.at.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Confirmation:
        return cls(data["by"], data["device"], datetime.datetime.fromisoformat(data["at"]))


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A hand with its results in seating order and its match; ``replayed`` for a retry."""

    number: int
    dealer: int
    ending: str
    went_out: int | None
    version: int
    results: tuple[ResultLine, ...]
    recorded_by: str
    recorded_at: datetime.datetime
    updated_at: datetime.datetime
    match: MatchState
    replayed: bool = False
    flags: dict[str, bool] = field(default_factory=dict)
    """The yes/no facts of the hand its match's ruleset asks for (Rummy: ``rummy``)."""
    confirmations: tuple[Confirmation, ...] = ()
    """Of the hand's current version, oldest first."""
    agreed: bool = False
    """The hand was already recorded, and the submission agreed with it: nothing new written."""

    def body(self, *, with_match: bool = True) -> dict[str, Any]:
        """The hand as the API answers it, with its match unless ``with_match`` is false
        (``HandWithMatchSerializer`` and ``HandSerializer`` describe them): each player's
        itemised result and total.

        Recording a hand is the API's busiest write, and walking nested output serializers
        cost more than the rest of presenting it; a test holds both to the same output."""
        hand = {
            "number": self.number,
            "dealer": self.dealer,
            "ending": self.ending,
            "went_out": self.went_out,
            "rummy": self.flags.get("rummy"),
            "flags": self.flags,
            "version": self.version,
            "results": [
                {
                    "player": row.player,
                    "name": row.name,
                    "melds": [
                        {"cards": m["cards"], "kind": m["kind"], "points": m["points"]}
                        for m in row.melds
                    ],
                    "held": [{"card": h["card"], "points": h["points"]} for h in row.held],
                    "melded_points": row.melded_points,
                    "hand_penalty": row.hand_penalty,
                    "bonus": row.bonus,
                    "net": row.net,
                    "total": row.total,
                }
                for row in self.results
            ],
            "recorded_by": self.recorded_by,
            "recorded_at": _when(self.recorded_at),
            "updated_at": _when(self.updated_at),
            "confirmations": [
                {"by": c.by, "device": c.device, "at": _when(c.at)} for c in self.confirmations
            ],
        }
        return {**hand, "match": self.match.body()} if with_match else hand

    def to_json(self) -> dict[str, Any]:
        """The value as JSON (times in ISO 8601), as an idempotency record keeps it."""
        return {
            **{name: getattr(self, name) for name in HAND_FIELDS},
            "flags": self.flags,
            "confirmations": [c.to_json() for c in self.confirmations],
            "agreed": self.agreed,
            "results": [{name: getattr(r, name) for name in RESULT_FIELDS} for r in self.results],
            "recorded_at": self.recorded_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "match": {
                **{name: getattr(self.match, name) for name in MATCH_FIELDS},
                **{name: getattr(self.match, name) for name in RULESET_FIELDS},
                "seats": [
                    {name: getattr(s, name) for name in SEAT_FIELDS} for s in self.match.seats
                ],
                "created_at": self.match.created_at.isoformat(),
                "finished_at": _iso(self.match.finished_at),
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, replayed: bool = False) -> RecordedHand:
        """The value ``to_json`` gave."""
        match = data["match"]
        return cls(
            **{name: data[name] for name in HAND_FIELDS},
            flags=data.get("flags", {}),
            confirmations=tuple(map(Confirmation.from_json, data.get("confirmations", []))),
            agreed=data.get("agreed", False),
            results=tuple(ResultLine(**row) for row in data["results"]),
            recorded_at=datetime.datetime.fromisoformat(data["recorded_at"]),
            updated_at=datetime.datetime.fromisoformat(data["updated_at"]),
            match=MatchState(
                **{name: match[name] for name in MATCH_FIELDS},
                # records kept before rulesets hold Arlington's hands
                ruleset=match.get("ruleset", rulesets.DEFAULT),
                options=match.get("options", {}),
                previous=tuple(match["previous"]) if match.get("previous") else None,
                seats=tuple(SeatLine(**seat) for seat in match["seats"]),
                created_at=datetime.datetime.fromisoformat(match["created_at"]),
                finished_at=_from_iso(match["finished_at"]),
            ),
            replayed=replayed,
        )


# The fields to_json copies as they are.
HAND_FIELDS = ("number", "dealer", "ending", "went_out", "version", "recorded_by")
RESULT_FIELDS = tuple(ResultLine.__dataclass_fields__)
MATCH_FIELDS = (
    "id",
    "club",
    "season",
    "table",
    "status",
    "hands_played",
    "first_dealer",
    "created_by",
)
SEAT_FIELDS = tuple(SeatLine.__dataclass_fields__)
RULESET_FIELDS = ("ruleset", "options", "previous")


_datetime = DateTimeField()  # DRF's own rendering of a timestamp (ISO 8601, "Z" for UTC)


def _when(value: datetime.datetime | None) -> str | None:
    return None if value is None else _datetime.to_representation(value)


def _iso(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _from_iso(text: str | None) -> datetime.datetime | None:
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
                r.melds,
                r.held,
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

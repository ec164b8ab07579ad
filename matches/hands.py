"""A recorded hand as a typed value: what the services return, and the API's answer.

``hand_record`` builds it from what it has just written, without reading anything back; the
reads build it from rows (``from_rows``). Its JSON (``to_json``) is the answer's body, the one
an idempotency record keeps, so that a retry is answered with the hand as it was first recorded
(``from_json``); the OpenAPI schema is made from its names and types (``JSON`` and the
annotations; matches/api/serializers/schema.py). The match it carries is ``state.MatchState``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from matches.models import (
    Ending,
    Hand,
    HandConfirmation,
    HandResult,
)
from matches.state import MatchState, match_state
from matches.values import _to_json
from scoring import MeldKind


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
    _json: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)
    """``to_json``'s answer, made once: a recorded hand is its event, its answer and the answer
    kept under its Idempotency-Key."""

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
        made = self._json
        if made is None:
            made = _to_json(self)
            object.__setattr__(self, "_json", made)  # frozen, so set as dataclasses do
        body = dict(made)  # the caller's own top level; what is inside is shared, unchanged
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

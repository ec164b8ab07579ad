"""The club's events: written by the services, in their transaction, for the feed and webhooks.

An event commits or rolls back with what it announces (an outbox): a refused hand writes none.
``write`` is the one place an event is written; it tells the apps built on this one
(``signals.event_written``), which the webhooks app turns into deliveries in the same
transaction. docs/webhooks.md describes each event's data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from matches import hands, selectors, signals
from matches.models import Event, EventType, HandConfirmation
from matches.state import MatchState
from matches.subscribers import HandChange
from matches.values import when


def write(*, club_id: int, type: EventType, data: Mapping[str, Any]) -> Event:
    """Write one event of a club, at the next position of its feed; the caller's transaction
    holds it (and the club's feed counter, until it commits)."""
    with transaction.atomic(savepoint=False):  # the caller's transaction, when there is one
        position = Event.next_position(club_id)
        event = Event.insert(club_id=club_id, position=position, type=type, data=dict(data))
        signals.event_written.send(sender=Event, event=event)
    return event


def after_hand(change: HandChange) -> None:
    """The hand's events (the subscriber in ``settings.ARLINGTON_AFTER_HAND``): written in the
    hand's transaction, with the finish the hand made."""
    if change.kind == "recorded" and change.hand is not None:
        hand_recorded(change.hand)
    elif change.kind == "corrected" and change.hand is not None and change.impact is not None:
        impact = change.impact
        finished_now = impact["status_before"] != impact["status_after"] and change.match.finished
        hand_corrected(change.hand, impact, finished_now=finished_now)
    elif change.kind == "voided":
        hand_voided(change.match, change.number)


def hand_recorded(recorded: hands.RecordedHand) -> None:
    """A new hand, as ``GET matches/{id}/hands/{number}/`` answers it; and the finish it made."""
    state = recorded.match
    write(
        club_id=state.club,
        type=EventType.HAND_RECORDED,
        data={"match": state.id, "number": recorded.number, "hand": recorded.to_json()},
    )
    if state.finished:
        match_finished(state)


def hand_corrected(
    corrected: hands.RecordedHand, impact: Mapping[str, Any], *, finished_now: bool
) -> None:
    """A corrected hand with what the correction changed (totals, status, winners, before
    and after); and the finish, when the correction finished the match."""
    state = corrected.match
    write(
        club_id=state.club,
        type=EventType.HAND_CORRECTED,
        data={
            "match": state.id,
            "number": corrected.number,
            "hand": corrected.to_json(),
            "impact": dict(impact),
        },
    )
    if finished_now:
        match_finished(state)


def answered(state: MatchState) -> dict[str, Any]:
    """The match as ``GET matches/{id}/`` answers it, with its marks (``unconfirmed_hands``),
    read now where the state was made without them."""
    if state.unconfirmed_hands is None:
        state = dataclasses.replace(state, unconfirmed_hands=selectors.marks_of(state.id))
    return state.to_json(with_marks=True)


def hand_voided(state: MatchState, number: int) -> None:
    """The last hand voided; the match as it stands after it."""
    write(
        club_id=state.club,
        type=EventType.HAND_VOIDED,
        data={"match": state.id, "number": number, "state": answered(state)},
    )


def hand_confirmed(
    *, club_id: int, match_id: int, number: int, confirmation: HandConfirmation
) -> None:
    """A member's confirmation of a hand's version."""
    write(
        club_id=club_id,
        type=EventType.HAND_CONFIRMED,
        data={
            "match": match_id,
            "number": number,
            "version": confirmation.version,
            "by": confirmation.by.get_username(),
            "device": confirmation.device,
            "at": when(confirmation.at),
        },
    )


def match_started(state: MatchState) -> None:
    """A new match, as ``GET matches/{id}/`` answers it."""
    write(
        club_id=state.club,
        type=EventType.MATCH_STARTED,
        data={"match": state.id, "state": state.to_json(with_marks=True)},  # made with them
    )


def match_finished(state: MatchState) -> None:
    """A match that has just finished: its winners and final totals."""
    write(
        club_id=state.club,
        type=EventType.MATCH_FINISHED,
        data={"match": state.id, "state": answered(state)},
    )


def match_deleted(*, club_id: int, match_id: int, tournament_id: int, round_number: int) -> None:
    """A match that is gone with the club night's round it was drawn for (the round undone
    before any hand of it was recorded): an app that keeps the club's matches drops it."""
    write(
        club_id=club_id,
        type=EventType.MATCH_DELETED,
        data={"match": match_id, "tournament": tournament_id, "round": round_number},
    )

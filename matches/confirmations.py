"""One played hand, one record: a second entry of a recorded hand, and confirmations.

A hand number already recorded may be submitted again from another phone at the table. The
engine compares the two entries (``scoring.compare_hands``); here they are read from the rows
and the submission, and an agreeing entry from another member or device is kept as a
confirmation. ``confirmation_add`` is the one place a confirmation is written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import scoring
from matches import errors, events, hands, locking, selectors
from matches.models import (
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Match,
    MatchStatus,
    SecondEntry,
)


def as_input(ending: str, went_out: int | None, results: Any, *, stored: bool) -> scoring.HandInput:
    """A hand as the engine compares it: from stored result rows, or from an entry."""
    players = []
    for row in results:
        if stored:
            melds = tuple(scoring.parse_meld(m["cards"]) for m in row.melds)
            held = scoring.parse_cards([h["card"] for h in row.held])
            players.append(scoring.PlayerInput(row.player_id, melds, held))
        else:
            players.append(scoring.PlayerInput(row.player, row.melds, row.held))
    return scoring.HandInput(scoring.Ending(ending), went_out, tuple(players))


def author(hand: Hand) -> tuple[int, str]:
    """Who entered the hand's current version, and from which device."""
    revision = (
        HandRevision.objects.filter(match_id=hand.match_id, number=hand.number)
        .order_by("-revision")
        .values_list("by_id", "device")
        .first()
    )
    return revision if revision is not None else (hand.recorded_by_id, "")


def confirmation_add(*, hand: Hand, user: User, device: str) -> bool:
    """Keep ``user``'s word, from ``device``, that ``hand`` as it stands is the hand played.

    Returns whether it is new (the same member and device confirm a version once). The
    caller holds the match's lock. A finished match's standings mark unconfirmed hands when
    its club asks for a second entry, so they move on with it.
    """
    confirmation, created = HandConfirmation.objects.get_or_create(
        hand=hand, version=hand.version, by=user, device=device
    )
    if created:
        club = Club.objects.filter(matches__pk=hand.match_id).values("pk", "second_entry").get()
        status = Match.objects.values_list("status", flat=True).get(pk=hand.match_id)
        if club["second_entry"] == SecondEntry.REQUIRED and status == MatchStatus.FINISHED:
            Club.standings_changed(club["pk"])
        events.hand_confirmed(
            club_id=club["pk"],
            match_id=hand.match_id,
            number=hand.number,
            confirmation=confirmation,
        )
    return created


def _loaded(match_id: int, number: int) -> Hand:
    hand: Hand = selectors.hands_of(match_id).get(number=number)
    return hand


def second_entry(
    *,
    match_id: int,
    number: int,
    submitted: scoring.HandInput,
    flags: Mapping[str, bool],
    names: dict[int, str],
    user: User,
    device: str,
) -> hands.RecordedHand:
    """Compare a submission with hand ``number`` as recorded; the caller holds the match's lock.

    The same hand: it is answered as recorded (``agreed``), and kept as a confirmation when it
    comes from another member or device than the version's author. A different one raises
    ``errors.HandAlreadyRecorded`` with both and the differences. Nothing else is written.
    """
    hand = _loaded(match_id, number)
    recorded = as_input(hand.ending, hand.went_out_id, hand.results.all(), stored=True)
    differences = scoring.compare_hands(
        recorded, submitted, recorded_flags=hand.flags, submitted_flags=flags
    )
    if not differences.same:
        raise errors.HandAlreadyRecorded(
            number=number, recorded=hands.from_hand(hand), differences=differences, names=names
        )
    if author(hand) != (user.pk, device) and confirmation_add(hand=hand, user=user, device=device):
        hand = _loaded(match_id, number)
    return dataclasses.replace(hands.from_hand(hand), agreed=True)


@transaction.atomic
def hand_confirm(
    *,
    match_id: int,
    number: int,
    user: User,
    device: str,
    expected_version: int | None = None,
    roles: frozenset[str] | None = None,
) -> tuple[hands.RecordedHand, bool]:
    """Confirm hand ``number`` as it stands; return it and whether the confirmation is new.

    Any member but the author of the hand's current version may confirm it. With
    ``expected_version`` (from If-Match), a hand corrected since is stale (412). With
    ``roles``, ``user``'s role is read again once the match is locked: one removed from the
    club while the request waited is refused (``errors.NotAllowed``).
    """
    club = Match.objects.select_for_update().filter(pk=match_id).values_list("club", flat=True)
    club_id = club.first()
    if club_id is not None:  # else its hand is not found either: 404 below
        locking.require_role(club_id, user, roles)
    hand = Hand.objects.filter(match_id=match_id, number=number).first()
    if hand is None:
        raise errors.NoSuchHand(number=number)
    if expected_version is not None and hand.version != expected_version:
        raise errors.PreconditionFailed("hand", number=number, version=hand.version)
    if author(hand)[0] == user.pk:
        raise errors.ConfirmationByRecorder(number=number)
    created = confirmation_add(hand=hand, user=user, device=device)
    return hands.from_hand(_loaded(match_id, number)), created

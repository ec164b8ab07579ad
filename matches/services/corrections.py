"""Correcting or voiding a recorded hand in one transaction; the finish and standings follow."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import cast

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

import scoring
from matches import confirmations, errors, hands, locking, selectors, state, statements, subscribers
from matches.models import (
    Hand,
    HandDraftPart,
    HandRevision,
    Match,
    MatchStatus,
    Seat,
)
from matches.services.hands import (
    HandEntry,
    _apply_after,
    _entry_json,
    _nets,
    _result_lines,
    _result_rows,
    _rule,
    _rules,
    _seat_states,
)
from matches.services.standings import seat_figures
from matches.subscribers import HandChange
from scoring.after import after_hand


@dataclass(frozen=True)
class Impact:
    """What a correction changed: every total, the match's status and its winners."""

    totals_before: dict[int, int]
    totals_after: dict[int, int]
    status_before: str
    status_after: str
    winners_before: list[int]
    winners_after: list[int]

    @property
    def finish_changed(self) -> bool:
        return self.status_before != self.status_after

    @property
    def winners_changed(self) -> bool:
        return set(self.winners_before) != set(self.winners_after)


def _check_version(hand: Hand, expected_version: int | None) -> None:
    if expected_version is not None and hand.version != expected_version:
        raise errors.PreconditionFailed("hand", number=hand.number, version=hand.version)


def _locked_hand(
    match_id: int, number: int, user: User, roles: frozenset[str] | None
) -> tuple[Match, list[Seat], Hand]:
    """Lock a match; return it, its seats in order and its hand ``number``.

    The hand comes with its recorder and ``last_revision``, its last revision number. Raises
    ``errors.NoSuchHand`` if the hand is not there (voided since the caller saw it), and
    ``errors.NotAllowed`` if ``user``'s role, read once the match is locked, is not one of
    ``roles`` (demoted or removed while the request waited; None: nobody is checked).
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("created_by")
        .filter(pk=match_id)
        .first()
    )
    if match is None:  # deleted while this request waited for it (a round undone)
        raise errors.NoSuchMatch(match=match_id)
    locking.require_role(match.club_id, user, roles)
    # read after the lock, not within its statement: that would see the drafts as they were
    # before the wait for the lock (locking.LOCK)
    match.has_drafts = HandDraftPart.objects.filter(match=match).exists()  # type: ignore[attr-defined]
    seats = list(match.seats.select_related("player").order_by("position"))
    last_revision = (
        HandRevision.objects.filter(match=match, number=OuterRef("number"))
        .order_by("-revision")
        .values("revision")[:1]
    )
    hand = (
        Hand.objects.filter(match=match, number=number)
        .select_related("recorded_by")
        .annotate(last_revision=Subquery(last_revision))
        .first()
    )
    if hand is None:
        raise errors.NoSuchHand(number=number)
    return match, seats, hand


@transaction.atomic
def hand_correct(
    *,
    match_id: int,
    number: int,
    entry: HandEntry,
    user: User,
    reason: str = "",
    expected_version: int | None = None,
    device: str = "",
    roles: frozenset[str] | None = None,
) -> tuple[hands.RecordedHand, Impact]:
    """Re-rule hand ``number``, recompute every total after it and re-decide the finish.

    ``expected_version`` is the version the corrector last saw (from the hand's ETag); a
    correction made meanwhile by someone else makes this one stale. The corrected hand is a
    new version: the confirmations of the version it replaces no longer count. With
    ``roles``, the roles that may, ``user``'s role is read again under the match's lock, as
    ``hand_record`` reads it.
    """
    match, seats, hand = _locked_hand(match_id, number, user, roles)
    _check_version(hand, expected_version)
    names = {seat.player_id: seat.player.name for seat in seats}
    rules = _rules(match.ruleset, match.options)
    ruling = _rule(rules, entry, names, match.club_id)
    played = list(match.hands.order_by("number").prefetch_related("results"))
    if _unchanged(played[number - 1], entry, rules.flags(entry)):
        return _as_it_stands(match_id, number, seats)
    players = [seat.player_id for seat in seats]
    new_nets = _nets(ruling)
    nets = [
        new_nets if h.number == number else {r.player_id: r.net for r in h.results.all()}
        for h in played
    ]
    outcome = scoring.replay(players, cast("list[Mapping[Hashable, int]]", nets), rules.finish)
    if outcome.finished_after is not None and outcome.finished_after < len(played):
        raise errors.CorrectionEndsMatchEarly(number=outcome.finished_after, last=len(played))

    before = (
        {seat.player_id: seat.total for seat in seats},
        str(match.status),
        [seat.player_id for seat in seats if seat.winner],
    )
    after = after_hand(
        _seat_states(seats),
        outcome.totals[-1],
        decide=rules.finish,
        out_before=hand.went_out_id,
        out_after=entry.went_out,
    )
    revision: int = hand.last_revision + 1  # type: ignore[attr-defined]
    positions = {seat.player_id: seat.position for seat in seats}
    rows = _result_rows(rules, ruling, positions, outcome.totals[number - 1])  # type: ignore[arg-type]
    later = {
        r.pk: outcome.totals[h.number - 1][r.player_id]
        for h in played
        if h.number > number
        for r in h.results.all()
    }
    was_finished = match.status == MatchStatus.FINISHED
    _apply_after(match, seats, after)
    hand.ending, hand.went_out_id, hand.flags = entry.ending, entry.went_out, rules.flags(entry)
    hand.version, hand.updated_at = revision, timezone.now()
    statements.correct_hand(
        statements.Correction(
            match=match.pk,
            hand=hand.pk,
            number=number,
            version=revision,
            ending=str(entry.ending),
            went_out=entry.went_out,
            flags=hand.flags,
            results=rows,
            later=later,
            seats=seat_figures(seats),
            hands_played=match.hands_played,
            status=str(match.status),
            finished_at=match.finished_at,
            entry=_entry_json(entry),
            by=user.pk,
            reason=reason,
            device=device,
            at=hand.updated_at,
        )
    )
    corrected = hands.RecordedHand(
        number=number,
        dealer=hand.dealer_id,
        ending=str(hand.ending),
        went_out=hand.went_out_id,
        flags=hand.flags,
        version=hand.version,
        results=_result_lines(rows, names),
        recorded_by=hand.recorded_by.username,
        recorded_at=hand.recorded_at,
        updated_at=hand.updated_at,
        match=state.match_state(match, seats),
    )
    impact = Impact(
        totals_before=before[0],
        totals_after={seat.player_id: seat.total for seat in seats},
        status_before=before[1],
        status_after=str(match.status),
        winners_before=before[2],
        winners_after=[seat.player_id for seat in seats if seat.winner],
    )
    subscribers.after_hand(
        HandChange(
            "corrected",
            number,
            corrected.match,
            was_finished=was_finished,
            hand=corrected,
            impact=dataclasses.asdict(impact),
        )
    )
    return corrected, impact


def _unchanged(hand: Hand, entry: HandEntry, flags: Mapping[str, bool]) -> bool:
    """Whether a correction holds the very hand recorded: the same melds, cards and ending
    (``hand`` with its results prefetched)."""
    recorded = confirmations.as_input(
        hand.ending, hand.went_out_id, hand.results.all(), stored=True
    )
    submitted = confirmations.as_input(
        str(entry.ending), entry.went_out, entry.results, stored=False
    )
    return scoring.compare_hands(
        recorded, submitted, recorded_flags=hand.flags, submitted_flags=flags
    ).same


def _as_it_stands(
    match_id: int, number: int, seats: list[Seat]
) -> tuple[hands.RecordedHand, Impact]:
    """A correction that changes nothing: no new version, no event; the hand as it stands."""
    totals = {seat.player_id: seat.total for seat in seats}
    winners = [seat.player_id for seat in seats if seat.winner]
    recorded = hands.from_hand(selectors.hands_of(match_id).get(number=number))
    status = recorded.match.status
    return recorded, Impact(totals, totals, status, status, winners, winners)


@transaction.atomic
def hand_void(
    *,
    match_id: int,
    number: int,
    user: User,
    reason: str = "",
    expected_version: int | None = None,
    roles: frozenset[str] | None = None,
) -> None:
    """Void the last hand: totals return to what they were before it; its revisions stay.

    The match's drafts are emptied: the next hand is the voided one's number again, to be
    entered anew, and a phone's version of it from before its record is refused
    (``HandDraftPart.set_aside``). ``roles`` as for ``hand_correct``.
    """
    match, seats, hand = _locked_hand(match_id, number, user, roles)
    _check_version(hand, expected_version)
    if number != match.hands_played:
        raise errors.NotLastHand(number=number, last=match.hands_played)
    nets = {r.player_id: r.net for r in hand.results.all()}
    after = after_hand(
        _seat_states(seats),
        {seat.player_id: seat.total - nets[seat.player_id] for seat in seats},
        decide=_rules(match.ruleset, match.options).finish,
        out_before=hand.went_out_id,
    )
    was_finished = match.status == MatchStatus.FINISHED
    _apply_after(match, seats, after)
    match.hands_played = number - 1
    statements.void_hand(
        match=match.pk,
        number=number,
        revision=hand.last_revision + 1,  # type: ignore[attr-defined]
        seats=seat_figures(seats),
        status=str(match.status),
        finished_at=match.finished_at,
        by=user.pk,
        reason=reason,
        at=timezone.now(),
    )
    hand.delete()  # with its results and confirmations
    if match.has_drafts:  # type: ignore[attr-defined]  # the numbering moves back
        HandDraftPart.set_aside(match.pk, number)
    subscribers.after_hand(
        HandChange("voided", number, state.match_state(match, seats), was_finished=was_finished)
    )

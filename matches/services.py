"""Business actions of the matches app: each runs in one transaction and leaves nothing half-done.

The engine (`scoring`) decides every rule; these functions lock, ask it, and save.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

import scoring
from matches import errors, selectors, statements
from matches.models import (
    MAX_SEATS,
    MIN_SEATS,
    Club,
    Hand,
    HandResult,
    HandRevision,
    IdempotencyRecord,
    Match,
    MatchStatus,
    Membership,
    Player,
    RevisionAction,
    Role,
    Season,
    Seat,
    Tally,
)
from matches.selectors import MatchAccess
from matches.standings import seat_figures


@dataclass(frozen=True)
class PlayerRef:
    """A seated player as the engine sees one: compared by id, named by name in sentences."""

    id: int
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class PlayerEntry:
    """One player's part of a hand as the scorekeeper entered it, already read from notation."""

    player: int
    melds: tuple[tuple[scoring.MeldCard, ...], ...]
    held: tuple[scoring.Card, ...]


@dataclass(frozen=True)
class HandEntry:
    ending: scoring.Ending
    went_out: int | None
    results: tuple[PlayerEntry, ...]


# --- clubs and people ----------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, user: AbstractBaseUser) -> Club:
    """Create a club; its creator becomes its owner."""
    club = Club.objects.create(name=name, created_by=user)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    return club


@transaction.atomic
def membership_set(*, club: Club, user: AbstractBaseUser, role: str,
                   admit: Callable[[], None] | None = None) -> Membership:  # fmt: skip
    """Add a user to a club with a role, or change their role; a club keeps an owner.

    ``admit`` checks the requester's own role once the club's members are locked, so that an
    owner demoted while their request waited for the lock is refused, not obeyed.
    """
    _lock_club(club, admit)
    membership, created = Membership.objects.select_for_update().get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        _keep_an_owner(club, membership)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, admit: Callable[[], None] | None = None) -> None:
    """Remove a member; a club keeps at least one owner. ``admit`` as for ``membership_set``."""
    _lock_club(membership.club, admit)
    _keep_an_owner(membership.club, membership)
    membership.delete()


def _lock_club(club: Club, admit: Callable[[], None] | None = None) -> None:
    """Serialise changes to a club's members, so two owners cannot demote each other at once."""
    Club.objects.select_for_update().filter(pk=club.pk).exists()
    if admit is not None:
        admit()  # the requester's role as it is now that no other change can move it


def _keep_an_owner(club: Club, leaving: Membership) -> None:
    if leaving.role != Role.OWNER:
        return
    owners = Membership.objects.select_for_update().filter(club=club, role=Role.OWNER)
    if owners.exclude(pk=leaving.pk).count() == 0:
        raise errors.InvalidSetup("last_owner", attr="role")


# --- matches -------------------------------------------------------------------------------


@transaction.atomic
def match_update(*, match: Match, table: str, season: Season | None) -> Match:
    """Change a match's table label or season; a finished match's tallies move with it."""
    locked = Match.objects.select_for_update().get(pk=match.pk)
    if season is not None and season.club_id != locked.club_id:
        raise errors.InvalidSetup("season_not_in_club", attr="season", season=season.pk)
    before = locked.season_id
    locked.table, locked.season = table, season
    locked.save(update_fields=["table", "season"])
    if locked.status == MatchStatus.FINISHED and before != locked.season_id:
        players = list(locked.seats.values_list("player_id", flat=True))
        retally(club_id=locked.club_id, season_ids=[before, locked.season_id], player_ids=players)
    return locked


@transaction.atomic
def match_create(
    *,
    club: Club,
    players: Sequence[Player],
    user: AbstractBaseUser,
    season: Season | None = None,
    table: str = "",
    first_dealer: Player | None = None,
) -> Match:
    """Seat 2 to 5 distinct players of the club clockwise, in the order given."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise errors.InvalidSetup("seat_count", attr="players", count=len(players))
    seen: set[int] = set()
    for i, player in enumerate(players):
        if player.club_id != club.pk:
            raise errors.InvalidSetup("player_not_in_club", attr=f"players.{i}", player=player.pk)
        if player.pk in seen:
            raise errors.InvalidSetup("duplicate_player", attr=f"players.{i}", player=player.name)
        seen.add(player.pk)
    if season is not None and season.club_id != club.pk:
        raise errors.InvalidSetup("season_not_in_club", attr="season", season=season.pk)
    dealer = first_dealer or players[0]
    if dealer.pk not in seen:
        raise errors.InvalidSetup("first_dealer_not_seated", attr="first_dealer", player=dealer.pk)
    match = Match.objects.create(
        club=club, season=season, table=table, seat_count=len(players),
        first_dealer=dealer, created_by=user,
    )  # fmt: skip
    Seat.objects.bulk_create(
        Seat(match=match, player=player, position=i) for i, player in enumerate(players)
    )
    return match


def _attach(hand: Hand, match: Match, seats: list[Seat], rows: list[HandResult]) -> None:
    """Give the hand what presenting it reads, from memory: it was all just loaded or written."""
    match._prefetched_objects_cache = {"seats": seats}  # type: ignore[attr-defined]
    hand.match = match
    hand._prefetched_objects_cache = {"results": rows}  # type: ignore[attr-defined]


def _refs(seats: Sequence[Seat]) -> dict[int, PlayerRef]:
    return {seat.player_id: PlayerRef(seat.player_id, seat.player.name) for seat in seats}


def _rule(entry: HandEntry, seats: Sequence[Seat]) -> scoring.HandRuling:
    refs = _refs(seats)

    def ref(player_id: int) -> PlayerRef:
        return refs.get(player_id) or PlayerRef(player_id, f"player {player_id}")

    hand = scoring.HandInput(
        ending=entry.ending,
        went_out=None if entry.went_out is None else ref(entry.went_out),
        results=tuple(scoring.PlayerInput(ref(r.player), r.melds, r.held) for r in entry.results),
    )
    ruling = scoring.rule_hand(hand, seated=list(refs.values()))
    if not ruling.valid:
        raise errors.HandRejected(ruling.violations)
    return ruling


def dealer(match: Match, seats: Sequence[Seat], number: int) -> Seat:
    """The seat that deals hand ``number``; ``seats`` in seating order."""
    first = next(seat.position for seat in seats if seat.player_id == match.first_dealer_id)
    return seats[scoring.dealer_position(number, len(seats), first)]


def _result_rows(hand: Hand, ruling: scoring.HandRuling, seats: Sequence[Seat],
                 totals: dict[int, int]) -> list[HandResult]:  # fmt: skip
    seat_of = {seat.player_id: seat for seat in seats}
    rows = []
    for result in ruling.results:
        seat = seat_of[result.player.id]  # type: ignore[attr-defined]
        player_id = seat.player_id
        rows.append(HandResult(
            hand=hand, player=seat.player, position=seat.position,
            melds=[{"cards": m.notation, "kind": str(m.kind), "points": m.points}
                   for m in result.melds],
            held=[{"card": card.code, "points": card.points} for card in result.held],
            melded_points=result.melded_points, hand_penalty=result.hand_penalty,
            bonus=result.bonus, net=result.net, total=totals[player_id],
        ))  # fmt: skip
    return sorted(rows, key=lambda row: row.position)


def _entry_json(entry: HandEntry) -> dict[str, Any]:
    return {
        "ending": str(entry.ending),
        "went_out": entry.went_out,
        "results": [
            {"player": r.player, "melds": [[c.code for c in m] for m in r.melds],
             "hand": [c.code for c in r.held]}
            for r in entry.results
        ],
    }  # fmt: skip


def _revise(match: Match, number: int, revision: int, action: str, entry: HandEntry | None,
            user: AbstractBaseUser, reason: str) -> None:  # fmt: skip
    statements.insert([HandRevision(
        match=match, number=number, revision=revision, action=action,
        hand=_entry_json(entry) if entry is not None else {}, reason=reason, by=user,
    )])  # fmt: skip


VICTORY_POINT_PLACES = Decimal("0.0001")  # a shared victory's part, as stored on the seat


def _apply_finish(match: Match, seats: Sequence[Seat], finish: scoring.Finish) -> None:
    winners = set(finish.winners)
    share = (Decimal(1) / len(winners)).quantize(VICTORY_POINT_PLACES) if winners else Decimal(0)
    for seat in seats:
        seat.winner = seat.player_id in winners
        seat.victory_points = share if seat.winner else Decimal(0)
    if finish.finished and match.status != MatchStatus.FINISHED:
        match.status, match.finished_at = MatchStatus.FINISHED, timezone.now()
    elif not finish.finished:
        match.status, match.finished_at = MatchStatus.IN_PROGRESS, None


def _count_going_out(seats: Sequence[Seat], player_id: int | None, step: int) -> None:
    for seat in seats:
        if seat.player_id == player_id:
            seat.went_out += step


SEAT_FIGURES = ("total", "winner", "went_out", "victory_points")


def _lock_tallies(club_id: int, season_id: int | None) -> None:
    """Serialise recounts of one season's tallies: two matches finishing together share players.

    A transaction-scoped advisory lock on PostgreSQL; SQLite (make run) serialises writes anyway.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [club_id, season_id or 0])


def retally(*, club_id: int, season_ids: Sequence[int | None], player_ids: Sequence[int]) -> None:
    """Recount these players' tallies for some seasons of a club from its finished seats.

    Every change to a finished match comes through here, so this also moves the club's
    standings stamp on, which retires its cached tables (matches/standings.py). The seasons'
    locks are taken in one order and the club's row last, once, so that two recounts sharing a
    season or the club cannot wait for each other.
    """
    for season_id in sorted(set(season_ids), key=lambda s: s or 0):
        _lock_tallies(club_id, season_id)
        seats = Seat.objects.filter(match__club_id=club_id, match__season_id=season_id,
                                    match__status=MatchStatus.FINISHED, player_id__in=player_ids)
        figures = seats.order_by().values("player_id").annotate(**seat_figures())
        Tally.objects.filter(club_id=club_id, season_id=season_id,
                             player_id__in=player_ids).delete()  # fmt: skip
        Tally.objects.bulk_create(
            Tally(club_id=club_id, season_id=season_id, player_id=row["player_id"],
                  matches_played=row["counted"], wins=row["outright"], shared_wins=row["shared"],
                  victory_points=row["shares"], hands_played=row["hands"], went_out=row["outs"],
                  points=row["sum_of_totals"])
            for row in figures
        )  # fmt: skip
    Club.standings_changed(club_id)


def _retally_if_counted(match: Match, seats: Sequence[Seat], was_finished: bool) -> None:
    if was_finished or match.status == MatchStatus.FINISHED:
        retally(club_id=match.club_id, season_ids=[match.season_id],
                player_ids=[seat.player_id for seat in seats])  # fmt: skip


@dataclass(frozen=True)
class Outcome:
    """What a hand submission produced: the hand (None for a replayed retry) and the answer."""

    hand: Hand | None
    body: Any
    status: int
    replayed: bool = False


def key_lock_id(match_id: int, key: str) -> int:
    """The advisory lock that marks a submission with this key as in flight."""
    digest = hashlib.sha256(f"{match_id}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _claim_key(match_id: int, key: str) -> None:
    """Refuse a retry while the first submission with its key is still being recorded.

    On PostgreSQL a transaction-scoped advisory lock marks the key as in flight: a second
    request gets 409 at once instead of waiting, and the lock ends with the transaction.
    """
    if connection.vendor != "postgresql":
        return  # SQLite (make run) serialises writes anyway
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key_lock_id(match_id, key)])
        (claimed,) = cursor.fetchone()
    if not claimed:
        raise errors.IdempotencyKeyInProgress()


def _stored_answer(match: Match, key: str, fingerprint: str) -> IdempotencyRecord | None:
    """The first answer given under ``key``, if it has not expired; expired ones are removed."""
    cutoff = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS)
    IdempotencyRecord.objects.filter(match=match, created_at__lt=cutoff).delete()
    stored = IdempotencyRecord.objects.filter(match=match, key=key).first()
    if stored is not None and stored.fingerprint != fingerprint:
        raise errors.IdempotencyKeyReused()
    return stored


@transaction.atomic
def hand_record(
    *,
    match_id: int,
    entry: HandEntry | Callable[[], HandEntry],
    user: AbstractBaseUser,
    render: Callable[[Hand], Any],
    admit: Callable[[MatchAccess | None], None] | None = None,
    writers: Collection[str] = frozenset(),
    idempotency_key: str | None = None,
    fingerprint: str = "",
) -> Outcome:
    """Record the next hand of a match, or replay the first answer to a retried submission.

    The match row is locked, so two scorekeepers at one table get consecutive hand numbers.
    ``admit``, if given, is the API's permission check: it is called with ``user``'s access to
    the match (None if the match is not theirs to see) and raises to refuse them. When ``user``
    holds one of the roles ``writers`` in the match's club, the access is read with the lock, in
    one statement; otherwise nothing is locked, and the access is read unlocked for ``admit`` to
    refuse. ``entry`` may be a callable, called once ``user`` is admitted, so that a refused
    requester's hand is never read. ``render`` presents the new hand; with an idempotency key
    its answer is stored with the hand in the same transaction, and kept for
    IDEMPOTENCY_KEY_TTL_SECONDS.
    """
    if idempotency_key:
        _claim_key(match_id, idempotency_key)
    match: Match | None = None
    if admit is not None:
        match, role = statements.lock_match(match_id, (user.pk, writers))
        if match is not None and role is not None:
            admit(MatchAccess(match_id, match.club_id, role))
        else:  # not locked: no such match, or not theirs to write; refused on an unlocked read
            admit(selectors.match_access(user, match_id))
    if match is None:  # no admission asked for, or admitted since the locked read
        match, _ = statements.lock_match(match_id)
        if match is None:
            raise Match.DoesNotExist(f"match {match_id}")
    if callable(entry):
        entry = entry()
    if idempotency_key:
        stored = _stored_answer(match, idempotency_key, fingerprint)
        if stored is not None:
            return Outcome(None, stored.response, stored.status_code, replayed=True)
    if match.status == MatchStatus.FINISHED:
        raise errors.MatchFinished(match=match.pk)
    seats, last_revision = statements.seats_of_locked(match, None)
    ruling = _rule(entry, seats)
    number = match.hands_played + 1
    revision = last_revision + 1
    hand = Hand(
        match=match, number=number, dealer_id=dealer(match, seats, number).player_id,
        ending=entry.ending, went_out_id=entry.went_out, version=revision, recorded_by=user,
    )  # fmt: skip
    nets = {r.player.id: r.net for r in ruling.results}  # type: ignore[attr-defined]
    for seat in seats:
        seat.total += nets[seat.player_id]
    totals = {seat.player_id: seat.total for seat in seats}
    _count_going_out(seats, entry.went_out, +1)
    _apply_finish(match, seats, scoring.decide_finish(totals))
    match.hands_played = number
    with statements.together():  # one statement on PostgreSQL
        statements.insert([hand])
        rows = _result_rows(hand, ruling, seats, totals)  # made after the hand: they refer to it
        statements.insert(rows)
        statements.update(seats, SEAT_FIGURES)
        statements.update([match], ["hands_played", "status", "finished_at"])
        _revise(match, number, revision, RevisionAction.RECORDED, entry, user, "")
    _retally_if_counted(match, seats, was_finished=False)
    _attach(hand, match, seats, rows)
    body = render(hand)
    if idempotency_key:
        IdempotencyRecord.objects.create(
            match=match, key=idempotency_key, fingerprint=fingerprint, status_code=201,
            response=body,
        )  # fmt: skip
    return Outcome(hand, body, 201)


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
        raise errors.StaleHand(number=hand.number, version=hand.version)


@transaction.atomic
def hand_correct(
    *,
    match_id: int,
    number: int,
    entry: HandEntry,
    user: AbstractBaseUser,
    reason: str = "",
    expected_version: int | None = None,
) -> tuple[Hand, Impact]:
    """Re-rule hand ``number``, recompute every total after it and re-decide the finish.

    ``expected_version`` is the version the corrector last saw (from the hand's ETag); a
    correction made meanwhile by someone else makes this one stale.
    """
    match, seats, last_revision = statements.locked_match(match_id, number)
    hand = Hand.objects.select_related("recorded_by").get(match=match, number=number)
    _check_version(hand, expected_version)
    ruling = _rule(entry, seats)
    hands = list(match.hands.order_by("number").prefetch_related("results"))
    players = [seat.player_id for seat in seats]
    new_nets = {r.player.id: r.net for r in ruling.results}  # type: ignore[attr-defined]
    nets = [
        new_nets if h.number == number else {r.player_id: r.net for r in h.results.all()}
        for h in hands
    ]
    outcome = scoring.replay(players, nets)
    if outcome.finished_after is not None and outcome.finished_after < len(hands):
        raise errors.CorrectionEndsMatchEarly(number=outcome.finished_after, last=len(hands))

    before = (
        {seat.player_id: seat.total for seat in seats}, str(match.status),
        [seat.player_id for seat in seats if seat.winner],
    )  # fmt: skip
    revision = last_revision + 1
    _count_going_out(seats, hand.went_out_id, -1)
    _count_going_out(seats, entry.went_out, +1)
    hand.ending = entry.ending
    hand.went_out_id = entry.went_out
    hand.version = revision
    hand.save(update_fields=["ending", "went_out", "version", "updated_at"])
    hand.results.all().delete()
    rows = HandResult.objects.bulk_create(
        _result_rows(hand, ruling, seats, outcome.totals[number - 1])  # type: ignore[arg-type]
    )
    later = [(h.number, r) for h in hands if h.number > number for r in h.results.all()]
    for later_number, row in later:
        row.total = outcome.totals[later_number - 1][row.player_id]
    HandResult.objects.bulk_update([row for _, row in later], ["total"])
    final = outcome.totals[-1]
    for seat in seats:
        seat.total = final[seat.player_id]
    was_finished = match.status == MatchStatus.FINISHED
    _apply_finish(match, seats, outcome.finish)
    statements.update(seats, SEAT_FIGURES)
    match.save(update_fields=["status", "finished_at"])
    _retally_if_counted(match, seats, was_finished)
    _revise(match, number, revision, RevisionAction.CORRECTED, entry, user, reason)
    _attach(hand, match, seats, rows)
    impact = Impact(
        totals_before=before[0], totals_after={seat.player_id: seat.total for seat in seats},
        status_before=before[1], status_after=str(match.status),
        winners_before=before[2], winners_after=[seat.player_id for seat in seats if seat.winner],
    )  # fmt: skip
    return hand, impact


@transaction.atomic
def hand_void(
    *,
    match_id: int,
    number: int,
    user: AbstractBaseUser,
    reason: str = "",
    expected_version: int | None = None,
) -> None:
    """Void the last hand: totals return to what they were before it; its revisions stay."""
    match, seats, last_revision = statements.locked_match(match_id, number)
    hand = Hand.objects.get(match=match, number=number)
    _check_version(hand, expected_version)
    if number != match.hands_played:
        raise errors.NotLastHand(number=number, last=match.hands_played)
    nets = {r.player_id: r.net for r in hand.results.all()}
    for seat in seats:
        seat.total -= nets[seat.player_id]
    _count_going_out(seats, hand.went_out_id, -1)
    hand.delete()
    was_finished = match.status == MatchStatus.FINISHED
    _apply_finish(match, seats, scoring.Finish(False))
    statements.update(seats, SEAT_FIGURES)
    match.hands_played = number - 1
    match.save(update_fields=["hands_played", "status", "finished_at"])
    _retally_if_counted(match, seats, was_finished)
    _revise(match, number, last_revision + 1, RevisionAction.VOIDED, None, user, reason)

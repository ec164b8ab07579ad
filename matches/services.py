"""Business actions of the matches app: each runs in one transaction and leaves nothing half-done.

The engine (`scoring`) decides every rule; these functions lock, ask it, and save.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext

import scoring
from matches import confirmations, errors, events, hands, statements, subscribers
from matches.models import (
    Club,
    Hand,
    HandDraftPart,
    HandRevision,
    IdempotencyRecord,
    Match,
    MatchStatus,
    Membership,
    Player,
    Role,
    Season,
    Seat,
)
from matches.selectors import LARGEST_ID, role_in
from matches.subscribers import HandChange
from matches.tallies import retally
from scoring import rulesets
from scoring.after import AfterHand, SeatState, after_hand


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
    flags: Mapping[str, bool] = field(default_factory=dict)
    """Yes/no facts of the hand its match's ruleset asks for (Rummy: ``rummy``)."""


# --- clubs and people ----------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, user: User) -> Club:
    """Create a club; its creator becomes its owner."""
    club = Club.objects.create(name=name, created_by=user)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    return club


@transaction.atomic
def membership_set(*, club: Club, user: User, role: str, by: User | None = None) -> Membership:
    """Add a user to a club with a role, or change their role; a club keeps an owner.

    ``by``, the requester, must be an owner of the club once its members are locked, so that an
    owner demoted while their request waited for the lock is refused (``errors.NotAllowed``),
    not obeyed. Without ``by`` (the admin, the demo), nobody is checked.
    """
    _lock_club(club, by)
    membership, created = Membership.objects.select_for_update().get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        _keep_an_owner(club, membership)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: User | None = None) -> None:
    """Remove a member; a club keeps at least one owner. ``by`` as for ``membership_set``."""
    _lock_club(membership.club, by)
    _keep_an_owner(membership.club, membership)
    membership.delete()


def _lock_club(club: Club, by: User | None = None) -> None:
    """Serialise changes to a club's members, so two owners cannot demote each other at once."""
    Club.objects.select_for_update().filter(pk=club.pk).exists()
    # the requester's role as it is now that no other change can move it
    if by is not None and role_in(by, club.pk) != Role.OWNER:
        raise errors.NotAllowed()


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
        retally(
            club_id=locked.club_id,
            season_ids=[before, locked.season_id],
            player_ids=players,
            ruleset=locked.ruleset,
        )
    return locked


@transaction.atomic
def match_create(
    *,
    club: Club,
    players: Sequence[int],
    user: User,
    season: int | None = None,
    table: str = "",
    first_dealer: int | None = None,
    ruleset: str = rulesets.DEFAULT,
    options: Mapping[str, object] | None = None,
) -> Match:
    """Seat distinct players of the club clockwise, in the order given, for a game of ``ruleset``.

    ``players`` are player ids of the club's roster; ``season``, if given, the id of one of its
    seasons; ``first_dealer`` the id of a seated player (default: the first seat). A match
    seats as many as its ruleset says; ``options`` (already read) are completed with the ruleset's
    defaults and fixed for the match's life. Raises ``errors.InvalidSetup`` naming the first
    field at fault.
    """
    rules = rulesets.ruleset(ruleset)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise errors.InvalidSetup(
            "seat_count",
            attr="players",
            sentence="seat_count_for_ruleset",
            ruleset=gettext(rules.label),
            least=rules.min_players,
            most=rules.max_players,
            count=len(players),
        )
    roster = Player.objects.in_bulk([p for p in players if 0 < p <= LARGEST_ID])
    seen: set[int] = set()
    for i, player_id in enumerate(players):
        player = roster.get(player_id)
        if player is None or player.club_id != club.pk:
            raise errors.InvalidSetup("player_not_in_club", attr=f"players.{i}", player=player_id)
        if player_id in seen:
            raise errors.InvalidSetup("duplicate_player", attr=f"players.{i}", player=player.name)
        seen.add(player_id)
    chosen = None
    if season is not None:
        chosen = Season.objects.filter(club=club, pk=season).first()
        if chosen is None:
            raise errors.InvalidSetup("season_not_in_club", attr="season", season=season)
    dealer = players[0] if first_dealer is None else first_dealer
    if dealer not in seen:
        raise errors.InvalidSetup("first_dealer_not_seated", attr="first_dealer", player=dealer)
    match = Match.objects.create(
        club=club,
        season=chosen,
        table=table,
        seat_count=len(players),
        ruleset=ruleset,
        options=rules.options_with_defaults(options or {}),
        first_dealer=roster[dealer],
        created_by=user,
    )
    seats = Seat.objects.bulk_create(
        Seat(match=match, player=roster[player_id], position=i)
        for i, player_id in enumerate(players)
    )
    events.match_started(hands.match_state(match, seats))
    return match


@dataclass(frozen=True)
class Rules:
    """A match's ruleset with the options it was created with: every hand, finish and score of
    the match asks these, never a game's module directly."""

    ruleset: rulesets.Ruleset
    options: Mapping[str, object]

    def flags(self, entry: HandEntry) -> dict[str, bool]:
        """The hand's flags this ruleset knows, each stated (false when left out)."""
        return {
            flag.name: bool(entry.flags.get(flag.name, flag.default)) for flag in self.ruleset.flags
        }

    def finish(self, totals: Mapping[Hashable, int]) -> scoring.Finish:
        return self.ruleset.decide_finish(totals, self.options)


def _rules(ruleset: str, options: Mapping[str, object]) -> Rules:
    return Rules(rulesets.ruleset(ruleset), options)


def _rule(rules: Rules, entry: HandEntry, names: Mapping[int, str]) -> scoring.HandRuling:
    """The ruleset's ruling on a hand; ``names`` are the seated players' by id, in seat order."""
    refs = {player: PlayerRef(player, name) for player, name in names.items()}

    def ref(player_id: int) -> PlayerRef:
        return refs.get(player_id) or PlayerRef(player_id, f"player {player_id}")

    hand = scoring.HandInput(
        ending=entry.ending,
        went_out=None if entry.went_out is None else ref(entry.went_out),
        results=tuple(scoring.PlayerInput(ref(r.player), r.melds, r.held) for r in entry.results),
    )
    ruling = rules.ruleset.rule_hand(
        hand, rules.options, flags=rules.flags(entry), seated=list(refs.values())
    )
    if not ruling.valid:
        raise errors.HandRejected(ruling.violations)
    return ruling


def _nets(ruling: scoring.HandRuling) -> dict[int, int]:
    return {result.player.id: result.net for result in ruling.results}  # type: ignore[attr-defined]


def _result_rows(
    rules: Rules,
    ruling: scoring.HandRuling,
    positions: Mapping[int, int],
    totals: Mapping[int, int],
) -> list[statements.ResultRow]:
    """A hand's results in seat order; ``positions`` are the players' seats, by id."""
    points = rules.ruleset.card_points
    rows = []
    for result in ruling.results:
        player: int = result.player.id  # type: ignore[attr-defined]
        rows.append(
            statements.ResultRow(
                player=player,
                position=positions[player],
                melds=[
                    {"cards": m.notation, "kind": str(m.kind), "points": m.points}
                    for m in result.melds
                ],
                held=[{"card": card.code, "points": points(card)} for card in result.held],
                melded_points=result.melded_points,
                hand_penalty=result.hand_penalty,
                bonus=result.bonus,
                net=result.net,
                total=totals[player],
            )
        )
    return sorted(rows, key=lambda row: row.position)


def _result_lines(
    rows: Sequence[statements.ResultRow], names: Mapping[int, str]
) -> tuple[hands.ResultLine, ...]:
    return tuple(
        hands.ResultLine(
            row.player,
            names[row.player],
            hands.meld_lines(row.melds),
            hands.held_lines(row.held),
            row.melded_points,
            row.hand_penalty,
            row.bonus,
            row.net,
            row.total,
        )
        for row in rows
    )


def _entry_json(entry: HandEntry) -> dict[str, Any]:
    return {
        **entry.flags,
        "ending": str(entry.ending),
        "went_out": entry.went_out,
        "results": [
            {
                "player": r.player,
                "melds": [[c.code for c in m] for m in r.melds],
                "hand": [c.code for c in r.held],
            }
            for r in entry.results
        ],
    }


def _seat_states(seats: Sequence[Seat]) -> list[SeatState]:
    return [SeatState(seat.player_id, seat.total, seat.went_out) for seat in seats]


def _apply_after(match: Match, seats: Sequence[Seat], after: AfterHand) -> None:
    """Carry a hand's aftermath onto the match and its seats (``seats`` in seat order)."""
    for seat, figures in zip(seats, after.seats, strict=True):
        seat.total, seat.went_out = figures.total, figures.went_out
        seat.winner, seat.victory_points = figures.winner, figures.victory_points
    if after.finish.finished and match.status != MatchStatus.FINISHED:
        match.status, match.finished_at = MatchStatus.FINISHED, timezone.now()
    elif not after.finish.finished:
        match.status, match.finished_at = MatchStatus.IN_PROGRESS, None


def _seat_figures(seats: Sequence[Seat]) -> list[statements.SeatFigures]:
    return [
        statements.SeatFigures(seat.pk, seat.total, seat.winner, seat.went_out, seat.victory_points)
        for seat in seats
    ]


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


def _stored_hand(match_id: int, key: str, fingerprint: str) -> hands.RecordedHand | None:
    """The hand first recorded under ``key``, if its record has not expired (expired ones go)."""
    cutoff = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS)
    IdempotencyRecord.objects.filter(match_id=match_id, created_at__lt=cutoff).delete()
    stored = IdempotencyRecord.objects.filter(match_id=match_id, key=key).first()
    if stored is None:
        return None
    if stored.fingerprint != fingerprint:
        raise errors.IdempotencyKeyReused()
    # records kept before the answer's status was kept beside it carry it in the answer
    agreed = stored.agreed or bool(stored.response.get("agreed"))
    return hands.RecordedHand.from_json(stored.response, replayed=True, agreed=agreed)


def _next_hand(
    match: statements.LockedMatch,
    rules: Rules,
    entry: HandEntry,
    ruling: scoring.HandRuling,
    user: User,
    device: str = "",
) -> statements.NewHand:
    """What recording the next hand writes: the hand, its results, every seat, the match."""
    number = match.hands_played + 1
    nets = _nets(ruling)
    totals = {seat.player: seat.total + nets[seat.player] for seat in match.seats}
    after = after_hand(
        [SeatState(seat.player, seat.total, seat.went_out) for seat in match.seats],
        cast("Mapping[Hashable, int]", totals),
        decide=rules.finish,
        out_after=entry.went_out,
    )
    now = timezone.now()
    finished = after.finish.finished
    return statements.NewHand(
        match=match.id,
        number=number,
        dealer=hands.dealer(
            match.id,
            match.first_dealer,
            [seat.player for seat in match.seats],
            number,
            ruleset=match.ruleset,
        ),
        ending=str(entry.ending),
        went_out=entry.went_out,
        recorded_by=user.pk,
        at=now,
        results=_result_rows(
            rules, ruling, {seat.player: seat.position for seat in match.seats}, totals
        ),
        seats=[
            statements.SeatFigures(
                seat.id, figures.total, figures.winner, figures.went_out, figures.victory_points
            )
            for seat, figures in zip(match.seats, after.seats, strict=True)
        ],
        status=str(MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS),
        finished_at=now if finished else None,
        entry=_entry_json(entry),
        flags=rules.flags(entry),
        device=device,
    )


def _recorded(
    match: statements.LockedMatch, new: statements.NewHand, written: statements.Written, user: User
) -> hands.RecordedHand:
    """The hand just written, with its match as it now stands, from what was written."""
    names = {seat.player: seat.name for seat in match.seats}
    return hands.RecordedHand(
        number=new.number,
        dealer=new.dealer,
        ending=new.ending,
        went_out=new.went_out,
        flags=new.flags,
        version=written.version,
        results=_result_lines(new.results, names),
        recorded_by=user.get_username(),
        recorded_at=written.recorded_at,
        updated_at=written.updated_at,
        match=hands.MatchState(
            id=match.id,
            club=match.club,
            season=match.season,
            table=match.table,
            status=new.status,
            seats=tuple(
                hands.SeatLine(seat.position, seat.player, seat.name, figures.total, figures.winner)
                for seat, figures in zip(match.seats, new.seats, strict=True)
            ),
            hands_played=new.number,
            first_dealer=match.first_dealer,
            created_by=match.created_by,
            created_at=match.created_at,
            finished_at=new.finished_at,
            ruleset=match.ruleset,
            options=match.options,
            previous=(new.dealer, new.went_out),
        ),
    )


@transaction.atomic
def hand_record(
    *,
    match_id: int,
    user: User,
    entry: HandEntry,
    number: int | None = None,
    device: str = "",
    idempotency_key: str | None = None,
    fingerprint: str = "",
    live: bool = False,
) -> hands.RecordedHand:
    """Record the next hand of a match; return it with the match as it now stands.

    ``user`` records it: the caller has checked that they may (services do not authorise).
    ``entry`` is the hand as entered, already read from notation. The match and its seats are
    locked, so two scorekeepers at one table get consecutive hand numbers; the hand, its
    results, the seats' figures, the match and the hand's first revision are written in one
    transaction, with the players' tallies when the hand finishes the match. A draft of the
    hand that phones were filling in (``matches.drafts``) is deleted with it.

    With ``idempotency_key`` (1 to 255 characters) and ``fingerprint`` (a digest of what was
    submitted), the hand is kept under the key for IDEMPOTENCY_KEY_TTL_SECONDS: a retry with
    the same key and fingerprint gets that hand back as it was recorded, with ``replayed`` set,
    and records nothing.

    ``number`` is the hand the client means (None from older clients: the next). A number
    already recorded is a second entry of that hand (``confirmations.second_entry``): the same
    hand is answered as recorded with ``agreed`` set, and kept as a confirmation when ``user``
    or ``device`` is not its author's; a different one raises ``errors.HandAlreadyRecorded``.
    A live hand in play holds its number: a whole entry of it is refused, unless ``live`` (the
    live hand's own finish) records it.

    Raises, writing nothing: ``errors.HandRejected`` (every rule the hand breaks),
    ``errors.MatchFinished``, ``errors.HandNumberNotNext``, ``errors.LiveHandInProgress``,
    ``errors.HandAlreadyRecorded``, ``errors.IdempotencyKeyReused`` (the key with another
    fingerprint) and ``errors.IdempotencyKeyInProgress`` (its first submission is still being
    recorded).
    """
    if idempotency_key:
        # A retry of a committed submission is answered at once, however many arrive together.
        stored = _stored_hand(match_id, idempotency_key, fingerprint)
        if stored is not None:
            return stored
        _claim_key(match_id, idempotency_key)
    match = statements.lock_match(match_id)  # 404 if deleted meanwhile (a round undone)
    if idempotency_key:
        stored = _stored_hand(match_id, idempotency_key, fingerprint)
        if stored is not None:
            return stored
    rules = _rules(match.ruleset, match.options)
    names = {seat.player: seat.name for seat in match.seats}
    if number is not None and 1 <= number <= match.hands_played:
        agreed = confirmations.second_entry(
            match_id=match_id,
            number=number,
            submitted=confirmations.as_input(
                str(entry.ending), entry.went_out, entry.results, stored=False
            ),
            flags=rules.flags(entry),
            names=names,
            user=user,
            device=device,
        )
        _keep_answer(match_id, idempotency_key, fingerprint, agreed)
        return agreed
    if match.status == MatchStatus.FINISHED:
        raise errors.MatchFinished(match=match_id)
    following = match.hands_played + 1
    if number is not None and number != following:
        raise errors.HandNumberNotNext(number=number, played=match.hands_played, next=following)
    if match.live_number == following and not live:
        raise errors.LiveHandInProgress(attr="number", number=following)
    ruling = _rule(rules, entry, names)
    new = _next_hand(match, rules, entry, ruling, user, device)
    written = statements.write_hand(new)
    if match.has_drafts:  # the phones' draft of this hand is done with
        HandDraftPart.objects.filter(match_id=match_id, number__lte=new.number).delete()
    recorded = _recorded(match, new, written, user)
    subscribers.after_hand(
        HandChange("recorded", new.number, recorded.match, was_finished=False, hand=recorded)
    )
    _keep_answer(match_id, idempotency_key, fingerprint, recorded)
    return recorded


def _keep_answer(
    match_id: int, key: str | None, fingerprint: str, recorded: hands.RecordedHand
) -> None:
    """Keep the answer under the submission's Idempotency-Key, if it has one."""
    if key:
        IdempotencyRecord.objects.create(
            match_id=match_id,
            key=key,
            fingerprint=fingerprint,
            response=recorded.to_json(),
            agreed=recorded.agreed,
        )


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


def _locked_hand(match_id: int, number: int) -> tuple[Match, list[Seat], Hand]:
    """Lock a match; return it, its seats in order and its hand ``number``.

    The hand comes with its recorder and ``last_revision``, its last revision number. Raises
    ``errors.NoSuchHand`` if the hand is not there (voided since the caller saw it).
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("created_by")
        .filter(pk=match_id)
        .first()
    )
    if match is None:  # deleted while this request waited for it (a round undone)
        raise errors.NoSuchMatch(match=match_id)
    # read after the lock, not within its statement: that would see the drafts as they were
    # before the wait for the lock (statements.LOCK)
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
) -> tuple[hands.RecordedHand, Impact]:
    """Re-rule hand ``number``, recompute every total after it and re-decide the finish.

    ``expected_version`` is the version the corrector last saw (from the hand's ETag); a
    correction made meanwhile by someone else makes this one stale. The corrected hand is a
    new version: the confirmations of the version it replaces no longer count.
    """
    match, seats, hand = _locked_hand(match_id, number)
    _check_version(hand, expected_version)
    names = {seat.player_id: seat.player.name for seat in seats}
    rules = _rules(match.ruleset, match.options)
    ruling = _rule(rules, entry, names)
    played = list(match.hands.order_by("number").prefetch_related("results"))
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
            seats=_seat_figures(seats),
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
        match=hands.match_state(match, seats),
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


@transaction.atomic
def hand_void(
    *,
    match_id: int,
    number: int,
    user: User,
    reason: str = "",
    expected_version: int | None = None,
) -> None:
    """Void the last hand: totals return to what they were before it; its revisions stay.

    The match's drafts go: the next hand is the voided one's number again, to be entered anew.
    """
    match, seats, hand = _locked_hand(match_id, number)
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
        seats=_seat_figures(seats),
        status=str(match.status),
        finished_at=match.finished_at,
        by=user.pk,
        reason=reason,
        at=timezone.now(),
    )
    hand.delete()  # with its results and confirmations
    if match.has_drafts:  # type: ignore[attr-defined]  # the numbering moves back
        HandDraftPart.objects.filter(match_id=match.pk).delete()
    subscribers.after_hand(
        HandChange("voided", number, hands.match_state(match, seats), was_finished=was_finished)
    )

"""Recording a hand: read the entry, ask the match's ruleset, save the results, in one transaction.

The engine (`scoring`) decides every rule; these functions lock, ask it, and save. A retry
with the same idempotency key gets the first answer and records nothing new.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

import scoring
from matches import confirmations, errors, hands, locking, state, statements, subscribers
from matches.models import (
    HandDraftPart,
    Match,
    MatchStatus,
    Player,
    Seat,
)
from matches.services import keys
from matches.subscribers import HandChange
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


@dataclass(frozen=True)
class Rules:
    """A match's ruleset with the options it was created with: every hand, finish and score of
    the match asks these, never a game's module directly."""

    ruleset: rulesets.Ruleset
    options: Mapping[str, object]

    def flags(self, entry: HandEntry) -> dict[str, bool]:
        """The hand's flags this ruleset knows, each stated (false when left out).

        A name the ruleset does not know is refused: a misspelt flag (``rumy``) would otherwise
        be recorded as its default and change the score unseen. ``rummy`` passes everywhere,
        as the older top-level field that Arlington hands may send and do not read.
        """
        known = [flag.name for flag in self.ruleset.flags]
        for name in entry.flags:
            if name not in known and name != "rummy":
                raise errors.InvalidSetup(
                    "unknown_flag",
                    attr=f"flags.{name}",
                    sentence="unknown_flag" if known else "unknown_flag_none",
                    flag=name,
                    ruleset=self.ruleset.label,
                    flags=", ".join(known),
                )
        return {
            flag.name: bool(entry.flags.get(flag.name, flag.default)) for flag in self.ruleset.flags
        }

    def finish(self, totals: Mapping[Hashable, int]) -> scoring.Finish:
        return self.ruleset.decide_finish(totals, self.options)


def _rules(ruleset: str, options: Mapping[str, object]) -> Rules:
    return Rules(rulesets.ruleset(ruleset), options)


def unseated_name(player_id: int, club_id: int | None) -> str:
    """How a sentence names a player who is not seated at the match: as the roster of club
    ``club_id`` names them, or as "Player 17" when that club has no such player, or no club is
    given (another club's names never show)."""
    found = None
    if club_id is not None:
        roster = Player.objects.filter(pk=player_id, club_id=club_id)
        found = roster.values_list("name", flat=True).first()
    return found or gettext("Player {id}").format(id=player_id)


def _rule(
    rules: Rules, entry: HandEntry, names: Mapping[int, str], club_id: int | None = None
) -> scoring.HandRuling:
    """The ruleset's ruling on a hand; ``names`` are the seated players' by id, in seat order.

    A player named in the entry but not seated is named as the roster of club ``club_id``
    names them, or as "Player 17" when that club has no such player, or no club is given
    (another club's names never show).
    """
    refs = {player: PlayerRef(player, name) for player, name in names.items()}
    unseated: dict[int, PlayerRef] = {}

    def ref(player_id: int) -> PlayerRef:
        if player_id in refs:
            return refs[player_id]
        if player_id not in unseated:
            unseated[player_id] = PlayerRef(player_id, unseated_name(player_id, club_id))
        return unseated[player_id]

    hand = scoring.HandInput(
        ending=entry.ending,
        went_out=None if entry.went_out is None else ref(entry.went_out),
        results=tuple(scoring.PlayerInput(ref(r.player), r.melds, r.held) for r in entry.results),
    )
    ruling = rulesets.rule_hand(
        rules.ruleset, hand, rules.options, flags=rules.flags(entry), seated=list(refs.values())
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


def _next_hand(
    match: locking.LockedMatch,
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
        dealer=state.dealer(
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
    match: locking.LockedMatch, new: statements.NewHand, written: statements.Written, user: User
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
        match=state.MatchState(
            id=match.id,
            club=match.club,
            season=match.season,
            table=match.table,
            status=new.status,
            seats=tuple(
                state.SeatLine(seat.position, seat.player, seat.name, figures.total, figures.winner)
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
    roles: frozenset[str] | None = None,
) -> hands.RecordedHand:
    """Record the next hand of a match; return it with the match as it now stands.

    ``user`` records it: the caller has checked that they may (services do not authorise).
    With ``roles``, the roles that may, ``user``'s role is read again once the match is
    locked: one demoted or removed from the club while the request waited for the lock is
    refused (``errors.NotAllowed``, 403), as a change to the members refuses an owner
    demoted meanwhile.
    ``entry`` is the hand as entered, already read from notation. The match and its seats are
    locked, so two scorekeepers at one table get consecutive hand numbers; the hand, its
    results, the seats' figures, the match and the hand's first revision are written in one
    transaction, with the players' tallies when the hand finishes the match. A draft of the
    hand that phones were filling in (``matches.drafts``) is emptied with it
    (``HandDraftPart.set_aside``).

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
        stored = keys.stored_hand(match_id, user, idempotency_key, fingerprint, locked=False)
        if stored is not None:
            return stored
        keys.claim(match_id, user.pk, idempotency_key)
    match = locking.lock_match(match_id, user.pk)  # 404 if deleted meanwhile
    locking.check_role(match.role, roles)
    if idempotency_key:
        stored = keys.stored_hand(match_id, user, idempotency_key, fingerprint, locked=True)
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
        keys.keep_answer(match_id, user, idempotency_key, fingerprint, agreed)
        return agreed
    if match.status == MatchStatus.FINISHED:
        raise errors.MatchFinished(match=match_id)
    following = match.hands_played + 1
    if number is not None and number != following:
        raise errors.HandNumberNotNext(number=number, played=match.hands_played, next=following)
    if match.live_number == following and not live:
        raise errors.LiveHandInProgress(attr="number", number=following)
    ruling = _rule(rules, entry, names, match.club)
    new = _next_hand(match, rules, entry, ruling, user, device)
    written = statements.write_hand(new)
    if match.has_drafts:  # the phones' draft of this hand is done with
        HandDraftPart.set_aside(match_id, new.number)
    recorded = _recorded(match, new, written, user)
    subscribers.after_hand(
        HandChange("recorded", new.number, recorded.match, was_finished=False, hand=recorded)
    )
    keys.keep_answer(match_id, user, idempotency_key, fingerprint, recorded)
    return recorded

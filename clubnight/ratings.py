"""Ratings per player and ruleset, from every finished match, with openskill's Plackett-Luce.

A finished match is a free-for-all: its winners share first place, the other players follow
by final total, highest first, and equal totals share a place (1, 1, 3, ...). Matches are
rated in the order they finished (``finished_at``, then the match's id). When a finished
match changes (a correction of its totals, winners or finish, a void that un-finishes it),
``replay_club`` deletes every rating entry from that match on and replays the club's
matches of that ruleset from there, so the ratings are exactly what they would be had the
match always been so. The replay runs once the change has committed, outside its transaction
and its locks (a long one in the worker); until it has run, the club's ratings of that ruleset
are ``recomputing``.

>>> places([(1, 1020, True), (2, -195, False), (3, 40, False), (4, 40, False)])
{1: 1, 2: 4, 3: 2, 4: 2}
>>> display(MU, SIGMA)
1000
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, DateTimeField, F, Q, QuerySet, Value, When, Window
from django.db.models.functions import Lag
from openskill.models import PlackettLuce

from clubnight.models import PendingReplay, Rating, RatingEntry
from matches.models import Club, Match, MatchStatus, Player, Seat, sorting_name
from matches.subscribers import HandChange

MODEL = PlackettLuce()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def display(mu: float, sigma: float) -> int:
    """The rating shown: 1000 + 40 × (μ − 3σ), rounded; a newcomer (μ 25, σ 25/3) shows 1000.

    >>> display(30.0, 5.0)
    1600
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def places(seats: Iterable[tuple[Hashable, int, bool]]) -> dict[Hashable, int]:
    """Each player's place from ``(player, final total, winner)``: winners first, then totals.

    A player's place is one more than the number of players ahead of them, so players tied
    share a place and the next place skips.

    >>> places([("ann", 1060, True), ("ben", 1060, True), ("cat", 300, False)])
    {'ann': 1, 'ben': 1, 'cat': 3}
    """
    seated = list(seats)
    order = {player: (not winner, -total) for player, total, winner in seated}
    return {
        player: 1 + sum(1 for other in seated if order[other[0]] < order[player])
        for player, _, _ in seated
    }


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    matches: int


NEWCOMER = Skill(MU, SIGMA, 0)


def rate(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The players' skills after a match in which they took these places (1 is best)."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [
        Skill(team[0].mu, team[0].sigma, skill.matches + 1)
        for team, skill in zip(after, before, strict=True)
    ]


def lock_id(club_id: int, ruleset: str) -> int:
    """The advisory lock that serialises replays of one club's ratings of one ruleset."""
    digest = hashlib.sha256(f"ratings:{club_id}:{ruleset}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _lock(club_id: int, ruleset: str) -> None:
    """Serialise replays of one club's ratings of one ruleset (PostgreSQL; SQLite serialises)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id(club_id, ruleset)])


def _entries_from(at: dt.datetime, match_id: int) -> Q:
    return Q(finished_at__gt=at) | Q(finished_at=at, match_id__gte=match_id)


def _matches_from(at: dt.datetime, match_id: int, prefix: str = "") -> Q:
    """Matches finished at or after ``(at, match_id)``; ``prefix`` reaches them from a seat."""
    return Q(**{f"{prefix}finished_at__gt": at}) | Q(
        **{f"{prefix}finished_at": at, f"{prefix}id__gte": match_id}
    )


def mark_pending(change: HandChange) -> None:
    """Note, in the hand's transaction, that the club's ratings must be replayed from the
    hand's match (the subscriber in ``settings.ARLINGTON_AFTER_HAND``); from then until the
    replay, the club's ratings of the match's ruleset are recomputing."""
    if change.finished_match_changed:
        state = change.match
        PendingReplay.objects.create(club_id=state.club, ruleset=state.ruleset, match_id=state.id)


def replay_pending(change: HandChange) -> None:
    """Replay the club's ratings of the hand's ruleset from the earliest pending match on,
    once the hand has committed (the subscriber in ``settings.ARLINGTON_AFTER_HAND``).

    A replay of more than ``settings.RATINGS_REPLAY_INLINE_MATCHES`` matches (a correction of
    an old match in a big club) is queued for the worker instead, so that the request answers
    at once; the ratings say ``recomputing`` until the worker has run it.
    """
    if not change.finished_match_changed:
        return
    club_id, ruleset = change.match.club, change.match.ruleset
    if replay_length(club_id=club_id, ruleset=ruleset) > settings.RATINGS_REPLAY_INLINE_MATCHES:
        from clubnight import tasks  # the tasks module imports this one

        tasks.replay.enqueue(club_id, ruleset)
        return
    with transaction.atomic():
        replay_club(club_id=club_id, ruleset=ruleset)


def replay_length(*, club_id: int, ruleset: str) -> int:
    """How many of the club's finished matches of ``ruleset`` the pending changes replay."""
    pending = PendingReplay.objects.filter(club_id=club_id, ruleset=ruleset)
    starts = [
        start
        for match_id in set(pending.values_list("match_id", flat=True))
        for start in _starts(match_id)
    ]
    if not starts:
        return 0
    finished = Match.objects.filter(club_id=club_id, ruleset=ruleset, status=MatchStatus.FINISHED)
    return finished.filter(_matches_from(*min(starts))).count()


def recomputing(*, club_id: int, ruleset: str, using: str | None = None) -> bool:
    """Whether a change to one of the club's finished matches of ``ruleset`` awaits its replay
    (on the database ``using`` names, else the one the router picks)."""
    pending = PendingReplay.objects.using(using).filter(club_id=club_id, ruleset=ruleset)
    return pending.exists()


def replay_club(*, club_id: int, ruleset: str) -> None:
    """Replay the club's ratings of ``ruleset`` from the earliest match whose change is pending.

    Call it in a transaction. Under the club's lock it takes every pending change there is,
    replays once from the earliest, and deletes those it took; a change committed meanwhile
    is left to its own replay. The new ratings and the end of the pending changes commit
    together, so a standings table read after that holds the new ratings (``Column.settled``).
    """
    _lock(club_id, ruleset)
    pending = PendingReplay.objects.filter(club_id=club_id, ruleset=ruleset)
    taken = dict(pending.values_list("pk", "match_id"))
    if not taken:
        return  # an earlier replay took them
    starts = [start for match_id in set(taken.values()) for start in _starts(match_id)]
    if starts:
        replay(club_id=club_id, ruleset=ruleset, start=min(starts))
    PendingReplay.objects.filter(pk__in=list(taken)).delete()


def rebuild(*, club_id: int, ruleset: str) -> None:
    """Rate the club's finished matches of ``ruleset`` again from the first (``manage.py
    rerate``); the changes pending for them are done with. Call it in a transaction."""
    _lock(club_id, ruleset)
    PendingReplay.objects.filter(club_id=club_id, ruleset=ruleset).delete()
    replay(club_id=club_id, ruleset=ruleset)
    Club.standings_changed(club_id)


def _starts(match_id: int) -> list[tuple[dt.datetime, int]]:
    """Where a replay for this match must start: its old finish, as rated, and its new one."""
    starts = [
        (at, match_id)
        for at in RatingEntry.objects.filter(match_id=match_id)
        .values_list("finished_at", flat=True)
        .distinct()
    ]
    row = Match.objects.filter(pk=match_id).values("status", "finished_at").first()
    if row is not None and row["status"] == MatchStatus.FINISHED and row["finished_at"]:
        starts.append((row["finished_at"], match_id))
    return starts


def _with_finish(seats: QuerySet[Seat]) -> Iterable[tuple[int, dt.datetime | None, int, int, bool]]:
    """``(match, finished_at, player, total, winner)`` for each seat, in the order the matches
    finished, each match's seats in seat order; the match's finish on its first seat alone.

    Reading a date and time costs the database driver about 4 µs (its time zone): for each
    match rather than each seat, the replay of a large club reads 1,900 of them, not 5,700.
    """
    order = [F("match__finished_at"), F("match_id"), F("position")]
    return (
        seats.order_by(*order)
        .annotate(previous=Window(Lag("match_id"), order_by=order))  # the row before's match
        .annotate(
            finish=Case(
                When(previous=F("match_id"), then=Value(None)),
                default=F("match__finished_at"),
                output_field=DateTimeField(),
            )
        )
        .values_list("match_id", "finish", "player_id", "total", "winner")
    )


# One statement, written out and run once for each new entry: a replay from a club's first
# match writes an entry for every seat, and building that many model instances for
# ``bulk_create`` cost more than the rating itself (docs/benchmarks.md). PostgreSQL runs the
# rows in one pipeline; PostgreSQL and SQLite both run the statement as written.
INSERT_ENTRIES = """
INSERT INTO clubnight_ratingentry (club_id, ruleset, match_id, player_id, finished_at, place,
                                   mu_before, sigma_before, mu, sigma)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
"""


def replay(*, club_id: int, ruleset: str, start: tuple[dt.datetime, int] | None = None) -> None:
    """Rate the club's finished matches of ``ruleset`` from ``start`` (finish, match id) on.

    Without ``start``, every match from the first. Entries from there on are replaced; each
    player's rating before it is their last entry before it (or a newcomer's). One query reads
    the finished matches with their seats, openskill rates them in memory, and one statement
    run for every row writes the entries.

    The matches and their seats are read in one statement, so from one snapshot: a hand voided
    or recorded meanwhile (its own replay waits for this one) cannot leave a match read as
    finished whose seats are then read as unfinished, with no one to rate.
    """
    entries = RatingEntry.objects.filter(club_id=club_id, ruleset=ruleset)
    seats_of_finished = Seat.objects.filter(
        match__club_id=club_id, match__ruleset=ruleset, match__status=MatchStatus.FINISHED
    )
    if start is not None:
        later = entries.filter(_entries_from(*start))
        seats_of_finished = seats_of_finished.filter(_matches_from(*start, prefix="match__"))
    else:
        later = entries
    touched = set(later.values_list("player_id", flat=True).distinct())
    removed = later.delete()[0] > 0
    to_rate: dict[int, dt.datetime] = {}  # in the order they finished
    seated: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    for match_id, finished_at, player, total, winner in _with_finish(seats_of_finished):
        if finished_at is not None:  # a match's first seat
            to_rate[match_id] = finished_at
        seated[match_id].append((player, total, winner))
        touched.add(player)
    state = _state_before(club_id, ruleset, touched, removed)
    values: list[tuple[Any, ...]] = []
    for match_id, finished_at in to_rate.items():
        assert finished_at is not None  # a finished match has its finish time (a constraint)
        seats = seated[match_id]
        place = places(seats)
        before = [state.get(player, NEWCOMER) for player, _, _ in seats]
        after = rate(before, [place[player] for player, _, _ in seats])
        at = connection.ops.adapt_datetimefield_value(finished_at)  # SQLite: text in UTC
        for (player, _, _), old, skill in zip(seats, before, after, strict=True):
            state[player] = skill
            values.append(
                (club_id, ruleset, match_id, player, at, place[player])
                + (old.mu, old.sigma, skill.mu, skill.sigma)
            )
    with connection.cursor() as cursor:
        cursor.executemany(INSERT_ENTRIES, values)
    Rating.objects.filter(ruleset=ruleset, player_id__in=touched).delete()
    Rating.objects.bulk_create(
        Rating(
            club_id=club_id,
            ruleset=ruleset,
            player_id=player,
            mu=skill.mu,
            sigma=skill.sigma,
            matches=skill.matches,
        )
        for player, skill in state.items()
        if skill.matches
    )


def _state_before(club_id: int, ruleset: str, players: set[int], removed: bool) -> dict[int, Skill]:
    """The players' skills as their entries left them (the later ones already deleted).

    When nothing was deleted the kept ratings are the last entries: one small query.
    """
    if not removed:
        return {
            row.player_id: Skill(row.mu, row.sigma, row.matches)
            for row in Rating.objects.filter(ruleset=ruleset, player_id__in=players)
        }
    state: dict[int, Skill] = {}
    kept = RatingEntry.objects.filter(club_id=club_id, ruleset=ruleset, player_id__in=players)
    for player, mu, sigma in kept.order_by("finished_at", "match_id").values_list(
        "player_id", "mu", "sigma"
    ):
        state[player] = Skill(mu, sigma, state.get(player, NEWCOMER).matches + 1)
    return state


# --- read side -----------------------------------------------------------------------------


def ratings_for_club(*, club: Club, ruleset: str) -> list[dict[str, Any]]:
    """The club's rating table of a ruleset: best display rating first, ties share a rank."""
    rows: list[dict[str, Any]] = [
        {
            "player": rating.player_id,
            "name": rating.player.name,
            "rating": display(rating.mu, rating.sigma),
            "mu": round(rating.mu, 4),
            "sigma": round(rating.sigma, 4),
            "matches": rating.matches,
        }
        for rating in Rating.objects.filter(club=club, ruleset=ruleset).select_related("player")
    ]
    rows.sort(key=lambda row: (-row["rating"], sorting_name(row["name"]), row["player"]))
    rank = 0
    for position, row in enumerate(rows, start=1):
        if position == 1 or row["rating"] != rows[position - 2]["rating"]:
            rank = position
        row["rank"] = rank
    return rows


def displayed(*, ruleset: str, player_ids: Iterable[int]) -> dict[int, int]:
    """The display rating of each of these players who has one in ``ruleset``."""
    return {
        player: display(mu, sigma)
        for player, mu, sigma in Rating.objects.filter(
            ruleset=ruleset, player_id__in=list(player_ids)
        ).values_list("player_id", "mu", "sigma")
    }


def history(*, player: Player, ruleset: str) -> QuerySet[RatingEntry]:
    """The player's rating entries in ``ruleset``, oldest first, each with its match."""
    return (
        RatingEntry.objects.filter(player=player, ruleset=ruleset)
        .select_related("match")
        .order_by("finished_at", "match_id")
    )

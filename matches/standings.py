"""League tables, counted in the database from the seats of finished matches.

Only finished matches count. A table is counted from the seats of the finished matches, which
the hand's own transaction writes: one aggregate query over the seats, and one over the counted
players for the columns other apps add, however many matches or players. Club and season tables
are cached under the club's standings stamp, which moves on in the same transaction as every
change to what they show, so a correction shows in the next answer. A player's record is
``matches.records``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.dummy import DummyCache
from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    Sum,
)
from django.utils import timezone
from django.utils.module_loading import import_string
from redis.exceptions import RedisError

from matches import selectors
from matches.models import (
    Club,
    Hand,
    HandConfirmation,
    MatchStatus,
    Player,
    Season,
    Seat,
    SecondEntry,
    sorting_name,
)
from scoring import rulesets

logger = logging.getLogger(__name__)

# What `?ordering=` accepts, and the default: victory points, then wins, then points.
STANDING_FIELDS = (
    "name",
    "matches_played",
    "wins",
    "shared_wins",
    "victory_points",
    "hands_played",
    "went_out",
    "points",
    "average_net",
    "rating",
)
DEFAULT_ORDERING = ("-victory_points", "-wins", "-points")
FOUR_PLACES, TWO_PLACES = Decimal("0.0001"), Decimal("0.01")
# How long a cached table is kept. A change makes new keys at once; this only lets the
# tables nobody asks for any more go.
CACHE_SECONDS = 60 * 60
# Part of every key: moved on when what a table's entries hold changes shape, so that a new
# release never reads the entries of an older one.
CACHE_VERSION = 2
# Each process's own copy of the tables it served last (settings.CACHES), asked before the
# shared cache.
NEAR = "tables"


@dataclass(frozen=True)
class Scope:
    """Which finished matches a table counts: a club's of one ruleset, optionally one season's,
    between dates. A table never adds up the results of two games."""

    club_id: int
    season_id: int | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    ruleset: str = rulesets.DEFAULT
    marks_unconfirmed: bool = False
    """The club asks for a second entry: each row counts the player's matches with a hand
    nobody has confirmed (else that column is null)."""

    def matches(self, prefix: str) -> Q:
        """The condition on the match reached through ``prefix`` (such as ``match__``)."""
        q = Q(
            **{
                f"{prefix}club_id": self.club_id,
                f"{prefix}status": MatchStatus.FINISHED,
                f"{prefix}ruleset": self.ruleset,
            }
        )
        if self.season_id is not None:
            q &= Q(**{f"{prefix}season_id": self.season_id})
        if self.date_from is not None:
            q &= Q(**{f"{prefix}finished_at__gte": _start_of(self.date_from)})
        if self.date_to is not None and self.date_to < dt.date.max:  # the last day is open-ended
            q &= Q(**{f"{prefix}finished_at__lt": _start_of(self.date_to + dt.timedelta(days=1))})
        return q


@dataclass(frozen=True)
class Column:
    """A column that an app built on this one adds to every row of a table (the ratings add
    ``rating``); ``settings.ARLINGTON_STANDINGS_COLUMNS`` names them, in order, and this app
    never imports those apps. ``annotate`` gives expressions on the row's player
    (``OuterRef("player_id")``), read in one query over the table's players, after its figures;
    ``present`` makes the cell from the line they filled."""

    name: str
    annotate: Callable[[Scope], dict[str, Any]]
    present: Callable[[dict[str, Any]], Any]
    settled: Callable[[dict[str, Any]], bool] | None = None
    """Whether the column's figures in the line are final (the ratings are not while a replay
    is pending), from what ``annotate`` read: a table with a line that is not is answered but
    not cached. Read in the same query as the column's figures, so from the same snapshot, and
    after the table's seats, so never older than them."""


OPTIONAL_COLUMNS = ("rating",)  # in every row, null unless a named column fills them


def columns() -> list[Column]:
    """The extra columns ``settings.ARLINGTON_STANDINGS_COLUMNS`` names, in its order."""
    return [import_string(path) for path in settings.ARLINGTON_STANDINGS_COLUMNS]


def _columns(scope: Scope, named: Sequence[Column]) -> dict[str, Any]:
    return {key: value for column in named for key, value in column.annotate(scope).items()}


def _cells(line: dict[str, Any], named: Sequence[Column]) -> dict[str, Any]:
    return {
        **dict.fromkeys(OPTIONAL_COLUMNS),
        **{column.name: column.present(line) for column in named},
    }


def _start_of(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=timezone.get_current_timezone())


def parse_ordering(text: str | None) -> tuple[str, ...]:
    """``-average_net,name`` → its keys; ValueError names a key that is not a standing field."""
    if not text:
        return DEFAULT_ORDERING
    keys = tuple(key.strip() for key in text.split(",") if key.strip())
    for key in keys:
        if key.removeprefix("-") not in STANDING_FIELDS:
            raise ValueError(key)
    return keys or DEFAULT_ORDERING


def seat_figures() -> dict[str, Any]:
    """Aggregates over seats (of finished matches) that make a player's line of a table."""
    return {
        "counted": Count("pk"),
        "outright": Count("pk", filter=Q(victory_points=1)),
        "shared": Count("pk", filter=Q(winner=True, victory_points__lt=1)),
        "shares": Sum("victory_points"),
        "hands": Sum("match__hands_played"),
        "outs": Sum("went_out"),
        "sum_of_totals": Sum("total"),
    }


class Rows(list[dict[str, Any]]):
    """A table's ranked rows; ``final`` is false when a column's figures in them are not
    (``Column.settled``), and then the table is not cached."""

    final: bool = True


def standings(
    *,
    scope: Scope,
    ordering: Sequence[str] = DEFAULT_ORDERING,
    player: Player | None = None,
    using: str | None = None,
) -> list[dict[str, Any]]:
    """The table: one row per player with a counted match, ranked on the ordering's keys.

    On the database ``using`` names (else the one the router picks): one aggregate query over
    the seats of the matches the scope counts (each seat carries the player's total, how often
    they went out and their share of the victory), then one over the players counted, for
    their names and the named columns (read per player, not per seat). Players equal on every
    key share a rank, and the next rank skips (1, 2, 2, 4); among equals, rows are listed by
    name. ``player`` keeps only that player's row. The rows come as ``Rows``, which say
    whether every named column's figures in them are final.
    """
    rows = Seat.objects.using(using).filter(scope.matches("match__"))
    if player is not None:
        rows = rows.filter(player_id=player.pk)
    named = columns()
    with selectors.one_snapshot(using):  # the three reads agree on which hands are recorded
        counted = {
            line["player_id"]: line
            for line in rows.order_by().values("player_id").annotate(**seat_figures())
        }
        read = [
            {**counted[line["player_id"]], **line}
            for line in Player.objects.using(using)
            .filter(pk__in=counted)
            .annotate(player_id=F("pk"))
            .values("player_id", "name")
            .annotate(**_columns(scope, named))
        ]
        unconfirmed = (
            _unconfirmed_matches(scope, player, using) if scope.marks_unconfirmed else None
        )
    ranked = Rows(
        rank(
            [
                {
                    "player": line["player_id"],
                    "name": line["name"],
                    "matches_played": line["counted"],
                    "wins": line["outright"],
                    "shared_wins": line["shared"],
                    "victory_points": Decimal(line["shares"]).quantize(FOUR_PLACES),
                    "hands_played": line["hands"],
                    "went_out": line["outs"],
                    "points": line["sum_of_totals"],
                    # a total is the sum of the player's nets, so points per hand is the average net
                    "average_net": (Decimal(line["sum_of_totals"]) / line["hands"]).quantize(
                        TWO_PLACES
                    )
                    if line["hands"]
                    else None,
                    "unconfirmed_matches": None
                    if unconfirmed is None
                    else unconfirmed.get(line["player_id"], 0),
                    **_cells(line, named),
                }
                for line in read
                if line["counted"]
            ],
            ordering,
        )
    )
    ranked.final = all(column.settled(line) for line in read for column in named if column.settled)
    return ranked


def _unconfirmed_matches(scope: Scope, player: Player | None, using: str | None) -> dict[int, int]:
    """Per player, the counted matches with a hand whose current version nobody confirmed."""
    confirmed = HandConfirmation.objects.filter(hand_id=OuterRef("pk"), version=OuterRef("version"))
    unconfirmed = Hand.objects.filter(match_id=OuterRef("match_id")).exclude(Exists(confirmed))
    seats = Seat.objects.using(using).filter(scope.matches("match__"), Exists(unconfirmed))
    if player is not None:
        seats = seats.filter(player_id=player.pk)
    counted = seats.order_by().values("player_id").annotate(matches=Count("pk"))
    return {row["player_id"]: row["matches"] for row in counted}


def _by_name(row: dict[str, Any]) -> tuple[str, str]:
    return sorting_name(row["name"])


def rank(rows: list[dict[str, Any]], ordering: Sequence[str]) -> list[dict[str, Any]]:
    """Sort on the ordering's keys (missing values last) and number the ranks, sharing ties."""
    keys = [key.removeprefix("-") for key in ordering]
    rows = sorted(rows, key=lambda row: (sorting_name(row["name"]), row["player"]))
    for key in reversed(ordering):  # stable sorts, least significant key first
        name = key.removeprefix("-")
        present = [row for row in rows if row[name] is not None]
        value = _by_name if name == "name" else itemgetter(name)
        present.sort(key=value, reverse=key.startswith("-"))
        rows = present + [row for row in rows if row[name] is None]
    previous: tuple[Any, ...] | None = None
    current = 0
    for position, row in enumerate(rows, start=1):
        standing = tuple(row[key] for key in keys)
        if standing != previous:
            current, previous = position, standing
        row["rank"] = current
    return [{"rank": row.pop("rank"), **row} for row in rows]


@dataclass(frozen=True)
class Table:
    """A club's or season's table as a request names it, served from the cache when it can be.

    Entries are kept under the club's standings stamp as read with ``club``. Never stale: the
    services and ``Player.save`` move the stamp on in the same transaction as the change, and a
    key names the stamp it was read with. The table is read after the stamp, and each query
    sees all that was committed before it began, so a table is at least as new as the stamp
    it is stored under: a reader who read the old stamp just before a change committed can
    only store a newer table under the old key, which nobody reads once the change is
    committed. The table is computed on the database the club was read from, since another
    read replica may lag behind that one.
    """

    club: Club
    scope: Scope
    ordering: tuple[str, ...]

    def key(self, part: str) -> str:
        # The ordering is as long as the client makes it: the query is hashed to keep keys short.
        scope = self.scope
        query = (
            f"{scope.ruleset}:{scope.season_id}:{scope.date_from}:{scope.date_to}:"
            f"{','.join(self.ordering)}"
        )
        digest = hashlib.sha256(query.encode()).hexdigest()
        club = self.club
        return f"standings:v{CACHE_VERSION}:{club.pk}:{club.standings_stamp}:{digest}:{part}"

    def rows(self) -> list[dict[str, Any]]:
        """The ranked rows (see ``standings``)."""
        return self._rows()[0]

    def _rows(self) -> tuple[list[dict[str, Any]], bool]:
        """The rows, and whether they are final (kept in the cache only then)."""
        key = self.key("rows")
        rows: list[dict[str, Any]] | None = cached(key)
        if rows is not None:
            return rows, True
        rows = standings(scope=self.scope, ordering=self.ordering, using=self.club._state.db)
        final = getattr(rows, "final", True)
        if final:
            keep(key, rows)
        return rows, final

    def rendered(self, name: str, render: Callable[[list[dict[str, Any]]], bytes]) -> bytes:
        """The rows as ``render`` writes them, kept under ``name`` beside the rows themselves."""
        key = self.key(name)
        body: bytes | None = cached(key)
        if body is None:
            rows, final = self._rows()
            body = render(rows)
            if final:
                keep(key, body)
        return body


# A cache that cannot be reached (Redis down) only costs the table being computed afresh.
_CACHE_ERRORS = (RedisError, OSError)


_NONE_KEPT = DummyCache("", {})


def _near() -> BaseCache:
    """This process's own copies; none are kept by settings whose CACHES have no ``tables``."""
    return caches[NEAR] if NEAR in settings.CACHES else _NONE_KEPT


def cached(key: str) -> Any:
    """The cached value, or None when it is missing or the cache cannot be reached.

    This process's own copy (the ``tables`` cache) is asked first, then the shared cache,
    whose value this process then keeps too. A key names the club's stamp (see ``Table``): what
    is stored under it is never older than that stamp, so a copy is as good as the shared
    entry, and a table asked for again costs no trip to the shared cache.
    """
    near = _near()
    value = near.get(key)
    if value is not None:
        return value
    try:
        value = cache.get(key)
    except _CACHE_ERRORS:
        logger.warning("cache unreachable; computing %s afresh", key)
        return None
    if value is not None:
        near.set(key, value, CACHE_SECONDS)
    return value


def keep(key: str, value: Any) -> None:
    """Cache the value for CACHE_SECONDS here and in the shared cache (unless it cannot be
    reached)."""
    _near().set(key, value, CACHE_SECONDS)
    try:
        cache.set(key, value, CACHE_SECONDS)
    except _CACHE_ERRORS:
        pass


def standings_for_club(
    *,
    club: Club,
    season: Season | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    ordering: Sequence[str] = DEFAULT_ORDERING,
    ruleset: str = rulesets.DEFAULT,
) -> Table:
    """A club's table of one ruleset, all-time or for one season, optionally between two dates
    (inclusive)."""
    scope = Scope(club.pk, season.pk if season else None, date_from, date_to, ruleset, _marks(club))
    return Table(club, scope, tuple(ordering))


def _marks(club: Club) -> bool:
    return club.second_entry == SecondEntry.REQUIRED


def standings_for_season(
    *,
    season: Season,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    ordering: Sequence[str] = DEFAULT_ORDERING,
    ruleset: str = rulesets.DEFAULT,
) -> Table:
    """A season's table of one ruleset, optionally between two dates (inclusive).

    The stamp is read from ``season.club``: a season loaded with its club saves a query.
    """
    scope = Scope(season.club_id, season.pk, date_from, date_to, ruleset, _marks(season.club))
    return Table(season.club, scope, tuple(ordering))

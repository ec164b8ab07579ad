"""Club nights and tournaments: entrants, rounds drawn at tables, and the leaderboard.

A round seats every entrant exactly once. Its tables are as even as possible within the
ruleset's limits (``scoring.rulesets``); seating is random from a seed kept with the round,
balanced by rating, or the director's own tables. Each table gets one match, created by the
matches app's own service.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext

from clubnight import draw, errors, ratings
from clubnight.models import Entrant, Round, RoundTable, Seating, Tournament
from matches import events, locking, selectors
from matches.errors import InvalidSetup
from matches.models import (
    Club,
    Hand,
    Match,
    MatchStatus,
    Player,
    Season,
    Seat,
    name_key,
    sorting_name,
    written_name,
)
from matches.services import matches as match_services
from scoring import rulesets

MAX_SEED = 2**53  # a seed a JavaScript client can hold exactly


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    players: Sequence[int],
    user: User,
    ruleset: str = rulesets.DEFAULT,
    season: Season | None = None,
    roles: frozenset[str] | None = None,
) -> Tournament:
    """Enter distinct players of the club's roster, at least a table's worth of them.

    With ``roles``, the roles that may, ``user``'s role is read again first, the club's
    members held still until the night is made (``locking.require_role``)."""
    locking.require_role(club.pk, user, roles)
    rules = rulesets.ruleset(ruleset)
    roster = Player.objects.filter(club=club).in_bulk(list(players))
    seen: set[int] = set()
    for i, player_id in enumerate(players):
        player = roster.get(player_id)
        if player is None:
            raise InvalidSetup("player_not_in_club", attr=f"players.{i}", player=player_id)
        if player_id in seen:
            raise InvalidSetup("duplicate_player", attr=f"players.{i}", player=player.name)
        seen.add(player_id)
    if len(players) < rules.min_players:
        raise errors.ClubnightError(
            "too_few_entrants",
            attr="players",
            ruleset=gettext(rules.label),
            least=rules.min_players,
            count=len(players),
        )
    tournament = Tournament.objects.create(
        club=club, name=written_name(name), ruleset=ruleset, season=season, created_by=user
    )
    Entrant.objects.bulk_create(
        Entrant(tournament=tournament, player_id=player, position=i)
        for i, player in enumerate(players)
    )
    return tournament


def _check_tables(
    tables: Sequence[Sequence[int]],
    entrants: dict[int, Player],
    rules: rulesets.Ruleset,
    *,
    club: int,
) -> None:
    seated: set[int] = set()
    for t, table in enumerate(tables):
        if not rules.min_players <= len(table) <= rules.max_players:
            raise errors.ClubnightError(
                "table_size",
                attr=f"tables.{t}",
                ruleset=gettext(rules.label),
                least=rules.min_players,
                most=rules.max_players,
                table=t + 1,
                count=len(table),
            )
        for s, player in enumerate(table):
            if player not in entrants:  # named when on the roster (a withdrawn one, say)
                name = Player.objects.filter(club=club, pk=player).values_list("name", flat=True)
                raise errors.ClubnightError(
                    "player_not_entered", attr=f"tables.{t}.{s}", player=name.first() or player
                )
            if player in seated:
                raise errors.ClubnightError(
                    "entrant_seated_twice", attr=f"tables.{t}.{s}", player=entrants[player].name
                )
            seated.add(player)
    for entrant_id, entrant in entrants.items():
        if entrant_id not in seated:
            raise errors.ClubnightError("entrant_not_seated", attr="tables", player=entrant.name)


def _table_sizes(entrants: dict[int, Player], rules: rulesets.Ruleset) -> list[int]:
    """The sizes of the tables that seat the entrants, or ``cannot_seat`` (none left entered,
    say: a director's draw of no tables is no round)."""
    try:
        return draw.table_sizes(len(entrants), rules.min_players, rules.max_players)
    except ValueError:
        raise errors.ClubnightError(
            "cannot_seat",
            attr=None,  # the tournament's entrants, not a field of the request
            count=len(entrants),
            least=rules.min_players,
            most=rules.max_players,
        ) from None


def _draw(
    tournament: Tournament, entrants: dict[int, Player], seating: str, seed: int
) -> list[list[int]]:
    rules = rulesets.ruleset(tournament.ruleset)
    sizes = _table_sizes(entrants, rules)
    listed = list(entrants)  # the order the director entered them
    strength = None
    if seating == Seating.RATING:
        shown = ratings.displayed(ruleset=tournament.ruleset, player_ids=listed)
        strength = {p: float(shown.get(p, ratings.DISPLAY_BASE)) for p in listed}
    return draw.remembering_tables(
        listed, sizes, earlier=earlier_tables(tournament), seed=seed, strength=strength
    )


def earlier_tables(tournament: Tournament) -> list[list[list[int]]]:
    """Every round's tables so far, as lists of player ids in seat order, first round first."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(match__round_table__round__tournament=tournament)
        .order_by("match__round_table__round__number", "match__round_table__number", "position")
        .values_list("match__round_table__round__number", "match__round_table__number", "player")
    )
    for number, table, player in seats:
        rounds.setdefault(number, {}).setdefault(table, []).append(player)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def _between_rounds(
    tournament: Tournament, user: User | None = None, roles: frozenset[str] | None = None
) -> tuple[Tournament, Round | None]:
    """Lock the tournament, and refuse while a match of any of its rounds is being played
    (and a ``user`` whose role, read then, is not one of ``roles``: ``locking.require_role``).

    Usually that is the last round's; a correction can also reopen a finished table of an
    earlier round, whose players would otherwise be drawn at a second table. The night's
    matches are locked too, so that a correction reopening one either commits first (and is
    seen here) or waits until this change has committed.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locking.require_role(locked.club_id, user, roles)
    last = locked.rounds.order_by("-number").first()
    playing = sorted(
        (number, table)
        for number, table, status in Match.objects.select_for_update(of=("self",))
        .filter(round_table__round__tournament=locked)
        .values_list("round_table__round__number", "table", "status")
        if status == MatchStatus.IN_PROGRESS
    )
    if playing:
        number, table = playing[0]
        raise errors.RoundInProgress(number=number, table=table)
    return locked, last


@transaction.atomic
def entrant_add(
    *,
    tournament: Tournament,
    player: int,
    user: User | None = None,
    roles: frozenset[str] | None = None,
) -> Entrant:
    """Enter a player of the club's roster between rounds (a withdrawn one comes back).
    ``user`` and ``roles`` as for ``round_draw``."""
    locked, _ = _between_rounds(tournament, user, roles)
    chosen = Player.objects.filter(club=locked.club_id, pk=player).first()
    if chosen is None:
        raise InvalidSetup("player_not_in_club", attr="player", player=player)
    entry = locked.entrants.filter(player=chosen).first()
    if entry is not None and not entry.withdrawn:
        raise errors.AlreadyEntered(attr="player", player=chosen.name)
    if entry is not None:
        entry.withdrawn = False
        entry.save(update_fields=["withdrawn"])
        return entry
    last = locked.entrants.order_by("-position").values_list("position", flat=True).first()
    return Entrant.objects.create(
        tournament=locked, player=chosen, position=0 if last is None else last + 1
    )


def entrant_of(tournament: Tournament, player: int) -> Entrant | None:
    """One entrant of the tournament, withdrawn or not; None for another club's player or
    none. Raises ``errors.NotEntered`` for a player of the club's roster who is not entered."""
    entry = tournament.entrants.filter(player_id=player).select_related("player").first()
    if entry is None:
        name = Player.objects.filter(pk=player, club_id=tournament.club_id).values_list("name")
        if name:
            raise errors.NotEntered(player=name[0][0])
    return entry


@transaction.atomic
def entrant_withdraw(
    *,
    tournament: Tournament,
    player: int,
    user: User | None = None,
    roles: frozenset[str] | None = None,
) -> bool:
    """Withdraw an entrant between rounds; False if ``player`` is not on the club's roster.

    One who has played keeps their results on the leaderboard (``withdrawn``); one who has not
    is simply no longer entered. Raises ``errors.AlreadyWithdrawn`` and ``errors.NotEntered``
    (a roster player not entered), each naming the player. ``user`` and ``roles`` as for
    ``round_draw``.
    """
    locked, _ = _between_rounds(tournament, user, roles)
    entry = entrant_of(locked, player)  # read once the tournament is locked
    if entry is None:
        return False  # another club's player, or none: nothing to name
    if entry.withdrawn:
        raise errors.AlreadyWithdrawn(player=entry.player.name)
    if Seat.objects.filter(match__round_table__round__tournament=locked, player_id=player).exists():
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
    else:
        entry.delete()
    return True


ROUND_TAG = re.compile(r'"round-([0-9]{1,18})"')


def round_etag(round_: Round) -> str:
    """A round's ETag: it names this drawing of the round, so that a round undone and drawn
    again under the same number has another."""
    return f'"round-{round_.pk}"'


@transaction.atomic
def round_undo(
    *,
    tournament: Tournament,
    number: int,
    if_match: tuple[str, ...] | None = None,
    user: User | None = None,
    roles: frozenset[str] | None = None,
) -> bool:
    """Take back the last round while none of its hands is recorded: its matches go with it.

    ``if_match`` (the If-Match tags, ``("*",)`` for any, None without the header) names the
    drawing of the round the requester saw (``round_etag``): a round undone and drawn again
    meanwhile on another phone is not the one they meant to undo. Every match of the round is
    locked first, so a hand being recorded at one of its tables either commits before (and the
    round stays) or finds the match gone.

    Returns True once undone. Raises ``errors.RoundNotDrawn`` (404), ``errors.RoundChanged``
    or ``errors.RoundTagUnknown`` (412: a drawing undone since, or a tag that was never this
    round's), ``errors.NotLastRound`` and ``errors.RoundHasHands`` (409); ``user`` and
    ``roles`` as for ``round_draw``.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locking.require_role(locked.club_id, user, roles)
    undone = locked.rounds.filter(number=number).first()
    if undone is None:
        raise errors.RoundNotDrawn(number=number)
    if if_match is not None and "*" not in if_match and round_etag(undone) not in if_match:
        # a drawing undone since has a smaller id than the one under that number now, and no
        # round keeps it; any other tag was never this round's
        earlier = [
            int(found.group(1))
            for found in (ROUND_TAG.fullmatch(tag) for tag in if_match)
            if found and int(found.group(1)) < undone.pk
        ]
        if earlier and not locked.rounds.filter(pk__in=earlier).exists():
            raise errors.RoundChanged(number=number)
        shown = ", ".join(if_match)
        raise errors.RoundTagUnknown(
            tag=shown if len(shown) <= 60 else f"{shown[:60]}…", number=number
        )
    last = locked.rounds.order_by("-number").values_list("number", flat=True).first()
    if number != last:
        raise errors.NotLastRound(number=number, last=last)
    matches = list(
        Match.objects.select_for_update()
        .filter(round_table__round=undone)
        .values_list("pk", flat=True)
    )
    if Hand.objects.filter(match_id__in=matches).exists():
        raise errors.RoundHasHands(number=number)
    for match in matches:  # announced as their match.started was, in this transaction
        events.match_deleted(
            club_id=locked.club_id, match_id=match, tournament_id=locked.pk, round_number=number
        )
    Match.objects.filter(pk__in=matches).delete()
    undone.delete()
    return True


@transaction.atomic
def round_draw(
    *,
    tournament: Tournament,
    user: User,
    seating: str = Seating.RANDOM,
    seed: int | None = None,
    tables: Sequence[Sequence[int]] | None = None,
    names: Sequence[str] | None = None,
    roles: frozenset[str] | None = None,
) -> Round:
    """Draw the next round's tables and start one match at each.

    ``tables`` (lists of player ids, in clockwise seating order) is a director's own draw:
    it must seat every entrant exactly once at legal tables. Otherwise the draw remembers the
    earlier rounds (``draw.remembering_tables``: pairs meet again as seldom as they can, turns
    at the bigger table go round), then follows ``seating``: ``random`` (the ``seed`` decides,
    a fresh random one when none is given) or ``rating`` (tables of even strength). The seed
    is kept with the round, so a draw can be reproduced. Refused while a match of any round is
    in progress. With ``roles``, the roles that may, ``user``'s role is read again once the
    night is locked: a director demoted or removed while the request waited is refused
    (``NotAllowed``, 403).
    """
    locked, last = _between_rounds(tournament, user, roles)
    entrants = {
        entry.player_id: entry.player
        for entry in locked.entrants.filter(withdrawn=False)
        .select_related("player")
        .order_by("position")
    }
    rules = rulesets.ruleset(locked.ruleset)
    if tables is not None:
        _table_sizes(entrants, rules)
        _check_tables(tables, entrants, rules, club=locked.club_id)
        drawn = [list(table) for table in tables]
        seating, seed = Seating.DIRECTOR, None
    else:
        seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        drawn = _draw(locked, entrants, seating, seed)
    given = [written_name(name) for name in names or ()]
    if len(given) > len(drawn):
        raise errors.ClubnightError(
            "too_many_table_names", attr="names", count=len(given), tables=len(drawn)
        )
    # the tables not named are numbered in the language of the director who draws the round
    table_names = given + [
        gettext("Table {number}").format(number=t) for t in range(len(given) + 1, len(drawn) + 1)
    ]
    seen: set[str] = set()
    for t, name in enumerate(table_names):
        if name_key(name) in seen:  # two tables one name: no knowing where to sit
            raise errors.ClubnightError(
                "table_named_twice", attr=f"names.{t}" if t < len(given) else "names", name=name
            )
        seen.add(name_key(name))
    number = 1 if last is None else last.number + 1
    new = Round.objects.create(
        tournament=locked, number=number, seating=seating, seed=seed, created_by=user
    )
    for t, (seated, name) in enumerate(zip(drawn, table_names, strict=True), start=1):
        match = match_services.match_create(
            club=locked.club,
            players=seated,
            user=user,
            season=locked.season_id,
            table=name,
            ruleset=locked.ruleset,
        )
        RoundTable.objects.create(round=new, number=t, match=match)
    return new


# --- read side -----------------------------------------------------------------------------


def leaderboard(
    *, tournament: Tournament, numbers: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """Every entrant's sums over the tournament's matches: victory points, then points.

    Victory points count finished matches (a match in progress has no winner yet); points add
    up every match's current total, so the board moves as hands are recorded. Ties share a rank.
    ``rounds`` holds the player's total in each round, first round first (None for a round
    they did not play); a withdrawn entrant keeps their row, marked ``withdrawn``. ``numbers``
    are the rounds to give, as the caller read them (all of them, read here, when None): a
    caller that names the rounds itself gives the ones it names, even if a round was drawn or
    undone since it read them. Its reads are made against one snapshot
    (``selectors.one_snapshot``): a hand recorded meanwhile counts in every column or none.
    """
    with selectors.one_snapshot():
        return _leaderboard(tournament, numbers)


def _leaderboard(tournament: Tournament, numbers: Sequence[int] | None) -> list[dict[str, Any]]:
    if numbers is None:
        numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    by_round: dict[int, dict[int, int]] = {}
    for player, number, total in Seat.objects.filter(
        match__round_table__round__tournament=tournament
    ).values_list("player_id", "match__round_table__round__number", "total"):
        by_round.setdefault(player, {})[number] = total
    seats = (
        Seat.objects.filter(match__round_table__round__tournament=tournament)
        .order_by()
        .values("player_id")
        .annotate(
            vp=Sum("victory_points"),
            points=Sum("total"),
            played=Count("pk"),
            finished=Count("pk", filter=Q(match__status=MatchStatus.FINISHED)),
            wins=Count("pk", filter=Q(winner=True)),
        )
    )
    figures = {row["player_id"]: row for row in seats}
    rows = []
    for entry in tournament.entrants.select_related("player"):
        row = figures.get(entry.player_id, {})
        rows.append(
            {
                "player": entry.player_id,
                "name": entry.player.name,
                "victory_points": Decimal(row.get("vp") or 0).quantize(Decimal("0.0001")),
                "points": row.get("points") or 0,
                "matches": row.get("played", 0),
                "finished": row.get("finished", 0),
                "wins": row.get("wins", 0),
                "rounds": [by_round.get(entry.player_id, {}).get(n) for n in numbers],
                "withdrawn": entry.withdrawn,
            }
        )
    rows.sort(
        key=lambda r: (-r["victory_points"], -r["points"], sorting_name(r["name"]), r["player"])
    )
    rank = 0
    for position, row in enumerate(rows, start=1):
        before = rows[position - 2] if position > 1 else None
        if before is None or (before["victory_points"], before["points"]) != (
            row["victory_points"],
            row["points"],
        ):
            rank = position
        row["rank"] = rank
    return rows


def reopened_tables(tournament: Tournament, last: Round | None) -> list[dict[str, Any]]:
    """Tables of rounds before the last whose match is being played again (a correction
    reopened it): each as ``tables_of`` gives it, with its round's ``round`` number, first
    round first. Usually none."""
    rounds = tournament.rounds.filter(tables__match__status=MatchStatus.IN_PROGRESS)
    if last is not None:
        rounds = rounds.exclude(pk=last.pk)
    return [
        {**table, "round": round_.number}
        for round_ in rounds.distinct().order_by("number")
        for table in tables_of(round_)
        if table["status"] == MatchStatus.IN_PROGRESS
    ]


def tables_of(round_: Round) -> list[dict[str, Any]]:
    """A round's tables as the director's board shows them: each match live, who went out last."""
    last_out = Subquery(
        Hand.objects.filter(match=OuterRef("match_id"))
        .order_by("-number")
        .values("went_out_id")[:1]
    )
    tables = (
        round_.tables.select_related("match")
        .prefetch_related("match__seats__player")
        .annotate(last_out=last_out)
        .order_by("number")
    )
    return [
        {
            "table": table.number,
            "name": table.match.table,
            "match": table.match_id,
            "status": table.match.status,
            "hands_played": table.match.hands_played,
            "went_out_last": table.last_out,
            "seats": [
                {
                    "player": seat.player_id,
                    "name": seat.player.name,
                    "total": seat.total,
                    "winner": seat.winner,
                }
                for seat in sorted(table.match.seats.all(), key=lambda seat: seat.position)
            ],
        }
        for table in tables
    ]

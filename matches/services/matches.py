"""Matches: seating one, and changing its table or season, each in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from matches import errors, events, locking, state
from matches.models import (
    Club,
    Match,
    MatchStatus,
    Player,
    Season,
    Seat,
    SecondEntry,
    written_name,
)
from matches.selectors import LARGEST_ID
from matches.services import hands as hand_services
from scoring import rulesets

# --- matches -------------------------------------------------------------------------------


@transaction.atomic
def match_update(*, match: Match, table: str, season: Season | None) -> Match:
    """Change a match's table label or season; a finished match's results move with it."""
    locked = Match.objects.select_for_update().get(pk=match.pk)
    if season is not None and season.club_id != locked.club_id:
        raise errors.InvalidSetup("season_not_in_club", attr="season", season=season.pk)
    before = locked.season_id
    locked.table, locked.season = written_name(table), season
    locked.save(update_fields=["table", "season"])
    if locked.status == MatchStatus.FINISHED and before != locked.season_id:
        Club.standings_changed(locked.club_id)  # the seasons' tables count it elsewhere now
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
    roles: frozenset[str] | None = None,
) -> Match:
    """Seat distinct players of the club clockwise, in the order given, for a game of ``ruleset``.

    ``players`` are player ids of the club's roster; ``season``, if given, the id of one of its
    seasons; ``first_dealer`` the id of a seated player (default: the first seat). A match
    seats as many as its ruleset says; ``options`` (already read) are completed with the ruleset's
    defaults and fixed for the match's life. Raises ``errors.InvalidSetup`` naming the first
    field at fault. With ``roles``, the roles that may, ``user``'s role is read again first,
    the club's members held still until the match is made (``locking.require_role``): one
    demoted or removed a moment before is refused (``errors.NotAllowed``).
    """
    locking.require_role(club.pk, user, roles)
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
        raise errors.InvalidSetup(
            "first_dealer_not_seated",
            attr="first_dealer",
            player=hand_services.unseated_name(dealer, club.pk),
        )
    match = Match.objects.create(
        club=club,
        season=chosen,
        table=written_name(table),
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
    # its marks as its own answer gives them: none yet, where the club asks for a second entry
    marks: list[int] | None = [] if club.second_entry == SecondEntry.REQUIRED else None
    events.match_started(state.match_state(match, seats, unconfirmed_hands=marks))
    return match

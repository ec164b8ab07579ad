"""Matches in known states for the browser tests, built through the services and the API."""

from __future__ import annotations

from dataclasses import dataclass

from clubnight import tournaments
from matches.models import Player
from tests.factories import create_match, full_packs, record_hand, went_out


@dataclass
class Table:
    """A club with one finished match and one in progress, as the app's pages show them."""

    finished: object  # Ann wins outright: three hands gone out, 1,020 against -195
    live: object  # one hand played: Dev went out (+340), Eve held cards (-65)
    shared: object | None = None


def finished_and_live(club, roster, season, user) -> Table:
    ann, ben, cleo, dev, eve = roster
    finished = create_match(club, [ann, ben, cleo], user=user, season=season, table="Window")
    seated = [ann.pk, ben.pk, cleo.pk]
    for _ in range(3):
        record_hand(finished, went_out(ann.pk, seated), user=user)
    live = create_match(club, [dev, eve], user=user, season=season, table="Door")
    record_hand(live, went_out(dev.pk, [dev.pk, eve.pk]), user=user)
    finished.refresh_from_db()
    live.refresh_from_db()
    return Table(finished=finished, live=live)


def shared_victory(club, roster, season, user):
    """Ann and Ben each meld a whole pack twice, the stock runs out: 1,060 each, shared."""
    ann, ben = roster[:2]
    match = create_match(club, [ann, ben], user=user, season=season, table="Corner")
    for _ in range(2):
        record_hand(match, full_packs(ann.pk, ben.pk), user=user)
    match.refresh_from_db()
    return match


def drawn_night(club, roster, user):
    """A club night of nine players (the roster and four more), its first round drawn."""
    more = [Player.objects.create(club=club, name=n) for n in ("Fay", "Gus", "Hal", "Ida")]
    night = tournaments.tournament_create(
        club=club, name="Tuesday night", players=[p.pk for p in roster + more], user=user
    )
    tournaments.round_draw(tournament=night, user=user, seed=3)
    return night

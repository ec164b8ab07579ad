"""Demo data: a club, its roster and two matches, recorded hand by hand through the services.

Each demo hand is legal under the engine; the nets, worked out from the card values, are in the
comment above it. Roles are "out" (the player who goes out) and then the others in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

import scoring
from matches.models import Club, Match, Player, Season
from matches.services import clubs as club_services
from matches.services import hands as hand_services
from matches.services import matches as match_services

USERNAME = "demo"
PASSWORD = "demo-arlington"
CLUB_NAME = "Demo Card Club"
ROSTER = ("Ann", "Ben", "Cleo", "Dev")
SEASON_NAME = "Demo season"
FINISHED_TABLE = "Demo table 1"
IN_PROGRESS_TABLE = "Demo table 2"

Melds = list[list[str]]
Part = tuple[Melds, list[str]]

# Out: 70 + 15 + 80 + 30 = 195, +100 = 295. Others: 15 - 95 = -80; 30 - 65 = -35; 0 - 105 = -105.
WILD_QUEEN: tuple[Part, ...] = (
    (
        [
            ["JS", "2D=QS", "KS"],
            ["7H", "7D", "2C=7S"],
            ["AS", "AH", "AD", "AC"],
            ["KH", "KD", "KC"],
        ],
        [],
    ),
    ([["5D", "6D", "7D"]], ["2D", "4H", "8S", "9S", "10S", "3C", "4C", "JH", "QH", "9D"]),
    ([["9H", "10H", "JH"]], ["3S", "4S", "5S", "8D", "8C", "QD", "6C", "6H", "5H", "4D"]),
    ([], ["3H", "3D", "5C", "6S", "7C", "8H", "9C", "10C", "10D", "JC", "JD", "QC", "KS"]),
)

# Out: 70 + 60 + 20 + 30 = 180, +100 = 280. Others: 30 - 85 = -55; 60 - 75 = -15; 30 - 75 = -45.
TWOS_SET: tuple[Part, ...] = (
    (
        [["QS", "QH", "QC"], ["2S", "2H", "2C"], ["3D", "4D", "5D", "6D"], ["8C", "9C", "2H=10C"]],
        [],
    ),
    ([["9S", "10S", "JS"]], ["4H", "5H", "7S", "8D", "KC", "KD", "AH", "3S", "6C", "JC"]),
    ([["AS", "2D=AC", "AD"]], ["3H", "4S", "5C", "6H", "7C", "8H", "9H", "10D", "JD", "QD"]),
    ([["KH", "KS", "KH"]], ["3C", "4C", "5S", "6S", "7D", "8S", "9D", "10H", "JH", "QD"]),
)

# Who goes out in each hand (a seat index) and with which deal. The finished match ends after
# its eighth hand, when Ann reaches 1,255 (totals 1255, -120, 100, -275).
FINISHED_HANDS: tuple[tuple[int, tuple[Part, ...]], ...] = (
    (0, WILD_QUEEN),
    (1, TWOS_SET),
    (0, TWOS_SET),
    (2, WILD_QUEEN),
    (0, WILD_QUEEN),
    (3, TWOS_SET),
    (0, TWOS_SET),
    (0, WILD_QUEEN),
)
IN_PROGRESS_HANDS: tuple[tuple[int, tuple[Part, ...]], ...] = ((1, WILD_QUEEN), (2, TWOS_SET))


def hand_entry(
    deal: Sequence[Part], out: int, players: Sequence[Player]
) -> hand_services.HandEntry:
    """The deal with ``players[out]`` going out and the others, in seat order, taking the rest.

    At a table of three the deal's last part is left out.
    """
    others = [p for i, p in enumerate(players) if i != out]
    seated = [players[out], *others]
    return hand_services.HandEntry(
        ending=scoring.Ending.WENT_OUT,
        went_out=players[out].pk,
        results=tuple(
            hand_services.PlayerEntry(
                player.pk,
                tuple(scoring.parse_meld(meld) for meld in melds),
                scoring.parse_cards(held),
            )
            for player, (melds, held) in zip(seated, deal, strict=False)
        ),
    )


def _play(
    match: Match,
    players: Sequence[Player],
    hands: Sequence[tuple[int, tuple[Part, ...]]],
    user: User,
) -> None:
    for out, deal in hands:
        hand_services.hand_record(
            match_id=match.pk, entry=hand_entry(deal, out, players), user=user
        )


@transaction.atomic
def seed() -> tuple[User, list[str]]:
    """Create whatever part of the demo data is missing; return the demo user and what was made."""
    made: list[str] = []
    user, created = get_user_model().objects.get_or_create(
        username=USERNAME, defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
        made.append(f"user {USERNAME}")
    club = Club.objects.filter(name=CLUB_NAME, created_by=user).first()
    if club is None:
        club = club_services.club_create(name=CLUB_NAME, user=user)
        made.append(f"club {CLUB_NAME!r}")
    players = []
    for name in ROSTER:
        player, created = Player.objects.get_or_create(club=club, name=name)
        players.append(player)
        if created:
            made.append(f"player {name}")
    season, created = Season.objects.get_or_create(club=club, name=SEASON_NAME)
    if created:
        made.append(f"season {SEASON_NAME!r}")
    for table, seated, hands in (
        (FINISHED_TABLE, players, FINISHED_HANDS),
        (IN_PROGRESS_TABLE, players[:3], IN_PROGRESS_HANDS),
    ):
        if Match.objects.filter(club=club, table=table).exists():
            continue
        match = match_services.match_create(
            club=club, players=[p.pk for p in seated], user=user, season=season.pk, table=table
        )
        _play(match, seated, hands, user)
        made.append(f"match {match.pk} ({table}, {len(hands)} hands)")
    return user, made

"""Standings never add Arlington and Rummy results together: one table per ruleset."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from matches.models import Club, Match
from tests.matches.test_rummy_matches import codes, create


def _finish(match_id: int, totals: dict[int, int]) -> None:
    """Finish a match as its last hand would: totals, the winner's seat, the match, the stamp."""
    match = Match.objects.get(pk=match_id)
    best = max(totals.values())
    for seat in match.seats.all():
        seat.total = totals[seat.player_id]
        seat.winner = seat.total == best
        seat.victory_points = Decimal(1) if seat.winner else Decimal(0)
        seat.went_out = 2 if seat.winner else 0
        seat.save()
    match.status, match.finished_at, match.hands_played = "finished", timezone.now(), 2
    match.save()
    Club.standings_changed(match.club_id)  # as the services do when a match finishes


def test_standings_count_one_ruleset_at_a_time(as_carol, club, roster):
    ann, ben, cleo = roster[:3]
    arlington = create(as_carol, club, [ann, ben]).json()
    rummy = create(as_carol, club, [ann, ben, cleo], ruleset="rummy").json()
    _finish(arlington["id"], {ann.pk: 1040, ben.pk: -30})
    _finish(rummy["id"], {ann.pk: -40, ben.pk: 110, cleo.pk: -70})

    def table(query: str = "") -> dict[str, tuple[int, int, int]]:
        rows = as_carol.get(f"/api/v1/clubs/{club.pk}/standings/{query}").json()
        return {row["name"]: (row["matches_played"], row["wins"], row["points"]) for row in rows}

    assert table() == {"Ann": (1, 1, 1040), "Ben": (1, 0, -30)}
    assert table("?ruleset=arlington") == table()
    assert table("?ruleset=rummy") == {"Ann": (1, 0, -40), "Ben": (1, 1, 110), "Cleo": (1, 0, -70)}
    between = "&from=2000-01-01&to=2999-12-31"
    assert table(f"?ruleset=rummy{between}") == table("?ruleset=rummy")
    assert table(f"?ruleset=arlington{between}") == table()


def test_an_unknown_ruleset_in_a_standings_query_is_a_400(as_carol, club):
    response = as_carol.get(f"/api/v1/clubs/{club.pk}/standings/?ruleset=poker")
    assert response.status_code == 400
    assert codes(response) == [("invalid_choice", "ruleset")]


def test_the_csv_table_counts_the_ruleset_asked_for(as_carol, club, roster):
    ann, ben = roster[:2]
    rummy = create(as_carol, club, [ann, ben], ruleset="rummy").json()
    _finish(rummy["id"], {ann.pk: 120, ben.pk: -120})
    url = f"/api/v1/clubs/{club.pk}/standings/csv/"
    rummy_rows = as_carol.get(f"{url}?ruleset=rummy").content.decode().splitlines()
    arlington_rows = as_carol.get(url).content.decode().splitlines()
    assert len(rummy_rows) == 3 and "Ann" in rummy_rows[1]
    assert len(arlington_rows) == 1  # the header alone

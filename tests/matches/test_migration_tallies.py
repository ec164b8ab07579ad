"""The tallies went when tables came to be counted from the seats; going back recounts them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from matches.models import Match, Seat
from tests.factories import start_match

GONE = ("matches", "0016_tallies_counted_at_read")
FIGURES = ("season_id", "ruleset", "matches_played", "wins", "victory_points", "hands_played")


@pytest.mark.django_db(transaction=True)
def test_going_back_recounts_the_tallies_from_the_finished_seats(as_carol, club, roster):
    ann, ben, cleo = roster[:3]
    finished = start_match(as_carol, club, [ann, ben])["id"]
    Match.objects.filter(pk=finished).update(
        status="finished", finished_at=timezone.now(), hands_played=3
    )
    Seat.objects.filter(match_id=finished, player=ann).update(
        total=1040, winner=True, victory_points=Decimal(1), went_out=2
    )
    Seat.objects.filter(match_id=finished, player=ben).update(total=-30)
    start_match(as_carol, club, [ben, cleo])  # in progress: not counted

    executor = MigrationExecutor(connection)
    before = sorted(parent.key for parent in executor.loader.graph.node_map[GONE].parents)
    try:
        executor.migrate(before)
        tallies = executor.loader.project_state(before).apps.get_model("matches", "Tally")
        kept = {t.player_id: t for t in tallies.objects.all()}
        assert set(kept) == {ann.pk, ben.pk}
        assert [getattr(kept[ann.pk], name) for name in FIGURES] == [
            None, "arlington", 1, 1, Decimal(1), 3
        ]  # fmt: skip
        assert (kept[ann.pk].points, kept[ann.pk].went_out) == (1040, 2)
        assert (kept[ben.pk].points, kept[ben.pk].wins, kept[ben.pk].victory_points) == (
            -30, 0, Decimal(0)
        )  # fmt: skip
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

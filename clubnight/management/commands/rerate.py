"""Rate every finished match again, from the first: after an upgrade that brings ratings, or
after a replay that failed (its club's ratings then stay `recomputing` until this runs)."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from clubnight import ratings
from clubnight.models import PendingReplay
from matches.models import Match, MatchStatus


class Command(BaseCommand):
    help = (
        "Replay the ratings of every club and ruleset from their first finished match, "
        "including those whose replay after a change failed."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        finished = Match.objects.filter(status=MatchStatus.FINISHED).values_list(
            "club_id", "ruleset"
        )
        pending = PendingReplay.objects.values_list("club_id", "ruleset")
        pairs = sorted(set(finished) | set(pending))
        for club_id, ruleset in pairs:
            with transaction.atomic():
                ratings.rebuild(club_id=club_id, ruleset=ruleset)
        self.stdout.write(f"Rated the finished matches of {len(pairs)} club rulesets.")

"""Rate every finished match again, from the first: after an upgrade that brings ratings."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from clubnight import ratings
from matches.models import Match, MatchStatus


class Command(BaseCommand):
    help = "Replay the ratings of every club and ruleset from their first finished match."

    def handle(self, *args: Any, **options: Any) -> None:
        pairs = (
            Match.objects.filter(status=MatchStatus.FINISHED)
            .order_by("club_id", "ruleset")
            .values_list("club_id", "ruleset")
            .distinct()
        )
        for club_id, ruleset in pairs:
            with transaction.atomic():
                ratings.replay(club_id=club_id, ruleset=ruleset)
        self.stdout.write(f"Rated the finished matches of {len(pairs)} club rulesets.")

"""What the worker (``python manage.py worker``) does for the ratings: a replay too long to
run in the request that asked for it (``ratings.replay_pending``)."""

from __future__ import annotations

from django.db import transaction
from django_tasks import task

from clubnight import ratings


@task()
def replay(club_id: int, ruleset: str) -> None:
    """Replay the club's ratings of ``ruleset`` from the earliest pending change; nothing when
    an earlier replay took every change there was."""
    with transaction.atomic():
        ratings.replay_club(club_id=club_id, ruleset=ruleset)

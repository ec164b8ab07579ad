"""A webhook that answered before the upgrade is known to answer after it (``succeeded_at``
from its deliveries that succeeded), not taken for a new one sharing the untried place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from matches import events
from matches.models import EventType
from webhooks.models import Endpoint

MINE = ("webhooks", "0006_endpoint_succeeded_at")


@pytest.mark.django_db(transaction=True)
def test_a_webhook_that_answered_before_the_upgrade_is_known_after_it(club):
    answered = Endpoint.objects.create(
        club=club, url="http://127.0.0.1:9/a", events=["match.started"]
    )
    new = Endpoint.objects.create(club=club, url="http://127.0.0.1:9/b", events=["match.started"])
    for match in (1, 2):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})

    executor = MigrationExecutor(connection)
    before = sorted(parent.key for parent in executor.loader.graph.node_map[MINE].parents)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("webhooks", "Delivery")
    first, last = timezone.now() - timedelta(hours=2), timezone.now() - timedelta(hours=1)
    its = old.objects.filter(endpoint_id=answered.pk).order_by("pk")
    for delivery, at in zip(its, (first, last), strict=True):
        old.objects.filter(pk=delivery.pk).update(status="succeeded", last_attempt_at=at)
    old.objects.filter(endpoint_id=new.pk).update(status="failed", last_attempt_at=last)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    answered.refresh_from_db()
    new.refresh_from_db()
    assert (answered.succeeded_at, new.succeeded_at) == (last, None)

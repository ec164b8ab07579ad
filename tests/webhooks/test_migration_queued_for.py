"""A busy club's put-back deliveries, queued by the release before ``queued_for``, are not
taken for lost by the first sweep after the upgrade."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from matches import events
from matches.models import EventType
from webhooks import tasks
from webhooks.models import Delivery, Endpoint

MINE = ("webhooks", "0005_delivery_queued_for")


@pytest.mark.django_db(transaction=True)
def test_a_put_back_delivery_keeps_its_task_through_the_upgrade(club):
    Endpoint.objects.create(club=club, url="http://127.0.0.1:9/busy", events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()

    executor = MigrationExecutor(connection)
    before = sorted(parent.key for parent in executor.loader.graph.node_map[MINE].parents)
    executor.migrate([key for key in before if key[0] == "webhooks"])
    # as the release before left it: due ten minutes ago, put back 30 s by its full club
    put_back = timezone.now() + timedelta(seconds=30)
    DBTaskResult.objects.filter(pk=delivery.task_id).update(run_after=put_back)
    old = executor.loader.project_state(before).apps.get_model("webhooks", "Delivery")
    old.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now() - timedelta(minutes=10)
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    delivery.refresh_from_db()
    assert delivery.queued_for == put_back
    assert tasks.requeue_overdue() == 0  # its task still waits on the queue: not lost
    assert Delivery.objects.get().task_id == delivery.task_id

"""The webhooks' tasks, run by ``python manage.py worker`` (django-tasks' database backend)."""

from __future__ import annotations

from django_tasks import task

from webhooks import services


@task()
def deliver(delivery_id: int, number: int) -> None:
    """Attempt ``number`` of a delivery."""
    services.attempt(delivery_id=delivery_id, number=number)


@task()
def prune() -> None:
    """Delete the events and deliveries past EVENTS_KEPT_DAYS; come back in a day."""
    services.prune()

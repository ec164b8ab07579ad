"""The webhooks' tasks, run by ``python manage.py worker`` (django-tasks' database backend)."""

from __future__ import annotations

from django_tasks import TaskContext, task

from webhooks import services


@task(takes_context=True)
def deliver(context: TaskContext, delivery_id: int, number: int) -> None:
    """Attempt ``number`` of a delivery, unless this task is a stale copy."""
    services.attempt(delivery_id=delivery_id, number=number, task_id=str(context.task_result.id))


@task()
def prune() -> None:
    """Delete the events and deliveries past EVENTS_KEPT_DAYS; come back in a day."""
    services.prune()

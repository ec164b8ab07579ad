"""``python manage.py worker``: django-tasks' database worker, which delivers the webhooks.

The library's own worker (``db_worker``) with its options; before it starts, deliveries left
overdue by a worker that stopped mid-attempt are queued again, and the daily clean-up of old
events is put on the queue if it is not there yet.
"""

from typing import Any

from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from webhooks import services


class Command(DatabaseWorker):
    help = "Run the queued tasks (webhook deliveries) until stopped; --batch: until none is left."

    def handle(self, *args: Any, **options: Any) -> None:
        requeued = services.requeue_overdue()
        if requeued and options["verbosity"]:
            self.stdout.write(f"Queued {requeued} overdue deliveries again.")
        services.schedule_prune()
        super().handle(*args, **options)

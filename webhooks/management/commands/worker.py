"""``python manage.py worker``: django-tasks' database worker, which delivers the webhooks and
runs the ratings replays too long for a request (``clubnight.tasks``).

The library's own worker (``db_worker``) with its options, and two of ours. ``--concurrency``
(default 3) runs that many task loops in threads, so that attempts to slow receivers run beside
others (a club holds at most ``tasks.CLUB_IN_FLIGHT`` of them at once). A sweeper thread
queues again, every ``tasks.SWEEP_EVERY`` (``--sweep-every`` seconds), the deliveries left
overdue by a worker killed during an attempt. Before it starts, the daily clean-up of old
events is put on the queue if it is not there yet.
"""

from __future__ import annotations

import logging
import os
import threading
from argparse import ArgumentParser, ArgumentTypeError
from datetime import timedelta
from typing import Any

from django.db import connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker
from django_tasks_db.management.commands.db_worker import Worker

from webhooks import tasks

logger = logging.getLogger(__name__)


def seconds(text: str) -> float:
    """A number of seconds, 0 or more: a negative delay would count deliveries not yet due as
    overdue and attempt them before their retry time."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise ArgumentTypeError(f"{text!r} is not a number of seconds, 0 or more")
    return value


def _in_thread(target: Any, name: str) -> None:
    def run() -> None:
        try:
            target()
        finally:
            connections.close_all()

    threading.Thread(target=run, name=name, daemon=True).start()


class Command(DatabaseWorker):
    help = (
        "Run the queued tasks (webhook deliveries, long ratings replays) until stopped; "
        "--batch: until none is left."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--concurrency",
            type=int,
            default=3,
            help="Task loops run at once, each in a thread (default: %(default)r); with the "
            "sweeper, the worker holds one database connection more than this.",
        )
        parser.add_argument(
            "--sweep-every",
            type=float,
            default=tasks.SWEEP_EVERY.total_seconds(),
            help="Seconds between two sweeps for overdue deliveries (default: %(default)r).",
        )
        parser.add_argument(
            "--overdue-after",
            type=seconds,
            default=tasks.OVERDUE.total_seconds(),
            help="Seconds past its due time after which a pending delivery whose lease has run "
            "out, or whose task has not run, is queued again by the sweep (default: "
            "%(default)r).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        concurrency, sweep_every = options.pop("concurrency"), options.pop("sweep_every")
        late = timedelta(seconds=options.pop("overdue_after"))
        requeued = tasks.requeue_overdue(late=late)
        if requeued and options["verbosity"]:
            self.stdout.write(f"Queued {requeued} overdue deliveries again.")
        tasks.schedule_prune()
        serving = not options["batch"] and (
            not options["reload"] or os.environ.get(DJANGO_AUTORELOAD_ENV) == "true"
        )
        if serving:
            self._start_threads(concurrency, sweep_every, late, options)
        super().handle(*args, **options)

    def _start_threads(
        self, concurrency: int, sweep_every: float, late: timedelta, options: Any
    ) -> None:
        stop = threading.Event()

        def sweep() -> None:
            while not stop.wait(sweep_every):
                try:
                    tasks.requeue_overdue(late=late)
                    tasks.keep_prune_queued()
                except Exception:  # noqa: BLE001 - one failed sweep must not end the next ones
                    logger.exception("a sweep for overdue deliveries failed; the next one runs")
                finally:
                    connections.close_all()

        _in_thread(sweep, "sweeper")
        for number in range(1, max(concurrency, 1)):
            loop = Worker(
                queue_names=options["queue_name"].split(","),
                interval=options["interval"],
                batch=False,
                backend_name=options["backend_name"],
                startup_delay=options["startup_delay"],
                max_tasks=None,
                worker_id=f"{options['worker_id'][:56]}-{number}",
                excluded_queue_names=(
                    options["exclude_queues"].split(",") if options["exclude_queues"] else []
                ),
            )
            _in_thread(loop.run, f"tasks-{number}")

"""``python manage.py worker``: django-tasks' database worker, which delivers the webhooks and
runs the ratings replays too long for a request (``clubnight.tasks``).

The library's own worker (``db_worker``) with its options, and two of ours. ``--concurrency``
(default 3) runs that many task loops in threads, so that attempts to slow receivers run beside
others (a club holds at most ``tasks.CLUB_IN_FLIGHT`` of them at once). A sweeper thread
queues again, every ``tasks.SWEEP_EVERY`` (``--sweep-every`` seconds), the deliveries left
overdue by a worker killed during an attempt. Before it starts, the daily clean-up of old
events is put on the queue if it is not there yet.

A stop (SIGTERM, SIGINT, SIGQUIT) lets every task loop end the task it is running (a loop
claiming one at that moment runs it too), then the worker exits: a deploy's restart cuts no
attempt off, so no receiver is sent a message twice for it and no delivery moves on in its
retry schedule. A second signal stops it at once; what it cut off the sweep of a running worker
makes again, as after a kill.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from argparse import ArgumentParser, ArgumentTypeError
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.management.base import CommandError
from django.db import OperationalError, connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.utils import is_locked_database_exception

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


def _in_thread(target: Any, name: str, ended: threading.Event | None = None) -> threading.Thread:
    """``target`` run in a daemon thread (a second signal ends the process without waiting for
    it), which is marked ``failed`` if it raised, and sets ``ended`` as it ends."""

    def run() -> None:
        try:
            target()
        except BaseException:
            thread.failed = True  # type: ignore[attr-defined]
            raise
        finally:
            connections.close_all()
            if ended is not None:
                ended.set()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def _through_locks(loop: Worker) -> Callable[[], None]:
    """The loop's ``run``, begun again when SQLite's write lock was not granted in time.

    The library's loop claims each task in a transaction of its own and goes on when the claim
    finds the database locked, but not when the transaction cannot even begin: on the embedded
    SQLite of ``make run``, a writer holding the lock past SQLITE_BUSY_TIMEOUT (a request
    stuck in a slow step) raised out of the loop, and the worker stopped, its deliveries left
    pending for the rest of the night. A locked database is something to wait out: the loop
    starts again. Any other error still ends it (and the worker), as before.
    """

    def run() -> None:
        while True:
            try:
                loop.run()
                return
            except OperationalError as error:
                if not is_locked_database_exception(error):
                    raise
                if not loop.running:  # asked to stop while it waited: a stop, not a failure
                    return
                logger.warning(
                    "The database stayed locked past its busy timeout as a task loop began a "
                    "claim; the loop goes on."
                )
                connections.close_all()  # the next claim begins on a fresh connection

    return run


STOP_SIGNALS = [
    signal.SIGINT,
    signal.SIGTERM,
    *([signal.SIGQUIT] if hasattr(signal, "SIGQUIT") else []),
]


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
        if not options["batch"] and not options["reload"]:
            self.configure_logging(options["verbosity"])
            if options["exclude_queues"] and "*" not in options["queue_name"].split(","):
                raise CommandError("--exclude-queues can only be used with --queue-name=*")
            self._serve(concurrency, sweep_every, late, options)
            return
        # --batch: one loop until the queue is empty. --reload (development): the library's
        # reloader runs the loop in its child process, and the other loops run beside it there.
        if not options["batch"] and os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
            self._start_threads(concurrency, sweep_every, late, options, first=1)
        super().handle(*args, **options)

    def _serve(self, concurrency: int, sweep_every: float, late: timedelta, options: Any) -> None:
        """Run the task loops and the sweeper until a signal; then let the loops end the
        tasks they are running (a second signal: at once).

        A loop that ends by itself (an error it could not get over, such as the database lost;
        or ``--max-tasks`` run) stops the others the same way: the process then exits, with
        status 1 after an error, so that its service manager starts it again, rather than
        staying up with loops missing.
        """
        ended = threading.Event()  # set by each loop's thread as it ends
        stop, loops, threads = self._start_threads(
            concurrency, sweep_every, late, options, ended=ended
        )
        loop_threads = threads[1:]  # the first is the sweeper's

        def stop_loops() -> None:
            stop.set()
            for loop in loops:
                loop.running = False

        def shutdown(signum: int, frame: Any) -> None:
            name = signal.Signals(signum).name
            if stop.is_set():
                logger.warning("Received %s again: stopping now.", name)
                raise SystemExit(1)
            stop_loops()
            busy = sum(loop.running_task for loop in loops)
            logger.warning(
                "Received %s: stopping once the %d task(s) running end (send it again to stop "
                "now).",
                name,
                busy,
            )

        for number in STOP_SIGNALS:
            signal.signal(number, shutdown)
        failed = False
        while any(thread.is_alive() for thread in loop_threads):
            ended.wait(timeout=1.0)  # a timeout, so that a signal is handled at once
            ended.clear()
            if not stop.is_set() and not all(thread.is_alive() for thread in loop_threads):
                failed = any(getattr(thread, "failed", False) for thread in loop_threads)
                logger.log(
                    logging.ERROR if failed else logging.INFO,
                    "A task loop ended%s: the worker stops once the others end their tasks.",
                    " on an error" if failed else "",
                )
                stop_loops()
        stop.set()
        for thread in threads:
            thread.join()
        if failed:
            raise SystemExit(1)

    def _start_threads(
        self,
        concurrency: int,
        sweep_every: float,
        late: timedelta,
        options: Any,
        *,
        first: int = 0,
        ended: threading.Event | None = None,
    ) -> tuple[threading.Event, list[Worker], list[threading.Thread]]:
        """The sweeper and task loops ``first`` to ``concurrency`` − 1, each in a thread (the
        first loop runs ``--max-tasks``, as the library's own loop does; each sets ``ended`` as
        it ends); the event that ends the sweeper, the loops and the threads, the sweeper's
        first."""
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

        threads = [_in_thread(sweep, "sweeper")]
        loops = []
        for number in range(first, max(concurrency, 1)):
            worker_id = options["worker_id"]  # the first loop's, as the library names it
            loop = Worker(
                queue_names=options["queue_name"].split(","),
                interval=options["interval"],
                batch=False,
                backend_name=options["backend_name"],
                startup_delay=options["startup_delay"],
                max_tasks=options["max_tasks"] if number == 0 else None,
                worker_id=f"{worker_id[:56]}-{number}" if number else worker_id,
                excluded_queue_names=(
                    options["exclude_queues"].split(",") if options["exclude_queues"] else []
                ),
            )
            loops.append(loop)
            threads.append(_in_thread(_through_locks(loop), f"tasks-{number}", ended=ended))
        return stop, loops, threads

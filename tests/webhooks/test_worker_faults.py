"""The worker under faults: a worker killed with SIGKILL during an attempt, and one club's
receivers that never answer. Real worker processes (``manage.py worker``) against the committed
test database, and loopback receivers of the test's own.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from matches import events
from matches.models import EventType
from tests import harness
from tests.database import server_url
from tests.factories import client_for
from tests.matches.test_workers import server_env
from webhooks import services, tasks
from webhooks.models import Attempt, Delivery, Endpoint

pytestmark = pytest.mark.django_db(transaction=True)


class Receiver:
    """A loopback receiver: the first ``silent`` requests get no answer until the test ends
    (the worker's timeout cuts them off); later ones get 204."""

    def __init__(self, silent: int) -> None:
        self.silent = silent
        self.ids: list[str] = []
        self.arrived = threading.Condition()
        self.released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.arrived:
                    receiver.ids.append(self.headers["webhook-id"])
                    answer = len(receiver.ids) > receiver.silent
                    receiver.arrived.notify_all()
                if not answer:
                    receiver.released.wait(timeout=120)
                    return
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        harness.serve_in_thread(self.server)

    def wait_for(self, count: int, timeout: float) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.ids) >= count, timeout=timeout)

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers() -> Iterator[Callable[[int], Receiver]]:
    made: list[Receiver] = []

    def make(silent: int) -> Receiver:
        made.append(Receiver(silent))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


@pytest.fixture
def workers(tmp_path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []

    def start(*options: str, **settings: str) -> subprocess.Popen[bytes]:
        env = server_env(WEBHOOKS_ALLOW_PRIVATE_TARGETS="true", **settings)
        command = [sys.executable, "manage.py", "worker", "--no-reload", "--no-startup-delay"]
        command += ["--interval", "0.2", "--verbosity", "0", *options]
        started.append(harness.start(command, env=env, log=tmp_path / "workers.log"))
        return started[-1]

    yield start
    for process in started:
        # at once: a stop (SIGTERM) would wait for the attempts to the receivers that hang
        harness.stop(process, sig=signal.SIGKILL)


def test_a_stopped_worker_ends_the_attempts_it_began_then_exits(club, bobs_club, workers, tmp_path):
    """A deploy stops the worker with SIGTERM while its three task loops each wait for a
    receiver's answer: it makes no new attempt, lets the three end (their answers recorded, each
    message sent once), then exits. Before, only the first loop's attempt ended: the process
    exited under the other two, which the sweep of another worker made again later, sent twice
    and counted as failed in the retry schedule."""
    gate = threading.Event()
    arrived: list[str] = []
    seen = threading.Condition()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with seen:
                arrived.append(self.headers["webhook-id"])
                seen.notify_all()
            gate.wait(timeout=120)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    harness.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    try:
        known = timezone.now()  # webhooks known to answer: each club may hold two places
        for owner, paths in ((club, ("a", "b")), (bobs_club, ("c",))):
            for path in paths:
                Endpoint.objects.create(
                    club=owner, url=f"{url}?{path}", events=["match.started"], succeeded_at=known
                )
            events.write(club_id=owner.pk, type=EventType.MATCH_STARTED, data={"match": 1})
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 2})
        # as deployed, three task loops; a timeout longer than the test's hold on the answers
        worker = workers(WEBHOOKS_TIMEOUT_SECONDS="60")
        with seen:
            assert seen.wait_for(lambda: len(arrived) == 3, timeout=60)
        os.killpg(worker.pid, signal.SIGTERM)
        log = tmp_path / "workers.log"
        harness.wait_until(
            lambda: (
                "Received SIGTERM: stopping once the 3 task(s) running end"
                in log.read_text(errors="replace")
            ),
            what="the worker told to stop",
        )
        gate.set()
        assert worker.wait(timeout=60) == 0
    finally:
        gate.set()
        server.shutdown()
        server.server_close()
    made = Delivery.objects.filter(status="succeeded")
    assert sorted(made.values_list("message_id", flat=True)) == sorted(arrived)
    assert Attempt.objects.count() == 3
    assert not Attempt.objects.exclude(error="").exists()
    # the two deliveries the stop left unattempted wait for the next worker, their tasks queued
    waiting = Delivery.objects.exclude(status="succeeded")
    assert [(d.status, d.attempts) for d in waiting] == [("pending", 0)] * 2
    started = DBTaskResult.objects.filter(pk__in=[d.task_id for d in made])
    assert set(started.values_list("status", flat=True)) == {TaskResultStatus.SUCCESSFUL}


def test_a_worker_whose_task_loops_lose_the_database_exits_to_be_started_again(
    club, receivers, workers, tmp_path
):
    """The database drops the worker's connections and takes no new ones for a while (a
    restart, a failover): its task loops end on the error, and the process exits with status 1
    for its service manager to start it again, rather than staying up with no loop taking
    tasks. (A connection dropped alone is taken again from the pool, health-checked.)"""
    from django.db import connection

    receiver = receivers(0)
    Endpoint.objects.create(club=club, url=receiver.url, events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    # named, so that only its sessions are dropped: the test process's own pooled connections
    # are left alone, for the tests after this one
    worker = workers("--concurrency", "2", PGAPPNAME="worker-losing-its-database")
    name = connection.settings_dict["NAME"]
    # its loops at work, past what the worker does as it starts (which would fail it otherwise)
    harness.wait_until(
        lambda: Delivery.objects.get().status == "succeeded", what="a delivery made by a loop"
    )
    server = server_url(connection.settings_dict, "postgres")
    with psycopg.connect(server, autocommit=True) as admin:  # not the test database's own
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = %s",
                    ["worker-losing-its-database"],
                )
                assert cursor.fetchall()  # the worker's sessions, found by their name
            assert worker.wait(timeout=60) == 1
        finally:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    log = (tmp_path / "workers.log").read_text(errors="replace")
    assert "A task loop ended on an error" in log


def test_a_worker_with_max_tasks_exits_once_it_has_run_them(club, receivers, workers):
    receiver = receivers(0)
    Endpoint.objects.create(club=club, url=receiver.url, events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    worker = workers("--concurrency", "1", "--max-tasks", "1")
    assert worker.wait(timeout=60) == 0
    assert Delivery.objects.get().status == "succeeded"


def test_an_attempt_cut_off_by_a_killed_worker_is_made_by_another_running_worker(
    club, receivers, workers
):
    receiver = receivers(1)
    Endpoint.objects.create(club=club, url=receiver.url, events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()

    # A 5 s timeout makes the attempt's lease 20 s, what the killed worker leaves to run out; it
    # is also how long the test has to kill the worker before the attempt fails of itself.
    doomed = workers("--concurrency", "1", WEBHOOKS_TIMEOUT_SECONDS="5")
    assert receiver.wait_for(1, timeout=60)
    os.killpg(doomed.pid, signal.SIGKILL)
    doomed.wait()
    killed_at = time.monotonic()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 0)
    assert delivery.leased_until is not None
    cut_task = delivery.task_id

    # its start-up finds the lease held; its sweeps queue the attempt again once the lease has
    # run out and the delivery is 2 s past due
    workers("--concurrency", "2", "--sweep-every", "1", "--overdue-after", "2")
    harness.wait_until(
        lambda: Delivery.objects.get().status == "succeeded",
        what="the delivery made by the running worker",
        seconds=150,
    )
    made_after = time.monotonic() - killed_at
    assert made_after < 60
    assert receiver.ids == [delivery.message_id, delivery.message_id]
    # the cut-off attempt is in the history, with what is known of it; the next is attempt 2
    made = Delivery.objects.get()
    history = list(made.history.values_list("number", "response_status", "error"))
    assert history == [(1, None, "worker_stopped"), (2, 204, "")]
    assert made.attempts == 2
    # the killed worker's task is not left running for ever
    assert DBTaskResult.objects.get(pk=cut_task).status == TaskResultStatus.FAILED


def test_a_redelivery_asked_during_an_attempt_is_refused_and_made_after_it(
    alice, club, receivers, workers
):
    """While an attempt is on its way, its outcome would settle a redelivery unsent (202, and
    nothing more sent): the redelivery is refused with a sentence, and once the attempt is
    over it is made."""
    receiver = receivers(1)  # the first request gets no answer until the timeout
    hook = Endpoint.objects.create(club=club, url=receiver.url, events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()
    workers("--concurrency", "1", WEBHOOKS_TIMEOUT_SECONDS="3")
    assert receiver.wait_for(1, timeout=60)
    owner = client_for(alice)
    url = f"/api/v1/clubs/{club.pk}/webhooks/{hook.pk}/deliveries/{delivery.pk}/redeliver/"
    refused = owner.post(url)
    assert refused.status_code == 409
    (error,) = refused.json()["errors"]
    assert error["code"] == "delivery_in_progress"
    assert f"Delivery {delivery.pk} is being attempted right now" in error["detail"]
    # when to ask again, for a client that reads headers rather than sentences
    within = re.search(r"within (\d+) seconds", error["detail"])
    assert within and refused["Retry-After"] == within.group(1) and int(within.group(1)) > 0
    # the seconds left of the attempt's request (to connect, then to answer: 2 × 3 s at most),
    # not of its lease, which holds a margin beyond it to write the outcome
    assert int(within.group(1)) <= 2 * 3

    harness.wait_until(
        lambda: Delivery.objects.get().attempts == 1, what="the attempt timed out", seconds=60
    )
    assert owner.post(url).status_code == 202
    assert receiver.wait_for(2, timeout=60)
    harness.wait_until(
        lambda: Delivery.objects.get().status == "succeeded", what="redelivered", seconds=60
    )


def test_a_clubs_dead_receivers_do_not_delay_another_clubs_deliveries(
    club, bobs_club, receivers, workers
):
    dead, alive = receivers(10_000), receivers(0)
    Endpoint.objects.bulk_create(  # all the webhooks a club may have
        Endpoint(club=club, url=f"{dead.url}?{i}", events=["match.started"])
        for i in range(services.MAX_WEBHOOKS_PER_CLUB)
    )
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    Endpoint.objects.create(club=bobs_club, url=alive.url, events=["match.started"])
    for match in range(30):
        events.write(club_id=bobs_club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    theirs = Delivery.objects.filter(endpoint__club=bobs_club)

    workers()  # as deployed: three task loops
    harness.wait_until(
        lambda: theirs.filter(status="succeeded").count() == 30,
        what="the other club's thirty deliveries",
    )
    # Meanwhile the first club's receivers held at most two attempts at a time, each cut off
    # only by the 10-second timeout: most of its deliveries are still waiting their turn.
    assert Attempt.objects.filter(delivery__endpoint__club=club).count() <= 4
    assert dead.wait_for(1, timeout=1)
    assert len(dead.ids) <= 4


def test_a_clubs_backlog_waits_without_going_round_the_queue(club, bobs_club, receivers, workers):
    """A club whose places are held by receivers that hang, with a backlog waiting behind
    them, and a worker sweeping every second. Before, each waiting delivery was put back with
    a new task every 30 s, and every sweep took the backlog for lost and queued all of it
    again at once: the queue's table grew by the backlog every second, and another club's
    messages waited behind it. Now the backlog waits with no task, and sweeps queue none for
    it."""
    dead, alive = receivers(10_000), receivers(0)
    Endpoint.objects.bulk_create(  # webhooks known to answer, until now
        Endpoint(
            club=club,
            url=f"{dead.url}?{i}",
            events=["match.started"],
            succeeded_at=timezone.now(),
        )
        for i in range(3)
    )
    for match in range(50):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    backlog = {
        str(pk) for pk in Delivery.objects.filter(endpoint__club=club).values_list("pk", flat=True)
    }
    hook = Endpoint.objects.create(club=bobs_club, url=alive.url, events=["match.started"])

    def backlog_tasks() -> list[DBTaskResult]:
        deliver = DBTaskResult.objects.filter(task_path="webhooks.tasks.deliver")
        return [task for task in deliver if str(task.args_kwargs["args"][0]) in backlog]

    workers("--sweep-every", "1", "--overdue-after", "5", WEBHOOKS_TIMEOUT_SECONDS="60")
    assert dead.wait_for(2, timeout=60)  # both places held
    harness.wait_until(  # every delivery of the backlog taken up once
        lambda: all(task.status != TaskResultStatus.READY for task in backlog_tasks()),
        what="the backlog's tasks run",
    )
    settled = len(backlog_tasks())
    theirs = Delivery.objects.filter(endpoint=hook)
    for match in range(3):  # each message after the first needs a sweep: its task is lost
        with transaction.atomic():  # lost before a worker can take it
            events.write(club_id=bobs_club.pk, type=EventType.MATCH_STARTED, data={"match": match})
            if match:
                lost = theirs.latest("pk")
                DBTaskResult.objects.filter(pk=lost.task_id).delete()
                a_minute_ago = timezone.now() - timedelta(minutes=1)
                theirs.filter(pk=lost.pk).update(
                    queued_for=a_minute_ago, next_attempt_at=a_minute_ago
                )
        harness.wait_until(
            lambda count=match + 1: theirs.filter(status="succeeded").count() == count,
            what=f"the other club's message {match + 1}",
        )
    assert len(backlog_tasks()) == settled  # three sweeps later, no task more for the backlog
    assert len(dead.ids) == 2


def test_a_backlog_written_while_no_worker_ran_is_not_queued_ahead_of_other_clubs(
    club, bobs_club, receivers, workers
):
    """A club's webhooks, known to answer, whose receivers now hang, and 180 deliveries
    written while no worker ran (a deploy, a crash); then one event of another club. Before,
    each delivery was queued as it was written: the worker took up the whole backlog, one task
    at a time, before the other club's message, which waited a minute or more. Now a club has
    at most its places' worth of attempts on the queue; the rest wait, with no task, to be
    woken as attempts end."""
    dead, alive = receivers(10_000), receivers(0)
    Endpoint.objects.bulk_create(
        Endpoint(
            club=club, url=f"{dead.url}?{i}", events=["match.started"], succeeded_at=timezone.now()
        )
        for i in range(3)
    )
    for match in range(60):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    hook = Endpoint.objects.create(club=bobs_club, url=alive.url, events=["match.started"])
    events.write(club_id=bobs_club.pk, type=EventType.MATCH_STARTED, data={"match": 0})
    backlog = {
        str(pk) for pk in Delivery.objects.filter(endpoint__club=club).values_list("pk", flat=True)
    }
    assert len(backlog) == 180

    workers()
    harness.wait_until(
        lambda: Delivery.objects.filter(endpoint=hook, status="succeeded").exists(),
        what="the other club's message",
    )

    deliver = DBTaskResult.objects.filter(task_path="webhooks.tasks.deliver")
    queued = [task for task in deliver if str(task.args_kwargs["args"][0]) in backlog]
    # the club's places' worth, and what a sweep woke before those attempts began: not the
    # backlog, which waits with no task
    assert len(queued) <= 2 * tasks.CLUB_IN_FLIGHT
    waiting = Delivery.objects.filter(endpoint__club=club, task_id=tasks.WAITING).count()
    assert waiting >= len(backlog) - 2 * tasks.CLUB_IN_FLIGHT


def test_a_hanging_webhook_holds_one_of_its_clubs_places_not_both(club, receivers, workers):
    """A failing webhook has one attempt at a time: while its receiver hangs, the club's other
    webhook is delivered in the other place instead of waiting behind the hanging one's
    retries (minutes, before)."""
    dead, alive = receivers(10_000), receivers(0)
    hanging = Endpoint.objects.create(
        club=club, url=dead.url, events=["match.started"], failure_count=1
    )  # its receiver has failed before
    Endpoint.objects.create(  # known to answer
        club=club, url=alive.url, events=["match.started"], succeeded_at=timezone.now()
    )
    for match in range(20):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    theirs = Delivery.objects.filter(endpoint__club=club).exclude(endpoint=hanging)

    workers()
    harness.wait_until(
        lambda: theirs.filter(status="succeeded").count() == 20,
        what="the healthy webhook's twenty deliveries",
    )
    # the hanging receiver was sent one attempt at a time, each held to the 10-second timeout
    assert len(dead.ids) <= 2


def test_a_clubs_failing_webhooks_share_one_place(club, receivers, workers):
    """Two webhooks whose receivers hang (both failed before) and a healthy one: the failing
    two take one place between them, so the healthy one's deliveries are all made while the
    first hanging attempt still waits for its answer. Before, each failing webhook took a
    place, and the healthy one waited for a timeout."""
    dead, alive = receivers(10_000), receivers(0)
    failing = [
        Endpoint.objects.create(
            club=club, url=f"{dead.url}?{i}", events=["match.started"], failure_count=1
        )
        for i in range(2)
    ]
    Endpoint.objects.create(  # known to answer
        club=club, url=alive.url, events=["match.started"], succeeded_at=timezone.now()
    )
    for match in range(10):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    healthy = Delivery.objects.filter(endpoint__club=club).exclude(endpoint__in=failing)

    workers(WEBHOOKS_TIMEOUT_SECONDS="30")  # a hanging attempt ends at 30 s, long after these
    harness.wait_until(
        lambda: healthy.filter(status="succeeded").count() == 10,
        what="the healthy webhook's ten deliveries",
    )
    assert len(dead.ids) <= 1  # one hanging attempt at a time among the failing webhooks
    assert not Attempt.objects.filter(delivery__endpoint__in=failing).exists()  # none over


@pytest.mark.parametrize("hanging", [1, 3])
def test_new_webhooks_that_hang_hold_one_place_before_they_ever_failed(
    club, receivers, workers, hanging
):
    """New webhooks whose receivers hang on their first messages, and one known to answer: a
    webhook has one attempt at a time, and the new ones, never answered yet, share one of the
    club's places, so the known one is served in the other while the first hanging attempt
    still waits. Before, a new one's first two attempts took both places for the whole
    timeout; then two new ones took them, one each, and the known one waited a timeout for
    each."""
    dead, alive = receivers(10_000), receivers(0)
    new = [
        Endpoint.objects.create(club=club, url=f"{dead.url}?{i}", events=["match.started"])
        for i in range(hanging)
    ]
    Endpoint.objects.create(  # known to answer
        club=club, url=alive.url, events=["match.started"], succeeded_at=timezone.now()
    )
    for match in range(10):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    known = Delivery.objects.filter(endpoint__club=club).exclude(endpoint__in=new)

    workers(WEBHOOKS_TIMEOUT_SECONDS="30")
    harness.wait_until(
        lambda: known.filter(status="succeeded").count() == 10,
        what="the known webhook's ten deliveries",
    )
    assert len(dead.ids) <= 1  # one hanging attempt at a time, still waiting for its answer
    assert not Attempt.objects.filter(delivery__endpoint__in=new).exists()


def test_a_new_webhook_that_answers_is_known_from_then_on(club, monkeypatch):
    """A new webhook's first success makes it known: its next deliveries no longer wait for the
    club's new or failing webhooks' place."""
    from webhooks import sending, tasks

    hook = Endpoint.objects.create(club=club, url="http://127.0.0.1:9/a", events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()
    monkeypatch.setattr(sending, "send", lambda **message: sending.Outcome(204))
    before = timezone.now()
    tasks.attempt(delivery_id=delivery.pk, number=1, task_id=delivery.task_id)
    hook.refresh_from_db()
    assert hook.succeeded_at is not None and hook.succeeded_at >= before


def busy_club(club, waiting: int) -> tuple[list[Delivery], list[Delivery]]:
    """The club's two places taken by attempts running, and ``waiting`` more deliveries due,
    each of a webhook of its own (a webhook has one attempt at a time)."""
    from webhooks import tasks

    hooks = Endpoint.objects.bulk_create(
        Endpoint(club=club, url=f"http://127.0.0.1:9/{i}", events=["match.started"])
        for i in range(tasks.CLUB_IN_FLIGHT + 1)
    )
    for match in range(waiting):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    running = [Delivery.objects.filter(endpoint=hook).earliest("pk") for hook in hooks[:-1]]
    later = timezone.now() + tasks.lease()
    Delivery.objects.filter(pk__in=[d.pk for d in running]).update(leased_until=later)
    Delivery.objects.filter(endpoint__in=hooks[:-1]).exclude(
        pk__in=[d.pk for d in running]
    ).delete()
    return running, list(Delivery.objects.filter(endpoint=hooks[-1]).order_by("pk"))


def ready_tasks(deliveries: list[Delivery]) -> list[str]:
    """The ready tasks that would attempt these deliveries: each one's own task, if it is on
    the queue (a copy queued before, left in the table, is stale and does nothing)."""
    from webhooks import tasks

    own = Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).exclude(task_id=tasks.WAITING)
    ready = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
    return [
        str(task.pk) for task in ready.filter(pk__in=list(own.values_list("task_id", flat=True)))
    ]


def test_a_busy_clubs_waiting_deliveries_are_not_taken_up_by_the_sweep(club, bobs_club):
    """A club at its CLUB_IN_FLIGHT limit: its other deliveries wait with no task on the queue.
    Before, each was put back 30 s with a task of its own, and the sweep, reading a delivery
    due long ago with no lease as a lost task, queued the whole backlog again at once, every
    sweep: hundreds of tasks that each found the club full, ahead of other clubs' new ones
    (another club's messages came 5 to 30 s late)."""
    from webhooks import tasks

    running, waiting = busy_club(club, 40)
    for delivery in waiting:
        tasks.attempt(delivery_id=delivery.pk, number=1, task_id=delivery.task_id)
    assert ready_tasks(waiting) == []
    assert set(
        Delivery.objects.filter(pk__in=[d.pk for d in waiting]).values_list("task_id", flat=True)
    ) == {tasks.WAITING}

    Endpoint.objects.create(club=bobs_club, url="http://127.0.0.1:9/new", events=["match.started"])
    events.write(club_id=bobs_club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    new = Delivery.objects.get(endpoint__club=bobs_club)
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)  # they have waited long since
    Delivery.objects.filter(pk__in=[d.pk for d in waiting]).update(next_attempt_at=ten_minutes_ago)
    assert tasks.requeue_overdue() == 0  # none lost, the club full
    assert ready_tasks(waiting) == []
    assert ready_tasks([new]) == [new.task_id]


def test_the_sweep_wakes_a_waiting_delivery_when_no_ending_attempt_did(club):
    """The club's attempts ended without waking anyone (their worker stopped between writing
    the outcome and the wake): the next sweep wakes the longest-waiting delivery."""
    from webhooks import tasks

    running, waiting = busy_club(club, 3)
    for delivery in waiting:
        tasks.attempt(delivery_id=delivery.pk, number=1, task_id=delivery.task_id)
    Delivery.objects.filter(pk__in=[d.pk for d in running]).update(
        status="succeeded", leased_until=None
    )
    assert tasks.requeue_overdue() == 1
    first = Delivery.objects.get(pk=waiting[0].pk)
    assert ready_tasks(waiting) == [first.task_id]
    task = DBTaskResult.objects.get(pk=first.task_id)
    assert (task.run_after - timezone.now()).total_seconds() <= 1


def test_a_task_waiting_on_a_busy_queue_is_late_not_lost(club):
    """Every worker loop busy for longer than the sweep's delay: the tasks still on the queue
    are only late. Before, the sweep took them for lost and queued them again at the back of
    the queue, each sweep, so the oldest deliveries were overtaken by newer ones (and came
    last, in reverse order), and every sweep left a stale task behind; a task a worker had
    just taken, before it took its lease, was killed alike. A task that is lost (gone from the
    queue) goes back in the place it had, the oldest first."""
    from webhooks import tasks

    Endpoint.objects.create(club=club, url="http://127.0.0.1:9/a", events=["match.started"])
    for match in (1, 2):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    first, second = Delivery.objects.order_by("pk")
    ten, five = (timezone.now() - timedelta(minutes=minutes) for minutes in (10, 5))
    Delivery.objects.filter(pk=first.pk).update(queued_for=ten, next_attempt_at=ten)
    Delivery.objects.filter(pk=second.pk).update(queued_for=five, next_attempt_at=five)
    queued = {d.pk: d.task_id for d in (first, second)}

    assert tasks.requeue_overdue() == 0
    assert {d.pk: d.task_id for d in Delivery.objects.all()} == queued
    assert DBTaskResult.objects.filter(status=TaskResultStatus.READY).count() == 2
    # a worker takes the first: about to take its lease, it is not lost either
    DBTaskResult.objects.filter(pk=first.task_id).update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now()
    )
    assert tasks.requeue_overdue() == 0
    assert {d.pk: d.task_id for d in Delivery.objects.all()} == queued

    DBTaskResult.objects.all().delete()  # lost
    assert tasks.requeue_overdue() == 2
    ready = DBTaskResult.objects.filter(status=TaskResultStatus.READY).order_by("run_after")
    by_delivery = {d.task_id: d.pk for d in Delivery.objects.all()}
    assert [by_delivery[str(task.pk)] for task in ready] == [first.pk, second.pk]
    assert [task.run_after for task in ready] == [ten, five]


def test_a_task_its_killed_worker_left_running_is_marked_failed(club):
    """The worker was killed after taking the task and before the attempt's lease: the sweep
    queues the attempt again and marks the old task failed, instead of leaving it running in
    the queue's table for ever (it was never cleaned up)."""
    from webhooks import tasks

    Endpoint.objects.create(club=club, url="http://127.0.0.1:9/a", events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()
    left = delivery.task_id
    an_hour_ago = timezone.now() - timedelta(hours=1)
    DBTaskResult.objects.filter(pk=left).update(status=TaskResultStatus.RUNNING)
    Delivery.objects.update(queued_for=an_hour_ago, next_attempt_at=an_hour_ago)

    assert tasks.requeue_overdue() == 1
    assert DBTaskResult.objects.get(pk=left).status == TaskResultStatus.FAILED
    delivery.refresh_from_db()
    assert delivery.task_id != left and ready_tasks([delivery]) == [delivery.task_id]


def test_a_wake_leaves_an_attempt_cut_off_to_the_sweep(club):
    """An attempt's lease ran out (its worker was killed during it): an attempt of the club
    that ends must not queue it again as if it were waiting. Before, the wake replaced its
    task, the next attempt was made under the same number, the cut-off one was never written
    in the history, and its task stayed running in the queue's table for ever."""
    from webhooks import tasks

    Endpoint.objects.create(club=club, url="http://127.0.0.1:9/a", events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    delivery = Delivery.objects.get()
    cut = delivery.task_id
    a_while_ago = timezone.now() - timedelta(minutes=5)
    DBTaskResult.objects.filter(pk=cut).update(status=TaskResultStatus.RUNNING)
    Delivery.objects.update(
        leased_until=timezone.now() - timedelta(seconds=1), next_attempt_at=a_while_ago
    )

    assert tasks._wake_next(club.pk, now=timezone.now()) == 0
    assert Delivery.objects.get().task_id == cut
    assert tasks.requeue_overdue() == 1
    made = Delivery.objects.get()
    assert list(made.history.values_list("number", "error")) == [(1, "worker_stopped")]
    assert DBTaskResult.objects.get(pk=cut).status == TaskResultStatus.FAILED


@pytest.mark.parametrize("late", ["-1", "soon", "inf"])
def test_an_overdue_delay_that_is_no_number_of_seconds_is_refused(late):
    """A negative delay would count deliveries not yet due as overdue."""
    with pytest.raises(CommandError, match="is not a number of seconds, 0 or more"):
        call_command("worker", "--batch", "--overdue-after", late)


def test_an_attempt_that_ends_wakes_the_clubs_next_waiting_one(club, monkeypatch):
    """A club at its CLUB_IN_FLIGHT limit has its next attempt wait, with no task; when one
    of its running attempts ends, the longest-waiting one is queued again at once. Before, a
    waiting attempt was put back 2 s and taken up again every 2 s: a club's backlog of retries
    went round the queue ahead of other clubs' new deliveries (another club's waited a median
    14.5 s behind 295 of them)."""
    from django_tasks_db.models import DBTaskResult

    from webhooks import sending, tasks

    for name in ("first", "second", "third"):  # a webhook has one attempt at a time: three
        Endpoint.objects.create(  # each known to answer
            club=club,
            url=f"http://127.0.0.1:9/{name}",
            events=["match.started"],
            succeeded_at=timezone.now(),
        )
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    first, second, waiting = Delivery.objects.order_by("pk")
    later = timezone.now() + tasks.lease()
    Delivery.objects.filter(pk__in=[first.pk, second.pk]).update(leased_until=later)  # running

    def run_after(delivery: Delivery) -> float:
        delivery.refresh_from_db()
        task = DBTaskResult.objects.get(pk=delivery.task_id)
        return (task.run_after - timezone.now()).total_seconds()

    tasks.attempt(delivery_id=waiting.pk, number=1)  # the club is full: it waits, no task
    waiting.refresh_from_db()
    assert waiting.task_id == tasks.WAITING and ready_tasks([waiting]) == []
    put_back = waiting.task_id
    Delivery.objects.filter(pk=first.pk).update(leased_until=None)  # its lease, to take again
    monkeypatch.setattr(sending, "send", lambda **message: sending.Outcome(204))
    tasks.attempt(delivery_id=first.pk, number=1)  # it ends, and frees its place
    first.refresh_from_db()
    assert first.status == "succeeded"
    assert run_after(waiting) <= 1 and waiting.task_id != put_back  # woken: queued for now


def test_the_wake_passes_over_a_webhook_whose_attempt_is_running(club, monkeypatch):
    """A hanging webhook's backlog came first by age, so the wake after each of the healthy
    webhook's attempts went to a delivery that could not run (its webhook had an attempt
    running), and the healthy webhook's next waited out its 30 s. The wake now skips a webhook
    with an attempt running: the healthy one's next delivery goes at once."""
    from django_tasks_db.models import DBTaskResult

    from webhooks import sending, tasks

    known = {"events": ["match.started"], "succeeded_at": timezone.now()}  # both answered before
    hanging = Endpoint.objects.create(club=club, url="http://127.0.0.1:9/h", **known)
    healthy = Endpoint.objects.create(club=club, url="http://127.0.0.1:9/g", **known)
    for match in range(2):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    h1, h2 = Delivery.objects.filter(endpoint=hanging).order_by("pk")
    g1, g2 = Delivery.objects.filter(endpoint=healthy).order_by("pk")
    later = timezone.now() + tasks.lease()
    Delivery.objects.filter(pk__in=[h1.pk, g1.pk]).update(leased_until=later)  # both running
    tasks.attempt(delivery_id=g2.pk, number=1)  # the club is full: put back
    put_back = {d.pk: Delivery.objects.get(pk=d.pk).task_id for d in (g2, h2)}

    Delivery.objects.filter(pk=g1.pk).update(leased_until=None)  # its lease, to take again
    monkeypatch.setattr(sending, "send", lambda **message: sending.Outcome(204))
    tasks.attempt(delivery_id=g1.pk, number=1)  # it ends: the wake follows

    g2.refresh_from_db()
    h2.refresh_from_db()
    assert g2.task_id != put_back[g2.pk]  # woken
    task = DBTaskResult.objects.get(pk=g2.task_id)
    assert (task.run_after - timezone.now()).total_seconds() <= 1
    assert h2.task_id == put_back[h2.pk]  # its webhook's attempt still runs: left waiting

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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from matches import events
from matches.models import EventType
from tests import harness
from tests.factories import client_for
from tests.matches.test_workers import server_env
from webhooks import services
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
        harness.stop(process)


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


def test_a_hanging_webhook_holds_one_of_its_clubs_places_not_both(club, receivers, workers):
    """A failing webhook has one attempt at a time: while its receiver hangs, the club's other
    webhook is delivered in the other place instead of waiting behind the hanging one's
    retries (minutes, before)."""
    dead, alive = receivers(10_000), receivers(0)
    hanging = Endpoint.objects.create(
        club=club, url=dead.url, events=["match.started"], failure_count=1
    )  # its receiver has failed before
    Endpoint.objects.create(club=club, url=alive.url, events=["match.started"])
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
    Endpoint.objects.create(club=club, url=alive.url, events=["match.started"])
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


def test_a_new_webhook_that_hangs_holds_one_place_before_it_ever_failed(club, receivers, workers):
    """A webhook has one attempt at a time, failing or not: a new receiver that hangs on its
    first messages holds one of the club's places, and the club's other webhook is served in
    the other. Before, its first two attempts took both places for the whole timeout."""
    dead, alive = receivers(10_000), receivers(0)
    hanging = Endpoint.objects.create(club=club, url=dead.url, events=["match.started"])
    Endpoint.objects.create(club=club, url=alive.url, events=["match.started"])
    for match in range(10):
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": match})
    healthy = Delivery.objects.filter(endpoint__club=club).exclude(endpoint=hanging)

    workers(WEBHOOKS_TIMEOUT_SECONDS="30")
    harness.wait_until(
        lambda: healthy.filter(status="succeeded").count() == 10,
        what="the other webhook's ten deliveries",
    )
    assert len(dead.ids) <= 1  # one attempt at a time, still waiting for its answer
    assert not Attempt.objects.filter(delivery__endpoint=hanging).exists()


def test_a_clubs_put_back_attempts_never_go_before_another_clubs_new_ones(club, bobs_club):
    """A club with CLUB_IN_FLIGHT attempts running has its next one put back DEFER from now.
    The queue takes tasks by the time they may run, and a task queued with no time sorted after
    every task with one: the busy club's put-back attempts, due again every 2 s, went before
    another club's new ones for as long as it had any (a minute behind a 20-second receiver).
    New attempts are queued at the time they are made, so a put-back one comes after them."""
    from django_tasks_db.models import DBTaskResult

    from webhooks import tasks

    Endpoint.objects.create(club=club, url="http://127.0.0.1:9/busy", events=["match.started"])
    Endpoint.objects.create(club=bobs_club, url="http://127.0.0.1:9/new", events=["match.started"])
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    busy = Delivery.objects.get(endpoint__club=club)
    events.write(club_id=bobs_club.pk, type=EventType.MATCH_STARTED, data={"match": 2})
    new = Delivery.objects.get(endpoint__club=bobs_club)
    tasks.queue(busy, at=timezone.now() + tasks.DEFER)  # put back: its club is at its limit
    busy.refresh_from_db()
    ready = DBTaskResult.objects.filter(status="READY").order_by(*DBTaskResult._meta.ordering)
    order = [str(task.id) for task in ready]
    assert order.index(new.task_id) < order.index(busy.task_id)


@pytest.mark.parametrize("late", ["-1", "soon", "inf"])
def test_an_overdue_delay_that_is_no_number_of_seconds_is_refused(late):
    """A negative delay would count deliveries not yet due as overdue."""
    with pytest.raises(CommandError, match="is not a number of seconds, 0 or more"):
        call_command("worker", "--batch", "--overdue-after", late)


def test_an_attempt_that_ends_wakes_the_clubs_next_waiting_one(club, monkeypatch):
    """A club at its CLUB_IN_FLIGHT limit has its next attempt put back DEFER (30 s); when one
    of its running attempts ends, the longest-waiting one is queued again at once. Before, a
    waiting attempt was put back 2 s and taken up again every 2 s: a club's backlog of retries
    went round the queue ahead of other clubs' new deliveries (another club's waited a median
    14.5 s behind 295 of them)."""
    from django_tasks_db.models import DBTaskResult

    from webhooks import sending, tasks

    for name in ("first", "second", "third"):  # a webhook has one attempt at a time: three
        Endpoint.objects.create(
            club=club, url=f"http://127.0.0.1:9/{name}", events=["match.started"]
        )
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    first, second, waiting = Delivery.objects.order_by("pk")
    later = timezone.now() + tasks.lease()
    Delivery.objects.filter(pk__in=[first.pk, second.pk]).update(leased_until=later)  # running

    def run_after(delivery: Delivery) -> float:
        delivery.refresh_from_db()
        task = DBTaskResult.objects.get(pk=delivery.task_id)
        return (task.run_after - timezone.now()).total_seconds()

    tasks.attempt(delivery_id=waiting.pk, number=1)  # the club is full: put back
    assert run_after(waiting) > tasks.DEFER.total_seconds() - 5
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

    hanging = Endpoint.objects.create(
        club=club, url="http://127.0.0.1:9/h", events=["match.started"]
    )
    healthy = Endpoint.objects.create(
        club=club, url="http://127.0.0.1:9/g", events=["match.started"]
    )
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

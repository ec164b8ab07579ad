"""A club night on make run's embedded SQLite: every table, phone and sign-up writing at once.

The server and the webhook worker run as ``make run`` runs them (``manage.py runserver``, which
serves each request in a thread of its own, and ``manage.py worker``) on a throwaway SQLite
file. At each of four tables two phones enter every hand (one records it, the other's entry
confirms it) while a third writes the next hand's draft; newcomers sign up from one invitation
link, and the worker delivers a webhook for every hand to a receiver of the test's own, all at
the same moment. SQLite has one writer at a time: writers must queue for it
(``transaction_mode`` IMMEDIATE and a busy timeout, arlington_site/settings.py), never be
refused with a 503.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import signal
import sqlite3
import sys
import threading
from collections import Counter

import pytest

from bench.tables import Phone, Receiver, environment, manage, served
from tests import harness
from tests.factories import went_out
from tests.matches.gated_hasher import GATED_PASSWORD

TABLES = 4
HANDS = 6
SIGN_UPS = 8


@pytest.fixture
def busy_timeout() -> str:
    """How long the server's writers wait for SQLite's write lock (SQLITE_BUSY_TIMEOUT)."""
    return "20"


@pytest.fixture
def embedded_night(tmp_path, busy_timeout):
    """make run's server and worker on a fresh SQLite file with the demo club; the port."""
    env = environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", "local")
    env["SQLITE_BUSY_TIMEOUT"] = busy_timeout
    manage(env, "migrate", "--verbosity", "0")
    manage({**env, "DEBUG": "true"}, "seed_demo")
    with served("sqlite", env, 1, tmp_path / "server.log") as port:
        yield port


def test_a_club_night_on_the_embedded_database_queues_every_write(embedded_night):
    port = embedded_night
    status, answer = Phone(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    assert status == 200, answer
    owner = Phone(port, answer["token"])  # type: ignore[index]
    _, clubs = owner.call("GET", "/api/v1/clubs/")
    club = clubs["results"][0]["id"]  # type: ignore[index]
    players = []
    for n in range(TABLES * 3):
        status, player = owner.call("POST", "/api/v1/players/", {"club": club, "name": f"P{n}"})
        assert status == 201, player
        players.append(player["id"])  # type: ignore[index]
    matches = []
    for t in range(TABLES):
        seated = players[3 * t : 3 * t + 3]
        status, match = owner.call("POST", "/api/v1/matches/", {"club": club, "players": seated})
        assert status == 201, match
        matches.append((match["id"], seated))  # type: ignore[index]
    receiver = Receiver()
    harness.serve_in_thread(receiver)
    target = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    status, hook = owner.call(
        "POST", f"/api/v1/clubs/{club}/webhooks/", {"url": target, "events": ["hand.recorded"]}
    )
    assert status == 201, hook
    status, invitation = owner.call(
        "POST", f"/api/v1/clubs/{club}/invitations/", {"role": "viewer", "max_uses": SIGN_UPS}
    )
    assert status == 201, invitation

    phones: list[Phone] = []
    start = threading.Barrier(TABLES * 3 + SIGN_UPS)
    failures: list[BaseException] = []

    def scorekeeper(match: int, seated: list[int]) -> None:
        """One of the table's two phones entering every hand: each hand is recorded by
        whichever phone is first (201), and the other's entry confirms it (200)."""
        phone = Phone(port, owner.token)
        phones.append(phone)
        start.wait()
        for number in range(1, HANDS + 1):
            body = {**went_out(seated[number % 3], seated), "number": number}
            status, _ = phone.call("POST", f"/api/v1/matches/{match}/hands/", body)
            assert status in (200, 201), (match, number, status)

    def drafting_phone(match: int, seated: list[int]) -> None:
        phone = Phone(port, owner.token)
        phones.append(phone)
        start.wait()
        for _ in range(HANDS * 2):
            _, match_state = phone.call("GET", f"/api/v1/matches/{match}/")
            number = match_state["next_hand"]  # type: ignore[index]
            if number is None:
                return
            part = f"/api/v1/matches/{match}/hands/{number}/draft/players/{seated[0]}/"
            phone.call("PUT", part, {"melds": [], "hand": ["4H"], "version": 0})

    def newcomer(n: int) -> None:
        phone = Phone(port)
        phones.append(phone)
        start.wait()
        status, _ = phone.call(
            "POST",
            f"/api/v1/invitations/{invitation['code']}/signup/",  # type: ignore[index]
            {"username": f"newcomer{n}", "password": f"card-night-{n}-secret"},
        )
        assert status == 201, status

    def run(target: object, *args: object) -> None:
        try:
            target(*args)  # type: ignore[operator]
        except BaseException as failure:  # noqa: BLE001 (reported below, with every answer)
            failures.append(failure)
            start.abort()

    threads = [
        threading.Thread(target=run, args=(role, match, seated))
        for match, seated in matches
        for role in (scorekeeper, scorekeeper, drafting_phone)
    ]
    threads += [threading.Thread(target=run, args=(newcomer, n)) for n in range(SIGN_UPS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    answers = [answer for phone in phones for answer in phone.answers]
    refused = Counter((status, code) for _, status, code in answers if status >= 500 or not status)
    assert not refused, refused
    assert not failures, (failures, Counter(status for _, status, _ in answers))
    for match, _ in matches:
        entries = Counter(
            status for path, status, _ in answers if path == f"POST /api/v1/matches/{match}/hands/"
        )
        assert entries == {201: HANDS, 200: HANDS}  # each hand recorded once, confirmed once
        _, state = owner.call("GET", f"/api/v1/matches/{match}/")
        assert state["hands_played"] == HANDS  # type: ignore[index]
        _, hands = owner.call("GET", f"/api/v1/matches/{match}/hands/")
        assert [h["number"] for h in hands["results"]] == list(range(1, HANDS + 1))  # type: ignore[index]
    _, members = owner.call("GET", f"/api/v1/clubs/{club}/members/")
    joined = {m["user"] for m in members["results"]}  # type: ignore[index]
    assert {f"newcomer{n}" for n in range(SIGN_UPS)} <= joined


@pytest.mark.parametrize("busy_timeout", ["1"])
def test_a_write_lock_not_granted_in_time_is_a_busy_server_not_an_unreachable_one(
    embedded_night, tmp_path
):
    """Another writer holds SQLite's write lock past the busy timeout: the hand is refused
    with 503 database_busy and Retry-After, nothing written; once the lock is free, the same
    hand is recorded."""
    port = embedded_night
    _, answer = Phone(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    owner = Phone(port, answer["token"])  # type: ignore[index]
    _, matches = owner.call("GET", "/api/v1/matches/?status=in_progress")
    match = matches["results"][0]  # type: ignore[index]
    seated = [seat["player"] for seat in match["seats"]]
    body = went_out(seated[0], seated)
    holder = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, holding the write lock
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request(
            "POST",
            f"/api/v1/matches/{match['id']}/hands/",
            json.dumps(body),
            {"Content-Type": "application/json", "Authorization": f"Token {owner.token}"},
        )
        response = conn.getresponse()
        refused = json.loads(response.read())
        retry_after = response.getheader("Retry-After")
        conn.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert response.status == 503
    assert refused["type"] == "server_error"
    assert [e["code"] for e in refused["errors"]] == ["database_busy"]
    assert retry_after is not None and int(retry_after) > 0
    _, after = owner.call("GET", f"/api/v1/matches/{match['id']}/")
    assert after["hands_played"] == match["hands_played"]  # type: ignore[index]
    status, recorded = owner.call("POST", f"/api/v1/matches/{match['id']}/hands/", body)
    assert status == 201, recorded


@pytest.mark.parametrize("busy_timeout", ["0.5"])
def test_a_read_is_answered_while_another_writer_holds_the_write_lock(embedded_night, tmp_path):
    """A new token's first request writes when it was used, before the request itself: with
    another writer holding SQLite's write lock past the busy timeout, that bookkeeping waits
    for the next request, and the read is answered, not refused as a busy server (503)."""
    port = embedded_night
    status, answer = Phone(port).call(
        "POST", "/api/v1/auth/tokens/", {"username": "demo", "password": "demo-arlington"}
    )
    assert status == 201, answer
    reader = Phone(port, answer["token"])  # type: ignore[index]
    holder = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, holding the write lock
    try:
        status, matches = reader.call("GET", "/api/v1/matches/?status=in_progress")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert status == 200, matches
    assert matches["results"]  # type: ignore[index]


def test_a_sign_up_hashing_its_password_holds_no_table_back(tmp_path):
    """SQLite has one writer at a time: a sign-up that hashed its password (a quarter of a
    second, and far longer on a busy phone server) inside its transaction would hold every
    table's writes back meanwhile. The test holds the server in the middle of a sign-up's
    hashing and writes meanwhile; the write must not wait for the hashing to end."""
    gate = tmp_path / "gate"
    gate.mkdir()
    env = environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", "local")
    env.update(
        SQLITE_BUSY_TIMEOUT="5",  # a write held back is refused after 5 s, not queued for ever
        DJANGO_SETTINGS_MODULE="tests.matches.gated_settings",
        HASH_GATE_DIR=str(gate),
    )
    manage(env, "migrate", "--verbosity", "0")
    manage({**env, "DEBUG": "true"}, "seed_demo")
    with served("sqlite", env, 1, tmp_path / "server.log") as port:
        _, answer = Phone(port).call(
            "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
        )
        owner = Phone(port, answer["token"])  # type: ignore[index]
        _, clubs = owner.call("GET", "/api/v1/clubs/")
        club = clubs["results"][0]["id"]  # type: ignore[index]
        _, invitation = owner.call(
            "POST", f"/api/v1/clubs/{club}/invitations/", {"role": "viewer", "max_uses": 1}
        )
        signed_up: list[int] = []

        def sign_up() -> None:
            status, _ = Phone(port).call(
                "POST",
                f"/api/v1/invitations/{invitation['code']}/signup/",  # type: ignore[index]
                {"username": "newcomer", "password": GATED_PASSWORD},
            )
            signed_up.append(status)

        newcomer = threading.Thread(target=sign_up)
        newcomer.start()
        try:
            harness.wait_until((gate / "hashing").exists, what="the sign-up hashing", seconds=60)
            status, player = owner.call("POST", "/api/v1/players/", {"club": club, "name": "Vi"})
            assert status == 201, player  # written while the sign-up still hashes
        finally:
            (gate / "go").touch()
            newcomer.join(timeout=120)
    assert signed_up == [201]


NIGHTS = 4


def test_draws_and_corrections_reopening_round_1_at_once_on_the_embedded_database(
    embedded_night,
):
    """On make run's SQLite, with its worker: four nights, each of two players with rounds 1
    and 2 played, where a director draws round 3 at the moment a scorekeeper corrects round
    1's last hand so that its table is played on. SQLite lets one writer in at a time, so each
    night ends one of two ways: the correction first, and the draw held back (409 naming
    round 1); or the draw first, and the correction after it, which the club's feed shows
    (its positions follow the commits): round 3's match.started before the hand.corrected."""
    port = embedded_night
    _, answer = Phone(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    owner = Phone(port, answer["token"])  # type: ignore[index]
    _, clubs = owner.call("GET", "/api/v1/clubs/")
    club = clubs["results"][0]["id"]  # type: ignore[index]

    def finish(match: int, seated: list[int]) -> None:
        for _ in range(3):
            status, hand = owner.call(
                "POST", f"/api/v1/matches/{match}/hands/", went_out(seated[0], seated)
            )
            assert status == 201, hand

    nights = []
    for n in range(NIGHTS):
        pair = []
        for seat in range(2):
            status, player = owner.call(
                "POST", "/api/v1/players/", {"club": club, "name": f"Night {n} seat {seat}"}
            )
            assert status == 201, player
            pair.append(player["id"])  # type: ignore[index]
        status, night = owner.call(
            "POST", "/api/v1/tournaments/", {"club": club, "name": f"Night {n}", "players": pair}
        )
        assert status == 201, night
        first_table = None
        for _ in range(2):
            status, drawn = owner.call("POST", f"/api/v1/tournaments/{night['id']}/rounds/", {})  # type: ignore[index]
            assert status == 201, drawn
            table = drawn["tables"][0]  # type: ignore[index]
            seated = [seat["player"] for seat in table["seats"]]
            finish(table["match"], seated)
            first_table = first_table or (table["match"], seated)
        nights.append((night["id"], *first_table))  # type: ignore[index]

    start = threading.Barrier(2 * NIGHTS)
    answers: dict[tuple[int, str], tuple[int, object]] = {}

    def draw(night: int) -> None:
        phone = Phone(port, owner.token)
        start.wait()
        answers[night, "draw"] = phone.call("POST", f"/api/v1/tournaments/{night}/rounds/", {})

    def correction(night: int, match: int, seated: list[int]) -> None:
        phone = Phone(port, owner.token)
        start.wait()
        answers[night, "correction"] = phone.call(
            "PUT",
            f"/api/v1/matches/{match}/hands/3/",
            went_out(seated[1], seated),
            {"If-Match": "*"},
        )

    threads = [threading.Thread(target=draw, args=(night,)) for night, _, _ in nights]
    threads += [threading.Thread(target=correction, args=entry) for entry in nights]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    _, feed = owner.call("GET", f"/api/v1/clubs/{club}/events/?after=0&limit=500")
    position = {
        (event["type"], event["data"]["match"]): event["position"]
        for event in feed["results"]  # type: ignore[index]
        if event["type"] in ("match.started", "hand.corrected")
    }
    for night, match, _ in nights:
        drawn_status, drawn = answers[night, "draw"]
        corrected_status, corrected = answers[night, "correction"]
        assert corrected_status == 200, corrected
        _, state = owner.call("GET", f"/api/v1/matches/{match}/")
        assert state["status"] == "in_progress"  # type: ignore[index]
        _, rounds = owner.call("GET", f"/api/v1/tournaments/{night}/rounds/")
        if drawn_status == 409:
            assert drawn["errors"][0]["code"] == "round_in_progress"  # type: ignore[index]
            assert drawn["errors"][0]["detail"].startswith("Round 1 ")  # type: ignore[index]
            assert len(rounds) == 2
        else:
            assert drawn_status == 201, drawn
            assert len(rounds) == 3
            third = drawn["tables"][0]["match"]  # type: ignore[index]
            assert position["match.started", third] < position["hand.corrected", match]


def test_sixty_phones_connecting_at_the_same_moment_are_all_answered(embedded_night):
    """Django's development server keeps 10 connections waiting to be accepted; make run's
    keeps as many as the system allows, so that a room of phones tapping at once is queued,
    not reset."""
    port = embedded_night
    start = threading.Barrier(60)
    outcomes: Counter[object] = Counter()
    lock = threading.Lock()

    def phone() -> None:
        start.wait()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            body = json.dumps({"cards": ["5H", "6H", "7H"]})
            headers = {"Content-Type": "application/json"}
            connection.request("POST", "/api/v1/rulings/meld/", body, headers)
            outcome: object = connection.getresponse().status
        except OSError as error:
            outcome = type(error).__name__
        finally:
            connection.close()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=phone) for _ in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == Counter({200: 60})


def test_an_offer_and_a_write_of_one_part_at_once_on_the_embedded_database(embedded_night):
    """Two phones at once on make run's server: one writes Ann's part, the other offers its
    version beside the one it saw. SQLite takes one writer at a time; the second decides from
    what it reads once it has the lock, so no offer outlives the write, ten times over."""
    port = embedded_night
    _, answer = Phone(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    token = answer["token"]  # type: ignore[index]
    _, matches = Phone(port, token).call("GET", "/api/v1/matches/?status=in_progress")
    match = matches["results"][0]  # type: ignore[index]
    number = match["hands_played"] + 1
    ann = match["seats"][0]["player"]
    part = f"/api/v1/matches/{match['id']}/hands/{number}/draft/players/{ann}/"
    status, _ = Phone(port, token).call("PUT", part, {"hand": ["4H"], "version": 0})
    assert status == 200

    def send(kind: str, version: int, together: threading.Barrier, answers: dict) -> None:
        together.wait(timeout=60)
        if kind == "write":
            body = {"hand": ["4H", f"{version % 9 + 2}C"], "version": version}
            answers[kind] = Phone(port, token).call("PUT", part, body)[0]
        else:
            body = {"melds": [["5S", "6S", "7S"]], "hand": [], "version": version}
            answers[kind] = Phone(port, token).call("PUT", f"{part}contest/", body)[0]

    for version in range(1, 11):
        together, answers = threading.Barrier(2), {}
        threads = [
            threading.Thread(target=send, args=(kind, version, together, answers))
            for kind in ("write", "offer")
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert answers["write"] == 200 and answers["offer"] in (200, 409), answers
        _, draft = Phone(port, token).call(
            "GET", f"/api/v1/matches/{match['id']}/hands/{number}/draft/"
        )
        (seen,) = [p for p in draft["players"] if p["player"] == ann]  # type: ignore[index]
        assert (seen["version"], seen["contest"]) == (version + 1, None)


def test_the_worker_outlasts_a_write_lock_held_past_the_busy_timeout(tmp_path):
    """make run's worker on SQLite: a writer (a request stuck in a slow step) holds the write
    lock longer than SQLITE_BUSY_TIMEOUT while the worker's task loops begin their claims.
    The loops wait it out and go on: once the lock is free, a task queued is run. Before, the
    claim's failed BEGIN ended its loop and the worker stopped, its deliveries left pending."""
    database, env, log = tmp_path / "db.sqlite3", sqlite_env(tmp_path, "0.2"), tmp_path / "w.log"
    worker = harness.start(worker_command(), env=env, log=log)
    try:
        harness.wait_until(
            lambda: queued(database) >= 1,
            what="the worker queuing its clean-up",
            processes=[worker],
        )
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer, holding the write lock
        try:
            harness.wait_until(
                lambda: worker.poll() is not None or "stayed locked" in log.read_text(),
                what="a task loop finding the database locked past its timeout",
            )
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert worker.poll() is None, log.read_text()
        manage(env, "shell", "-c", "from webhooks import tasks; tasks.prune.enqueue()")
        harness.wait_until(
            lambda: succeeded(database) >= 1,
            what="the task queued after the lock was freed run",
            processes=[worker],
            log=log,
        )
    finally:
        harness.stop(worker)


def test_a_worker_stopped_while_it_waits_for_the_write_lock_exits_cleanly(tmp_path):
    """A stop (SIGTERM) that comes while a task loop waits for SQLite's write lock is a stop:
    the loop ends quietly and the worker exits with status 0, as for any other stop, with no
    error's traceback in its log."""
    database, env, log = tmp_path / "db.sqlite3", sqlite_env(tmp_path, "2"), tmp_path / "w.log"
    command = worker_command("--no-startup-delay", "--concurrency", "1")
    worker = harness.start(command, env=env, log=log)
    holder = sqlite3.connect(database, isolation_level=None)
    try:
        harness.wait_until(
            lambda: queued(database) >= 1,
            what="the worker queuing its clean-up",
            processes=[worker],
        )
        holder.execute("BEGIN IMMEDIATE")  # another writer, holding the write lock
        harness.wait_until(
            lambda: "stayed locked" in log.read_text(),
            what="the task loop waiting for the lock, once already",
            processes=[worker],
        )
        worker.send_signal(signal.SIGTERM)  # its next claim is waiting for the lock now
        assert worker.wait(timeout=60) == 0, log.read_text()
        assert "Exception in thread" not in log.read_text()
    finally:
        holder.close()
        harness.stop(worker)


def sqlite_env(tmp_path, busy_timeout: str) -> dict[str, str]:
    """make run's settings on a fresh, migrated SQLite file in ``tmp_path`` (``db.sqlite3``),
    writers waiting ``busy_timeout`` seconds for the lock, warnings logged."""
    env = environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", "local")
    env.update(SQLITE_BUSY_TIMEOUT=busy_timeout, LOG_LEVEL="WARNING", DEBUG="true")
    manage(env, "migrate", "--verbosity", "0")
    return env


def worker_command(*options: str) -> list[str]:
    """make run's worker, its loops asking for tasks every 0.1 s, no sweep during a test."""
    command = [sys.executable, "manage.py", "worker", "--no-reload", "--verbosity", "0"]
    return [*command, "--interval", "0.1", "--sweep-every", "3600", *options]


def queued(database) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT count(*) FROM django_tasks_database_dbtaskresult").fetchone()[0]


def succeeded(database) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        query = (
            "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'SUCCESSFUL'"
        )
        return db.execute(query).fetchone()[0]

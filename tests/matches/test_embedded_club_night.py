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

import http.client
import http.server
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.factories import went_out
from tests.matches.servers import stop_group
from tests.matches.test_workers import ROOT, free_port

TABLES = 4
HANDS = 6
SIGN_UPS = 8


def embedded_env(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_BACKEND"}}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DEBUG="true",
        SECRET_KEY="embedded-club-night-test",
        PYTHONPATH=str(ROOT),
        WEBHOOKS_ALLOW_PRIVATE_TARGETS="true",
        # a whole club behind one address: the limits are not what this test is about
        ANON_THROTTLE_RATE="10000/min",
        USER_THROTTLE_RATE="10000/min",
        AUTH_THROTTLE_RATE="10000/min",
        AUTH_ACCOUNT_THROTTLE_RATE="10000/min",
        INVITATION_THROTTLE_RATE="10000/min",
        LOG_LEVEL="WARNING",
        DJANGO_LOG_LEVEL="ERROR",
    )
    return env


class Client:
    """One phone: its own connection to the server, its token, the answers it got."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port, self.token = port, token
        self.statuses: list[tuple[str, int, str]] = []

    def call(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        data = json.loads(raw) if raw and raw[:1] in b"[{" else None
        code = ""
        if response.status >= 400 and isinstance(data, dict) and data.get("errors"):
            code = data["errors"][0]["code"]
        self.statuses.append((f"{method} {path}", response.status, code))
        return response.status, data


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook receiver on loopback that counts what it is sent."""

    def __init__(self) -> None:
        self.received: list[str] = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append(json.loads(body)["type"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)


@pytest.fixture
def busy_timeout() -> str:
    """How long the server's writers wait for SQLite's write lock (SQLITE_BUSY_TIMEOUT)."""
    return "20"


@pytest.fixture
def embedded_night(tmp_path, busy_timeout):
    """make run's server and worker on a fresh SQLite file with the demo club; the port."""
    env = {**embedded_env(tmp_path / "db.sqlite3"), "SQLITE_BUSY_TIMEOUT": busy_timeout}
    for command in (["migrate", "--verbosity", "0"], ["seed_demo"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True
        )
        assert done.returncode == 0, done.stderr.decode()
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    processes = [
        subprocess.Popen(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for command in (
            ["runserver", f"127.0.0.1:{port}", "--noreload"],
            ["worker", "--no-reload", "--verbosity", "0"],
        )
    ]
    deadline = time.monotonic() + 120
    while True:
        assert all(p.poll() is None for p in processes), (tmp_path / "server.log").read_text()
        try:
            if Client(port).call("GET", "/healthz")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the embedded server did not answer in time"
        time.sleep(0.2)
    yield port
    for process in processes:
        stop_group(process)


def test_a_club_night_on_the_embedded_database_queues_every_write(embedded_night):
    port = embedded_night
    status, answer = Client(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    assert status == 200, answer
    owner = Client(port, answer["token"])  # type: ignore[index]
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
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    target = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    status, hook = owner.call(
        "POST", f"/api/v1/clubs/{club}/webhooks/", {"url": target, "events": ["hand.recorded"]}
    )
    assert status == 201, hook
    status, invitation = owner.call(
        "POST", f"/api/v1/clubs/{club}/invitations/", {"role": "viewer", "max_uses": SIGN_UPS}
    )
    assert status == 201, invitation

    phones: list[Client] = []
    start = threading.Barrier(TABLES * 3 + SIGN_UPS)
    failures: list[BaseException] = []

    def scorekeeper(match: int, seated: list[int]) -> None:
        """One of the table's two phones entering every hand: each hand is recorded by
        whichever phone is first (201), and the other's entry confirms it (200)."""
        phone = Client(port, owner.token)
        phones.append(phone)
        start.wait()
        for number in range(1, HANDS + 1):
            body = {**went_out(seated[number % 3], seated), "number": number}
            status, _ = phone.call("POST", f"/api/v1/matches/{match}/hands/", body)
            assert status in (200, 201), (match, number, status)

    def drafting_phone(match: int, seated: list[int]) -> None:
        phone = Client(port, owner.token)
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
        phone = Client(port)
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

    answers = [answer for phone in phones for answer in phone.statuses]
    refused = Counter((status, code) for _, status, code in answers if status >= 500)
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
    _, answer = Client(port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    owner = Client(port, answer["token"])  # type: ignore[index]
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

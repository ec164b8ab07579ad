"""Benchmark: a club night at full concurrency, on make run's SQLite and on PostgreSQL.

Plays a club night as it happens, against a server of its own on a throwaway database:

- ``--tables`` tables (default 6 on SQLite, 20 on PostgreSQL), three players each, three phones
  at each table entering ``--hands`` hands: a player's phone sends its taps of its own part of
  the hand's draft in batches, reading the draft after each; the scorekeeper's phone writes the
  draft's ending and, once the player has tapped, records the hand with its number; a second
  phone enters the same hand at the same moment (a confirmation, or the record if it is
  first). A table's pace is compressed: a hand is played in 2 to 4 s, taps are sent every 0.3
  to 0.6 s; every table starts at the same moment;
- newcomers signing up from an invitation link (``--sign-ups``) and the webhook worker
  delivering every recorded hand to a loopback receiver, at the same time.

SQLite runs as ``make run`` runs it (``manage.py runserver``, a thread per request, and
``manage.py worker``); PostgreSQL as docs/deployment.md runs it (gunicorn with uvicorn workers,
``--workers``, the database cache, and the worker). For each database it first plays one table
alone, then the whole night, and prints: hands recorded, requests refused (5xx, by code), hands
lost or doubled (each match's hands compared with what its table meant to record), webhook
deliveries, and the p50/p95 latency of recording a hand, with the night's p95 as a ratio to the
one table's p95 of the same run. Goals (docs/benchmarks.md): 0 refused, 0 lost, 0 doubled; p95
within 3x the single table's.

Run: ``.venv/bin/python bench/tables.py [--database sqlite|postgresql|both] [--tables N]
[--hands N] [--sign-ups N] [--workers N]``. PostgreSQL is reached at ``BENCH_POSTGRES_URL``
(default ``postgres://postgres@127.0.0.1:5432/postgres``), where a database
``arlington_tables_<pid>`` is created and dropped. Exit status 0 when every goal is met.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.server
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import harness  # noqa: E402
from tests.harness import free_port  # noqa: E402

POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
OWNER = ("demo", "demo-arlington")  # the demo club's owner, made by seed_demo

# A legal hand for any three seated players (as tests/factories.py's): the winner goes out with
# 13 cards melded (net 340), each other player melds a run and holds ten cards (net -65).
WINNER = {
    "melds": [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]],
    "hand": [],
}
LOSERS = [
    {
        "melds": [["5D", "6D", "7D"]],
        "hand": ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"],
    },
    {
        "melds": [["5C", "6C", "7C"]],
        "hand": ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"],
    },
]


def hand(number: int, seated: list[int]) -> dict[str, Any]:
    """Hand ``number`` as its table plays it: the winner turns with the number."""
    winner = seated[number % len(seated)]
    others = [p for p in seated if p != winner]
    results = [{"player": winner, **WINNER}] + [
        {"player": p, **LOSERS[i % 2]} for i, p in enumerate(others)
    ]
    return {"ending": "went_out", "went_out": winner, "results": results, "number": number}


class Phone:
    """One device: its own connection per request, the token, every answer's status."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port, self.token = port, token
        self.answers: list[tuple[str, int, str]] = []
        self.recording: list[float] = []

    def call(
        self, method: str, path: str, body: object = None, extra: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        status, data, _ = self.exchange(method, path, body, extra or {})
        return status, data

    def exchange(
        self, method: str, path: str, body: object, extra: dict[str, str]
    ) -> tuple[int, Any, http.client.HTTPMessage | None]:
        """One request with ``extra`` headers: its status, its JSON (None if it is not JSON)
        and its headers (None with no answer)."""
        headers = {"Content-Type": "application/json", "Accept": "application/json", **extra}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            response = conn.getresponse()
            status, raw, answered = response.status, response.read(), response.headers
        except (OSError, http.client.HTTPException):  # refused, reset or cut: no answer
            self.answers.append((f"{method} {path}", 0, "no_answer"))
            return 0, None, None
        finally:
            conn.close()
        data = json.loads(raw) if raw[:1] in (b"{", b"[") else None
        code = ""
        if status >= 400 and isinstance(data, dict) and data.get("errors"):
            code = data["errors"][0]["code"]
        self.answers.append((f"{method} {path}", status, code))
        return status, data, answered


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook receiver on loopback that counts the deliveries."""

    def __init__(self) -> None:
        self.received = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)


# The pace of a table, compressed: a hand is dealt and played in 2 to 4 s (minutes at a real
# table), and a phone sends a batch of taps every 0.3 to 0.6 s, as the app does.
PLAYING = (2.0, 4.0)
TAPPING = (0.3, 0.6)
TAPS = 4


class Table:
    """What the phones of one table wait for: each hand's draft tapped, and recorded."""

    def __init__(self, hands: int) -> None:
        self.drafted = {n: threading.Event() for n in range(1, hands + 1)}
        self.recorded = {n: threading.Event() for n in range(1, hands + 1)}


@dataclass
class Night:
    """What one night produced."""

    tables: int
    hands: int
    recorded: int = 0
    lost: int = 0
    doubled: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    delivered: int = 0
    signed_up: int = 0

    def p(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def environment(database_url: str, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_BACKEND"}}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="arlington_site.settings",
        SECRET_KEY="bench-tables-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1",
        CACHE_BACKEND=cache,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS="true",
        ANON_THROTTLE_RATE="100000/min",
        USER_THROTTLE_RATE="100000/min",
        AUTH_THROTTLE_RATE="100000/min",
        AUTH_ACCOUNT_THROTTLE_RATE="100000/min",
        INVITATION_THROTTLE_RATE="100000/min",
        LOG_LEVEL="ERROR",
        DJANGO_LOG_LEVEL="ERROR",
        PYTHONPATH=str(ROOT),
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def served(kind: str, env: dict[str, str], workers: int, log: Path) -> Iterator[int]:
    """The server and the webhook worker, as that database is documented to run; the port."""
    port = free_port()
    if kind == "sqlite":
        server = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        env = {**env, "DEBUG": "true"}  # make run's settings
    else:
        server = harness.gunicorn(port, workers)
    worker = [sys.executable, "manage.py", "worker", "--no-reload", "--verbosity", "0"]
    processes = [harness.start(command, env=env, log=log) for command in (server, worker)]
    try:
        harness.wait_until(
            harness.answers_http(port),
            what="the server answering /healthz",
            seconds=120,
            processes=processes,
            log=log,
        )
        yield port
    finally:
        for process in processes:
            harness.stop(process)


def play(port: int, tables: int, hands: int, sign_ups: int, receiver: Receiver) -> Night:
    """One night: set the tables up, then every phone and newcomer at once."""
    status, answer = Phone(port).call(
        "POST", "/api/v1/auth/token/", {"username": OWNER[0], "password": OWNER[1]}
    )
    assert status == 200, answer
    owner = Phone(port, answer["token"])
    club = owner.call("GET", "/api/v1/clubs/")[1]["results"][0]["id"]
    matches: list[tuple[int, list[int]]] = []
    for t in range(tables):
        seated = []
        for s in range(3):
            body = {"club": club, "name": f"T{t}S{s}-{time.monotonic_ns()}"}
            seated.append(owner.call("POST", "/api/v1/players/", body)[1]["id"])
        match = owner.call("POST", "/api/v1/matches/", {"club": club, "players": seated})[1]
        matches.append((match["id"], seated))
    target = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    hook = owner.call(
        "POST", f"/api/v1/clubs/{club}/webhooks/", {"url": target, "events": ["hand.recorded"]}
    )[1]
    invitation = owner.call(
        "POST",
        f"/api/v1/clubs/{club}/invitations/",
        {"role": "viewer", "max_uses": max(sign_ups, 1)},
    )[1]
    delivered_before = receiver.received

    phones: list[Phone] = []
    start = threading.Barrier(tables * 3 + sign_ups)
    night = Night(tables, hands)
    pace = random.Random(tables)

    def recording_phone(match: int, seated: list[int], table: Table) -> None:
        phone = Phone(port, owner.token)
        phones.append(phone)
        start.wait()
        for number in range(1, hands + 1):
            ending = {"ending": "went_out", "went_out": seated[number % 3], "version": 0}
            phone.call("PUT", f"/api/v1/matches/{match}/hands/{number}/draft/ending/", ending)
            table.drafted[number].wait()  # the player has tapped their cards
            began = time.perf_counter()
            status, _ = phone.call("POST", f"/api/v1/matches/{match}/hands/", hand(number, seated))
            if status in (200, 201):
                night.latencies.append(time.perf_counter() - began)
            table.recorded[number].set()
            time.sleep(pace.uniform(*PLAYING))  # the next hand is dealt and played

    def confirming_phone(match: int, seated: list[int], table: Table) -> None:
        phone = Phone(port, owner.token)
        phones.append(phone)
        start.wait()
        for number in range(1, hands + 1):
            table.drafted[number].wait()  # enters the same hand at about the same moment
            phone.call("POST", f"/api/v1/matches/{match}/hands/", hand(number, seated))
            table.recorded[number].wait()

    def player_phone(match: int, seated: list[int], table: Table) -> None:
        phone = Phone(port, owner.token)
        phones.append(phone)
        start.wait()
        for number in range(1, hands + 1):
            part = f"/api/v1/matches/{match}/hands/{number}/draft/players/{seated[1]}/"
            version = 0
            for tap in range(1, TAPS + 1):  # the app sends its taps in small batches
                body = {"melds": [], "hand": LOSERS[0]["hand"][:tap], "version": version}
                status, draft = phone.call("PUT", part, body)
                if status == 200:
                    version = next(
                        p["version"] for p in draft["players"] if p["player"] == seated[1]
                    )
                phone.call("GET", f"/api/v1/matches/{match}/hands/{number}/draft/")
                time.sleep(pace.uniform(*TAPPING))
            table.drafted[number].set()
            table.recorded[number].wait()

    def newcomer(n: int) -> None:
        phone = Phone(port)
        phones.append(phone)
        start.wait()
        time.sleep(pace.uniform(0, PLAYING[1] * hands))  # people arrive through the night
        body = {"username": f"guest{n}x{time.monotonic_ns()}", "password": f"night-{n}-secret!"}
        status, _ = phone.call("POST", f"/api/v1/invitations/{invitation['code']}/signup/", body)
        if status == 201:
            night.signed_up += 1

    def phone_at(role: Any, match: int, seated: list[int], table: Table) -> None:
        """One phone's part of the night; a phone that fails lets its table go on without it."""
        try:
            role(match, seated, table)
        except Exception as failure:  # noqa: BLE001 (counted, and the night goes on)
            night.refused[f"phone failed: {type(failure).__name__}"] += 1
            for event in (*table.drafted.values(), *table.recorded.values()):
                event.set()

    threads = [
        threading.Thread(target=phone_at, args=(role, match, seated, table))
        for (match, seated), table in zip(matches, (Table(hands) for _ in matches), strict=True)
        for role in (recording_phone, confirming_phone, player_phone)
    ] + [threading.Thread(target=newcomer, args=(n,)) for n in range(sign_ups)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    for phone in phones:
        for _, status, code in phone.answers:
            if status >= 500 or status == 0:
                night.refused[f"{status or 'no answer'} {code or '?'}"] += 1
    for match, seated in matches:
        recorded = owner.call("GET", f"/api/v1/matches/{match}/hands/?page_size=500")[1]
        kept = {h["number"]: h for h in recorded["results"]}
        night.recorded += len(kept)
        night.doubled += max(0, len(recorded["results"]) - hands)
        for number in range(1, hands + 1):
            meant = hand(number, seated)["went_out"]
            if number not in kept or kept[number]["went_out"] != meant:
                night.lost += 1
    deadline = time.monotonic() + 60  # the worker delivers what it has not yet
    while receiver.received - delivered_before < night.recorded and time.monotonic() < deadline:
        time.sleep(0.2)
    night.delivered = receiver.received - delivered_before
    owner.call("DELETE", f"/api/v1/clubs/{club}/webhooks/{hook['id']}/")
    return night


def run(kind: str, tables: int, hands: int, sign_ups: int, workers: int) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="arlington-tables-"))
    name = f"arlington_tables_{os.getpid()}"
    if kind == "sqlite":
        env = environment(f"sqlite:///{folder / 'db.sqlite3'}", "local")
    else:
        admin = POSTGRES.rsplit("/", 1)[0]
        subprocess.run(["psql", POSTGRES, "-qc", f"CREATE DATABASE {name}"], check=True)
        env = environment(f"{admin}/{name}", "database")
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        manage(env, "migrate", "--verbosity", "0")
        if kind != "sqlite":
            manage(env, "createcachetable")
        manage({**env, "DEBUG": "true"}, "seed_demo")
        with served(kind, env, workers, folder / "server.log") as port:
            one = play(port, 1, hands, 0, receiver)
            night = play(port, tables, hands, sign_ups, receiver)
    finally:
        receiver.shutdown()
        if kind != "sqlite":
            subprocess.run(
                ["psql", POSTGRES, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"],
                check=False,
            )
    ratio = night.p(0.95) / one.p(0.95)
    refused = ", ".join(f"{n} x {c}" for c, n in night.refused.most_common()) or "none"
    print(f"{kind}: {tables} tables x 3 phones, {hands} hands each, {sign_ups} sign-ups")
    print(
        f"  hands recorded {night.recorded} of {tables * hands}; lost {night.lost}; "
        f"doubled {night.doubled}; refused (5xx or no answer) {sum(night.refused.values())}: "
        f"{refused}"
    )
    print(
        f"  sign-ups {night.signed_up} of {sign_ups}; webhook deliveries {night.delivered} "
        f"(one per hand recorded, at least)"
    )
    print(
        f"  recording a hand: p50 {night.p(0.5):.0f} ms, p95 {night.p(0.95):.0f} ms; "
        f"one table alone p95 {one.p(0.95):.0f} ms; ratio {ratio:.2f}x (goal <= 3x)"
    )
    met = not night.refused and not night.lost and not night.doubled and ratio <= 3
    print(f"  {'goals met' if met else 'GOALS MISSED'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tables", type=int, help="default: 6 on SQLite, 20 on PostgreSQL")
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--sign-ups", type=int, default=6)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn's, on PostgreSQL")
    args = parser.parse_args()
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    met = [
        run(
            kind,
            args.tables or (6 if kind == "sqlite" else 20),
            args.hands,
            args.sign_ups,
            args.workers,
        )
        for kind in kinds
    ]
    sys.exit(0 if all(met) else 1)


if __name__ == "__main__":
    main()

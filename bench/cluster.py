"""Rehearsal of "past one machine" (docs/deployment.md), here, with the engines Debian packages.

Starts, in a temporary folder and on its own ports (``--base-port``, then the next six):

- a PostgreSQL primary of its own (initdb, pg_ctl) and a streaming replica made from it with
  pg_basebackup, listed in ``DATABASE_REPLICA_URLS``;
- PgBouncer in transaction mode in front of the primary (``DATABASE_URL``); PgBouncer before
  1.21 cannot keep prepared statements apart, so ``DATABASE_PREPARED_STATEMENTS`` is off then;
- a redis-server of its own (``REDIS_URL``);
- two app servers (gunicorn with uvicorn workers) behind HAProxy, whose health check takes a
  server out when ``/healthz`` says its database is unreachable.

Then it drives a bounded mixed load through HAProxy (``--clients`` threads for ``--seconds``):
hands recorded with an Idempotency-Key, corrections, standings, live hands (start, draw,
discard, abandon), streams opened and closed, match reads. Meanwhile it kills an app server
(SIGKILL to its whole process group) and restarts it, restarts Redis, stops the replica and
starts it again, and restarts PgBouncer. Then it checks invariants in SQL on the primary, prints
the requests, the answers by status, p50/p99 and every violation, and stops everything it
started, by the pids it started (also on failure). It never touches the machine's own
PostgreSQL cluster. Exit status: 0 when no invariant is violated and no answer is a 500, 1
otherwise (a 502 or 503 while a fault is under way is the service behaving as documented).

Run: ``make rehearsal`` or ``.venv/bin/python bench/cluster.py [--seconds 150] [--clients 6]
[--base-port 18450]``; as root, PostgreSQL and PgBouncer run as the ``postgres`` user.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import modest_hand  # noqa: E402
from tests import harness  # noqa: E402

PG_BIN = Path(
    next(
        (
            str(path.parent)
            for path in sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
        ),
        str(Path(shutil.which("initdb") or "/usr/bin/initdb").parent),
    )
)

# --- the invariants --------------------------------------------------------------------------

INVARIANTS: dict[str, str] = {
    "seat totals equal the sum of their nets": """
        SELECT s.id FROM matches_seat s
        LEFT JOIN (SELECT h.match_id, r.player_id, sum(r.net) AS net
                   FROM matches_handresult r JOIN matches_hand h ON h.id = r.hand_id
                   GROUP BY 1, 2) n ON n.match_id = s.match_id AND n.player_id = s.player_id
        WHERE s.total <> coalesce(n.net, 0)""",
    "hand numbers are 1..n without a gap": """
        SELECT match_id FROM matches_hand GROUP BY match_id
        HAVING min(number) <> 1 OR max(number) <> count(*)""",
    "no two hands share a number": """
        SELECT match_id, number FROM matches_hand GROUP BY 1, 2 HAVING count(*) > 1""",
    "a match counts the hands it has": """
        SELECT m.id FROM matches_match m
        LEFT JOIN (SELECT match_id, count(*) AS hands FROM matches_hand GROUP BY 1) h
          ON h.match_id = m.id
        WHERE m.hands_played <> coalesce(h.hands, 0)""",
    "a match is finished if and only if it has winners": """
        SELECT m.id FROM matches_match m
        WHERE (m.status = 'finished')
          <> EXISTS (SELECT 1 FROM matches_seat s WHERE s.match_id = m.id AND s.winner)""",
    "a finished match has a seat at the target": """
        SELECT m.id FROM matches_match m WHERE m.status = 'finished'
          AND NOT EXISTS (SELECT 1 FROM matches_seat s
                          WHERE s.match_id = m.id AND s.total >= 1000)""",
    "a match in progress has no seat at the target": """
        SELECT m.id FROM matches_match m WHERE m.status = 'in_progress'
          AND EXISTS (SELECT 1 FROM matches_seat s WHERE s.match_id = m.id AND s.total >= 1000)""",
    "every hand has one result per seat": """
        SELECT h.id FROM matches_hand h
        WHERE (SELECT count(*) FROM matches_handresult r WHERE r.hand_id = h.id)
           <> (SELECT count(*) FROM matches_seat s WHERE s.match_id = h.match_id)""",
    "each result's running total adds up the nets so far": """
        SELECT r.id FROM matches_handresult r JOIN matches_hand h ON h.id = r.hand_id
        WHERE r.total <> (SELECT sum(r2.net) FROM matches_handresult r2
                          JOIN matches_hand h2 ON h2.id = r2.hand_id
                          WHERE h2.match_id = h.match_id AND r2.player_id = r.player_id
                            AND h2.number <= h.number)""",
    "every hand has its revisions numbered 1..n": """
        SELECT match_id, number FROM matches_handrevision GROUP BY 1, 2
        HAVING min(revision) <> 1 OR max(revision) <> count(*)""",
    "a hand's version counts its revisions": """
        SELECT h.id FROM matches_hand h
        WHERE h.version <> (SELECT count(*) FROM matches_handrevision v
                            WHERE v.match_id = h.match_id AND v.number = h.number
                              AND v.action <> 'voided')""",
    "an Idempotency-Key answers once per match": """
        SELECT match_id, key FROM matches_idempotencyrecord GROUP BY 1, 2 HAVING count(*) > 1""",
    "at most one live hand in play per match": """
        SELECT match_id FROM matches_livehand WHERE status = 'playing'
        GROUP BY 1 HAVING count(*) > 1""",
    "the replica holds what the primary holds": "",  # checked apart (replica_caught_up)
}


def violations(cursor: Any) -> dict[str, int]:
    """Each invariant's count of offending rows, on an open psycopg cursor."""
    found = {}
    for name, sql in INVARIANTS.items():
        if not sql:
            continue
        cursor.execute(sql)
        found[name] = len(cursor.fetchall())
    return found


# --- processes -------------------------------------------------------------------------------


def as_postgres() -> list[str]:
    """The prefix that runs PostgreSQL's tools as its own user when we are root."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"]


@dataclass
class Cluster:
    folder: Path
    base: int
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    pg_data: dict[str, Path] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    started: float = 0.0  # when the load began, for the faults' times

    @property
    def ports(self) -> dict[str, int]:
        names = ["primary", "replica", "pgbouncer", "redis", "app1", "app2", "haproxy"]
        return {name: self.base + offset for offset, name in enumerate(names)}

    def note(self, text: str) -> None:
        at = f"+{time.monotonic() - self.started:.0f}s" if self.started else time.strftime("%X")
        line = f"[{at}] {text}"
        self.log.append(line)
        print(line, flush=True)

    def run(self, command: list[str], **kwargs: Any) -> None:
        subprocess.run(command, check=True, capture_output=True, **kwargs)

    # PostgreSQL -----------------------------------------------------------------------------

    def postgres_folder(self, name: str) -> Path:
        path = self.folder / name
        path.mkdir(mode=0o700, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(path, "postgres", "postgres")
        return path

    def init_primary(self) -> None:
        data = self.pg_data["primary"] = self.postgres_folder("primary")
        self.run(
            [
                *as_postgres(),
                str(PG_BIN / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
            ]
        )
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{data}'",
            "wal_level": "replica",
            "max_wal_senders": "5",
            "max_connections": "100",
            "fsync": "off",  # a rehearsal's data is thrown away
            "hot_standby": "on",
        }
        with (data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write("host replication postgres 127.0.0.1/32 trust\n")
        self.start_postgres("primary")

    def start_postgres(self, name: str) -> None:
        data = self.pg_data[name]
        self.run(
            [
                *as_postgres(),
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-w",
                "-l",
                str(data / "server.log"),
                "-o",
                f"-p {self.ports[name]}",
                "start",
            ]
        )

    def stop_postgres(self, name: str) -> None:
        data = self.pg_data.get(name)
        if data is not None and (data / "postmaster.pid").exists():
            subprocess.run(
                [
                    *as_postgres(),
                    str(PG_BIN / "pg_ctl"),
                    "-D",
                    str(data),
                    "-w",
                    "-m",
                    "fast",
                    "stop",
                ],
                capture_output=True,
            )

    def make_replica(self) -> None:
        data = self.pg_data["replica"] = self.postgres_folder("replica")
        self.run(
            [
                *as_postgres(),
                str(PG_BIN / "pg_basebackup"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.ports["primary"]),
                "-U",
                "postgres",
                "-D",
                str(data),
                "-R",
                "--checkpoint=fast",
                "-X",
                "stream",
            ]
        )
        with (data / "postgresql.conf").open("a") as conf:
            conf.write(f"unix_socket_directories = '{data}'\n")
        self.start_postgres("replica")

    # PgBouncer, Redis, the app servers, HAProxy ----------------------------------------------

    def start_pgbouncer(self) -> None:
        folder = self.postgres_folder("pgbouncer")
        (folder / "users.txt").write_text('"postgres" ""\n')
        (folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"arlington = host=127.0.0.1 port={self.ports['primary']} dbname=arlington\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.ports['pgbouncer']}\n"
            f"unix_socket_dir = {folder}\nauth_type = trust\nauth_file = {folder}/users.txt\n"
            "pool_mode = transaction\nmax_client_conn = 400\ndefault_pool_size = 20\n"
            "server_reset_query =\nignore_startup_parameters = extra_float_digits,options\n"
        )
        if os.geteuid() == 0:
            for path in folder.iterdir():
                shutil.chown(path, "postgres", "postgres")
        self.spawn("pgbouncer", [*as_postgres(), "pgbouncer", str(folder / "pgbouncer.ini")])
        self.wait_for_port("pgbouncer", self.ports["pgbouncer"])

    def start_redis(self) -> None:
        folder = self.folder / "redis"
        folder.mkdir(exist_ok=True)
        self.spawn(
            "redis",
            [
                "redis-server",
                "--port",
                str(self.ports["redis"]),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
        )
        self.wait_for_port("redis", self.ports["redis"])

    def app_env(self) -> dict[str, str]:
        ports = self.ports
        return {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "REDIS"))},
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{ports['pgbouncer']}/arlington",
            "DATABASE_REPLICA_URLS": f"postgres://postgres@127.0.0.1:{ports['replica']}/arlington",
            "DATABASE_PREPARED_STATEMENTS": "false",  # PgBouncer before 1.21
            "DATABASE_POOL_SIZE": "4",
            "REDIS_URL": f"redis://127.0.0.1:{ports['redis']}/0",
            "SECRET_KEY": "rehearsal-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123",
            "DEBUG": "false",
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "NUM_PROXIES": "1",
            "USER_THROTTLE_RATE": "100000/min",
            "LIVE_STREAM_MAX_PER_USER": "100",
            "LIVE_STREAM_HEARTBEAT_SECONDS": "5",
            "LOG_LEVEL": "WARNING",
            "DJANGO_LOG_LEVEL": "ERROR",
            "APP_SERVERS": "2",
            "WEB_CONCURRENCY": "2",
            "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
        }

    def start_app(self, name: str) -> None:
        command = harness.gunicorn(self.ports[name], 2, "--graceful-timeout", "3")
        self.spawn(name, command, env=self.app_env())
        self.wait_for_port(name, self.ports[name])

    def start_haproxy(self) -> None:
        ports = self.ports
        config = self.folder / "haproxy.cfg"
        config.write_text(
            "global\n  maxconn 2000\n"
            "defaults\n  mode http\n  timeout connect 2s\n  timeout client 60s\n"
            "  timeout server 60s\n  timeout tunnel 1h\n  timeout check 5s\n"
            "  option redispatch\n  retries 2\n"
            f"frontend api\n  bind 127.0.0.1:{ports['haproxy']}\n  default_backend apps\n"
            "backend apps\n  balance roundrobin\n  option httpchk GET /healthz\n"
            # Out only when its database is unreachable: a shared Redis that is down affects
            # every server alike, and the API keeps answering without it (docs/deployment.md).
            '  http-check expect string \'"database": "ok"\'\n'
            f"  server app1 127.0.0.1:{ports['app1']} check inter 1s fall 2 rise 1\n"
            f"  server app2 127.0.0.1:{ports['app2']} check inter 1s fall 2 rise 1\n"
        )
        self.spawn("haproxy", ["haproxy", "-db", "-f", str(config)])
        self.wait_for_port("haproxy", ports["haproxy"])

    def spawn(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        self.processes[name] = harness.start(command, env=env, log=self.folder / f"{name}.log")

    def wait_for_port(self, name: str, port: int) -> None:
        """Until ``port`` accepts connections; not when ``name``'s process has exited."""
        harness.wait_until(
            harness.accepts(port),
            what=f"{name} on port {port}",
            processes=[self.processes[name]],
            log=self.folder / f"{name}.log",
        )

    def kill(self, name: str, sig: int = signal.SIGTERM) -> None:
        process = self.processes.pop(name, None)
        if process is not None:
            harness.stop(process, sig)

    def stop_all(self) -> None:
        for name in ["haproxy", "app1", "app2", "pgbouncer", "redis"]:
            self.kill(name)
        self.stop_postgres("replica")
        self.stop_postgres("primary")


def wait_until_balanced(port: int, seconds: float = 60) -> None:
    """Until HAProxy passes ``/healthz`` on to a server that answers it (its checks are in)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        conn.close()
        time.sleep(0.5)
    raise RuntimeError("HAProxy found no healthy app server")


def psql(port: int, sql: str, database: str = "postgres") -> str:
    done = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", database, "-tAc", sql],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


# --- the data and the load -------------------------------------------------------------------

SETUP = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from matches.services import clubs as club_services
from matches.models import Player, Role
users = get_user_model()
owner = users.objects.create_user("rehearsal-owner", password=None)
club = club_services.club_create(name="Rehearsal club", user=owner)
keepers = []
for number in range(CLIENTS):
    keeper = users.objects.create_user(f"keeper{number}", password=None)
    club_services.membership_set(club=club, user=keeper, role=Role.SCOREKEEPER)
    keepers.append(Token.objects.create(user=keeper).key)
players = [Player.objects.create(club=club, name=f"Seat {i:02}").pk for i in range(2 * CLIENTS)]
print(json.dumps({"club": club.pk, "tokens": keepers, "players": players}))
"""


@dataclass
class Tally:
    """What the load saw: answers by operation and status, latencies, unexpected answers."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    unexpected: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # every 5xx: when, what, which code
    started: float = field(default_factory=time.monotonic)

    def add(
        self, operation: str, status: int | str, seconds: float, expected: set[int], code: str = ""
    ) -> None:
        with self.lock:
            self.statuses[str(status)] += 1
            self.latencies.append(seconds)
            if status not in expected:
                self.unexpected[f"{operation} {status}"] += 1
            if not isinstance(status, int) or status >= 500:
                at = time.monotonic() - self.started
                self.failures.append(f"+{at:.0f}s {operation} {status} {code}".rstrip())


class Scorekeeper(threading.Thread):
    """One client: its own matches, one operation after another until the time is up."""

    def __init__(
        self, port: int, token: str, club: int, players: list[int], until: float, tally: Tally
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.club, self.players = port, token, club, players
        self.until, self.tally, self.match = until, tally, 0
        self.random = random.Random(token)

    def call(
        self,
        operation: str,
        method: str,
        path: str,
        body: Any = None,
        expected: frozenset[int] = frozenset({200}),
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        sent = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(
                method,
                f"/api/v1/{path}",
                None if body is None else json.dumps(body),
                {**sent, **(headers or {})},
            )
            response = conn.getresponse()
            raw = response.read()
            status: int | str = response.status
            answer = json.loads(raw) if raw.startswith((b"{", b"[")) else None
            got = {key.lower(): value for key, value in response.getheaders()}
        except (OSError, http.client.HTTPException):
            status, answer, got = "connection error", None, {}
        finally:
            conn.close()
        errors = answer.get("errors") if isinstance(answer, dict) else None
        code = errors[0].get("code", "") if errors else ""
        self.tally.add(operation, status, time.monotonic() - started, set(expected), code)
        return (status if isinstance(status, int) else 0), answer, got

    def new_match(self) -> None:
        status, answer, _ = self.call(
            "new match", "POST", "matches/", {"club": self.club, "players": self.players}, {201}
        )
        if status == 201:
            self.match = answer["id"]

    def run(self) -> None:
        operations = [
            (self.hand, 40),
            (self.correct, 10),
            (self.standings, 15),
            (self.live, 15),
            (self.stream, 10),
            (self.read, 10),
        ]
        actions, weights = zip(*operations, strict=True)
        while time.monotonic() < self.until:
            if not self.match:
                self.new_match()
                if not self.match:
                    time.sleep(0.5)
                    continue
            self.random.choices(actions, weights)[0]()

    def hand(self) -> None:
        winner, other = self.random.sample(self.players, 2)
        status, answer, _ = self.call(
            "hand",
            "POST",
            f"matches/{self.match}/hands/",
            modest_hand(winner, other),
            {201, 409, 503},
            {"Idempotency-Key": uuid.uuid4().hex},
        )
        if status == 409 and answer and answer["errors"][0]["code"] == "match_finished":
            self.match = 0
        elif status == 201 and answer.get("match", {}).get("status") == "finished":
            self.match = 0

    def correct(self) -> None:
        status, answer, headers = self.call(
            "read hands", "GET", f"matches/{self.match}/hands/", expected={200, 503}
        )
        hands = (answer or {}).get("results", []) if status == 200 else []
        if not hands:
            return
        last = hands[-1]
        _, _, got = self.call(
            "read hand", "GET", f"matches/{self.match}/hands/{last['number']}/", expected={200, 503}
        )
        if "etag" not in got:
            return
        winner, other = self.random.sample(self.players, 2)
        status, _, _ = self.call(
            "correct",
            "PUT",
            f"matches/{self.match}/hands/{last['number']}/",
            modest_hand(winner, other),
            {200, 409, 412, 503},
            {"If-Match": got["etag"]},
        )

    def standings(self) -> None:
        self.call("standings", "GET", f"clubs/{self.club}/standings/", expected={200, 503})

    def read(self) -> None:
        self.call("read match", "GET", f"matches/{self.match}/", expected={200, 503})

    def live(self) -> None:
        live = f"matches/{self.match}/live/"
        status, answer, got = self.call(
            "live start", "POST", live, {"turned_up": "7H"}, {201, 409, 503}
        )
        if status == 409:
            status, answer, got = self.call("live read", "GET", live, expected={200, 404, 503})
        if status not in (200, 201) or not answer:
            return
        etag, player = got.get("etag", ""), answer.get("turn")
        for event in (
            {"type": "draw", "player": player},
            {"type": "discard", "player": player, "card": "KH"},
        ):
            status, answer, got = self.call(
                "live event",
                "POST",
                f"{live}events/",
                event,
                {200, 400, 409, 412, 503},
                {"If-Match": etag},
            )
            if status != 200:
                break
            etag = got.get("etag", etag)
        self.call(
            "live abandon",
            "DELETE",
            live,
            expected={200, 204, 404, 409, 412, 503},
            headers={"If-Match": etag},
        )

    def stream(self) -> None:
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            conn.request(
                "GET",
                f"/api/v1/matches/{self.match}/live/stream/",
                headers={"Authorization": f"Token {self.token}"},
            )
            response = conn.getresponse()
            status: int | str = response.status
            if status == 200:
                response.readline()  # the retry line: the stream is open
        except (OSError, http.client.HTTPException):
            status = "connection error"
        finally:
            conn.close()
        self.tally.add("stream", status, time.monotonic() - started, {200, 503})


# --- the run ---------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def faults(cluster: Cluster, seconds: float, stop: threading.Event) -> None:
    """The faults, spread over the run: each waits for its moment, unless the run is over."""
    plan = [
        (0.15, "kill -9 app server 1", lambda: cluster.kill("app1", signal.SIGKILL)),
        (0.25, "restart app server 1", lambda: cluster.start_app("app1")),
        (0.35, "stop Redis", lambda: cluster.kill("redis")),
        (0.40, "start Redis", cluster.start_redis),
        (0.50, "stop the replica", lambda: cluster.stop_postgres("replica")),
        (0.65, "start the replica", lambda: cluster.start_postgres("replica")),
        (0.75, "restart PgBouncer", lambda: (cluster.kill("pgbouncer"), cluster.start_pgbouncer())),
    ]
    started = time.monotonic()
    for share, label, action in plan:
        if stop.wait(max(0.0, started + share * seconds - time.monotonic())):
            return
        cluster.note(label)
        action()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=150, help="length of the load (≤ 180)")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--base-port", type=int, default=18450)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arlington-rehearsal-"))
    os.chmod(folder, 0o755)
    cluster = Cluster(folder, args.base_port)
    try:
        return rehearse(cluster, args)
    finally:
        cluster.stop_all()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


def rehearse(cluster: Cluster, args: argparse.Namespace) -> int:
    ports = cluster.ports
    cluster.note(f"folder {cluster.folder}, ports {ports}")
    cluster.init_primary()
    psql(ports["primary"], "CREATE DATABASE arlington")
    cluster.make_replica()
    cluster.start_pgbouncer()
    cluster.start_redis()
    env = {
        **cluster.app_env(),
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{ports['primary']}/arlington",
        "DATABASE_REPLICA_URLS": "",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    done = subprocess.run(
        [sys.executable, "-c", SETUP.replace("CLIENTS", str(args.clients))],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    data = json.loads(done.stdout.strip().splitlines()[-1])
    cluster.start_app("app1")
    cluster.start_app("app2")
    cluster.start_haproxy()
    wait_until_balanced(ports["haproxy"])
    cluster.note(f"load: {args.clients} clients for {args.seconds:.0f} s through HAProxy")

    tally, stop = Tally(), threading.Event()
    cluster.started = tally.started
    until = time.monotonic() + args.seconds
    clients = [
        Scorekeeper(
            ports["haproxy"],
            token,
            data["club"],
            data["players"][2 * number : 2 * number + 2],
            until,
            tally,
        )
        for number, token in enumerate(data["tokens"])
    ]
    chaos = threading.Thread(target=faults, args=(cluster, args.seconds, stop), daemon=True)
    chaos.start()
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    stop.set()
    chaos.join()
    cluster.note("load over; checking the invariants")

    import psycopg

    time.sleep(3)  # the replica catches up
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{ports['primary']}/arlington") as db:
        found = violations(db.cursor())
        hands = db.execute("SELECT count(*) FROM matches_hand").fetchone()[0]
        finished = db.execute("SELECT count(*) FROM matches_match WHERE status = 'finished'")
        finished_count = finished.fetchone()[0]
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{ports['replica']}/arlington") as db:
        replica_hands = db.execute("SELECT count(*) FROM matches_hand").fetchone()[0]
    found["the replica holds what the primary holds"] = int(replica_hands != hands)

    total = sum(tally.statuses.values())
    print()
    print(
        f"requests: {total} in {args.seconds:.0f} s ({total / args.seconds:.1f}/s), "
        f"{args.clients} clients"
    )
    print("answers by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.statuses.items())))
    print(
        f"latency: p50 {percentile(tally.latencies, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(tally.latencies, 0.99) * 1000:.0f} ms"
    )
    print(
        f"5xx: {sum(v for k, v in tally.statuses.items() if k.startswith('5'))}, "
        f"of which 500: {tally.statuses.get('500', 0)}"
    )
    print(
        "unexpected answers: "
        + (", ".join(f"{k}: {v}" for k, v in sorted(tally.unexpected.items())) or "none")
    )
    print(f"hands recorded: {hands}, matches finished: {finished_count}")
    print("faults: " + "; ".join(cluster.log[2:-1]))
    print("5xx and connection errors, from the start of the load: " + "; ".join(tally.failures))
    print(f"invariants: {len(found)} checked, violations: {sum(found.values())}")
    for name, count in found.items():
        print(f"  {'ok ' if count == 0 else 'BAD'} {name}" + (f" ({count})" if count else ""))
    return 0 if sum(found.values()) == 0 and "500" not in tally.statuses else 1


if __name__ == "__main__":
    sys.exit(main())

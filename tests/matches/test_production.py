"""Production under load and faults, against real servers (tests/matches/servers.py).

gunicorn runs the ASGI application with uvicorn workers, as docs/deployment.md recommends; each
test that needs Redis starts a redis-server of its own, on its own port, and may stop it.
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from matches.models import Player
from tests import harness
from tests.factories import client_for, start_match, went_out
from tests.matches.servers import (
    AppServer,
    RedisServer,
    app_server,
    connections_to_test_database,
)

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 3
POOL = 2
MELD = json.dumps({"cards": ["5H", "6H", "7H"]}).encode()
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def carols_match(carol, club, roster) -> tuple[dict[str, str], dict, list[Player]]:
    """Carol's token header, a match of hers and its players."""
    match = start_match(client_for(carol), club, roster[:3])
    headers = {"Authorization": f"Token {Token.objects.create(user=carol).key}"}
    return headers, match, roster[:3]


def open_stream(server: AppServer, match_id: int, headers: dict[str, str]):
    conn = server.connect(timeout=20)
    conn.request("GET", f"/api/v1/matches/{match_id}/live/stream/", headers=headers)
    response = conn.getresponse()
    if response.status == 200:
        assert response.readline().startswith(b"retry:")  # the stream has started
    return conn, response


# --- connections ---------------------------------------------------------------------------


def test_parallel_requests_and_streams_hold_at_most_a_pool_per_worker(
    redis_server, tmp_path, carols_match
):
    headers, match, _ = carols_match
    with app_server(
        WORKERS,
        tmp_path / "server.log",
        REDIS_URL=redis_server.url,
        DATABASE_POOL_SIZE=str(POOL),
        USER_THROTTLE_RATE="100000/min",
        LIVE_STREAM_MAX_PER_USER="100",
    ) as server:
        bound = WORKERS * POOL
        counted = []
        with ThreadPoolExecutor(10) as parallel:
            for _ in range(4):
                statuses = list(
                    parallel.map(
                        lambda _: server.status("GET", "/api/v1/clubs/", headers=headers),
                        range(10),
                    )
                )
                assert statuses == [200] * 10
                counted.append(connections_to_test_database())
        assert max(counted) <= bound, counted

        streams = [open_stream(server, match["id"], headers) for _ in range(12)]
        assert [response.status for _, response in streams] == [200] * 12
        while_watched = connections_to_test_database()
        # Watchers hold no connection: requests are answered as quickly while they wait.
        assert server.status("GET", "/api/v1/clubs/", headers=headers) == 200
        for conn, _ in streams:
            conn.close()
        harness.wait_until(
            lambda: connections_to_test_database() <= bound,
            what=f"at most {bound} connections once the watchers left",
            seconds=30,
        )
    assert while_watched <= bound, while_watched


def test_check_deploy_warns_when_the_pools_can_exceed_the_servers_connections(settings):
    from arlington_site.checks import bounded_connections

    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        (max_connections,) = cursor.fetchone()
    settings.WEB_CONCURRENCY = 4
    settings.APP_SERVERS = 1
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    assert [problem.id for problem in bounded_connections()] == []
    settings.APP_SERVERS = int(max_connections) // (4 * pool["max_size"]) + 1
    assert [problem.id for problem in bounded_connections()] == ["arlington.W003"]


# --- Redis lost -------------------------------------------------------------------------


def test_with_redis_stopped_nothing_is_a_500_and_healthz_names_the_cache(
    redis_server, tmp_path, carols_match, club
):
    headers, match, players = carols_match
    ids = [player.pk for player in players]
    with app_server(2, tmp_path / "server.log", REDIS_URL=redis_server.url) as server:
        status, body, _ = server.answer("GET", "/healthz")
        assert (status, json.loads(body)) == (
            200,
            {"status": "ok", "database": "ok", "cache": "ok"},
        )
        redis_server.stop()

        def call(method: str, path: str, body: object = None, auth: bool = True):
            sent = None if body is None else json.dumps(body).encode()
            status, answer, response = server.answer(
                method, path, sent, {**JSON, **(headers if auth else {})}
            )
            return status, json.loads(answer), response

        answers = {
            "list": call("GET", "/api/v1/clubs/"),
            "hand": call("POST", f"/api/v1/matches/{match['id']}/hands/", went_out(ids[0], ids)),
            "standings": call("GET", f"/api/v1/clubs/{club.pk}/standings/"),
            "rulings": call("POST", "/api/v1/rulings/meld/", {"cards": ["5H", "6H", "7H"]}, False),
            "sign_in": call(
                "POST", "/api/v1/auth/tokens/", {"username": "carol", "password": "x"}, False
            ),
            "stream": call("GET", f"/api/v1/matches/{match['id']}/live/stream/"),
            "healthz": call("GET", "/healthz", auth=False),
        }
        assert {name: status for name, (status, _, _) in answers.items()} == {
            "list": 200,  # the request limits fail open
            "hand": 201,
            "standings": 200,
            "rulings": 200,
            "sign_in": 503,  # the sign-in limits fail closed
            "stream": 503,
            "healthz": 503,
        }
        assert answers["sign_in"][1]["errors"][0]["code"] == "sign_in_unavailable"
        assert answers["stream"][1]["errors"][0]["code"] == "live_stream_unavailable"
        assert int(answers["stream"][2].headers["Retry-After"]) > 0
        assert answers["healthz"][1] == {
            "status": "unavailable",
            "database": "ok",
            "cache": "unreachable",
        }

        redis_server.start()
        harness.wait_until(
            harness.answers_http(server.port), what="healthz after Redis came back", seconds=30
        )
        conn, response = open_stream(server, match["id"], headers)
        conn.close()
        assert response.status == 200


# --- limits that count under concurrency ---------------------------------------------------


def limited_server(backend: str, redis_server: RedisServer, tmp_path, **rates: str):
    if backend == "redis":
        return app_server(WORKERS, tmp_path / "server.log", REDIS_URL=redis_server.url, **rates)
    call_command("createcachetable")
    return app_server(WORKERS, tmp_path / "server.log", CACHE_BACKEND="database", **rates)


@pytest.mark.parametrize("backend", ["redis", "database"])
def test_eight_parallel_clients_get_no_more_than_the_limit(
    backend, redis_server, tmp_path, carols_match
):
    headers, _, _ = carols_match
    with limited_server(backend, redis_server, tmp_path, USER_THROTTLE_RATE="60/min") as server:
        started = time.monotonic()
        with ThreadPoolExecutor(8) as parallel:
            answers = list(
                parallel.map(
                    lambda _: server.answer("GET", "/api/v1/clubs/", headers=headers), range(120)
                )
            )
        elapsed = time.monotonic() - started
    statuses = [status for status, _, _ in answers]
    admitted = statuses.count(200)
    # The documented slack: the limit's share of the time the burst lasted (accounts/ratelimit).
    assert 0 < admitted <= 60 + math.ceil(60 * elapsed / 60), (admitted, elapsed)
    assert statuses.count(429) == 120 - admitted
    limits = {response.headers["RateLimit-Limit"] for _, _, response in answers}
    assert limits == {"60"}
    assert min(int(response.headers["RateLimit-Remaining"]) for _, _, response in answers) == 0
    assert all(0 < int(response.headers["RateLimit-Reset"]) <= 60 for _, _, response in answers)


@pytest.mark.parametrize("backend", ["redis", "database"])
@pytest.mark.parametrize("per", ["account", "address"])
def test_thirty_parallel_wrong_passwords_get_no_more_than_ten_tries(
    backend, per, redis_server, tmp_path, carol
):
    rates = {
        "AUTH_THROTTLE_RATE": "10/min" if per == "address" else "1000/min",
        "AUTH_ACCOUNT_THROTTLE_RATE": "10/min" if per == "account" else "1000/min",
        "DATABASE_POOL_TIMEOUT": "300",  # and requests wait for a connection meanwhile
    }
    with limited_server(backend, redis_server, tmp_path, **rates) as server:

        def guess(number: int) -> int:
            username = "carol" if per == "account" else f"nobody{number}"
            body = json.dumps({"username": username, "password": "wrong"}).encode()
            # Thirty password hashes at once take a while on a small, busy machine.
            status, answer, _ = server.answer(
                "POST", "/api/v1/auth/tokens/", body, JSON, timeout=300
            )
            assert status in (400, 429), answer
            return status

        started = time.monotonic()
        with ThreadPoolExecutor(30) as parallel:
            statuses = list(parallel.map(guess, range(30)))
        elapsed = time.monotonic() - started
    # Ten, plus the documented slack when the burst outlasts the turn of a window: the limit's
    # share of the time it lasted (accounts/ratelimit). On a busy machine thirty password
    # checks can take long enough for the minute to turn while they run.
    tried = statuses.count(400)
    assert 10 <= tried <= 10 + math.ceil(10 * elapsed / 60), (statuses, elapsed)
    assert statuses.count(429) == 30 - tried


@pytest.mark.parametrize("backend", ["redis", "database"])
def test_a_club_signing_in_at_once_behind_one_address_all_get_in(backend, redis_server, tmp_path):
    """Twenty players on the club's one Wi-Fi address sign in at the same moment, each with the
    right password, against a limit of ten failed attempts an address: none is refused (the
    attempts past the ten slots wait for the ones being checked), and a wrong password after
    them is still checked: right ones left nothing counted."""
    hashed = PBKDF2PasswordHasher().encode("club-night-pw-1", "clubnightsalt")  # as served
    get_user_model().objects.bulk_create(
        get_user_model()(username=f"player{number}", password=hashed) for number in range(20)
    )
    # the wait for attempts in flight made a deadline for a server that hangs, not for a busy
    # machine's slow hashing (ten at once on two cores): 10 s refused some under a loaded CI
    rates = {
        "AUTH_THROTTLE_RATE": "10/min",
        "AUTH_THROTTLE_WAIT_SECONDS": "300",
        "DATABASE_POOL_TIMEOUT": "300",
    }
    with limited_server(backend, redis_server, tmp_path, **rates) as server:

        def sign_in(number: int, password: str = "club-night-pw-1") -> int:
            body = json.dumps({"username": f"player{number}", "password": password}).encode()
            status, _, _ = server.answer("POST", "/api/v1/auth/tokens/", body, JSON, timeout=300)
            return status

        barrier = threading.Barrier(20)

        def together(number: int) -> int:
            barrier.wait(timeout=60)
            return sign_in(number)

        with ThreadPoolExecutor(20) as parallel:
            statuses = list(parallel.map(together, range(20)))
        assert statuses == [201] * 20
        assert sign_in(0, password="wrong") == 400


# --- watchers ------------------------------------------------------------------------------


def test_a_killed_workers_stream_slots_come_back(redis_server, tmp_path, carols_match):
    headers, match, _ = carols_match
    with app_server(
        1,
        tmp_path / "server.log",
        REDIS_URL=redis_server.url,
        LIVE_STREAM_MAX_PER_MATCH="3",
        LIVE_STREAM_HEARTBEAT_SECONDS="1",
    ) as server:
        streams = [open_stream(server, match["id"], headers) for _ in range(3)]
        assert [response.status for _, response in streams] == [200] * 3
        full = open_stream(server, match["id"], headers)
        assert full[1].status == 429
        full[0].close()

        (worker,) = server.workers()
        os.kill(worker, signal.SIGKILL)  # no finally block runs: nothing gives the slots back
        for conn, _ in streams:
            conn.close()
        server.wait_until_up()
        watchers = redis.Redis.from_url(redis_server.url)
        key = f"arlington:live-watchers:{match['id']}"
        lease = 2 * 1 + 5  # two heartbeats and a margin (matches/api/live_stream.py)
        deadline = time.monotonic() + lease + 10
        while True:
            assert watchers.zcard(key) >= 0
            conn, response = open_stream(server, match["id"], headers)
            if response.status == 200:
                break
            conn.close()
            assert response.status == 429
            assert time.monotonic() < deadline, "the dead worker's slots never came back"
            time.sleep(0.5)
        conn.close()

        # A Redis that restarts empty counts from nothing, never below it.
        redis_server.stop()
        redis_server.start()
        streams = [open_stream(server, match["id"], headers) for _ in range(4)]
        assert [response.status for _, response in streams] == [200, 200, 200, 429]
        assert watchers.zcard(key) == 3
        for conn, _ in streams:
            conn.close()


def test_a_user_watches_a_limited_number_of_streams(redis_server, tmp_path, carols_match):
    headers, match, _ = carols_match
    with app_server(
        1, tmp_path / "server.log", REDIS_URL=redis_server.url, LIVE_STREAM_MAX_PER_USER="2"
    ) as server:
        streams = [open_stream(server, match["id"], headers) for _ in range(3)]
        assert [response.status for _, response in streams] == [200, 200, 429]
        assert json.loads(streams[2][1].read())["errors"][0]["code"] == "too_many_watchers"
        for conn, _ in streams:
            conn.close()


# --- slow clients ---------------------------------------------------------------------------


def test_stalled_bodies_do_not_block_the_server(tmp_path, db):
    call_command("createcachetable")
    with app_server(1, tmp_path / "server.log", CACHE_BACKEND="database") as server:
        stalled = []
        for _ in range(5):
            client = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            client.sendall(
                b"POST /api/v1/rulings/meld/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                b'{"cards": '
            )
            stalled.append(client)
        started = time.monotonic()
        conn = server.connect(timeout=10)
        conn.request("POST", "/api/v1/rulings/meld/", body=MELD, headers=JSON)
        answer = conn.getresponse()
        answered_in = time.monotonic() - started
        assert answer.status == 200, answer.read()
        conn.close()
        for client in stalled:
            client.close()
    assert answered_in < 5


def test_manage_check_warns_of_a_game_package_in_a_misspelt_group(tmp_path, monkeypatch):
    """``manage.py check`` names the package whose game the service will not serve."""
    from django.core.management.base import SystemCheckError

    info = tmp_path / "gin_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gin-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[arlington.ruleset]\ngin = gin_game:RULESET\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(SystemCheckError) as said:
        call_command("check", fail_level="WARNING")
    assert "arlington.W004" in str(said.value)
    assert "The package gin-game names entry points in the group 'arlington.ruleset'" in str(
        said.value
    )

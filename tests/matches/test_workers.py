"""The sign-in limits hold across gunicorn workers, which then share their cache.

gunicorn runs here as in docs/deployment.md's one-machine recipe (several sync workers on a free
loopback port, DEBUG off), against the test database, with the database cache
(``CACHE_BACKEND=database``). Each request opens its own connection, so that the workers take
turns; the access log says which worker answered. With a cache kept by each process, gunicorn
refuses to start several workers at all.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests import harness
from tests.database import server_url
from tests.harness import free_port

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 3
ADDRESS_LIMIT = 5
ACCOUNT_LIMIT = 3
ATTEMPTS = 10


def server_env(**overrides: str) -> dict[str, str]:
    database = server_url(connection.settings_dict)
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_BACKEND"}}
    env.update(
        DATABASE_URL=database,
        DJANGO_SETTINGS_MODULE="arlington_site.settings",
        SECRET_KEY="workers-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1",
        AUTH_THROTTLE_RATE=f"{ADDRESS_LIMIT}/min",
        AUTH_ACCOUNT_THROTTLE_RATE=f"{ACCOUNT_LIMIT}/min",
        LOG_LEVEL="WARNING",
        DJANGO_LOG_LEVEL="ERROR",
    )
    env.update(overrides)
    return env


def gunicorn(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Started from the project's root, as the recipe does, so gunicorn reads gunicorn.conf.py;
    its own output in ``log`` with ``.out`` added."""
    options = ["--access-logfile", str(log), "--access-logformat", "%(p)s %(s)s %(U)s"]
    command = harness.gunicorn(port, WORKERS, *options, asgi=False)
    return harness.start(command, env=env, log=log.with_suffix(".out"))


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> http.client.HTTPResponse:
    """One request on a connection of its own; the answer is read whole."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


@pytest.fixture
def served(settings, tmp_path) -> Iterator[tuple[int, Path]]:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "arlington_cache",
        }
    }
    call_command("createcachetable")
    port, log = free_port(), tmp_path / "access.log"
    server = gunicorn(port, server_env(CACHE_BACKEND="database"), log)
    try:
        harness.wait_until(
            harness.answers_http(port),
            what="gunicorn answering /healthz",
            processes=[server],
            log=log.with_suffix(".out"),
        )
        yield port, log
    finally:
        harness.stop(server)
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS arlington_cache")


def forget_counts() -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM arlington_cache")
        cursor.execute("DELETE FROM accounts_ratecounter")  # the limits' counts (accounts/)


def token_attempt(port: int, username: str) -> int:
    body = json.dumps({"username": username, "password": "wrong"}).encode()
    return request(
        port, "POST", "/api/v1/auth/token/", body, {"Content-Type": "application/json"}
    ).status


def admin_attempt(port: int, username: str) -> int:
    page = request(port, "GET", "/admin/login/")
    cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    assert cookie, page.getheaders()
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": cookie.group(1), "username": username, "password": "wrong"}
    )
    return request(
        port,
        "POST",
        "/admin/login/",
        form.encode(),
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie.group(1)}",
        },
    ).status


def workers_that_answered(log: Path, path: str) -> set[str]:
    return {line.split()[0] for line in log.read_text().splitlines() if line.endswith(path)}


def at_once(attempt: Callable[[int, str], int], port: int, names: list[str]) -> Counter[int]:
    """The attempts sent together, each on its own connection: a sync worker busy with one
    cannot accept the next, so several workers answer (sent one after another, a single idle
    worker may take them all)."""
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        return Counter(pool.map(lambda name: attempt(port, name), names))


def test_the_sign_in_limits_hold_across_workers(served, django_user_model):
    port, log = served
    django_user_model.objects.create_user("staff", password="x", is_staff=True)

    # Per address: each attempt names another account, so only the address is counted.
    per_address = [token_attempt(port, f"nobody{i}") for i in range(ATTEMPTS)]
    assert per_address == [400] * ADDRESS_LIMIT + [429] * (ATTEMPTS - ADDRESS_LIMIT)
    forget_counts()
    per_address = [admin_attempt(port, f"nobody{i}") for i in range(ATTEMPTS)]
    assert per_address == [200] * ADDRESS_LIMIT + [429] * (ATTEMPTS - ADDRESS_LIMIT)
    forget_counts()

    # Per account: failed attempts at one account, through either door.
    per_account = [token_attempt(port, "staff") for _ in range(ATTEMPTS)]
    assert per_account == [400] * ACCOUNT_LIMIT + [429] * (ATTEMPTS - ACCOUNT_LIMIT)
    forget_counts()
    per_account = [admin_attempt(port, "staff") for _ in range(ATTEMPTS)]
    assert per_account == [200] * ACCOUNT_LIMIT + [429] * (ATTEMPTS - ACCOUNT_LIMIT)

    # The same limits with the attempts sent together: several workers answer them, and the
    # counts are still shared (a count per process would let each worker admit its own five).
    for attempt, path, refused in (
        (token_attempt, "/api/v1/auth/token/", 400),
        (admin_attempt, "/admin/login/", 200),
    ):
        forget_counts()
        answers = at_once(attempt, port, [f"someone{i}" for i in range(ATTEMPTS)])
        assert answers == Counter({refused: ADDRESS_LIMIT, 429: ATTEMPTS - ADDRESS_LIMIT})
        assert len(workers_that_answered(log, path)) >= 2


def test_a_chunked_body_is_refused_with_411_not_read_as_empty(served):
    port, _ = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        "POST",
        "/api/v1/rulings/meld/",
        body=iter([b'{"cards": ', b'["5H"]}']),
        headers={"Content-Type": "application/json"},
        encode_chunked=True,
    )
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    assert answer.status == 411, body
    assert b'"length_required"' in body


def test_several_workers_with_a_cache_kept_by_each_process_refuse_to_start(tmp_path):
    log = tmp_path / "access.log"
    server = gunicorn(free_port(), server_env(CACHE_BACKEND="local"), log)
    try:
        server.wait(timeout=60)
    finally:
        harness.stop(server)
    assert server.returncode != 0
    assert "Refusing to start 3 workers" in log.with_suffix(".out").read_text()

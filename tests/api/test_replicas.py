"""With read replicas, a client reads its own writes: reads go to the primary right after."""

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import RequestFactory

from arlington_site import replicas


@pytest.fixture
def one_replica(monkeypatch, fresh_cache):
    monkeypatch.setattr(replicas, "replica_aliases", lambda: ["replica_0"])


def in_a_process(script: str, env: dict[str, str]):
    """Run ``script`` with Python in a process of its own, with ``env``; its finished run."""
    import subprocess
    import sys
    from pathlib import Path

    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out


def reads_go_to(request, status=200):
    """Pass ``request`` through the middleware; say where a read inside it would go."""
    seen = []

    def view(request):
        seen.append(replicas.PrimaryReplicaRouter().db_for_read(None))
        return HttpResponse(status=status)

    replicas.ReadYourWritesMiddleware(view)(request)
    return seen[0]


def test_without_replicas_everything_uses_the_primary():
    router = replicas.PrimaryReplicaRouter()
    assert router.db_for_read(None) == "default"
    assert router.db_for_write(None) == "default"
    assert reads_go_to(RequestFactory().get("/api/v1/clubs/")) == "default"


def test_reads_go_to_a_replica_and_writes_to_the_primary(one_replica):
    factory = RequestFactory()
    assert reads_go_to(factory.get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token a")) == "replica_0"
    assert reads_go_to(factory.post("/api/v1/clubs/", HTTP_AUTHORIZATION="Token a")) == "default"
    assert replicas.PrimaryReplicaRouter().db_for_write(None) == "default"


def test_a_client_reads_its_own_writes_for_a_while(one_replica, settings):
    factory = RequestFactory()
    reads_go_to(factory.post("/api/v1/matches/1/hands/", HTTP_AUTHORIZATION="Token carol"), 201)
    assert reads_go_to(factory.get("/api/v1/matches/1/", HTTP_AUTHORIZATION="Token carol")) == (
        "default"
    )
    assert reads_go_to(factory.get("/api/v1/matches/1/", HTTP_AUTHORIZATION="Token victor")) == (
        "replica_0"
    )


def test_a_refused_write_does_not_pin(one_replica):
    factory = RequestFactory()
    reads_go_to(factory.post("/api/v1/matches/1/hands/", HTTP_AUTHORIZATION="Token carol"), 400)
    assert reads_go_to(factory.get("/api/v1/matches/1/", HTTP_AUTHORIZATION="Token carol")) == (
        "replica_0"
    )


@pytest.mark.django_db(transaction=True)
def test_reads_inside_a_transaction_go_to_the_primary(one_replica):
    """The webhook worker and management commands are not pinned as requests are: a read
    inside their transaction (the ratings replay reading what it has just deleted) must see
    that transaction, not a replica."""
    router = replicas.PrimaryReplicaRouter()
    assert router.db_for_read(None) == "replica_0"
    with transaction.atomic():
        assert router.db_for_read(None) == "default"
    assert router.db_for_read(None) == "replica_0"


def test_replica_urls_become_mirrored_database_aliases():
    import os

    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_REPLICA_URLS": "postgres://ro@replica-a/arl,postgres://ro@replica-b/arl",
    }
    script = (
        "import django; django.setup(); from django.conf import settings;"
        "print(sorted(settings.DATABASES), settings.DATABASES['replica_1']['HOST'],"
        " settings.DATABASES['replica_1']['TEST']['MIRROR'])"
    )
    out = in_a_process(script, env)
    assert out.stdout.split() == [
        "['default',",
        "'replica_0',",
        "'replica_1']",
        "replica-b",
        "default",
    ]


def test_the_database_caches_counts_are_read_from_the_primary(one_replica):
    from django.core.cache.backends.db import DatabaseCache

    from arlington_site.replicas import PrimaryReplicaRouter
    from matches.models import Club

    assert PrimaryReplicaRouter().db_for_read(Club) == "replica_0"
    cache = DatabaseCache("arlington_cache", {})
    assert PrimaryReplicaRouter().db_for_read(cache.cache_model_class) == "default"


@pytest.mark.django_db
def test_reads_inside_one_snapshot_stay_on_the_replica_it_opened_on():
    """A table read from one snapshot (``selectors.one_snapshot``) opens its transaction on a
    replica: every read inside goes to that replica, in that transaction, not to another one
    at random, outside it. Two replicas (both the test database) in a process of its own."""
    import os

    from django.db import connection

    from tests.database import server_url

    url = server_url(connection.settings_dict, connection.settings_dict["NAME"])
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": url,
        "DATABASE_REPLICA_URLS": f"{url},{url}",
    }
    script = (
        "import django; django.setup()\n"
        "from django.db import connections, router\n"
        "from matches import selectors\n"
        "from matches.models import Match\n"
        "seen, levels = set(), set()\n"
        "with selectors.one_snapshot():\n"
        "    for _ in range(12):\n"
        "        alias = router.db_for_read(Match)\n"
        "        seen.add(alias)\n"
        "        with connections[alias].cursor() as cursor:\n"
        "            cursor.execute('SHOW transaction_isolation')\n"
        "            levels.add(cursor.fetchone()[0])\n"
        "print(len(seen), sorted(seen)[0][:8], sorted(levels))\n"
    )
    out = in_a_process(script, env)
    assert out.stdout.split("\n")[0] == "1 replica_ ['repeatable read']"

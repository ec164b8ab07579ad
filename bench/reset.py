"""Benchmark: emptying the test database after a test whose writes were committed.

Django's ``flush`` (TRUNCATE of every table, then ``post_migrate`` writing the content types
and permissions back) against the tests' reset (``tests/database.py``: DELETE in one
transaction, the migrations' rows kept), on a throwaway PostgreSQL database
(``arlington_reset_<pid>``, created, migrated and dropped here). Each round writes what a
committed test typically leaves (two users, a club with its roster, a season, a match with a
recorded hand) and empties the database with one of the two, alternating, so that both see the
same machine. Prints the median of each and the ratio of the reset to ``flush``.

Run: ``.venv/bin/python bench/reset.py [--rounds N]``. The server is ``BENCH_POSTGRES_URL``
(default postgres://postgres@127.0.0.1:5432/postgres).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.standings import create_database, drop_database, setup_django  # noqa: E402


def committed_rows() -> None:
    """What a test of a recorded hand commits."""
    from matches.models import Membership, Player, Role, Season
    from matches.services import clubs as club_services
    from tests.factories import client_for, make_user, record, start_match, went_out

    alice, carol = make_user("alice"), make_user("carol")
    club = club_services.club_create(name="Arlington Card Club", user=alice)
    Membership.objects.create(club=club, user=carol, role=Role.SCOREKEEPER)
    players = [Player.objects.create(club=club, name=name) for name in ("Ann", "Ben", "Cleo")]
    Season.objects.create(club=club, name="Spring")
    match = start_match(client_for(carol), club, players)
    answer = record(
        client_for(carol), match["id"], went_out(players[0].pk, [p.pk for p in players])
    )
    assert answer.status_code == 201, answer.json()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    name = f"arlington_reset_{os.getpid()}"
    create_database(name)
    try:
        os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
        setup_django(name)
        from django.conf import settings
        from django.contrib.auth.models import Permission
        from django.contrib.contenttypes.models import ContentType
        from django.core.management import call_command
        from django.db import connections

        from tests import database

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        settings.ALLOWED_HOSTS = ["testserver"]
        database.remember("default")
        kept = (ContentType.objects.count(), Permission.objects.count())

        def flush() -> None:
            call_command("flush", verbosity=0, interactive=False, reset_sequences=False)

        def reset() -> None:
            assert database.emptied("default")

        ways: dict[str, Callable[[], None]] = {"flush": flush, "reset": reset}
        times: dict[str, list[float]] = {way: [] for way in ways}
        for number in range(args.rounds * 2):
            way = list(ways)[number % 2]
            committed_rows()
            began = time.perf_counter()
            ways[way]()
            times[way].append(time.perf_counter() - began)
            assert (ContentType.objects.count(), Permission.objects.count()) == kept
            database.remember("default")  # flush wrote them again, under new ids
        connections.close_all()
    finally:
        drop_database(name)
    medians = {way: statistics.median(seconds) * 1000 for way, seconds in times.items()}
    print(f"{args.rounds} rounds each, alternating; median time to empty the database:")
    for way, median in medians.items():
        print(f"  {way:<6} {median:7.1f} ms")
    print(f"reset / flush: {medians['reset'] / medians['flush']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

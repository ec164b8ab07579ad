"""Benchmark: a club's standings over a season's worth of league play, against a bare endpoint.

Seeds a throwaway PostgreSQL database (``arlington_bench_<pid>``, created and dropped here) with
a league of 100 players, 2,000 matches and about 20,000 hands, written directly with
``bulk_create`` (plausible nets, each seat's total the sum of its nets; not a rules test).
Then it times ``GET /api/v1/clubs/{id}/standings/`` through Django's test client, as a viewer
of the club, against an authenticated DRF endpoint that returns a constant, alternating the
two so that both see the same machine. Goal (docs/benchmarks.md): at most 3x. For reference,
with no goal, the same tables counted afresh, in rounds of their own against the baseline: the
club's standings stamp is moved on before each of those requests (outside the timing), as a
finished match does, so the cache misses.

Run: ``make bench`` or ``.venv/bin/python bench/standings.py [--players N] [--matches N]
[--rounds N]``. The server is ``BENCH_POSTGRES_URL`` (default
postgres://postgres@127.0.0.1:5432/postgres); the database it names is used only to create
and drop the throwaway one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
import types
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
HANDS_PER_MATCH = (6, 14)  # about ten hands a match on average


def database_url(name: str) -> str:
    parts = urlsplit(SERVER)
    return urlunsplit(parts._replace(path=f"/{name}"))


def create_database(name: str) -> None:
    with psycopg.connect(SERVER, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(name: str) -> None:
    with psycopg.connect(SERVER, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def setup_django(name: str) -> None:
    os.environ["DATABASE_URL"] = database_url(name)
    os.environ.setdefault("SECRET_KEY", "arlington-bench-key")
    os.environ["DEBUG"] = "false"
    os.environ["DJANGO_SETTINGS_MODULE"] = "arlington_site.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "ERROR")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _result(rng: random.Random, out: bool) -> dict[str, int]:
    """A plausible itemised result: the player who went out holds nothing and gets the bonus."""
    if out:
        melded, penalty, bonus = rng.randrange(150, 320, 5), 0, 100
    else:
        melded, penalty, bonus = rng.randrange(0, 200, 5), rng.randrange(5, 160, 5), 0
    return {
        "melded_points": melded,
        "hand_penalty": penalty,
        "bonus": bonus,
        "net": melded - penalty + bonus,
    }


def seed(players: int, matches: int, rng: random.Random) -> tuple[int, int, int]:
    """The league: returns the club's id, a viewer's id and how many hands were written."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from matches.models import (
        Club,
        Hand,
        HandResult,
        HandRevision,
        Match,
        MatchStatus,
        Membership,
        Player,
        Role,
        Season,
        Seat,
    )

    user_model = get_user_model()
    owner = user_model.objects.create_user("owner", password=None)
    viewer = user_model.objects.create_user("viewer", password=None)
    club = Club.objects.create(name="League", created_by=owner)
    Membership.objects.bulk_create(
        [
            Membership(club=club, user=owner, role=Role.OWNER),
            Membership(club=club, user=viewer, role=Role.VIEWER),
        ]
    )
    roster = Player.objects.bulk_create(
        Player(club=club, name=f"Player {i:03}") for i in range(players)
    )
    seasons = Season.objects.bulk_create(
        Season(club=club, name=f"Season {y}") for y in (2025, 2026)
    )
    start = timezone.now() - dt.timedelta(days=365)

    rows: list[Match] = []
    seatings: list[list[Player]] = []
    for i in range(matches):
        seated = rng.sample(roster, rng.randint(2, 5))
        finished = i < matches * 0.95
        rows.append(
            Match(
                club=club,
                season=seasons[i % 2],
                seat_count=len(seated),
                first_dealer=seated[0],
                status=MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS,
                finished_at=start + dt.timedelta(minutes=260 * i) if finished else None,
                hands_played=rng.randint(*HANDS_PER_MATCH),
                created_by=owner,
            )
        )
        seatings.append(seated)
    rows = Match.objects.bulk_create(rows, batch_size=1000)

    hands: list[Hand] = []
    for match, seated in zip(rows, seatings, strict=True):
        for number in range(1, match.hands_played + 1):
            out = rng.choice(seated) if rng.random() < 0.9 else None
            hands.append(
                Hand(
                    match=match,
                    number=number,
                    dealer=seated[(number - 1) % len(seated)],
                    ending="went_out" if out else "stock_exhausted",
                    went_out=out,
                    recorded_by=owner,
                )
            )
    hands = Hand.objects.bulk_create(hands, batch_size=5000)
    HandRevision.objects.bulk_create(  # every recorded hand has its first revision
        (
            HandRevision(
                match_id=hand.match_id,
                number=hand.number,
                revision=1,
                action="recorded",
                hand={"ending": hand.ending, "went_out": hand.went_out_id},
                by=owner,
            )
            for hand in hands
        ),
        batch_size=5000,
    )

    seating = dict(zip((m.pk for m in rows), seatings, strict=True))
    totals: dict[tuple[int, int], int] = {}
    results: list[HandResult] = []
    for hand in hands:
        for position, player in enumerate(seating[hand.match_id]):
            figures = _result(rng, hand.went_out_id == player.pk)
            key = (hand.match_id, player.pk)
            totals[key] = totals.get(key, 0) + figures["net"]
            held = [] if figures["bonus"] else [{"card": "QS", "points": 50}]
            results.append(
                HandResult(
                    hand=hand,
                    player=player,
                    position=position,
                    held=held,
                    total=totals[key],
                    melds=[{"cards": ["7H", "7D", "2C=7S"], "kind": "set", "points": 15}],
                    **figures,
                )
            )
    HandResult.objects.bulk_create(results, batch_size=5000)

    outs: dict[tuple[int, int], int] = {}
    for hand in hands:
        if hand.went_out_id is not None:
            key = (hand.match_id, hand.went_out_id)
            outs[key] = outs.get(key, 0) + 1
    seats: list[Seat] = []
    for match, seated in zip(rows, seatings, strict=True):
        finals = [totals[(match.pk, p.pk)] for p in seated]
        best = max(finals)
        won = [match.status == MatchStatus.FINISHED and total == best for total in finals]
        share = (Decimal(1) / sum(won)).quantize(Decimal("0.0001")) if any(won) else Decimal(0)
        for position, (player, total) in enumerate(zip(seated, finals, strict=True)):
            seats.append(
                Seat(
                    match=match,
                    player=player,
                    position=position,
                    total=total,
                    winner=won[position],
                    went_out=outs.get((match.pk, player.pk), 0),
                    victory_points=share if won[position] else Decimal(0),
                )
            )
    Seat.objects.bulk_create(seats, batch_size=5000)
    with connection.cursor() as cursor:  # fresh statistics, as autovacuum would soon give
        cursor.execute("ANALYZE")
    return club.pk, viewer.pk, len(hands)


def install_baseline_urls() -> None:
    """The project's URLs plus ``/baseline/``: authenticated DRF, a constant answer."""
    from django.conf import settings
    from django.urls import clear_url_caches, include, path
    from rest_framework.permissions import IsAuthenticated
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class Baseline(APIView):
        permission_classes = [IsAuthenticated]

        def get(self, request: Request) -> Response:
            return Response({"ok": True})

    module = types.ModuleType("bench_standings_urls")
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("baseline/", Baseline.as_view()),
        path("", include("arlington_site.urls")),
    ]
    sys.modules[module.__name__] = module
    settings.ROOT_URLCONF = module.__name__
    clear_url_caches()


def measure(
    urls: dict[str, str], user_id: int, rounds: int, afresh: Callable[[], None] = lambda: None
) -> dict[str, list[float]]:
    """Seconds per request for each URL, the URLs taking turns within every round; before a
    URL whose label ends in "afresh", ``afresh`` runs (untimed)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(pk=user_id))
    times: dict[str, list[float]] = {label: [] for label in urls}
    for label, url in urls.items():  # warm up: connections, URL resolver, first queries
        for _ in range(3):
            response = client.get(url, secure=True)
            assert response.status_code == 200, (label, url, response.status_code)
    for _ in range(rounds):
        for label, url in urls.items():
            if label.endswith("afresh"):
                afresh()
            began = time.perf_counter()
            response = client.get(url, secure=True)
            times[label].append(time.perf_counter() - began)
            assert response.status_code == 200
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()

    name = f"arlington_bench_{os.getpid()}"
    create_database(name)
    try:
        setup_django(name)
        began = time.perf_counter()
        club_id, viewer_id, hand_count = seed(args.players, args.matches, random.Random(args.seed))
        seeded = time.perf_counter() - began
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        install_baseline_urls()
        urls = {
            "baseline": "/baseline/",
            "standings": f"/api/v1/clubs/{club_id}/standings/",
            "season standings": f"/api/v1/seasons/{_first_season(club_id)}/standings/",
        }
        from matches.models import Club

        times = measure(urls, viewer_id, args.rounds)
        afresh = {
            "baseline": urls["baseline"],
            "standings afresh": urls["standings"],
            "season afresh": urls["season standings"],
        }
        cold = measure(afresh, viewer_id, args.rounds, lambda: Club.standings_changed(club_id))
        base = statistics.median(times["baseline"])
        print(
            f"seeded {args.players} players, {args.matches} matches, {hand_count} hands "
            f"in {seeded:.1f} s; {args.rounds} rounds"
        )
        for label, samples in times.items():
            median = statistics.median(samples)
            print(f"{label:>17}: {median * 1000:7.2f} ms median   {median / base:5.2f}x")
        cold_base = statistics.median(cold.pop("baseline"))
        for label, samples in cold.items():
            median = statistics.median(samples)
            print(f"{label:>17}: {median * 1000:7.2f} ms median   {median / cold_base:5.2f}x")
        ratio = statistics.median(times["standings"]) / base
        print(f"standings / baseline: {ratio:.2f}x (goal: at most 3x)")
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(name)


def _first_season(club_id: int) -> int:
    from matches.models import Season

    return Season.objects.filter(club_id=club_id).order_by("pk").values_list("pk", flat=True)[0]


if __name__ == "__main__":
    main()

"""Benchmark: ratings and public results over a season's worth of league play.

Seeds the same throwaway league as ``bench/standings.py`` (100 players, 2,000 matches, about
20,000 hands, in ``arlington_bench_<pid>``), then measures, in the same run:

- rating every finished match from the first (``ratings.replay``, what ``manage.py rerate``
  does), per match;
- a replay from the last match (what the hand that finishes a match costs) and from the first
  (what a correction of the club's oldest match costs), each against the full rating;
- the public standings page (``/r/<token>/``, anonymous, rendered on the server) and its
  revalidation with ``If-None-Match`` (304), against an authenticated DRF endpoint answering a
  constant, taking turns. Goal (docs/benchmarks.md): the page at most 3x the baseline.

Run: ``.venv/bin/python bench/clubnight.py [--players N] [--matches N] [--rounds N]``
(``BENCH_POSTGRES_URL`` as for bench/standings.py).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.standings import (  # noqa: E402
    create_database,
    drop_database,
    install_baseline_urls,
    seed,
    setup_django,
)


def timed(action) -> float:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


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
        club_id, viewer_id, hand_count = seed(args.players, args.matches, random.Random(args.seed))
        from django.contrib.auth import get_user_model
        from django.db import transaction
        from django.test import Client

        from clubnight import ratings
        from clubnight.models import PublicLink, RatingEntry
        from matches.models import Match, MatchStatus

        finished = Match.objects.filter(club_id=club_id, status=MatchStatus.FINISHED)
        count = finished.count()
        full = timed(
            lambda: transaction.atomic()(ratings.replay)(club_id=club_id, ruleset="arlington")
        )
        first = finished.order_by("finished_at", "id").first()
        last = finished.order_by("-finished_at", "-id").first()
        assert first is not None and last is not None and first.finished_at and last.finished_at

        def replay_from(match: Match) -> None:
            with transaction.atomic():
                ratings.replay(
                    club_id=club_id, ruleset="arlington", start=(match.finished_at, match.pk)
                )

        latest = statistics.median(timed(lambda: replay_from(last)) for _ in range(5))
        oldest = timed(lambda: replay_from(first))
        print(
            f"seeded {args.players} players, {args.matches} matches, {hand_count} hands; "
            f"{RatingEntry.objects.count()} rating entries"
        )
        print(
            f"rating all {count} finished matches: {full:.2f} s, "
            f"{full / count * 1000:.2f} ms a match"
        )
        print(
            f"replay from the last match (a finish): {latest * 1000:.2f} ms "
            f"({latest / full:.4f}x the full rating)"
        )
        print(
            f"replay from the first match (an old correction): {oldest:.2f} s "
            f"({oldest / full:.2f}x)"
        )

        link = PublicLink.objects.create(club_id=club_id, scope="standings")
        install_baseline_urls()
        signed_in = Client()
        signed_in.force_login(get_user_model().objects.get(pk=viewer_id))
        anonymous = Client()
        page = f"/r/{link.token}/"
        tag = anonymous.get(page, secure=True)["ETag"]
        calls = {
            "baseline": lambda: signed_in.get("/baseline/", secure=True),
            "public page": lambda: anonymous.get(page, secure=True),
            "public page 304": lambda: anonymous.get(page, secure=True, HTTP_IF_NONE_MATCH=tag),
        }
        times: dict[str, list[float]] = {label: [] for label in calls}
        for call in calls.values():
            for _ in range(3):
                call()
        for _ in range(args.rounds):
            for label, call in calls.items():
                times[label].append(timed(call))
        base = statistics.median(times["baseline"])
        for label, samples in times.items():
            median = statistics.median(samples)
            print(f"{label:>16}: {median * 1000:7.2f} ms median   {median / base:5.2f}x")
        ratio = statistics.median(times["public page"]) / base
        print(f"public page / baseline: {ratio:.2f}x (goal: at most 3x)")
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(name)


if __name__ == "__main__":
    main()

"""Benchmark: ratings and public results over a season's worth of league play.

Seeds the same throwaway league as ``bench/standings.py`` (100 players, 2,000 matches, about
20,000 hands, in ``arlington_bench_<pid>``), then measures, in the same run:

- rating every finished match from the first (``ratings.replay``, what ``manage.py rerate``
  does), per match;
- a replay from the last match (what the hand that finishes a match costs), and a correction
  of the club's oldest match that makes its last player the winner (and back again), then the
  replay it sets off once it has committed (``ratings.replay_club``, what runs after a
  correction or void): every later entry changes. Each is taken in turns with the baseline below and
  printed as a ratio to it;
- the public standings page (``/r/<token>/``, anonymous, rendered on the server) and its
  revalidation with ``If-None-Match`` (304), against an authenticated DRF endpoint answering a
  constant, taking turns. Goal (docs/benchmarks.md): the page at most 3x the baseline.

Run: ``.venv/bin/python bench/clubnight.py [--players N] [--matches N] [--rounds N]
[--corrections N] [--name DB]`` (``BENCH_POSTGRES_URL`` as for bench/standings.py; ``--name``
the throwaway database's name).
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
    parser.add_argument("--corrections", type=int, default=6)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--name", default=f"arlington_bench_{os.getpid()}")
    args = parser.parse_args()

    name = args.name
    create_database(name)
    try:
        setup_django(name)
        club_id, viewer_id, hand_count = seed(args.players, args.matches, random.Random(args.seed))
        from django.contrib.auth import get_user_model
        from django.db import transaction
        from django.test import Client

        from clubnight import ratings
        from clubnight.models import PendingReplay, PublicLink, RatingEntry
        from matches.models import Match, MatchStatus, Seat

        install_baseline_urls()
        signed_in = Client()
        signed_in.force_login(get_user_model().objects.get(pk=viewer_id))
        signed_in.get("/baseline/", secure=True)

        finished = Match.objects.filter(club_id=club_id, status=MatchStatus.FINISHED)
        count = finished.count()
        full = timed(
            lambda: transaction.atomic()(ratings.replay)(club_id=club_id, ruleset="arlington")
        )
        first = finished.order_by("finished_at", "id").first()
        last = finished.order_by("-finished_at", "-id").first()
        assert first is not None and last is not None and first.finished_at and last.finished_at

        def finish_last() -> None:
            with transaction.atomic():
                ratings.replay(
                    club_id=club_id, ruleset="arlington", start=(last.finished_at, last.pk)
                )

        def correct_oldest() -> None:
            """Swap the winner's and the last player's totals and victories, then replay."""
            with transaction.atomic():
                seats = list(Seat.objects.filter(match=first).order_by("-winner", "-total"))
                top, bottom = seats[0], seats[-1]
                fields = ["total", "winner", "victory_points"]
                for field in fields:
                    kept = getattr(top, field)
                    setattr(top, field, getattr(bottom, field))
                    setattr(bottom, field, kept)
                Seat.objects.bulk_update([top, bottom], fields)
                PendingReplay.objects.create(
                    club_id=club_id, ruleset="arlington", match_id=first.pk
                )
            with transaction.atomic():  # after the change commits, as the service runs it
                ratings.replay_club(club_id=club_id, ruleset="arlington")

        def baseline() -> None:
            signed_in.get("/baseline/", secure=True)

        replays: dict[str, list[float]] = {"baseline": [], "finish": [], "correction": []}
        for _ in range(args.corrections):
            for label, action in (
                ("baseline", baseline),
                ("finish", finish_last),
                ("baseline", baseline),
                ("correction", correct_oldest),
            ):
                replays[label].append(timed(action))
        unit = statistics.median(replays["baseline"])
        latest = statistics.median(replays["finish"])
        oldest = statistics.median(replays["correction"])
        print(
            f"seeded {args.players} players, {args.matches} matches, {hand_count} hands; "
            f"{RatingEntry.objects.count()} rating entries"
        )
        print(
            f"rating all {count} finished matches: {full:.2f} s, "
            f"{full / count * 1000:.2f} ms a match ({full / unit:.0f}x the baseline)"
        )
        print(f"baseline (a constant DRF answer): {unit * 1000:.2f} ms median")
        print(
            f"replay from the last match (a finish): {latest * 1000:.2f} ms median "
            f"({latest / unit:.1f}x the baseline)"
        )
        print(
            f"correcting the oldest match, with its replay: {oldest * 1000:.0f} ms median of "
            f"{len(replays['correction'])}, {min(replays['correction']) * 1000:.0f}-"
            f"{max(replays['correction']) * 1000:.0f} ms ({oldest / unit:.1f}x the baseline)"
        )

        link = PublicLink.objects.create(club_id=club_id, scope="standings")
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

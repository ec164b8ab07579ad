"""Benchmark: recording a hand with this checkout's code against another checkout's, side by side.

Both checkouts serve the same throwaway PostgreSQL database (``arlington_ab_<pid>``, migrated
with this checkout's code and seeded with a scorekeeper, a token and 2-player matches in
progress), each through its own gunicorn (``--workers`` sync workers, each checkout's own
``.venv``). wrk drives them in turn, ``--rounds`` times, with bench/load.py's modest 2-player
hands (``POST matches/{id}/hands/``; each side records into matches of its own, and each round
into fresh ones). The order alternates (A then B, B then A, ...) so that a machine getting busier
or quieter moves both sides of a pair alike. Each round prints its two rates and the paired
ratio B/A (this checkout over the other); the last line is the median ratio.

``--instructions N`` also counts, for each checkout, the instructions one recorded hand takes
in-process (Django's test client, with the token): valgrind's callgrind runs N hands and then 0
hands on copies of one seeded database, and the difference is divided by N.

Run: ``.venv/bin/python bench/ab_hand.py --base /path/to/other/checkout [--rounds 10]
[--duration 5] [--workers 4] [--connections 8] [--threads 2] [--instructions 200]
[--port N]``. Needs wrk and, with ``--instructions``, valgrind (``apt-get install wrk
valgrind``). The other checkout needs its own ``.venv`` (``make venv`` there). The database is
dropped at the end, also on failure. With several workers, the servers need a shared cache:
set ``REDIS_URL`` (gunicorn.conf.py refuses to start otherwise). Exit status 2 when a tool or
``REDIS_URL`` is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# The checkout whose code runs: this one, or the other for its instruction count (AB_ROOT).
ROOT = Path(os.environ.get("AB_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
HANDS_PER_MATCH = 12  # visits per match in a round at most; the modest hands allow 28
HIGH_RATE = "1000000/s"


def database_url(name: str) -> str:
    return SERVER.rsplit("/", 1)[0] + "/" + name


def psql(sql: str) -> None:
    subprocess.run(["psql", SERVER, "-q", "-c", sql], check=True, capture_output=True)


def server_env(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "arlington-bench-key"),
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "USER_THROTTLE_RATE": HIGH_RATE,
        "ANON_THROTTLE_RATE": HIGH_RATE,
        "RULINGS_THROTTLE_RATE": HIGH_RATE,
        "LOG_LEVEL": "WARNING",
        "DJANGO_LOG_LEVEL": "ERROR",
    }


def seed(url: str, matches: int) -> tuple[str, list[tuple[int, int, int]]]:
    """Migrate and seed the database in a child process; return the token and the matches."""
    done = subprocess.run(
        [sys.executable, __file__, "--seed", str(matches)],
        env=server_env(url),
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    token, rows = json.loads(done.stdout.strip().splitlines()[-1])
    return token, [tuple(row) for row in rows]


def seed_here(count: int) -> None:
    """(child) Migrate, then a club, its scorekeeper with a token, and ``count`` open matches."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from matches.models import Club, Match, Membership, Player, Role, Seat

    call_command("migrate", verbosity=0)
    keeper = get_user_model().objects.create_user("ab-keeper", password=None)
    club = Club.objects.create(name="A/B club", created_by=keeper)
    Membership.objects.create(club=club, user=keeper, role=Role.SCOREKEEPER)
    roster = [Player.objects.create(club=club, name=f"Seat {i:02}") for i in range(40)]
    pairs = [(roster[(2 * i) % 40], roster[(2 * i + 1) % 40]) for i in range(count)]
    made = Match.objects.bulk_create(
        Match(club=club, seat_count=2, first_dealer=first, created_by=keeper, table=f"T{i}")
        for i, (first, _) in enumerate(pairs)
    )
    Seat.objects.bulk_create(
        Seat(match=match, player=player, position=position)
        for match, pair in zip(made, pairs, strict=True)
        for position, player in enumerate(pair)
    )
    token = Token.objects.create(user=keeper).key
    rows = [
        (match.pk, first.pk, second.pk) for match, (first, second) in zip(made, pairs, strict=True)
    ]
    print(json.dumps([token, rows]))


def start(root: Path, url: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    from tests import harness

    python = str(root / ".venv" / "bin" / "python")
    options = ["--chdir", str(root), "--log-level", "warning"]
    command = harness.gunicorn(port, workers, *options, asgi=False, python=python)
    return harness.start(command, env=server_env(url), cwd=root)


def drive(
    base_url: str,
    token: str,
    matches: list[tuple[int, int, int]],
    seconds: int,
    workdir: Path,
    args: argparse.Namespace,
) -> float:
    """Record hands into ``matches`` for ``seconds``; the rate, after checking every answer."""
    from bench.load import Target, lua_script, modest_hand, run_wrk

    api = "/api/v1"
    requests = [
        (f"{api}/matches/{m}/hands/", json.dumps(modest_hand(a, b)), None) for m, a, b in matches
    ]
    alternates = [json.dumps(modest_hand(b, a)) for _, a, b in matches]
    target = Target("record hand", "POST", token, 201, None, requests, alternates)
    script = workdir / "record.lua"
    script.write_text(lua_script(target, requests, alternates, args.threads))
    summary = run_wrk(base_url, script, seconds, args)
    statuses = {int(k): v for k, v in summary["statuses"].items()}
    if set(statuses) != {201} or summary["socket_errors"]:
        raise RuntimeError(f"unexpected answers: {statuses}, {summary['socket_errors']} errors")
    return float(summary["requests"] / (summary["duration_us"] / 1e6))


# --- instructions per hand -----------------------------------------------------------------


def record_here(hands: int) -> None:
    """(child) Record ``hands`` hands in-process through Django's test client, with the token."""
    import django

    django.setup()
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from bench.load import modest_hand
    from matches.models import Seat

    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.get().key}")
    seats: dict[int, list[int]] = {}
    for seat in Seat.objects.order_by("match_id", "position"):
        seats.setdefault(seat.match_id, []).append(seat.player_id)
    matches = list(seats.items())
    for i in range(hands):
        match, (a, b) = matches[i % len(matches)]
        body = modest_hand(a, b) if (i // len(matches)) % 2 == 0 else modest_hand(b, a)
        answer = client.post(
            f"/api/v1/matches/{match}/hands/", body, content_type="application/json"
        )
        assert answer.status_code == 201, answer.content


def instructions(root: Path, template: str, hands: int) -> float:
    """Instructions one recorded hand takes in-process with ``root``'s code (callgrind)."""
    python = str(root / ".venv" / "bin" / "python")
    env = {**server_env(database_url(template)), "AB_ROOT": str(root)}
    # Once without valgrind, so that both counted runs find every module compiled.
    subprocess.run([python, __file__, "--record", "0"], env=env, cwd=root, check=True)
    totals = []
    for count in (hands, 0):
        name = f"{template}_run"
        psql(f"CREATE DATABASE {name} TEMPLATE {template}")
        try:
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "callgrind.out"
                env = {**server_env(database_url(name)), "AB_ROOT": str(root)}
                command = [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={out}",
                    python,
                    __file__,
                    "--record",
                    str(count),
                ]
                subprocess.run(command, env=env, cwd=root, check=True, capture_output=True)
                found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
                assert found, "no callgrind total"
                totals.append(int(found.group(1)))
        finally:
            psql(f"DROP DATABASE IF EXISTS {name}")
    return (totals[0] - totals[1]) / hands


# --- rates side by side ----------------------------------------------------------------------


def compare(
    sides: dict[str, Path],
    url: str,
    token: str,
    matches: list[tuple[int, int, int]],
    per_round: int,
    args: argparse.Namespace,
    servers: list[subprocess.Popen[bytes]],
) -> None:
    """Serve the database from both checkouts (into ``servers``); print the paired rounds."""
    from tests import harness

    urls = {}
    for number, (side, root) in enumerate(sides.items()):
        port = harness.free_port() if args.port is None else args.port + number
        servers.append(start(root, url, port, args.workers))
        urls[side] = f"http://127.0.0.1:{port}"
        harness.wait_until(
            harness.answers_http(port), what=f"{side}'s gunicorn", processes=servers[-1:]
        )
    batches = iter(matches[i : i + per_round] for i in range(0, len(matches), per_round))
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for side in sides:  # warm both: connections, prepared statements
            drive(urls[side], token, next(batches), 2, Path(tmp), args)
        for number in range(args.rounds):
            order = ["A", "B"] if number % 2 == 0 else ["B", "A"]
            rates = {
                side: drive(urls[side], token, next(batches), args.duration, Path(tmp), args)
                for side in order
            }
            ratios.append(rates["B"] / rates["A"])
            print(
                f"round {number + 1:2} ({order[0]} first): A {rates['A']:6.1f}/s  "
                f"B {rates['B']:6.1f}/s  B/A {ratios[-1]:.3f}",
                flush=True,
            )
    print(
        f"median B/A {statistics.median(ratios):.3f} over {len(ratios)} paired rounds "
        f"(range {min(ratios):.3f}-{max(ratios):.3f})"
    )


# --- main ------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="the other checkout (side A)")
    parser.add_argument("--rounds", type=int, default=10, help="0: instructions only")
    parser.add_argument("--duration", type=int, default=5, help="seconds per side and round")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--port", type=int, help="serve A on this port and B on the next (default: any free)"
    )
    parser.add_argument("--max-rate", type=int, default=500, help="hands/s the data allows")
    parser.add_argument(
        "--instructions",
        type=int,
        default=0,
        metavar="N",
        help="also count instructions per hand over N hands (callgrind)",
    )
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--record", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed is not None:
        seed_here(args.seed)
        return 0
    if args.record is not None:
        record_here(args.record)
        return 0
    if args.base is None:
        parser.error("--base is required")
    if args.rounds and args.workers > 1 and not os.environ.get("REDIS_URL"):
        print(
            "set REDIS_URL: gunicorn refuses several workers on a per-process cache",
            file=sys.stderr,
        )
        return 2
    tools = ["wrk", "psql"] + (["valgrind"] if args.instructions else [])
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"missing: {', '.join(missing)} (apt-get install wrk valgrind)", file=sys.stderr)
        return 2
    sides = {"A": args.base.resolve(), "B": ROOT}
    per_round = max(args.max_rate * args.duration // HANDS_PER_MATCH, 4 * args.connections)
    name = f"arlington_ab_{os.getpid()}"
    psql(f"CREATE DATABASE {name}")
    servers: list[subprocess.Popen[bytes]] = []
    try:
        url = database_url(name)
        token, matches = seed(url, per_round * (args.rounds + 1) * 2)
        if args.instructions:
            psql(f"ALTER DATABASE {name} IS_TEMPLATE true")  # copied before any hand
            for side, root in sides.items():
                count = instructions(root, name, args.instructions)
                print(f"{side} {root}: {count / 1e6:.2f} million instructions a hand", flush=True)
            psql(f"ALTER DATABASE {name} IS_TEMPLATE false")
        if args.rounds:
            compare(sides, url, token, matches, per_round, args, servers)
    finally:
        from tests import harness

        for server in servers:
            harness.stop(server)
        with contextlib.suppress(subprocess.CalledProcessError):
            psql(f"ALTER DATABASE {name} IS_TEMPLATE false")
        psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the API under load, through gunicorn and wrk, against a bare endpoint.

Creates a throwaway PostgreSQL database (``arlington_bench_<pid>``) and seeds it with
bench/standings.py's league (100 players, 2,000 matches), plus a club made through the services
with a scorekeeper, a token and hundreds of 2-player matches in progress to record hands into.
It starts gunicorn (``--workers`` sync workers on a free loopback port, with the settings
``bench.bench_settings``, which add ``/bench/baseline/`` and ``/bench/write/``) and drives it with
``wrk`` from a second process, one target at a time, each after a short warm-up:

- ``baseline``: an authenticated DRF endpoint that returns a constant, measured before the first
  target and after every target;
- ``POST rulings/meld/`` and ``POST rulings/hand/`` (realistic 5-player hands, bench/engine.py);
- for reference, with no goal: ``POST /bench/write/``, the same defaults and one row inserted in
  a transaction, the floor under any write the API makes;
- ``POST matches/{id}/hands/``: legal 2-player hands whose nets stay modest (+165 / -95), the
  winner alternating, each wrk thread rotating over its own share of the matches, so that no
  match comes near 1,000 points (a 409 ``match_finished`` would mean the run ran out of matches);
- ``GET clubs/{id}/standings/`` over the seeded league;
- for reference, with no goal: ``GET /bench/baseline/?size=N``, the bare endpoint answering as
  many bytes as the standings table (kept, as the table is): what the table's size alone costs.

Every figure is a throughput ratio against the mean of the baseline runs just before and just
after it, so that a machine that gets busier or quieter during the run moves both sides. Any answer
other than the expected 200/201, and any socket error, is an error. Goals (docs/benchmarks.md):
rulings at least 0.6x, recording a hand at least 0.35x, standings at least 0.5x, no error.
It stops gunicorn and drops the database itself, also on failure. Exit status: 0 when every goal
is met, 1 otherwise, 2 when wrk is missing.

Run: ``make bench-load`` or ``.venv/bin/python bench/load.py [--duration 8] [--connections 8]
[--threads 2] [--workers 4] [--profile]``; ``--profile`` replays each target that missed its goal
in-process under cProfile and prints where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import standings as league  # noqa: E402
from bench.engine import realistic_hand  # noqa: E402
from tests import harness  # noqa: E402
from tests.harness import free_port  # noqa: E402

HIGH_RATE = "1000000/s"  # per second, so that DRF's throttle history stays short
WARMUP_SECONDS = 2
MELDS = [
    ["JS", "2D=QS", "KS"],
    ["7H", "7D", "2C=7S"],
    ["5H", "6H", "7H", "8H"],
    ["AS", "AH", "AD"],
    ["5H", "2C", "7H"],  # not legal as written: the ruling suggests 2C=6H
    ["QH", "KH", "AH", "2S=JH"],
]

# A 2-player hand with modest nets: the player who goes out melds 13 low cards (65 + 100 bonus
# = +165); the other melds a set of sevens (15) and holds 110 points (-95). With the winner
# alternating, each player gains 70 every two hands: 28 hands before anyone nears 1,000, and
# even one player going out every time needs 7 hands to get there.
OUT_MELDS = [["3S", "4S", "5S", "6S"], ["3H", "4H", "5H"], ["3D", "4D", "5D"], ["3C", "4C", "5C"]]
OTHER_MELDS = [["7H", "7D", "7C"]]
OTHER_HELD = ["KS", "KH", "KD", "KC", "QH", "QD", "QC", "JS", "JH", "AS"]
HANDS_PER_MATCH = 10  # planned at most, out of the 28 the nets allow


def modest_hand(winner: int, other: int) -> dict[str, Any]:
    """``winner`` goes out (+165); ``other`` scores -95."""
    return {
        "ending": "went_out",
        "went_out": winner,
        "results": [
            {"player": winner, "melds": OUT_MELDS, "hand": []},
            {"player": other, "melds": OTHER_MELDS, "hand": OTHER_HELD},
        ],
    }


@dataclass
class Target:
    """One thing wrk drives: requests to rotate over (Lua-ready), the status expected back."""

    label: str
    method: str
    token: str
    expected: int
    goal: float | None  # minimum throughput ratio to the baseline
    requests: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    alternates: list[str | None] = field(default_factory=list)  # second body, same path
    warmup: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    warmup_alternates: list[str | None] = field(default_factory=list)


@dataclass
class Result:
    label: str
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    statuses: dict[int, int]
    socket_errors: int
    unexpected: int
    cpu: dict[str, float] = field(default_factory=dict)  # CPU ms a request, by CPU_KINDS


# --- CPU time by process ---------------------------------------------------------------------

CPU_KINDS = ("app", "db", "cache")  # gunicorn and its workers, PostgreSQL, Redis


CpuReading = dict[str, dict[int, float]]  # kind -> {pid: CPU seconds spent so far}


def cpu_seconds(server_pid: int) -> CpuReading:
    """The CPU seconds spent so far by each process of the app server (``server_pid`` and its
    children), of PostgreSQL and of Redis, by kind and pid, from /proc (empty without /proc).

    A request's share of each is the difference over a run divided by its requests: what the
    work behind one answer costs the machine, beside the throughput ratio that hides where it
    goes. PostgreSQL's processes include those serving any other client of the same server.
    Kept by process, so that one that ends between two readings (a connection closed) takes
    its time with it instead of making a kind's total go down.
    """
    proc = Path("/proc")
    if not proc.is_dir():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    reading: CpuReading = {kind: {} for kind in CPU_KINDS}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()  # state, ppid, ..., utime (11), stime (12)
        if server_pid in (int(entry.name), int(fields[1])):
            kind = "app"
        elif name.startswith("postgres"):
            kind = "db"
        elif name.startswith("redis"):
            kind = "cache"
        else:
            continue
        reading[kind][int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    return reading


def cpu_per_request(before: CpuReading, after: CpuReading, requests: int) -> dict[str, float]:
    """CPU milliseconds a request, by kind, between two ``cpu_seconds`` readings: the time
    each process spent between them (all of it for one that started meanwhile; what one that
    ended meanwhile spent is not known, and not counted)."""
    if not before or not requests:
        return {}
    spent = {
        kind: sum(
            max(0.0, seconds - before[kind].get(pid, 0.0)) for pid, seconds in after[kind].items()
        )
        for kind in CPU_KINDS
    }
    return {kind: 1000 * spent[kind] / requests for kind in CPU_KINDS}


# --- the data --------------------------------------------------------------------------------


@dataclass
class Fixture:
    viewer_token: str
    keeper_token: str
    club_id: int
    keeper_club_id: int
    matches: list[tuple[int, int, int]]  # (match, first player, second player)
    probe: tuple[int, int, int]
    table_bytes: int = 0  # the size of the club's standings answer


def seed_keeper_club(match_count: int) -> Fixture:
    """Through the services: a club, its scorekeeper with a token, players and open matches."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from matches.models import Player, Role
    from matches.services import clubs as club_services
    from matches.services import matches as match_services

    users = get_user_model()
    owner = users.objects.create_user("bench-owner", password=None)
    keeper = users.objects.create_user("bench-keeper", password=None)
    club = club_services.club_create(name="Load bench club", user=owner)
    club_services.membership_set(club=club, user=keeper, role=Role.SCOREKEEPER)
    roster = [Player.objects.create(club=club, name=f"Seat {i:02}") for i in range(40)]
    matches = []
    for i in range(match_count + 1):
        first, second = roster[(2 * i) % 40], roster[(2 * i + 1) % 40]
        match = match_services.match_create(
            club=club, players=[first.pk, second.pk], user=keeper, table=f"T{i}"
        )
        matches.append((match.pk, first.pk, second.pk))
    return Fixture(
        viewer_token="",
        keeper_token=Token.objects.create(user=keeper).key,
        club_id=0,
        keeper_club_id=club.pk,
        matches=matches[1:],
        probe=matches[0],
    )


def build_targets(fixture: Fixture, args: argparse.Namespace) -> list[Target]:
    """Baseline, rulings, recording hands and standings, with their warm-up requests."""
    api = "/api/v1"
    rng = random.Random(2026)
    melds = [json.dumps({"cards": cards}) for cards in MELDS]
    hands = [json.dumps(realistic_hand(rng)) for _ in range(args.hand_bodies)]
    per_run = len(fixture.matches) // 2  # the measured run's matches, then the warm-up's
    recording = fixture.matches[:per_run]
    warming = fixture.matches[per_run:]

    def record(matches: list[tuple[int, int, int]]) -> tuple[list[Any], list[str | None]]:
        requests = [
            (f"{api}/matches/{m}/hands/", json.dumps(modest_hand(a, b)), None)
            for m, a, b in matches
        ]
        return requests, [json.dumps(modest_hand(b, a)) for _, a, b in matches]

    def simple(
        label: str,
        method: str,
        token: str,
        expected: int,
        goal: float | None,
        requests: list[tuple[str, str | None, str | None]],
    ) -> Target:
        return Target(label, method, token, expected, goal, requests, warmup=requests)

    measured, measured_alt = record(recording)
    warm, warm_alt = record(warming)
    return [
        simple(
            "baseline", "GET", fixture.viewer_token, 200, None, [("/bench/baseline/", None, None)]
        ),
        simple(
            "rulings/meld",
            "POST",
            "",
            200,
            0.6,
            [(f"{api}/rulings/meld/", body, None) for body in melds],
        ),
        simple(
            "rulings/hand",
            "POST",
            "",
            200,
            0.6,
            [(f"{api}/rulings/hand/", body, None) for body in hands],
        ),
        simple(
            "one-row write",
            "POST",
            fixture.keeper_token,
            201,
            None,
            [("/bench/write/", hands[0], None)],
        ),
        Target(
            "record hand",
            "POST",
            fixture.keeper_token,
            201,
            0.35,
            measured,
            measured_alt,
            warm,
            warm_alt,
        ),
        simple(
            "club standings",
            "GET",
            fixture.viewer_token,
            200,
            0.5,
            [(f"{api}/clubs/{fixture.club_id}/standings/", None, None)],
        ),
        simple(
            "bare, table size",
            "GET",
            fixture.viewer_token,
            200,
            None,
            [(f"/bench/baseline/?size={fixture.table_bytes}", None, None)],
        ),
    ]


# --- wrk -------------------------------------------------------------------------------------

LUA = r"""
local method, token, threads_total, share = %(method)s, %(token)s, %(threads)d, %(share)s
local paths = {%(paths)s}
local bodies = {%(bodies)s}
local alternates = {%(alternates)s}
local threads = {}
local prepared, visits, counter = {}, {}, 0
statuses = {}  -- a global, so that done() can read each thread's with thread:get

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  local headers = {["Accept"] = "application/json"}
  if token ~= "" then headers["Authorization"] = "Token " .. token end
  -- sharing out (recording hands): thread tid takes requests tid+1, tid+1+T, ..., so that
  -- no two threads send hands to one match; otherwise every thread rotates over them all
  local start, step = 1, 1
  if share then start, step = tid + 1, threads_total end
  for i = start, #paths, step do
    local body = bodies[i]
    if body then headers["Content-Type"] = "application/json" end
    local first = wrk.format(method, paths[i], headers, body)
    local second = first
    if alternates[i] then second = wrk.format(method, paths[i], headers, alternates[i]) end
    table.insert(prepared, {first, second})
    visits[#prepared] = 0
  end
end

function request()
  counter = counter %% #prepared + 1
  local pair = prepared[counter]
  visits[counter] = visits[counter] + 1
  return pair[(visits[counter] - 1) %% 2 + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    local seen = thread:get("statuses")
    for status, n in pairs(seen) do counts[status] = (counts[status] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(counts) do table.insert(parts, string.format('"%%d": %%d', status, n)) end
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"socket_errors": %%d, "statuses": {%%s}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, table.concat(parts, ", ")))
end
"""


def lua_string(text: str | None) -> str:
    if text is None:
        return "false"
    assert "]==]" not in text
    return f"[==[{text}]==]"


def lua_script(
    target: Target, requests: list[Any], alternates: list[str | None], threads: int
) -> str:
    """A wrk script rotating over ``requests``; with alternates, visits to a path alternate."""
    return LUA % {
        "method": lua_string(target.method),
        "token": lua_string(target.token),
        "threads": threads,
        "share": "true" if alternates else "false",
        "paths": ", ".join(lua_string(path) for path, _, _ in requests),
        "bodies": ", ".join(lua_string(body) for _, body, _ in requests),
        "alternates": ", ".join(lua_string(a) for a in alternates or [None] * len(requests)),
    }


def run_wrk(base_url: str, script: Path, seconds: int, args: argparse.Namespace) -> dict[str, Any]:
    """Run wrk for ``seconds`` and return its ``done()`` summary."""
    command = [
        "wrk",
        "-t",
        str(args.threads),
        "-c",
        str(args.connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        base_url,
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 30)
    for line in finished.stdout.splitlines():
        if line.startswith("WRK-JSON "):
            summary: dict[str, Any] = json.loads(line.removeprefix("WRK-JSON "))
            return summary
    raise RuntimeError(f"wrk gave no summary:\n{finished.stdout}\n{finished.stderr}")


def measure(
    target: Target, base_url: str, workdir: Path, args: argparse.Namespace, server_pid: int
) -> Result:
    """Warm up, then measure one target, with the CPU time its requests took."""
    slug = target.label.replace("/", "-").replace(" ", "-")
    warm = workdir / f"{slug}-warmup.lua"
    warm.write_text(lua_script(target, target.warmup, target.warmup_alternates, args.threads))
    run_wrk(base_url, warm, WARMUP_SECONDS, args)
    script = workdir / f"{slug}.lua"
    script.write_text(lua_script(target, target.requests, target.alternates, args.threads))
    before = cpu_seconds(server_pid)
    summary = run_wrk(base_url, script, args.duration, args)
    after = cpu_seconds(server_pid)
    statuses = {int(k): v for k, v in summary["statuses"].items()}
    return Result(
        label=target.label,
        requests=summary["requests"],
        rps=summary["requests"] / (summary["duration_us"] / 1e6),
        p50_ms=summary["p50_us"] / 1000,
        p99_ms=summary["p99_us"] / 1000,
        statuses=statuses,
        socket_errors=summary["socket_errors"],
        unexpected=sum(n for status, n in statuses.items() if status != target.expected),
        cpu=cpu_per_request(before, after, summary["requests"]),
    )


# --- the server ------------------------------------------------------------------------------


def start_gunicorn(database_url: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.bench_settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "arlington-bench-key"),
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "RULINGS_THROTTLE_RATE": HIGH_RATE,
        "USER_THROTTLE_RATE": HIGH_RATE,
        "ANON_THROTTLE_RATE": HIGH_RATE,
        "LOG_LEVEL": "WARNING",
        "DJANGO_LOG_LEVEL": "ERROR",
    }
    options = ["--chdir", str(ROOT), "--config", str(ROOT / "bench" / "gunicorn.conf.py")]
    command = harness.gunicorn(port, workers, *options, "--log-level", "warning", asgi=False)
    return harness.start(command, env=env)


def call(base_url: str, path: str, *, token: str = "", body: str | None = None) -> tuple[int, Any]:
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(
        base_url + path,
        data=body.encode() if body else None,
        headers=headers,
        method="POST" if body else "GET",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def table_size(base_url: str, fixture: Fixture) -> int:
    """How many bytes the club's standings answer holds."""
    request = urllib.request.Request(
        f"{base_url}/api/v1/clubs/{fixture.club_id}/standings/",
        headers={"Accept": "application/json", "Authorization": f"Token {fixture.viewer_token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return len(answer.read())


def check_targets(base_url: str, targets: list[Target], fixture: Fixture) -> None:
    """Every target answers its first request as expected; the probe match takes both hands."""
    for target in targets:
        if target.label == "record hand":
            continue
        path, body, _ = target.requests[0]
        status, answer = call(base_url, path, token=target.token, body=body)
        assert status == target.expected, (target.label, status, answer)
    match, first, second = fixture.probe
    for winner, other in ((first, second), (second, first), (first, second)):
        status, answer = call(
            base_url,
            f"/api/v1/matches/{match}/hands/",
            token=fixture.keeper_token,
            body=json.dumps(modest_hand(winner, other)),
        )
        assert status == 201, ("record hand", status, answer)


# --- profile ---------------------------------------------------------------------------------


def profile(target: Target, fixture: Fixture, rounds: int) -> str:
    """Replay the target's requests in-process with Django's test client, under cProfile."""
    from django.conf import settings
    from django.test import Client
    from django.urls import clear_url_caches

    settings.ROOT_URLCONF = "bench.bench_urls"
    clear_url_caches()
    client = Client(HTTP_AUTHORIZATION=f"Token {target.token}" if target.token else "")
    requests = target.warmup[:rounds] if target.alternates else target.requests
    send = []
    for i in range(rounds):
        path, body, _ = requests[i % len(requests)]
        send.append((path, body))
    for path, body in send[:3] if not target.alternates else []:  # warm caches, connections
        _request(client, target.method, path, body)
    profiler = cProfile.Profile()
    profiler.enable()
    for path, body in send:
        status = _request(client, target.method, path, body)
        assert status == target.expected, (target.label, status)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(35)
    stats.sort_stats("tottime").print_stats(20)
    return out.getvalue()


def _request(client: Any, method: str, path: str, body: str | None) -> int:
    if method == "GET":
        return int(client.get(path, secure=True).status_code)
    return int(client.post(path, body, content_type="application/json", secure=True).status_code)


# --- main ------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=8, help="seconds measured per target")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--hand-bodies", type=int, default=50, help="distinct 5-player hands")
    parser.add_argument(
        "--max-rate",
        type=int,
        default=400,
        help="hands/s the matches are sized for (the run stops if exceeded)",
    )
    parser.add_argument("--profile", action="store_true", help="profile targets that miss")
    parser.add_argument("--profile-rounds", type=int, default=300)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is missing: apt-get install wrk", file=sys.stderr)
        return 2

    for name in ("RULINGS_THROTTLE_RATE", "USER_THROTTLE_RATE", "ANON_THROTTLE_RATE"):
        os.environ[name] = HIGH_RATE  # for the in-process profile
    # Two runs (warm-up and measured) of at most HANDS_PER_MATCH hands per match.
    per_run = math.ceil(args.max_rate * max(args.duration, WARMUP_SECONDS) / HANDS_PER_MATCH)
    per_run = max(per_run, 4 * args.connections)
    began = time.monotonic()
    name = f"arlington_bench_{os.getpid()}"
    server = None
    league.create_database(name)
    try:
        league.setup_django(name)
        club_id, viewer_id, hand_count = league.seed(100, 2000, random.Random(4))
        fixture = seed_keeper_club(2 * per_run)
        from django.contrib.auth import get_user_model
        from django.db import connections
        from rest_framework.authtoken.models import Token

        with connections["default"].cursor() as cursor:  # for the one-row write
            cursor.execute("CREATE TABLE bench_write (id bigserial PRIMARY KEY, body text)")

        viewer = get_user_model().objects.get(pk=viewer_id)
        fixture.viewer_token = Token.objects.create(user=viewer).key
        fixture.club_id = club_id
        connections.close_all()
        print(
            f"seeded 100 players, 2000 matches, {hand_count} hands, and {2 * per_run} open "
            f"2-player matches in {time.monotonic() - began:.0f} s"
        )

        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        server = start_gunicorn(league.database_url(name), port, args.workers)
        harness.wait_until(
            harness.answers_http(port), what="gunicorn answering /healthz", processes=[server]
        )
        fixture.table_bytes = table_size(base_url, fixture)
        targets = build_targets(fixture, args)
        check_targets(base_url, targets, fixture)
        print(
            f"gunicorn: {args.workers} sync workers; wrk: -t {args.threads} "
            f"-c {args.connections} -d {args.duration}s (after {WARMUP_SECONDS}s of warm-up)"
        )
        baseline, goals = targets[0], targets[1:]
        results: list[Result] = []  # baseline, target, baseline, target, ..., baseline
        with tempfile.TemporaryDirectory(prefix="arlington-load-") as workdir:
            pid = server.pid
            results.append(measure(baseline, base_url, Path(workdir), args, pid))
            for target in goals:
                results.append(measure(target, base_url, Path(workdir), args, pid))
                results.append(measure(baseline, base_url, Path(workdir), args, pid))
        harness.stop(server)
        server = None

        print(
            f"\n{'target':<16} {'req/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7}  "
            f"{'requests':>8}  {'CPU ms a request: app db cache':<31} errors"
        )
        ratios = {}
        for i, r in enumerate(results):
            errors = r.unexpected + r.socket_errors
            detail = (
                f"{errors}"
                if not errors
                else (f"{errors} (statuses {r.statuses}, socket errors {r.socket_errors})")
            )
            ratio = "      "
            if i % 2:  # between two baselines: compared with their mean
                ratios[r.label] = r.rps / ((results[i - 1].rps + results[i + 1].rps) / 2)
                ratio = f"{ratios[r.label]:5.2f}x"
            cpu = "  ".join(f"{r.cpu[kind]:5.2f}" for kind in CPU_KINDS) if r.cpu else "-"
            print(
                f"{r.label:<16} {r.rps:8.0f} {ratio} {r.p50_ms:7.1f} "
                f"{r.p99_ms:7.1f}  {r.requests:8d}  {cpu:<31} {detail}"
            )

        from matches.models import Match, MatchStatus

        finished = Match.objects.filter(
            club_id=fixture.keeper_club_id, status=MatchStatus.FINISHED
        ).count()
        all_met = finished == 0 and not any(r.unexpected + r.socket_errors for r in results[::2])
        if finished:
            print(f"{finished} bench matches finished: size the run with a larger --max-rate")
        missed = []
        print()
        for target, r in zip(goals, results[1::2], strict=True):
            errors = r.unexpected + r.socket_errors
            if target.goal is None:  # for reference
                all_met &= not errors
                print(
                    f"{'info':>7}: {target.label} {ratios[target.label]:.2f}x the baseline's "
                    f"throughput, {errors} errors"
                )
                continue
            met = ratios[target.label] >= target.goal and not errors
            all_met &= met
            if not met:
                missed.append(target)
            print(
                f"{'met' if met else 'NOT MET':>7}: {target.label} "
                f"{ratios[target.label]:.2f}x the baseline's throughput "
                f"(goal at least {target.goal}x), {errors} errors"
            )
        print(f"whole run: {time.monotonic() - began:.0f} s")

        if args.profile:
            for target in missed:
                print(f"\n--- profile: {target.label}, {args.profile_rounds} requests in-process")
                print(profile(target, fixture, args.profile_rounds))
        return 0 if all_met else 1
    finally:
        if server is not None:
            harness.stop(server)
        from django.db import connections

        connections.close_all()
        league.drop_database(name)


if __name__ == "__main__":
    sys.exit(main())

"""Ratings replays run by the worker on make run's embedded SQLite while the server takes writes.

The server and the worker run as ``make run`` runs them (``manage.py runserver`` and
``manage.py worker``) on a throwaway SQLite file, with ``RATINGS_REPLAY_INLINE_MATCHES=0``:
every change to a finished match queues its replay for the worker, and the request answers at
once. A few matches are finished first; then, all at once, phones record the hands that finish
more matches (two phones entering each hand), phones correct a hand of a finished match again
and again (each time the other player wins) until the worker has replayed the ratings while
they wrote, one voids the last hand of a finished match, and phones read the club's standings
and ratings. SQLite serialises the writers (IMMEDIATE transactions; ``ratings._lock`` does
nothing there): no request may be refused, no hand lost or doubled, and once the worker is
done the ratings must be exactly those ``manage.py rerate`` rebuilds from the club's first
match.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.tables import Phone, environment, manage, served
from tests import harness
from tests.factories import full_packs, went_out

REPLAY = "clubnight.tasks.replay"
READERS = 2
ROUNDS = 99  # a corrector's most corrections, far beyond what the worker needs to run one replay


@dataclass
class Night:
    port: int
    env: dict[str, str]
    database: Path
    log: Path


@pytest.fixture
def embedded_night(tmp_path: Path) -> Iterator[Night]:
    """make run's server and worker on a fresh SQLite file with the demo club, every ratings
    replay left to the worker."""
    database = tmp_path / "db.sqlite3"
    env = environment(f"sqlite:///{database}", "local")
    env["RATINGS_REPLAY_INLINE_MATCHES"] = "0"
    manage(env, "migrate", "--verbosity", "0")
    manage({**env, "DEBUG": "true"}, "seed_demo")
    log = tmp_path / "server.log"
    with served("sqlite", env, 1, log) as port:
        yield Night(port, {**env, "DEBUG": "true"}, database, log)


class Scorer(Phone):
    """A phone that also sends If-Match, and reads the ratings with their Ratings-Status."""

    def correct(self, match: int, number: int, body: object) -> tuple[int, Any]:
        return self.call("PUT", f"/api/v1/matches/{match}/hands/{number}/", body, {"If-Match": "*"})

    def ratings(self, club: int) -> tuple[str, list[dict[str, Any]]]:
        """The club's ratings and their Ratings-Status (current or recomputing)."""
        status, rows, headers = self.exchange("GET", f"/api/v1/clubs/{club}/ratings/", None, {})
        assert status == 200 and headers is not None, (status, rows)
        return headers["Ratings-Status"], rows


def stored(database: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and rating entry as the SQLite file holds them, to the last bit."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ratings = db.execute(
            "SELECT club_id, ruleset, player_id, mu, sigma, matches FROM clubnight_rating "
            "ORDER BY club_id, ruleset, player_id"
        ).fetchall()
        entries = db.execute(
            "SELECT club_id, ruleset, match_id, player_id, finished_at, place, mu_before, "
            "sigma_before, mu, sigma FROM clubnight_ratingentry "
            "ORDER BY club_id, ruleset, finished_at, match_id, player_id"
        ).fetchall()
    return ratings, entries


def replays(database: Path) -> Counter[str]:
    """The ratings replays queued for the worker, by status (READY, RUNNING, SUCCESSFUL...)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT status, count(*) FROM django_tasks_database_dbtaskresult WHERE task_path = ? "
            "GROUP BY status",
            [REPLAY],
        ).fetchall()
    return Counter({status: count for status, count in rows})


def test_the_worker_replays_ratings_beside_live_writes_and_ends_where_a_rebuild_does(
    embedded_night: Night,
) -> None:
    night = embedded_night
    status, answer = Phone(night.port).call(
        "POST", "/api/v1/auth/token/", {"username": "demo", "password": "demo-arlington"}
    )
    assert status == 200, answer
    token = answer["token"]
    owner = Scorer(night.port, token)
    _, clubs = owner.call("GET", "/api/v1/clubs/")
    club = clubs["results"][0]["id"]
    p = []
    for n in range(6):
        status, player = owner.call("POST", "/api/v1/players/", {"club": club, "name": f"P{n}"})
        assert status == 201, player
        p.append(player["id"])

    def start(seated: list[int]) -> int:
        status, match = owner.call("POST", "/api/v1/matches/", {"club": club, "players": seated})
        assert status == 201, match
        return int(match["id"])

    def record(match: int, body: dict[str, object]) -> None:
        status, hand = owner.call("POST", f"/api/v1/matches/{match}/hands/", body)
        assert status == 201, hand

    # Finished before the night: two whole packs each, the first player wins 1,060 to 1,040.
    def packs(first: int, second: int, first_holds: str = "3C") -> dict[str, object]:
        return full_packs(first, second, first_holds=first_holds, second_holds="KC")

    pairs = [(p[0], p[1]), (p[2], p[3]), (p[4], p[5]), (p[1], p[2]), (p[3], p[4])]
    finished = []
    for first, second in pairs:
        match = start([first, second])
        record(match, packs(first, second))
        record(match, packs(first, second))
        finished.append((match, first, second))
    trio = start([p[5], p[0], p[3]])
    for _ in range(3):  # three times out: 1,020 to -195 each
        record(trio, went_out(p[5], [p[5], p[0], p[3]]))
    corrected, voided = finished[:4], finished[4]
    # Finished during the night by their last hand, players shared with the matches above.
    finishing: list[tuple[int, int, dict[str, object]]] = []
    for first, second in [(p[0], p[2]), (p[1], p[5])]:
        match = start([first, second])
        record(match, packs(first, second))
        finishing.append((match, 2, {**packs(first, second), "number": 2}))
    for seated in ([p[2], p[4], p[0]], [p[3], p[1], p[5]]):
        match = start(seated)
        for _ in range(2):
            record(match, went_out(seated[0], seated))
        finishing.append((match, 3, {**went_out(seated[0], seated), "number": 3}))

    def settled() -> bool:
        """The worker has run every replay queued, and the ratings say so."""
        queued = replays(night.database)
        return not queued["READY"] and not queued["RUNNING"] and owner.ratings(club)[0] == "current"

    harness.wait_until(settled, what="the replays of the first matches", seconds=60, log=night.log)
    before_night = replays(night.database)["SUCCESSFUL"]

    phones: list[Scorer] = []
    writers = 2 * len(finishing) + len(corrected) + 1
    barrier = threading.Barrier(writers + READERS)
    writing_done = threading.Event()
    replayed_in_the_night = threading.Event()
    failures: list[BaseException] = []

    def phone() -> Scorer:
        one = Scorer(night.port, token)
        phones.append(one)
        return one

    def scorekeeper(match: int, number: int, body: dict[str, object]) -> None:
        """One of two phones entering the hand that finishes the match: one records it (201),
        the other's entry confirms it (200)."""
        mine = phone()
        barrier.wait()
        status, hand = mine.call("POST", f"/api/v1/matches/{match}/hands/", body)
        assert status in (200, 201), (match, number, status, hand)

    def corrector(match: int, first: int, second: int) -> None:
        """Hand 2 corrected, again and again: the first player held Q♠, so the second wins
        1,040 to 970; then K♣, so the first wins 1,050 to 1,040. Once the worker has run a
        replay since the night began, one more correction, leaving the second the winner."""
        mine = phone()
        barrier.wait()
        for rounds in range(1, ROUNDS + 1):
            holds = "QS" if rounds % 2 else "KC"
            status, hand = mine.correct(match, 2, packs(first, second, first_holds=holds))
            assert status == 200, (match, rounds, status, hand)
            if rounds % 2 and replayed_in_the_night.is_set():
                return
            if replays(night.database)["SUCCESSFUL"] > before_night:
                replayed_in_the_night.set()  # and this phone and others still write after it
        raise AssertionError(f"the worker ran no replay in {ROUNDS} corrections")

    def voider(match: int) -> None:
        """The last hand voided: the match is unfinished again, and rated no more."""
        mine = phone()
        barrier.wait()
        status, answer = mine.call("DELETE", f"/api/v1/matches/{match}/hands/2/")
        assert status == 204, (match, status, answer)

    def reader() -> None:
        """The club's standings and ratings, read again and again while the others write."""
        mine = phone()
        barrier.wait()
        while True:
            for path in (f"/api/v1/clubs/{club}/standings/", f"/api/v1/clubs/{club}/ratings/"):
                status, _ = mine.call("GET", path)
                assert status == 200, (path, status)
            if writing_done.is_set():
                return

    def run(target: Callable[..., None], *args: object) -> None:
        try:
            target(*args)
        except BaseException as failure:  # noqa: BLE001 (reported below, with every answer)
            failures.append(failure)
            barrier.abort()

    threads = [
        threading.Thread(target=run, args=(scorekeeper, *entry))
        for entry in finishing
        for _ in range(2)
    ]
    threads += [threading.Thread(target=run, args=(corrector, *entry)) for entry in corrected]
    threads += [threading.Thread(target=run, args=(voider, voided[0]))]
    readers = [threading.Thread(target=run, args=(reader,)) for _ in range(READERS)]
    for thread in threads + readers:
        thread.start()
    for thread in threads:
        thread.join()
    writing_done.set()
    for thread in readers:
        thread.join()

    answers = [answer for one in phones for answer in one.answers]
    refused = Counter((status, code) for _, status, code in answers if status >= 500 or not status)
    assert not refused, (refused, harness.tail(night.log, 60))
    assert not failures, (failures, Counter(status for _, status, _ in answers))
    for match, number, _ in finishing:
        entries = Counter(
            status for path, status, _ in answers if path == f"POST /api/v1/matches/{match}/hands/"
        )
        assert entries == {201: 1, 200: 1}  # the last hand recorded once, confirmed once
        _, hands = owner.call("GET", f"/api/v1/matches/{match}/hands/")
        assert [h["number"] for h in hands["results"]] == list(range(1, number + 1))
        _, state = owner.call("GET", f"/api/v1/matches/{match}/")
        assert state["status"] == "finished", state
    for match, first, second in corrected:
        _, state = owner.call("GET", f"/api/v1/matches/{match}/")
        assert state["status"] == "finished", state
        assert state["winners"] == [second]
        assert {s["player"]: s["total"] for s in state["seats"]} == {first: 970, second: 1040}
    _, state = owner.call("GET", f"/api/v1/matches/{voided[0]}/")
    assert (state["status"], state["hands_played"]) == ("in_progress", 1)

    # The worker runs every replay the night queued; until then the ratings say recomputing.
    harness.wait_until(settled, what="the replays of the night", seconds=60, log=night.log)
    queued = replays(night.database)
    assert set(queued) == {"SUCCESSFUL"}, queued
    # At most one replay queued for each hand that finished a match or changed a finished one,
    # and none for a confirmation: the demo's match, 6 + 4 finished, every correction, 1 voided.
    # A change whose pending row a running replay already took (between the change's commit and
    # its own look at what is pending) has nothing left to replay and queues none; the ratings
    # below show that every change was replayed all the same.
    corrections = sum(1 for path, status, _ in answers if path.startswith("PUT") and status == 200)
    assert 0 < queued["SUCCESSFUL"] <= 1 + 6 + 4 + corrections + 1
    replayed = owner.ratings(club)[1]
    replayed_rows = stored(night.database)

    # The rated players are the players of the finished matches, each rated for every one of
    # them they sat in (the voided match no longer counts).
    _, listed = owner.call("GET", f"/api/v1/matches/?club={club}&status=finished&page_size=100")
    played = Counter(seat["player"] for m in listed["results"] for seat in m["seats"])
    assert listed["count"] == 1 + 6 + 4 - 1
    assert {row["player"]: row["matches"] for row in replayed} == dict(played)

    manage(night.env, "rerate")  # no arguments: every club and ruleset, from the first match
    ratings_status, rebuilt = owner.ratings(club)
    assert ratings_status == "current"
    assert rebuilt == replayed
    assert stored(night.database) == replayed_rows

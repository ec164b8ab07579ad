"""The one SQL path of a hand's writes (matches/statements.py) also runs on make run's SQLite.

Tests run on PostgreSQL; this one alone starts a process of its own on a throwaway SQLite
database, with make run's settings, and records, corrects and voids hands through the API as a
scorekeeper would (a draft of the hand too), since that SQL is the one place where the two
databases could differ. An SQLite too old for it (before 3.35) is refused at start-up
(``arlington.E002``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from arlington_site import checks

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
import os
import sqlite3
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from matches.models import Hand, HandDraftPart, HandRevision, Match, Seat
from tests.factories import went_out

client = APIClient()
client.force_authenticate(get_user_model().objects.get(username="demo"))
match = Match.objects.filter(status="in_progress").order_by("pk").first()
ids = list(match.seats.order_by("position").values_list("player_id", flat=True))
before = {s.player_id: s.total for s in match.seats.all()}
url = f"/api/v1/matches/{match.pk}/hands/"
draft_url = f"{url}{match.hands_played + 1}/draft/players/{ids[0]}/"
drafted = [client.put(draft_url, {"hand": ["4h"], "version": v}, format="json")
           for v in (0, 0)]
recorded = client.post(url, went_out(ids[0], ids), format="json")
drafts_left = sum(1 for data in HandDraftPart.objects.filter(match=match).values_list(
    "data", flat=True) if data)
number = recorded.json()["number"]
after_record = {s.player_id: s.total for s in Seat.objects.filter(match=match)}
corrected = client.put(f"{url}{number}/", {**went_out(ids[1], ids), "reason": "wrong winner"},
                       format="json", HTTP_IF_MATCH='"1"')
after_correct = {s.player_id: s.total for s in Seat.objects.filter(match=match)}
voided = client.delete(f"{url}{number}/")
after_void = {s.player_id: s.total for s in Seat.objects.filter(match=match)}
again = client.post(url, went_out(ids[0], ids), format="json")
too_large = [client.get(path).status_code for path in (
    f"/api/v1/clubs/{2**63}/standings/", f"/api/v1/matches/{2**63}/hands/",
    f"/api/v1/matches/?player={2**63}")]
from clubnight import tournaments
night = tournaments.tournament_create(club=match.club, name="Night", players=ids[:2],
                                      user=get_user_model().objects.get(username="demo"))
too_large.append(client.delete(f"/api/v1/tournaments/{night.pk}/entrants/{2**63}/").status_code)
named = [client.post("/api/v1/players/", {"club": match.club_id, "name": name}, format="json")
         .status_code for name in ("Ωmega", "ωMEGA")]  # SQLite's lower() folds ASCII alone
searched = [p["name"] for p in client.get("/api/v1/players/", {"name": "ωme"}).json()["results"]]
from accounts import usernames
from matches import invitations
demo = get_user_model().objects.get(username="demo")
invitation = invitations.invitation_create(club=match.club, role="viewer", by=demo)
signed_up = []
for name in ("Émile7x", "émile7x", "ÉMILE7X"):  # SQLite's own UPPER knows ASCII alone
    try:
        invitations.invitation_signup(invitation=invitation, username=name,
                                      password="a long pass phrase 7")
        signed_up.append("created")
    except Exception as refused:
        signed_up.append(type(refused).__name__)
found = [getattr(usernames.find(get_user_model().objects.all(), typed), "username", None)
         for typed in ("émile7x", "ÉMILE7X")]
print("RESULT " + json.dumps({
    "signed_up": signed_up, "found": found, "searched": searched,
    "ids": ids, "statuses": [recorded.status_code, corrected.status_code, voided.status_code,
                             again.status_code],
    "recorded": recorded.json(), "again_version": again.json()["version"],
    "before": before, "after_record": after_record, "after_correct": after_correct,
    "after_void": after_void, "too_large": too_large, "named": named,
    "revisions": list(HandRevision.objects.filter(match=match, number=number)
                      .order_by("revision").values_list("action", flat=True)),
    "created_at_type": type(Match.objects.get(pk=match.pk).created_at).__name__,
    "drafted": [r.status_code for r in drafted], "draft": drafted[0].json(),
    "drafts_left": drafts_left,
}))
"""


def manage(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_hands_are_recorded_corrected_and_voided_on_the_embedded_database(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DEBUG": "true",
        "SECRET_KEY": "embedded-database-test",
        "PYTHONPATH": str(ROOT),
    }
    manage("migrate", "--verbosity", "0", env=env)
    manage("seed_demo", env=env)  # records the demo's hands through the services
    out = manage("shell", "--command", SCRIPT, env=env)
    result = json.loads(out.split("RESULT ", 1)[1])

    assert result["statuses"] == [201, 200, 204, 201]
    first, second, third = (str(i) for i in result["ids"])
    before = result["before"]
    # went_out(): the player who goes out +340, each other player -65.
    assert result["after_record"] == {
        first: before[first] + 340,
        second: before[second] - 65,
        third: before[third] - 65,
    }
    assert result["after_correct"] == {
        first: before[first] - 65,
        second: before[second] + 340,
        third: before[third] - 65,
    }
    assert result["after_void"] == before
    assert result["revisions"] == ["recorded", "corrected", "voided", "recorded"]
    assert result["again_version"] == 4
    recorded = result["recorded"]
    assert [r["net"] for r in recorded["results"]] == [340, -65, -65]
    assert recorded["recorded_at"].endswith("Z")
    assert result["created_at_type"] == "datetime"
    assert result["too_large"] == [404, 404, 400, 404]  # SQLite cannot hold the id: no error
    assert result["named"] == [201, 400]  # one name in any case, whatever its script
    assert result["searched"] == ["Ωmega"]  # and found so
    # a username too: taken in another case, and found from another case
    assert result["signed_up"] == ["created", "UsernameTaken", "UsernameTaken"]
    assert result["found"] == ["Émile7x", "Émile7x"]
    # a draft part is kept by version, and recording its hand deletes it
    assert result["drafted"] == [200, 409]
    assert result["draft"]["players"][0]["hand"] == ["4H"]
    assert result["drafts_left"] == 0


def test_an_sqlite_too_old_for_the_hands_statements_is_refused_at_start_up(monkeypatch):
    embedded = {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}
    monkeypatch.setitem(settings.DATABASES, "embedded", embedded)
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 34, 1))
    assert [problem.id for problem in checks.sqlite_version()] == ["arlington.E002"]
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 35, 0))
    assert checks.sqlite_version() == []


def test_postgresql_alone_needs_no_sqlite(monkeypatch):
    assert {database["ENGINE"] for database in settings.DATABASES.values()} == {
        "django.db.backends.postgresql"
    }
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 7, 0))
    assert checks.sqlite_version() == []

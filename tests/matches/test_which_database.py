"""``make run`` says first which database it serves from (``manage.py database``).

A ``DATABASE_URL`` left exported in the shell is named, not used silently, and one that cannot
be reached stops ``make run`` in one sentence (status 1, no traceback) before any migration.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def database(url: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBUG": "true", "SECRET_KEY": "which-database-test"}
    env.pop("DATABASE_URL", None)
    if url is not None:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "manage.py", "database"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_embedded_database_is_named_when_database_url_is_unset():
    done = database(None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        f"Database: the embedded SQLite database {ROOT / 'db.sqlite3'},"
        " the default: DATABASE_URL is not set."
    )


def test_an_exported_database_url_is_named_without_its_password(tmp_path):
    done = database(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    assert done.returncode == 0, done.stderr
    assert str(tmp_path / "club.sqlite3") in done.stdout
    assert "named by DATABASE_URL (unset it to use the embedded SQLite)" in done.stdout


def test_a_database_that_cannot_be_reached_stops_in_one_sentence():
    done = database("postgres://postgres:hunter2-secret@127.0.0.1:1/nowhere")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "hunter2-secret" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "CommandError: PostgreSQL database 'nowhere' at 127.0.0.1:1, named by DATABASE_URL"
        " (unset it to use the embedded SQLite), cannot be reached: "
    )

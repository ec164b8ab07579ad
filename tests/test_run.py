"""`make test`'s runner (tests/run.py): a PostgreSQL of its own, and a clear refusal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import psycopg

from tests import run

ROOT = Path(__file__).resolve().parent.parent


def test_an_embedded_postgresql_answers_and_is_gone_afterwards(capsys):
    with run.embedded() as url:
        assert run.answers(url) is None
        with psycopg.connect(url, autocommit=True) as connection:
            version = connection.execute("SHOW server_version_num").fetchone()[0]
            connection.execute("CREATE DATABASE made_here")
        socket_dir = Path(unquote(urlsplit(url).hostname or ""))
        assert (socket_dir / "PG_VERSION").exists()
    assert int(version) >= 180000
    assert "embedded PostgreSQL 18." in capsys.readouterr().out
    assert not socket_dir.parent.exists()
    assert run.answers(url) is not None


def test_a_database_url_that_does_not_answer_is_refused_in_one_sentence():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"postgres://postgres@127.0.0.1:{probe.getsockname()[1]}/nowhere"
        finished = subprocess.run(
            [sys.executable, "-m", "tests.run", "--collect-only", "-q"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert finished.returncode == 2
    assert finished.stdout == ""
    assert f"DATABASE_URL is set to {url}, but no PostgreSQL answers there" in finished.stderr

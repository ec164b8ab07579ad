"""What tests running side by side (pytest-xdist's workers, or several runs) must not share.

Each worker has its own test database (pytest-django adds the worker's name), its own Redis
database number, and ports that the system hands out free (tests/harness.py).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis' default number of databases


def worker_number() -> int:
    """0 for the first pytest-xdist worker (``gw0``) and for a run without workers."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


class TooFewRedisDatabases(RuntimeError):
    """TEST_REDIS_URL's database number leaves no database for a worker."""


def redis_url() -> str:
    """TEST_REDIS_URL (by default database 15 on 127.0.0.1:6379), its database number counted
    down by the worker's number, so that no worker empties another's database: with
    ``redis://127.0.0.1:6379/11`` the workers use 11, 10, 9 and so on. Never below 0: a worker
    left without a database stops the run with a sentence rather than wrap round to 15, 14, …
    and empty databases the run was not given (or another worker's)."""
    base = urlsplit(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))
    first = int(base.path.strip("/") or 0)
    number = first - worker_number()
    if number < 0:
        raise TooFewRedisDatabases(
            f"TEST_REDIS_URL names Redis database {first}, and worker gw{worker_number()} "
            f"would need database {number}: name a higher one (at most "
            f"{REDIS_DATABASES - 1}), or run fewer workers (WORKERS=...)."
        )
    return urlunsplit(base._replace(path=f"/{number}"))

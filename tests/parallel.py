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


def redis_url() -> str:
    """TEST_REDIS_URL (by default database 15 on 127.0.0.1:6379), its database number counted
    down by the worker's number, so that no worker empties another's database: with
    ``redis://127.0.0.1:6379/11`` the workers use 11, 10, 9 and so on."""
    base = urlsplit(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))
    number = (int(base.path.strip("/") or 0) - worker_number()) % REDIS_DATABASES
    return urlunsplit(base._replace(path=f"/{number}"))

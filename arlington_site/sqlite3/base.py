"""SQLite for ``make run``: the writers of one process queue for the write lock in turn.

Every transaction takes SQLite's write lock when it begins (``transaction_mode`` IMMEDIATE in
the settings). SQLite lets a writer that finds the lock taken retry after a sleep that grows to
100 ms, so under a club night's load a request could lose the race many times over while later
ones win. Here the threads of one process (the server's requests) first queue on a lock of the
process's own, held from ``BEGIN`` to ``COMMIT`` or ``ROLLBACK``, and so reach SQLite one after
another; only writers in other processes (the webhook worker, a management command) meet
SQLite's own retries.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.backends.sqlite3 import base

_queues: dict[str, threading.Lock] = {}
_queues_guard = threading.Lock()


def _queue(name: str) -> threading.Lock:
    """The lock that the writers of this process take for one database file."""
    with _queues_guard:
        return _queues.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's SQLite backend, with this process's writers queueing for each transaction."""

    _in_queue: threading.Lock | None = None

    def _start_transaction_under_autocommit(self) -> None:
        queue = _queue(str(self.settings_dict["NAME"]))
        queue.acquire()
        self._in_queue = queue
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._leave_queue()
            raise

    def _leave_queue(self) -> None:
        queue, self._in_queue = self._in_queue, None
        if queue is not None:
            queue.release()

    def _commit(self) -> Any:
        try:
            return super()._commit()
        finally:
            self._leave_queue()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()
        finally:
            self._leave_queue()

    def _close(self) -> Any:
        try:
            return super()._close()
        finally:
            self._leave_queue()

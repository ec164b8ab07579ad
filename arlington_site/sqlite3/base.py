"""SQLite for ``make run``: the writers of one process queue for the write lock in turn.

Every transaction takes SQLite's write lock when it begins (``transaction_mode`` IMMEDIATE in
the settings). SQLite lets a writer that finds the lock taken retry after a sleep that grows to
100 ms, so under a club night's load a request could lose the race many times over while later
ones win. Here the threads of one process (the server's requests) first queue on a lock of the
process's own, held from ``BEGIN`` to ``COMMIT`` or ``ROLLBACK``, and so reach SQLite one after
another; only writers in other processes (the webhook worker, a management command) meet
SQLite's own retries.

Each connection also replaces SQLite's UPPER, which knows ASCII's letters alone, by Python's
(``unicode_upper``): usernames and players' names are compared in upper case by the database
(``accounts.usernames.alike``), so that ``Émile`` is ``émile`` here as on PostgreSQL. No index
or constraint is built on UPPER on SQLite, so no stored entry depends on the function replaced.
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

from django.db.backends.sqlite3 import base

_queues: dict[str, threading.Lock] = {}
_queues_guard = threading.Lock()


def _queue(name: str) -> threading.Lock:
    """The lock that the writers of this process take for one database file."""
    with _queues_guard:
        return _queues.setdefault(name, threading.Lock())


def unicode_upper(value: object) -> object:
    """A text in upper case in every script, kept composed (NFKC, as names are kept: Python
    writes the upper case of some letters decomposed); anything else as it is."""
    return unicodedata.normalize("NFKC", value.upper()) if isinstance(value, str) else value


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's SQLite backend, with this process's writers queueing for each transaction, and
    an UPPER that knows every script's letters."""

    _in_queue: threading.Lock | None = None

    def get_new_connection(self, conn_params: Any) -> Any:
        connection = super().get_new_connection(conn_params)
        connection.create_function("UPPER", 1, unicode_upper, deterministic=True)
        return connection

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

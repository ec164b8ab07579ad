"""SQL written out for the reads and writes of a hand, the API's busiest path.

The services record, correct and void hands through these instead of the ORM's query builder:
building and compiling the ORM's queries cost more than running them (docs/benchmarks.md).
Table and column names come from the models; values are written as the ORM would write them
(``auto_now`` times, JSON, decimals and dates through the fields' own preparation) and read
back through Django's converters, so the instances are those the ORM would have given, on
PostgreSQL and on SQLite alike. Everything here runs on the primary database.

On PostgreSQL these statements bind their values on the server and become prepared statements
(``_cursor``), the writes of a recorded hand go as one statement (``together``), and many rows'
values travel as one JSON document (``_packed``); SQLite (``make run``) takes the plain forms.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import datetime
import functools
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import (
    BooleanField,
    CharField,
    DateField,
    ForeignKey,
    IntegerField,
    JSONField,
    Model,
)

from matches.models import Club, HandRevision, Match, Membership, Player, Seat

# Every column, in the models' order: Model.from_db takes a full row by position.
MATCH_FIELDS = tuple(f.attname for f in Match._meta.concrete_fields)
SEAT_FIELDS = tuple(f.attname for f in Seat._meta.concrete_fields)
PLAYER_FIELDS = ("id", "name")
USER_FIELDS = ("id", "username")
# Fields whose Python value every database driver takes as it is; others are prepared.
PLAIN = (IntegerField, CharField, BooleanField, ForeignKey)


def _primary() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]


def _cursor(db: BaseDatabaseWrapper) -> Any:
    """A cursor for these statements; on PostgreSQL one that binds values on the server.

    The ORM's cursors (psycopg's client-side binding) send each statement with its values written
    in, so PostgreSQL parses and plans it every time; planning cost more than executing them
    (docs/benchmarks.md). A server-side binding cursor sends the statement and its values apart,
    and psycopg prepares a statement once this connection has run it ``prepare_threshold`` times
    (DATABASES OPTIONS; settings.DATABASE_PREPARED_STATEMENTS), after which PostgreSQL reuses its
    parse and plan. It is wrapped as Django wraps its own, so queries are logged and counted alike.
    """
    if db.vendor != "postgresql":
        return db.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = ServerBindingCursor(db.connection)
    return db.make_debug_cursor(raw) if db.queries_logged else db.make_cursor(raw)


class _Sql:
    """Quoting for one database connection's dialect."""

    def __init__(self, db: BaseDatabaseWrapper) -> None:
        self.quote = db.ops.quote_name

    def table(self, model: type[Model]) -> str:
        return self.quote(model._meta.db_table)

    def columns(self, alias: str, model: type[Model], names: Sequence[str]) -> str:
        return ", ".join(f"{alias}.{self.quote(model._meta.get_field(n).column)}" for n in names)


# --- reading -------------------------------------------------------------------------------


@functools.cache
def _readers(alias: str, model: type[Model], names: tuple[str, ...]) -> list[tuple[Any, Any]]:
    """Each column with Django's converters for it (SQLite, for one, returns decimals as floats)."""
    db = connections[alias]
    readers = []
    for name in names:
        column = model._meta.get_field(name).get_col(model._meta.db_table)
        readers.append((column, db.ops.get_db_converters(column) + column.get_db_converters(db)))
    return readers


def _instance(db: BaseDatabaseWrapper, model: type[Model], names: tuple[str, ...],
              values: Sequence[Any]) -> Any:  # fmt: skip
    """A model instance from raw column values, as the ORM would have loaded it."""
    converted = []
    for value, (column, converters) in zip(values, _readers(db.alias, model, names), strict=True):
        for convert in converters:
            value = convert(value, column, db)
        converted.append(value)
    return model.from_db(db.alias, list(names), converted)


@functools.cache
def _lock_sql(alias: str, roles: int) -> str:
    """The match's row, locked; with ``roles`` placeholders, only if the requester holds one.

    Joined that way, a row the requester may not write is never returned, so never locked:
    outsiders and viewers neither wait for another request's lock nor take one themselves.
    """
    db = connections[alias]
    sql = _Sql(db)
    q = sql.quote
    columns = sql.columns("m", Match, MATCH_FIELDS)
    if not roles:
        lock = db.ops.for_update_sql() if db.features.has_select_for_update else ""
        return f"SELECT {columns} FROM {sql.table(Match)} m WHERE m.{q('id')} = %s {lock}"
    lock = db.ops.for_update_sql(of=("m",)) if db.features.has_select_for_update else ""
    return (
        f"SELECT {columns}, ms.{q('role')} FROM {sql.table(Match)} m "
        f"JOIN {sql.table(Membership)} ms ON ms.{q('club_id')} = m.{q('club_id')} "
        f"AND ms.{q('user_id')} = %s AND ms.{q('role')} IN ({', '.join(['%s'] * roles)}) "
        f"WHERE m.{q('id')} = %s {lock}"
    )


@functools.cache
def _seats_sql(alias: str) -> str:
    sql, user = _Sql(connections[alias]), get_user_model()
    q = sql.quote
    return (
        f"SELECT {sql.columns('u', user, USER_FIELDS)}, {sql.columns('s', Seat, SEAT_FIELDS)}, "
        f"{sql.columns('p', Player, PLAYER_FIELDS)}, "
        f"(SELECT MAX(r.{q('revision')}) FROM {sql.table(HandRevision)} r "
        f"WHERE r.{q('match_id')} = %s AND r.{q('number')} = %s) "
        f"FROM {sql.table(Seat)} s JOIN {sql.table(Player)} p ON p.{q('id')} = s.{q('player_id')} "
        f"JOIN {sql.table(user)} u ON u.{q('id')} = %s "
        f"WHERE s.{q('match_id')} = %s ORDER BY s.{q('position')}"
    )


def lock_match(match_id: int, writer: tuple[int, Collection[str]] | None = None,
               ) -> tuple[Match | None, str | None]:  # fmt: skip
    """Lock a match's row and return it; None if there is no such match.

    With ``writer`` (a user's id and the roles that may write), the row is locked and returned
    only if that user holds one of those roles in the match's club, with the role: one
    statement for the lock and the requester's access, so that recording a hand needs no query
    of its own for it. Otherwise (None, None), and nothing is locked; the caller tells an
    unknown match from a refused requester with an unlocked read.
    """
    roles = sorted(writer[1]) if writer else []
    if not -(2**63) <= match_id < 2**63 or (writer and not roles):
        return None, None  # an id too large names no row (SQLite would refuse it); no role, no one
    db = _primary()
    params = [writer[0], *roles, match_id] if writer else [match_id]
    with _cursor(db) as cursor:
        cursor.execute(_lock_sql(db.alias, len(roles)), params)
        found = cursor.fetchone()
    if found is None:
        return None, None
    role = found[-1] if writer else None
    return _instance(db, Match, MATCH_FIELDS, found[:-1] if writer else found), role


def seats_of_locked(match: Match, number: int | None) -> tuple[list[Seat], int]:
    """A locked match's seats in order, and the last revision number of one of its hands.

    ``number`` names the hand whose last revision number is wanted (0 if it has none); None
    names the next hand to record. Read in a statement of its own, which starts once the lock is
    held, so that it sees what the previous holder committed: the seats with their players, who
    created the match, and the revision. (One statement joining the seats to the locked match
    would read them as they were before waiting for the lock.)
    """
    db = _primary()
    if number is None:
        number = match.hands_played + 1
    with _cursor(db) as cursor:
        cursor.execute(_seats_sql(db.alias), [match.pk, number, match.created_by_id, match.pk])
        rows = cursor.fetchall()
    u = len(USER_FIELDS)
    s = u + len(SEAT_FIELDS)
    p = s + len(PLAYER_FIELDS)
    match.created_by = _instance(db, get_user_model(), USER_FIELDS, rows[0][:u])
    seats = []
    for row in rows:
        seat = _instance(db, Seat, SEAT_FIELDS, row[u:s])
        seat.player = _instance(db, Player, PLAYER_FIELDS, row[s:p])
        seat.match = match
        seats.append(seat)
    return seats, rows[0][p] or 0


def locked_match(match_id: int, number: int | None) -> tuple[Match, list[Seat], int]:
    """Lock a match's row; return it, its seats in order and the last revision of a hand.

    Two statements: ``lock_match``, then ``seats_of_locked`` (``number`` as there). Raises
    ``Match.DoesNotExist`` for an unknown match.
    """
    match, _ = lock_match(match_id)
    if match is None:
        raise Match.DoesNotExist(f"match {match_id}")
    seats, last_revision = seats_of_locked(match, number)
    return match, seats, last_revision


@functools.cache
def _role_sql(alias: str) -> str:
    sql = _Sql(connections[alias])
    q = sql.quote
    return (
        f"SELECT m.{q('club_id')}, ms.{q('role')} FROM {sql.table(Match)} m "
        f"JOIN {sql.table(Membership)} ms ON ms.{q('club_id')} = m.{q('club_id')} "
        f"WHERE m.{q('id')} = %s AND ms.{q('user_id')} = %s"
    )


def _read_one(model: type[Model], sql_for: Callable[[str], str],
              ids: list[int]) -> tuple[BaseDatabaseWrapper, Any]:  # fmt: skip
    """The first row of a read by ids from a URL, on the database the router picks for ``model``.

    An id too large for a 64-bit column names no row, so it is not sent (SQLite would refuse it).
    """
    db = connections[router.db_for_read(model)]
    if not all(-(2**63) <= i < 2**63 for i in ids):
        return db, None
    with _cursor(db) as cursor:
        cursor.execute(sql_for(db.alias), ids)
        return db, cursor.fetchone()


def requester_role(user_id: int, match_id: int) -> tuple[int, str] | None:
    """The club of a match and the user's role in it; None if they are not a member of it."""
    _, found = _read_one(Membership, _role_sql, [match_id, user_id])
    return None if found is None else (found[0], found[1])


CLUB_FIELDS = tuple(f.attname for f in Club._meta.concrete_fields)  # see MATCH_FIELDS


@functools.cache
def _member_club_sql(alias: str) -> str:
    sql = _Sql(connections[alias])
    q = sql.quote
    return (
        f"SELECT {sql.columns('c', Club, CLUB_FIELDS)} FROM {sql.table(Club)} c "
        f"JOIN {sql.table(Membership)} ms ON ms.{q('club_id')} = c.{q('id')} "
        f"WHERE c.{q('id')} = %s AND ms.{q('user_id')} = %s"
    )


def member_club(user_id: int, club_id: int) -> Club | None:
    """The club, if the user is a member of it (the standings' check, their busiest read)."""
    db, found = _read_one(Club, _member_club_sql, [club_id, user_id])
    return None if found is None else _instance(db, Club, CLUB_FIELDS, found)


# --- writing -------------------------------------------------------------------------------


def _prepare(field: Any, value: Any, db: BaseDatabaseWrapper) -> Any:
    return value if isinstance(field, PLAIN) else field.get_db_prep_save(value, db)


@functools.cache
def _inserted_fields(model: type[Model]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@dataclass
class _Write:
    sql: str
    params: list[Any]
    returning: Callable[[list[int]], None] | None  # takes the ids of the rows inserted


@dataclass
class _Batch:
    """Writes waiting to go to PostgreSQL as one statement (see ``together``)."""

    writes: list[_Write] = dataclasses.field(default_factory=list)
    # id() of a row inserted alone -> the name of its part
    inserted: dict[int, str] = dataclasses.field(default_factory=dict)


_batch: contextvars.ContextVar[_Batch | None] = contextvars.ContextVar("writes", default=None)


@contextlib.contextmanager
def together() -> Iterator[None]:
    """On PostgreSQL, send the inserts and updates made inside as one statement, at the end.

    Each becomes a data-modifying ``WITH`` query of a single statement, so that all of them
    cost one execution and one round trip instead of one each (docs/benchmarks.md). A row
    that refers to a row inserted earlier in the block (a result to its hand) takes that row's
    id inside the statement. New instances get their ids when the block ends. PostgreSQL runs
    the parts in one snapshot, so none of them may read what another writes, and no row may be
    written by two of them; foreign keys are checked at the end of the statement or at commit.
    If the block raises, nothing is sent. Elsewhere each write runs at once.
    """
    db = _primary()
    if db.vendor != "postgresql" or _batch.get() is not None:
        yield
        return
    batch = _Batch()
    token = _batch.set(batch)
    try:
        yield
    finally:
        _batch.reset(token)
    if batch.writes:
        _run_together(db, batch.writes)


def _run_together(db: BaseDatabaseWrapper, writes: list[_Write]) -> None:
    parts, params, answers = [], [], []
    for i, write in enumerate(writes):
        parts.append(f"w{i} AS ({write.sql})")
        params += write.params
        if write.returning is not None:
            answers.append(f"SELECT {i}, id FROM w{i}")
    answer = " UNION ALL ".join(answers) if answers else "SELECT NULL, NULL"
    with _cursor(db) as cursor:
        cursor.execute(f"WITH {', '.join(parts)} {answer}", params)
        rows = cursor.fetchall()
    ids: dict[int, list[int]] = {}
    for i, pk in rows:
        if i is not None:
            ids.setdefault(i, []).append(pk)
    for i, write in enumerate(writes):
        if write.returning is not None:
            write.returning(ids.get(i, []))


def _write(db: BaseDatabaseWrapper, write: _Write) -> None:
    """Run a write now, or add it to the statement being put together."""
    batch = _batch.get()
    if batch is not None:
        batch.writes.append(write)
        return
    with _cursor(db) as cursor:
        cursor.execute(write.sql, write.params)
        if write.returning is not None:
            write.returning([pk for (pk,) in cursor.fetchall()])


def _packed(db: BaseDatabaseWrapper, objs: Sequence[Model]) -> bool:
    """Whether to send many rows' values as one JSON document (PostgreSQL's jsonb_to_recordset).

    The statement then has one parameter whatever the number of rows, so that one prepared
    statement serves hands of two to five players; psycopg keeps its parsed form (it does so up
    to 50 parameters) and writes the document with one call to the JSON encoder.
    """
    return len(objs) > 1 and db.vendor == "postgresql"


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)  # exact: PostgreSQL reads the text into the numeric column
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not sent in a JSON document")


def _document(fields: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as a JSON array of objects keyed v0, v1, ... in the order of ``fields``."""
    keys = _keys(len(fields))
    return json.dumps([dict(zip(keys, row, strict=True)) for row in rows], default=_json_value)


@functools.cache
def _keys(count: int) -> tuple[str, ...]:
    return tuple(f"v{i}" for i in range(count))


def _recordset(db: BaseDatabaseWrapper, fields: Sequence[Any]) -> str:
    """The SQL reading a ``_document`` of these fields as rows v(v0, v1, ...), typed."""
    columns = ", ".join(f"v{i} {f.cast_db_type(db)}" for i, f in enumerate(fields))
    return f"jsonb_to_recordset(%s::jsonb) AS v({columns})"


def _packed_value(f: Any, value: Any, db: BaseDatabaseWrapper) -> Any:
    """A value as it goes into a JSON document: a JSON field's own, any other prepared."""
    return value if isinstance(f, JSONField) else _prepare(f, value, db)


@functools.cache
def _insert_sql(alias: str, model: type[Model], rows: int | None,
                linked: tuple[tuple[str, str], ...]) -> tuple[str, tuple[Any, ...]]:  # fmt: skip
    """An INSERT of ``rows`` rows (None: of a JSON document of rows), and the fields it sends.

    ``linked`` names the columns that take the id of a row inserted earlier in the same
    statement (attname, name of that part).
    """
    db = connections[alias]
    sql = _Sql(db)
    fields = _inserted_fields(model)
    links = dict(linked)
    sent = tuple(f for f in fields if f.attname not in links)

    def source(f: Any, value: str) -> str:
        return f"(SELECT id FROM {links[f.attname]})" if f.attname in links else value

    if rows is None:  # the document's keys v0, v1, ... are the fields sent, in order
        keys = iter(_keys(len(sent)))
        select = ", ".join(source(f, "") if f.attname in links else next(keys) for f in fields)
        values = f"SELECT {select} FROM {_recordset(db, sent)}"
    else:
        row = "(" + ", ".join(source(f, "%s") for f in fields) + ")"
        values = "VALUES " + ", ".join([row] * rows)
    names = ", ".join(sql.quote(f.column) for f in fields)
    pk = sql.quote(model._meta.pk.column)
    return f"INSERT INTO {sql.table(model)} ({names}) {values} RETURNING {pk} AS id", sent


def insert(objs: Sequence[Model]) -> None:
    """Insert new instances of one model in one statement and give them their ids.

    What ``bulk_create`` does for these rows: ``auto_now`` and ``auto_now_add`` fields take the
    current time, and each value is prepared for the database by its field. Inside
    ``together`` the ids come when the block ends, and a row that refers to a row inserted
    alone earlier in the block takes its id from that part of the statement.
    """
    db = _primary()
    if not db.features.can_return_columns_from_insert:  # SQLite before 3.35
        for obj in objs:
            obj.save(force_insert=True, using=db.alias)
        return
    model = type(objs[0])
    batch = _batch.get()
    linked = []  # relations to a row inserted alone earlier in the block, and its part
    if batch is not None:
        for f in _relations(model):
            target = f.get_cached_value(objs[0], None)
            if (target is not None and target.pk is None and id(target) in batch.inserted
                    and all(f.get_cached_value(obj, None) is target for obj in objs)):  # fmt: skip
                linked.append((f, batch.inserted[id(target)]))
    packed = _packed(db, objs)
    statement, sent = _insert_sql(db.alias, model, None if packed else len(objs),
                                  tuple((f.attname, part) for f, part in linked))  # fmt: skip
    prepare = _packed_value if packed else _prepare
    rows = [
        [prepare(f, f.pre_save(obj, True) if isinstance(f, DateField) else getattr(obj, f.attname),
                 db) for f in sent]
        for obj in objs
    ]  # fmt: skip
    values = [_document(sent, rows)] if packed else [value for row in rows for value in row]

    def give_ids(ids: list[int]) -> None:
        for obj, new_id in zip(objs, ids, strict=True):
            obj.pk = new_id
            obj._state.adding, obj._state.db = False, db.alias
            for f, _ in linked:
                setattr(obj, f.attname, f.get_cached_value(obj).pk)

    if batch is not None and len(objs) == 1:
        batch.inserted[id(objs[0])] = f"w{len(batch.writes)}"
    _write(db, _Write(statement, values, give_ids))


@functools.cache
def _relations(model: type[Model]) -> tuple[Any, ...]:
    return tuple(f for f in _inserted_fields(model) if f.is_relation)


@functools.cache
def _update_sql(alias: str, model: type[Model], names: tuple[str, ...], rows: int | None) -> str:
    """An UPDATE of these fields of ``rows`` rows (None: of a JSON document of rows)."""
    db = connections[alias]
    sql = _Sql(db)
    table, pk = sql.table(model), sql.quote(model._meta.pk.column)
    fields = [model._meta.get_field(name) for name in names]
    if rows == 1:
        assignments = ", ".join(f"{sql.quote(f.column)} = %s" for f in fields)
        return f"UPDATE {table} SET {assignments} WHERE {pk} = %s"
    if rows is None:
        assignments = ", ".join(f"{sql.quote(f.column)} = v{i + 1}" for i, f in enumerate(fields))
        rows_sql = _recordset(db, [model._meta.pk, *fields])
        return f"UPDATE {table} SET {assignments} FROM {rows_sql} WHERE {table}.{pk} = v0"
    cases = []
    for f in fields:
        case = f"CASE {pk}" + " WHEN %s THEN %s" * rows + " END"
        if db.features.requires_casted_case_in_updates:
            case = f"CAST({case} AS {f.cast_db_type(db)})"
        cases.append(f"{sql.quote(f.column)} = {case}")
    ids = ", ".join(["%s"] * rows)
    return f"UPDATE {table} SET {', '.join(cases)} WHERE {pk} IN ({ids})"


def update(objs: Sequence[Model], names: Sequence[str]) -> None:
    """Write these fields of existing instances of one model, in one statement.

    One row is written with plain ``SET column = value``. Many rows on PostgreSQL take their
    values from one JSON document, joined on id; elsewhere each column takes its value by
    id (``CASE id WHEN ... END``), as ``bulk_update`` writes it, cast to the column's type where
    the database needs it.
    """
    db = _primary()
    model = type(objs[0])
    fields = [model._meta.get_field(name) for name in names]
    packed = _packed(db, objs)
    statement = _update_sql(db.alias, model, tuple(names), None if packed else len(objs))
    values: list[Any]
    if len(objs) == 1:
        values = [_prepare(f, getattr(objs[0], f.attname), db) for f in fields] + [objs[0].pk]
    elif packed:
        rows = [[obj.pk, *(_packed_value(f, getattr(obj, f.attname), db) for f in fields)]
                for obj in objs]  # fmt: skip
        values = [_document([model._meta.pk, *fields], rows)]
    else:
        values = [item for f in fields for obj in objs
                  for item in (obj.pk, _prepare(f, getattr(obj, f.attname), db))]  # fmt: skip
        values += [obj.pk for obj in objs]
    _write(db, _Write(statement, values, None))

"""SQL written out for the reads and writes of a hand, the API's busiest path.

The services record, correct and void hands through these instead of the ORM's query builder:
building and compiling the ORM's queries cost more than running them (docs/benchmarks.md).
Table and column names come from the models; values are written as the ORM would write them
(``auto_now`` times, JSON, decimals and dates through the fields' own preparation) and read
back through Django's converters, so the instances are those the ORM would have given, on
PostgreSQL and on SQLite alike. Everything here runs on the primary database.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, CharField, DateField, ForeignKey, IntegerField, Model

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
def _lock_sql(alias: str) -> str:
    db = connections[alias]
    sql = _Sql(db)
    lock = db.ops.for_update_sql() if db.features.has_select_for_update else ""
    return (
        f"SELECT {sql.columns('m', Match, MATCH_FIELDS)} FROM {sql.table(Match)} m "
        f"WHERE m.{sql.quote('id')} = %s {lock}"
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


def locked_match(match_id: int, number: int | None) -> tuple[Match, list[Seat], int]:
    """Lock a match's row; return it, its seats in order and the last revision of a hand.

    ``number`` names the hand whose last revision number is wanted (0 if it has none); None
    names the next hand to record. Two statements: the first locks the match; the second,
    which starts once the lock is held, reads what the previous holder committed: the seats
    with their players, who created the match, and the revision. (One statement joining the
    seats to the locked match would read them as they were before waiting for the lock.)
    Raises ``Match.DoesNotExist`` for an unknown match.
    """
    db = _primary()
    with db.cursor() as cursor:
        cursor.execute(_lock_sql(db.alias), [match_id])
        found = cursor.fetchone()
        if found is None:
            raise Match.DoesNotExist(f"match {match_id}")
        match = _instance(db, Match, MATCH_FIELDS, found)
        if number is None:
            number = match.hands_played + 1
        cursor.execute(_seats_sql(db.alias), [match_id, number, match.created_by_id, match_id])
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
    return match, seats, rows[0][p] or 0


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
    with db.cursor() as cursor:
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
def _insert_sql(alias: str, model: type[Model], rows: int) -> str:
    sql = _Sql(connections[alias])
    fields = _inserted_fields(model)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (
        f"INSERT INTO {sql.table(model)} ({', '.join(sql.quote(f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * rows)} RETURNING {sql.quote(model._meta.pk.column)}"
    )


@functools.cache
def _inserted_fields(model: type[Model]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def insert(objs: Sequence[Model]) -> None:
    """Insert new instances of one model in one statement and give them their ids.

    What ``bulk_create`` does for these rows: ``auto_now`` and ``auto_now_add`` fields take the
    current time, and each value is prepared for the database by its field.
    """
    db = _primary()
    if not db.features.can_return_columns_from_insert:  # SQLite before 3.35
        for obj in objs:
            obj.save(force_insert=True, using=db.alias)
        return
    model = type(objs[0])
    values = []
    for obj in objs:
        for field in _inserted_fields(model):
            value = field.pre_save(obj, True) if isinstance(field, DateField) else getattr(
                obj, field.attname)  # fmt: skip
            values.append(_prepare(field, value, db))
    with db.cursor() as cursor:
        cursor.execute(_insert_sql(db.alias, model, len(objs)), values)
        ids = cursor.fetchall()
    for obj, (pk,) in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, db.alias


def update(objs: Sequence[Model], names: Sequence[str]) -> None:
    """Write these fields of existing instances of one model, in one statement.

    Each column takes its new value by id (``CASE id WHEN ... END``), as ``bulk_update`` writes
    it: cast to the column's type where the database needs it (PostgreSQL types a ``CASE`` of
    nulls as text).
    """
    db = _primary()
    model = type(objs[0])
    sql = _Sql(db)
    pk = sql.quote(model._meta.pk.column)
    values: list[Any] = []
    assignments = []
    for field in (model._meta.get_field(name) for name in names):
        case = f"CASE {pk}" + " WHEN %s THEN %s" * len(objs) + " END"
        if db.features.requires_casted_case_in_updates:
            case = f"CAST({case} AS {field.cast_db_type(db)})"
        assignments.append(f"{sql.quote(field.column)} = {case}")
        for obj in objs:
            values += [obj.pk, _prepare(field, getattr(obj, field.attname), db)]
    ids = ", ".join(["%s"] * len(objs))
    with db.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sql.table(model)} SET {', '.join(assignments)} WHERE {pk} IN ({ids})",
            [*values, *(obj.pk for obj in objs)],
        )

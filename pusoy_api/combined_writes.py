"""Several rows written by one statement: an INSERT and UPDATEs as data-modifying CTEs
(PostgreSQL), built by the ORM's own compilers, so a write that changes three tables pays
one round trip instead of three.

It writes what ``save()`` would (field preparation, ``auto_now`` stamps, the new row's
primary key set on the instance) but sends no ``pre_save``/``post_save`` signal: use it
only for models no receiver listens to. On another database (SQLite, the first-try
setup) the same writes are made one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Field, Model, Q
from django.db.models.sql import InsertQuery, UpdateQuery


def rows_write(insert: Model, updates: Sequence[tuple[Model, Sequence[str]]]) -> None:
    """INSERT ``insert`` (its pk is set, as ``save()`` sets it) and UPDATE each
    ``(instance, fields)`` of ``updates`` by its primary key, in one statement."""
    alias = router.db_for_write(type(insert))
    connection = connections[alias]
    if connection.vendor != "postgresql":
        insert.save(force_insert=True, using=alias)
        for instance, names in updates:
            instance.save(update_fields=list(names), using=alias)
        return
    parts: list[str] = []
    params: list[Any] = []
    sql, values = _insert_sql([insert], alias)
    parts.append(f"w0 AS ({sql})")
    params += values
    for n, (instance, names) in enumerate(updates, start=1):
        update = UpdateQuery(type(instance))
        update.add_q(Q(pk=instance.pk))
        changed: list[Any] = []
        for name in names:
            field = instance._meta.get_field(name)
            assert isinstance(field, Field)
            changed.append((field, None, field.pre_save(instance, False)))
        update.add_update_fields(changed)
        sql, values = update.get_compiler(using=alias).as_sql()
        parts.append(f"w{n} AS ({sql})")
        params += values
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(parts)} SELECT * FROM w0", params)
        (pk,) = cursor.fetchone()
    _inserted([insert], [pk], alias)


def rows_insert_after(first: str, first_params: Sequence[Any], rows: Sequence[Model]) -> None:
    """Run the statement `first` (its rows unread), then INSERT `rows` (instances of one
    model; their pks set, as ``bulk_create`` sets them), in one round trip: two
    statements in one query, which psycopg's client-side binding (Django's default)
    sends by the simple protocol and PostgreSQL runs in order. PostgreSQL only: a caller
    on another database writes one by one itself."""
    # No rows would also mean no `first`: a caller's locks and NOTIFY silently lost.
    if not rows:
        raise ValueError("rows_insert_after needs rows to insert")
    model = type(rows[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        raise NotImplementedError(f"rows_insert_after is PostgreSQL's, not {connection.vendor}'s")
    sql, values = _insert_sql(rows, alias)
    with connection.cursor() as cursor:
        cursor.execute(f"{first}; {sql}", [*first_params, *values])
        cursor.nextset()
        pks = [pk for (pk,) in cursor.fetchall()]
    _inserted(rows, pks, alias)


def _insert_sql(rows: Sequence[Model], alias: str) -> tuple[str, list[Any]]:
    """The ORM's own INSERT of `rows` (all fields but the auto primary key), returning
    their primary keys."""
    meta = rows[0]._meta
    columns: list[Field[Any, Any]] = [
        f
        for f in meta.local_concrete_fields
        if f is not meta.auto_field and not getattr(f, "generated", False)
    ]
    query = InsertQuery(type(rows[0]))
    query.insert_values(columns, list(rows))
    compiler = query.get_compiler(using=alias)
    compiler.returning_fields = [meta.pk]
    ((sql, values),) = compiler.as_sql()
    return sql, list(values)


def _inserted(rows: Sequence[Model], pks: Sequence[Any], alias: str) -> None:
    for row, pk in zip(rows, pks, strict=True):
        row.pk = pk
        row._state.adding = False
        row._state.db = alias

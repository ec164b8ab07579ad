"""Drawing the tables of a round: pure functions, no database.

Table sizes are as even as possible within the ruleset's limits: the fewest tables that hold
everyone, and sizes that differ by one at most, larger tables first.

>>> table_sizes(9, least=2, most=5), table_sizes(11, least=2, most=5), table_sizes(13, 2, 6)
([5, 4], [4, 4, 3], [5, 4, 4])
>>> draw = random_tables(list("abcdefghi"), [5, 4], seed=7)
>>> draw == random_tables(list("abcdefghi"), [5, 4], seed=7), sorted(sum(draw, []))
(True, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def table_sizes(players: int, least: int, most: int) -> list[int]:
    """Sizes of the fewest tables seating ``players``, as even as possible (ValueError if none).

    >>> table_sizes(1, 2, 5)
    Traceback (most recent call last):
    ...
    ValueError: 1 players cannot sit at tables of 2 to 5
    """
    tables = -(-players // most) if players else 0
    while tables and players // tables >= least:
        small, extra = divmod(players, tables)
        if small + (1 if extra else 0) <= most:
            return [small + 1] * extra + [small] * (tables - extra)
        tables += 1
    raise ValueError(f"{players} players cannot sit at tables of {least} to {most}")


def _cut(players: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def random_tables(players: Sequence[T], sizes: Sequence[int], *, seed: int) -> list[list[T]]:
    """Everyone shuffled with ``random.Random(seed)``, then cut into tables of these sizes.

    The same players, sizes and seed always give the same tables and seating order.
    """
    order = list(players)
    random.Random(seed).shuffle(order)
    return _cut(order, sizes)


def balanced_tables(best_first: Sequence[T], sizes: Sequence[int], *, seed: int) -> list[list[T]]:
    """Tables of even strength: players in rating order dealt out like a snake (1 2 3 3 2 1 ...)
    to the tables that still have room, then each table's seats shuffled from ``seed``.

    >>> sorted(sorted(table) for table in balanced_tables([1, 2, 3, 4, 5, 6], [3, 3], seed=0))
    [[1, 4, 5], [2, 3, 6]]
    """
    tables: list[list[T]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    forward = True
    queue = list(best_first)
    while queue:
        for index in order if forward else reversed(order):
            if queue and len(tables[index]) < sizes[index]:
                tables[index].append(queue.pop(0))
        forward = not forward
    rng = random.Random(seed)
    for table in tables:
        rng.shuffle(table)
    return tables

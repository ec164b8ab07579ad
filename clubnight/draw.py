"""Drawing the tables of a round: pure functions, no database.

Table sizes are as even as possible within the ruleset's limits: the fewest tables that hold
everyone, and sizes that differ by one at most, larger tables first. A round after the first is
drawn by ``remembering_tables``, which keeps in mind who has already sat together and who has
already had a turn at the bigger table.

>>> table_sizes(9, least=2, most=5), table_sizes(11, least=2, most=5), table_sizes(13, 2, 6)
([5, 4], [4, 4, 3], [5, 4, 4])
>>> draw = random_tables(list("abcdefghi"), [5, 4], seed=7)
>>> draw == random_tables(list("abcdefghi"), [5, 4], seed=7), sorted(sum(draw, []))
(True, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'])
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
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


RESTARTS = 16  # fresh starting draws tried by the search, the first being the mode's own draw
# Swaps the search may weigh in one draw, so that even a night of 200 players by rating is
# drawn in seconds: it stops at the end of the pass that reaches this many (a
# count, not a time, so the same arguments still give the same tables). Random draws of nights
# of up to 30 players stay well under it.
BUDGET = 60_000
# Nights small enough that every draw is weighed after the search (9 players at three tables
# of three: 1,680 draws): the swaps alone can stop short of the best draw there.
EVERY_DRAW = 5_000


def _every_draw(ids: Sequence[int], sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every way of cutting ``ids`` into tables of ``sizes``, in a fixed order."""
    if not sizes:
        yield []
        return
    for chosen in combinations(ids, sizes[0]):
        left = [p for p in ids if p not in chosen]
        for rest in _every_draw(left, sizes[1:]):
            yield [list(chosen), *rest]


def _draw_count(players: int, sizes: Sequence[int]) -> int:
    count, left = 1, players
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    return count


def _forced(table: Sequence[int], known: Sequence[int], spots: int) -> int:
    """Third meetings that the next round cannot avoid because of this table.

    Players seated here who have all met before (``known``: each player's earlier partners as
    bits) will all have met twice; if they are more than the ``spots`` tables of the next round
    (taken to be as many as now), some of them must sit together again. The count is the
    fewest such pairs: the group dealt out over the tables as evenly as it goes.

    >>> _forced([0, 1, 2, 3], known=[0b1110, 0b1101, 0b1011, 0b0111], spots=3)
    1
    >>> _forced([0, 1, 2, 3], known=[0b0110, 0b0101, 0b0011, 0], spots=3)
    0
    """
    if len(table) <= spots:
        return 0
    for size in range(len(table), spots, -1):
        for group in combinations(table, size):
            mask = 0
            for p in group:
                mask |= 1 << p
            if all((known[p] | (1 << p)) & mask == mask for p in group):
                small, extra = divmod(size, spots)
                return extra * math.comb(small + 1, 2) + (spots - extra) * math.comb(small, 2)
    return 0


def remembering_tables(
    players: Sequence[T],
    sizes: Sequence[int],
    *,
    earlier: Sequence[Sequence[Sequence[T]]],
    seed: int,
    strength: Mapping[T, float] | None = None,
) -> list[list[T]]:
    """Tables that keep in mind the ``earlier`` rounds' tables, chosen in this order of concern:

    1. as few pairs as possible sitting together for a third time or more, each counted as
       often as they have already met beyond once; with three tables or more, counting too
       the third meetings that this draw would force on the next one (``_forced``: more
       players at one table who have all met before than there are tables, as when a late
       arrival takes a turn at the bigger table and four who shared it must share a smaller
       one);
    2. fair turns at the bigger table: nobody sits at a table of the largest size twice before
       every player has sat at one once (nor three times before everyone has twice, and so
       on); when all tables are the same size there is no bigger table;
    3. as few pairs as possible sitting together for a second time;
    4. the mode's own aim: with ``strength`` (a rating per player), tables of even strength
       (the least spread of the tables' total strength); without, the ``seed`` decides among
       draws equal on the first three.

    The search starts from the mode's own draw (``random_tables``, or ``balanced_tables`` with
    the players best first), improves it by swapping two players of different tables while that
    helps, and does the same from a few other starts shuffled from ``seed``; it keeps the best.
    On a small night (up to ``EVERY_DRAW`` possible draws) every draw is then weighed too, so
    that the tables are the best possible on all four concerns.
    The same arguments always give the same tables. Players who are in no earlier round (late
    arrivals) have met nobody; players of earlier rounds who are not in ``players`` (withdrawn)
    are ignored. Seat order comes from the shuffled start the tables were found from.

    >>> first = [["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]]
    >>> second = remembering_tables(list("abcdefghi"), [3, 3, 3], earlier=[first], seed=1)
    >>> [sorted(table) for table in second if len(set(table) & set("abc")) > 1]
    []
    >>> six = list("abcdef")
    >>> second = remembering_tables(six, [4, 2], earlier=[[list("abcd"), list("ef")]], seed=5)
    >>> sorted(max(second, key=len))  # e and f, who sat at the two, have their turn at the four
    ['a', 'd', 'e', 'f']
    >>> nine = list("abcdefghi")
    >>> remembering_tables(nine, [5, 4], earlier=[], seed=3) == random_tables(nine, [5, 4], seed=3)
    True
    """
    count = len(players)
    if sum(sizes) != count:
        raise ValueError(f"tables of {list(sizes)} do not seat {count} players")
    index = {player: i for i, player in enumerate(players)}
    met = [[0] * count for _ in range(count)]
    turns = [0] * count  # turns at the bigger table so far
    for tables in earlier:
        largest = max((len(table) for table in tables), default=0)
        uneven = any(len(table) < largest for table in tables)
        for table in tables:
            here = [index[p] for p in table if p in index]
            for a in here:
                for b in here:
                    if a != b:
                        met[a][b] += 1
                if uneven and len(table) == largest:
                    turns[a] += 1
    big = {t for t, size in enumerate(sizes) if size == max(sizes) and size > min(sizes)}
    # A turn's weight grows by a factor larger than the number of players, so that one player
    # at the bigger table for a third time weighs more than any number there for a second.
    weight = [(count + 1) ** n for n in turns]
    power = [0.0] * count
    if strength is not None:
        mean = sum(strength[p] for p in players) / count if count else 0.0
        power = [strength[p] - mean for p in players]

    heavy = [[max(0, m - 1) for m in row] for row in met]  # a third meeting or more
    light = [[1 if m == 1 else 0 for m in row] for row in met]  # a second meeting
    known = [sum(1 << b for b in range(count) if met[a][b]) for a in range(count)]
    spots = len(sizes)
    lookahead = 3 <= spots < max(sizes, default=0) and any(earlier)

    def forced(table: list[int]) -> int:
        return _forced(table, known, spots)

    def cost(tables: list[list[int]]) -> tuple[int, int, int, float]:
        again = sum(heavy[a][b] for table in tables for a in table for b in table if a < b)
        if lookahead:
            again += sum(forced(table) for table in tables)
        repeats = sum(light[a][b] for table in tables for a in table for b in table if a < b)
        unequal = sum(weight[p] for t in big for p in tables[t])
        spread = sum(sum(power[p] for p in table) ** 2 / len(table) for table in tables if table)
        return again, unequal, repeats, round(spread, 6)

    weighed = [0]  # swaps weighed so far, against BUDGET

    def improve(tables: list[list[int]], rng: random.Random) -> list[list[int]]:
        sums = [sum(power[p] for p in table) for table in tables]
        better = True
        while better and weighed[0] < BUDGET:
            better = False
            pairs = [(s, t) for s in range(len(tables)) for t in range(s + 1, len(tables))]
            rng.shuffle(pairs)
            for s, t in pairs:
                one, other = tables[s], tables[t]
                weighed[0] += len(one) * len(other)
                for i in range(len(one)):
                    for j in range(len(other)):
                        a, b = one[i], other[j]
                        again = (
                            sum(heavy[b][x] for x in one if x != a)
                            + sum(heavy[a][y] for y in other if y != b)
                            - sum(heavy[a][x] for x in one if x != a)
                            - sum(heavy[b][y] for y in other if y != b)
                        )
                        if lookahead:
                            before = forced(one) + forced(other)
                            one[i], other[j] = b, a
                            again += forced(one) + forced(other) - before
                            one[i], other[j] = a, b
                        repeats = (
                            sum(light[b][x] for x in one if x != a)
                            + sum(light[a][y] for y in other if y != b)
                            - sum(light[a][x] for x in one if x != a)
                            - sum(light[b][y] for y in other if y != b)
                        )
                        unequal = 0
                        if (s in big) != (t in big):
                            unequal = weight[b] - weight[a] if s in big else weight[a] - weight[b]
                        moved = power[b] - power[a]
                        spread = ((sums[s] + moved) ** 2 - sums[s] ** 2) / len(one) + (
                            (sums[t] - moved) ** 2 - sums[t] ** 2
                        ) / len(other)
                        if (again, unequal, repeats, round(spread, 6)) < (0, 0, 0, 0.0):
                            one[i], other[j] = b, a
                            sums[s] += moved
                            sums[t] -= moved
                            better = True
        return tables

    rng = random.Random(seed)
    ids = list(range(count))
    if strength is None:
        first = random_tables(ids, sizes, seed=seed)
    else:
        # players equal in strength (newcomers all count as 1000) in an order the seed
        # shuffles, not in the order they were entered: the seed decides who starts where.
        # A generator of its own, so that players all of different strength are drawn as
        # before from the same seed
        shuffled = list(ids)
        random.Random(seed).shuffle(shuffled)
        ranked = sorted(shuffled, key=lambda p: -power[p])
        first = balanced_tables(ranked, sizes, seed=seed)
    best = improve(first, rng)
    best_cost = cost(best)
    floor = sum(sorted(weight)[: sum(sizes[t] for t in big)])
    for _ in range(RESTARTS - 1):
        if best_cost[:3] == (0, floor, 0) and strength is None:
            break  # nothing left to improve: the seed's draw stands
        if weighed[0] >= BUDGET:
            break
        start = list(ids)
        rng.shuffle(start)
        tried = improve(_cut(start, sizes), rng)
        tried_cost = cost(tried)
        if tried_cost < best_cost:
            best, best_cost = tried, tried_cost
    if _draw_count(count, sizes) <= EVERY_DRAW:
        # A small night: weigh every draw, and where the search stopped short of the best, take
        # one of the best (the seed chooses among them, and shuffles its seats).
        found = [(cost(option), option) for option in _every_draw(ids, sizes)]
        least = min(found_cost for found_cost, _ in found)
        if least < best_cost:
            best = rng.choice([option for found_cost, option in found if found_cost == least])
            for seats in best:
                rng.shuffle(seats)
    return [[players[p] for p in table] for table in best]

"""Draws that remember: the properties of ``clubnight.draw.remembering_tables``, no database."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clubnight import draw


def meetings(rounds):
    met = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def repeats(tables, earlier):
    """Pairs seated together who had already met, each counted as often as they had."""
    met = meetings(earlier)
    return sum(met[frozenset(pair)] for table in tables for pair in combinations(table, 2))


def again(tables, earlier, times):
    """Pairs seated together who had already met exactly ``times`` times (or more, with +)."""
    met = meetings(earlier)
    pairs = [met[frozenset(pair)] for table in tables for pair in combinations(table, 2)]
    return sum(n - times + 1 for n in pairs if n >= times)


def second(tables, earlier):
    """Pairs seated together for a second time: they had met exactly once."""
    met = meetings(earlier)
    return sum(met[frozenset(pair)] == 1 for table in tables for pair in combinations(table, 2))


def turns(rounds):
    """How often each player sat at a table bigger than the round's smallest."""
    counted = Counter()
    for tables in rounds:
        sizes = [len(table) for table in tables]
        counted.update(p for t in tables if len(t) == max(sizes) > min(sizes) for p in t)
    return counted


nights = st.tuples(
    st.integers(min_value=4, max_value=30),  # players
    st.integers(min_value=0, max_value=5),  # earlier rounds
    st.integers(min_value=0, max_value=2**53),  # seed
)


def night(count, rounds, seed, most=5):
    players = list(range(count))
    sizes = draw.table_sizes(count, 2, most)
    earlier = []
    for number in range(rounds):
        earlier.append(draw.remembering_tables(players, sizes, earlier=earlier, seed=seed + number))
    return players, sizes, earlier


@settings(max_examples=60, deadline=None)
@given(nights)
def test_everyone_is_seated_once_at_tables_of_the_given_sizes(case):
    players, sizes, earlier = night(*case)
    tables = draw.remembering_tables(players, sizes, earlier=earlier, seed=case[2])
    assert sorted(p for table in tables for p in table) == players
    assert [len(table) for table in tables] == sizes
    assert all(3 <= len(table) <= 5 for table in tables) or len(players) < 9
    assert tables == draw.remembering_tables(players, sizes, earlier=earlier, seed=case[2])


@settings(max_examples=60, deadline=None)
@given(
    tables=st.integers(min_value=4, max_value=8),
    size=st.integers(min_value=3, max_value=5),
    seed=st.integers(0, 2**53),
)
def test_a_second_round_repeats_no_pair_when_the_tables_allow_it(tables, size, seed):
    """With at least as many tables as a table has seats, dealing each first-round table out
    over the tables seats nobody with anyone they met: so must the draw."""
    assume(tables >= size)
    players = list(range(tables * size))
    earlier = [draw.random_tables(players, [size] * tables, seed=seed)]
    drawn = draw.remembering_tables(players, [size] * tables, earlier=earlier, seed=seed)
    assert repeats(drawn, earlier) == 0


@settings(max_examples=40, deadline=None)
@given(nights)
def test_nobody_sits_at_the_bigger_table_twice_before_everyone_has_once(case):
    count, rounds, seed = case
    players = list(range(count))
    sizes = draw.table_sizes(count, 2, 5)
    drawn = []
    for number in range(rounds + 1):
        drawn.append(draw.remembering_tables(players, sizes, earlier=drawn, seed=seed + number))
        turned = [turns(drawn)[p] for p in players]
        assert min(turned) > 0 or max(turned) <= 1


def every_draw(players, sizes):
    """Every way of cutting ``players`` into tables of ``sizes`` (seat order aside)."""
    if not sizes:
        yield []
        return
    for chosen in combinations(players, sizes[0]):
        left = [p for p in players if p not in chosen]
        for tail in every_draw(left, sizes[1:]):
            yield [list(chosen), *tail]


def unfairness(tables, earlier):
    turned = turns(earlier)
    sizes = [len(table) for table in tables]
    return sorted(
        (turned[p] for t in tables if len(t) == max(sizes) > min(sizes) for p in t), reverse=True
    )


def concerns(tables, earlier):
    """What the draw minimises, in its order: third meetings, turns, second meetings."""
    return again(tables, earlier, 2), unfairness(tables, earlier), second(tables, earlier)


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(min_value=5, max_value=9),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(0, 2**53),
)
def test_no_avoidable_repeat_and_fair_turns_at_the_bigger_table(count, rounds, seed):
    """Checked against every possible draw: the fewest third meetings, then the fairest turns
    at the bigger table, then the fewest second meetings."""
    players = list(range(count))
    sizes = draw.table_sizes(count, 2, 4)
    earlier = [draw.random_tables(players, sizes, seed=seed + n) for n in range(rounds)]
    tables = draw.remembering_tables(players, sizes, earlier=earlier, seed=seed)
    best = min(concerns(option, earlier) for option in every_draw(players, sizes))
    assert concerns(tables, earlier) == best


def test_the_first_round_is_the_seeds_random_draw():
    players = list(range(13))
    sizes = draw.table_sizes(13, 2, 5)
    for seed in range(20):
        expected = draw.random_tables(players, sizes, seed=seed)
        assert draw.remembering_tables(players, sizes, earlier=[], seed=seed) == expected


def test_thirteen_players_over_three_rounds_meet_at_most_twice_and_share_the_five():
    """The night the club tried: 13 players, tables of 5, 4 and 4, three rounds."""
    for seed in range(10):
        _, _, rounds = night(13, 3, seed * 1000)
        assert max(meetings(rounds).values()) <= 2
        assert max(turns(rounds).values()) <= 2


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(min_value=6, max_value=30),
    seed=st.integers(0, 2**53),
    ratings=st.lists(st.integers(600, 1600), min_size=30, max_size=30),
)
def test_by_rating_the_tables_are_at_least_as_even_as_the_snake(count, seed, ratings):
    players = list(range(count))
    strength = dict(zip(players, ratings, strict=False))
    sizes = draw.table_sizes(count, 2, 5)
    snake = draw.balanced_tables(sorted(players, key=lambda p: -strength[p]), sizes, seed=seed)
    tables = draw.remembering_tables(players, sizes, earlier=[], seed=seed, strength=strength)
    assert sorted(p for table in tables for p in table) == players
    mean = sum(strength.values()) / count

    def uneven(drawn):
        return sum(sum(strength[p] - mean for p in t) ** 2 / len(t) for t in drawn)

    assert uneven(tables) <= uneven(snake) + 1e-6


def test_by_rating_players_of_equal_strength_are_seated_by_the_seed_not_by_entry():
    """Eight newcomers, all at 1000 as on a club's first night: the tables depend on the seed,
    as a random draw's do, not on the order the players were entered in."""
    players = list(range(8))
    strength = dict.fromkeys(players, 1000.0)
    partitions = {
        frozenset(
            frozenset(table)
            for table in draw.remembering_tables(
                players, [4, 4], earlier=[], seed=seed, strength=strength
            )
        )
        for seed in range(20)
    }
    assert len(partitions) > 5  # of the 35 ways to split eight players into two fours


def test_a_late_arrival_forces_no_third_meeting():
    """13 players at tables of 5, 4 and 4, and a 14th who arrives for round 2 (5, 5 and 4).
    Nine players have not had the five yet for ten seats there, so four of round 1's five
    must share the four in round 2; unless round 2 is drawn with round 3 in mind, they have
    all met twice and three tables cannot keep four of them apart."""
    for seed in range(10):
        players = list(range(13))
        rounds = [draw.remembering_tables(players, [5, 4, 4], earlier=[], seed=seed)]
        players.append(13)
        for number in (1, 2):
            sizes = draw.table_sizes(14, 2, 5)
            rounds.append(
                draw.remembering_tables(players, sizes, earlier=rounds, seed=seed + number)
            )
        assert max(meetings(rounds).values()) == 2
        # and the turns at a five even out over the night: nobody sits there a third time
        assert max(turns(rounds).values()) <= 2


def test_late_arrivals_and_withdrawn_players_are_taken_as_they_are():
    earlier = [[[1, 2, 3], [4, 5, 6]]]
    players = [1, 2, 4, 5, 7, 8]  # 3 and 6 left, 7 and 8 arrived
    tables = draw.remembering_tables(players, [3, 3], earlier=earlier, seed=0)
    assert sorted(p for table in tables for p in table) == players
    assert repeats(tables, earlier) == 0


def test_a_night_of_two_hundred_by_rating_seats_everyone_reproducibly():
    players = list(range(200))
    sizes = draw.table_sizes(200, 2, 5)
    earlier = [draw.random_tables(players, sizes, seed=n) for n in range(3)]
    strength = {p: 800.0 + p for p in players}
    tables = draw.remembering_tables(players, sizes, earlier=earlier, seed=1, strength=strength)
    assert sorted(p for table in tables for p in table) == players
    assert tables == draw.remembering_tables(
        players, sizes, earlier=earlier, seed=1, strength=strength
    )

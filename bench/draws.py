"""Measure: draws that remember against the plain random draw, over many seeded club nights.

For every number of players from 9 to 30 and every length of night from 3 to 6 rounds, plays
``--nights`` nights (seeds 0, 1, ...) at Arlington's tables (2 to 5 players, as even as
possible), drawing each round twice over the same players: once with ``random_tables`` (each
round shuffled afresh, remembering nothing) and once with ``remembering_tables`` (the rounds
before it in mind). Each night is then scored:

- ``again``: pairs who sat together more than once; ``thrice``: pairs who sat together three
  times or more; ``most``: the most times one pair met;
- ``unfair``: nights in which somebody sat at the bigger table twice or more while another
  player never sat there, though the night had seats enough for everyone once;
- the time one remembering draw takes, on average.

Nothing is random but the seeds: a run prints the same figures each time (times aside).

``--late N``: N of the night's players arrive for the second round (the first round is drawn
without them), as at a club night where someone comes in after the first draw.

Run: ``.venv/bin/python bench/draws.py [--nights N] [--late N]`` (the default, 50 nights,
takes a few minutes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clubnight.draw import random_tables, remembering_tables, table_sizes  # noqa: E402

LEAST, MOST = 2, 5  # Arlington's tables


def score(rounds: list[list[list[int]]], players: int) -> dict[str, int]:
    met: Counter[tuple[int, int]] = Counter()
    big: Counter[int] = Counter()
    seats_at_big = 0
    for tables in rounds:
        sizes = [len(table) for table in tables]
        for table in tables:
            met.update(combinations(sorted(table), 2))
            if len(table) == max(sizes) > min(sizes):
                big.update(table)
                seats_at_big += len(table)
    turns = [big[p] for p in range(players)]
    unfair = seats_at_big >= players and max(turns) >= 2 and min(turns) == 0
    return {
        "again": sum(1 for n in met.values() if n > 1),
        "thrice": sum(1 for n in met.values() if n > 2),
        "most": max(met.values()),
        "unfair": int(unfair),
    }


def night(
    players: int, rounds: int, seed: int, remember: bool, late: int = 0
) -> tuple[dict[str, int], float]:
    drawn: list[list[list[int]]] = []
    took = 0.0
    for number in range(rounds):
        # ``late`` players arrive for the second round: the first is drawn without them
        ids = list(range(players - late if number == 0 else players))
        sizes = table_sizes(len(ids), LEAST, MOST)
        round_seed = seed * 1000 + number
        began = time.perf_counter()
        if remember:
            drawn.append(remembering_tables(ids, sizes, earlier=drawn, seed=round_seed))
        else:
            drawn.append(random_tables(ids, sizes, seed=round_seed))
        took += time.perf_counter() - began
    return score(drawn, players), took / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=50)
    parser.add_argument(
        "--late", type=int, default=0, help="players who arrive for the second round"
    )
    args = parser.parse_args()
    groups = [(9, 12), (13, 16), (17, 20), (21, 25), (26, 30)]
    arriving = f", {args.late} of them arriving for round 2" if args.late else ""
    print(
        f"{args.nights} nights per number of players and rounds{arriving}; per night, "
        "averaged (random draw -> remembering draw)"
    )
    header = (
        "players  rounds  pairs met again   pairs met 3+ times   most times met   "
        "unfair 5-table nights   ms/draw"
    )
    print(header)
    totals = {False: Counter(), True: Counter()}
    for low, high in groups:
        for rounds in range(3, 7):
            figures = {False: Counter(), True: Counter()}
            worst = {False: 0, True: 0}
            times = []
            nights = 0
            for players in range(low, high + 1):
                for seed in range(args.nights):
                    nights += 1
                    for remember in (False, True):
                        scored, took = night(players, rounds, seed, remember, args.late)
                        figures[remember].update(scored)
                        totals[remember].update(scored)
                        worst[remember] = max(worst[remember], scored["most"])
                        if remember:
                            times.append(took)
            again = [figures[r]["again"] / nights for r in (False, True)]
            thrice = [figures[r]["thrice"] / nights for r in (False, True)]
            unfair = [figures[r]["unfair"] / nights for r in (False, True)]
            print(
                f"{low:>2}-{high:<2}    {rounds}       {again[0]:5.1f} -> {again[1]:5.1f}"
                f"      {thrice[0]:5.1f} -> {thrice[1]:5.1f}      "
                f"     {worst[False]} -> {worst[True]}           "
                f"{unfair[0]:4.0%} -> {unfair[1]:4.0%}           "
                f"{statistics.mean(times) * 1000:5.1f}"
            )
    for key, what in (("again", "pairs met again"), ("thrice", "pairs met 3+ times")):
        share = totals[True][key] / totals[False][key]
        print(f"{what}, all nights: {share:.0%} of the random draw's")


if __name__ == "__main__":
    main()

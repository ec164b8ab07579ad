"""Benchmark: validating and scoring a realistic 5-player hand with the engine.

The baseline is ``json.loads`` + ``json.dumps`` of the same request payload, measured in the
same run, so the printed ratio does not depend on how fast or busy the machine is.
Goal (docs/benchmarks.md): at most 5x.

Run: ``make bench`` or ``.venv/bin/python bench/engine.py [--hands N] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import (  # noqa: E402
    ALL_CARDS,
    Card,
    Ending,
    HandInput,
    PlayerInput,
    Rank,
    parse_cards,
    parse_meld,
    rule_hand,
)
from scoring.melds import _rule  # noqa: E402

PLAYERS = ("ann", "bob", "cat", "dan", "eve")
RUN_RANKS = list(Rank)


def _take(deck: Counter[Card], card: Card) -> bool:
    if deck[card] > 0:
        deck[card] -= 1
        return True
    return False


def _wild(deck: Counter[Card], rng: random.Random) -> Card | None:
    twos = [c for c in ALL_CARDS if c.is_two and deck[c] > 0]
    if not twos:
        return None
    two = rng.choice(twos)
    deck[two] -= 1
    return two


def _meld(deck: Counter[Card], rng: random.Random) -> list[str] | None:
    """A legal set or run drawn from what is left of the two packs, sometimes with a wild two."""
    size = rng.choice((3, 3, 4))
    if rng.random() < 0.5:
        rank = rng.choice([r for r in Rank if r is not Rank.TWO])
        wanted = [Card(rank, card.suit) for card in ALL_CARDS[: size * 13 : 13]]
    else:
        start = rng.randrange(0, 13 - size + 1)
        suit = rng.choice(ALL_CARDS[::13]).suit
        wanted = [Card(rank, suit) for rank in RUN_RANKS[start : start + size]]
    meld: list[str] = []
    wild_used = False
    for card in wanted:
        if _take(deck, card):
            meld.append(card.code)
        elif not wild_used and card.code != "QS" and (two := _wild(deck, rng)) is not None:
            meld.append(f"{two.code}={card.code}")
            wild_used = True
        else:
            for code in meld:
                deck[Card.parse(code.split("=")[0])] += 1
            return None
    return meld


def realistic_hand(rng: random.Random) -> dict[str, object]:
    """A legal 5-player hand: the first player went out, the others hold their leftovers."""
    deck: Counter[Card] = Counter({card: 2 for card in ALL_CARDS})
    results = []
    for seat, player in enumerate(PLAYERS):
        melds: list[list[str]] = []
        target = 13 if seat == 0 else rng.randrange(6, 12)
        count = 0
        while count < target - 2:
            meld = _meld(deck, rng)
            if meld is None:
                continue
            melds.append(meld)
            count += len(meld)
        held: list[str] = []
        if seat == 0:
            while count < 13:
                melds[-1:] = [melds[-1]] if len(melds[-1]) == 4 else melds[-1:]
                meld = _meld(deck, rng)
                if meld is not None and count + len(meld) >= 13:
                    melds.append(meld)
                    count += len(meld)
                elif meld is not None:
                    for code in meld:
                        deck[Card.parse(code.split("=")[0])] += 1
        else:
            while count + len(held) < 13 or len(held) < 2:
                card = rng.choice([c for c in ALL_CARDS if deck[c] > 0 and c.code != "QS"])
                deck[card] -= 1
                held.append(card.code)
        results.append({"player": player, "melds": melds, "hand": held})
    return {"ending": "went_out", "went_out": PLAYERS[0], "results": results}


def score(payload: dict[str, object]) -> object:
    """Read the payload's notation and rule on the hand: the engine's whole job for a request."""
    results = tuple(
        PlayerInput(
            entry["player"],
            tuple(parse_meld(m) for m in entry["melds"]),
            parse_cards(entry["hand"]),
        )
        for entry in payload["results"]  # type: ignore[attr-defined]
    )
    return rule_hand(HandInput(Ending(payload["ending"]), payload["went_out"], results))


def clear_caches() -> None:
    """Forget every meld ruling, so each hand's melds are validated from scratch.

    The notation caches stay warm: they hold at most a few hundred spellings of 52 cards and
    are always warm in a running service.
    """
    _rule.cache_clear()


def per_call(fn: Callable[[object], object], items: list[object], repeat: int) -> float:
    """Median over ``repeat`` rounds of the mean seconds per call over ``items``."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        rounds.append((time.perf_counter() - start) / len(items))
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="distinct hands in the pool")
    parser.add_argument("--repeat", type=int, default=15, help="rounds; the median is kept")
    args = parser.parse_args()

    rng = random.Random(2026)
    payloads = [realistic_hand(rng) for _ in range(args.hands)]
    for payload in payloads:
        ruling = score(payload)
        assert ruling.valid, ruling.violations  # type: ignore[attr-defined]
    texts = [json.dumps(p) for p in payloads]

    baseline = per_call(lambda text: json.dumps(json.loads(text)), texts, args.repeat)  # type: ignore[arg-type]
    loaded = [json.loads(t) for t in texts]
    warm = per_call(score, loaded, args.repeat)  # type: ignore[arg-type]

    def cold(payload: object) -> object:
        clear_caches()
        return score(payload)  # type: ignore[arg-type]

    cold_time = per_call(cold, loaded, args.repeat)
    clear_only = per_call(lambda _: clear_caches(), loaded, args.repeat)
    cold_time -= clear_only
    cards = statistics.mean(len(t) for t in texts)

    print(f"pool: {args.hands} distinct legal 5-player hands, {cards:.0f} bytes of JSON each")
    print(f"baseline json.loads+json.dumps:       {baseline * 1e6:8.1f} us/hand")
    print(
        f"engine, parse+rule (warm caches):     {warm * 1e6:8.1f} us/hand "
        f"ratio {warm / baseline:.2f}x"
    )
    print(
        f"engine, parse+rule (no meld cached):    {cold_time * 1e6:8.1f} us/hand "
        f"ratio {cold_time / baseline:.2f}x"
    )
    print(f"goal: at most 5x -> {'met' if max(warm, cold_time) / baseline <= 5 else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Scoring a recorded hand and the checks on the deal as a whole (rulings 9-13).

>>> hand = HandInput(Ending.WENT_OUT, "ann", (
...     PlayerInput("ann", (parse_meld(["JS", "QS", "KS"]),), ()),
...     PlayerInput("bob", (), parse_cards(["2D", "4H"])),
... ))
>>> [(r.player, r.melded_points, r.hand_penalty, r.bonus, r.net)
...  for r in rule_hand(hand, check_card_counts=False).results]
[('ann', 70, 0, 100, 170), ('bob', 0, 25, 0, -25)]
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring.cards import ALL_CARDS, Card, MeldCard, parse_cards, parse_meld  # noqa: F401 (doctests)
from scoring.melds import COPIES_PER_CARD, MeldRuling, rule_meld
from scoring.violations import Code, RuleCode, Violation, violation

GOING_OUT_BONUS = 100
MIN_CARDS_PER_PLAYER = 13
MIN_PLAYERS = 2
MAX_PLAYERS = 5
STOCK_EXHAUSTED_CARDS = (103, 104)


class Ending(enum.StrEnum):
    """How a hand ended."""

    WENT_OUT = "went_out"
    STOCK_EXHAUSTED = "stock_exhausted"


@dataclass(frozen=True, slots=True)
class PlayerInput:
    """One player's final melds and the cards left in hand."""

    player: Hashable
    melds: tuple[tuple[MeldCard, ...], ...]
    held: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandInput:
    """A finished hand as a scorekeeper enters it."""

    ending: Ending
    went_out: Hashable | None
    results: tuple[PlayerInput, ...]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's score for the hand, itemised."""

    player: Hashable
    melds: tuple[MeldRuling, ...]
    held: tuple[Card, ...]
    melded_points: int
    hand_penalty: int
    bonus: int

    @property
    def net(self) -> int:
        """Melded points minus held points, plus the going-out bonus."""
        return self.melded_points - self.hand_penalty + self.bonus


@dataclass(frozen=True, slots=True)
class HandRuling:
    """The ruling on a whole hand: every player's result and every violation."""

    results: tuple[PlayerResult, ...]
    violations: tuple[Violation, ...]

    @property
    def valid(self) -> bool:
        """Whether the hand breaks no rule."""
        return not self.violations


def score_player(entry: PlayerInput, *, went_out: bool) -> PlayerResult:
    """Score one player's melds and held cards.

    >>> r = score_player(PlayerInput("x", (parse_meld(["JS", "2D=QS", "KS"]),), ()), went_out=False)
    >>> r.melded_points, r.net
    (70, 70)
    """
    melds = tuple(map(rule_meld, entry.melds))
    return PlayerResult(
        player=entry.player,
        melds=melds,
        held=entry.held,
        melded_points=sum(m.points for m in melds),
        hand_penalty=sum(card.points for card in entry.held),
        bonus=GOING_OUT_BONUS if went_out else 0,
    )


def rule_hand(
    hand: HandInput,
    *,
    seated: Sequence[Hashable] | None = None,
    check_card_counts: bool = True,
) -> HandRuling:
    """Score every player and report every violation of the hand, with its path.

    ``seated`` lists the players who must appear (a match's seats); without it, 2 to 5
    distinct players are expected. ``check_card_counts`` turns off the checks on how many
    cards each player and the deal account for, for partial examples such as the one above.
    """
    found: list[Violation] = []
    found.extend(_check_players(hand, seated))
    went_out = hand.went_out if hand.ending is Ending.WENT_OUT else None
    results = tuple(
        score_player(entry, went_out=went_out is not None and entry.player == went_out)
        for entry in hand.results
    )
    for i, result in enumerate(results):
        for j, meld in enumerate(result.melds):
            if meld.violations:
                found.extend(v.at(f"results.{i}.melds.{j}") for v in meld.violations)
    found.extend(_check_ending(hand))
    found.extend(_check_copies(hand))
    if check_card_counts:
        found.extend(_check_card_counts(hand))
    return HandRuling(results, tuple(found))


def check_table(
    hand: HandInput,
    *,
    seated: Sequence[Hashable] | None,
    players: tuple[int, int] = (MIN_PLAYERS, MAX_PLAYERS),
    copies: int = COPIES_PER_CARD,
    copies_code: RuleCode = Code.CARD_COUNT_EXCEEDED,
) -> list[Violation]:
    """The checks every game's hand shares, whatever its rules: each seated player listed once
    and nobody else (or, with no seats, ``players`` bounding how many are listed), the player
    who went out among them, and no card more often than ``copies`` packs hold it.

    >>> bob_twice = HandInput(Ending.WENT_OUT, "cleo", (
    ...     PlayerInput("bob", (), parse_cards(["5H"])),
    ...     PlayerInput("bob", (), parse_cards(["5H", "5H"])),
    ... ))
    >>> for found in check_table(bob_twice, seated=["ann", "bob"], copies=1):
    ...     print(found.code.value, found.path, dict(found.params))
    players_mismatch results {'problem': 'duplicate', 'player': 'bob', 'count': '2'}
    players_mismatch results {'problem': 'missing', 'player': 'ann'}
    went_out_unknown_player went_out {'player': 'cleo'}
    card_count_exceeded results.1.hand {'card': '5H', 'count': '3'}
    """
    found = _check_players(hand, seated, players)
    listed = [entry.player for entry in hand.results]
    if hand.ending is Ending.WENT_OUT:
        if hand.went_out is None:
            found.append(violation(Code.WENT_OUT_MISSING, "went_out"))
        elif hand.went_out not in listed:
            found.append(violation(Code.WENT_OUT_UNKNOWN_PLAYER, "went_out", player=hand.went_out))
    elif hand.went_out is not None:
        found.append(violation(Code.WENT_OUT_NOT_ALLOWED, "went_out", player=hand.went_out))
    found.extend(_check_copies(hand, copies, copies_code))
    return found


def _check_players(
    hand: HandInput,
    seated: Sequence[Hashable] | None,
    players: tuple[int, int] = (MIN_PLAYERS, MAX_PLAYERS),
) -> list[Violation]:
    listed = [entry.player for entry in hand.results]
    found: list[Violation] = []
    for player, count in Counter(listed).items():
        if count > 1:
            found.append(
                violation(
                    Code.PLAYERS_MISMATCH,
                    "results",
                    problem="duplicate",
                    player=player,
                    count=count,
                )
            )
    if seated is None:
        count = len(set(listed))
        if not players[0] <= count <= players[1]:
            found.append(
                violation(
                    Code.PLAYERS_MISMATCH,
                    "results",
                    problem="player_count",
                    count=count,
                    min=players[0],
                    max=players[1],
                )
            )
        return found
    for player in seated:
        if player not in listed:
            found.append(
                violation(Code.PLAYERS_MISMATCH, "results", problem="missing", player=player)
            )
    for i, player in enumerate(listed):
        if player not in seated:
            found.append(
                violation(
                    Code.PLAYERS_MISMATCH,
                    f"results.{i}.player",
                    problem="not_seated",
                    player=player,
                )
            )
    return found


def _check_ending(hand: HandInput) -> list[Violation]:
    found: list[Violation] = []
    if hand.ending is Ending.STOCK_EXHAUSTED and hand.went_out is not None:
        found.append(violation(Code.WENT_OUT_NOT_ALLOWED, "went_out", player=hand.went_out))
    if hand.ending is Ending.WENT_OUT:
        listed = [entry.player for entry in hand.results]
        if hand.went_out is None:
            found.append(violation(Code.WENT_OUT_MISSING, "went_out"))
        elif hand.went_out not in listed:
            found.append(violation(Code.WENT_OUT_UNKNOWN_PLAYER, "went_out", player=hand.went_out))
    for i, entry in enumerate(hand.results):
        if hand.ending is Ending.WENT_OUT and entry.player == hand.went_out:
            if entry.held:
                held = " ".join(c.code for c in entry.held)
                found.append(
                    violation(
                        Code.WENT_OUT_WITH_CARDS,
                        f"results.{i}.hand",
                        player=entry.player,
                        problem="holds_cards",
                        cards=held,
                    )
                )
            if not entry.melds:
                found.append(
                    violation(
                        Code.WENT_OUT_WITH_CARDS,
                        f"results.{i}.melds",
                        player=entry.player,
                        problem="melded_nothing",
                    )
                )
        elif not entry.held:
            found.append(
                violation(Code.PLAYER_WITHOUT_CARDS, f"results.{i}.hand", player=entry.player)
            )
    return found


def _check_copies(
    hand: HandInput, copies: int = COPIES_PER_CARD, code: RuleCode = Code.CARD_COUNT_EXCEEDED
) -> list[Violation]:
    every = [c.card.index for entry in hand.results for meld in entry.melds for c in meld]
    every.extend(card.index for entry in hand.results for card in entry.held)
    if not every or max(Counter(every).values()) <= copies:
        return []
    seen = [0] * len(ALL_CARDS)
    first_excess: dict[int, str] = {}
    for i, entry in enumerate(hand.results):
        for j, meld in enumerate(entry.melds):
            for c in meld:
                seen[c.card.index] += 1
                if seen[c.card.index] > copies:
                    first_excess.setdefault(c.card.index, f"results.{i}.melds.{j}")
        for card in entry.held:
            seen[card.index] += 1
            if seen[card.index] > copies:
                first_excess.setdefault(card.index, f"results.{i}.hand")
    return [
        violation(code, path, card=ALL_CARDS[index].code, count=seen[index])
        for index, path in sorted(first_excess.items())
    ]


def _check_card_counts(hand: HandInput) -> list[Violation]:
    found: list[Violation] = []
    total = 0
    for i, entry in enumerate(hand.results):
        count = sum(len(meld) for meld in entry.melds) + len(entry.held)
        total += count
        if count < MIN_CARDS_PER_PLAYER:
            found.append(
                violation(Code.TOO_FEW_CARDS, f"results.{i}", player=entry.player, count=count)
            )
    if hand.ending is Ending.STOCK_EXHAUSTED and total not in STOCK_EXHAUSTED_CARDS:
        found.append(violation(Code.STOCK_EXHAUSTED_CARD_COUNT, "results", count=total))
    return found

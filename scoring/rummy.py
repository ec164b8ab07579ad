"""Classic Rummy: one pack, no wild cards, runs of any length, lay-offs on any meld, pip payments.

A ruleset of its own, beside Arlington: it shares the card notation and the value types
(:class:`~scoring.cards.Card`, :class:`~scoring.melds.MeldRuling`,
:class:`~scoring.hands.PlayerResult`, :class:`~scoring.violations.Violation`) and owns its meld
rules, deal rules, scoring and codes. Nothing here changes how Arlington is ruled.

>>> rule_meld(parse_meld(["5H", "6H", "7H", "8H", "9H"])).kind
<MeldKind.RUN: 'run'>
>>> [v.code.value for v in rule_meld(parse_meld(["QH", "KH", "AH"])).violations]
['run_ace_high']
>>> rule_meld(parse_meld(["QH", "KH", "AH"]), ace=Ace.HIGH_OR_LOW).valid
True
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Final

from scoring.cards import ALL_CARDS, Card, MeldCard, Rank, Suit, parse_cards, parse_meld  # noqa: F401 (doctests)
from scoring.hands import Ending, HandInput, HandRuling, PlayerInput, PlayerResult  # noqa: F401
from scoring.match import Finish
from scoring.melds import MeldKind, MeldRuling, meld_text
from scoring.turns import TurnRuling
from scoring.violations import (
    CATALOGUES,
    MESSAGES,
    PROBLEMS,
    Catalogue,
    Code,
    Violation,
    gettext_noop,
    violation,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEAL_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""Cards dealt to each player, by the number of players."""
DEFAULT_TARGET = 100
MAX_TARGET = 100_000
MIN_MELD = 3
RUMMY_MULTIPLIER = 2


class Ace(enum.StrEnum):
    """Where an ace may stand in a run: a match option."""

    LOW = "low"
    """Only below the two, as in A-2-3 (the default: the text ranks K high ... A low)."""
    HIGH_OR_LOW = "high_or_low"
    """Below the two (A-2-3) or above the king (Q-K-A), never both: K-A-2 is never a run."""


class RummyCode(enum.StrEnum):
    """Rummy's stable violation codes: Arlington's where the meaning is the same, and its own."""

    MELD_TOO_SHORT = "meld_too_short"
    SET_MIXED_RANKS = "set_mixed_ranks"
    RUN_MIXED_SUITS = "run_mixed_suits"
    RUN_NOT_CONSECUTIVE = "run_not_consecutive"
    RUN_AROUND_THE_CORNER = "run_around_the_corner"
    RUN_ACE_HIGH = "run_ace_high"
    NO_WILD_CARDS = "no_wild_cards"
    TOO_MANY_COPIES = "too_many_copies"
    PLAYERS_MISMATCH = "players_mismatch"
    CARD_COUNT_EXCEEDED = "card_count_exceeded"
    STOCK_NEVER_EXHAUSTED = "stock_never_exhausted"
    WENT_OUT_MISSING = "went_out_missing"
    WENT_OUT_UNKNOWN_PLAYER = "went_out_unknown_player"
    WENT_OUT_WITH_CARDS = "went_out_with_cards"
    PLAYER_WITHOUT_CARDS = "player_without_cards"
    HELD_MORE_THAN_DEALT = "held_more_than_dealt"
    RUMMY_NOT_ALL_AT_ONCE = "rummy_not_all_at_once"
    DISCARD_TAKEN_CARD = "discard_taken_card"


_SAME_AS_ARLINGTON = {
    RummyCode.MELD_TOO_SHORT: Code.MELD_TOO_SHORT,
    RummyCode.SET_MIXED_RANKS: Code.SET_MIXED_RANKS,
    RummyCode.RUN_MIXED_SUITS: Code.RUN_MIXED_SUITS,
    RummyCode.RUN_NOT_CONSECUTIVE: Code.RUN_NOT_CONSECUTIVE,
    RummyCode.PLAYERS_MISMATCH: Code.PLAYERS_MISMATCH,
    RummyCode.WENT_OUT_MISSING: Code.WENT_OUT_MISSING,
    RummyCode.WENT_OUT_UNKNOWN_PLAYER: Code.WENT_OUT_UNKNOWN_PLAYER,
    RummyCode.PLAYER_WITHOUT_CARDS: Code.PLAYER_WITHOUT_CARDS,
}

MESSAGES_RUMMY: Final[Mapping[RummyCode, str]] = {
    **{code: MESSAGES[same] for code, same in _SAME_AS_ARLINGTON.items()},
    RummyCode.RUN_AROUND_THE_CORNER: gettext_noop(
        "A run never turns the corner from king to ace to two, as {meld} does."
    ),
    RummyCode.RUN_ACE_HIGH: gettext_noop(
        "In this match the ace is low only (A-2-3), so {meld} is not a run."
    ),
    RummyCode.NO_WILD_CARDS: gettext_noop(
        "Rummy has no wild cards: {card} cannot stand for another card."
    ),
    RummyCode.TOO_MANY_COPIES: gettext_noop(
        "{meld} holds {card} {count} times; one pack holds only one of each card."
    ),
    RummyCode.CARD_COUNT_EXCEEDED: gettext_noop(
        "{card} appears {count} times in this deal; one pack holds only one."
    ),
    RummyCode.STOCK_NEVER_EXHAUSTED: gettext_noop(
        "In Rummy the discard pile is turned over as a new stock, so a hand ends only when a "
        "player goes out."
    ),
    RummyCode.WENT_OUT_WITH_CARDS: gettext_noop(
        "{player} went out, so must hold no card; {problem}."
    ),
    RummyCode.HELD_MORE_THAN_DEALT: gettext_noop(
        "{player} holds {count} cards, more than the {dealt} dealt to each player: a turn "
        "never leaves more cards in a hand than it had."
    ),
    RummyCode.RUMMY_NOT_ALL_AT_ONCE: gettext_noop(
        "{player} went rummy, all at once from a hand of {dealt} cards and one drawn, so melded "
        "at most {most} cards; their melds hold {count}."
    ),
    RummyCode.DISCARD_TAKEN_CARD: gettext_noop(
        "{card} was just taken from the discard pile: it cannot be discarded in the same turn."
    ),
}

PROBLEMS_RUMMY: Final[Mapping[str, str]] = {
    **{key: PROBLEMS[key] for key in ("duplicate", "missing", "not_seated", "holds_cards")},
    "player_count": gettext_noop("{min} to {max} play Rummy, not {count}"),
}

CATALOGUES[RummyCode] = Catalogue(MESSAGES_RUMMY, PROBLEMS_RUMMY)


def pips(card: Card) -> int:
    """What a card costs held at the end: face cards 10, aces 1, the others their pip value.

    >>> [pips(Card.parse(c)) for c in ("KS", "QS", "10H", "7D", "2C", "AH")]
    [10, 10, 10, 7, 2, 1]
    """
    return min(card.rank.order, 10)


def deal_size(players: int) -> int:
    """Cards dealt to each player: 10 for two, 7 for three or four, 6 for five or six.

    >>> [deal_size(n) for n in range(2, 7)]
    [10, 7, 7, 6, 6]
    """
    return DEAL_SIZES[players]


def rule_meld(cards: Sequence[MeldCard], *, ace: Ace = Ace.LOW) -> MeldRuling:
    """Classify and validate a Rummy meld; ``points`` is its pip value.

    A set is three or four cards of one rank; a run three or more of one suit in sequence.
    One pack is used, so no card may appear twice.

    >>> r = rule_meld(parse_meld(["AC", "2C", "3C"]))
    >>> r.valid, r.kind, r.points
    (True, <MeldKind.RUN: 'run'>, 6)
    >>> [v.code.value for v in rule_meld(parse_meld(["7H", "7D", "2C=7S"])).violations]
    ['no_wild_cards', 'set_mixed_ranks']
    """
    cards = tuple(cards)
    found: list[Violation] = [
        violation(RummyCode.NO_WILD_CARDS, card=c.code) for c in cards if c.wild
    ]
    physical = [c.card for c in cards]
    ranks = {card.rank for card in physical}
    suits = {card.suit for card in physical}
    count = len(cards)
    text = meld_text(cards)
    if count < MIN_MELD:
        found.append(violation(RummyCode.MELD_TOO_SHORT, meld=text, count=count))
    kind: MeldKind
    if len(ranks) <= 1:
        kind = MeldKind.SET
    elif len(suits) == 1:
        kind = MeldKind.RUN
        found.extend(_run_order(physical, ranks, ace, text))
    elif len(ranks) < count:
        kind = MeldKind.SET
        names = ", ".join(r.value for r in sorted(ranks, key=lambda r: r.order))
        found.append(violation(RummyCode.SET_MIXED_RANKS, meld=text, ranks=names))
    else:
        kind = MeldKind.RUN
        names = ", ".join(s.value for s in Suit if s in suits)
        found.append(violation(RummyCode.RUN_MIXED_SUITS, meld=text, suits=names))
        found.extend(_run_order(physical, ranks, ace, text))
    found.extend(
        violation(RummyCode.TOO_MANY_COPIES, meld=text, card=card.code, count=times)
        for card, times in sorted(Counter(physical).items(), key=lambda item: item[0].index)
        if times > 1
    )
    points = sum(pips(card) for card in physical)
    return MeldRuling(cards, None if found else kind, points, tuple(found))


def _run_order(cards: list[Card], ranks: set[Rank], ace: Ace, text: str) -> list[Violation]:
    if len(ranks) == len(cards):
        low = sorted(card.rank.order for card in cards)
        if low[-1] - low[0] == len(low) - 1:
            return []
        if Rank.ACE in ranks:
            high = sorted(14 if card.rank is Rank.ACE else card.rank.order for card in cards)
            if high[-1] - high[0] == len(high) - 1:
                if ace is Ace.HIGH_OR_LOW:
                    return []
                return [violation(RummyCode.RUN_ACE_HIGH, meld=text)]
    if {Rank.KING, Rank.ACE, Rank.TWO} <= ranks:
        return [violation(RummyCode.RUN_AROUND_THE_CORNER, meld=text)]
    return [violation(RummyCode.RUN_NOT_CONSECUTIVE, meld=text)]


def rule_lay_off(
    meld: Sequence[MeldCard], add: Sequence[MeldCard], *, ace: Ace = Ace.LOW
) -> TurnRuling:
    """May these cards be laid off on this meld? On any meld on the table, whoever melded it.

    >>> r = rule_lay_off(parse_meld(["10H", "9H", "8H"]), parse_meld(["JH", "QH"]))
    >>> r.allowed, [c.code for c in r.meld]
    (True, ['10H', '9H', '8H', 'JH', 'QH'])
    """
    extended = (*meld, *add)
    return TurnRuling(extended, rule_meld(extended, ace=ace).violations)


def rule_discard(card: Card, *, taken_from_discards: Card | None = None) -> TurnRuling:
    """May this card be discarded? Any card but the one just taken from the discard pile.

    >>> rule_discard(Card.parse("7H"), taken_from_discards=Card.parse("7H")).allowed
    False
    >>> rule_discard(Card.parse("QS")).allowed
    True
    """
    if taken_from_discards is not None and card == taken_from_discards:
        return TurnRuling(None, (violation(RummyCode.DISCARD_TAKEN_CARD, card=card.code),))
    return TurnRuling(None, ())


def rule_hand(
    hand: HandInput,
    *,
    rummy: bool = False,
    ace: Ace = Ace.LOW,
    seated: Sequence[Hashable] | None = None,
) -> HandRuling:
    """Score a finished Rummy hand and report every violation, with its path.

    Every other player pays the player who went out the pip value of the cards left in hand;
    double when that player went ``rummy`` (out all at once). ``melds`` are the melds a player
    put down, as they lie at the end, with any cards others laid off on them. In each result,
    ``hand_penalty`` is what the player pays, ``bonus`` what the winner collects, ``net`` the
    difference; melds score nothing (``melded_points`` is 0).

    >>> hand = HandInput(Ending.WENT_OUT, "ann", (
    ...     PlayerInput("ann", (parse_meld(["7H", "7D", "7C"]),), ()),
    ...     PlayerInput("bob", (), parse_cards(["KD", "4H", "AS"])),
    ... ))
    >>> [(r.player, r.hand_penalty, r.bonus, r.net) for r in rule_hand(hand).results]
    [('ann', 0, 15, 15), ('bob', 15, 0, -15)]
    >>> [r.net for r in rule_hand(hand, rummy=True).results]
    [30, -30]
    """
    found: list[Violation] = _check_players(hand, seated)
    went_out = hand.went_out if hand.ending is Ending.WENT_OUT else None
    multiplier = RUMMY_MULTIPLIER if rummy else 1
    melds = [tuple(rule_meld(meld, ace=ace) for meld in entry.melds) for entry in hand.results]
    paid = [
        0 if entry.player == went_out else multiplier * sum(map(pips, entry.held))
        for entry in hand.results
    ]
    collected = sum(paid) if went_out in [entry.player for entry in hand.results] else 0
    results = tuple(
        PlayerResult(
            player=entry.player,
            melds=melds[i],
            held=entry.held,
            melded_points=0,
            hand_penalty=paid[i],
            bonus=collected if entry.player == went_out else 0,
        )
        for i, entry in enumerate(hand.results)
    )
    for i, rulings in enumerate(melds):
        for j, meld in enumerate(rulings):
            found.extend(v.at(f"results.{i}.melds.{j}") for v in meld.violations)
    found.extend(_check_ending(hand))
    found.extend(_check_copies(hand))
    found.extend(_check_deal(hand, seated, rummy))
    return HandRuling(results, tuple(found))


def _check_players(hand: HandInput, seated: Sequence[Hashable] | None) -> list[Violation]:
    listed = [entry.player for entry in hand.results]
    found: list[Violation] = [
        violation(
            RummyCode.PLAYERS_MISMATCH, "results", problem="duplicate", player=player, count=count
        )
        for player, count in Counter(listed).items()
        if count > 1
    ]
    if seated is None:
        count = len(set(listed))
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            found.append(
                violation(
                    RummyCode.PLAYERS_MISMATCH,
                    "results",
                    problem="player_count",
                    count=count,
                    min=MIN_PLAYERS,
                    max=MAX_PLAYERS,
                )
            )
        return found
    found.extend(
        violation(RummyCode.PLAYERS_MISMATCH, "results", problem="missing", player=player)
        for player in seated
        if player not in listed
    )
    found.extend(
        violation(
            RummyCode.PLAYERS_MISMATCH, f"results.{i}.player", problem="not_seated", player=player
        )
        for i, player in enumerate(listed)
        if player not in seated
    )
    return found


def _check_ending(hand: HandInput) -> list[Violation]:
    if hand.ending is Ending.STOCK_EXHAUSTED:
        return [violation(RummyCode.STOCK_NEVER_EXHAUSTED, "ending")]
    found: list[Violation] = []
    if hand.went_out is None:
        found.append(violation(RummyCode.WENT_OUT_MISSING, "went_out"))
    elif hand.went_out not in [entry.player for entry in hand.results]:
        found.append(violation(RummyCode.WENT_OUT_UNKNOWN_PLAYER, "went_out", player=hand.went_out))
    for i, entry in enumerate(hand.results):
        if entry.player == hand.went_out:
            if entry.held:
                found.append(
                    violation(
                        RummyCode.WENT_OUT_WITH_CARDS,
                        f"results.{i}.hand",
                        player=entry.player,
                        problem="holds_cards",
                        cards=" ".join(c.code for c in entry.held),
                    )
                )
        elif not entry.held:
            found.append(
                violation(RummyCode.PLAYER_WITHOUT_CARDS, f"results.{i}.hand", player=entry.player)
            )
    return found


def _check_copies(hand: HandInput) -> list[Violation]:
    seen = [0] * len(ALL_CARDS)
    first: dict[int, str] = {}
    for i, entry in enumerate(hand.results):
        placed = [(f"results.{i}.melds.{j}", c.card) for j, m in enumerate(entry.melds) for c in m]
        placed.extend((f"results.{i}.hand", card) for card in entry.held)
        for path, card in placed:
            seen[card.index] += 1
            if seen[card.index] > 1:
                first.setdefault(card.index, path)
    return [
        violation(
            RummyCode.CARD_COUNT_EXCEEDED, path, card=ALL_CARDS[index].code, count=seen[index]
        )
        for index, path in sorted(first.items())
    ]


def _check_deal(hand: HandInput, seated: Sequence[Hashable] | None, rummy: bool) -> list[Violation]:
    """What the deal size allows: a hand never grows past it (a turn draws one card and
    discards one, or goes out), and a rummy melds at most the cards dealt and one drawn."""
    players = len(seated) if seated is not None else len({e.player for e in hand.results})
    if players not in DEAL_SIZES:
        return []
    dealt = deal_size(players)
    found: list[Violation] = []
    for i, entry in enumerate(hand.results):
        if len(entry.held) > dealt:
            found.append(
                violation(
                    RummyCode.HELD_MORE_THAN_DEALT,
                    f"results.{i}.hand",
                    player=entry.player,
                    count=len(entry.held),
                    dealt=dealt,
                )
            )
        count = sum(len(meld) for meld in entry.melds)
        if rummy and entry.player == hand.went_out and count > dealt + 1:
            found.append(
                violation(
                    RummyCode.RUMMY_NOT_ALL_AT_ONCE,
                    f"results.{i}.melds",
                    player=entry.player,
                    dealt=dealt,
                    most=dealt + 1,
                    count=count,
                )
            )
    return found


def decide_finish(totals: Mapping[Hashable, int], *, target: int = DEFAULT_TARGET) -> Finish:
    """After a completed hand: once a total reaches the target, the highest total wins.

    Only the hand's winner gains, so two players never reach the target together; a tie on
    the highest total would share the victory, as in Arlington.

    >>> decide_finish({"ann": 104, "bob": -60}), decide_finish({"ann": 99, "bob": -60})
    (Finish(finished=True, winners=('ann',)), Finish(finished=False, winners=()))
    """
    if not totals or max(totals.values()) < target:
        return Finish(False)
    best = max(totals.values())
    return Finish(True, tuple(player for player, total in totals.items() if total == best))


def next_dealer(*, seats: int, dealer: int, went_out: int | None) -> int:
    """The seat that deals the next hand: the winner with two players, else the next to the left.

    >>> next_dealer(seats=2, dealer=0, went_out=0), next_dealer(seats=3, dealer=2, went_out=0)
    (0, 0)
    >>> next_dealer(seats=4, dealer=1, went_out=3)
    2
    """
    if seats == 2 and went_out is not None:
        return went_out
    return (dealer + 1) % seats

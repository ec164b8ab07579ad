"""Properties of the engine that hold for every input, checked with hypothesis."""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    ALL_CARDS,
    GOING_OUT_BONUS,
    QUEEN_OF_SPADES,
    Card,
    Ending,
    HandInput,
    MeldCard,
    MeldKind,
    NotationError,
    PlayerInput,
    Rank,
    Suit,
    rule_hand,
    rule_meld,
)

TWOS = tuple(card for card in ALL_CARDS if card.is_two)
NOT_TWOS = tuple(card for card in ALL_CARDS if not card.is_two)
RANK_FORMS = {rank: [rank.value, rank.value.lower()] for rank in Rank} | {
    Rank.TEN: ["10", "T", "t"]
}
SUIT_FORMS = {
    Suit.SPADES: ["S", "s", "♠", "♤"],
    Suit.HEARTS: ["H", "h", "♥", "♡", "♥\ufe0f"],
    Suit.DIAMONDS: ["D", "d", "♦", "♢"],
    Suit.CLUBS: ["C", "c", "♣", "♧"],
}
SPACES = st.sampled_from(["", " ", "  ", "\t"])
# Ranks in run order, the ace both low (first) and high (last).
RUN_ORDER = [Rank.ACE, *[r for r in Rank if r is not Rank.ACE], Rank.ACE]


@st.composite
def written(draw: st.DrawFn, card: Card) -> str:
    """One of the many ways a scorekeeper may write ``card``."""
    rank = draw(st.sampled_from(RANK_FORMS[card.rank]))
    suit = draw(st.sampled_from(SUIT_FORMS[card.suit]))
    return draw(SPACES) + rank + suit + draw(SPACES)


@st.composite
def card_and_text(draw: st.DrawFn) -> tuple[Card, str]:
    """A card and a way of writing it."""
    card = draw(st.sampled_from(ALL_CARDS))
    return card, draw(written(card))


@given(card_and_text())
def test_every_written_form_reads_as_the_card(pair: tuple[Card, str]) -> None:
    card, text = pair
    assert Card.parse(text) == card
    assert Card.parse(text).code == card.code


@given(st.sampled_from(ALL_CARDS))
def test_canonical_code_round_trips(card: Card) -> None:
    code = card.code
    assert code == card.rank.value + card.suit.value
    assert code.isascii() and code == code.upper()
    assert Card.parse(code) == card
    assert eval(repr(card)) == card  # repr rebuilds the value


@given(st.sampled_from(TWOS), st.sampled_from(ALL_CARDS), st.data())
def test_declared_two_round_trips(two: Card, declared: Card, data: st.DataObject) -> None:
    text = data.draw(written(two)) + "=" + data.draw(written(declared))
    melded = MeldCard.parse(text)
    assert melded == MeldCard(two, declared)
    assert MeldCard.parse(melded.code) == melded
    assert eval(repr(melded)) == melded
    assert melded.code == (two.code if two == declared else f"{two.code}={declared.code}")
    assert melded.points == declared.points


@given(card_and_text())
def test_a_card_alone_in_a_meld_stands_for_itself(pair: tuple[Card, str]) -> None:
    card, text = pair
    assert MeldCard.parse(text) == MeldCard.natural(card)
    assert MeldCard.parse(text).code == card.code


@given(st.sampled_from(NOT_TWOS), st.sampled_from(ALL_CARDS), st.data())
def test_only_a_two_may_be_declared(card: Card, declared: Card, data: st.DataObject) -> None:
    text = data.draw(written(card)) + "=" + data.draw(written(declared))
    try:
        MeldCard.parse(text)
    except NotationError as error:
        assert error.code == "declaration_on_non_two"
    else:
        raise AssertionError(f"{text!r} was read")


# --- melds -------------------------------------------------------------------------------


def card_of(rank: Rank, suit: Suit) -> Card:
    """The card of that rank and suit."""
    return Card(rank, suit)


@st.composite
def wild(draw: st.DrawFn, cards: list[Card], used: Counter[Card]) -> list[MeldCard]:
    """Replace some of ``cards`` by wild twos, keeping at least one natural non-two."""
    keep = draw(st.sampled_from([i for i, card in enumerate(cards) if not card.is_two]))
    chosen = draw(st.sets(st.sampled_from([i for i in range(len(cards)) if i != keep])))
    wild_queens = sorted(i for i in chosen if cards[i] == QUEEN_OF_SPADES)
    if wild_queens:  # ruling 6: a wild Q♠ only beside natural cards
        chosen = {wild_queens[0]}
    melded = []
    for i, card in enumerate(cards):
        if i in chosen:
            two = draw(st.sampled_from([t for t in TWOS if used[t] < 2]))
            used[two] += 1
            melded.append(MeldCard(two, card))
        else:
            melded.append(MeldCard.natural(card))
    return melded


@st.composite
def legal_set(draw: st.DrawFn) -> tuple[list[MeldCard], MeldKind]:
    """A set of 3 or 4 cards of one rank (no more than two of a card), with wild twos."""
    rank = draw(st.sampled_from([r for r in Rank if r is not Rank.TWO]))
    size = draw(st.integers(3, 4))
    suits = draw(
        st.lists(st.sampled_from(list(Suit)), min_size=size, max_size=size).filter(
            lambda s: max(Counter(s).values()) <= 2
        )
    )
    used: Counter[Card] = Counter()
    return draw(wild([card_of(rank, suit) for suit in suits], used)), MeldKind.SET


@st.composite
def legal_run(draw: st.DrawFn) -> tuple[list[MeldCard], MeldKind]:
    """A run of 3 or 4 cards of one suit, the ace low or high, with wild twos."""
    size = draw(st.integers(3, 4))
    start = draw(st.integers(0, len(RUN_ORDER) - size))
    suit = draw(st.sampled_from(list(Suit)))
    cards = [card_of(rank, suit) for rank in RUN_ORDER[start : start + size]]
    used: Counter[Card] = Counter(card for card in cards if card.is_two)
    return draw(wild(cards, used)), MeldKind.RUN


@st.composite
def legal_twos(draw: st.DrawFn) -> tuple[list[MeldCard], MeldKind]:
    """A set of 3 or 4 twos, each standing for itself."""
    size = draw(st.integers(3, 4))
    twos = draw(
        st.lists(st.sampled_from(TWOS), min_size=size, max_size=size).filter(
            lambda t: max(Counter(t).values()) <= 2
        )
    )
    return [MeldCard.natural(two) for two in twos], MeldKind.TWOS


LEGAL_MELDS = st.one_of(legal_set(), legal_run(), legal_twos())


@st.composite
def any_meld_card(draw: st.DrawFn) -> MeldCard:
    """Any card as melded: a natural card, a bare two, or a two declared as anything."""
    card = draw(st.sampled_from(ALL_CARDS))
    if card.is_two and draw(st.booleans()):
        return MeldCard(card, draw(st.sampled_from(ALL_CARDS)))
    return MeldCard.natural(card)


@st.composite
def near_legal_meld(draw: st.DrawFn) -> list[MeldCard]:
    """A legal meld with one card added, removed or replaced: often just illegal."""
    cards, _ = draw(LEGAL_MELDS)
    change = draw(st.sampled_from(["add", "remove", "replace", "duplicate"]))
    index = draw(st.integers(0, len(cards) - 1))
    if change == "add":
        cards.insert(index, draw(any_meld_card()))
    elif change == "remove":
        del cards[index]
    elif change == "replace":
        cards[index] = draw(any_meld_card())
    else:
        cards.append(cards[index])
    return cards


ANY_MELD = st.one_of(
    LEGAL_MELDS.map(lambda pair: pair[0]),
    near_legal_meld(),
    st.lists(any_meld_card(), min_size=0, max_size=6),
)


def declared_value(card: Card) -> int:
    """The card values of docs/rules.md, written out again independently of the engine."""
    if card == QUEEN_OF_SPADES:
        return 50
    if card.rank in (Rank.ACE, Rank.TWO):
        return 20
    if card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT):
        return 10
    return 5


@given(LEGAL_MELDS)
def test_melds_built_by_the_rules_are_legal(pair: tuple[list[MeldCard], MeldKind]) -> None:
    cards, kind = pair
    ruling = rule_meld(cards)
    assert ruling.violations == ()
    assert ruling.kind is kind
    assert ruling.points == sum(declared_value(c.represents) for c in cards)


@given(ANY_MELD, st.randoms(use_true_random=False))
def test_a_ruling_does_not_depend_on_card_order(cards: list[MeldCard], rng: Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    first, second = rule_meld(cards), rule_meld(shuffled)
    assert first.valid == second.valid
    assert first.kind == second.kind
    assert first.points == second.points
    assert {v.code for v in first.violations} == {v.code for v in second.violations}


@given(ANY_MELD)
def test_no_legal_meld_exceeds_four_cards_or_two_copies(cards: list[MeldCard]) -> None:
    if rule_meld(cards).valid:
        assert 3 <= len(cards) <= 4
        assert max(Counter(c.represents for c in cards).values()) <= 2
        assert max(Counter(c.card for c in cards).values()) <= 2


@given(ANY_MELD)
def test_a_meld_ruling_is_never_valid_with_violations(cards: list[MeldCard]) -> None:
    ruling = rule_meld(cards)
    assert ruling.valid == (ruling.violations == ())
    assert (ruling.kind is None) == (not ruling.valid)


# --- hands -------------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> HandInput:
    """A hand of 2 to 5 players with any melds and held cards, ending either way."""
    count = draw(st.integers(2, 5))
    names = [f"p{i}" for i in range(count)]
    results = tuple(
        PlayerInput(
            player=name,
            melds=tuple(tuple(m) for m in draw(st.lists(ANY_MELD, max_size=4))),
            held=tuple(draw(st.lists(st.sampled_from(ALL_CARDS), max_size=8))),
        )
        for name in names
    )
    ending = draw(st.sampled_from(list(Ending)))
    went_out = draw(st.sampled_from(names)) if ending is Ending.WENT_OUT else None
    return HandInput(ending, went_out, results)


@given(hands())
def test_net_is_melded_minus_held_plus_bonus(hand: HandInput) -> None:
    ruling = rule_hand(hand)
    assert [r.player for r in ruling.results] == [entry.player for entry in hand.results]
    for entry, result in zip(hand.results, ruling.results, strict=True):
        melded = sum(
            declared_value(c.card if all(x.card.is_two for x in meld) else c.represents)
            for meld in entry.melds
            for c in meld
        )
        held = sum(declared_value(card) for card in entry.held)
        bonus = GOING_OUT_BONUS if entry.player == hand.went_out else 0
        assert (result.melded_points, result.hand_penalty, result.bonus) == (melded, held, bonus)
        assert result.net == melded - held + bonus

"""The live table, move by move: the deal, each kind of event, the stock turned over, the end."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scoring import (
    ALL_CARDS,
    QUEEN_OF_SPADES,
    Card,
    Ending,
    rule_hand,
)
from scoring.cards import parse_cards, parse_meld
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.live import (
    Discard,
    Draw,
    Event,
    Extend,
    LiveHand,
    Meld,
    Phase,
    TakePile,
    deal,
    event_from_dict,
    finish,
    play,
    public_state,
    replay_events,
)

PLAYERS = ("ann", "bob", "cat")
FOUR_SETS = [parse_meld([f"{rank}C", f"{rank}D", f"{rank}H"]) for rank in "3456"]


def c(code: str) -> Card:
    return Card.parse(code)


def m(*codes: str) -> tuple:
    return parse_meld(list(codes))


def run(state: LiveHand, events: Sequence[Event]) -> LiveHand:
    for event in events:
        step = play(state, event)
        assert step.accepted, (event, step.violations)
        state = step.state
    return state


def codes(state: LiveHand, event: Event) -> list[str]:
    step = play(state, event)
    assert step.state is state
    return [v.code.value for v in step.violations]


@pytest.fixture
def table() -> LiveHand:
    """Three players, cat deals, 7H turned up: ann starts."""
    return deal(PLAYERS, dealer="cat", turned_up=c("7H"))


@pytest.mark.parametrize(("count", "stock"), [(2, 77), (3, 64), (4, 51), (5, 38)])
def test_the_deal_leaves_104_less_13_each_less_the_turned_up_card(count: int, stock: int) -> None:
    players = [f"p{i}" for i in range(count)]
    state = deal(players, dealer=players[-1], turned_up=c("QS"))
    assert state.stock == stock
    assert state.hand_sizes == (13,) * count
    assert state.discards == (QUEEN_OF_SPADES,)
    assert state.turn_player == "p0" and state.phase is Phase.DRAW


def test_play_starts_left_of_the_dealer_and_goes_clockwise(table: LiveHand) -> None:
    assert table.turn_player == "ann"
    table = run(table, [Draw("ann"), Discard("ann", c("9C"))])
    assert table.turn_player == "bob"
    table = run(table, [Draw("bob"), Discard("bob", c("9D")), Draw("cat"), Discard("cat", c("9S"))])
    assert table.turn_player == "ann"


@pytest.mark.parametrize("players", [["a"], ["a", "a"], [f"p{i}" for i in range(6)]])
def test_a_table_of_the_wrong_size_cannot_be_dealt(players: list[str]) -> None:
    with pytest.raises(ValueError):
        deal(players, dealer=players[0], turned_up=c("7H"))


def test_a_draw_from_the_dealt_stock_is_private(table: LiveHand) -> None:
    after = run(table, [Draw("ann")])
    assert after.hand_sizes == (14, 13, 13) and after.known == ((), (), ())
    assert after.stock == table.stock - 1 and after.phase is Phase.PLAY
    assert codes(table, Draw("ann", c("5H"))) == ["draw_card_unknown"]


def test_taking_the_pile_melds_the_top_card_and_takes_the_rest_known(table: LiveHand) -> None:
    table = run(table, [Draw("ann"), Discard("ann", c("9C")), Draw("bob"), Discard("bob", c("8D"))])
    table = run(table, [TakePile("cat", m("2S=8D", "8D", "8C"))])
    assert table.discards == ()
    assert table.known == ((), (), (c("7H"), c("9C")))
    assert table.hand_sizes == (13, 13, 13 - 2 + 2)
    assert [(meld.owner, [x.code for x in meld.cards]) for meld in table.melds] == [
        ("cat", ["2S=8D", "8D", "8C"])
    ]
    assert table.phase is Phase.PLAY and table.turn_player == "cat"


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (Draw("bob"), ["not_your_turn"]),
        (Draw("dan"), ["players_mismatch"]),
        (Discard("ann", c("9C")), ["draw_first"]),
        (Meld("ann", m("9C", "9D", "9H")), ["draw_first"]),
        (TakePile("ann", m("7H", "7D")), ["take_discards_needs_two", "meld_too_short"]),
        (TakePile("ann", m("7D", "7C", "7S")), ["take_pile_top_card"]),
        (TakePile("ann", m("7H", "8D", "9C")), ["run_mixed_suits"]),
        (TakePile("ann", m("7H", "7H", "7H")), ["too_many_copies", "card_count_exceeded"]),
    ],
)
def test_a_refused_start_of_turn_changes_nothing(
    table: LiveHand, event: Event, expected: list[str]
) -> None:
    assert codes(table, event) == expected


@pytest.fixture
def drawn(table: LiveHand) -> LiveHand:
    """Ann has drawn; bob has a meld on the table."""
    table = run(table, [Draw("ann"), Discard("ann", c("9C"))])
    table = run(table, [Draw("bob"), Meld("bob", m("JS", "QS", "KS")), Discard("bob", c("9C"))])
    table = run(table, [Draw("cat"), Discard("cat", c("4D"))])
    return run(table, [Draw("ann")])


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (Draw("ann"), ["already_drawn"]),
        (TakePile("ann", m("4D", "4C", "4H")), ["already_drawn"]),
        (Discard("bob", c("3C")), ["not_your_turn"]),
        (Discard("ann", c("QS")), ["queen_of_spades_discard"]),
        (Discard("ann", c("9C")), ["card_count_exceeded"]),
        (Extend("ann", 0, m("AS")), ["not_your_meld"]),
        (Extend("ann", 1, m("AS")), ["unknown_meld"]),
        (Meld("ann", m("5H", "6H", "8H")), ["run_not_consecutive"]),
        (Meld("ann", m("9C", "9D", "9H")), ["card_count_exceeded"]),
    ],
)
def test_a_refused_move_changes_nothing(drawn: LiveHand, event: Event, expected: list[str]) -> None:
    assert codes(drawn, event) == expected


def test_an_extension_stays_within_four_cards(drawn: LiveHand) -> None:
    drawn = run(drawn, [Discard("ann", c("3C")), Draw("bob")])
    assert codes(drawn, Extend("bob", 0, m("AS", "10S"))) == ["meld_too_long"]
    after = run(drawn, [Extend("bob", 0, m("10S"))])
    assert [x.code for x in after.melds[0].cards] == ["JS", "QS", "KS", "10S"]
    assert after.hand_sizes[1] == drawn.hand_sizes[1] - 1
    assert codes(after, Extend("bob", 0, m("AS"))) == ["meld_too_long"]


def test_a_hand_cannot_play_more_cards_than_it_holds(table: LiveHand) -> None:
    # Ann melds down to two cards, then tries to meld three.
    table = run(table, [Draw("ann")])
    table = run(table, [Meld("ann", meld) for meld in FOUR_SETS])
    assert table.hand_sizes[0] == 2
    assert codes(table, Meld("ann", m("8C", "8D", "8H"))) == ["more_cards_than_held"]


def test_known_cards_limit_what_else_a_hand_can_play() -> None:
    # Bob takes a pile of 10 known cards, keeps 3 unknown ones, then plays 4 unknown cards.
    table = deal(["ann", "bob"], dealer="bob", turned_up=c("KH"))
    for card in parse_cards(["3C", "4C", "5C", "6C", "7C"]):
        table = run(table, [Draw("ann"), Discard("ann", card), Draw("bob"), Discard("bob", card)])
    table = run(table, [Draw("ann"), Discard("ann", c("8C"))])
    table = run(table, [TakePile("bob", m("8C", "9C", "10C"))])
    assert table.hand_sizes[1] == 11 + 11 and len(table.known[1]) == 11
    for meld in (m("JD", "JH", "JS"), m("QD", "QH", "QC"), m("KD", "KC", "KS")):
        table = run(table, [Meld("bob", meld)])
    assert table.hand_sizes[1] - len(table.known[1]) == 2
    assert codes(table, Meld("bob", m("AD", "AH", "AS"))) == ["known_cards_in_hand"]
    after = run(table, [Meld("bob", m("3C", "4C", "5C"))])  # all three known
    assert after.known[1].count(c("3C")) == 1 and len(after.known[1]) == 8


def test_going_out_by_discarding_the_last_card_ends_the_hand(table: LiveHand) -> None:
    table = run(table, [Draw("ann")])
    table = run(table, [Meld("ann", meld) for meld in FOUR_SETS])
    table = run(table, [Extend("ann", 0, m("3S")), Discard("ann", c("9C"))])
    assert table.phase is Phase.ENDED and table.ending is Ending.WENT_OUT
    assert table.went_out == "ann" and table.turn_player is None
    assert codes(table, Draw("bob")) == ["hand_ended"]
    assert codes(table, Discard("ann", c("8C"))) == ["hand_ended"]


def test_going_out_by_melding_ends_the_hand_at_once(table: LiveHand) -> None:
    table = run(table, [Draw("ann")])
    table = run(table, [Meld("ann", meld) for meld in FOUR_SETS])
    table = run(table, [Extend("ann", 0, m("3S")), Extend("ann", 1, m("4S"))])
    assert table.phase is Phase.ENDED and table.went_out == "ann"


def test_finishing_scores_the_hand_as_entered_whole(table: LiveHand) -> None:
    table = run(table, [Draw("ann"), Discard("ann", c("9C")), Draw("bob"), Discard("bob", c("8D"))])
    table = run(table, [TakePile("cat", m("8D", "8C", "2C=8H"))])
    for meld in (m("3C", "3D", "3H"), m("4C", "4D", "4H"), m("5C", "5D", "5H")):
        table = run(table, [Meld("cat", meld)])
    table = run(table, [Meld("cat", m("7H", "7D", "7C"))])
    assert table.hand_sizes[2] == 1 and table.known[2] == (c("9C"),)
    table = run(table, [Discard("cat", c("9C"))])
    assert table.went_out == "cat"
    held = {"ann": parse_cards(["2D", "4H", "KC"]), "bob": ()}
    assert [v.code.value for v in finish(table, held).violations] == ["held_count_mismatch"] * 2
    held = {
        "ann": parse_cards(
            ["2D", "4H", "KC", "KD", "KH", "JC", "JD", "JH", "10C", "10D", "10H", "6C", "6D"]
        ),
        "bob": parse_cards(
            ["AC", "AD", "AH", "QC", "QD", "QH", "9D", "9H", "9S", "6H", "6S", "5S", "3S"]
        ),
    }
    done = finish(table, held)
    assert done.valid, done.violations
    assert done.hand is not None and done.ruling is not None
    whole = rule_hand(done.hand, seated=PLAYERS)
    assert done.ruling.results == whole.results
    nets = {r.player: r.net for r in done.ruling.results}
    assert nets["cat"] == (10 + 10 + 10) + 15 + 15 + 15 + 15 + 100
    assert nets["ann"] == -sum(card.points for card in held["ann"])


def test_finishing_checks_the_held_cards_against_the_play(table: LiveHand) -> None:
    table = run(table, [Draw("ann"), Discard("ann", c("9C")), Draw("bob"), Discard("bob", c("8D"))])
    table = run(table, [TakePile("cat", m("8D", "8C", "2C=8H"))])
    assert [v.code.value for v in finish(table, {}).violations] == ["hand_not_ended"]
    for meld in (m("3C", "3D", "3H"), m("4C", "4D", "4H"), m("5C", "5D", "5H")):
        table = run(table, [Meld("cat", meld)])
    table = run(table, [Meld("cat", m("9C", "9D", "9H"))])
    table = run(table, [Discard("cat", c("7H"))])
    assert table.ending is Ending.WENT_OUT and table.known[2] == ()
    thirteen = parse_cards(
        ["KC"] * 2 + ["KD"] * 2 + ["JC"] * 2 + ["JD"] * 2 + ["10C"] * 2 + ["10D"] * 2 + ["AC"]
    )
    bob = parse_cards(
        ["AD"] * 2 + ["AH"] * 2 + ["QC"] * 2 + ["QD"] * 2 + ["6D"] * 2 + ["6H"] * 2 + ["9S"]
    )
    assert finish(table, {"ann": thirteen, "bob": bob}).valid
    assert [
        v.code.value for v in finish(table, {"ann": thirteen, "bob": bob, "dan": ()}).violations
    ] == ["players_mismatch"]
    third = (*bob[:-1], c("KC"))
    assert [v.code.value for v in finish(table, {"ann": thirteen, "bob": third}).violations] == [
        "card_count_exceeded"
    ]


def five_discards() -> list[Card]:
    """38 cards to discard one each, none twice, no Q♠ and no seven of hearts."""
    cards = [card for card in ALL_CARDS if card not in (QUEEN_OF_SPADES, c("7H"))]
    return cards[:38]


@pytest.fixture
def empty_stock() -> LiveHand:
    """Five players have drawn the whole stock, each discarding a different card."""
    players = [f"p{i}" for i in range(5)]
    table = deal(players, dealer="p4", turned_up=c("7H"))
    for i, card in enumerate(five_discards()):
        table = run(table, [Draw(players[i % 5]), Discard(players[i % 5], card)])
    assert table.stock == 0 and len(table.discards) == 39
    return table


def test_the_pile_is_turned_over_unshuffled_when_the_stock_runs_out(
    empty_stock: LiveHand,
) -> None:
    table, discards = empty_stock, empty_stock.discards
    player = table.turn_player
    assert codes(table, Draw(player, c("AS"))) == ["draw_not_top_card"]
    after = run(table, [Draw(player)])
    assert after.discards == discards[-1:]
    assert after.known[table.turn] == (c("7H"),)  # the turned-up card, oldest, comes first
    assert after.stock_known == discards[1:-1] and after.stock == 37
    after = run(after, [Discard(player, c("7H"))])
    nxt = after.turn_player
    assert codes(after, Draw(nxt, c("KD"))) == ["draw_not_top_card"]
    after = run(after, [Draw(nxt, discards[1])])
    assert after.known[after.turn] == (discards[1],) and after.stock == 36
    public = public_state(after)
    assert public["stock_known"] == [card.code for card in discards[2:-1]]


def test_with_nothing_to_turn_over_the_hand_ends_without_a_bonus(empty_stock: LiveHand) -> None:
    table = empty_stock
    top = table.discards[-1]
    player = table.turn_player
    assert top == c("AC")
    table = run(table, [TakePile(player, m("AC", "AD", "AH")), Discard(player, c("5S"))])
    assert table.stock == 0 and table.discards == (c("5S"),)
    nxt = table.turn_player
    assert codes(table, Draw(nxt, c("5S"))) == ["draw_card_unknown"]
    table = run(table, [Draw(nxt)])
    assert table.phase is Phase.ENDED and table.ending is Ending.STOCK_EXHAUSTED
    assert table.went_out is None and sum(table.hand_sizes) + len(table.melds[0].cards) == 103


def test_every_event_reads_back_from_its_json() -> None:
    events: list[Event] = [
        Draw(17),
        Draw(17, c("5H")),
        TakePile(17, m("7H", "7D", "2C=7S")),
        Meld(17, m("JS", "2D=QS", "KS")),
        Extend(17, 3, m("8H")),
        Discard(17, c("9C")),
    ]
    for event in events:
        assert event_from_dict(event.as_dict()) == event


def test_the_public_state_has_the_documented_keys(table: LiveHand) -> None:
    assert list(public_state(table, version=7)) == [
        "version",
        "hand",
        "dealer",
        "turn",
        "phase",
        "stock",
        "stock_known",
        "discards",
        "melds",
        "hand_sizes",
        "known_in_hand",
        "ending",
        "went_out",
        "events",
    ]
    assert public_state(table, version=7)["version"] == 7


def test_a_stored_log_replays_to_the_same_state(table: LiveHand) -> None:
    events: list[Event] = [Draw("ann"), Discard("ann", c("9C")), Draw("bob")]
    assert replay_events(table, events) == run(table, events)
    with pytest.raises(ValueError):
        replay_events(table, [Draw("bob")])


def test_arlington_deals_thirteen_from_two_packs() -> None:
    assert (ARLINGTON.deal_size(5), ARLINGTON.packs) == (13, 2)
    assert deal(["a", "b", "c", "d", "e"], dealer="a", turned_up=c("7H")).stock == 104 - 65 - 1

"""Classic Rummy in the engine: deals, pip values, scoring, the finish and the deal's rotation."""

from __future__ import annotations

import pytest

from scoring import Card, Ending, HandInput, PlayerInput, parse_cards, parse_meld, rummy
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.games.rummy import RULESET as RUMMY
from scoring.rulesets import RULESETS, ruleset


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_each_player_is_dealt_by_the_number_at_the_table(players, cards):
    assert rummy.deal_size(players) == cards
    assert RUMMY.deal_size(players) == cards
    assert ARLINGTON.deal_size(players) == 13


@pytest.mark.parametrize("players", [1, 7])
def test_no_deal_for_a_table_rummy_does_not_seat(players):
    with pytest.raises(KeyError):
        rummy.deal_size(players)


@pytest.mark.parametrize(
    ("card", "pips", "arlington"),
    [
        ("AS", 1, 20),
        ("2D", 2, 20),
        ("7H", 7, 5),
        ("9C", 9, 10),
        ("10H", 10, 10),
        ("JC", 10, 10),
        ("QS", 10, 50),
        ("KD", 10, 10),
    ],
)
def test_a_card_held_costs_its_pips_in_rummy_and_its_value_in_arlington(card, pips, arlington):
    assert RUMMY.card_points(Card.parse(card)) == pips
    assert ARLINGTON.card_points(Card.parse(card)) == arlington


def hand(*held_by_loser: list[str]) -> HandInput:
    losers = tuple(
        PlayerInput(f"p{i}", (), parse_cards(held)) for i, held in enumerate(held_by_loser)
    )
    winner = PlayerInput("win", (parse_meld(["7H", "7D", "7C"]),), ())
    return HandInput(Ending.WENT_OUT, "win", (winner, *losers))


@pytest.mark.parametrize(("went_rummy", "nets"), [(False, [21, -15, -6]), (True, [42, -30, -12])])
def test_the_winner_collects_the_pips_the_others_hold_doubled_on_a_rummy(went_rummy, nets):
    ruling = rummy.rule_hand(hand(["KS", "4H", "AS"], ["2C", "3C", "AC"]), rummy=went_rummy)
    assert ruling.valid, ruling.violations
    assert [r.net for r in ruling.results] == nets
    assert [r.melded_points for r in ruling.results] == [0, 0, 0]


def test_melds_on_the_table_cost_the_loser_nothing():
    loser = PlayerInput("bob", (parse_meld(["JD", "QD", "KD"]),), parse_cards(["3S"]))
    winner = PlayerInput("ann", (parse_meld(["7H", "7D", "7C"]),), ())
    ruling = rummy.rule_hand(HandInput(Ending.WENT_OUT, "ann", (winner, loser)))
    assert [r.net for r in ruling.results] == [3, -3]


@pytest.mark.parametrize(
    ("totals", "target", "winners"),
    [
        ({"ann": 99, "bob": -99}, 100, ()),
        ({"ann": 100, "bob": -100}, 100, ("ann",)),
        ({"ann": 120, "bob": -120}, 250, ()),
        ({"ann": 260, "bob": -260}, 250, ("ann",)),
    ],
)
def test_the_match_ends_when_a_total_reaches_the_target(totals, target, winners):
    finish = RUMMY.decide_finish(totals, {"target": target, "ace": "low"})
    assert finish.finished is bool(winners)
    assert finish.winners == winners


@pytest.mark.parametrize(
    ("seats", "dealer", "went_out", "rummy_next", "arlington_next"),
    [
        (2, 0, 0, 0, 1),
        (2, 0, 1, 1, 1),
        (2, 1, 1, 1, 0),
        (3, 0, 0, 1, 1),
        (3, 2, 1, 0, 0),
        (6, 5, 5, 0, 0),
    ],
)
def test_two_players_winner_deals_next_more_pass_the_deal_left(
    seats, dealer, went_out, rummy_next, arlington_next
):
    assert RUMMY.next_dealer(seats=seats, dealer=dealer, went_out=went_out) == rummy_next
    assert ARLINGTON.next_dealer(seats=seats, dealer=dealer, went_out=went_out) == arlington_next
    assert RUMMY.winner_deals(seats) is (seats == 2)
    assert ARLINGTON.winner_deals(seats) is False


def test_every_ruleset_answers_the_whole_interface():
    for name, rules in RULESETS.items():
        assert ruleset(name).name == name
        assert rules.min_players == 2
    assert (ARLINGTON.max_players, RUMMY.max_players) == (5, 6)
    assert [flag.name for flag in RUMMY.flags] == ["rummy"] and ARLINGTON.flags == ()


def test_options_are_filled_with_their_defaults():
    assert RUMMY.options_with_defaults({}) == {"target": 100, "ace": "low"}
    assert RUMMY.options_with_defaults({"ace": "high_or_low"})["ace"] == "high_or_low"
    assert ARLINGTON.options_with_defaults({}) == {}


def test_arlington_through_the_interface_is_arlington_itself():
    meld = parse_meld(["JS", "2D=QS", "KS"])
    assert ARLINGTON.rule_meld(meld, {}).points == 70
    assert not ARLINGTON.rule_discard(Card.parse("QS"), {}).allowed
    assert RUMMY.rule_discard(Card.parse("QS"), {}).allowed
    add = parse_meld(["7C"])
    sevens = parse_meld(["7H", "7D", "7S"])
    assert not ARLINGTON.rule_add(sevens, add, {}, player="bob", owner="ann").allowed
    assert RUMMY.rule_add(sevens, add, {}, player="bob", owner="ann").allowed

"""Ruling 20: the pass, and the sentence of each refusal, in every language's catalogue."""

from __future__ import annotations

import pytest

from scoring import Card, Code, render
from scoring.cards import parse_meld
from scoring.games.rummy import RULESET as RUMMY
from scoring.live import Discard, Draw, Meld, Pass, TakeDiscard, TakePile, deal, play, replay_events

SETS = [Meld("ann", parse_meld([f"{r}H", f"{r}D", f"{r}C"])) for r in "3456"]


def test_a_pass_reveals_no_card_and_passes_the_turn_left() -> None:
    table = replay_events(
        deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H")), [Draw("ann"), *SETS]
    )
    step = play(table, Pass("ann"))
    assert step.accepted
    assert step.state.turn_player == "bob" and step.state.known[0] == ()
    assert step.state.seen[Card.parse("QS").index] == 0


def test_a_pass_with_a_known_queen_and_a_private_card_records_only_the_known_queen() -> None:
    """Ruling 22: Ann holds Q♠, known since she took it with the pile, and a card she drew
    privately. Her pass is accepted (the table cannot see that card), and the state still
    knows only the one queen."""
    events = [
        Draw("ann"),
        Discard("ann", Card.parse("8C")),
        Draw("bob"),
        Discard("bob", Card.parse("8D")),
        TakePile("ann", parse_meld(["8D", "8H", "8S"])),  # the pile holds QS and 8C
        Meld("ann", parse_meld(["8C", "9C", "10C"])),
        *SETS[:3],
        Pass("ann"),  # holding Q♠ alone, known
        Draw("bob"),
        Discard("bob", Card.parse("7D")),
        Draw("ann"),
    ]
    queen = Card.parse("QS")
    table = replay_events(deal(["ann", "bob"], dealer="bob", turned_up=queen), events)
    assert table.hand_sizes[0] == 2 and table.known[0] == (queen,)
    step = play(table, Pass("ann"))
    assert step.accepted, step.violations
    assert step.state.known[0] == (queen,)
    assert step.state.seen == table.seen
    assert step.state.turn_player == "bob"


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ([Draw("ann"), *SETS[:3], Meld("ann", parse_meld(["QH", "QD", "QC"]))], "meld"),
        (
            [
                Draw("ann"),
                Discard("ann", Card.parse("8C")),
                Draw("bob"),
                Discard("bob", Card.parse("9D")),
                TakePile("ann", parse_meld(["9D", "9H", "9S"])),
            ],
            "holds_other",
        ),
        ([Draw("ann"), *SETS[:2]], "holds_other"),
    ],
)
def test_a_pass_the_table_can_see_is_wrong_is_refused_with_a_sentence(events, problem) -> None:
    table = replay_events(deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H")), events)
    step = play(table, Pass("ann"))
    assert [v.code for v in step.violations] == [Code.PASS_NOT_ALLOWED]
    assert step.violations[0].values["problem"] == problem
    assert render(step.violations[0]).startswith("ann cannot end the turn without discarding")


def test_rummy_has_no_pass_and_arlington_no_take_of_the_top_card_alone() -> None:
    rummy = replay_events(
        deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"), rules=RUMMY), [Draw("ann")]
    )
    refused = play(rummy, Pass("ann")).violations
    assert refused[0].values["problem"] == "no_pass" and render(refused[0])
    arlington = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
    assert [v.code for v in play(arlington, TakeDiscard("ann")).violations] == [
        Code.TAKE_DISCARD_NOT_ALLOWED
    ]
    assert render(play(arlington, TakeDiscard("ann")).violations[0])

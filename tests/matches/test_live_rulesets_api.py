"""The live table plays each match by its ruleset: Rummy's turns, Arlington's pass (ruling 20)."""

from __future__ import annotations

import pytest

from matches.models import Hand, LiveHand
from tests.factories import start_match
from tests.matches.test_live_api import Table

BEN_MELDS = [["3H", "4H", "5H"], ["8C", "8D", "8S"], ["10S", "JS", "QS", "KS"]]
ANN_HELD = ["KD", "4D", "AS", "2C", "2D", "6C", "7C", "9D", "10D", "JD"]  # 61 pips


@pytest.fixture
def pair(as_carol, club, roster):
    return start_match(as_carol, club, roster[:2], ruleset="rummy")


def ben_goes_rummy(table: Table, ben: int):
    return table.play(
        {"type": "draw", "player": ben},
        *({"type": "meld", "player": ben, "cards": cards} for cards in BEN_MELDS),
        {"type": "discard", "player": ben, "card": "9H"},
    )


def test_a_rummy_hand_is_dealt_by_its_player_count(as_carol, pair, roster):
    state = Table(as_carol, pair).start().json()
    ann, ben = roster[0].pk, roster[1].pk
    assert (state["dealer"], state["turn"]) == (ann, ben)
    assert state["stock"] == 52 - 2 * 10 - 1
    assert state["hand_sizes"] == {str(ann): 10, str(ben): 10}


def test_a_rummy_turn_takes_the_top_discard_and_lays_off_on_any_meld(as_carol, pair, roster):
    ann, ben = roster[0].pk, roster[1].pk
    table = Table(as_carol, pair)
    table.start("7H")
    table.play(
        {"type": "draw", "player": ben},
        {"type": "meld", "player": ben, "cards": ["3S", "4S", "5S"]},
        {"type": "discard", "player": ben, "card": "9C"},
    )
    state = table.play(
        {"type": "take_discard", "player": ann},
        {"type": "extend", "player": ann, "meld": 0, "cards": ["6S"]},
    ).json()
    assert state["discards"] == ["7H"]
    assert state["known_in_hand"][str(ann)] == ["9C"]
    assert state["melds"] == [{"index": 0, "owner": ben, "cards": ["3S", "4S", "5S", "6S"]}]
    refused = table.send({"type": "discard", "player": ann, "card": "9C"})
    assert refused.status_code == 409
    assert [e["code"] for e in refused.json()["errors"]] == ["discard_taken_card"]


def test_rummy_refuses_a_meld_that_leaves_only_the_card_just_taken(as_carol, pair, roster):
    """Ruling 21: Ben took 7H from the discard pile; a meld that would leave him holding it
    alone is refused, and melding every card, 7H included, goes out."""
    ben = roster[1].pk
    table = Table(as_carol, pair)
    table.start("7H")
    table.play(
        {"type": "take_discard", "player": ben},
        {"type": "meld", "player": ben, "cards": ["AS", "2S", "3S"]},
        {"type": "meld", "player": ben, "cards": ["4D", "5D", "6D"]},
    )
    version = LiveHand.objects.get(match=pair["id"]).version
    refused = table.send({"type": "meld", "player": ben, "cards": ["9C", "10C", "JC", "QC"]})
    assert refused.status_code == 409
    assert [e["code"] for e in refused.json()["errors"]] == ["would_strand_taken_card"]
    assert LiveHand.objects.get(match=pair["id"]).version == version
    state = table.play(
        {"type": "meld", "player": ben, "cards": ["7H", "8H", "9H", "10H", "JH"]}
    ).json()
    assert (state["phase"], state["went_out"]) == ("ended", ben)


def test_rummy_refuses_taking_the_whole_pile(as_carol, pair, roster):
    table = Table(as_carol, pair)
    table.start("7H")
    response = table.send({"type": "take_pile", "player": roster[1].pk, "meld": ["7H", "7D", "7C"]})
    assert response.status_code == 409
    assert [e["code"] for e in response.json()["errors"]] == ["take_pile_not_allowed"]


def test_a_rummy_finish_is_scored_with_pips_and_the_rummy_read_from_the_play(
    as_carol, pair, roster
):
    ann, ben = roster[0].pk, roster[1].pk
    table = Table(as_carol, pair)
    table.start("7H")
    ended = ben_goes_rummy(table, ben).json()
    assert (ended["phase"], ended["went_out"]) == ("ended", ben)
    response = table.send({"type": "finish", "held": {str(ann): ANN_HELD}})
    assert response.status_code == 201, response.json()
    hand = response.json()
    assert hand["rummy"] is True
    assert {r["player"]: r["net"] for r in hand["results"]} == {ben: 122, ann: -122}
    assert Hand.objects.get(match=pair["id"], number=1).flags == {"rummy": True}
    assert hand["match"]["status"] == "finished"  # 122 reaches the default target of 100


def test_the_winner_of_a_two_player_rummy_hand_deals_the_next_live(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2], ruleset="rummy", options={"target": 500})
    ann, ben = roster[0].pk, roster[1].pk
    table = Table(as_carol, match)
    table.start("7H")
    ben_goes_rummy(table, ben)
    assert table.send({"type": "finish", "held": {str(ann): ANN_HELD}}).status_code == 201
    state = Table(as_carol, match).start("7H").json()
    assert (state["dealer"], state["turn"]) == (ben, ann)


def test_arlington_refuses_taking_the_top_discard_alone(as_carol, club, roster):
    table = Table(as_carol, start_match(as_carol, club, roster[:3]))
    table.start("7H")
    response = table.send({"type": "take_discard", "player": roster[1].pk})
    assert response.status_code == 409
    assert [e["code"] for e in response.json()["errors"]] == ["take_discard_not_allowed"]
    assert LiveHand.objects.get(match=table.match["id"]).version == 1


def test_holding_only_queens_of_spades_an_arlington_player_passes(as_carol, club, roster):
    table = Table(as_carol, start_match(as_carol, club, roster[:3]))
    ben, cleo = roster[1].pk, roster[2].pk
    table.start("7H")
    table.play({"type": "draw", "player": ben})
    for rank in "3456":
        table.play({"type": "meld", "player": ben, "cards": [f"{rank}H", f"{rank}D", f"{rank}C"]})
    state = table.play({"type": "pass", "player": ben}).json()
    assert (state["turn"], state["phase"]) == (cleo, "draw")
    assert state["known_in_hand"][str(ben)] == []  # ruling 22: the table saw neither card
    refused = table.send({"type": "pass", "player": cleo})
    assert refused.status_code == 409
    assert [e["code"] for e in refused.json()["errors"]] == ["draw_first"]

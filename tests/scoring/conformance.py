"""What the Arlington and Rummy conformance tests share: a hand case read, a hand ruling checked,
and a live case played, whatever its ruleset."""

from __future__ import annotations

from typing import Any

from scoring import Card, Ending, HandInput, HandRuling, PlayerInput, parse_cards, parse_meld
from scoring.live import LiveHand, deal, event_from_dict, finish, play, public_state, replay_events
from scoring.rulesets import ruleset


def hand_input(data: dict[str, Any]) -> HandInput:
    """The engine's input for a hand given as the API's JSON."""
    return HandInput(
        ending=Ending(data["ending"]),
        went_out=data.get("went_out"),
        results=tuple(
            PlayerInput(
                player=entry["player"],
                melds=tuple(parse_meld(meld) for meld in entry["melds"]),
                held=parse_cards(entry["hand"]),
            )
            for entry in data["results"]
        ),
    )


def assert_hand_ruling(ruling: HandRuling, expect: dict[str, Any]) -> None:
    """The ruling finds the case's violations (code and path), and its figures when given."""
    assert {(v.code.value, v.path) for v in ruling.violations} == {
        (v["code"], v["attr"]) for v in expect["violations"]
    }
    assert ruling.valid is expect["valid"]
    if "results" in expect:
        got = [
            {
                "player": r.player,
                "melded_points": r.melded_points,
                "hand_penalty": r.hand_penalty,
                "bonus": r.bonus,
                "net": r.net,
            }
            for r in ruling.results
        ]
        assert got == expect["results"]


def live_table(case: dict[str, Any]) -> LiveHand:
    """The table a live case starts from: the deal by its ruleset, then its events, every one
    accepted."""
    dealt = deal(
        case["players"],
        dealer=case["dealer"],
        turned_up=Card.parse(case["turned_up"]),
        rules=ruleset(case.get("ruleset", "arlington")),
        options=case.get("options", {}),
    )
    return replay_events(dealt, [event_from_dict(event) for event in case["events"]])


def assert_live_case(case: dict[str, Any]) -> None:
    """Play a live case: its event (``then``) or its finish gives what it expects."""
    state, expect = live_table(case), case["expect"]
    if "finish" in case:
        done = finish(state, {p: parse_cards(cards) for p, cards in case["finish"].items()})
        assert done.valid is expect["allowed"]
        assert sorted({v.code.value for v in done.violations}) == expect["violations"]
        if "flags" in expect:
            assert dict(done.flags) == expect["flags"]
        if "results" in expect:
            assert done.ruling is not None
            got = [
                {
                    "player": r.player,
                    "melded_points": r.melded_points,
                    "hand_penalty": r.hand_penalty,
                    "bonus": r.bonus,
                    "net": r.net,
                }
                for r in done.ruling.results
            ]
            assert got == expect["results"]
        return
    step = play(state, event_from_dict(case["then"]))
    assert step.accepted is expect["allowed"]
    assert sorted({v.code.value for v in step.violations}) == expect["violations"]
    public = public_state(step.state)
    for key, value in expect.get("state", {}).items():
        assert public[key] == value, key

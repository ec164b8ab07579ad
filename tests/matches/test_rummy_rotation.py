"""Who deals next: with two Rummy players the winner of a hand; otherwise the deal passes left."""

from __future__ import annotations

import pytest

from matches.models import Hand, Match
from tests.matches.test_rummy_matches import create


def _played(match_id: int, went_out: list[int]) -> None:
    """Hands as recorded, each dealt by whoever the match said deals next, won by ``went_out``."""
    match = Match.objects.get(pk=match_id)
    for number, winner in enumerate(went_out, start=1):
        Hand.objects.create(
            match=match,
            number=number,
            dealer_id=match.first_dealer_id,
            ending="went_out",
            went_out_id=winner,
            recorded_by=match.created_by,
        )
    match.hands_played = len(went_out)
    match.save()


def next_dealer(client, match_id: int) -> int:
    return client.get(f"/api/v1/matches/{match_id}/").json()["next_dealer"]


@pytest.mark.parametrize(
    ("ruleset", "seated", "winners", "dealer"),
    [
        ("rummy", 2, [], 0),
        ("rummy", 2, [1], 1),
        ("rummy", 2, [0], 0),
        ("rummy", 2, [1, 0], 0),
        ("rummy", 2, [0, 0, 0], 0),
        ("arlington", 2, [0], 1),
        ("arlington", 2, [0, 0], 0),
        ("rummy", 3, [0], 1),
        ("rummy", 3, [2, 2], 2),
        ("rummy", 3, [1, 1, 1], 0),
        ("rummy", 6, [5, 5, 5, 5, 5], 5),
    ],
)
def test_the_next_dealer_follows_the_rulesets_rotation(
    as_carol, club, roster, ruleset, seated, winners, dealer
):
    players = [*roster, *([] if seated <= 5 else [club.players.create(name="Fay")])][:seated]
    match = create(as_carol, club, players, ruleset=ruleset).json()
    _played(match["id"], [players[i].pk for i in winners])
    assert next_dealer(as_carol, match["id"]) == players[dealer].pk

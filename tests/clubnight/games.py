"""Finished matches for the club night tests, played through the API with the shared factories.

A went_out hand is +340 for the player who goes out and -65 for the others, so three of them
finish a two-player match at 1,020 to -195; two full_packs hands finish one in a 1,060-all tie.
"""

from __future__ import annotations

from tests.factories import full_packs, record, start_match, went_out


def play(client, club, players, hands, **extra) -> int:
    """Start a match of ``players`` and record ``hands`` (built from the players' ids)."""
    match = start_match(client, club, players, **extra)
    for body in hands:
        response = record(client, match["id"], body)
        assert response.status_code == 201, response.json()
    return match["id"]


def outright(client, club, winner, loser, **extra) -> int:
    """``winner`` goes out three times: 1,020 to -195, an outright victory."""
    ids = [winner.pk, loser.pk]
    return play(client, club, [winner, loser], [went_out(winner.pk, ids)] * 3, **extra)


def tied(client, club, a, b, **extra) -> int:
    """Two whole packs each way: 1,060 all, a shared victory."""
    return play(client, club, [a, b], [full_packs(a.pk, b.pk), full_packs(b.pk, a.pk)], **extra)

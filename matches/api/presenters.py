"""A hand and its match as plain dicts: what every hand endpoint answers, without serializers.

Recording a hand is the API's busiest write, and walking the nested output serializers cost more
than the rest of presenting it. The serializers in ``serializers.py`` still describe these
answers in the OpenAPI schema, and a test holds both to the same output for every kind of hand.
"""

from __future__ import annotations

from typing import Any

from rest_framework.fields import DateTimeField

from matches import services
from matches.models import Hand, Match, MatchStatus, Seat

_datetime = DateTimeField()  # DRF's own rendering of a timestamp (ISO 8601, "Z" for UTC)


def _when(value: Any) -> str | None:
    return None if value is None else _datetime.to_representation(value)


def hand_with_match(hand: Hand) -> dict[str, Any]:
    """What ``HandWithMatchSerializer`` gives for a hand loaded with its results and match."""
    return {**hand_only(hand), "match": match(hand.match)}


def hand_only(hand: Hand) -> dict[str, Any]:
    """What ``HandSerializer`` gives: the hand, each player's itemised result and total."""
    return {
        "number": hand.number,
        "dealer": hand.dealer_id,
        "ending": str(hand.ending),
        "went_out": hand.went_out_id,
        "version": hand.version,
        "results": [
            {
                "player": row.player_id,
                "name": row.player.name,
                "melds": [{"cards": m["cards"], "kind": m["kind"], "points": m["points"]}
                          for m in row.melds],
                "held": [{"card": h["card"], "points": h["points"]} for h in row.held],
                "melded_points": row.melded_points,
                "hand_penalty": row.hand_penalty,
                "bonus": row.bonus,
                "net": row.net,
                "total": row.total,
            }
            for row in hand.results.all()
        ],
        "recorded_by": hand.recorded_by.username,
        "recorded_at": _when(hand.recorded_at),
        "updated_at": _when(hand.updated_at),
    }  # fmt: skip


def match(match: Match) -> dict[str, Any]:
    """What ``MatchSerializer`` gives: the match, its seats in order, who deals next, who won."""
    seats: list[Seat] = sorted(match.seats.all(), key=lambda seat: seat.position)
    finished = match.status == MatchStatus.FINISHED
    next_dealer = None
    if not finished:
        next_dealer = services.dealer(match, seats, match.hands_played + 1).player_id
    winners = [seat.player_id for seat in seats if seat.winner]
    return {
        "id": match.pk,
        "club": match.club_id,
        "season": match.season_id,
        "table": match.table,
        "ruleset": match.ruleset,
        "options": match.options,
        "status": str(match.status),
        "seats": [
            {"seat": seat.position, "player": seat.player_id, "name": seat.player.name,
             "total": seat.total, "winner": seat.winner}
            for seat in seats
        ],
        "hands_played": match.hands_played,
        "next_hand": None if finished else match.hands_played + 1,
        "next_dealer": next_dealer,
        "first_dealer": match.first_dealer_id,
        "winners": winners,
        "shared_victory": len(winners) > 1,
        "created_by": match.created_by.username,
        "created_at": _when(match.created_at),
        "finished_at": _when(match.finished_at),
    }  # fmt: skip

"""A recorded hand and its match as plain dicts: what every hand endpoint answers.

Recording a hand is the API's busiest write, and walking the nested output serializers cost more
than the rest of presenting it. The serializers in ``serializers.py`` still describe these
answers in the OpenAPI schema, and a test holds both to the same output for every kind of hand.
"""

from __future__ import annotations

from typing import Any

from rest_framework.fields import DateTimeField

from matches.hands import MatchState, RecordedHand

_datetime = DateTimeField()  # DRF's own rendering of a timestamp (ISO 8601, "Z" for UTC)


def _when(value: Any) -> str | None:
    return None if value is None else _datetime.to_representation(value)


def hand_with_match(hand: RecordedHand) -> dict[str, Any]:
    """What ``HandWithMatchSerializer`` gives: the hand and its match."""
    return {**hand_only(hand), "match": match(hand.match)}


def hand_only(hand: RecordedHand) -> dict[str, Any]:
    """What ``HandSerializer`` gives: the hand, each player's itemised result and total."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "ending": hand.ending,
        "went_out": hand.went_out,
        "rummy": hand.flags.get("rummy"),
        "flags": hand.flags,
        "version": hand.version,
        "results": [
            {
                "player": row.player,
                "name": row.name,
                "melds": [
                    {"cards": m["cards"], "kind": m["kind"], "points": m["points"]}
                    for m in row.melds
                ],
                "held": [{"card": h["card"], "points": h["points"]} for h in row.held],
                "melded_points": row.melded_points,
                "hand_penalty": row.hand_penalty,
                "bonus": row.bonus,
                "net": row.net,
                "total": row.total,
            }
            for row in hand.results
        ],
        "recorded_by": hand.recorded_by,
        "recorded_at": _when(hand.recorded_at),
        "updated_at": _when(hand.updated_at),
    }


def match(match: MatchState) -> dict[str, Any]:
    """What ``MatchSerializer`` gives: the match, its seats in order, who deals next, who won."""
    winners = match.winners
    return {
        "id": match.id,
        "club": match.club,
        "season": match.season,
        "table": match.table,
        "ruleset": match.ruleset,
        "options": match.options,
        "status": match.status,
        "seats": [
            {
                "seat": line.seat,
                "player": line.player,
                "name": line.name,
                "total": line.total,
                "winner": line.winner,
            }
            for line in match.seats
        ],
        "hands_played": match.hands_played,
        "next_hand": None if match.finished else match.hands_played + 1,
        "next_dealer": match.next_dealer,
        "first_dealer": match.first_dealer,
        "winners": winners,
        "shared_victory": len(winners) > 1,
        "created_by": match.created_by,
        "created_at": _when(match.created_at),
        "finished_at": _when(match.finished_at),
    }

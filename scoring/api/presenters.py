"""The engine's rulings as plain dicts: the answers of the meld and hand rulings.

A hand ruling holds a dozen melds; walking nested output serializers over them cost more than
the ruling itself. The output serializers in ``serializers.py`` still describe these answers in
the OpenAPI schema, and a test holds both to the same output.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring import HandRuling, MeldRuling, Violation, label, render


def violation(item: Violation) -> dict[str, Any]:
    """What ``ViolationSerializer`` gives: the stable code and a sentence naming the card."""
    return {"code": str(item.code), "detail": render(item, gettext)}


def meld_ruling(ruling: MeldRuling) -> dict[str, Any]:
    """What ``MeldRulingSerializer`` gives."""
    return {
        "valid": ruling.valid,
        "kind": str(ruling.kind) if ruling.kind else None,
        "kind_label": label(ruling.kind, gettext) if ruling.kind else None,
        "points": ruling.points,
        "cards": [
            {
                "card": c.card.code,
                "represents": c.represents.code,
                "wild": c.wild,
                "points": c.points,
            }
            for c in ruling.cards
        ],
        "violations": [violation(v) for v in ruling.violations],
    }


def hand_answer(ruling: HandRuling) -> dict[str, Any]:
    """What ``HandAnswerSerializer`` gives: every player's score, then the deal's problems."""
    return {
        "valid": ruling.valid,
        "results": [
            {
                "player": str(result.player),
                "melded_points": result.melded_points,
                "hand_penalty": result.hand_penalty,
                "bonus": result.bonus,
                "net": result.net,
                "melds": [meld_ruling(meld) for meld in result.melds],
                "held": [{"card": card.code, "points": card.points} for card in result.held],
            }
            for result in ruling.results
        ],
        "violations": [{**violation(v), "attr": v.path} for v in ruling.violations],
    }

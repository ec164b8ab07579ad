"""The engine's rulings as plain dicts: the answers of the meld and hand rulings.

A hand ruling holds a dozen melds; walking nested output serializers over them cost more than
the ruling itself. The output serializers in ``serializers.py`` still describe these answers in
the OpenAPI schema, and a test holds both to the same output.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring import HandRuling, MeldRuling, Violation, label, render
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.rulesets import Ruleset


def violation(item: Violation) -> dict[str, Any]:
    """What ``ViolationSerializer`` gives: the stable code and a sentence naming the card."""
    return {"code": str(item.code), "detail": render(item, gettext)}


def meld_ruling(ruling: MeldRuling, rules: Ruleset = ARLINGTON) -> dict[str, Any]:
    """What ``MeldRulingSerializer`` gives; a game without wild cards names no ``represents``."""
    wild = rules.wild_rank is not None
    return {
        "valid": ruling.valid,
        "kind": str(ruling.kind) if ruling.kind else None,
        "kind_label": label(ruling.kind, gettext) if ruling.kind else None,
        "points": ruling.points,
        "cards": [
            {
                "card": c.card.code,
                **({"represents": c.represents.code, "wild": c.wild} if wild else {}),
                "points": rules.card_points(c.represents),
            }
            for c in ruling.cards
        ],
        "violations": [violation(v) for v in ruling.violations],
    }


def hand_answer(
    ruling: HandRuling, rules: Ruleset = ARLINGTON, flags: dict[str, bool] | None = None
) -> dict[str, Any]:
    """What ``HandAnswerSerializer`` gives: every player's score, then the deal's problems.

    Each of the game's flags is repeated at the top, as the request stated it.
    """
    return {
        "valid": ruling.valid,
        **(flags or {}),
        "results": [
            {
                "player": str(result.player),
                "melded_points": result.melded_points,
                "hand_penalty": result.hand_penalty,
                "bonus": result.bonus,
                "net": result.net,
                "melds": [meld_ruling(meld, rules) for meld in result.melds],
                "held": [
                    {"card": card.code, "points": rules.card_points(card)} for card in result.held
                ],
            }
            for result in ruling.results
        ],
        "violations": [{**violation(v), "attr": v.path} for v in ruling.violations],
    }

"""Arlington's stateless rulings at rulings/…, the routes older than the other games'.

Each is the generic ruling of ``scoring.api.rulings`` with the game fixed, documented with the
bodies and answers these routes have always had; the other games' routes
(``rulings/<game>/…``) are documented from each game's description.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_view

from scoring.api import rulings
from scoring.api import serializers as s
from scoring.api.rulings import ruling_schema


@extend_schema_view(
    post=ruling_schema(
        summary="Is this meld legal, what kind is it and what does it score?",
        request=s.MeldRequestSerializer,
        response=s.MeldAnswerSerializer,
        body={"cards": ["JS", "2D=QS", "KS"]},
        answer={
            "valid": True,
            "kind": "run",
            "kind_label": "run",
            "points": 70,
            "cards": [
                {"card": "JS", "represents": "JS", "wild": False, "points": 10},
                {"card": "2D", "represents": "QS", "wild": True, "points": 50},
                {"card": "KS", "represents": "KS", "wild": False, "points": 10},
            ],
            "violations": [],
            "suggestions": [],
        },
    )
)
class MeldRulingView(rulings.MeldRuling):
    ruleset_name = "arlington"
    request_serializer = s.MeldRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="Score a finished hand and check it as a whole.",
        request=s.HandRequestSerializer,
        response=s.HandAnswerSerializer,
        body={
            "ending": "went_out",
            "went_out": "ann",
            "results": [
                {"player": "ann", "melds": [["JS", "QS", "KS"], ["7H", "7D", "2C=7S"]], "hand": []},
                {"player": "bob", "melds": [["5D", "6D", "7D"]], "hand": ["2D", "4H"]},
            ],
        },
        answer={
            "valid": False,
            "results": [
                {
                    "player": "ann",
                    "melded_points": 85,
                    "hand_penalty": 0,
                    "bonus": 100,
                    "net": 185,
                    "melds": [],
                    "held": [],
                },
                {
                    "player": "bob",
                    "melded_points": 15,
                    "hand_penalty": 25,
                    "bonus": 0,
                    "net": -10,
                    "melds": [],
                    "held": [{"card": "2D", "points": 20}, {"card": "4H", "points": 5}],
                },
            ],
            "violations": [
                {
                    "code": "too_few_cards",
                    "attr": "results.0",
                    "detail": "ann has too few cards, melded and held: 6; every player has at "
                    "least 13.",
                },
            ],
        },
    )
)
class HandRulingView(rulings.HandRuling):
    ruleset_name = "arlington"
    request_serializer = s.HandRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="May this card be discarded?",
        request=s.DiscardRequestSerializer,
        response=s.DiscardAnswerSerializer,
        body={"card": "QS"},
        answer={
            "allowed": False,
            "violations": [
                {
                    "code": "queen_of_spades_discard",
                    "detail": "The queen of spades (QS) cannot be discarded, "
                    "not even as the last card: it must be melded.",
                }
            ],
        },
    )
)
class DiscardRulingView(rulings.DiscardRuling):
    ruleset_name = "arlington"
    request_serializer = s.DiscardRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="May I take the discard pile with these cards from my hand?",
        request=s.TakeDiscardsRequestSerializer,
        response=s.MeldMoveAnswerSerializer,
        body={"top_card": "7H", "from_hand": ["7D", "2C=7S"]},
        answer={"allowed": True, "meld": ["7H", "7D", "2C=7S"], "violations": []},
    )
)
class TakeDiscardsRulingView(rulings.TakeRuling):
    ruleset_name = "arlington"
    request_serializer = s.TakeDiscardsRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="May I add these cards to this meld?",
        request=s.ExtendRequestSerializer,
        response=s.MeldMoveAnswerSerializer,
        body={"meld": ["JS", "QS", "KS"], "add": ["2C=AS"], "player": "ann", "owner": "ann"},
        answer={"allowed": True, "meld": ["JS", "QS", "KS", "2C=AS"], "violations": []},
    )
)
class ExtendRulingView(rulings.AddRuling):
    ruleset_name = "arlington"
    request_serializer = s.ExtendRequestSerializer

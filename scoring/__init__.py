"""The rules of Arlington (Oklahoma Rummy): pure Python, no web framework, no database.

>>> from scoring import parse_meld, rule_meld
>>> rule_meld(parse_meld(["JS", "2D=QS", "KS"])).points
70
"""

from scoring.agreement import HandDifferences, PlayerDifference, compare_hands
from scoring.cards import (
    ALL_CARDS,
    QUEEN_OF_SPADES,
    Card,
    MeldCard,
    NotationError,
    Rank,
    ScoringError,
    Suit,
    parse_cards,
    parse_meld,
)
from scoring.hands import (
    GOING_OUT_BONUS,
    Ending,
    HandInput,
    HandRuling,
    PlayerInput,
    PlayerResult,
    rule_hand,
    score_player,
)
from scoring.match import TARGET_TOTAL, Finish, Replay, dealer_position, decide_finish, replay
from scoring.melds import MeldKind, MeldRuling, meld_text, rule_meld, suggest_declarations
from scoring.turns import TurnRuling, rule_discard, rule_extend, rule_take_discards
from scoring.violations import (
    MESSAGES,
    NOTATION_MESSAGES,
    Code,
    Violation,
    card_name,
    label,
    render,
    render_notation,
)

__all__ = [
    "ALL_CARDS",
    "GOING_OUT_BONUS",
    "TARGET_TOTAL",
    "Finish",
    "HandDifferences",
    "PlayerDifference",
    "compare_hands",
    "Replay",
    "dealer_position",
    "decide_finish",
    "replay",
    "MESSAGES",
    "NOTATION_MESSAGES",
    "QUEEN_OF_SPADES",
    "Card",
    "Code",
    "Ending",
    "HandInput",
    "HandRuling",
    "MeldCard",
    "MeldKind",
    "MeldRuling",
    "NotationError",
    "PlayerInput",
    "PlayerResult",
    "Rank",
    "ScoringError",
    "Suit",
    "TurnRuling",
    "Violation",
    "card_name",
    "label",
    "meld_text",
    "parse_cards",
    "parse_meld",
    "render",
    "render_notation",
    "rule_discard",
    "rule_extend",
    "rule_hand",
    "rule_meld",
    "rule_take_discards",
    "score_player",
    "suggest_declarations",
]

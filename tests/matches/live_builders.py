"""A hand played live for tests: Ann deals, Ben and Cleo draw and discard, Ann goes out.

Nets worked out by hand: Ann melds 8D 8C 2C=8H (30) and four sets of three (15 each) and goes
out: 190. Ben holds BEN_13 (125): -125. Cleo holds CLEO_13 (140): -140.
"""

from __future__ import annotations

BEN_13 = ["2D", "4H", "KC", "KD", "KH", "JC", "JD", "JH", "10C", "10D", "10H", "6C", "6D"]
CLEO_13 = ["AC", "AD", "AH", "QC", "QD", "QH", "9D", "9H", "9S", "6H", "6S", "5S", "3S"]
NETS = (190, -125, -140)


def ann_goes_out(ann: int, ben: int, cleo: int) -> list[dict]:
    """The events of the hand, with the 7H turned up and Ann dealing (Ben plays first)."""
    return [
        {"type": "draw", "player": ben},
        {"type": "discard", "player": ben, "card": "9C"},
        {"type": "draw", "player": cleo},
        {"type": "discard", "player": cleo, "card": "8D"},
        {"type": "take_pile", "player": ann, "meld": ["8D", "8C", "2C=8H"]},
        {"type": "meld", "player": ann, "cards": ["3C", "3D", "3H"]},
        {"type": "meld", "player": ann, "cards": ["4C", "4D", "4H"]},
        {"type": "meld", "player": ann, "cards": ["5C", "5D", "5H"]},
        {"type": "meld", "player": ann, "cards": ["7H", "7D", "7C"]},
        {"type": "discard", "player": ann, "card": "9C"},
    ]


def finish(ben: int, cleo: int) -> dict:
    return {"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}}

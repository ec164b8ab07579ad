"""Meld and hand rulings are answered as plain dicts, byte for byte what their serializers give.

The rulings build their answers without the output serializers, for speed
(scoring/api/presenters.py); the serializers describe them in the OpenAPI schema. Checked in
every language.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation
from rest_framework.renderers import JSONRenderer

from scoring import Ending, HandInput, PlayerInput, rule_hand, rule_meld
from scoring.api import presenters
from scoring.api.serializers import (
    HandAnswerSerializer,
    HandRequestSerializer,
    MeldRulingSerializer,
)
from scoring.cards import MeldCard
from tests.factories import full_packs, went_out, whole_pack_out

CONFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "conformance"


def rendered(data: object) -> str:
    return JSONRenderer().render(data).decode()


def hand_inputs() -> list[dict]:
    cases = json.loads((CONFORMANCE / "hands.json").read_text())["cases"]
    names = ["ann", "ben", "cleo", "dev", "eve"]
    made = [went_out(names[i % 5], names[: 2 + i % 4]) for i in range(12)]
    pairs = list(zip(names[:-1], names[1:], strict=True))
    made += [
        full_packs(a, b, first_holds=h, second_holds=h)
        for a, b in pairs
        for h in ("3C", "KC", "QS")
    ]
    made += [whole_pack_out(a, b) for a, b in pairs]
    return [case["input"] for case in cases] + made


def meld_inputs() -> list[list[str]]:
    cases = json.loads((CONFORMANCE / "melds.json").read_text())["cases"]
    return [case["cards"] for case in cases if "cards" in case]


@pytest.mark.parametrize("language", ["en", "pt", "fr"])
def test_hand_rulings_are_presented_as_their_serializer_documents(language):
    seen_invalid = seen_valid = 0
    with translation.override(language):
        for body in hand_inputs():
            request = HandRequestSerializer(data=body)
            if not request.is_valid():
                continue  # unreadable notation is answered 400 before any ruling
            data = request.validated_data
            ruling = rule_hand(
                HandInput(
                    ending=Ending(data["ending"]),
                    went_out=data["went_out"],
                    results=tuple(
                        PlayerInput(e["player"], tuple(e["melds"]), e["hand"])
                        for e in data["results"]
                    ),
                )
            )
            assert rendered(presenters.hand_answer(ruling)) == rendered(
                HandAnswerSerializer(ruling).data
            )
            seen_valid += ruling.valid
            seen_invalid += not ruling.valid
    assert seen_valid >= 20 and seen_invalid >= 5


@pytest.mark.parametrize("language", ["en", "pt", "fr"])
def test_meld_rulings_are_presented_as_their_serializer_documents(language):
    kinds = set()
    with translation.override(language):
        for cards in meld_inputs():
            try:
                meld = [MeldCard.parse(card) for card in cards]
            except ValueError:
                continue
            ruling = rule_meld(meld)
            assert rendered(presenters.meld_ruling(ruling)) == rendered(
                MeldRulingSerializer(ruling).data
            )
            kinds.add((ruling.kind, ruling.valid))
    assert len(kinds) >= 4

"""The meld and hand rulings answer with plain dicts (scoring/api/presenters.py), built without
the output serializers for speed; the serializers document those answers in the OpenAPI schema.
These tests hold the two to the same output, key for key and in order, in every language."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.utils import translation
from rest_framework.renderers import JSONRenderer

from bench.engine import realistic_hand
from scoring import Ending, HandInput, PlayerInput, rule_hand, rule_meld
from scoring.api import presenters
from scoring.api.serializers import (
    HandAnswerSerializer,
    HandRequestSerializer,
    MeldRulingSerializer,
)
from scoring.cards import MeldCard

CONFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "conformance"


def rendered(data: object) -> str:
    return JSONRenderer().render(data).decode()


def hand_inputs() -> list[dict]:
    cases = json.loads((CONFORMANCE / "hands.json").read_text())["cases"]
    rng = random.Random(7)
    return [case["input"] for case in cases] + [realistic_hand(rng) for _ in range(20)]


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
            ruling = rule_hand(HandInput(
                ending=Ending(data["ending"]), went_out=data["went_out"],
                results=tuple(PlayerInput(e["player"], tuple(e["melds"]), e["hand"])
                              for e in data["results"]),
            ))  # fmt: skip
            assert rendered(presenters.hand_answer(ruling)) == rendered(
                HandAnswerSerializer(ruling).data)
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
                MeldRulingSerializer(ruling).data)
            kinds.add((ruling.kind, ruling.valid))
    assert len(kinds) >= 4

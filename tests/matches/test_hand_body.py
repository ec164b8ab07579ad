"""A hand's body in plain form is read without the serializer, to the same entry.

``read_hand`` (matches/api/serializers.py) reads the usual body directly and hands anything
else to ``HandInputSerializer``, the body's one definition. Whatever it reads itself, the
serializer must accept and read to the same entry; the errors all come from the serializer.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from bench.load import modest_hand
from matches.api import serializers as s
from tests.matches.builders import full_packs, went_out

CARDS = ["QS", "2D=QS", "10H", "th", " 10♦ ", "2C", "2h=2h", "AS", "KD", "7C", "JH",
         "1X", "", "2D=", "QS=2D", "XX", "10", "♠"]  # fmt: skip
ODD = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False),
                st.text(max_size=3),
                st.dictionaries(st.text(max_size=2), st.integers(), max_size=1))  # fmt: skip
card = st.one_of(st.sampled_from(CARDS), ODD)
cards = st.one_of(st.lists(card, max_size=6), ODD)
player = st.one_of(st.integers(-2, 2**64), ODD, st.just("3"))


@st.composite
def result(draw: Any) -> Any:
    entry = {"player": draw(player), "melds": draw(st.one_of(st.lists(cards, max_size=4), ODD)),
             "hand": draw(cards)}  # fmt: skip
    for key in draw(st.sets(st.sampled_from(["player", "melds", "hand"]), max_size=1)):
        del entry[key]
    return entry


@st.composite
def body(draw: Any) -> Any:
    data = {
        "ending": draw(st.one_of(st.sampled_from(["went_out", "stock_exhausted", "out"]), ODD)),
        "went_out": draw(st.one_of(st.none(), player)),
        "results": draw(st.one_of(st.lists(result(), max_size=12), ODD)),
    }
    for key in draw(st.sets(st.sampled_from(["ending", "went_out", "results"]), max_size=1)):
        del data[key]
    return data if draw(st.booleans()) else draw(st.one_of(st.just(data), ODD))


def serializer_entry(data: Any) -> Any:
    incoming = s.HandInputSerializer(data=data)
    return incoming.to_entry() if incoming.is_valid() else None


@settings(max_examples=400, deadline=None)
@given(body())
def test_what_is_read_directly_the_serializer_reads_the_same(data):
    direct = s._plain_entry(data)
    if direct is not None:
        assert serializer_entry(data) == direct


@pytest.mark.parametrize("data", [
    modest_hand(1, 2),
    went_out(7, [5, 6, 7, 8, 9]),
    full_packs(3, 4),
    {**went_out(1, [1, 2]), "extra": "ignored"},
    {"ending": "stock_exhausted", "results": [{"player": 1, "melds": [], "hand": ["2d", "4♥"]},
                                              {"player": 2, "melds": [["JS", "2d=qs", "KS"]],
                                               "hand": []}]},
], ids=["modest", "five players", "whole packs", "unknown key", "no went_out"])  # fmt: skip
def test_the_usual_bodies_are_read_directly(data):
    direct = s._plain_entry(data)
    assert direct is not None
    assert direct == serializer_entry(data)
    assert s.read_hand(data) == direct


@pytest.mark.parametrize("data", [
    {"ending": "went_out", "went_out": True, "results": []},
    {"ending": "went_out", "went_out": "3", "results": []},
    {"ending": "went_out", "results": [{"player": 1, "melds": [["1X"]], "hand": []}]},
    {"ending": "went_out", "results": [{"player": 1, "melds": [], "hand": ["QS", None]}]},
    {"ending": "went_out", "results": [{"player": 1, "melds": []}]},
    {"ending": "done", "results": []},
], ids=["bool player", "string player", "bad card", "null card", "no hand",
        "bad ending"])  # fmt: skip
def test_anything_else_goes_to_the_serializer(data):
    assert s._plain_entry(data) is None
    incoming = s.HandInputSerializer(data=data)
    if incoming.is_valid():  # "3" is an integer to the serializer
        assert s.read_hand(data) == incoming.to_entry()
    else:
        with pytest.raises(ValidationError) as refused:
            s.read_hand(data)
        assert refused.value.detail == incoming.errors

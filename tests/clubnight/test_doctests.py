"""The examples in the draw's and the ratings' docstrings run as written."""

import doctest

import pytest
from django.utils import translation

from clubnight import draw, ratings
from clubnight.templatetags import nights


@pytest.mark.parametrize("module", [draw, ratings, nights], ids=lambda m: m.__name__)
def test_the_examples_hold(module):
    # the examples are written in English: a test before may have left another language on
    with translation.override("en"):
        failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0

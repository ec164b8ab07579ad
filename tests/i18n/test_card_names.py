"""Cards are named as players say them, in each language, through the engine's rendering."""

import pytest
from django.utils.translation import gettext, override

from matches.errors import InvalidSetup, MatchFinished
from scoring import Code, card_name, label, render
from scoring.violations import violation


@pytest.mark.parametrize(
    ("language", "code", "name"),
    [
        ("en", "AH", "the ace of hearts"),
        ("en", "QS", "the queen of spades"),
        ("en", "2D", "the two of diamonds"),
        ("pt", "AH", "o ás de copas"),
        ("pt", "QS", "a dama de espadas"),
        ("pt", "2D", "o dois de ouros"),
        ("pt", "JC", "o valete de paus"),
        ("fr", "AH", "l'as de cœur"),
        ("fr", "QS", "la dame de pique"),
        ("fr", "2D", "le deux de carreau"),
        ("fr", "8C", "le huit de trèfle"),
        ("pt", "2D=QS", "o dois de ouros a representar a dama de espadas"),
        ("fr", "2D=QS", "le deux de carreau représentant la dame de pique"),
    ],
)
def test_a_card_is_named_with_its_article_and_suit(language, code, name):
    with override(language):
        assert card_name(code, gettext) == name


def test_a_sentence_names_the_card_and_keeps_its_code():
    item = violation(Code.QUEEN_OF_SPADES_DISCARD, card="QS")
    with override("pt"):
        assert "a dama de espadas (QS)" in render(item, gettext)
    with override("fr"):
        assert "la dame de pique (QS)" in render(item, gettext)
    assert render(item, gettext).startswith("The queen of spades (QS) ")


def test_a_sentence_that_opens_with_a_card_opens_with_a_capital():
    item = violation(Code.CARD_COUNT_EXCEEDED, card="AH", count=3)
    with override("fr"):
        assert render(item, gettext).startswith("L'as de cœur (AH) ")


def test_melds_stay_in_notation():
    item = violation(Code.RUN_NOT_CONSECUTIVE, meld="5H 2C 7H")
    with override("pt"):
        assert "5H 2C 7H" in render(item, gettext)


def test_the_clauses_of_a_problem_are_translated_too():
    item = violation(Code.PLAYERS_MISMATCH, problem="missing", player="bob")
    with override("pt"):
        assert render(item, gettext).endswith(": falta bob.")


@pytest.mark.parametrize(
    ("value", "pt", "fr"),
    [
        ("set", "grupo", "groupe"),
        ("run", "sequência", "suite"),
        ("twos", "grupo de duques", "groupe de deux"),
        ("stock_exhausted", "o monte acabou", "la pioche est épuisée"),
    ],
)
def test_meld_kinds_and_endings_have_labels(value, pt, fr):
    with override("pt"):
        assert label(value, gettext) == pt
    with override("fr"):
        assert label(value, gettext) == fr


def test_domain_errors_are_translated_when_they_are_presented():
    error = InvalidSetup(
        "seat_count",
        sentence="seat_count_for_ruleset",
        ruleset="Arlington",
        least=2,
        most=5,
        count=7,
    )
    with override("fr"):
        assert error.detail == "Une partie de Arlington réunit 2 à 5 joueurs ; 7 indiqués."
    with override("pt"):
        assert MatchFinished(match=3).detail == (
            "A partida 3 terminou: não se pode acrescentar nenhuma mão."
        )

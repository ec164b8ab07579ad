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
        assert "a dama de espadas (Q♠)" in render(item, gettext)
    with override("fr"):
        assert "la dame de pique (Q♠)" in render(item, gettext)
    assert render(item, gettext).startswith("The queen of spades (Q♠) ")


def test_a_sentence_that_opens_with_a_card_opens_with_a_capital():
    item = violation(Code.CARD_COUNT_EXCEEDED, card="AH", count=3)
    with override("fr"):
        assert render(item, gettext).startswith("L'as de cœur (A♥) ")


@pytest.mark.parametrize("language", ["en", "pt", "fr"])
def test_melds_and_suits_are_shown_with_the_suits_symbols_in_every_language(language):
    """The screen shows ♠♥♦♣ in every language; so do the sentences, never S, H, D, C."""
    run = violation(Code.RUN_NOT_CONSECUTIVE, meld="5H 2C=6H 8H")
    mixed = violation(Code.RUN_MIXED_SUITS, meld="4S 5D 6S", suits="S, D")
    held = violation(Code.WENT_OUT_WITH_CARDS, player="ann", problem="holds_cards", cards="4H QS")
    with override(language):
        assert "5♥ 2♣=6♥ 8♥" in render(run, gettext)
        sentence = render(mixed, gettext)
        assert "4♠ 5♦ 6♠" in sentence and "♠, ♦" in sentence
        assert "S, D" not in sentence
        assert "4♥ Q♠" in render(held, gettext)


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
        assert (
            error.detail
            == "Arlington\u00a0: une partie réunit 2 à 5 joueurs\u202f; nombre indiqué\u00a0: 7."
        )
    with override("pt"):
        assert MatchFinished(match=3).detail == (
            "A partida 3 terminou: não se pode acrescentar nenhuma mão."
        )

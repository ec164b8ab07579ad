"""docs/rules.md in English, Portuguese and French state the same rules with the same codes."""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
ENGLISH = DOCS / "rules.md"
TRANSLATIONS = [DOCS / "pt" / "rules.md", DOCS / "fr" / "rules.md"]

RULE = re.compile(r"^\*\*(\d+)\. ", re.MULTILINE)
HEADING = re.compile(r"^(#+) ", re.MULTILINE)
CODE = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")
TABLE_CODE = re.compile(r"^\| `([a-z_]+)` \|", re.MULTILINE)


def rules(text: str) -> list[str]:
    return RULE.findall(text)


def headings(text: str) -> list[int]:
    return [len(marks) for marks in HEADING.findall(text)]


def codes(text: str) -> set[str]:
    return set(CODE.findall(text))


def table_codes(text: str) -> list[str]:
    return TABLE_CODE.findall(text)


def test_the_english_rules_are_numbered_one_to_twenty_two():
    assert rules(ENGLISH.read_text()) == [str(n) for n in range(1, 23)]


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=lambda p: p.parent.name)
def test_a_translation_states_the_same_rules_in_the_same_sections(translation):
    english, text = ENGLISH.read_text(), translation.read_text()
    assert rules(text) == rules(english)
    assert headings(text) == headings(english)


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=lambda p: p.parent.name)
def test_a_translation_names_the_same_codes(translation):
    english, text = ENGLISH.read_text(), translation.read_text()
    assert codes(english) - codes(text) == set(), "missing from the translation"
    assert codes(text) - codes(english) == set(), "missing from the English text"
    assert table_codes(text) == table_codes(english)

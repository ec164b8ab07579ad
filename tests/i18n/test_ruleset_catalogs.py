"""Every ruleset's sentences are in the Portuguese and French catalogs, and served translated."""

from __future__ import annotations

import pytest

from scoring import rulesets  # noqa: F401 (registers every ruleset's codes)
from scoring.violations import CATALOGUES
from tests.i18n.catalogs import LANGUAGES, po_path, read_po


def ruleset_sentences() -> set[str]:
    return {
        text
        for catalogue in CATALOGUES.values()
        for table in (catalogue.messages, catalogue.problems)
        for text in table.values()
    }


def test_rummy_registers_its_own_codes():
    assert len(CATALOGUES) >= 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_holds_every_sentence_of_every_ruleset(language):
    ids = {entry.msgid for entry in read_po(po_path(language)) if entry.msgid}
    assert ruleset_sentences() - ids == set(), "run `make messages`"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "just taken"), ("pt", "descarte"), ("fr", "défausse")],
)
def test_a_rummy_violation_is_served_in_the_language_asked(client, language, words):
    response = client.post(
        f"/api/v1/rulings/rummy/discard/?lang={language}",
        {"card": "7H", "taken_from_discards": "7H"},
        content_type="application/json",
    )
    detail = response.json()["violations"][0]["detail"]
    assert words in detail

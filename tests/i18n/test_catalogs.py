"""The Portuguese and French catalogs: complete, not fuzzy, same placeholders, compiled."""

from __future__ import annotations

import gettext
import re

import pytest

from matches.errors import REQUIRED_MESSAGES, SETUP_MESSAGES, STALE_MESSAGES, MatchError
from scoring import violations
from tests.i18n.catalogs import LANGUAGES, Entry, po_path, read_po

PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sd]|%[sd]")


def messages(language: str) -> list[Entry]:
    return [entry for entry in read_po(po_path(language)) if entry.msgid]


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def engine_sentences() -> set[str]:
    """Every sentence and name the engine renders, as marked with gettext_noop."""
    tables = [
        violations.MESSAGES,
        violations.PROBLEMS,
        violations.NOTATION_MESSAGES,
        violations.RANK_NAMES,
        violations.SUIT_PHRASES,
        violations.KIND_LABELS,
        violations.ENDING_LABELS,
    ]
    return {text for table in tables for text in table.values()} | {
        violations.WILD_PHRASE,
        violations.EMPTY_MELD,
    }


def domain_sentences() -> set[str]:
    """Every sentence of matches/errors/."""
    tables = [SETUP_MESSAGES, STALE_MESSAGES, REQUIRED_MESSAGES]
    found = {str(message) for table in tables for message in table.values()}
    classes = [MatchError]
    while classes:
        cls = classes.pop()
        found.add(str(cls.message))
        classes.extend(cls.__subclasses__())
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    entries = messages(language)
    assert entries
    assert [e.msgid for e in entries if not all(e.translations)] == []
    assert [e.msgid for e in entries if "fuzzy" in e.flags] == []
    header = read_po(po_path(language))[0]
    assert "fuzzy" not in header.flags
    assert f"Language: {language}\n" in header.msgstr[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_are_the_same_in_every_language(language):
    for entry in messages(language):
        for translation in entry.translations:
            assert placeholders(translation) == placeholders(entry.msgid), entry.msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_holds_every_sentence_of_the_engine_and_the_domain(language):
    ids = {entry.msgid for entry in messages(language)}
    assert engine_sentences() - ids == set(), "run `make messages`"
    assert domain_sentences() - ids == set(), "run `make messages`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_up_to_date_with_the_po_file(language):
    po = po_path(language)
    with po.with_suffix(".mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for entry in messages(language):
        # a message with a context is kept under "context\x04msgid", as gettext keeps it
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            expected[msgid] = entry.msgstr[0]
        else:
            expected.update({(msgid, n): text for n, text in entry.msgstr.items()})
    found = {key: value for key, value in catalog.items() if key}
    assert found == expected, "run `make messages` (compilemessages)"


# Two English labels for one thing, translated alike on purpose ("Fix" a draft's problem,
# "Correct" a recorded hand: one verb in French and Portuguese).
SYNONYMS = {frozenset({"Correct", "Fix"})}


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_labels_that_differ_in_english_differ_in_translation(language):
    """A page that shows "Standings" and "Rating" side by side must not read "Classement" twice,
    nor "Scoreboard" and "Scorekeeper" both "Marcador"."""
    labels: dict[str, set[str]] = {}
    for entry in messages(language):
        short = len(entry.msgid.split()) <= 3 and not placeholders(entry.msgid)
        if not short or entry.msgid_plural or entry.msgctxt:
            continue
        labels.setdefault(entry.translations[0].casefold(), set()).add(entry.msgid.casefold())
    shared = {
        translation: sorted(msgids)
        for translation, msgids in labels.items()
        if len(msgids) > 1 and {m.capitalize() for m in msgids} not in SYNONYMS
    }
    assert shared == {}


def test_french_punctuation_keeps_its_space_on_the_line():
    """French sets a space before ":", ";", "?" and "!": a non-breaking one, so that a line never
    starts with the sign (the pairing cards' "; découpez le long des tirets")."""
    loose = [
        translation
        for entry in messages("fr")
        for translation in entry.translations
        if re.search(r" [:;?!]", translation)
    ]
    assert loose == []


def test_undoing_a_round_is_not_the_word_of_the_browsers_cancel_button():
    """The round's undo asks with the browser's own dialog, whose buttons are "OK" and, in French,
    "Annuler": the undo itself must not be called "Annuler"."""
    french = {entry.msgid: entry.translations[0] for entry in messages("fr")}
    question = "Undo round %(number)s? Its tables and their matches are deleted; you can "
    assert not french["Undo round %(number)s"].startswith("Annuler")
    assert "Annuler" not in french[question + "draw it again."]


def test_the_cancel_of_a_dialog_fits_every_dialog_it_closes():
    """One "Cancel" closes the dialog that voids a hand and the one that starts a hand again:
    in French it must not speak of voiding ("annuler"), which means nothing beside "Start the
    hand again" and reads like the void itself beside "Void the hand"."""
    french = {entry.msgid: entry.translations[0] for entry in messages("fr")}
    assert "annuler" not in french["Cancel"].casefold()


def test_the_winners_mark_takes_no_gender():
    """ "Ann (winner)": the mark beside a name says who won without a gender the name may not
    have, as French "victoire" does."""
    portuguese = {entry.msgid: entry.translations[0] for entry in messages("pt")}
    assert portuguese["winner"] not in {"vencedor", "vencedora", "ganhador", "ganhadora"}


ARTICLES = {"pt": r"o|os|as|do|dos|no|nos", "fr": r"le|la|les|du|des|au|aux"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_name_is_not_given_a_second_article(language):
    """A card's name carries its own article ("o dois de paus", "le deux de trèfle"): "Que carta
    faz o %(card)s?" would read "o o dois de paus"."""
    doubled = [
        translation
        for entry in messages(language)
        for translation in entry.translations
        if re.search(rf"\b({ARTICLES[language]})\s+(%\(card\)s|\{{card\}})", translation)
    ]
    assert doubled == []

"""The words the app's scripts show, translated when a page is rendered.

Templates translate the page itself; the scripts build rows from API answers and take their
words from this table, handed over with ``json_script`` (data, never executed, so the page's
Content-Security-Policy needs no inline script). Card names reuse the engine's vocabulary.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.cards import Rank, Suit
from scoring.violations import ENDING_LABELS, KIND_LABELS, RANK_NAMES, SUIT_PHRASES, WILD_PHRASE

# Sentences the scripts show, by key; i18n.js fills in their "%(name)s" placeholders.
SENTENCES: dict[str, Any] = {
    "loading": gettext_lazy("Loading…"),
    "offline": gettext_lazy("No connection. Showing what was loaded last."),
    "error": gettext_lazy("Something went wrong. Try again."),
    "not_found": gettext_lazy("Not found, or you are not a member of this club."),
    "no_clubs": gettext_lazy("You are not a member of any club yet."),
    "role_owner": gettext_lazy("Owner"),
    "role_scorekeeper": gettext_lazy("Scorekeeper"),
    "role_viewer": gettext_lazy("Viewer"),
}


def vocabulary() -> dict[str, Any]:
    """Every sentence, card word and meld label of the active language, for one page."""
    return {
        "sentences": {key: str(text) for key, text in SENTENCES.items()},
        "ranks": {rank.value: _(RANK_NAMES[rank]) for rank in Rank},
        "suits": {suit.value: _(SUIT_PHRASES[suit]) for suit in Suit},
        "wild": _(WILD_PHRASE),
        "kinds": {key: _(text) for key, text in KIND_LABELS.items()},
        "endings": {key: _(text) for key, text in ENDING_LABELS.items()},
    }

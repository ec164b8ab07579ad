"""The words of one hand, one record: several phones at a table, the outbox, second entries.

Handed to the pages with the rest of the app's vocabulary (web/labels.py); "%(name)s"
placeholders are filled in by the scripts (taken.js, matchsync.js, the entry screen).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

RECORD_SENTENCES: dict[str, Any] = {
    "already_confirms": _(
        "Already recorded on another phone — your entry confirms it (hand %(n)s)."
    ),
    "taken_title": _("Hand %(n)s is already recorded, differently"),
    "taken_hint": _(
        "%(by)s recorded this hand on another phone. What differs is marked: choose which "
        "one stands."
    ),
    "taken_recorded": _("Recorded by %(by)s"),
    "taken_yours": _("Your entry"),
    "taken_keep": _("Keep the recorded hand"),
    "taken_correct": _("Correct it with mine"),
    "taken_edit": _("Edit mine"),
    "taken_kept": _("Hand %(n)s stays as recorded; your entry was dropped."),
    "taken_reason": _("Corrected from a second entry at the table."),
    "waiting_badge": _("Waiting"),
    "waiting_counted": _("Not sent yet: counted in the totals above."),
    "waiting_uncounted": _("Not sent yet: counted once it is recorded."),
    "next_hand_only": _("Hand %(number)s next"),
    "enter_hand_n": _("Enter hand %(n)s"),
    "confirmed_by": _("Confirmed by %(names)s"),
    "not_confirmed": _("Not confirmed yet."),
    "confirm": _("Confirm"),
    "confirm_hand": _("Confirm hand %(n)s"),
    "confirm_prompt_title": _("Confirm from this phone"),
    "confirm_prompt": _("Hand %(n)s was entered by %(by)s: does it match the table?"),
    "unconfirmed_banner": _(
        "Not confirmed yet: hands %(numbers)s. The club asks a second phone to confirm each hand."
    ),
}


def record_vocabulary() -> dict[str, str]:
    """The sentences in the active language."""
    return {key: str(text) for key, text in RECORD_SENTENCES.items()}

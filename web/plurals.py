"""Sentences that change with a number, handed to the page's scripts as their forms.

A sentence made with ``ngettext_lazy(singular, plural, "count")`` reaches the page as
{"one": ..., "other": ...}, its "%(name)s" placeholders kept, and i18n.js picks the form the page
language's plural rule gives for ``count`` ("1 hand", "2 hands"; in French "0 donne").
"""

from __future__ import annotations

from typing import Any


def plural_forms(text: Any) -> dict[str, str]:
    """A plural sentence's forms for one and for more, placeholders left for the script."""
    # formatting with {} fills no "%(name)s"; it only chooses the form for the count
    return {"one": text.format(count=1), "other": text.format(count=2)}

"""A username as a person types it: in any case and width, as sign-up compares them.

Sign-up keeps a new username as the sign-in form reads it (Unicode's NFKC, so a full-width
``ｋ`` is ``k``) and refuses one that differs from another only in case. So every spelling a
person may type names at most one account: the one written exactly so, else the only one
written so in another case. Accounts made before that rule may differ only in case; a name
typed in a third case then names neither, rather than either.
"""

from __future__ import annotations

import unicodedata
from typing import TypeVar

from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)


def written(typed: str) -> str:
    """The username as it is kept: NFKC, without white space around it."""
    return unicodedata.normalize("NFKC", typed).strip()


def find(rows: QuerySet[M], typed: str, field: str = "username") -> M | None:
    """The one row of ``rows`` whose username (``field``, such as ``user__username`` for a
    club's memberships) ``typed`` names, or None."""
    name = written(typed)
    if not name:
        return None
    exact = rows.filter(**{field: name}).first()
    if exact is not None:
        return exact
    alike = list(rows.filter(**{f"{field}__iexact": name})[:2])
    return alike[0] if len(alike) == 1 else None

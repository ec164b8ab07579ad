"""Names people type (a match's table, a round's tables, a tournament), kept as written; and
usernames, read as sign-in reads them.

A name is kept composed (NFC), without invisible format characters (a zero-width space) and
with its runs of spaces made one (``matches.models.written_name``), as players' names are: "Zé"
typed on two phones, one composing the accent and one not, is one name, and a name of nothing
but invisible characters is refused as blank.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts import usernames
from matches.models import written_name


class WrittenNameField(serializers.CharField):
    """A ``CharField`` whose value is the name as it is kept."""

    default_error_messages = {"blank": _("A name needs a visible letter.")}

    def to_internal_value(self, data: Any) -> str:
        written = written_name(str(super().to_internal_value(data)))
        if not written and not self.allow_blank:
            self.fail("blank")
        return written


class UsernameField(serializers.SlugRelatedField):
    """A user named by their username, typed in any case or width, as sign-up compares them
    (``accounts.usernames``): ``"P_12"`` names ``p_12``'s account, as it signs in."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="username", **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")
        users = self.get_queryset()
        user = None if users is None else usernames.find(users, data)
        if user is None:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return user

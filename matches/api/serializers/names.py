"""Names people type (a match's table, a round's tables, a tournament), kept as written.

A name is kept composed (NFC), without invisible format characters (a zero-width space) and
with its runs of spaces made one (``matches.models.written_name``), as players' names are: "Zé"
typed on two phones, one composing the accent and one not, is one name, and a name of nothing
but invisible characters is refused as blank.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.models import written_name


class WrittenNameField(serializers.CharField):
    """A ``CharField`` whose value is the name as it is kept."""

    default_error_messages = {"blank": _("A name needs a visible letter.")}

    def to_internal_value(self, data: Any) -> str:
        written = written_name(str(super().to_internal_value(data)))
        if not written and not self.allow_blank:
            self.fail("blank")
        return written

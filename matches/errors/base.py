"""The base of every domain error: a stable code, an HTTP status and a sentence."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class MatchError(Exception):
    """Base class: a stable ``code``, the ``status`` the API answers with, and a sentence."""

    status = 400
    code = "invalid"
    message = _("The request cannot be carried out.")
    attr: str | None = None
    retry_after: int | None = None  # seconds, answered as Retry-After: when asking again helps

    def __init__(self, attr: str | None = None, **params: object) -> None:
        self.params = params
        if attr is not None:
            self.attr = attr
        super().__init__(self.detail)

    @property
    def detail(self) -> str:
        return str(self.message).format(**self.params)

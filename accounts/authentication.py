"""Authorization: Token <key> for device tokens, beside the legacy one-per-user tokens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.settings import knox_settings
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

DEVICE_KEY_LENGTH = len(knox_settings.TOKEN_PREFIX) + knox_settings.AUTH_TOKEN_CHARACTER_LENGTH
LAST_USED_EVERY = dt.timedelta(minutes=1)  # at most one write a minute per token


class DeviceTokenAuthentication(TokenAuthentication):
    """knox's authentication, which leaves keys of another length to the legacy tokens.

    Both kinds travel as ``Authorization: Token <key>``: a device key is 64 characters, a
    legacy key 40. knox would refuse a legacy key outright; this class passes it on to DRF's
    TokenAuthentication, next in the list. Each use renews the token's expiry (knox's
    AUTO_REFRESH) and records when it was last used.
    """

    def authenticate(self, request: Request) -> Any:
        words = get_authorization_header(request).split()
        if len(words) == 2 and words[0].lower() == b"token":
            if len(words[1]) != DEVICE_KEY_LENGTH:
                return None
            if not words[1].isascii():  # knox would fail to decode it: a 500
                raise exceptions.AuthenticationFailed(_("Invalid token."))
        found = super().authenticate(request)
        if found is not None:
            token = found[1]
            now = timezone.now()
            if token.last_used is None or now - token.last_used > LAST_USED_EVERY:
                type(token).objects.filter(pk=token.pk).update(last_used=now)
                token.last_used = now
        return found

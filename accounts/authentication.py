"""Authorization: Token <key> for device tokens, beside the legacy one-per-user tokens."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Iterator
from typing import Any

from django.db import OperationalError, connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.settings import knox_settings
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

logger = logging.getLogger(__name__)

DEVICE_KEY_LENGTH = len(knox_settings.TOKEN_PREFIX) + knox_settings.AUTH_TOKEN_CHARACTER_LENGTH
LAST_USED_EVERY = dt.timedelta(minutes=1)  # at most one write a minute per token
BEARER_REFUSED = _('Send the token as "Authorization: Token <key>"; "Bearer" is not read here.')


class DeviceTokenAuthentication(TokenAuthentication):
    """knox's authentication, which leaves keys of another length to the legacy tokens.

    Both kinds travel as ``Authorization: Token <key>``: a device key is 64 characters, a
    legacy key 40. knox would refuse a legacy key outright; this class passes it on to DRF's
    TokenAuthentication, next in the list. Each use renews the token's expiry (knox's
    AUTO_REFRESH) and records when it was last used.
    """

    def authenticate(self, request: Request) -> Any:
        words = get_authorization_header(request).split()
        if words and words[0].lower() == b"bearer":
            # a common habit elsewhere: refused with the way to send it, not "not provided"
            raise exceptions.AuthenticationFailed(BEARER_REFUSED)
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
                with _unless_locked("when a device token was last used"):
                    type(token).objects.filter(pk=token.pk).update(last_used=now)
                    token.last_used = now
        return found

    def renew_token(self, auth_token: Any) -> None:
        """knox's renewal, where a token revoked since it was read is a 401, not a 500.

        knox saves the expiry with ``update_fields``, which fails (a 500) when a revocation,
        or a sign-out elsewhere, deleted the row after this request looked it up. One UPDATE
        whose row count tells whether the token is still there does the same job.
        """
        new_expiry = timezone.now() + knox_settings.TOKEN_TTL
        if knox_settings.AUTO_REFRESH_MAX_TTL is not None:
            new_expiry = min(new_expiry, auth_token.created + knox_settings.AUTO_REFRESH_MAX_TTL)
        if (new_expiry - auth_token.expiry).total_seconds() <= knox_settings.MIN_REFRESH_INTERVAL:
            return
        with _unless_locked("a device token's renewed expiry"):
            if not type(auth_token).objects.filter(pk=auth_token.pk).update(expiry=new_expiry):
                raise exceptions.AuthenticationFailed(_("Invalid token."))
            auth_token.expiry = new_expiry


@contextlib.contextmanager
def _unless_locked(what: str) -> Iterator[None]:
    """A bookkeeping write made as a request is authenticated, outside any transaction, left
    for the next request when the embedded SQLite's write lock is not granted in time: the
    request itself (a read, often) is answered rather than refused as a busy server (503).
    The token stays valid meanwhile; the next request writes it."""
    try:
        yield
    except OperationalError as error:
        if connection.vendor != "sqlite" or "locked" not in str(error):
            raise
        logger.warning("The database was locked: %s is written at the next request.", what)

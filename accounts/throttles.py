"""Limits on password guessing: per address (every attempt) and per account (failed ones).

The token endpoint and the admin's login page share both counters, in the shared cache, so
that guessing one staff account's password through either is slowed alike:

- per address, every sign-in attempt counts (scope ``auth``, ``AUTH_THROTTLE_RATE``);
- per account, every *failed* attempt counts, from any address (scope ``auth_account``,
  ``AUTH_ACCOUNT_THROTTLE_RATE``): spreading guesses over many addresses does not help, and
  once over the limit even the right password is refused until the window passes, so the
  answer never tells whether a guess was right.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class AddressSignInThrottle(SimpleRateThrottle):
    """Every sign-in attempt from one address (``auth``): the key the token endpoint had."""

    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def username_in(request: Any) -> str | None:
    """The username a sign-in request names (JSON for the API, a form for the admin)."""
    data = request.data if hasattr(request, "data") else request.POST
    username = data.get("username") if isinstance(data, Mapping) else None
    return username if isinstance(username, str) and username else None


class AccountSignInThrottle(SimpleRateThrottle):
    """Failed sign-ins naming one account, from any address (``auth_account``).

    ``allow_request`` only reads the count; the view calls ``record_failure`` when the
    password was wrong. Usernames are hashed into the key, so any text is a valid key.
    """

    scope = "auth_account"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        username = username_in(request)
        if username is None:
            return None
        digest = hashlib.sha256(username.encode("utf-8", "backslashreplace")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def allow_request(self, request: Any, view: Any) -> bool:
        self.key = self.get_cache_key(request, view) if self.rate else None
        if self.key is None:
            return True
        self.now = self.timer()
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
        return len(self.history) < self.num_requests

    def record_failure(self) -> None:
        """Count one failed attempt against the account named by the request just checked."""
        if getattr(self, "key", None) is None:
            return
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)

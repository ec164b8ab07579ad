"""The API's rate limits, counted atomically (accounts/ratelimit.py) in the shared cache's store.

- per user when signed in (``user``), per address if not (``anon``), on every view without a
  scope of its own; a view with ``throttle_scope`` (the rulings, invitation codes) gets that
  limit alone;
- sign-in, on the token endpoints and the admin's login page together, so that guessing one
  staff account's password through either is slowed alike: per address, every *failed*
  attempt (``auth``, ``AUTH_THROTTLE_RATE``), so that a club's players signing in at once
  behind its one Wi-Fi address are not refused; per account, every *failed* attempt, from
  any address (``auth_account``, ``AUTH_ACCOUNT_THROTTLE_RATE``): spreading guesses over
  many addresses does not help, and once over the limit even the right password is refused
  until the window passes, so the answer never tells whether a guess was right.

Every answer that was counted carries ``RateLimit-Limit``, ``RateLimit-Remaining`` and
``RateLimit-Reset`` for its tightest limit (arlington_site/middleware.py writes them).

When the counts cannot be reached (Redis, or the database with ``CACHE_BACKEND=database``):
the request limits fail open, since refusing every scorekeeper would turn a cache outage into
a full one, and a short outage lets through at most a short burst; the sign-in limits fail
closed with 503 ``sign_in_unavailable``, since without them password guessing is unlimited.
"""

from __future__ import annotations

import hashlib
import logging
import time
import unicodedata
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from accounts import ratelimit, usernames

logger = logging.getLogger(__name__)


class SignInUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("Signing in is unavailable for a moment; try again shortly.")
    default_code = "sign_in_unavailable"
    wait = 5  # seconds, answered as Retry-After


def note(request: Any, window: ratelimit.Window) -> None:
    """Keep the tightest limit a request was counted against, for its RateLimit-* headers."""
    plain = getattr(request, "_request", request)
    kept = getattr(plain, ratelimit.REQUEST_ATTRIBUTE, None)
    if kept is None or window.remaining < kept.remaining:
        setattr(plain, ratelimit.REQUEST_ATTRIBUTE, window)


class CountingThrottle(SimpleRateThrottle):
    """DRF's throttle, with its count taken atomically; ``fail_closed`` when unreachable."""

    fail_closed = False
    unavailable = False  # the counts could not be reached, and the request was refused (503)
    window: ratelimit.Window | None = None
    duration: int  # set from the rate by SimpleRateThrottle
    num_requests: int

    def allow_request(self, request: Any, view: Any) -> bool:
        self.key = self.get_cache_key(request, view) if self.rate else None
        if self.key is None:
            return True
        try:
            self.window = ratelimit.hit(self.key, self.num_requests, self.duration)
        except ratelimit.CounterUnavailable as error:
            logger.warning("rate limit %s not counted: %s", self.scope, error)
            if self.fail_closed:
                self.unavailable = True
                raise SignInUnavailable() from None
            return True
        note(request, self.window)
        return self.window.admitted

    def wait(self) -> float | None:
        return None if self.window is None else float(self.window.retry or self.window.reset)


UNCAPPED = 2**31  # a limit no count reaches: the counters the sign-in limits keep beside theirs


class SignInThrottle(CountingThrottle):
    """A sign-in limit of failed attempts.

    Every attempt takes a slot before its password is checked, so that parallel guesses
    cannot all pass one count; the view calls ``forgive`` when the password was right (the
    slot is given back) and ``settle`` when the attempt is over (a failed one is also counted
    apart, under ``<key>:failed``). An attempt that finds every slot taken while fewer failures
    than the limit are counted waits for the attempts in flight to finish, as long as one of
    them finishes every ``wait_seconds`` (counted under ``<key>:done``): right passwords give
    their slots back within moments, so a club's players signing in at once all get in, and
    wrong ones keep theirs, so the limit's failures are the most a burst of parallel guesses
    gets checked.
    """

    fail_closed = True
    poll_seconds = 0.05
    forgiven = settled = False

    @property
    def wait_seconds(self) -> float:
        """At most, for one of the attempts in flight to finish (AUTH_THROTTLE_WAIT_SECONDS)."""
        return float(settings.AUTH_THROTTLE_WAIT_SECONDS)

    def allow_request(self, request: Any, view: Any) -> bool:
        deadline, finished = time.monotonic() + self.wait_seconds, -1
        while True:
            if super().allow_request(request, view) or self.key is None:
                return True
            failed = self.counted("failed")
            if failed >= self.num_requests:
                return False
            done = failed + self.counted("done")
            if done != finished:  # attempts in flight are finishing (slowly on a busy server)
                finished, deadline = done, time.monotonic() + self.wait_seconds
            elif time.monotonic() >= deadline:
                return False  # none finished for wait_seconds: the places are not coming back
            time.sleep(self.poll_seconds)

    def counted(self, what: str) -> int:
        """Attempts counted in the window under ``<key>:failed`` or ``<key>:done`` (a right
        password), the ones in flight left out."""
        assert self.key is not None
        try:
            window = ratelimit.hit(f"{self.key}:{what}", UNCAPPED, self.duration, count=False)
        except ratelimit.CounterUnavailable:
            raise SignInUnavailable() from None
        return window.limit - window.remaining

    def forgive(self) -> None:
        """The password was right: this attempt does not count."""
        if self.window is None or not self.window.admitted or self.key is None:
            return
        self.forgiven = True
        try:
            ratelimit.release(self.key, self.duration, self.window.number)
            ratelimit.hit(f"{self.key}:done", UNCAPPED, self.duration)  # progress
        except ratelimit.CounterUnavailable:
            logger.warning("a successful sign-in stayed counted: the store is unreachable")

    def refused(self) -> bool:
        """Whether this limit stopped the attempt before its password was checked."""
        if getattr(self, "key", None) is None:  # not asked, or nothing to count (no username)
            return False
        return self.unavailable or self.window is None or not self.window.admitted

    def give_back(self) -> None:
        """The attempt was stopped by another limit before its password was checked: it tried
        nothing, so the slot this limit gave it is given back, and nothing is counted."""
        if self.window is None or not self.window.admitted or self.key is None:
            return
        self.forgiven = True
        try:
            ratelimit.release(self.key, self.duration, self.window.number)
        except ratelimit.CounterUnavailable:
            logger.warning("a sign-in refused by another limit stayed counted: unreachable store")

    def settle(self) -> None:
        """The attempt is over: one not forgiven is counted as failed."""
        admitted = self.window is not None and self.window.admitted
        if not admitted or self.key is None or self.forgiven or self.settled:
            return
        self.settled = True
        try:  # a count only: the slot taken before the check already limits the attempts
            ratelimit.hit(f"{self.key}:failed", UNCAPPED, self.duration)
        except ratelimit.CounterUnavailable:
            logger.warning("a failed sign-in was not counted apart: the store is unreachable")


def scoped(view: Any) -> bool:
    return getattr(view, "throttle_scope", None) is not None


class UserThrottle(CountingThrottle, UserRateThrottle):
    """Requests per signed-in user (per address when anonymous), on views without a scope."""

    def allow_request(self, request: Any, view: Any) -> bool:
        return scoped(view) or super().allow_request(request, view)


class AnonThrottle(CountingThrottle, AnonRateThrottle):
    """Requests per address without a login, on views without a scope."""

    def allow_request(self, request: Any, view: Any) -> bool:
        return scoped(view) or super().allow_request(request, view)


class ScopedThrottle(ScopedRateThrottle, CountingThrottle):
    """The limit a view names with ``throttle_scope``, per user or address."""


class AddressSignInThrottle(SignInThrottle):
    """Failed sign-ins from one address (``auth``), whatever account they name."""

    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def username_in(request: Any) -> str | None:
    """The username a sign-in request names (JSON for the API, a form for the admin)."""
    data = request.data if hasattr(request, "data") else request.POST
    username = data.get("username") if isinstance(data, Mapping) else None
    return username if isinstance(username, str) and username else None


class AccountSignInThrottle(SignInThrottle):
    """Failed sign-ins naming one account, from any address (``auth_account``). Usernames are
    hashed into the key, so any text is a valid key."""

    scope = "auth_account"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        username = username_in(request)
        if username is None:
            return None
        digest = hashlib.sha256(account_of(username).encode("utf-8", "backslashreplace"))
        return self.cache_format % {"scope": self.scope, "ident": digest.hexdigest()}


def account_of(username: str) -> str:
    """The account a typed username names, for counting: every spelling that signs in to one
    account counts as that account. It is found as sign-in finds it (``accounts.usernames``:
    white space, NFKC and case, as the database compares them), and counted by its id; a name
    of no account is counted as typed, folded the same way (so that it counts for the account
    if one is made under that name)."""
    user = usernames.find(get_user_model()._default_manager.all(), username)
    if user is not None:
        return f"user:{user.pk}"
    return unicodedata.normalize("NFKC", username.strip()).strip().casefold()


def forgive(throttles: list[Any]) -> None:
    """A sign-in succeeded: give back its slots in the per-address and per-account counts."""
    for throttle in throttles:
        if isinstance(throttle, SignInThrottle):
            throttle.forgive()


def settle(throttles: list[Any]) -> None:
    """A sign-in attempt is over: one not forgiven counts as failed (``SignInThrottle``).

    An attempt that one limit stopped before its password was checked (429, or 503 when the
    counts cannot be reached) tried nothing: the others give back the slot they gave it, and
    count no failure. Counting it would lock an account by its right password: a club's
    players refused at their Wi-Fi address's limit, each retrying, would use up their own
    accounts' limits of failed attempts, and be refused from every address for the hour.
    """
    signing = [throttle for throttle in throttles if isinstance(throttle, SignInThrottle)]
    stopped = any(throttle.refused() for throttle in signing)
    for throttle in signing:
        if stopped:
            throttle.give_back()
        else:
            throttle.settle()

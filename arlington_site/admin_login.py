"""The admin's login page, with the token endpoint's limits on password guessing.

Staff accounts are the most valuable ones, so the admin's form is limited like
``POST /api/v1/auth/token/``, sharing its counters (accounts/throttles.py): every attempt
per address, failed ones per account. Over either limit the attempt is refused with 429 before
the password is checked, so the right password is refused too until the window passes.
"""

from __future__ import annotations

import math

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from accounts.throttles import (
    AccountSignInThrottle,
    AddressSignInThrottle,
    SignInUnavailable,
    forgive,
    settle,
)


@never_cache
@csrf_protect
def login(request: HttpRequest) -> HttpResponse:
    """The admin's login view, refused with 429 past the sign-in limits."""
    if request.method != "POST":
        return admin.site.login(request)
    throttles = [AccountSignInThrottle(), AddressSignInThrottle()]
    try:
        refused = [throttle for throttle in throttles if not throttle.allow_request(request, None)]
    except SignInUnavailable:
        return unavailable()
    if refused:  # a place one limit gave this attempt counts as a failed attempt there
        settle(throttles)
        return too_many_attempts(max(throttle.wait() or 1 for throttle in refused))
    try:
        response: HttpResponse = admin.site.login(request)
        if response.status_code != 200:  # not the form again: the password was right
            forgive(throttles)
    finally:
        settle(throttles)  # an attempt not forgiven counts as failed
    return response


def unavailable() -> HttpResponse:
    detail = _("Signing in is unavailable for a moment; try again shortly.")
    page = f"<!doctype html><title>503</title><h1>503</h1><p>{escape(detail)}</p>"
    return HttpResponse(page, status=503, headers={"Retry-After": str(SignInUnavailable.wait)})


def too_many_attempts(wait: float) -> HttpResponse:
    seconds = math.ceil(wait)
    detail = _("Too many sign-in attempts; try again in %(seconds)d seconds.") % {
        "seconds": seconds
    }
    page = f"<!doctype html><title>429</title><h1>429</h1><p>{escape(detail)}</p>"
    return HttpResponse(page, status=429, headers={"Retry-After": str(seconds)})

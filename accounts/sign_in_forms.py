"""Session sign-in forms within the token endpoints' limits on password guessing.

Three forms take a password and open a session: the app's ``/sign-in/``, the browsable API's
``/api/auth/login/`` and the admin's ``/admin/login/``. Each counts its attempts with the same
counters as ``POST /api/v1/auth/tokens/`` (accounts/throttles.py): failed attempts per address
and per account, so guessing a password through a form is slowed exactly as through the API,
and an account locked there is locked here too. Over either limit an attempt is refused with
429 before its password is checked, so the right password is refused as well until the window
passes; when the counts cannot be reached, with 503.

A form answers a failed attempt with the form again (200) and a right one with a redirect,
which is how a refused attempt is told from a signed-in one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.throttles import (
    AccountSignInThrottle,
    AddressSignInThrottle,
    SignInUnavailable,
    forgive,
    settle,
)

# status, the sentence saying why, the seconds to wait → the answer
Refusal = Callable[[int, str, int], HttpResponse]

# Django's sentence for a wrong username or password on the forms, which Django's Portuguese
# catalogue writes with the English "password" beside the form's "Palavra-passe": marked here
# so that the project's catalogues, which come first, carry it.
WRONG_PASSWORD = gettext_lazy(
    "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."
)


def limited(
    request: HttpRequest, sign_in: Callable[[], HttpResponse], refuse: Refusal
) -> HttpResponse:
    """Run one POSTed sign-in attempt (``sign_in``) within the sign-in limits."""
    throttles = [AccountSignInThrottle(), AddressSignInThrottle()]
    try:
        refused = [throttle for throttle in throttles if not throttle.allow_request(request, None)]
    except SignInUnavailable:
        settle(throttles)  # nothing was tried: a place the other limit gave is given back
        return refuse(503, unavailable_sentence(), SignInUnavailable.wait)
    if refused:
        settle(throttles)
        wait = math.ceil(max(throttle.wait() or 1 for throttle in refused))
        return refuse(429, too_many_sentence(wait), wait)
    try:
        response = sign_in()
        if response.status_code != 200:  # not the form again: the password was right
            forgive(throttles)
    finally:
        settle(throttles)  # an attempt not forgiven counts as failed
    return response


def unavailable_sentence() -> str:
    return _("Signing in is unavailable for a moment; try again shortly.")


def too_many_sentence(seconds: int) -> str:
    return _("Too many sign-in attempts; try again in %(seconds)d seconds.") % {"seconds": seconds}


def plain_refusal(status: int, detail: str, wait: int) -> HttpResponse:
    """A bare page saying why, for the admin's and the browsable API's forms."""
    page = f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{escape(detail)}</p>"
    return HttpResponse(page, status=status, headers={"Retry-After": str(wait)})


class LimitedLoginView(LoginView):
    """Django's LoginView within the sign-in limits.

    With ``refusal_in_form``, a refused attempt gets the form again, its username kept and the
    reason in the template's ``refusal``, under 429 or 503; otherwise a bare page. The form is
    made unbound, so that showing it checks no password.
    """

    refusal_in_form = False

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        def sign_in() -> HttpResponse:
            response: HttpResponse = super(LimitedLoginView, self).post(request, *args, **kwargs)
            return response

        return limited(request, sign_in, self.refuse)

    def refuse(self, status: int, detail: str, wait: int) -> HttpResponse:
        if not self.refusal_in_form:
            return plain_refusal(status, detail, wait)
        username = self.request.POST.get("username", "")
        form = self.get_form_class()(request=self.request, initial={"username": username})
        context = self.get_context_data(form=form, refusal=detail)
        response = self.render_to_response(context, status=status)
        response["Retry-After"] = str(wait)
        assert isinstance(response, TemplateResponse)
        rendered: HttpResponse = response.render()
        return rendered

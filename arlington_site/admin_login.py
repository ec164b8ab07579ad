"""The admin's login page, with the token endpoint's limits on password guessing.

Staff accounts are the most valuable ones, so the admin's form is limited like
``POST /api/v1/auth/token/``, sharing its counters (accounts/sign_in_forms.py): failed attempts
per address and per account. Over either limit the attempt is refused with 429 before the
password is checked, so the right password is refused too until the window passes.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from accounts.sign_in_forms import limited, plain_refusal


@never_cache
@csrf_protect
def login(request: HttpRequest) -> HttpResponse:
    """The admin's login view, refused with 429 past the sign-in limits."""
    if request.method != "POST":
        return admin.site.login(request)
    return limited(request, lambda: admin.site.login(request), plain_refusal)

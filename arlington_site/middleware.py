"""Language choice for clients that cannot set Accept-Language; the rate-limit headers."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts import ratelimit


class LanguageQueryMiddleware:
    """Let ``?lang=pt`` override Accept-Language; place it after LocaleMiddleware.

    A ``lang`` that is not one of settings.LANGUAGES is ignored: the language chosen from
    Accept-Language (English by default) stays. The answer says which language it speaks in
    Content-Language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        lang = request.GET.get("lang", "").strip().lower()
        if lang in self.languages:
            translation.activate(lang)
            request.LANGUAGE_CODE = lang
        response = self.get_response(request)
        response.headers["Content-Language"] = translation.get_language()
        return response


class RateLimitHeadersMiddleware:
    """Writes ``RateLimit-Limit``, ``-Remaining`` and ``-Reset`` for a request's tightest limit.

    The throttles (accounts/throttles.py) leave it on the request when they count it; answers
    that were not counted carry none.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        window = getattr(request, ratelimit.REQUEST_ATTRIBUTE, None)
        if window is not None:
            response.headers["RateLimit-Limit"] = str(window.limit)
            response.headers["RateLimit-Remaining"] = str(window.remaining)
            response.headers["RateLimit-Reset"] = str(window.reset)
        return response

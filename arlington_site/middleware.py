"""Language choice for clients that cannot set Accept-Language."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


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

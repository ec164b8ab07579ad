"""Request ids and the access log, secrets kept out of it; language choice for clients that
cannot set Accept-Language; the rate-limit headers; the legacy token endpoint's deprecation."""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseRedirectBase
from django.middleware import common
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.http import escape_leading_slashes

from accounts import ratelimit

# A client's own id is kept when it is 1 to 128 letters, digits or ``-_.:``, such as a UUID;
# anything else (too long, spaces, control characters) is replaced, never echoed.
WELL_FORMED_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
current_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
access_log = logging.getLogger("arlington.access")


# Parts of a URL that open something to whoever holds them, so that a log must not keep them
# whole: an invitation's code (``/join/<code>/``, ``invitations/<code>/…``), a public link's
# token (``/r/<token>/``) and a live stream's ticket (``?ticket=``). A log line shows their
# first characters only, enough to tell two requests apart.
SECRET_URL_PARTS = frozenset({"code", "token"})
SECRET_QUERY_PARAMETERS = frozenset({"ticket"})
SECRET_SHOWN = 4


def _hidden(secret: str) -> str:
    return f"{secret[:SECRET_SHOWN]}…"


def loggable_path(full_path: str, kwargs: dict[str, Any] | None = None) -> str:
    """A request's path and query as a log may keep them: secrets cut to their first characters.

    ``kwargs`` are the URL's arguments where the request was resolved already; otherwise the
    path is resolved here, also without its final slash (a request answered before its URL
    matched: a redirect to the slash, a body refused for its size).
    """
    path, mark, query = full_path.partition("?")
    if kwargs is None:
        kwargs = _url_arguments(path)
    secrets = {kwargs[name] for name in SECRET_URL_PARTS & kwargs.keys()}
    if secrets:
        # the argument's own segment: the last one that holds it (a code "v1" leaves /api/v1/)
        parts = path.split("/")
        for secret in secrets:
            at = max((i for i, part in enumerate(parts) if part == secret), default=None)
            if at is not None:
                parts[at] = _hidden(secret)
        path = "/".join(parts)
    if query:
        query = "&".join(_hidden_parameter(pair) for pair in query.split("&"))
    return path + mark + query


def _url_arguments(path: str) -> dict[str, Any]:
    for attempt in (path, path + "/") if not path.endswith("/") else (path,):
        try:
            return dict(resolve(attempt).kwargs)
        except Resolver404:
            continue
    return {}


def _hidden_parameter(pair: str) -> str:
    """One ``name=value`` of a query, its value cut when it is a secret (as written, so that no
    decoded character reaches the log); as it came otherwise."""
    name, equals, value = pair.partition("=")
    if equals and unquote_plus(name) in SECRET_QUERY_PARAMETERS:
        return f"{name}={_hidden(value)}"
    return pair


def resolved_kwargs(request: HttpRequest) -> dict[str, Any] | None:
    """The URL's arguments of a request answered; None where no URL matched (yet)."""
    match = getattr(request, "resolver_match", None)
    return dict(match.kwargs) if match is not None else None


class SecretsLogFilter(logging.Filter):
    """Cuts the secrets out of the lines Django writes about a request, as the access log cuts
    them out of its own: the development server's request lines (``django.server``:
    ``"GET /join/<code>/ HTTP/1.1" 200 …``) and every line written with the request beside it,
    such as the warning of an answer 4xx or 5xx (``django.request``: ``Gone:
    /api/v1/invitations/<code>/``) or of a refused CSRF token (``django.security.csrf``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not (args and isinstance(args, tuple)):
            return True
        if record.name == "django.server" and isinstance(args[0], str) and args[0].count(" ") == 2:
            method, full_path, version = args[0].split(" ")
            record.args = (f"{method} {loggable_path(full_path)} {version}", *args[1:])
            return True
        request = getattr(record, "request", None)
        path = getattr(request, "path", None)
        if isinstance(path, str):
            written = {path, path.encode("unicode_escape").decode("ascii")}  # as Django escapes
            record.args = tuple(
                loggable_path(arg) if isinstance(arg, str) and arg in written else arg
                for arg in args
            )
        return True


class RequestIDMiddleware:
    """``X-Request-ID`` on every answer: the request's own if well formed, else a new one.

    The id is on ``request.request_id`` and in every log line written while the request runs
    (``RequestIDLogFilter``), so that a client quoting it finds the server's side of the story;
    one of them is the request's access line (logger ``arlington.access``: method, path, status
    and time taken), written before the answer leaves.
    Place it first, so that even an answer of the other middleware carries it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        request_id = incoming if WELL_FORMED_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        token = current_request_id.set(request_id)
        started = time.monotonic()
        try:
            response = self.get_response(request)
            access_log.info(
                '"%s %s" %s %dms',
                request.method,
                loggable_path(request.get_full_path(), resolved_kwargs(request)),
                response.status_code,
                (time.monotonic() - started) * 1000,
            )
        finally:
            current_request_id.reset(token)
        response.headers["X-Request-ID"] = request_id
        return response


class RequestIDLogFilter(logging.Filter):
    """Gives every log record the id of the request being answered (``-`` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        return True


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


class PermanentRedirect(HttpResponseRedirectBase):
    """308: the client repeats the request, method and body included, at the new address."""

    status_code = 308


class CommonMiddleware(common.CommonMiddleware):
    """Django's, with a path missing its final slash redirected by 308 for every method.

    Django answers 301, which clients follow with a GET and without the body (a POST to
    ``matches/1/hands`` would lose its hand), and under DEBUG raises for a POST (a 500); a 308
    is followed with the same method and body, by curl, browsers, httpx and requests alike.
    """

    response_redirect_class = PermanentRedirect

    def get_full_path_with_slash(self, request: HttpRequest) -> str:
        return escape_leading_slashes(request.get_full_path(force_append_slash=True))

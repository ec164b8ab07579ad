"""``GET matches/{id}/live/stream/``: Server-Sent Events of a match's live states.

An async view: under an ASGI server (uvicorn workers) a watcher costs a coroutine and a
Redis subscription, not a worker. Every app server subscribes to the match's Redis channel,
where the services publish each new state once its write commits, so a watcher connected to
any server sees every event, whichever server took it.

Limits: at most ``LIVE_STREAM_MAX_PER_MATCH`` watchers per match across all servers (a
shared Redis counter; 429 beyond), a comment line every ``LIVE_STREAM_HEARTBEAT_SECONDS``
so that proxies and load balancers keep the connection open, and a stream closed after
``LIVE_STREAM_MAX_SECONDS``; browsers' EventSource reconnects by itself (``retry``), and the
first message of every connection is the current state.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from matches import live, selectors
from matches.models import LiveHand, LiveStatus

HEARTBEAT_SECONDS = 15
MAX_PER_MATCH = 50
MAX_SECONDS = 3600
RETRY_MILLISECONDS = 3000


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(
        {
            "type": "client_error" if status < 500 else "server_error",
            "errors": [{"code": code, "detail": detail, "attr": None}],
        },
        status=status,
    )


def _user(request: HttpRequest) -> Any:
    """The requester, by token (``Authorization: Token …``) or by session."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Token "):
        token = Token.objects.select_related("user").filter(key=header[6:].strip()).first()
        return token.user if token is not None and token.user.is_active else AnonymousUser()
    return request.user


def _current(match_id: int) -> dict[str, Any] | None:
    found = LiveHand.objects.filter(match_id=match_id, status=LiveStatus.PLAYING).first()
    return None if found is None else dict(found.state)


def _frame(state: dict[str, Any] | str) -> str:
    data = state if isinstance(state, str) else json.dumps(state, separators=(",", ":"))
    parsed = json.loads(data)
    kind = (
        "abandoned" if parsed.get("abandoned") else "recorded" if "recorded" in parsed else "state"
    )
    return f"event: {kind}\nid: {parsed.get('version', '')}\ndata: {data}\n\n"


async def live_stream(request: HttpRequest, match_pk: int) -> HttpResponseBase:
    """Stream the match's live states: the current one, then each new one as it happens."""
    user = await sync_to_async(_user)(request)
    if not user.is_authenticated:
        return _error(401, "not_authenticated", _("Authentication credentials were not provided."))
    access = await sync_to_async(selectors.match_access)(user, match_pk)
    if access is None:
        return _error(404, "not_found", _("Not found."))
    if not settings.REDIS_URL:
        return _error(
            503,
            "live_stream_unavailable",
            _("Live streams need the shared Redis (REDIS_URL); read the state instead."),
        )
    client = aioredis.from_url(settings.REDIS_URL)
    counter = f"arlington:live-watchers:{match_pk}"
    watchers = await client.incr(counter)
    await client.expire(counter, _setting("LIVE_STREAM_MAX_SECONDS", MAX_SECONDS) + 60)
    if watchers > _setting("LIVE_STREAM_MAX_PER_MATCH", MAX_PER_MATCH):
        await client.decr(counter)
        await client.aclose()
        return _error(
            429,
            "too_many_watchers",
            _("This match has as many live watchers as it can take; try again later."),
        )
    pubsub = client.pubsub()
    await pubsub.subscribe(live.CHANNEL.format(match=match_pk))
    current = await sync_to_async(_current)(match_pk)
    response = StreamingHttpResponse(
        _events(client, pubsub, counter, current), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx and friends: do not buffer the stream
    return response


async def _events(
    client: Any, pubsub: Any, counter: str, current: dict[str, Any] | None
) -> AsyncIterator[str]:
    heartbeat = _setting("LIVE_STREAM_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    deadline = _setting("LIVE_STREAM_MAX_SECONDS", MAX_SECONDS)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        if current is not None:
            yield _frame(current)
        ends = time.monotonic() + deadline
        while time.monotonic() < ends:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=heartbeat)
            if message is None:
                yield ": heartbeat\n\n"
                continue
            data = message["data"]
            yield _frame(data.decode() if isinstance(data, bytes) else data)
    finally:
        await pubsub.aclose()
        await client.decr(counter)
        await client.aclose()

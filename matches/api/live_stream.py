"""``GET matches/{id}/live/stream/``: Server-Sent Events of a match's live states.

An async view: under an ASGI server (uvicorn workers) a watcher costs a coroutine and a
Redis subscription, not a worker, and no database connection while it waits: the few queries
it needs (who is asking, may they see the match, its current state) run before the stream
starts, and their connection goes back to the pool at once. Every app server subscribes to the
match's Redis channel, where the services publish each new state once its write commits, so a
watcher connected to any server sees every event, whichever server took it.

The requester is authenticated exactly as by the rest of the API (the same authentication
classes, in the same order: device tokens, legacy tokens, the session), or by a stream ticket
(``?ticket=``, from ``POST matches/{id}/live/stream-ticket/``: ``matches.api.stream_tickets``)
for clients that cannot send a header, such as a browser's EventSource.

Limits: at most ``LIVE_STREAM_MAX_PER_MATCH`` watchers per match and
``LIVE_STREAM_MAX_PER_USER`` per user across all servers (429 beyond). Each watcher is a
member of two Redis sorted sets, scored by when its lease ends; its stream renews the lease
with every heartbeat (``LIVE_STREAM_HEARTBEAT_SECONDS``), so the slot of a stream whose worker
died comes back when the lease runs out, and a Redis that restarts empty starts counting from
nothing, never below it. A stream is closed after ``LIVE_STREAM_MAX_SECONDS``; browsers'
EventSource reconnects by itself (``retry``), and the first message of every connection is the
current state. When Redis cannot be reached the stream answers 503 (``live_stream_unavailable``,
with Retry-After); a stream whose Redis goes away mid-way ends, and its client reconnects.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from redis.exceptions import RedisError
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from matches import live, selectors
from matches.api import stream_tickets
from matches.models import LiveHand, LiveStatus

RETRY_MILLISECONDS = 3000
RETRY_AFTER_SECONDS = 5
BIGGEST_ID = 2**63 - 1  # PostgreSQL's bigint
logger = logging.getLogger(__name__)

# Takes a slot for one stream in the match's and the user's sets, unless either is full.
# Expired leases are dropped first; the clock is Redis's own, shared by every app server.
# KEYS: match set, user set. ARGV: stream id, lease (ms), most per match, most per user.
# Returns 0 (admitted), 1 (match full) or 2 (user full).
ADMIT = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease = tonumber(ARGV[2])
for _, key in ipairs(KEYS) do redis.call('ZREMRANGEBYSCORE', key, '-inf', ms) end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ms + lease, ARGV[1])
  redis.call('PEXPIRE', key, lease)
end
return 0
"""

# Renews one stream's lease in both sets (only if it still holds a slot there).
RENEW = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease = tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', ms + lease, ARGV[1])
  redis.call('PEXPIRE', key, lease)
end
return 0
"""


def watcher_keys(match_pk: int, user_pk: int) -> list[str]:
    """The Redis sorted sets that hold a match's watchers and a user's."""
    return [f"arlington:live-watchers:{match_pk}", f"arlington:live-watchers:user:{user_pk}"]


def lease_milliseconds() -> int:
    """How long a slot outlives its stream's last heartbeat: two heartbeats and a margin."""
    return (2 * int(settings.LIVE_STREAM_HEARTBEAT_SECONDS) + 5) * 1000


def _error(status: int, code: str, detail: str) -> JsonResponse:
    response = JsonResponse(
        {
            "type": "client_error" if status < 500 else "server_error",
            "errors": [{"code": code, "detail": detail, "attr": None}],
        },
        status=status,
    )
    if status in (429, 503):
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _unavailable() -> JsonResponse:
    return _error(
        503,
        "live_stream_unavailable",
        _("Live streams need the shared Redis, which cannot be reached; read the state instead."),
    )


def _admit(request: HttpRequest, match_pk: int) -> Any:
    """The requester, if they may watch the match, or else the error that refuses them.

    Runs the API's own authentication classes. Whatever happens, this thread's database
    connections are given back before the stream starts waiting.
    """
    try:
        user: User | AnonymousUser
        ticket = request.GET.get("ticket")
        if ticket is not None:
            holder = stream_tickets.holder(ticket, match_pk)
            if holder is None:
                detail = _(
                    "This stream ticket has expired or is not for this match: ask for a new one."
                )
                return _error(401, "stream_ticket_invalid", detail)
            user = holder
        else:
            classes: list[Any] = list(api_settings.DEFAULT_AUTHENTICATION_CLASSES)
            drf_request = Request(request, authenticators=[cls() for cls in classes])
            try:
                user = drf_request.user
            except exceptions.AuthenticationFailed as failed:
                return _error(401, "authentication_failed", str(failed.detail))
        if not user.is_authenticated:
            return _error(
                401, "not_authenticated", _("Authentication credentials were not provided.")
            )
        too_big = not 0 < match_pk <= BIGGEST_ID  # the database would refuse it, as a 503
        if too_big or selectors.match_access(user, match_pk) is None:
            return _error(404, "not_found", _("Not found."))
        return user
    except DatabaseError:
        return _error(
            503,
            "database_unavailable",
            _("The database cannot be reached; nothing was saved. Try again shortly."),
        )
    finally:
        _give_back_connections()


def _give_back_connections() -> None:
    """Close this thread's connections (to the pool), but never one inside a transaction that
    a caller holds open (a test's): closing it would break that transaction."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _frame(state: dict[str, Any]) -> str:
    data = json.dumps(state, separators=(",", ":"))
    kind = "abandoned" if state.get("abandoned") else "recorded" if "recorded" in state else "state"
    return f"event: {kind}\nid: {state.get('version', '')}\ndata: {data}\n\n"


async def live_stream(request: HttpRequest, match_pk: int) -> HttpResponseBase:
    """Stream the match's live states: the current one, then each new one as it happens."""
    admitted = await sync_to_async(_admit)(request, match_pk)
    if isinstance(admitted, JsonResponse):
        return admitted
    user = admitted
    if not settings.REDIS_URL:
        return _error(
            503,
            "live_stream_unavailable",
            _("Live streams need the shared Redis (REDIS_URL); read the state instead."),
        )
    client = aioredis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=None)
    keys, stream_id = watcher_keys(match_pk, user.pk), uuid.uuid4().hex
    try:
        refused = await client.eval(
            ADMIT,
            len(keys),
            *keys,
            stream_id,
            lease_milliseconds(),
            settings.LIVE_STREAM_MAX_PER_MATCH,
            settings.LIVE_STREAM_MAX_PER_USER,
        )
        if refused:
            await client.aclose()
            if refused == 1:
                detail = _("This match has as many live watchers as it can take; try again later.")
            else:
                detail = _("You are watching as many live streams as you can; close one first.")
            return _error(429, "too_many_watchers", detail)
        pubsub = client.pubsub()
        await pubsub.subscribe(live.CHANNEL.format(match=match_pk))
    except RedisError:
        logger.warning("live stream of match %s refused: Redis unreachable", match_pk)
        await _release(client, keys, stream_id)
        return _unavailable()
    current = await sync_to_async(_current)(match_pk)  # once subscribed: no state is missed
    response = StreamingHttpResponse(
        _events(client, pubsub, keys, stream_id, current), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx and friends: do not buffer the stream
    return response


Place = tuple[int, int]  # a state's place in the match's order: its live hand, its version


def _current(match_pk: int) -> tuple[Place, dict[str, Any]] | None:
    """The live hand in play, read from the primary: a replica that lags could still show a
    hand whose end was published before the stream subscribed, and no message would follow."""
    try:
        playing = LiveHand.objects.using("default").filter(
            match_id=match_pk, status=LiveStatus.PLAYING
        )
        found = playing.first()
        return None if found is None else ((found.pk, found.version), dict(found.state))
    except DatabaseError:
        return None
    finally:
        _give_back_connections()


def _newer(message: bytes | str, last: Place | None) -> tuple[Place, dict[str, Any]] | None:
    """The state a published message carries, with its place, when it comes after ``last``;
    None for one that does not (it was published late, after a newer one)."""
    parsed = json.loads(message)
    if "live" not in parsed:  # a bare state, from a server of the release before: passed on
        return (last[0] if last else 0, int(parsed.get("version", 0))), parsed
    state = parsed["state"]
    place = (int(parsed["live"]), int(state.get("version", 0)))
    return None if last is not None and place <= last else (place, state)


async def _release(client: Any, keys: list[str], stream_id: str) -> None:
    try:
        for key in keys:
            await client.zrem(key, stream_id)
    except RedisError:
        pass  # the lease runs out by itself
    finally:
        await client.aclose()


async def _events(
    client: Any,
    pubsub: Any,
    keys: list[str],
    stream_id: str,
    current: tuple[Place, dict[str, Any]] | None,
) -> AsyncIterator[str]:
    heartbeat = int(settings.LIVE_STREAM_HEARTBEAT_SECONDS)
    lease = lease_milliseconds()
    last: Place | None = None
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        if current is not None:
            last, state = current
            yield _frame(state)
        ends = time.monotonic() + int(settings.LIVE_STREAM_MAX_SECONDS)
        renew_at = time.monotonic() + heartbeat
        while time.monotonic() < ends:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=heartbeat)
            if time.monotonic() >= renew_at:
                await client.eval(RENEW, len(keys), *keys, stream_id, lease)
                renew_at = time.monotonic() + heartbeat
            if message is None:
                yield ": heartbeat\n\n"
                continue
            newer = _newer(message["data"], last)
            if newer is not None:  # an older state published late is not sent back
                last, state = newer
                yield _frame(state)
    except RedisError:
        logger.warning("live stream %s ended: Redis unreachable", stream_id)
    finally:
        try:
            await pubsub.aclose()
        except RedisError:
            pass
        await _release(client, keys, stream_id)

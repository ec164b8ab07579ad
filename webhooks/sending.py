"""One attempt at a delivery: the request signed per Standard Webhooks, sent with a timeout.

Headers: ``webhook-id`` (the delivery's message id, the same on every attempt),
``webhook-timestamp`` (seconds, this attempt's) and ``webhook-signature`` (``v1,<base64>``:
HMAC-SHA256 of ``id.timestamp.body`` with the endpoint's secret; during a rotation's overlap a
second one, space-separated, with the previous secret), made by the
``standardwebhooks`` library that receivers verify with.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from standardwebhooks import Webhook

from webhooks import targets


def timeout_seconds() -> float:
    """To connect, and then for the whole answer: a slower receiver is a failed attempt
    (``settings.WEBHOOKS_TIMEOUT_SECONDS``)."""
    return float(settings.WEBHOOKS_TIMEOUT_SECONDS)


EXCERPT = 500
"""How much of a receiver's answer is kept, in characters."""
USER_AGENT = "Arlington-Webhooks/1"


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to: the receiver's status and the start of its answer, or why
    no answer came (``error``: a stable code)."""

    status: int | None
    excerpt: str = ""
    error: str = ""

    @property
    def succeeded(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _Lines:
    """A response's file that remembers the last line read (the rest is the file's own)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.last = b""

    def readline(self, *args: Any) -> bytes:
        self.last = self.raw.readline(*args)
        return self.last

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class _Response(http.client.HTTPResponse):
    """An answer whose headers end with their blank line. http.client takes the connection
    closing in the middle of the headers for their end, so a receiver that stopped after
    "HTTP/1.1 200 OK" would pass for a success; here it is an incomplete answer."""

    def begin(self) -> None:
        lines = _Lines(self.fp)
        self.fp = lines  # type: ignore[assignment]
        super().begin()
        if lines.last not in (b"\r\n", b"\n"):
            raise http.client.IncompleteRead(b"")


def excerpt_of(answer: bytes) -> str:
    """The start of a receiver's answer as kept: text, with what a database column cannot hold
    (NUL) shown as the replacement character, like bytes that are not UTF-8."""
    return answer.decode("utf-8", "replace").replace("\x00", "\ufffd")[:EXCERPT]


def body_of(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def signed_headers(
    secrets: Sequence[str], message_id: str, at: datetime, body: str
) -> dict[str, str]:
    """The Standard Webhooks headers; one signature per secret, separated by spaces."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": " ".join(
            Webhook(secret).sign(message_id, at, body) for secret in secrets
        ),
    }


def send(
    *, url: str, secrets: Sequence[str], message_id: str, payload: Any, at: datetime
) -> Outcome:
    """POST the payload to the URL once; never raises for what the receiver does."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):  # one registered before
        return Outcome(None, error="webhook_url_scheme")  # the API refused other schemes
    try:
        host, port, address = targets.resolve(url)
    except targets.UnsafeTarget as refused:
        return Outcome(None, error=refused.code)
    body = body_of(payload)
    parts = urllib.parse.urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    # a path written with other than ASCII (/r/café) goes percent-encoded, as a browser sends
    # it; what is percent-encoded already stays as it is
    path = urllib.parse.quote(path, safe="/?&=%:@!$'()*+,;-._~")
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(host, port, timeout=timeout_seconds())

    def to_checked_address(where: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        return socket.create_connection((address, where[1]), *args, **kwargs)

    connection._create_connection = to_checked_address  # type: ignore[attr-defined]
    connection.response_class = _Response
    headers = {
        **signed_headers(secrets, message_id, at, body),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
    # The timeout bounds each wait on the socket; a receiver trickling its answer a byte at a
    # time would never trip it, so the whole answer is also cut off that long after connecting.
    late = threading.Event()

    def cut_off() -> None:
        late.set()
        with contextlib.suppress(OSError, AttributeError):
            connection.sock.shutdown(socket.SHUT_RDWR)

    try:
        connection.connect()
        deadline = threading.Timer(timeout_seconds(), cut_off)
        deadline.daemon = True
        deadline.start()
        try:
            connection.request("POST", path, body=body.encode(), headers=headers)
            response = connection.getresponse()
            read = response.read(EXCERPT * 4)
            # the rest is read (not kept) to know that the answer came whole; the deadline
            # bounds it however long it is
            while response.read(64 * 1024):
                pass
            if response.length:  # closed before its Content-Length
                raise http.client.IncompleteRead(read, response.length)
        finally:
            deadline.cancel()
        if late.is_set():
            return Outcome(None, error="timeout")
        return Outcome(response.status, excerpt_of(read))
    except TimeoutError:
        return Outcome(None, error="timeout")
    except (OSError, http.client.HTTPException, ValueError):
        # ValueError: what http.client refuses to send or to read (UnicodeError is one)
        return Outcome(None, error="timeout" if late.is_set() else "connection_failed")
    finally:
        connection.close()

"""The API's HTTP plumbing, written once: If-Match and If-None-Match, ETags, Idempotency-Key,
request fingerprints, and the OpenAPI header parameters that document them.

Preconditions (RFC 9110, section 13.1.1): a tag is compared as served, character for character
(strong comparison): ``"01"`` is not ``"1"``, and a weak tag (``W/"1"``) never matches. A header
that is not a list of quoted tags, or ``*``, is refused with 400 (``invalid_if_match``,
``invalid_if_none_match``) rather than read as a stale tag: ``If-Match: 4`` is a client bug to
fix, not a change made by someone else.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.settings import api_settings

from accounts.idempotency import KEY_SCHEMA, key_of
from accounts.models import DeviceToken
from matches import errors
from matches.api.errors import error_response

# entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text
_TAG = r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"'
# A comma-separated list of them; empty elements are allowed (RFC 9110, section 5.6.1).
_LIST = re.compile(rf"[ \t]*(?:{_TAG}[ \t]*)?(?:,[ \t]*(?:{_TAG}[ \t]*)?)*")
_TAGS = re.compile(_TAG)


# --- reading the headers --------------------------------------------------------------------


def _tags(header: str, malformed: type[errors.MatchError]) -> list[str]:
    tags = _TAGS.findall(header)
    if not tags or not _LIST.fullmatch(header):
        raise malformed()
    return tags


def if_match_tags(request: Request) -> list[str] | None:
    """The tags If-Match names, as sent; None without the header or for ``*`` (any version).

    >>> from rest_framework.test import APIRequestFactory
    >>> if_match_tags(APIRequestFactory().put("/", HTTP_IF_MATCH='"7", W/"8"'))
    ['"7"', 'W/"8"']
    """
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    return _tags(header, errors.InvalidIfMatch)


def version_from_if_match(request: Request, current: int, stale: errors.MatchError) -> int | None:
    """The version If-Match names, if it names the current one (None for "*" or no header).

    A hand's ETag as served (``"3.5c0a1f7e2b"``, see ``hand_etag``) names version 3, and so
    does the bare version (``"3"``). A weak tag or ``"01"`` never matches ``"1"``; a malformed
    header is a 400. Of several tags, any one naming the current version will do; otherwise
    ``stale`` is raised (412).

    >>> from rest_framework.test import APIRequestFactory
    >>> put = APIRequestFactory().put
    >>> version_from_if_match(put("/", HTTP_IF_MATCH='"3.5c0a1f7e2b"'), 3, ValueError())
    3
    >>> version_from_if_match(put("/", HTTP_IF_MATCH='"3"'), 3, ValueError())
    3
    """
    if "If-Match" not in request.headers:
        return None
    tags = if_match_tags(request)
    if tags is None:
        return None
    if any(tag == etag(current) or tag.startswith(f'"{current}.') for tag in tags):
        return current
    raise stale


def if_match_value(request: Request) -> tuple[str, ...] | None:
    """If-Match as a value a service compares under its lock: the tags as sent, ``("*",)`` for
    any version, None without the header; a malformed header is a 400."""
    if "If-Match" not in request.headers:
        return None
    tags = if_match_tags(request)
    return ("*",) if tags is None else tuple(tags)


def not_modified(request: Request, current: str) -> bool:
    """Whether If-None-Match names the current ETag (or is ``*``); a malformed one is 400."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return False
    if header.strip() == "*":
        return True
    return current in _tags(header, errors.InvalidIfNoneMatch)


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key, if any: 1 to 255 printable ASCII characters; any other
    is a 400 ``invalid_idempotency_key`` (checked in one place, accounts.idempotency)."""
    return key_of(request)


def device(request: Request) -> str:
    """The device a request comes from: its device token, its browser session, or the legacy
    token; empty when unknown. Two phones of one user are two devices."""
    auth = request.auth
    if isinstance(auth, DeviceToken):
        return f"token:{auth.pk}"
    if auth is not None:
        return "legacy-token"
    session = getattr(request._request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        return "session:" + hashlib.sha256(key.encode()).hexdigest()[:12]
    return ""


# --- writing them ---------------------------------------------------------------------------


def etag(version: int) -> str:
    """A hand's ETag: its version, which every correction, void and re-record moves on."""
    return f'"{version}"'


def hand_etag(version: int, body: Any) -> str:
    """A hand's ETag as served: its version, then a digest of the answer, ``"3.5c0a1f7e2b"``.

    If-Match reads only the version (``version_from_if_match``): a confirmation or a later
    hand changes the answer, never what a correction of this hand starts from. If-None-Match
    compares the whole tag, so a client polling a hand gets 304 only while its answer is the
    same.
    """
    digest = hashlib.sha256(json.dumps(body, default=str, sort_keys=True).encode()).hexdigest()
    return f'"{version}.{digest[:10]}"'


def object_etag(fields: str, body: Any) -> str:
    """A club's, player's or season's ETag as served: ``fields`` (``digest_etag`` of what a
    change can make, quoted), then a digest of the answer, ``"5c0a1f7e2b9d4e3a6f81.3e1b0c9a2d"``.

    As with a hand's, If-Match reads only the first part (``names_fields``): a hand
    recorded since, which changes a player's record, is no conflict for a rename. If-None-Match
    compares the whole tag, so a read answers 304 only while the whole answer is the same.
    """
    digest = hashlib.sha256(json.dumps(body, default=str, sort_keys=True).encode()).hexdigest()
    return f'"{fields.strip(chr(34))}.{digest[:10]}"'


def names_fields(request: Request, fields: str) -> bool:
    """Whether If-Match is absent, ``*``, or names the current first part ``fields`` of an
    object's ETag: the tag as served, or that part alone (the whole tag of earlier versions of
    the API). A malformed header is a 400.

    >>> from rest_framework.test import APIRequestFactory
    >>> put = APIRequestFactory().put
    >>> names_fields(put("/", HTTP_IF_MATCH='"5c0a.3e1b"'), '"5c0a"')
    True
    >>> names_fields(put("/", HTTP_IF_MATCH='"5c0a"'), '"5c0a"')
    True
    >>> names_fields(put("/", HTTP_IF_MATCH='"5c0b.3e1b"'), '"5c0a"')
    False
    """
    tags = if_match_tags(request)
    if tags is None:
        return True
    inner = fields.strip('"')
    return any(tag == fields or tag.startswith(f'"{inner}.') for tag in tags)


def digest_etag(values: list[Any]) -> str:
    """A strong ETag that moves when any of ``values`` does: a digest of them, quoted."""
    digest = hashlib.sha256(json.dumps(values, default=str).encode()).hexdigest()
    return f'"{digest[:20]}"'


def fingerprint(data: Any) -> str:
    """A digest of a request body, to tell a retry from another request with the same key."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


# --- their OpenAPI parameters and error answers --------------------------------------------


def _header(name: str, description: str, **extra: Any) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.STR, OpenApiParameter.HEADER, description=description, **extra
    )


class HeaderSchema(api_settings.DEFAULT_SCHEMA_CLASS):  # type: ignore[name-defined]
    """The schema of a view whose every operation reads a header that may be malformed
    (If-Match, If-None-Match): each documents the 400 validation envelope, bodiless ones too.
    It extends the project's schema class, as the settings name it."""

    def _should_add_validation_error_response(self) -> bool:
        return True


STALE = error_response("Stale", ["precondition_failed"])
PRECONDITION_REQUIRED = error_response("PreconditionRequired", ["precondition_required"])
KEY_REUSED = error_response("IdempotencyKeyReused", ["idempotency_key_reused"])
KEY_IN_PROGRESS = error_response("CreateConflict", ["idempotency_key_in_progress"])

IF_MATCH_UPDATE = _header(
    "If-Match",
    "Optional: the ETag as last read, quoted as served; if the object has changed "
    "since, the change is refused (412) and nothing is saved; a malformed header is "
    "a 400 (invalid_if_match).",
    required=False,
)
IF_MATCH_HAND = _header(
    "If-Match",
    'The hand\'s ETag as last read, quoted as served (If-Match: "3"). A '
    "correction without it is refused (428); with an ETag that is no longer "
    "current, it is refused (412); a malformed header is a 400 (invalid_if_match).",
    required=True,
)
IF_MATCH_HAND_OPTIONAL = _header(
    "If-Match",
    "Optional: the hand's ETag as last read, quoted as served; a stale one is "
    "refused (412), a malformed header is a 400 (invalid_if_match).",
    required=False,
)
IF_MATCH_LIVE = _header(
    "If-Match",
    "The live state's ETag as last read: without it 428, when stale 412.",
    required=True,
)
IF_MATCH_LIVE_OPTIONAL = _header(
    "If-Match",
    "Optional: the live state's ETag as last read; when stale 412.",
    required=False,
)
IF_NONE_MATCH = _header(
    "If-None-Match",
    "The ETag last read: 304 with no body if the state has not changed.",
    required=False,
)
IF_NONE_MATCH_MATCH = _header(
    "If-None-Match",
    "The match's ETag as last read: 304 with no body while no hand has been recorded, "
    "corrected, voided or confirmed since (poll with it to see another phone's hands).",
    required=False,
)
IF_NONE_MATCH_HAND = _header(
    "If-None-Match",
    "The hand's ETag as last read: 304 with no body while its answer is the same (no "
    "correction, confirmation or later hand since).",
    required=False,
)
IF_NONE_MATCH_DRAFT = _header(
    "If-None-Match",
    "The draft's ETag as last read: 304 with no body while no part has changed (poll with "
    "it to see the other phones' parts).",
    required=False,
)
ETAG_DRAFT = _header(
    "ETag",
    "The draft's ETag: a digest of all its parts, which moves when any of them changes, "
    "and when the draft is thrown away.",
    required=True,
    response=[200, 304],
)
ETAG = _header(
    "ETag",
    'The hand\'s version, then a digest of the answer, as a strong ETag: `"3.5c0a1f7e2b"`. '
    "Send it back as it is in If-Match to correct or void the hand (the version alone, "
    '`"3"`, is taken too), or in If-None-Match to read it again (304 while it is the same).',
    required=True,
    response=[200, 201, 304],
)
ETAG_LIVE = _header(
    "ETag",
    "The live state's ETag: send it in If-Match with the next event, an undo or an abandon, "
    "or in If-None-Match to poll (304 while the state is the same). After a `finish`, the "
    'recorded hand\'s version (`"1"`), as its If-Match takes it.',
    required=True,
    response=[200, 201, 304],
)
ETAG_MATCH = _header(
    "ETag",
    "The match's ETag: it moves whenever a hand is recorded, corrected, voided or confirmed. "
    "Send it in If-None-Match to poll (304 while nothing changed).",
    required=True,
    response=[200, 304],
)
ETAG_OBJECT = _header(
    "ETag",
    "A digest of the fields a change can make, then a digest of the whole answer: "
    '`"5c0a1f7e2b9d4e3a6f81.3e1b0c9a2d"`. Send it in If-Match, which reads the first part, so '
    "that a change to those fields made meanwhile is a 412, not overwritten; or in "
    "If-None-Match, which compares the whole tag (304 while the answer is the same).",
    required=True,
    response=[200, 304],
)
IF_NONE_MATCH_OBJECT = _header(
    "If-None-Match",
    "The ETag last read: 304 with no body while the fields a change can make are the same.",
    required=False,
)
_REPLAYED = (
    "`true` when this is the first answer to an earlier request with the same Idempotency-Key, "
    "sent again; absent otherwise."
)
REPLAYED = _header("Idempotent-Replayed", _REPLAYED, response=[201], enum=["true"])
# an operation whose first answer may also be a 200 (a hand that confirms the one recorded)
REPLAYED_ANSWER = _header("Idempotent-Replayed", _REPLAYED, response=[200, 201], enum=["true"])
# What the API reads as a key (accounts.idempotency.key_of): any other is a 400
# invalid_idempotency_key, so the description says so and a generated client can check it.
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    description="1 to 255 printable ASCII characters, each user's own. A retry with the same "
    "key and body returns the first answer and records nothing new; the same key with another "
    "body is refused (422).",
    required=False,
)
IDEMPOTENCY_KEY_LIVE = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    description="1 to 255 printable ASCII characters, each user's own. A retry with the same "
    "key and event gets the first answer and adds nothing.",
    required=False,
)

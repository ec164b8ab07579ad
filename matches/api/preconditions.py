"""If-Match, read once for every resource that takes it (RFC 9110, section 13.1.1).

A tag is compared as served, character for character (strong comparison): ``"01"`` is not
``"1"``, and a weak tag (``W/"1"``) never matches. A header that is not a list of quoted tags,
or ``*``, is refused with 400 ``invalid_if_match`` rather than read as a stale tag: ``If-Match:
4`` is a client bug to fix, not a change made by someone else.
"""

from __future__ import annotations

import re

from rest_framework.request import Request

from matches import errors

# entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text
_TAG = r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"'
# A comma-separated list of them; empty elements are allowed (RFC 9110, section 5.6.1).
_LIST = re.compile(rf"[ \t]*(?:{_TAG}[ \t]*)?(?:,[ \t]*(?:{_TAG}[ \t]*)?)*")
_TAGS = re.compile(_TAG)


def if_match_tags(request: Request) -> list[str] | None:
    """The tags If-Match names, as sent; None without the header or for ``*`` (any version).

    >>> from rest_framework.test import APIRequestFactory
    >>> if_match_tags(APIRequestFactory().put("/", HTTP_IF_MATCH='"7", W/"8"'))
    ['"7"', 'W/"8"']
    """
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    tags = _TAGS.findall(header)
    if not tags or not _LIST.fullmatch(header):
        raise errors.InvalidIfMatch()
    return tags


def require_current(request: Request, current: str, stale: errors.MatchError) -> None:
    """Raise ``stale`` unless If-Match is absent, ``*``, or names ``current`` exactly."""
    tags = if_match_tags(request)
    if tags is not None and current not in tags:
        raise stale

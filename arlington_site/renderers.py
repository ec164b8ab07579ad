"""The API's JSON renderer: never fails on text that UTF-8 cannot hold."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import renderers


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer; a lone surrogate in the data is written as its ``\\uXXXX`` escape.

    The parser refuses such text at the door (arlington_site/parsers.py), so this is the last
    line only: an answer is never a 500 because a string cannot be encoded as UTF-8.
    """

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        try:
            rendered: bytes = super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            rendered = json.dumps(
                data,
                cls=self.encoder_class,
                ensure_ascii=True,
                allow_nan=not self.strict,
                separators=(",", ":"),
            ).encode()
        return rendered

"""Pages for entering and correcting hands, and the service worker that keeps the app offline.

Like every page of the app, these render a template and nothing else: the scripts read and
write through the public API v1.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse

from web.entry_labels import entry_vocabulary
from web.labels import vocabulary

WORKER = Path(__file__).with_name("service_worker.js")

# The app shell: what the service worker caches on install so that the app opens offline.
SHELL_STATIC = [
    "web/app.css",
    "web/entry.css",
    "web/api.js",
    "web/dom.js",
    "web/i18n.js",
    "web/outbox.js",
    "web/sw-register.js",
    "web/handtools.js",
    "web/pages/entry.js",
    "web/icons/icon.svg",
    "web/icons/icon-192.png",
]


def words() -> dict[str, Any]:
    """The app's vocabulary with the sentences of hand entry, corrections and the outbox."""
    words = vocabulary()
    words["sentences"] = {**words["sentences"], **entry_vocabulary()}
    return words


@login_required
def hand_new(request: HttpRequest, match_id: int) -> HttpResponse:
    """Enter the next hand of a match."""
    return render(request, "web/entry.html", {
        "vocabulary": words(), "match_id": match_id, "number": None,
        "match_url": reverse("web:match", args=[match_id]),
    })  # fmt: skip


@login_required
def hand_edit(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """Correct a recorded hand."""
    return render(request, "web/entry.html", {
        "vocabulary": words(), "match_id": match_id, "number": number,
        "match_url": reverse("web:match", args=[match_id]),
    })  # fmt: skip


@cache
def shell_version() -> str:
    """A digest of the shell's files: a new deployment installs a new cache."""
    digest = hashlib.sha256()
    for name in SHELL_STATIC:
        found = finders.find(name)
        if found:
            digest.update(Path(found).read_bytes())
    digest.update(WORKER.read_bytes())
    return digest.hexdigest()[:16]


def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is the whole app."""
    settings = {
        "version": shell_version(),
        "shell": [static(name) for name in SHELL_STATIC],
        "offline": reverse("web:clubs"),
    }
    script = f"const SETTINGS = {json.dumps(settings)};\n{WORKER.read_text()}"
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response

"""Pages for entering and correcting hands, and the service worker that keeps the app offline.

Like every page of the app, these render a template and nothing else: the scripts read and
write through the public API v1.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse

from web.labels import vocabulary

WORKER = Path(__file__).with_name("service_worker.js")

STATIC = Path(__file__).with_name("static")
SHELL_ICONS = ["web/icons/icon.svg", "web/icons/icon-192.png"]


def shell_files() -> list[str]:
    """The app shell the service worker caches on install: every script and style of the app
    (pages included, so that any page opens offline once visited) and the small icons."""
    names = sorted(
        path.relative_to(STATIC).as_posix()
        for path in (STATIC / "web").rglob("*")
        if path.suffix in {".js", ".css"}
    )
    return names + SHELL_ICONS


@login_required
def hand_new(request: HttpRequest, match_id: int) -> HttpResponse:
    """Enter the next hand of a match."""
    return render(
        request,
        "web/entry.html",
        {
            "vocabulary": vocabulary(),
            "match_id": match_id,
            "number": None,
            "match_url": reverse("web:match", args=[match_id]),
        },
    )


@login_required
def hand_edit(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """Correct a recorded hand."""
    return render(
        request,
        "web/entry.html",
        {
            "vocabulary": vocabulary(),
            "match_id": match_id,
            "number": number,
            "match_url": reverse("web:match", args=[match_id]),
        },
    )


def shell_version() -> str:
    """A digest of every static file of the app and of the worker: any change to them makes a
    new worker, which caches a new shell and drops the old one. (About 100 KB to hash, once
    for each update check a browser makes.)"""
    digest = hashlib.sha256()
    for path in sorted((STATIC / "web").rglob("*")):
        if path.is_file():
            digest.update(path.as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(WORKER.read_bytes())
    return digest.hexdigest()[:16]


def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is the whole app."""
    settings = {
        "version": shell_version(),
        "shell": [static(name) for name in shell_files()],
        "offline": reverse("web:clubs"),
    }
    script = f"const SETTINGS = {json.dumps(settings)};\n{WORKER.read_text()}"
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response

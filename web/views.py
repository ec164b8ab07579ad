"""Pages of the scorekeeper's app: each renders a template and nothing else.

The pages' data comes from the public API v1, fetched by the scripts with the session cookie:
no view here reads a club, computes a score or asks the rules.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from web.labels import vocabulary


def page(request: HttpRequest, template: str, **ids: Any) -> HttpResponse:
    """Render one of the app's templates with the words its scripts need."""
    return render(request, f"web/{template}.html", {"vocabulary": vocabulary(), **ids})


@login_required
def clubs(request: HttpRequest) -> HttpResponse:
    """The clubs the user belongs to, with their role in each."""
    return page(request, "clubs")


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, so that the app installs to a phone's home screen."""
    icons = [
        {"src": static("web/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("web/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("web/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("web/icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": _("Arlington scoring"),
        "short_name": _("Arlington"),
        "description": _("Keep the score of your club's Arlington matches from your phone."),
        "lang": get_language(),
        "start_url": reverse("web:clubs"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#f6f4ee",
        "theme_color": "#0d5c3f",
        "icons": icons,
    }
    return JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )

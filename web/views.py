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

# The languages whose spreadsheets read ``;`` between cells and a decimal comma: their pages'
# CSV downloads ask the API for that (``?separator=semicolon``), the others for commas.
SEMICOLON_LANGUAGES = ("fr", "pt")


def csv_separator() -> str:
    """The ``?separator=`` of the CSV downloads offered in the page's language."""
    return "semicolon" if (get_language() or "en").split("-")[0] in SEMICOLON_LANGUAGES else "comma"


def page(request: HttpRequest, template: str, **ids: Any) -> HttpResponse:
    """Render one of the app's templates with the words its scripts need."""
    context = {"vocabulary": vocabulary(), "csv_separator": csv_separator(), **ids}
    return render(request, f"web/{template}.html", context)


@login_required
def clubs(request: HttpRequest) -> HttpResponse:
    """The clubs the user belongs to, with their role in each."""
    return page(request, "clubs")


@login_required
def club(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club: its matches, its players and seasons, and where to start a match."""
    return page(request, "club", club_id=club_id)


@login_required
def match_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """Start a match: players in clockwise order, first dealer, table, season."""
    return page(request, "match_new", club_id=club_id)


@login_required
def match(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: seats and totals, the race to 1,000, who deals next, every hand itemised."""
    # Hand entry, corrections and the outbox mount from their own template when it is there.
    entry = ["web/_hand_entry.html", "web/_no_hand_entry.html"]
    return page(request, "match", match_id=match_id, hand_entry=entry)


@login_required
def scoreboard(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match's totals, large enough to read across the table."""
    return page(request, "scoreboard", match_id=match_id)


@login_required
def standings(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's table, all time or one season's (``?season=``), with its CSV."""
    return page(request, "standings", club_id=club_id)


@login_required
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's record and matches."""
    return page(request, "player", player_id=player_id)


def join(request: HttpRequest, code: str) -> HttpResponse:
    """An invitation link: what it offers, then join (signed in) or sign up and join."""
    return page(request, "join", code=code)


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

"""Pages of club nights: the tournaments of a club, the director's board, the room display, and
the pairing cards and results sheet to print.

Like every page of the app they render a template; their figures come from the API.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from web.views import page


@login_required
def tournaments(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's nights and tournaments, and a form to start one (owners and scorekeepers)."""
    return page(request, "tournaments", club_id=club_id)


@login_required
def board(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's board: every table of the latest round live, the leaderboard, the draw."""
    return page(request, "board", tournament_id=tournament_id)


@login_required
def room(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The room display, for a TV: the leaderboard and the tables in large type."""
    return page(request, "room", tournament_id=tournament_id)


@login_required
def night_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The latest round's pairing cards, one per table, and the results sheet, to print on A4."""
    return page(request, "night_print", tournament_id=tournament_id)

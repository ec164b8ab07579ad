"""Public results: read-only pages anyone with the link may open, rendered on the server.

A link shows one thing of one club (its standings of a ruleset, one match, or one
tournament) and nothing else. The page needs no script and no sign-in; a tournament's page
runs one small script of this site (``clubnight/refresh.js``) that keeps it up to date while
it is on screen. Each page answers a strong ETag (a standings page: from the club's standings
stamp and the names it shows, so a 304 costs no rendering; the others: a digest of the page),
so a browser or proxy revalidates it cheaply, with ``Cache-Control: public, no-cache`` so that a
revoked link stops answering at once. Search engines are asked not to index it
(``X-Robots-Tag`` and a meta tag). ``/r/rating/`` explains the rating the pages show.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from clubnight import errors, ratings, tournaments
from clubnight.models import PublicLink, Scope, Tournament
from matches import standings
from matches.models import Club, Match, Season

CACHE_CONTROL = "public, no-cache"
ROBOTS = "noindex, nofollow"


@transaction.atomic
def link_create(
    *,
    club: Club,
    scope: str,
    user: User,
    ruleset: str,
    season: Season | None = None,
    match: int | None = None,
    tournament: int | None = None,
) -> PublicLink:
    """A new link to one of the club's results; what it names must be the club's own.

    The match or tournament is held (``FOR NO KEY UPDATE``) until the link is made: a round
    undone at that moment, which deletes its matches, waits and deletes the new link with its
    match, or has deleted it already and the link is refused, never made to a match gone.
    """
    chosen_match = chosen_tournament = None
    no_key = connection.features.has_select_for_no_key_update
    if scope == Scope.MATCH:
        chosen_match = (
            Match.objects.select_for_update(no_key=no_key).filter(club=club, pk=match or 0).first()
        )
        if chosen_match is None:
            raise errors.ClubnightError("match_not_in_club", attr="match", match=match)
    elif scope == Scope.TOURNAMENT:
        chosen_tournament = (
            Tournament.objects.select_for_update(no_key=no_key)
            .filter(club=club, pk=tournament or 0)
            .first()
        )
        if chosen_tournament is None:
            raise errors.ClubnightError(
                "tournament_not_in_club", attr="tournament", tournament=tournament
            )
    return PublicLink.objects.create(
        club=club,
        scope=scope,
        ruleset=ruleset,
        season=season if scope == Scope.STANDINGS else None,
        match=chosen_match,
        tournament=chosen_tournament,
        created_by=user,
    )


def _context(link: PublicLink) -> dict[str, Any]:
    if link.scope == Scope.STANDINGS:
        table = standings.standings_for_club(
            club=link.club, season=link.season, ruleset=link.ruleset
        )
        return {"rows": table.rows()}
    if link.scope == Scope.MATCH:
        match = link.match
        assert match is not None  # the link's constraint
        seats = match.seats.select_related("player").order_by("position")
        return {"match": match, "seats": list(seats)}
    tournament = link.tournament
    assert tournament is not None
    tables = [(r.number, tournaments.tables_of(r)) for r in tournament.rounds.order_by("-number")]
    rounds = [{"number": number, "tables": drawn} for number, drawn in tables]
    playing = bool(tables) and any(t["status"] == "in_progress" for t in tables[0][1])
    return {
        "tournament": tournament,
        "rows": tournaments.leaderboard(tournament=tournament),
        "rounds": rounds,
        "refresh": REFRESH_IN_PLAY if playing else REFRESH_BETWEEN_ROUNDS,
        "in_play": REFRESH_IN_PLAY,
    }


PAGE_VERSION = "2"  # moved on when the pages' templates change what they show
# A tournament's page, on a phone or on the wall of the room, asks for itself again this often
# (seconds; a conditional request, 304 while nothing changed): often while a round is played,
# seldom between rounds, when only the director's next draw will change it.
REFRESH_IN_PLAY = 15
REFRESH_BETWEEN_ROUNDS = 60
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
# A tournament's page runs one script of this site, which asks for the page again.
CSP_REFRESHING = CSP + "; script-src 'self'; connect-src 'self'"


def _tag(*parts: object) -> str:
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _standings_tag(link: PublicLink) -> str:
    """A standings page's ETag without rendering it: the club's standings stamp moves with
    every change to its tables (matches.standings), and the page also shows these names.

    The ratings it shows are replayed after the change that moved the stamp has committed:
    while they are recomputing, the tag says so, and changes again once they are done."""
    season = link.season.name if link.season else None
    recomputing = ratings.recomputing(
        club_id=link.club_id, ruleset=link.ruleset, using=link.club._state.db
    )
    return _tag(
        PAGE_VERSION,
        link.pk,
        link.club.standings_stamp,
        link.club.name,
        season,
        get_language(),
        recomputing,
    )


@require_safe
def page(request: HttpRequest, token: str) -> HttpResponse:
    """The page a public link opens; 404 for a revoked or unknown token."""
    link = (
        PublicLink.objects.select_related("club", "season", "match", "tournament")
        .filter(token=token)
        .first()
    )
    if link is None:
        raise Http404()
    known = parse_etags(request.headers.get("If-None-Match", ""))
    tag = _standings_tag(link) if link.scope == Scope.STANDINGS else None
    body = ""
    if tag is None or tag not in known:  # a standings page known to the client is not rendered
        # A standings page is kept under its tag, like the tables (a change makes a new tag).
        # A cache that cannot be reached only costs the page being rendered afresh.
        cached = standings.cached(f"public:{tag}") if tag is not None else None
        body = cached or render_to_string(
            f"clubnight/public_{link.scope}.html",
            {"link": link, "club": link.club, **_context(link)},
            request=request,
        )
        if tag is not None and cached is None:
            standings.keep(f"public:{tag}", body)
        tag = tag or _tag(body)
    response = HttpResponseNotModified() if tag in known else HttpResponse(body)
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    response["X-Robots-Tag"] = ROBOTS
    response["Referrer-Policy"] = "no-referrer"  # the token never leaves in a Referer
    response["Content-Security-Policy"] = CSP_REFRESHING if link.scope == Scope.TOURNAMENT else CSP
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@require_safe
def rating(request: HttpRequest) -> HttpResponse:
    """What the rating on the public pages means, in plain words, for anyone."""
    response = HttpResponse(render_to_string("clubnight/public_rating.html", request=request))
    response["Cache-Control"] = "public, max-age=3600"
    response["Content-Security-Policy"] = CSP
    response["Referrer-Policy"] = "no-referrer"
    patch_vary_headers(response, ["Accept-Language"])
    return response

"""API views of ratings, tournaments and public links; each delegates to a service or selector.

Who may do what: any member of the club reads; owners and scorekeepers direct tournaments
(create them, draw rounds); owners manage public links. Objects of other clubs are 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.idempotency import idempotent
from clubnight import public, ratings, tournaments
from clubnight.api import serializers as s
from clubnight.api.filters import TournamentFilter
from clubnight.models import Entrant, PublicLink, Round, Tournament
from matches import selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.permissions import MANAGING, SCOREKEEPING, member_club, requester, require_role
from matches.api.renderers import DOWNLOAD, SEPARATOR, attachment
from matches.api.views.standings import CSVOnly
from matches.errors import InvalidSetup
from matches.models import Club, Player, Season

ROUND_CONFLICT = error_response("RoundConflict", ["round_in_progress"])
ENTRANT_CONFLICT = error_response("EntrantConflict", ["round_in_progress", "already_entered"])
UNDO_CONFLICT = error_response("RoundUndoConflict", ["round_has_hands", "not_last_round"])
# A player of the club who is not entered, or was withdrawn already; anyone else: not_found.
ENTRANT_NOT_FOUND = error_response("EntrantNotFound", ["not_found", "player_not_entered"])
WITHDRAWN_NOT_FOUND = error_response(
    "EntrantWithdrawalNotFound", ["not_found", "player_not_entered", "already_withdrawn"]
)
ROUND_ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="This drawing of the round (also the round's `etag`): a round undone and "
    "drawn again under the same number has another.",
    response=[200],
)
ROUND_ETAG_DRAWN = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="This drawing of the round (also the round's `etag`), for If-Match on its undo.",
    response=[201],
)
IF_MATCH_ROUND = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Optional: the round's `etag` as read (from the board, the rounds or the "
    "round). If the round under this number has been undone and drawn again since, nothing "
    "is undone: 412 `precondition_failed`. A malformed header is a 400 (invalid_if_match).",
    required=False,
)


def _query(serializer: type[Serializer], request: Request) -> dict[str, Any]:
    incoming = serializer(data=request.query_params)
    incoming.is_valid(raise_exception=True)
    return dict(incoming.validated_data)


RATINGS_STATUS = "Ratings-Status"
RATINGS_STATUS_HEADER = OpenApiParameter(
    RATINGS_STATUS,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    enum=["current", "recomputing"],
    response=[200],
    description="`recomputing` while a change to one of the club's finished matches of this "
    "ruleset (a hand that finished a match, a correction, a void) awaits its replay: the "
    "ratings are those from before it, and are replaced within moments. `current` otherwise.",
)


def _ratings_status(club_id: int, ruleset: str) -> dict[str, str]:
    recomputing = ratings.recomputing(club_id=club_id, ruleset=ruleset)
    return {RATINGS_STATUS: "recomputing" if recomputing else "current"}


class ClubRatingsView(GenericAPIView):
    """A club's ratings in one ruleset, best first (not paginated)."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.RatingSerializer
    queryset = Club.objects.none()
    pagination_class = None

    @extend_schema(
        parameters=[s.RulesetQuerySerializer, RATINGS_STATUS_HEADER],
        responses={200: s.RatingSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        club = member_club(request, pk)
        query = _query(s.RulesetQuerySerializer, request)
        rows = ratings.ratings_for_club(club=club, ruleset=query["ruleset"])
        return Response(
            s.RatingSerializer(rows, many=True).data,
            headers=_ratings_status(club.pk, query["ruleset"]),
        )


class PlayerRatingsView(GenericAPIView):
    """A player's rating history in one ruleset: one step per finished match, oldest first."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.RatingStepSerializer
    queryset = Player.objects.none()
    pagination_class = None

    @extend_schema(
        parameters=[s.RulesetQuerySerializer, RATINGS_STATUS_HEADER],
        responses={200: s.RatingStepSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = selectors.players_visible_to(request.user).filter(pk=pk).first()
        if player is None:
            raise exceptions.NotFound()
        query = _query(s.RulesetQuerySerializer, request)
        steps = [
            {
                "match_id": entry.match_id,
                "match": entry.match,
                "finished_at": entry.finished_at,
                "place": entry.place,
                "rating_before": ratings.display(entry.mu_before, entry.sigma_before),
                "rating": ratings.display(entry.mu, entry.sigma),
                "mu": round(entry.mu, 4),
                "sigma": round(entry.sigma, 4),
            }
            for entry in ratings.history(player=player, ruleset=query["ruleset"])
        ]
        return Response(
            s.RatingStepSerializer(steps, many=True).data,
            headers=_ratings_status(player.club_id, query["ruleset"]),
        )


def tournaments_visible_to(request: Request) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club__in=selectors.clubs_visible_to(request.user))


def _with_rounds(queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return queryset.prefetch_related(
        Prefetch(
            "entrants", queryset=Entrant.objects.filter(withdrawn=False).select_related("player")
        ),
        Prefetch("rounds", queryset=Round.objects.prefetch_related("tables")),
    )


class TournamentListView(GenericAPIView):
    """Tournaments of your clubs (``?club=`` for one club's); owners and scorekeepers start one."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.TournamentSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = TournamentFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        return _with_rounds(tournaments_visible_to(self.request))

    @extend_schema(responses={200: s.TournamentSerializer(many=True)})
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(s.TournamentSerializer(page, many=True).data)

    @extend_schema(
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentSerializer},
        parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        incoming = s.TournamentCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        club = selectors.club_visible_to(request.user, data["club"])
        if club is None:
            raise InvalidSetup("unknown_club", attr="club", club=data["club"])
        require_role(request, club.pk, SCOREKEEPING)
        season = None
        if data.get("season") is not None:
            season = Season.objects.filter(club=club, pk=data["season"]).first()
            if season is None:
                raise InvalidSetup("season_not_in_club", attr="season", season=data["season"])
        created = tournaments.tournament_create(
            club=club,
            name=data["name"],
            players=data["players"],
            user=requester(request),
            ruleset=data["ruleset"],
            season=season,
            roles=SCOREKEEPING,  # read again as the night is made
        )
        tournament = _with_rounds(Tournament.objects.filter(pk=created.pk)).get()
        return Response(
            s.TournamentSerializer(tournament).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": request.build_absolute_uri(
                    reverse("tournament-detail", kwargs={"pk": tournament.pk})
                )
            },
        )


class TournamentMixin(GenericAPIView):
    permission_classes = [IsAuthenticated]
    queryset = Tournament.objects.none()

    def get_tournament(
        self,
        roles: frozenset[str] | None = None,
        shape: Callable[[QuerySet[Tournament]], QuerySet[Tournament]] = lambda rows: rows,
    ) -> Tournament:
        """The tournament in the URL, read once (``shape`` adds what the answer reads with it),
        or 404; with ``roles``, 403 unless the requester has one of them in its club."""
        tournament = (
            shape(tournaments_visible_to(self.request).select_related("club"))
            .filter(pk=self.kwargs["pk"])
            .first()
        )
        if tournament is None:
            raise exceptions.NotFound()
        if roles is not None:
            require_role(self.request, tournament.club_id, roles)
        return tournament


class TournamentDetailView(TournamentMixin):
    """One tournament: its entrants and rounds."""

    serializer_class = s.TournamentSerializer

    def get(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament(shape=_with_rounds)
        return Response(s.TournamentSerializer(tournament).data)


def _round_data(round_: Round) -> dict[str, Any]:
    tables = tournaments.tables_of(round_)
    return {
        "number": round_.number,
        "etag": tournaments.round_etag(round_),
        "seating": round_.seating,
        "seed": round_.seed,
        "matches": [table["match"] for table in tables],
        "tables": tables,
    }


class RoundListView(TournamentMixin):
    """A tournament's rounds with their tables (GET); draw the next round (POST, directors)."""

    serializer_class = s.RoundSerializer
    pagination_class = None

    @extend_schema(responses={200: s.RoundSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament()
        rounds = tournament.rounds.order_by("number")
        return Response(s.RoundSerializer([_round_data(r) for r in rounds], many=True).data)

    @extend_schema(
        request=s.RoundCreateSerializer,
        responses={201: s.RoundSerializer, 409: ROUND_CONFLICT},
        parameters=[ROUND_ETAG_DRAWN],
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament(SCOREKEEPING)
        incoming = s.RoundCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        drawn = tournaments.round_draw(
            tournament=tournament,
            user=requester(request),
            seating=data["seating"],
            seed=data.get("seed"),
            tables=data.get("tables"),
            names=data.get("names"),
            roles=SCOREKEEPING,  # read again under the night's lock
        )
        return Response(
            s.RoundSerializer(_round_data(drawn)).data,
            status=status.HTTP_201_CREATED,
            headers={  # as GET of the round answers: its own URL, and this drawing's tag
                "Location": request.build_absolute_uri(
                    reverse(
                        "tournament-round", kwargs={"pk": tournament.pk, "number": drawn.number}
                    )
                ),
                "ETag": tournaments.round_etag(drawn),
            },
        )


class EntrantListView(TournamentMixin):
    """A tournament's entrants, withdrawn ones included (GET); enter a player (POST, directors).

    Entrants change between rounds only: while a match of the night is being played, 409.
    """

    serializer_class = s.EntrantLineSerializer
    pagination_class = None

    @extend_schema(responses={200: s.EntrantLineSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament()
        entries = tournament.entrants.select_related("player").order_by("position")
        return Response(s.EntrantLineSerializer(entries, many=True).data)

    @extend_schema(
        request=s.EntrantCreateSerializer,
        responses={201: s.EntrantLineSerializer, 409: ENTRANT_CONFLICT},
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament(SCOREKEEPING)
        incoming = s.EntrantCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        entry = tournaments.entrant_add(
            tournament=tournament,
            player=incoming.validated_data["player"],
            user=requester(request),
            roles=SCOREKEEPING,
        )
        return Response(
            s.EntrantLineSerializer(entry).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": request.build_absolute_uri(
                    reverse(
                        "tournament-entrant",
                        kwargs={"pk": tournament.pk, "player": entry.player_id},
                    )
                )
            },
        )


class EntrantDetailView(TournamentMixin):
    """One entrant, withdrawn or not (GET: where entering a player points); withdraw an entrant
    between rounds (DELETE, directors), whose results stay on the leaderboard."""

    serializer_class = s.EntrantLineSerializer

    @extend_schema(responses={200: s.EntrantLineSerializer, 404: ENTRANT_NOT_FOUND})
    def get(self, request: Request, pk: int, player: int) -> Response:
        tournament = self.get_tournament()
        if not 0 < player <= selectors.LARGEST_ID:  # names no row: never sent to the database
            raise exceptions.NotFound()
        entry = tournaments.entrant_of(tournament, player)
        if entry is None:
            raise exceptions.NotFound()
        return Response(s.EntrantLineSerializer(entry).data)

    @extend_schema(responses={204: None, 404: WITHDRAWN_NOT_FOUND, 409: ROUND_CONFLICT})
    def delete(self, request: Request, pk: int, player: int) -> Response:
        tournament = self.get_tournament(SCOREKEEPING)
        if not 0 < player <= selectors.LARGEST_ID:  # names no row: never sent to the database
            raise exceptions.NotFound()
        withdrawn = tournaments.entrant_withdraw(
            tournament=tournament, player=player, user=requester(request), roles=SCOREKEEPING
        )
        if not withdrawn:
            raise exceptions.NotFound()
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundDetailView(TournamentMixin):
    """One round with its tables (GET); undo the last round while no hand is recorded (DELETE)."""

    serializer_class = s.RoundSerializer
    schema = http.HeaderSchema()

    @extend_schema(parameters=[ROUND_ETAG])
    def get(self, request: Request, pk: int, number: int) -> Response:
        round_ = self.get_tournament().rounds.filter(number=number).first()
        if round_ is None:
            raise exceptions.NotFound()
        headers = {"ETag": tournaments.round_etag(round_)}
        return Response(s.RoundSerializer(_round_data(round_)).data, headers=headers)

    @extend_schema(
        responses={204: None, 409: UNDO_CONFLICT, 412: http.STALE}, parameters=[IF_MATCH_ROUND]
    )
    def delete(self, request: Request, pk: int, number: int) -> Response:
        tournament = self.get_tournament(SCOREKEEPING)
        if_match = http.if_match_value(request)
        tournaments.round_undo(
            tournament=tournament,
            number=number,
            if_match=if_match,
            user=requester(request),
            roles=SCOREKEEPING,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeaderboardView(TournamentMixin):
    """The tournament's leaderboard: victory points, then points (not paginated)."""

    serializer_class = s.LeaderboardRowSerializer
    pagination_class = None

    @extend_schema(responses={200: s.LeaderboardRowSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        rows = tournaments.leaderboard(tournament=self.get_tournament())
        return Response(s.LeaderboardRowSerializer(rows, many=True).data)


LEADERBOARD_COLUMNS = ["rank", "player", "name", "victory_points", "points", "matches"]


@extend_schema(
    parameters=[SEPARATOR, DOWNLOAD],
    responses={
        (200, "text/csv"): OpenApiResponse(
            OpenApiTypes.STR,
            description="The leaderboard as CSV text, best first: UTF-8 with a byte-order mark, "
            "a header row, then one line per entrant with "
            + ", ".join(f"`{c}`" for c in LEADERBOARD_COLUMNS)
            + ", `finished`, `wins`, then `round_1`, `round_2`, ... (the entrant's total in each "
            "round, empty for a round they did not play) and `withdrawn` (`yes` or empty). A cell "
            "that a spreadsheet would run as a formula starts with `'`.",
        )
    },
)
class LeaderboardCSVView(CSVOnly, TournamentMixin):
    """The tournament's leaderboard as a CSV download, with every round's points."""

    pagination_class = None

    def get(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament()
        # the rounds read once, for the header and the rows: a round drawn or undone meanwhile
        # would otherwise give them different columns
        with selectors.one_snapshot():  # and the rows as they stood then
            numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
            rows = tournaments.leaderboard(tournament=tournament, numbers=numbers)
        rounds = [f"round_{n}" for n in numbers]
        self.csv_header = [*LEADERBOARD_COLUMNS, "finished", "wins", *rounds, "withdrawn"]
        self.download = attachment(
            tournament.club.name, tournament.name, "leaderboard", day=tournament.created_at.date()
        )
        lines = [
            {
                **{column: row[column] for column in LEADERBOARD_COLUMNS},
                "finished": row["finished"],
                "wins": row["wins"],
                **dict(zip(rounds, row["rounds"], strict=True)),
                "withdrawn": "yes" if row["withdrawn"] else "",
            }
            for row in rows
        ]
        return Response(lines)


class BoardView(TournamentMixin):
    """Everything the director's board and the room display show, in one answer to poll."""

    serializer_class = s.BoardSerializer

    def get(self, request: Request, pk: int) -> Response:
        tournament = self.get_tournament()
        # one snapshot: the tables' totals and the leaderboard agree on the hands recorded
        with selectors.one_snapshot():
            last = tournament.rounds.order_by("-number").first()
            body = {
                "tournament": tournament.pk,
                "name": tournament.name,
                "round": None if last is None else _round_data(last),
                "reopened": tournaments.reopened_tables(tournament, last),
                "leaderboard": tournaments.leaderboard(tournament=tournament),
            }
        return Response(s.BoardSerializer(body).data)


class PublicLinkListView(GenericAPIView):
    """A club's public links (owners): list them, or make one."""

    owners_only = True  # the description declares the 403 of the list too
    permission_classes = [IsAuthenticated]
    serializer_class = s.PublicLinkSerializer
    queryset = PublicLink.objects.none()

    @extend_schema(responses={200: s.PublicLinkSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        club = member_club(request, pk, MANAGING)
        page = self.paginate_queryset(club.public_links.all())
        return self.get_paginated_response(
            s.PublicLinkSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        request=s.PublicLinkCreateSerializer,
        responses={201: OpenApiResponse(s.PublicLinkSerializer, description="The new link.")},
        parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED],
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        club = member_club(request, pk, MANAGING)
        incoming = s.PublicLinkCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        season = None
        if data.get("season") is not None:
            season = Season.objects.filter(club=club, pk=data["season"]).first()
            if season is None:
                raise InvalidSetup("season_not_in_club", attr="season", season=data["season"])
        link = public.link_create(
            club=club,
            scope=data["scope"],
            user=requester(request),
            ruleset=data["ruleset"],
            season=season,
            match=data.get("match"),
            tournament=data.get("tournament"),
        )
        return Response(
            s.PublicLinkSerializer(link, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": request.build_absolute_uri(
                    reverse("public-link-detail", kwargs={"pk": club.pk, "link_pk": link.pk})
                )
            },
        )


class PublicLinkDetailView(GenericAPIView):
    """Revoke a public link (owners): its page answers 404 from then on."""

    permission_classes = [IsAuthenticated]
    queryset = PublicLink.objects.none()

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int, link_pk: int) -> Response:
        club = member_club(request, pk, MANAGING)
        deleted, _ = PublicLink.objects.filter(club=club, pk=link_pk).delete()
        if not deleted:
            raise exceptions.NotFound()
        return Response(status=status.HTTP_204_NO_CONTENT)

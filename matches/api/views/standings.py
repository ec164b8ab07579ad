"""League tables over finished matches, as JSON or CSV."""

from __future__ import annotations

from typing import Any, cast

from django.http import HttpResponse, HttpResponseBase
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView, get_object_or_404  # 404 for clubs/abc/
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import DecimalField
from rest_framework.settings import api_settings

from matches import selectors, standings
from matches.api.renderers import DOWNLOAD, SEPARATOR, CSVRenderer, attachment, separator
from matches.api.serializers import standings as s
from matches.api.views.seasons import season_of
from matches.models import Club, Season
from scoring import rulesets


class CSVErrorsAsJSON(GenericAPIView):
    """Errors of a view that offers CSV leave in the JSON envelope, like every other error.

    So does anything else that is not a table, such as the description an OPTIONS request gets.
    A table answered as CSV is a download named by the view's ``download`` (``attachment``).
    """

    download = ""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if isinstance(getattr(request, "accepted_renderer", None), CSVRenderer):
            separator(request)  # an unknown ?separator= is refused before any work

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        table = isinstance(getattr(response, "data", None), list)
        not_a_table = response.status_code >= 400 or not table
        if not_a_table and isinstance(getattr(request, "accepted_renderer", None), CSVRenderer):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        result: Response = super().finalize_response(request, response, *args, **kwargs)
        download = getattr(self, "download", None)
        csv_table = isinstance(getattr(request, "accepted_renderer", None), CSVRenderer)
        if download and csv_table and result.status_code == 200:
            result["Content-Disposition"] = download  # saved as a file, under a useful name
        return result


DEFAULT_QUERY = s.StandingsQuerySerializer.defaults()
# The decimal columns of a table, which JSON writes as floats.
DECIMALS = [
    name for name, field in s.StandingSerializer().fields.items() if isinstance(field, DecimalField)
]


COLUMNS = ", ".join(f"`{name}`" for name in s.StandingSerializer().fields)
TABLE_DESCRIPTION = f"One row per player, best first, with these fields: {COLUMNS}."
CSV_DESCRIPTION = (
    "One row per player, best first, as CSV text: UTF-8 with a byte-order mark, a header row, "
    f"then one line per player, with these columns in this order: {COLUMNS}. A cell that a "
    "spreadsheet would run as a formula starts with `'`. `rating` is cautious (1000 + 40 × "
    "(mu − 3 × sigma)): it rises with many good results rather than one, so a player with a "
    "recent first win can rate below regulars who won less."
)


def standings_schema(query: type[s.StandingsQuerySerializer]) -> Any:
    """The standings' query and their JSON rows.

    The same URL still answers CSV to ``Accept: text/csv`` or ``?format=csv`` (links made
    before the ``csv/`` operations existed), but the schema offers CSV only on those, so that
    a generated client reads this operation as JSON and nothing else.
    """
    return extend_schema(
        parameters=[query],
        responses={
            (200, "application/json"): OpenApiResponse(
                s.StandingSerializer(many=True), description=TABLE_DESCRIPTION
            ),
        },
    )


class StandingsView(CSVErrorsAsJSON):
    """A league table over finished matches, in JSON or CSV (``?format=csv``); not paginated."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, CSVRenderer]  # type: ignore[list-item]
    serializer_class = s.StandingSerializer
    pagination_class = None

    def query(self) -> dict[str, Any]:
        if not self.request.query_params:  # the usual request: the default table
            return dict(DEFAULT_QUERY)
        incoming = self.query_serializer(data=self.request.query_params)
        incoming.is_valid(raise_exception=True)
        return dict(incoming.validated_data)

    csv_header = list(s.StandingSerializer().fields)
    query_serializer = s.StandingsQuerySerializer

    def answer(self, table: standings.Table) -> HttpResponseBase:
        """The table in the negotiated format; plain JSON as kept from an earlier answer.

        The selector's rows already have the serializer's shape, keys and types (it documents
        them); passing a hundred rows through it would cost more than the rest of the request.
        Writing them as JSON costs more than finding them, so the plain JSON answer (no media
        type parameters, such as ``indent``) is kept beside the rows.
        """
        plain_json = self.request.accepted_media_type == JSONRenderer.media_type
        if not (plain_json and isinstance(self.request.accepted_renderer, JSONRenderer)):
            return Response(table.rows())
        return HttpResponse(table.rendered("json", _json), content_type=JSONRenderer.media_type)


def game_of(ruleset: str) -> str:
    """The game in a download's name: none for the default game, so that the usual table keeps
    its name; another game's (``…-rummy-standings-…``), so that two files never share one."""
    return "" if ruleset == rulesets.DEFAULT else ruleset


def _json(rows: list[dict[str, Any]]) -> bytes:
    """The rows as DRF writes them: a decimal as a float, without one encoder call per value."""
    rendered: bytes = JSONRenderer().render(
        [
            {**row, **{key: float(row[key]) for key in DECIMALS if row[key] is not None}}
            for row in rows
        ]
    )
    return rendered


@standings_schema(s.ClubStandingsQuerySerializer)
class ClubStandingsView(StandingsView):
    """A club's standings: all-time, or one season's with ``?season=``."""

    query_serializer = s.ClubStandingsQuerySerializer

    queryset = Club.objects.none()  # for the schema: the real rows come from the club

    def get(self, request: Request, pk: int) -> HttpResponseBase:
        club = selectors.club_visible_to(request.user, pk)
        if club is None:
            raise exceptions.NotFound()
        query = self.query()
        season = season_of(club, query.get("season"))
        self.download = attachment(
            club.name,
            season.name if season else "",
            game_of(query["ruleset"]),
            "standings",
            day=timezone.now().date(),
        )
        return self.answer(
            standings.standings_for_club(
                club=club,
                season=season,
                date_from=query.get("from"),
                date_to=query.get("to"),
                ordering=query["ordering"],
                ruleset=query["ruleset"],
            )
        )


@standings_schema(s.StandingsQuerySerializer)
class SeasonStandingsView(StandingsView):
    """A season's standings."""

    queryset = Season.objects.none()

    def get(self, request: Request, pk: int) -> HttpResponseBase:
        season = get_object_or_404(
            selectors.seasons_visible_to(request.user).select_related("club"), pk=pk
        )  # the club's standings stamp names the cached table
        query = self.query()
        self.download = attachment(
            season.club.name,
            season.name,
            game_of(query["ruleset"]),
            "standings",
            day=timezone.now().date(),
        )
        return self.answer(
            standings.standings_for_season(
                season=season,
                date_from=query.get("from"),
                date_to=query.get("to"),
                ordering=query["ordering"],
                ruleset=query["ruleset"],
            )
        )


class CSVOnly(CSVErrorsAsJSON):
    """A ``…/csv/`` URL: CSV text whatever ``Accept`` says, one operation a generated client reads
    as text. A ``?format=`` naming another format is a 406, as on every other URL."""

    renderer_classes = [CSVRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        if force:  # the negotiation itself failed: its error leaves in JSON
            return JSONRenderer(), JSONRenderer.media_type
        named = request.query_params.get(api_settings.URL_FORMAT_OVERRIDE or "format")
        if named:  # a 406 unless it names csv
            negotiator = cast(DefaultContentNegotiation, self.get_content_negotiator())
            negotiator.filter_renderers([CSVRenderer()], named)
        return CSVRenderer(), CSVRenderer.media_type


class AsCSV(CSVOnly, StandingsView):
    """The same table, always as CSV text."""


def csv_schema(query: type[s.StandingsQuerySerializer]) -> Any:
    return extend_schema(
        parameters=[query, SEPARATOR, DOWNLOAD],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=CSV_DESCRIPTION),
        },
    )


@csv_schema(s.ClubStandingsQuerySerializer)
class ClubStandingsCSVView(AsCSV, ClubStandingsView):
    """A club's standings as CSV (``Accept: text/csv`` on the table's URL does the same)."""


@csv_schema(s.StandingsQuerySerializer)
class SeasonStandingsCSVView(AsCSV, SeasonStandingsView):
    """A season's standings as CSV (``Accept: text/csv`` on the table's URL does the same)."""

"""API views of the matches app: declarative viewsets, with every action delegated to a service."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.filters import OrderingFilter
from rest_framework.generics import GenericAPIView, get_object_or_404  # 404 for clubs/abc/
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.serializers import BaseSerializer, CharField, DecimalField, Serializer
from rest_framework.settings import api_settings

from accounts.throttles import AccountSignInThrottle, AddressSignInThrottle, forgive
from matches import errors, hands, selectors, services, standings
from matches.api import presenters
from matches.api import serializers as s
from matches.api.errors import error_response
from matches.api.filters import MatchFilter, PlayerFilter, SeasonFilter
from matches.api.permissions import MANAGING, SCOREKEEPING, ClubRole, can_write, requester
from matches.api.preconditions import if_match_tags, require_current
from matches.api.renderers import CSVRenderer
from matches.invitations import invitation_invite_user
from matches.models import Club, Hand, Match, Membership, Player, Season


class TokenSerializer(Serializer):
    """The token issued for a username and password."""

    token = CharField(read_only=True)


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token."""

    authentication_classes = []
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
    renderer_classes = [JSONRenderer]
    # Slow password guessing: every attempt per address, failed ones per account.
    throttle_classes = [AddressSignInThrottle, AccountSignInThrottle]

    def get_throttles(self) -> list[Any]:
        if not hasattr(self, "_throttles"):  # kept, so that a failure is counted by the same
            self._throttles = super().get_throttles()
        return self._throttles

    @extend_schema(
        operation_id="auth_token_create",
        request=AuthTokenSerializer,
        responses={200: TokenSerializer},
        tags=["auth"],
        deprecated=True,
        description="Legacy: one token per user, the same on every call, never expiring. "
        "Use `POST auth/tokens/` for a device token (docs/api.md).",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        answer = super().post(request, *args, **kwargs)
        forgive(self.get_throttles())
        return answer


STALE = error_response("Stale", ["precondition_failed"])
IF_MATCH_UPDATE = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional: the ETag as last read, quoted as served; if the object has changed "
    "since, the change is refused (412) and nothing is saved; a malformed header is "
    "a 400 (invalid_if_match).",
)


def conditional_updates(serializer: type[BaseSerializer]) -> Any:
    """The schema of PUT and PATCH on a resource that takes If-Match."""
    documented = extend_schema(
        parameters=[IF_MATCH_UPDATE], responses={200: serializer, 412: STALE}
    )
    return extend_schema_view(update=documented, partial_update=documented)


class ConditionalUpdateMixin(GenericAPIView if TYPE_CHECKING else object):  # type: ignore[misc]
    """A read answers an ETag; a change applies to the row as it is, and honours If-Match.

    ``PUT`` and ``PATCH`` read the row again under a lock (``SELECT ... FOR UPDATE``) inside
    their transaction, validate against it and save it: two changes at once are applied one
    after the other, so neither undoes the other and a rule across fields (a season's dates)
    is checked against what the other change wrote. A client that must not overwrite a change
    to the same field sends the ETag it read in If-Match (412 ``precondition_failed`` if the
    object has changed since). The ETag is a digest of the fields the API changes
    (``etag_fields``), so it moves only when they do.
    """

    etag_fields: tuple[str, ...] = ("name",)

    def etag_of(self, instance: Any) -> str:
        values = [instance.pk, *(getattr(instance, name) for name in self.etag_fields)]
        digest = hashlib.sha256(json.dumps(values, default=str).encode()).hexdigest()
        return f'"{digest[:20]}"'

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        instance = self.get_object()
        data = self.get_serializer(instance).data
        return Response(data, headers={"ETag": self.etag_of(instance)})

    def get_locked_object(self) -> Any:
        """The object in the URL, as ``get_object`` finds it, read with a row lock on it."""
        queryset = self.filter_queryset(self.get_queryset()).select_for_update(of=("self",))
        lookup = self.lookup_url_kwarg or self.lookup_field
        instance = get_object_or_404(queryset, **{self.lookup_field: self.kwargs[lookup]})
        self.check_object_permissions(self.request, instance)
        return instance

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        partial = kwargs.pop("partial", False)
        if_match_tags(request)  # a malformed If-Match is refused before any work
        with transaction.atomic():
            locked = self.get_locked_object()
            current = self.etag_of(locked)
            require_current(request, current, errors.Stale(etag=current))
            serializer = self.get_serializer(locked, data=request.data, partial=partial)
            serializer.is_valid(raise_exception=True)
            self.perform_update(serializer)
        return Response(serializer.data, headers={"ETag": self.etag_of(serializer.instance)})


class LocatedCreateMixin(
    mixins.CreateModelMixin,
    viewsets.GenericViewSet if TYPE_CHECKING else object,  # type: ignore[misc]
):
    """A creation answers the new object's absolute URL in Location."""

    def get_success_headers(self, data: Any) -> dict[str, str]:
        return {"Location": location(self.request, f"{self.basename}-detail", pk=data["id"])}


def location(request: Request, name: str, **kwargs: Any) -> str:
    """The absolute URL of the route ``name``, as the client reached the API."""
    return request.build_absolute_uri(reverse(name, kwargs=kwargs))


@conditional_updates(s.ClubSerializer)
class ClubViewSet(
    ConditionalUpdateMixin,
    LocatedCreateMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Clubs you belong to. The creator of a club becomes its owner."""

    serializer_class = s.ClubSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_roles = MANAGING
    filter_backends = [OrderingFilter]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self) -> QuerySet[Club]:
        return selectors.clubs_visible_to(self.request.user).prefetch_related("memberships")

    def perform_create(self, serializer: BaseSerializer) -> None:
        club = services.club_create(
            name=serializer.validated_data["name"], user=requester(self.request)
        )
        serializer.instance = club

    @extend_schema(methods=["GET"], responses={200: s.MembershipSerializer(many=True)})
    @extend_schema(
        methods=["POST"],
        request=s.MemberRequestSerializer,
        responses={
            200: OpenApiResponse(s.MembershipSerializer, description="A member's new role."),
            202: OpenApiResponse(
                s.MemberInvitedSerializer,
                description=(
                    "Anyone else is invited: if the account exists, it sees a personal "
                    "invitation (`GET invitations/`) and joins by accepting it. The answer is the "
                    "same whether the account exists or not."
                ),
            ),
        },
    )
    @action(detail=True, methods=["get", "post"], serializer_class=s.MembershipSerializer)
    def members(self, request: Request, pk: str | None = None) -> Response:
        """List the members (any member); change a member's role, or invite a user (owners)."""
        club = self.get_object_for_read()
        if request.method == "GET":
            page = self.paginate_queryset(club.memberships.select_related("user"))
            return self.get_paginated_response(s.MembershipSerializer(page, many=True).data)
        self.require(club, MANAGING)
        incoming = s.MemberRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        username, role = incoming.validated_data["user"], incoming.validated_data["role"]
        member = club.memberships.select_related("user").filter(user__username=username).first()
        if member is not None:
            membership = services.membership_set(
                club=club,
                user=member.user,
                role=role,
                admit=lambda: self.require(club, MANAGING),
            )
            return Response(s.MembershipSerializer(membership).data)
        invitation_invite_user(club=club, username=username, role=role, by=requester(request))
        return Response({"role": role, "status": "invited"}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"members/(?P<username>[^/]+)")
    def remove_member(
        self, request: Request, pk: str | None = None, username: str = ""
    ) -> Response:
        """Remove a member (owners); a club keeps at least one owner."""
        club = self.get_object_for_read()
        self.require(club, MANAGING)
        membership = get_object_or_404(Membership, club=club, user__username=username)
        services.membership_remove(
            membership=membership, admit=lambda: self.require(club, MANAGING)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    def get_object_for_read(self) -> Club:
        club: Club = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        return club

    def require(self, club: Club, roles: frozenset[str]) -> None:
        if not can_write(self.request, club.pk, roles):
            raise exceptions.PermissionDenied()


class ClubScopedViewSet(
    ConditionalUpdateMixin,
    LocatedCreateMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """A club's roster or seasons: members read; ``write_roles`` create and edit."""

    permission_classes = [IsAuthenticated, ClubRole]
    filter_backends = [DjangoFilterBackend, OrderingFilter]
    write_roles: frozenset[str]

    def get_serializer_context(self) -> dict[str, Any]:
        context: dict[str, Any] = super().get_serializer_context()
        context["member_clubs"] = selectors.clubs_visible_to(self.request.user)
        return context

    def perform_save(self, serializer: BaseSerializer, field: str) -> None:
        try:
            with transaction.atomic():  # a savepoint: a refused insert breaks no outer transaction
                serializer.save()
        except IntegrityError:
            raise exceptions.ValidationError(
                {field: _("This name is already taken in this club.")}, code="unique"
            ) from None

    def perform_create(self, serializer: BaseSerializer) -> None:
        if not can_write(self.request, serializer.validated_data["club"].pk, self.write_roles):
            raise exceptions.PermissionDenied()
        self.perform_save(serializer, "name")

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            response: Response = super().update(request, *args, **kwargs)
        except IntegrityError:  # the change's transaction is rolled back whole
            raise exceptions.ValidationError(
                {"name": _("This name is already taken in this club.")}, code="unique"
            ) from None
        return response


@conditional_updates(s.PlayerSerializer)
class PlayerViewSet(ClubScopedViewSet):
    """Players on the rosters of your clubs; a player need not have a login."""

    etag_fields = ("name", "user_id")
    serializer_class = s.PlayerSerializer
    filterset_class = PlayerFilter
    ordering_fields = ["name", "created_at"]
    write_roles = SCOREKEEPING

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.players_visible_to(self.request.user)

    def get_serializer_class(self) -> type[BaseSerializer]:
        if self.action == "retrieve":
            return s.PlayerDetailSerializer
        return s.PlayerSerializer

    @extend_schema(responses={200: s.PlayerMatchSerializer(many=True)})
    @action(
        detail=True, methods=["get"], serializer_class=s.PlayerMatchSerializer, filter_backends=[]
    )
    def matches(self, request: Request, pk: str | None = None) -> Response:
        """The player's matches, newest first, with their total and whether they won."""
        page = self.paginate_queryset(standings.matches_of(player=self.get_object()))
        return self.get_paginated_response(s.PlayerMatchSerializer(page, many=True).data)


@conditional_updates(s.SeasonSerializer)
class SeasonViewSet(ClubScopedViewSet):
    """Seasons of your clubs; only owners create and edit them."""

    etag_fields = ("name", "starts_on", "ends_on")
    serializer_class = s.SeasonSerializer
    filterset_class = SeasonFilter
    ordering_fields = ["name", "starts_on", "created_at"]
    write_roles = MANAGING

    def get_queryset(self) -> QuerySet[Season]:
        return selectors.seasons_visible_to(self.request.user)


def season_of(club: Club, season_id: int | None) -> Season | None:
    """The club's season named in a request, or None; any other id is refused (400)."""
    if season_id is None:
        return None
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise errors.InvalidSetup("season_not_in_club", attr="season", season=season_id)
    return season


@extend_schema_view(
    create=extend_schema(request=s.MatchCreateSerializer, responses={201: s.MatchSerializer})
)
class MatchViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Matches of your clubs. Scorekeepers and owners start them."""

    serializer_class = s.MatchSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    filter_backends = [DjangoFilterBackend, OrderingFilter]
    filterset_class = MatchFilter
    ordering_fields = ["created_at", "finished_at", "hands_played"]

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.matches_visible_to(self.request.user)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = s.MatchCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        club_id = data.pop("club")
        club = selectors.clubs_visible_to(request.user).filter(pk=club_id).first()
        if club is None:
            raise errors.InvalidSetup("unknown_club", attr="club", club=club_id)
        if not can_write(request, club.pk):
            raise exceptions.PermissionDenied()
        match = services.match_create(club=club, user=requester(request), **data)
        match = self.get_queryset().get(pk=match.pk)
        return Response(
            s.MatchSerializer(match).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location(request, "match-detail", pk=match.pk)},
        )


RECORD_CONFLICT = error_response(
    "RecordConflict", ["match_finished", "idempotency_key_in_progress"]
)
KEY_REUSED = error_response("IdempotencyKeyReused", ["idempotency_key_reused"])
CORRECT_CONFLICT = error_response("CorrectionConflict", ["correction_ends_match_early"])
VOID_CONFLICT = error_response("VoidConflict", ["not_last_hand"])
PRECONDITION_REQUIRED = error_response("PreconditionRequired", ["precondition_required"])

IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The hand\'s ETag as last read, quoted as served (If-Match: "3"). A '
    "correction without it is refused (428); with an ETag that is no longer "
    "current, it is refused (412); a malformed header is a 400 (invalid_if_match).",
)
IF_MATCH_OPTIONAL = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional: the hand's ETag as last read, quoted as served; a stale one is "
    "refused (412), a malformed header is a 400 (invalid_if_match).",
)
MAX_IDEMPOTENCY_KEY = 255


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key, if any: 1 to 255 printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 0 < len(key) <= MAX_IDEMPOTENCY_KEY or not (key.isascii() and key.isprintable()):
        raise errors.InvalidIdempotencyKey(attr="Idempotency-Key", limit=MAX_IDEMPOTENCY_KEY)
    return key


def etag(version: int) -> str:
    """A hand's ETag: its version, which every correction, void and re-record moves on."""
    return f'"{version}"'


def fingerprint(data: Any) -> str:
    """A digest of a request body, to tell a retry from another request with the same key."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def version_from_if_match(request: Request, current: int) -> int | None:
    """The version If-Match names, if it names the current one (None for "*" or no header).

    Tags compare as served (matches/api/preconditions.py): a weak one or ``"01"`` never
    matches ``"1"``; a malformed header is a 400. Of several tags, any one naming the current
    version will do; otherwise the hand is stale (412).
    """
    if if_match_tags(request) is None:
        return None
    stale = errors.StaleHand(number=request.parser_context["kwargs"]["number"], version=current)
    require_current(request, f'"{current}"', stale)
    return current


ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    response=[200, 201],
    description='The hand\'s version as a strong ETag, quoted: `"3"`. Send it back as it is '
    "in If-Match to correct or void the hand.",
)
REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[201],
    enum=["true"],
    description="`true` when this is the first answer to an earlier request "
    "with the same Idempotency-Key, sent again; absent otherwise.",
)
IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key and body returns the first answer and records "
    "nothing new; the same key with another body is refused (422).",
)


class MatchHandsMixin(GenericAPIView):
    """Finds the match in the URL among the requester's clubs (404 otherwise)."""

    permission_classes = [IsAuthenticated, ClubRole]
    write_roles = SCOREKEEPING
    queryset = Hand.objects.none()  # for the schema: the real rows come from the match

    def get_match_id(self) -> int:
        """The id of the match in the URL, once the requester's role allows the request."""
        access = selectors.match_access(self.request.user, self.kwargs["match_pk"])
        self.admit(access)
        return int(self.kwargs["match_pk"])

    def admit(self, access: selectors.MatchAccess | None) -> None:
        """404 if the match is not the requester's to see, 403 if their role may not do this."""
        if access is None:
            raise exceptions.NotFound()
        self.check_object_permissions(self.request, access)


class HandListView(MatchHandsMixin):
    """The hands of a match (GET) and recording the next one (POST)."""

    serializer_class = s.HandSerializer

    @extend_schema(responses={200: s.HandSerializer(many=True)})
    def get(self, request: Request, match_pk: int) -> Response:
        match_id = self.get_match_id()
        page = self.paginate_queryset(selectors.hands_of(match_id))
        return self.get_paginated_response(
            [presenters.hand_only(hands.from_hand(hand)) for hand in page or []]
        )

    @extend_schema(
        request=s.HandInputSerializer,
        responses={201: s.HandWithMatchSerializer, 409: RECORD_CONFLICT, 422: KEY_REUSED},
        parameters=[IDEMPOTENCY_HEADER, ETAG, REPLAYED],
    )
    def post(self, request: Request, match_pk: int) -> Response:
        match_id = self.get_match_id()  # before the body or the key is read: 404 for outsiders
        incoming = s.HandInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        key = idempotency_key(request)
        recorded = services.hand_record(
            match_id=match_id,
            user=requester(request),
            entry=incoming.to_entry(),
            idempotency_key=key,
            fingerprint="" if key is None else fingerprint(request.data),
        )
        response = Response(
            presenters.hand_with_match(recorded),
            status=status.HTTP_201_CREATED,
            headers={"ETag": etag(recorded.version)},
        )
        if recorded.replayed:
            response["Idempotent-Replayed"] = "true"
        response["Location"] = location(
            request, "hand-detail", match_pk=match_id, number=recorded.number
        )
        return response


class HandDetailView(MatchHandsMixin):
    """One hand: read it, correct it (every correction is kept), or void it if it is the last."""

    serializer_class = s.HandWithMatchSerializer

    def get_hand(self, match_id: int, number: int) -> Hand:
        hand: Hand = get_object_or_404(selectors.hands_of(match_id), number=number)
        return hand

    def get_object(self) -> Hand:
        """The hand in the URL (DRF's OPTIONS describes PUT with it)."""
        return self.get_hand(self.get_match_id(), self.kwargs["number"])

    def current_version(self, match_id: int, number: int) -> int:
        """The hand's version, 404 if it does not exist; the service checks it again, locked."""
        version = (
            Hand.objects.filter(match_id=match_id, number=number)
            .values_list("version", flat=True)
            .first()
        )
        if version is None:
            raise exceptions.NotFound()
        return version

    @extend_schema(parameters=[ETAG])
    def get(self, request: Request, match_pk: int, number: int) -> Response:
        hand = self.get_hand(self.get_match_id(), number)
        return Response(
            presenters.hand_with_match(hands.from_hand(hand)), headers={"ETag": etag(hand.version)}
        )

    @extend_schema(
        request=s.HandCorrectionSerializer,
        responses={
            200: s.CorrectedHandSerializer,
            409: CORRECT_CONFLICT,
            412: STALE,
            428: PRECONDITION_REQUIRED,
        },
        parameters=[IF_MATCH_HEADER, ETAG],
    )
    def put(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()
        current = self.current_version(match_id, number)
        if "If-Match" not in request.headers:
            raise errors.PreconditionRequired()
        expected = version_from_if_match(request, current)
        incoming = s.HandCorrectionSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        corrected, impact = services.hand_correct(
            match_id=match_id,
            number=number,
            entry=incoming.to_entry(),
            user=requester(request),
            reason=incoming.validated_data["reason"],
            expected_version=expected,
        )
        body = {**presenters.hand_with_match(corrected), "impact": s.ImpactSerializer(impact).data}
        return Response(body, headers={"ETag": etag(corrected.version)})

    @extend_schema(
        responses={204: None, 409: VOID_CONFLICT, 412: STALE},
        parameters=[s.VoidQuerySerializer, IF_MATCH_OPTIONAL],
    )
    def delete(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()
        current = self.current_version(match_id, number)
        query = s.VoidQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        services.hand_void(
            match_id=match_id,
            number=number,
            user=requester(request),
            reason=query.validated_data["reason"],
            expected_version=version_from_if_match(request, current),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class HandRevisionsView(MatchHandsMixin):
    """Every version of a hand, oldest first, including voided ones."""

    serializer_class = s.RevisionSerializer

    @extend_schema(responses={200: s.RevisionSerializer(many=True)})
    def get(self, request: Request, match_pk: int, number: int) -> Response:
        revisions = selectors.revisions_of(self.get_match_id(), number)
        if not revisions.exists():
            raise exceptions.NotFound()
        page = self.paginate_queryset(revisions)
        return self.get_paginated_response(s.RevisionSerializer(page, many=True).data)


class CSVErrorsAsJSON(GenericAPIView):
    """Errors of a view that offers CSV leave in the JSON envelope, like every other error.

    So does anything else that is not a table, such as the description an OPTIONS request gets.
    """

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        table = isinstance(getattr(response, "data", None), list)
        not_a_table = response.status_code >= 400 or not table
        if not_a_table and isinstance(getattr(request, "accepted_renderer", None), CSVRenderer):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        result: Response = super().finalize_response(request, response, *args, **kwargs)
        return result


DEFAULT_QUERY = s.StandingsQuerySerializer.defaults()
# The decimal columns of a table, which JSON writes as floats.
DECIMALS = [
    name for name, field in s.StandingSerializer().fields.items() if isinstance(field, DecimalField)
]


TABLE_DESCRIPTION = (
    "One row per player, best first. As JSON, a list of rows; as CSV (`Accept: text/csv` or "
    "`?format=csv`), text: UTF-8 with a byte-order mark, a header row, then one line per "
    "player, with these columns in this order: "
    + ", ".join(f"`{name}`" for name in s.StandingSerializer().fields)
    + ". A cell that a spreadsheet would run as a formula starts with `'`."
)


def standings_schema(query: type[s.StandingsQuerySerializer]) -> Any:
    """The standings' query and their two forms: JSON rows, or CSV text."""
    return extend_schema(
        parameters=[query],
        responses={
            (200, "application/json"): OpenApiResponse(
                s.StandingSerializer(many=True), description=TABLE_DESCRIPTION
            ),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=TABLE_DESCRIPTION),
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
        return self.answer(
            standings.standings_for_season(
                season=season,
                date_from=query.get("from"),
                date_to=query.get("to"),
                ordering=query["ordering"],
                ruleset=query["ruleset"],
            )
        )


class AsCSV(StandingsView):
    """The same table, always as CSV text: one operation a generated client reads as text."""

    renderer_classes = [CSVRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return CSVRenderer(), CSVRenderer.media_type


def csv_schema(query: type[s.StandingsQuerySerializer]) -> Any:
    return extend_schema(
        parameters=[query],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=TABLE_DESCRIPTION),
        },
    )


@csv_schema(s.ClubStandingsQuerySerializer)
class ClubStandingsCSVView(AsCSV, ClubStandingsView):
    """A club's standings as CSV (``Accept: text/csv`` on the table's URL does the same)."""


@csv_schema(s.StandingsQuerySerializer)
class SeasonStandingsCSVView(AsCSV, SeasonStandingsView):
    """A season's standings as CSV (``Accept: text/csv`` on the table's URL does the same)."""

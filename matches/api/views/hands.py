"""A match's hands: record the next one, read, correct or void one, and its revisions."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView, get_object_or_404  # 404 for clubs/abc/
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from matches import confirmations, errors, hands, selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.filters import HandFilter
from matches.api.permissions import SCOREKEEPING, ClubRole, requester
from matches.api.serializers import hands as s
from matches.api.views.base import location
from matches.models import Hand, Role
from matches.services import corrections as correction_services
from matches.services import hands as hand_services

RECORD_CONFLICT = error_response(
    "RecordConflict",
    [
        "match_finished",
        "idempotency_key_in_progress",
        "hand_already_recorded",
        "hand_number_not_next",
        "live_hand_in_progress",
        "game_not_installed",
    ],
    extra={
        "recorded": s.HandSerializer(
            required=False, help_text="`hand_already_recorded`: the hand as recorded."
        ),
        "differences": s.DifferencesSerializer(
            required=False, help_text="`hand_already_recorded`: what your entry changes."
        ),
    },
)
CONFIRM_CONFLICT = error_response("ConfirmConflict", ["confirmation_by_recorder"])
CORRECT_CONFLICT = error_response(
    "CorrectionConflict", ["correction_ends_match_early", "game_not_installed"]
)
VOID_CONFLICT = error_response("VoidConflict", ["not_last_hand", "game_not_installed"])


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
    filterset_class = HandFilter  # ?updated_after=

    @extend_schema(responses={200: s.HandSerializer(many=True)})
    def get(self, request: Request, match_pk: int) -> Response:
        match_id = self.get_match_id()
        page = self.paginate_queryset(self.filter_queryset(selectors.hands_of(match_id)))
        return self.get_paginated_response(
            [hands.from_hand(hand).to_json(with_match=False) for hand in page or []]
        )

    @extend_schema(
        request=s.HandInputSerializer,
        responses={
            201: s.HandWithMatchSerializer,
            200: OpenApiResponse(
                s.HandWithMatchSerializer,
                description="`number` was already recorded with the same hand: the hand as "
                "recorded, nothing new written (a confirmation when from another user or "
                "device).",
            ),
            409: RECORD_CONFLICT,
            422: http.KEY_REUSED,
        },
        parameters=[http.IDEMPOTENCY_KEY, http.ETAG, http.REPLAYED_ANSWER],
    )
    def post(self, request: Request, match_pk: int) -> Response:
        match_id = self.get_match_id()  # before the body or the key is read: 404 for outsiders
        incoming = s.HandInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        key = http.idempotency_key(request)
        recorded = hand_services.hand_record(
            match_id=match_id,
            user=requester(request),
            entry=incoming.to_entry(),
            number=incoming.validated_data.get("number"),
            device=http.device(request),
            idempotency_key=key,
            fingerprint="" if key is None else http.fingerprint(request.data),
            roles=self.write_roles,  # read again under the match's lock
        )
        body = recorded.to_json()
        response = Response(
            body,
            status=status.HTTP_200_OK if recorded.agreed else status.HTTP_201_CREATED,
            headers={"ETag": http.hand_etag(recorded.version, body)},
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

    def stale(self, number: int, current: int) -> errors.PreconditionFailed:
        return errors.PreconditionFailed("hand", number=number, version=current)

    @extend_schema(
        parameters=[http.ETAG, http.IF_NONE_MATCH_HAND],
        responses={
            200: s.HandWithMatchSerializer,
            304: OpenApiResponse(description="Not modified."),
        },
    )
    def get(self, request: Request, match_pk: int, number: int) -> Response:
        hand = self.get_hand(self.get_match_id(), number)
        body = hands.from_hand(hand).to_json()
        tag = http.hand_etag(hand.version, body)
        if http.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        return Response(body, headers={"ETag": tag})

    @extend_schema(
        request=s.HandCorrectionSerializer,
        responses={
            200: s.CorrectedHandSerializer,
            409: CORRECT_CONFLICT,
            412: http.STALE,
            428: http.PRECONDITION_REQUIRED,
        },
        parameters=[http.IF_MATCH_HAND, http.ETAG],
    )
    def put(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()
        current = self.current_version(match_id, number)
        if "If-Match" not in request.headers:
            raise errors.PreconditionRequired("hand")
        expected = http.version_from_if_match(request, current, self.stale(number, current))
        incoming = s.HandCorrectionSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        corrected, impact = correction_services.hand_correct(
            match_id=match_id,
            number=number,
            entry=incoming.to_entry(),
            user=requester(request),
            reason=incoming.validated_data["reason"],
            expected_version=expected,
            device=http.device(request),
            roles=self.write_roles,  # read again under the match's lock
        )
        hand = corrected.to_json()
        body = {**hand, "impact": s.ImpactSerializer(impact).data}
        # the hand's tag, as a read of it answers (the impact is this answer's alone), so that
        # polling with it gets 304 while the hand stays as corrected
        return Response(body, headers={"ETag": http.hand_etag(corrected.version, hand)})

    @extend_schema(
        responses={204: None, 409: VOID_CONFLICT, 412: http.STALE},
        parameters=[s.VoidQuerySerializer, http.IF_MATCH_HAND_OPTIONAL],
    )
    def delete(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()
        current = self.current_version(match_id, number)
        query = s.VoidQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        correction_services.hand_void(
            match_id=match_id,
            number=number,
            user=requester(request),
            reason=query.validated_data["reason"],
            expected_version=http.version_from_if_match(
                request, current, self.stale(number, current)
            ),
            roles=self.write_roles,  # read again under the match's lock
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


class HandConfirmationsView(MatchHandsMixin):
    """Confirm a hand as it stands: any member but the author of its current version."""

    serializer_class = s.HandWithMatchSerializer
    write_roles = frozenset(Role.values)  # the players at a table are often viewers

    @extend_schema(
        request=None,
        responses={
            201: s.HandWithMatchSerializer,
            200: OpenApiResponse(
                s.HandWithMatchSerializer, description="You had already confirmed this version."
            ),
            409: CONFIRM_CONFLICT,
            412: http.STALE,
        },
        parameters=[http.IF_MATCH_HAND_OPTIONAL, http.ETAG],
    )
    def post(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()
        current = (
            Hand.objects.filter(match_id=match_id, number=number)
            .values_list("version", flat=True)
            .first()
        )
        if current is None:
            raise exceptions.NotFound()
        stale = errors.PreconditionFailed("hand", number=number, version=current)
        hand, created = confirmations.hand_confirm(
            match_id=match_id,
            number=number,
            user=requester(request),
            device=http.device(request),
            expected_version=http.version_from_if_match(request, current, stale),
            roles=self.write_roles,  # a member still, under the match's lock
        )
        body = hand.to_json()
        return Response(
            body,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            headers={  # a confirmation is read as its hand: Location, as on every 201
                "ETag": http.hand_etag(hand.version, body),
                "Location": location(request, "hand-detail", match_pk=match_id, number=number),
            },
        )

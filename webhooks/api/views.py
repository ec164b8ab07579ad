"""API views of the event feed and the webhooks; each delegates to a service or a query.

Any member of a club reads its feed; its owners manage its webhooks. Other clubs' are 404.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.idempotency import answer_once
from matches import selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.permissions import MANAGING, member_club, requester
from matches.models import Club, Event
from webhooks import services
from webhooks.api import serializers as s
from webhooks.models import Delivery, Endpoint

DISABLED = error_response("WebhookDisabled", ["webhook_disabled"])
DUPLICATE = error_response("WebhookDuplicate", ["webhook_duplicate"])
CONFLICTS = error_response(
    "WebhookConflict",
    ["webhook_duplicate", "webhook_limit_reached", "idempotency_key_in_progress"],
)
REDELIVER_CONFLICT = error_response(
    "RedeliverConflict", ["webhook_disabled", "delivery_in_progress"]
)


class OwnersOnly(BasePermission):
    """A member who is not an owner is refused (403); an outsider meets the view's 404."""

    def has_permission(self, request: Request, view: Any) -> bool:
        role = selectors.role_in(request.user, view.kwargs["pk"])
        return role is None or role in MANAGING


OWNERS = [IsAuthenticated, OwnersOnly]


class OnOneWebhook(GenericAPIView):
    """A view of one webhook or delivery: one deleted by another request while this one ran
    (a service finding its row gone) is not found, as it would be a moment later."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ObjectDoesNotExist):
            exc = exceptions.NotFound()
        return super().handle_exception(exc)


def _endpoint(request: Request, club_id: int, endpoint_id: int) -> Endpoint:
    club = member_club(request, club_id, MANAGING)
    endpoint = Endpoint.objects.filter(club=club, pk=endpoint_id).first()
    if endpoint is None:
        raise exceptions.NotFound()
    return endpoint


class EventFeedView(GenericAPIView):
    """The club's events in the order they became visible, a page at a time after the cursor
    ``after`` (a position)."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.FeedSerializer
    queryset = Event.objects.none()
    pagination_class = None

    @extend_schema(summary="Read the club's event feed", parameters=[s.FeedQuerySerializer])
    def get(self, request: Request, pk: int) -> Response:
        club = member_club(request, pk)
        query = s.FeedQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        kept = timezone.now() - timedelta(days=settings.EVENTS_KEPT_DAYS)
        page = list(
            Event.objects.filter(club=club, position__gt=after, created_at__gte=kept).order_by(
                "position"
            )[:limit]
        )
        following = None
        if len(page) == limit:
            url = reverse("club-events", kwargs={"pk": club.pk})
            following = request.build_absolute_uri(f"{url}?after={page[-1].position}&limit={limit}")
        return Response({"results": s.EventSerializer(page, many=True).data, "next": following})


class EndpointListView(GenericAPIView):
    """A club's webhooks (owners): list them, or register one."""

    permission_classes = OWNERS
    serializer_class = s.EndpointSerializer
    queryset = Endpoint.objects.none()

    @extend_schema(
        summary="List the club's webhooks", responses={200: s.EndpointSerializer(many=True)}
    )
    def get(self, request: Request, pk: int) -> Response:
        club = member_club(request, pk, MANAGING)
        page = self.paginate_queryset(Endpoint.objects.filter(club=club))
        return self.get_paginated_response(s.EndpointSerializer(page, many=True).data)

    @extend_schema(
        summary="Register a webhook",
        request=s.EndpointCreateSerializer,
        responses={
            201: OpenApiResponse(
                s.EndpointWithSecretSerializer, description="The endpoint, with its secret."
            ),
            409: CONFLICTS,
            422: http.KEY_REUSED,
        },
        parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED],
    )
    def post(self, request: Request, pk: int) -> Response:
        checked: dict[str, Any] = {}

        def prepare() -> None:
            # after a replay is looked for, before the key's transaction opens: the URL's host
            # is looked up holding nothing (on SQLite, every table's writes)
            club = member_club(request, pk, MANAGING)
            incoming = s.EndpointCreateSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            services.check_target(incoming.validated_data["url"])
            checked.update(club=club, data=incoming.validated_data)

        return answer_once(
            request=request,
            user=requester(request),
            create=lambda: self._register(request, checked["club"], checked["data"]),
            prepare=prepare,
        )

    def _register(self, request: Request, club: Club, data: dict[str, Any]) -> Response:
        endpoint = services.endpoint_create(club=club, **data)
        return Response(
            s.EndpointWithSecretSerializer(endpoint).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": request.build_absolute_uri(
                    reverse("webhook-detail", kwargs={"pk": club.pk, "webhook_pk": endpoint.pk})
                )
            },
        )


class EndpointDetailView(OnOneWebhook):
    """One webhook (owners): read, change, delete it."""

    permission_classes = OWNERS
    serializer_class = s.EndpointSerializer
    queryset = Endpoint.objects.none()

    @extend_schema(summary="Read a webhook")
    def get(self, request: Request, pk: int, webhook_pk: int) -> Response:
        return Response(s.EndpointSerializer(_endpoint(request, pk, webhook_pk)).data)

    @extend_schema(
        summary="Change a webhook",
        request=s.EndpointUpdateSerializer,
        responses={200: s.EndpointSerializer, 409: DUPLICATE},
    )
    def patch(self, request: Request, pk: int, webhook_pk: int) -> Response:
        endpoint = _endpoint(request, pk, webhook_pk)
        incoming = s.EndpointUpdateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        if "url" in incoming.validated_data:  # looked up before the change's transaction
            services.check_target(incoming.validated_data["url"])
        changed = services.endpoint_update(endpoint=endpoint, changes=incoming.validated_data)
        return Response(s.EndpointSerializer(changed).data)

    @extend_schema(summary="Delete a webhook", responses={204: None})
    def delete(self, request: Request, pk: int, webhook_pk: int) -> Response:
        services.endpoint_delete(endpoint=_endpoint(request, pk, webhook_pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SecretRotateView(OnOneWebhook):
    """A new signing secret for a webhook (owners); the old one still signs, beside it, for
    ``overlap_seconds`` (24 hours unless the body says otherwise)."""

    permission_classes = OWNERS
    serializer_class = s.EndpointRotatedSerializer
    queryset = Endpoint.objects.none()

    @extend_schema(summary="Rotate a webhook's secret", request=s.RotateSerializer)
    def post(self, request: Request, pk: int, webhook_pk: int) -> Response:
        endpoint = _endpoint(request, pk, webhook_pk)
        incoming = s.RotateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        overlap = timedelta(seconds=incoming.validated_data["overlap_seconds"])
        rotated = services.secret_rotate(endpoint=endpoint, overlap=overlap)
        return Response(s.EndpointRotatedSerializer(rotated).data)


def _queued(delivery: Delivery) -> Response:
    return Response(s.DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


QUEUED: dict[int | str, Any] = {
    202: OpenApiResponse(s.DeliverySerializer, description="Queued for the worker."),
    409: DISABLED,
}


class TestSendView(OnOneWebhook):
    """Queue a ``webhook.test`` message to a webhook (owners)."""

    permission_classes = OWNERS
    serializer_class = s.DeliverySerializer
    queryset = Endpoint.objects.none()

    @extend_schema(summary="Send a test message to a webhook", request=None, responses=QUEUED)
    def post(self, request: Request, pk: int, webhook_pk: int) -> Response:
        return _queued(services.test_send(endpoint=_endpoint(request, pk, webhook_pk)))


class DeliveryListView(GenericAPIView):
    """A webhook's deliveries, newest first (owners): each one's attempts and last answer."""

    permission_classes = OWNERS
    serializer_class = s.DeliverySerializer
    queryset = Delivery.objects.none()

    @extend_schema(
        summary="List a webhook's deliveries",
        responses={200: s.DeliverySerializer(many=True)},
        parameters=[s.DeliveryQuerySerializer],
    )
    def get(self, request: Request, pk: int, webhook_pk: int) -> Response:
        endpoint = _endpoint(request, pk, webhook_pk)
        query = s.DeliveryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        deliveries = endpoint.deliveries.prefetch_related("history")
        if "status" in query.validated_data:
            deliveries = deliveries.filter(status=query.validated_data["status"])
        page = self.paginate_queryset(deliveries)
        return self.get_paginated_response(s.DeliverySerializer(page, many=True).data)


class RedeliverView(OnOneWebhook):
    """Send a delivery again (owners), with the same webhook-id."""

    permission_classes = OWNERS
    serializer_class = s.DeliverySerializer
    queryset = Delivery.objects.none()

    @extend_schema(
        summary="Redeliver a message",
        request=None,
        responses={**QUEUED, 409: REDELIVER_CONFLICT},
    )
    def post(self, request: Request, pk: int, webhook_pk: int, delivery_pk: int) -> Response:
        endpoint = _endpoint(request, pk, webhook_pk)
        delivery = endpoint.deliveries.filter(pk=delivery_pk).first()
        if delivery is None:
            raise exceptions.NotFound()
        return _queued(services.redeliver(delivery=delivery))

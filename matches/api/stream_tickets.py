"""``POST matches/{id}/live/stream-ticket/``: a URL for the live stream that needs no header.

A browser's ``EventSource`` cannot send ``Authorization``, and a token in a URL would be kept
in logs and histories. So a member asks, authenticated as usual, for a ticket: signed with
SECRET_KEY, it names the member and the one match, and it expires after ``TICKET_SECONDS``.
The stream (``matches.api.live_stream``) admits a request that carries a valid ticket for its
match as that member, whose access is checked again then.
"""

from __future__ import annotations

from datetime import timedelta
from typing import cast
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.core import signing
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from matches import selectors
from matches.models import LiveHand

TICKET_SECONDS = 60
SALT = "arlington.live-stream-ticket"


def issue(*, user_id: int, match_id: int) -> str:
    """A ticket for the user to watch the match's stream for TICKET_SECONDS."""
    return signing.dumps([user_id, match_id], salt=SALT)


def holder(ticket: str, match_id: int) -> User | None:
    """The active user a ticket was issued to, if it is genuine, unexpired and for this match."""
    try:
        user_id, ticket_match = signing.loads(ticket, salt=SALT, max_age=TICKET_SECONDS)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if ticket_match != match_id:
        return None
    return User.objects.filter(pk=user_id, is_active=True).first()


class StreamTicketSerializer(serializers.Serializer):
    url = serializers.URLField(
        help_text="The live stream's URL with the ticket: open it with EventSource, no header "
        "needed."
    )
    expires_at = serializers.DateTimeField(
        help_text="Until when the URL admits a new connection (a minute from now)."
    )


class StreamTicketView(GenericAPIView):
    """A ticket to follow the match's live stream without sending Authorization."""

    permission_classes = [IsAuthenticated]
    serializer_class = StreamTicketSerializer
    queryset = LiveHand.objects.none()

    @extend_schema(request=None, responses={201: StreamTicketSerializer})
    def post(self, request: Request, match_pk: int) -> Response:
        user = cast(User, request.user)  # IsAuthenticated admitted a signed-in user
        if selectors.match_access(user, match_pk) is None:
            raise exceptions.NotFound()
        ticket = issue(user_id=user.pk, match_id=match_pk)
        stream = reverse("live-stream", kwargs={"match_pk": match_pk})
        url = request.build_absolute_uri(f"{stream}?{urlencode({'ticket': ticket})}")
        body = {"url": url, "expires_at": timezone.now() + timedelta(seconds=TICKET_SECONDS)}
        return Response(  # the ticket is reached at its stream URL: Location, as on every 201
            StreamTicketSerializer(body).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": url},
        )

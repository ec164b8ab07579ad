"""The live table API: a hand played event by event on a match (thin views over matches.live)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from matches import live, selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.permissions import SCOREKEEPING, ClubRole, requester
from matches.api.serializers import hands as hand_serializers
from matches.api.serializers.hands import HandWithMatchSerializer
from matches.api.views.base import location
from matches.models import LiveHand
from scoring.api.fields import CardField, CardListField, MeldField
from scoring.violations import CATALOGUES

# --- input ------------------------------------------------------------------------------


class LiveStartSerializer(serializers.Serializer):
    turned_up = CardField(help_text="The card turned up to start the discard pile.")


class _PlayerEvent(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id (a seated player).")


class DrawEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(choices=["draw"])
    card = CardField(required=False, help_text="Only when known: drawn from a turned-over stock.")


class TakePileEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(choices=["take_pile"])
    meld = MeldField(min_length=1, help_text="The new meld: the top discard and 2+ from hand.")


class TakeDiscardEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(
        choices=["take_discard"],
        help_text="Rummy's start of a turn: the top discard alone, into the hand.",
    )


class PassEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(
        choices=["pass"],
        help_text="End the turn without discarding: only holding nothing but cards that may "
        "never be discarded (Arlington's queens of spades) that no meld can take.",
    )


class MeldEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(choices=["meld"])
    cards = MeldField(min_length=1)


class ExtendEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(choices=["extend"])
    meld = serializers.IntegerField(min_value=0, help_text="The meld's index in the state.")
    cards = MeldField(min_length=1)


class DiscardEventSerializer(_PlayerEvent):
    type = serializers.ChoiceField(choices=["discard"])
    card = CardField()


class FinishEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["finish"])
    held = serializers.DictField(
        child=CardListField(), help_text='Cards left in each player\'s hand: {"21": ["2D"]}.'
    )

    def validate_held(self, value: dict[str, Any]) -> dict[str, Any]:
        for key in value:
            if not (str(key).isascii() and str(key).isdigit()):
                raise serializers.ValidationError(
                    gettext("{key} is not a player id.").format(key=key), code="invalid"
                )
        return value


EVENTS: dict[str, type[serializers.Serializer]] = {
    "draw": DrawEventSerializer,
    "take_pile": TakePileEventSerializer,
    "take_discard": TakeDiscardEventSerializer,
    "meld": MeldEventSerializer,
    "extend": ExtendEventSerializer,
    "discard": DiscardEventSerializer,
    "pass": PassEventSerializer,
    "finish": FinishEventSerializer,
}
EVENT_SCHEMA = PolymorphicProxySerializer(
    component_name="LiveEvent", serializers=dict(EVENTS), resource_type_field_name="type"
)  # by type: the discriminator maps every event type to its body


def read_event(data: Any) -> dict[str, Any]:
    """The event in canonical form (cards in canonical notation), or a 400 naming the field."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in EVENTS:
        raise serializers.ValidationError(
            {
                "type": [
                    serializers.ErrorDetail(
                        gettext("The event type must be one of: {types}.").format(
                            types=", ".join(EVENTS)
                        ),
                        code="invalid_choice",
                    )
                ]
            }
        )
    incoming = EVENTS[kind](data=data)
    incoming.is_valid(raise_exception=True)
    values = dict(incoming.validated_data)
    canonical: dict[str, Any] = {"type": kind}
    if "player" in values:
        canonical["player"] = values["player"]
    if kind == "finish":
        canonical["held"] = {
            str(int(k)): [c.code for c in cards] for k, cards in values["held"].items()
        }
    for name in ("meld", "cards"):
        if name in values:
            value = values[name]
            canonical[name] = value if isinstance(value, int) else [c.code for c in value]
    if "card" in values:
        canonical["card"] = values["card"].code
    return canonical


# --- output (the schema) ------------------------------------------------------------------


class LiveMeldSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    owner = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())


class LiveStateSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    hand = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=["draw", "play", "ended"])
    stock = serializers.IntegerField()
    stock_known = serializers.ListField(child=serializers.CharField())
    discards = serializers.ListField(child=serializers.CharField(), help_text="Bottom to top.")
    melds = LiveMeldSerializer(many=True)
    hand_sizes = serializers.DictField(child=serializers.IntegerField())
    known_in_hand = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField())
    )
    ending = serializers.ChoiceField(choices=["went_out", "stock_exhausted"], allow_null=True)
    went_out = serializers.IntegerField(allow_null=True)
    events = serializers.IntegerField()


class LiveLogEventSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    data = serializers.JSONField()  # type: ignore[assignment]
    undone = serializers.BooleanField()
    by = serializers.CharField(source="by.username")
    at = serializers.DateTimeField()


class LiveLogSerializer(serializers.Serializer):
    hand = serializers.IntegerField(source="number")
    dealer = serializers.IntegerField(source="dealer_id")
    turned_up = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    state = LiveStateSerializer()
    events = LiveLogEventSerializer(many=True, source="ordered_events")


# The rules' violations of a refused event; the live hand overtaken by a hand recorded or voided
# on paper meanwhile; a finish whose hand was recorded meanwhile with other cards.
EVENT_REFUSED = error_response(
    "EventRefused",
    sorted(
        {code.value for codes in CATALOGUES for code in codes}
        | {"live_hand_overtaken", "hand_already_recorded"}
    ),
    extra={
        "recorded": hand_serializers.HandSerializer(
            required=False, help_text="`hand_already_recorded`: the hand as recorded."
        ),
        "differences": hand_serializers.DifferencesSerializer(
            required=False, help_text="`hand_already_recorded`: what your entry changes."
        ),
    },
)
START_CONFLICT = error_response(
    "LiveStartConflict",
    [
        "match_finished",
        "live_hand_in_progress",
        "hand_draft_in_progress",
        "live_ruleset_unsupported",
        "game_not_installed",
    ],
)
UNDO_CONFLICT = error_response("UndoConflict", ["nothing_to_undo"])


# --- views --------------------------------------------------------------------------------


class LiveMixin(GenericAPIView):
    """Finds the match in the URL among the requester's clubs (404) and checks the role (403)."""

    permission_classes = [IsAuthenticated, ClubRole]
    write_roles = SCOREKEEPING
    queryset = LiveHand.objects.none()
    schema = http.HeaderSchema()  # every live operation reads If-Match or If-None-Match
    serializer_class = LiveStateSerializer

    def handle_exception(self, exc: Exception) -> Response:
        """No live hand in play (or no log for that hand) is a 404, like any unknown object."""
        if isinstance(exc, ObjectDoesNotExist):
            exc = exceptions.NotFound()
        return super().handle_exception(exc)

    def admit(self) -> int:
        access = selectors.match_access(self.request.user, self.kwargs["match_pk"])
        if access is None:
            raise exceptions.NotFound()
        self.check_object_permissions(self.request, access)
        return int(self.kwargs["match_pk"])


class LiveView(LiveMixin):
    """The match's live hand: start it, read its state, or abandon it."""

    @extend_schema(
        responses={
            200: LiveStateSerializer,
            304: OpenApiResponse(description="Not modified."),
        },
        parameters=[http.IF_NONE_MATCH, http.ETAG_LIVE],
    )
    def get(self, request: Request, match_pk: int) -> Response:
        current = live.live_in_play(self.admit())
        tag = live.etag(current)
        if http.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        return Response(current.state, headers={"ETag": tag, "Cache-Control": "no-cache"})

    @extend_schema(
        request=LiveStartSerializer,
        responses={201: LiveStateSerializer, 409: START_CONFLICT},
        parameters=[http.ETAG_LIVE],
    )
    def post(self, request: Request, match_pk: int) -> Response:
        match_id = self.admit()
        incoming = LiveStartSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        started = live.live_start(
            match_id=match_id,
            user=requester(request),
            turned_up=incoming.validated_data["turned_up"],
            roles=self.write_roles,  # read again under the match's lock
        )
        where = request.build_absolute_uri(reverse("live", kwargs={"match_pk": match_id}))
        return Response(  # the live hand is read at this URL: Location, as on every 201
            started.state,
            status=status.HTTP_201_CREATED,
            headers={"ETag": live.etag(started), "Location": where},
        )

    @extend_schema(responses={204: None, 412: http.STALE}, parameters=[http.IF_MATCH_LIVE_OPTIONAL])
    def delete(self, request: Request, match_pk: int) -> Response:
        live.live_abandon(
            match_id=self.admit(),
            if_match=http.if_match_value(request),
            user=requester(request),
            roles=self.write_roles,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class LiveEventsView(LiveMixin):
    """Append one event to the live hand; ``finish`` records the hand and answers it."""

    @extend_schema(
        request=EVENT_SCHEMA,
        responses={
            200: LiveStateSerializer,
            201: HandWithMatchSerializer,
            409: EVENT_REFUSED,
            412: http.STALE,
            422: http.KEY_REUSED,
            428: http.PRECONDITION_REQUIRED,
        },
        parameters=[
            http.IF_MATCH_LIVE,
            http.IDEMPOTENCY_KEY_LIVE,
            http.ETAG_LIVE,
            http.REPLAYED_ANSWER,
        ],
    )
    def post(self, request: Request, match_pk: int) -> Response:
        match_id = self.admit()
        data = read_event(request.data)
        answer = live.live_append(
            match_id=match_id,
            data=data,
            user=requester(request),
            if_match=http.if_match_value(request),
            idempotency_key=http.idempotency_key(request),
            device=http.device(request),
            roles=self.write_roles,
        )
        response = Response(answer.body, status=answer.status)
        if answer.replayed:
            response["Idempotent-Replayed"] = "true"
        if data["type"] == "finish":
            # the answer is the recorded hand, first time or replayed: its ETag and URL, as
            # POST hands/ gives them
            response["ETag"] = http.hand_etag(answer.body["version"], answer.body)
            response["Location"] = location(
                request, "hand-detail", match_pk=match_id, number=answer.body["number"]
            )
        elif answer.etag is not None:
            response["ETag"] = answer.etag
        return response


class LiveLastEventView(LiveMixin):
    """Undo the live hand's last accepted event (it stays in the log, marked undone)."""

    @extend_schema(
        responses={
            200: LiveStateSerializer,
            409: UNDO_CONFLICT,
            412: http.STALE,
            428: http.PRECONDITION_REQUIRED,
        },
        parameters=[http.IF_MATCH_LIVE, http.ETAG_LIVE],
    )
    def delete(self, request: Request, match_pk: int) -> Response:
        current = live.live_undo(
            match_id=self.admit(),
            if_match=http.if_match_value(request),
            user=requester(request),
            roles=self.write_roles,
        )
        return Response(current.state, headers={"ETag": live.etag(current)})


class LiveLogView(LiveMixin):
    """The event log of a hand that was played live, attached to the recorded hand."""

    serializer_class = LiveLogSerializer  # type: ignore[assignment]

    def get(self, request: Request, match_pk: int, number: int) -> Response:
        played = live.live_of_hand(self.admit(), number)
        played.ordered_events = sorted(played.events.all(), key=lambda e: e.sequence)  # type: ignore[attr-defined]
        return Response(LiveLogSerializer(played).data)

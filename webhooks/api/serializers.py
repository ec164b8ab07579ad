"""Shapes of webhook endpoints, deliveries and the event feed; they translate, never decide."""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.models import Event, EventType
from matches.selectors import LARGEST_ID
from webhooks.models import Attempt, Delivery, DeliveryStatus, Endpoint


class EventTypesField(serializers.ListField):
    """Event types; one listed twice counts once, before the list's length is checked (every
    type with one of them again is every type), and after each is read, so that an unknown
    one is named at its place in the list as sent."""

    def to_internal_value(self, data: Any) -> list[Any]:
        return list(dict.fromkeys(super().to_internal_value(data)))


def _event_types(**kwargs: Any) -> serializers.ListField:
    return EventTypesField(
        child=serializers.ChoiceField(choices=EventType.choices),
        min_length=1,
        max_length=len(EventType.values),
        help_text="The event types to send to it.",
        **kwargs,
    )


class WebhookURLField(serializers.URLField):
    """A URL events can be sent to: http or https, a port that is one, no user name or password.

    DRF's URL field also takes ``ftp://`` and ``ftps://``, which would be sent as plain HTTP;
    a port is checked only for its digits (``:99999``), which then failed as an unresolvable
    host; credentials would never be sent, while the URL is shown back with them.
    """

    default_error_messages = {
        "webhook_url_scheme": _(
            "A webhook URL starts with http:// or https://; {scheme}:// is not sent to."
        ),
        "webhook_url_port": _("{port} is not a port: a port is a number from 1 to 65535."),
        "webhook_url_credentials": _(
            "A webhook URL carries no user name or password, which would never be sent; "
            "the signature tells your receiver who sent the event."
        ),
    }

    def run_validators(self, value: str) -> None:
        parts = urllib.parse.urlsplit(value)
        # a URL of another scheme (gopher://, ftp://) is named as such, before the URL check
        # that knows only some schemes would call it no URL at all
        if parts.scheme and value.lower().startswith(f"{parts.scheme.lower()}://"):
            if parts.scheme.lower() not in ("http", "https"):
                self.fail("webhook_url_scheme", scheme=parts.scheme)
        super().run_validators(value)  # a URL
        if parts.scheme.lower() not in ("http", "https"):
            self.fail("webhook_url_scheme", scheme=parts.scheme)
        written = parts.netloc.rpartition("@")[2].rpartition("]")[2].partition(":")[2]
        if written and not (written.isdigit() and 1 <= int(written) <= 65535):
            self.fail("webhook_url_port", port=written)
        if "@" in parts.netloc:
            self.fail("webhook_url_credentials")


def _url(**kwargs: Any) -> WebhookURLField:
    return WebhookURLField(
        max_length=500,
        help_text="Where the events are POSTed: an http or https URL on a public address, "
        "without a user name or password (`webhook_url_scheme`, `webhook_url_port`, "
        "`webhook_url_credentials`). A "
        "host that resolves to a private, loopback, link-local, reserved or shared address, "
        "or to an IPv6 address wrapping one (NAT64, 6to4, Teredo), is refused "
        "(`webhook_target_private`), and so is one that resolves nowhere "
        "(`webhook_target_unresolvable`).",
        **kwargs,
    )


def _unique(events: list[str]) -> list[str]:
    return list(dict.fromkeys(events))


class EndpointCreateSerializer(serializers.Serializer):
    url = _url()
    events = _event_types()
    description = serializers.CharField(
        max_length=200, required=False, default="", allow_blank=True
    )
    enabled = serializers.BooleanField(
        required=False,
        default=True,
        help_text="false registers it disabled: nothing is sent to it until it is enabled "
        "(PATCH `enabled: true`), and no delivery is kept for it meanwhile.",
    )

    def validate_events(self, events: list[str]) -> list[str]:
        return _unique(events)


class EndpointUpdateSerializer(serializers.Serializer):
    url = _url(required=False)
    events = _event_types(required=False)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    enabled = serializers.BooleanField(
        required=False, help_text="true enables a disabled endpoint again (its failures reset)."
    )

    def validate_events(self, events: list[str]) -> list[str]:
        return _unique(events)


class EndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.ChoiceField(choices=EventType.choices))
    enabled = serializers.SerializerMethodField()

    class Meta:
        model = Endpoint
        fields = [
            "id",
            "url",
            "description",
            "events",
            "enabled",
            "disabled_at",
            "failure_count",
            "created_at",
            "updated_at",
        ]

    def get_enabled(self, endpoint: Endpoint) -> bool:
        return endpoint.disabled_at is None


class EndpointWithSecretSerializer(EndpointSerializer):
    secret = serializers.CharField(
        help_text="The signing secret (whsec_…), shown only here and on rotation."
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]


class RotateSerializer(serializers.Serializer):
    overlap_seconds = serializers.IntegerField(
        min_value=0,
        max_value=7 * 24 * 3600,
        required=False,
        default=24 * 3600,
        help_text="How long the old secret still signs, beside the new one (default 24 hours; "
        "0 stops it at once, at most 7 days).",
    )


class EndpointRotatedSerializer(EndpointWithSecretSerializer):
    previous_secret_until = serializers.DateTimeField(
        allow_null=True, help_text="Until when attempts are signed with the old secret too."
    )

    class Meta(EndpointWithSecretSerializer.Meta):
        fields = [*EndpointWithSecretSerializer.Meta.fields, "previous_secret_until"]


class AttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = Attempt
        fields = ["number", "at", "duration_ms", "response_status", "response_excerpt", "error"]


class GivenOnce(serializers.Field):
    """A query parameter refused when given more than once (``repeated``), rather than read as
    its last value as DRF would (``?after=1&after=2``); mixed into a field, before it."""

    default_error_messages = {"repeated": _("{field} is given {count} times: give it once.")}

    def get_value(self, dictionary: Any) -> Any:
        if hasattr(dictionary, "getlist") and len(dictionary.getlist(self.field_name)) > 1:
            return _Repeated(len(dictionary.getlist(self.field_name)))
        return super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, _Repeated):
            self.fail("repeated", field=self.field_name, count=data.count)
        return super().to_internal_value(data)


class _Repeated:
    """What a query parameter given more than once reads as, to be refused."""

    def __init__(self, count: int) -> None:
        self.count = count


class OnceChoiceField(GivenOnce, serializers.ChoiceField):
    """A choice given as a query parameter, once (as the feed's cursor is)."""


class DeliveryQuerySerializer(serializers.Serializer):
    status = OnceChoiceField(
        choices=DeliveryStatus.choices,
        required=False,
        help_text="Only the deliveries in it; given once (twice is 400 `repeated`).",
    )


class DeliverySerializer(serializers.ModelSerializer):
    status = serializers.ChoiceField(choices=DeliveryStatus.choices)
    event = serializers.IntegerField(
        source="event_id", allow_null=True, help_text="The feed's event (null: a test)."
    )
    webhook_id = serializers.CharField(
        source="message_id", help_text="The webhook-id header, the same on every attempt."
    )
    payload = serializers.JSONField(
        help_text="The body as sent: type, timestamp, the event's id and position, and data."
    )
    history = AttemptSerializer(
        many=True, help_text="Every attempt, oldest first, redeliveries included."
    )

    class Meta:
        model = Delivery
        fields = [
            "id",
            "webhook_id",
            "event",
            "type",
            "status",
            "attempts",
            "next_attempt_at",
            "last_attempt_at",
            "response_status",
            "response_excerpt",
            "error",
            "created_at",
            "payload",
            "history",
        ]


class EventSerializer(serializers.ModelSerializer):
    type = serializers.ChoiceField(choices=EventType.choices)

    class Meta:
        model = Event
        fields = ["id", "position", "type", "created_at", "data"]
        extra_kwargs = {
            "data": {"help_text": "What happened: docs/webhooks.md, by type."},
            "position": {
                "help_text": "The event's place in the club's feed, in the order events became "
                "visible: keep the last one you read and pass it as `after`."
            },
        }


class DigitsField(GivenOnce, serializers.IntegerField):
    """A whole number written in ASCII digits only.

    DRF's integer field reads whatever Python's ``int`` takes, after dropping a decimal part of
    zeros: "3.0", " 3", "+3", "1_0", full-width or Arabic-Indic digits. A feed cursor written
    any of those ways is a client's mistake that would pass unseen; it is refused instead
    (``digits_only``). What DRF refuses keeps DRF's code; an empty query parameter is, as
    everywhere in DRF, one not given.
    """

    default_error_messages = {
        "digits_only": _(
            "{field} is written in the digits 0 to 9 only, with nothing around them; {value} "
            "is not."
        ),
    }

    def to_internal_value(self, data: Any) -> int:
        number = int(super().to_internal_value(data))  # what DRF refuses keeps its codes
        if isinstance(data, str) and not re.fullmatch(r"-?[0-9]+", data):  # - : min_value's
            self.fail("digits_only", field=self.field_name, value=repr(data)[:40])
        return number


class FeedQuerySerializer(serializers.Serializer):
    after = DigitsField(
        min_value=0,
        max_value=LARGEST_ID,
        required=False,
        default=0,
        help_text="The position of the last event you have: the page starts after it (0: the "
        "oldest). Positions follow the order events became visible, so an event that commits "
        "late is never behind a cursor already returned.",
    )
    limit = DigitsField(
        min_value=1, max_value=500, required=False, default=100, help_text="Events per page."
    )


class FeedSerializer(serializers.Serializer):
    results = EventSerializer(many=True)
    next = serializers.URLField(
        allow_null=True, help_text="The next page, while there may be more; null when caught up."
    )

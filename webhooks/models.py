"""Webhook endpoints of a club, and the deliveries of its events to them."""

from __future__ import annotations

import base64
import secrets
from datetime import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from matches.models import Club, Event, EventType


def new_secret() -> str:
    """A signing secret as the Standard Webhooks specification writes one: whsec_ + base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


class Endpoint(models.Model):
    """Where a club's events are sent: a URL, the event types it wants, its signing secret."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    description = models.CharField(max_length=200, blank=True)
    events = models.JSONField(help_text="The event types sent to this endpoint.")
    secret = models.CharField(max_length=80, default=new_secret)
    previous_secret = models.CharField(
        max_length=80, blank=True, help_text="The secret before the last rotation."
    )
    previous_secret_until = models.DateTimeField(
        null=True, blank=True, help_text="Until when attempts are signed with it too."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    failure_count = models.PositiveIntegerField(
        default=0, help_text="Failed attempts in a row; a success sets it back to 0."
    )
    disabled_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was disabled for failing; null: enabled."
    )
    succeeded_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When an attempt to it last succeeded; null: never, it is new (or was "
        "only ever failing).",
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.url

    def signing_secrets(self, now: datetime) -> list[str]:
        """The secrets an attempt made ``now`` is signed with: the current one, and the one
        before it while its overlap lasts."""
        until = self.previous_secret_until
        if self.previous_secret and until is not None and now < until:
            return [self.secret, self.previous_secret]
        return [self.secret]


class DeliveryStatus(models.TextChoices):
    PENDING = "pending"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


TEST_TYPE = "webhook.test"
"""The type of the event an owner sends to try an endpoint (never in the feed)."""


class Delivery(models.Model):
    """One message to one endpoint, retried until it succeeds or the schedule runs out.

    ``message_id`` is the ``webhook-id`` header: the same on every attempt and redelivery, so
    that a receiver can drop duplicates. ``payload`` is the body exactly as sent.
    """

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message_id = models.CharField(max_length=64)
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(
        default=0, help_text="Attempts made in all, redeliveries included."
    )
    schedule_from = models.PositiveIntegerField(
        default=0, help_text="Attempts made before the retry schedule last started over."
    )
    next_attempt_at = models.DateTimeField(null=True, blank=True, default=timezone.now)
    leased_until = models.DateTimeField(
        null=True, blank=True, help_text="While an attempt is being made: until when it may run."
    )
    task_id = models.CharField(
        max_length=64,
        blank=True,
        help_text="The queued task of its next attempt; any other is a stale copy. "
        '"waiting" while it waits for a place in its club, with no task.',
    )
    queued_for = models.DateTimeField(
        null=True, blank=True, help_text="When its queued task was to run."
    )
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveIntegerField(null=True, blank=True)
    response_excerpt = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]
        constraints = [
            models.CheckConstraint(
                condition=Q(type__in=[*EventType.values, TEST_TYPE]), name="delivery_type_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.message_id} to {self.endpoint_id}"


class Attempt(models.Model):
    """One attempt at a delivery, kept with the delivery across its redeliveries."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="history")
    number = models.PositiveIntegerField()
    at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField()
    response_status = models.PositiveIntegerField(null=True, blank=True)
    response_excerpt = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="attempt_number_once")
        ]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"

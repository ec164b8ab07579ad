"""A device token: knox's hashed, expiring token, with an id and a name the user can see."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS


class DeviceToken(AbstractAuthToken):
    """One phone's or app's token. Only its SHA-512 digest is kept (knox); the key is shown once.

    knox keys tokens by their digest; an id lets the API name a token without exposing any
    part of it.
    """

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=64, blank=True, help_text="The device or app, for its user.")
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} · {self.name or self.pk}"


class IdempotentAnswer(models.Model):
    """The first answer to a creating POST sent with an Idempotency-Key, replayed to a retry.

    Keyed by the requester, the route and a digest of the key: the key itself is not kept,
    and the answer is kept encrypted under it (accounts/idempotency.py), so that the table
    alone never gives away what it holds (a new device token, for one).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    route = models.CharField(max_length=200)
    key_digest = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request body.")
    status_code = models.PositiveSmallIntegerField()
    answer = models.TextField(help_text="The answer's body and headers, encrypted.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "route", "key_digest"], name="one_answer_per_route_and_key"
            ),
        ]


class RateCounter(models.Model):
    """One fixed window's count of one rate limit, when the cache is the database.

    Kept by accounts/ratelimit.py, each request counted in a transaction that holds the key's
    advisory lock; rows of windows that have passed are deleted now and then.
    """

    key = models.CharField(max_length=255, primary_key=True)
    count = models.IntegerField()
    expires = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "accounts_ratecounter"

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"

"""Recorded hands' idempotency keys kept before they were per user still answer their retry."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches.models import Hand
from tests.factories import record, start_match, went_out

MINE = ("matches", "0019_idempotency_keys_per_user")


@pytest.mark.django_db(transaction=True)
def test_a_key_kept_before_becomes_a_digest_and_still_replays(as_carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    body = went_out(players[0], players)
    first = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="phone-a-hand-1")
    assert first.status_code == 201

    executor = MigrationExecutor(connection)
    before = sorted(parent.key for parent in executor.loader.graph.node_map[MINE].parents)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    records = old.get_model("matches", "IdempotencyRecord")
    records.objects.filter(match_id=match["id"]).update(key="phone-a-hand-1")  # as kept then

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    kept = new.get_model("matches", "IdempotencyRecord").objects.get(match_id=match["id"])
    assert kept.key == hashlib.sha256(b"phone-a-hand-1").hexdigest()
    assert kept.user_id is None  # who sent it was not kept then

    retry = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="phone-a-hand-1")
    assert (retry.status_code, retry["Idempotent-Replayed"]) == (201, "true")
    assert retry.json() == first.json()
    assert Hand.objects.filter(match_id=match["id"]).count() == 1

"""Player names that differ only in case are numbered apart, then kept unique in any case."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

MINE = ("matches", "0017_player_names_unique_in_any_case")


@pytest.mark.django_db(transaction=True)
def test_names_alike_but_for_case_are_numbered_then_refused():
    executor = MigrationExecutor(connection)
    before = sorted(parent.key for parent in executor.loader.graph.node_map[MINE].parents)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="olga")
    Club = old.get_model("matches", "Club")
    Player = old.get_model("matches", "Player")
    first = Club.objects.create(name="First", created_by=user)
    second = Club.objects.create(name="Second", created_by=user)
    made = [
        Player.objects.create(club=club, name=name)
        for club, name in [
            (first, "Ann"),
            (first, "ann"),
            (first, "ANN"),
            (first, "ann (2)"),  # already there: a new name does not take it
            (first, "Ben"),
            (second, "ann"),  # another club's
        ]
    ]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    Player = new.get_model("matches", "Player")
    names = [Player.objects.get(pk=p.pk).name for p in made]
    assert names == ["Ann", "ann (3)", "ANN (4)", "ann (2)", "Ben", "ann"]
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club_id=first.pk, name="BEN")

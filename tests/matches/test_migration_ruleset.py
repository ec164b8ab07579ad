"""Matches and tallies that existed before rulesets migrate as Arlington's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

MINE = "match_ruleset"


def _before_rulesets() -> list[tuple[str, str]]:
    """The migrations the one adding rulesets depends on: the state just before it."""
    graph = MigrationExecutor(connection).loader.graph
    mine = next(key for key in graph.nodes if key[0] == "matches" and key[1].endswith(MINE))
    return sorted(parent.key for parent in graph.node_map[mine].parents)


@pytest.mark.django_db(transaction=True)
def test_a_match_made_before_rulesets_is_an_arlington_match():
    before = _before_rulesets()
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="olga")
    club = old.get_model("matches", "Club").objects.create(name="Old club", created_by=user)
    ann = old.get_model("matches", "Player").objects.create(club=club, name="Ann")
    match = old.get_model("matches", "Match").objects.create(
        club=club, seat_count=2, first_dealer=ann, created_by=user
    )
    old.get_model("matches", "Tally").objects.create(
        club=club,
        player=ann,
        matches_played=1,
        wins=1,
        shared_wins=0,
        victory_points=1,
        hands_played=3,
        went_out=2,
        points=1040,
    )

    executor = MigrationExecutor(connection)
    rulesets = [key for key in executor.loader.graph.nodes if key[1].endswith(MINE)]
    executor.migrate(rulesets)
    then = executor.loader.project_state(rulesets).apps
    assert then.get_model("matches", "Tally").objects.get(player_id=ann.pk).ruleset == "arlington"

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    migrated = new.get_model("matches", "Match").objects.get(pk=match.pk)
    assert (migrated.ruleset, migrated.options) == ("arlington", {})

"""Ratings, club nights and public links: what a club does with its results.

Every row here is derived from, or points at, the matches app's clubs, players and matches;
the matches app never reads these tables.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from matches.models import Club, Match, Player, Season, ruleset_choices
from scoring.rulesets import DEFAULT as DEFAULT_RULESET


class RatingEntry(models.Model):
    """A player's rating before and after one finished match: one step of their history.

    Entries are replayed in the order of ``(finished_at, match)``; a change to a finished match
    deletes the entries from that match on and replays them (clubnight/ratings.py). A replay
    writes thousands of entries, so the table keeps no index another one covers: the club's is
    the first column of the replay's index, the match's the first of the one-entry-per-seat.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    ruleset = models.CharField(max_length=20, choices=ruleset_choices)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_entries", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_entries")
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(help_text="1 for the winners; ties share a place.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["finished_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_rating_entry_per_seat"),
            models.CheckConstraint(condition=Q(place__gte=1), name="rating_place_positive"),
        ]
        indexes = [models.Index(fields=["club", "ruleset", "finished_at", "match"])]


class Rating(models.Model):
    """A player's current rating in one ruleset: the last entry of their history, kept."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=20, choices=ruleset_choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="one_rating_per_ruleset"),
        ]


class PendingReplay(models.Model):
    """A change to a finished match whose ratings are not replayed yet.

    Written in the change's transaction; the replay that runs once it has committed deletes
    it. While one is left for a club and ruleset, that club's ratings of that ruleset are
    being recomputed (the ratings answer says so). A match is named by id only: it may be
    deleted before its replay runs.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=20, choices=ruleset_choices)
    match_id = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["club", "ruleset"])]


class Tournament(models.Model):
    """A club night or tournament: entrants who play rounds at several tables."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=100)
    ruleset = models.CharField(max_length=20, choices=ruleset_choices, default=DEFAULT_RULESET)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A player entered in a tournament. One who withdraws after playing stays, ``withdrawn``:
    their results still count on the leaderboard, and no later round seats them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField(help_text="The order the director listed them in.")
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
        ]


class Seating(models.TextChoices):
    RANDOM = "random", "random"
    RATING = "rating", "rating"
    DIRECTOR = "director", "director"


class Round(models.Model):
    """One round of a tournament: every entrant seated once, one match per table."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    seating = models.CharField(max_length=20, choices=Seating.choices)
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="The seed the random draw used; none for a director's."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=Q(seating__in=Seating.values), name="round_seating_known"
            ),
        ]


class RoundTable(models.Model):
    """A table of a round, and the match played at it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="round_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number"),
        ]


class Scope(models.TextChoices):
    STANDINGS = "standings", "standings"
    MATCH = "match", "match"
    TOURNAMENT = "tournament", "tournament"


def public_token() -> str:
    """An unguessable token: 32 URL-safe characters from 24 random bytes."""
    return secrets.token_urlsafe(24)


class PublicLink(models.Model):
    """A read-only link to one of a club's results that anyone may open, until it is revoked.

    A revoked link is deleted: its address is then unknown, like any other (404).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="public_links")
    token = models.CharField(max_length=64, unique=True, default=public_token, editable=False)
    scope = models.CharField(max_length=20, choices=Scope.choices)
    ruleset = models.CharField(max_length=20, choices=ruleset_choices, default=DEFAULT_RULESET)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(scope=Scope.STANDINGS, match__isnull=True, tournament__isnull=True)
                    | Q(scope=Scope.MATCH, match__isnull=False, tournament__isnull=True)
                    | Q(scope=Scope.TOURNAMENT, match__isnull=True, tournament__isnull=False)
                ),
                name="public_link_names_its_scope",
            ),
        ]

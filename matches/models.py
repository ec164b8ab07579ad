"""Clubs, their people, and the matches they score: what a row can express is a constraint here.

Rules that span rows (the seats per match, the dealer rotation, the finish) live in the
services, asking the match's ruleset; the rules of the game live in the engine (`scoring`).
"""

from __future__ import annotations

import datetime as dt
import secrets
import unicodedata
from decimal import Decimal
from typing import Any, cast

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone

from scoring.rulesets import DEFAULT as DEFAULT_RULESET
from scoring.rulesets import RULESETS


class Role(models.TextChoices):
    OWNER = "owner", "owner"
    SCOREKEEPER = "scorekeeper", "scorekeeper"
    VIEWER = "viewer", "viewer"


class SecondEntry(models.TextChoices):
    """Whether a club asks a second phone to confirm every hand (it never blocks play)."""

    OFF = "off", "off"
    REQUIRED = "required", "required"


class Club(models.Model):
    name = models.CharField(max_length=100)
    second_entry = models.CharField(
        max_length=20,
        choices=SecondEntry.choices,
        default=SecondEntry.OFF,
        db_default=SecondEntry.OFF,
        help_text="required: every hand is to be confirmed from another phone; unconfirmed "
        "hands are marked, never refused.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Moves on, in the same transaction, with every change to what the club's tables show;
    # cached tables are kept under the stamp they were read with (matches/standings.py).
    standings_stamp = models.PositiveBigIntegerField(default=0, editable=False)
    # The position of the club's last event in its feed: moved on by ``Event.next_position``
    # under this row's lock, which the writing transaction holds until it commits.
    event_position = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    _second_entry_read: str | None = None  # as loaded: saving a change moves the stamp on

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Club:
        club: Club = super().from_db(db, field_names, values)
        club._second_entry_read = club.__dict__.get("second_entry")
        return club

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save; an existing club's save never writes the standings stamp or event position
        it read.

        Only ``standings_changed`` moves the stamp; a rename that read it before a change
        committed would otherwise put it back, and old cached tables would be served again.
        A change of ``second_entry`` moves it: the tables mark unconfirmed matches or not.
        """
        adding = self._state.adding
        if not adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in {"standings_stamp", "event_position"}
            ]
        with transaction.atomic(savepoint=False):
            super().save(*args, **kwargs)
            if not adding and getattr(self, "_second_entry_read", None) != self.second_entry:
                Club.standings_changed(self.pk)
                self._second_entry_read = self.second_entry

    @classmethod
    def standings_changed(cls, club_id: int) -> None:
        """Move the club's standings stamp on, in the caller's transaction."""
        cls.objects.filter(pk=club_id).update(standings_stamp=F("standings_stamp") + 1)


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_user"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"


def written_name(text: str) -> str:
    """A name as it is kept: composed (NFC, so "Zé" is one way of writing it), without
    invisible format characters (a zero-width space), its runs of spaces made one.

    >>> written_name("Ze\u0301  d\u200b") == "Zé d"
    True
    """
    composed = unicodedata.normalize("NFC", text)
    visible = "".join(c for c in composed if unicodedata.category(c) != "Cf")
    return " ".join(visible.split())


def name_key(text: str) -> str:
    """What two names that are the same name share, in any case and any script: ``Straße`` and
    ``STRASSE``, ``Ωmega`` and ``ωMEGA``."""
    return written_name(text).casefold()


def sorting_name(text: str) -> tuple[str, str]:
    """Where a name goes in a list that nothing else orders (players tied in standings): by its
    letters without their accents and in any case, so that "Éloïse" comes with the Es and
    "adam" before "Bruno", then by the name itself.

    >>> sorted(["Zoé", "adam", "Éloïse", "Bruno"], key=sorting_name)
    ['adam', 'Bruno', 'Éloïse', 'Zoé']

    Letters whose accent is part of the letter itself (Ł, Ø, Đ, Æ, ß...) go with the letters
    they are read as, as the pages' own sorting puts them:

    >>> sorted(["Zoe", "Łukasz", "Mia", "Lara", "Øyvind"], key=sorting_name)
    ['Lara', 'Łukasz', 'Mia', 'Øyvind', 'Zoe']
    """
    letters = unicodedata.normalize("NFKD", text).translate(_READ_AS)
    plain = "".join(c for c in letters if not unicodedata.combining(c))
    return plain.casefold(), text


_READ_AS = str.maketrans(
    {
        **dict(zip("ŁłØøĐđĦħıĸŦŧĿŀ", "LlOoDdHhikTtLl", strict=True)),
        **{"ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "TH", "þ": "th"},
    }
)
"""The Latin letters Unicode does not split into a letter and an accent, as they are read."""


class Player(models.Model):
    """Someone on a club's roster; a player need not have a login."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(  # "Ann" and "ann" are one name at a table
                Lower("name"), "club", name="player_name_unique_in_club_any_case"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, and move the club's standings stamp on: the tables show players' names."""
        with transaction.atomic(savepoint=False):  # a failure fails the caller's transaction
            super().save(*args, **kwargs)
            Club.standings_changed(self.club_id)


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class MatchStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "in progress"
    FINISHED = "finished", "finished"


MIN_SEATS = 2
MAX_SEATS = 6
"""The most seats a row holds; every ruleset seats within MIN_SEATS..MAX_SEATS (a test checks)."""
TARGET_TOTAL = 1000


def ruleset_choices() -> list[tuple[str, str]]:
    """The games a match may be played by: every ruleset registered (``scoring.rulesets``).

    Read when asked, so that the choices are the registry's and never a copy of it; the table
    size of each game is checked by the service that creates a match.
    """
    return [(name, rules.label) for name, rules in RULESETS.items()]


class Match(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="matches")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    table = models.CharField(max_length=50, blank=True)
    status = models.CharField(
        max_length=20, choices=MatchStatus.choices, default=MatchStatus.IN_PROGRESS
    )
    seat_count = models.PositiveSmallIntegerField()
    # Database defaults as well: rows written by hand-written SQL get Arlington's, like old rows.
    ruleset = models.CharField(
        max_length=20,
        choices=ruleset_choices,
        default=DEFAULT_RULESET,
        db_default=DEFAULT_RULESET,
    )
    options = models.JSONField(
        default=dict,
        db_default={},
        blank=True,
        help_text='The ruleset\'s options, all of them, e.g. {"target": 100, "ace": "low"}.',
    )
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    hands_played = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_SEATS, seat_count__lte=MAX_SEATS),
                name="match_seat_count_range",
            ),
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="match_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status=MatchStatus.FINISHED, finished_at__isnull=False)
                | Q(status=MatchStatus.IN_PROGRESS, finished_at__isnull=True),
                name="match_finished_at_with_status",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.club})"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0 is the first seat; play is clockwise.")
    total = models.IntegerField(default=0)
    winner = models.BooleanField(default=False)
    # Kept by the services with the totals, so that standings add up seats, not hands.
    went_out = models.PositiveIntegerField(
        default=0, help_text="Hands of this match in which the player went out."
    )
    victory_points = models.DecimalField(
        max_digits=5,
        decimal_places=4,
        default=Decimal(0),
        help_text="1 for an outright win, 1/k for a k-way shared victory, else 0.",
    )

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["match", "player"], name="one_seat_per_player"),
            models.CheckConstraint(condition=Q(position__lt=MAX_SEATS), name="seat_position_range"),
            models.CheckConstraint(
                condition=Q(winner=True, victory_points__gt=0) | Q(winner=False, victory_points=0),
                name="seat_victory_points_with_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position}"


class Ending(models.TextChoices):
    WENT_OUT = "went_out", "went_out"
    STOCK_EXHAUSTED = "stock_exhausted", "stock_exhausted"


class Hand(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    ending = models.CharField(max_length=20, choices=Ending.choices)
    went_out = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    flags = models.JSONField(
        default=dict,
        db_default={},
        blank=True,
        help_text='The yes/no facts the match\'s ruleset asks of a hand, e.g. {"rummy": true}.',
    )
    version = models.PositiveIntegerField(default=1, help_text="Bumped by every correction.")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(ending=Ending.WENT_OUT, went_out__isnull=False)
                | Q(ending=Ending.STOCK_EXHAUSTED, went_out__isnull=True),
                name="hand_went_out_matches_ending",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of match {self.match_id}"


class HandResult(models.Model):
    """One player's itemised result in a hand, and their running total after it."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hand_results")
    position = models.PositiveSmallIntegerField()
    melds = models.JSONField(
        help_text='[{"cards": ["JS", "2D=QS", "KS"], "kind": "run", "points": 70}]'
    )
    held = models.JSONField(help_text='[{"card": "4H", "points": 5}]')
    melded_points = models.IntegerField()
    hand_penalty = models.IntegerField()
    bonus = models.IntegerField()
    net = models.IntegerField()
    total = models.IntegerField(help_text="The player's running total after this hand.")

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="one_result_per_player"),
            models.CheckConstraint(
                condition=Q(
                    net=models.F("melded_points") - models.F("hand_penalty") + models.F("bonus")
                ),
                name="result_net_adds_up",
            ),
            # Arlington's bonus is 0 or 100; Rummy's is what the others pay the winner.
            models.CheckConstraint(condition=Q(bonus__gte=0), name="result_bonus_not_negative"),
        ]


class RevisionAction(models.TextChoices):
    RECORDED = "recorded", "recorded"
    CORRECTED = "corrected", "corrected"
    VOIDED = "voided", "voided"


class HandRevision(models.Model):
    """Every version of every hand, kept even when the hand is voided."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    revision = models.PositiveIntegerField()
    action = models.CharField(max_length=20, choices=RevisionAction.choices)
    hand = models.JSONField(help_text="The hand as entered, in canonical notation, with results.")
    reason = models.CharField(max_length=500, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    device = models.CharField(
        max_length=80, blank=True, db_default="", help_text="The device it came from."
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number", "revision"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number", "revision"], name="one_revision_number"
            ),
        ]


class HandConfirmation(models.Model):
    """Another member's word that a hand, at one version, is the hand played.

    Written by ``matches.confirmations.confirmation_add`` only. A correction makes a new
    version: the confirmations of the version it replaces no longer count.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="confirmations")
    version = models.PositiveIntegerField(help_text="The hand's version it confirms.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    device = models.CharField(max_length=80, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "version", "by", "device"], name="one_confirmation_per_device"
            ),
        ]


class IdempotencyRecord(models.Model):
    """A hand as first recorded under a key, returned again to a retry with the same key.

    Keys are per user: two phones that happen to send the same key for one match each get
    their own answer. The key is kept as its SHA-256 digest, not as sent.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        help_text="Who sent the key (empty on records kept before keys were per user).",
    )
    key = models.CharField(max_length=255, help_text="SHA-256 of the Idempotency-Key.")
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request body.")
    response = models.JSONField(
        help_text="The answer's body: the recorded hand (matches.hands.RecordedHand.to_json)."
    )
    agreed = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The submission agreed with a hand already recorded (answered 200, not 201).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "user", "key"], name="one_answer_per_user_and_key"
            ),
        ]


class HandDraftPart(models.Model):
    """One part of a draft of a match's next hand, as phones fill it in before it is recorded.

    A draft is the ending part (``player`` null) and one part per seated player (their melds
    and held cards); each part has its own ``version``, so that phones entering different
    players never conflict and two phones entering the same part never lose an update. Written
    by ``matches.drafts`` only; recording the hand (or voiding one) empties its draft
    (``set_aside``).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField(help_text="The hand the draft is of.")
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The player whose cards these are; null for the ending part.",
    )
    data = models.JSONField(
        help_text='Ending part: {"ending", "went_out", "flags"}; a player\'s: {"melds", "hand"}, '
        "in canonical notation."
    )
    version = models.PositiveIntegerField(default=1)
    # A draft is throwaway work: an account removed later should not be kept for it.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.CharField(max_length=80, blank=True, help_text="The device it came from.")
    updated_at = models.DateTimeField(auto_now=True)
    contest = models.JSONField(
        null=True,
        blank=True,
        help_text="Another phone's different version of a player's cards, offered beside this "
        'one for a choice: {"melds", "hand", "by", "device", "version"} (the part\'s version it '
        "differs from); null when none. A write of the part or its withdrawal settles it.",
    )
    declined = models.JSONField(
        null=True,
        blank=True,
        help_text="The last version offered beside this part that a phone declined, keeping the "
        'part as written: {"version", "by", "device"} (the part\'s version kept, which the '
        "withdrawal moved on by one); null when none.",
    )

    class Meta:
        ordering = ["match", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(player__isnull=True),
                name="one_draft_ending_per_hand",
            ),
            models.UniqueConstraint(
                fields=["match", "number", "player"],
                condition=Q(player__isnull=False),
                name="one_draft_part_per_player",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="draft_version_positive"),
        ]

    def __str__(self) -> str:
        part = "ending" if self.player_id is None else f"player {self.player_id}"
        return f"Draft of hand {self.number} of match {self.match_id}: {part}"

    @classmethod
    def set_aside(cls, match_id: int, first: int) -> None:
        """Empty the match's drafts of hand ``first`` and after, as a throw-away empties them.

        Each part then reads as never written, and its row stays with its version moved on. A
        hand number can come back (a void makes the voided hand's number the next one again), and
        a phone that still holds a version it read before must then be refused, not matched by
        the first version written anew: versions of one part never repeat, so its write never
        lays the old cards over another phone's.
        """
        cls.objects.filter(match_id=match_id, number__gte=first).update(
            data={},
            version=F("version") + 1,
            contest=None,
            declined=None,
            updated_at=timezone.now(),
        )


class LiveStatus(models.TextChoices):
    PLAYING = "playing", "playing"
    RECORDED = "recorded", "recorded"
    ABANDONED = "abandoned", "abandoned"


class LiveHand(models.Model):
    """A hand played live: its deal and its event log (the state is replayed from them).

    ``state`` keeps the public state of the last accepted event, so that reads and the stream
    never replay the log; ``version`` moves on with every append and undo, and names the state
    in its ETag. At the end the recorded hand is attached, and the log stays readable.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_hands")
    number = models.PositiveIntegerField(help_text="The number the hand is recorded under.")
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    turned_up = models.CharField(max_length=3)
    status = models.CharField(max_length=20, choices=LiveStatus.choices, default=LiveStatus.PLAYING)
    version = models.PositiveIntegerField(default=1)
    state = models.JSONField(help_text="The public state after the last accepted event.")
    # Not a database constraint: voiding a hand leaves the log as it was (no extra query on the
    # hand path), and a log whose hand is gone no longer joins to any hand.
    hand = models.OneToOneField(
        Hand,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="live",
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status=LiveStatus.PLAYING),
                name="one_live_hand_per_match",
            ),
            models.CheckConstraint(
                condition=Q(status__in=LiveStatus.values), name="live_status_known"
            ),
            models.CheckConstraint(
                condition=Q(hand__isnull=True) | Q(status=LiveStatus.RECORDED),
                name="live_hand_only_when_recorded",
            ),
        ]

    def __str__(self) -> str:
        return f"Live hand {self.number} of match {self.match_id}"


class LiveEvent(models.Model):
    """One accepted event of a live hand, numbered; an undone event stays in the log, marked."""

    live = models.ForeignKey(LiveHand, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    data = models.JSONField(help_text='{"type": "draw", "player": 17} and so on.')
    idempotency_key = models.CharField(max_length=255, blank=True)
    answer = models.JSONField(help_text="The answer first given to this event.")
    status_code = models.PositiveSmallIntegerField(default=200)
    undone = models.BooleanField(default=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["live", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["live", "sequence"], name="one_live_event_per_sequence"
            ),
            models.UniqueConstraint(
                fields=["live", "by", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="one_live_event_per_users_key",
            ),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="live_sequence_positive"),
        ]


INVITATION_LIFETIME = dt.timedelta(days=7)


def invitation_code() -> str:
    """An unguessable code: 32 URL-safe characters from 24 random bytes."""
    return secrets.token_urlsafe(24)


def invitation_expiry() -> dt.datetime:
    return timezone.now() + INVITATION_LIFETIME


class InvitationState(models.TextChoices):
    ACTIVE = "active", "active"
    EXPIRED = "expired", "expired"
    REVOKED = "revoked", "revoked"
    USED_UP = "used_up", "used up"


class Invitation(models.Model):
    """A way into one club with a role: a code anyone may use (a link to share), or a personal
    invitation that only ``invitee`` sees and accepts."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=64, unique=True, default=invitation_code, editable=False)
    role = models.CharField(max_length=20, choices=Role.choices)
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text="Set for a personal invitation.",
    )
    player = models.ForeignKey(
        "Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The roster's player the invitation is for: whoever joins with it is them.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=invitation_expiry)
    max_uses = models.PositiveIntegerField(null=True, blank=True, help_text="None: unlimited.")
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(role__in=Role.values), name="invitation_role_known"),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1),
                name="invitation_max_uses_positive",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=F("max_uses")),
                name="invitation_uses_within_max",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} invitation to {self.club}"

    def state(self, now: dt.datetime | None = None) -> InvitationState:
        """Whether the invitation can still be used, and if not, why (revoked first)."""
        if self.revoked_at is not None:
            return InvitationState.REVOKED
        if self.expires_at <= (now or timezone.now()):
            return InvitationState.EXPIRED
        if self.max_uses is not None and self.uses >= self.max_uses:
            return InvitationState.USED_UP
        return InvitationState.ACTIVE


class EventType(models.TextChoices):
    """What a club's event announces (docs/webhooks.md gives each one's data)."""

    HAND_RECORDED = "hand.recorded"
    HAND_CORRECTED = "hand.corrected"
    HAND_VOIDED = "hand.voided"
    HAND_CONFIRMED = "hand.confirmed"
    MATCH_STARTED = "match.started"
    MATCH_FINISHED = "match.finished"
    MATCH_DELETED = "match.deleted"


NEXT_POSITION = """
UPDATE matches_club SET event_position = event_position + 1 WHERE id = %s
RETURNING event_position
"""


class Event(models.Model):
    """Something that happened in a club, written in the transaction of what it announces.

    The club's feed (``GET clubs/{id}/events/``) reads these by ``position``: the order in
    which they became visible (see ``next_position``); the webhooks app delivers them. Kept
    EVENTS_KEPT_DAYS days.
    """

    id = models.BigAutoField(primary_key=True)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    position = models.PositiveBigIntegerField(
        help_text="The event's place in its club's feed: the order of commits."
    )
    type = models.CharField(max_length=40, choices=EventType.choices)
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(type__in=EventType.values), name="event_type_known"),
            models.UniqueConstraint(fields=["club", "position"], name="event_club_position"),
        ]

    def __str__(self) -> str:
        return f"{self.type} #{self.pk}"

    @staticmethod
    def next_position(club_id: int) -> int:
        """The next position in the club's feed, taken in the caller's transaction.

        Moving the club's counter locks its row until that transaction ends: another writer of
        the same club waits, then takes the next number. So positions are dense and commit in
        their order, and a reader that has seen position n has seen every position before it;
        an id, taken at insert from a sequence, can commit after a larger one.
        """
        with connection.cursor() as cursor:  # one statement, on PostgreSQL and SQLite alike
            cursor.execute(NEXT_POSITION, [club_id])
            (position,) = cursor.fetchone()
        return int(position)

    @classmethod
    def insert(cls, *, club_id: int, position: int, type: str, data: dict[str, Any]) -> Event:
        """Insert one event, as ``Event.objects.create`` would, through a written statement.

        Every recorded hand writes one in its transaction, and building the INSERT with the ORM
        cost more than running it. Each value is prepared by its own field, as the ORM
        prepares it, so the row is the same on PostgreSQL and SQLite.
        """
        event = cls(club_id=club_id, position=position, type=type, data=data)
        params = []
        for name in INSERTED_EVENT_FIELDS:
            field = cast("models.Field[Any, Any]", cls._meta.get_field(name))  # concrete fields
            params.append(field.get_db_prep_save(getattr(event, field.attname), connection))
        with connection.cursor() as cursor:
            cursor.execute(INSERT_EVENT, params)
            (event.pk,) = cursor.fetchone()
        event._state.adding = False
        event._state.db = connection.alias
        return event


# The columns of INSERT_EVENT, in its order.
INSERTED_EVENT_FIELDS = ("club", "position", "type", "data", "created_at")
INSERT_EVENT = f"""
INSERT INTO "{Event._meta.db_table}" (club_id, position, type, data, created_at)
VALUES (%s, %s, %s, %s, %s)
RETURNING id
"""

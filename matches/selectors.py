"""Read-side queries of the matches app: what a user may see, and their role in a club."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import connections, router, transaction
from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from matches.models import (
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Match,
    Membership,
    Player,
    Season,
    SecondEntry,
)


@contextmanager
def one_snapshot(using: str | None = None) -> Iterator[None]:
    """Run the reads inside against one snapshot of the database ``using`` names (else the
    one the router picks for reads): a table or export read in several statements then never
    mixes the rows from before a hand was recorded with those from after it (a player's points
    counting the hand, their round's column not yet). On PostgreSQL a read-only transaction
    at REPEATABLE READ; inside a transaction already, or on SQLite (whose transactions here
    take the write lock first: ``transaction_mode`` IMMEDIATE), the reads run as they come."""
    alias = using or router.db_for_read(Match)
    connection = connections[alias]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic(using=alias):
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def clubs_visible_to(user: User | AnonymousUser) -> QuerySet[Club]:
    """Clubs the user is a member of, in any role; everything else is hidden (404)."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user)


# The club by its id, if the user is a member: one statement written out, since building it with
# the ORM cost more than running it, on every request that names a club (a cached standings
# table spent half its time there, docs/benchmarks.md). The same rows as
# ``clubs_visible_to(user).filter(pk=club_id)``.
CLUB_OF_MEMBER = f"""
SELECT club.* FROM {Club._meta.db_table} AS club
WHERE club.id = %s AND EXISTS (
    SELECT 1 FROM {Membership._meta.db_table} AS membership
    WHERE membership.club_id = club.id AND membership.user_id = %s
)
"""
LARGEST_ID = 2**63 - 1  # a BigAutoField's


def club_visible_to(user: User | AnonymousUser, club_id: int) -> Club | None:
    """One club if the user is a member of it."""
    if not user.is_authenticated or not 0 < club_id <= LARGEST_ID:
        return None
    return next(iter(Club.objects.raw(CLUB_OF_MEMBER, [club_id, user.pk])), None)


def memberships_of(user: User | AnonymousUser) -> QuerySet[Membership]:
    """The user's memberships: who may see or do what in a club starts here."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user)


def role_in(user: User | AnonymousUser, club_id: int) -> str | None:
    """The user's role in a club, or None for an outsider."""
    return memberships_of(user).filter(club_id=club_id).values_list("role", flat=True).first()


def players_visible_to(user: User | AnonymousUser) -> QuerySet[Player]:
    return Player.objects.filter(club__in=clubs_visible_to(user)).select_related("user")


def seasons_visible_to(user: User | AnonymousUser) -> QuerySet[Season]:
    return Season.objects.filter(club__in=clubs_visible_to(user))


def matches_visible_to(user: User | AnonymousUser) -> QuerySet[Match]:
    """Matches of the user's clubs; each with ``unconfirmed``, its hands nobody has confirmed
    as they stand, when its club asks for a second entry (empty otherwise)."""
    return (
        Match.objects.filter(club__in=clubs_visible_to(user))
        .select_related("created_by", "first_dealer", "club")
        .prefetch_related(
            "seats__player",
            Prefetch("hands", queryset=unconfirmed_hands(), to_attr="unconfirmed"),
        )
    )


def unconfirmed_hands() -> QuerySet[Hand]:
    """Hands of clubs that ask for a second entry whose current version nobody confirmed."""
    confirmed = HandConfirmation.objects.filter(hand_id=OuterRef("pk"), version=OuterRef("version"))
    return (
        Hand.objects.filter(match__club__second_entry=SecondEntry.REQUIRED)
        .exclude(Exists(confirmed))
        .only("id", "match_id", "number")
    )


def marks_of(match_id: int) -> list[int] | None:
    """A match's marks as its answer gives them (``unconfirmed_hands``): the numbers of its
    hands nobody has confirmed, where its club asks for a second entry; None where it does
    not."""
    required = Match.objects.filter(pk=match_id, club__second_entry=SecondEntry.REQUIRED)
    if not required.exists():
        return None
    return sorted(unconfirmed_hands().filter(match_id=match_id).values_list("number", flat=True))


def hands_of(match_id: int) -> QuerySet[Hand]:
    return (
        Hand.objects.filter(match_id=match_id)
        .select_related("recorded_by", "match__created_by")
        .prefetch_related("results__player", "match__seats__player", "confirmations__by")
        .order_by("number")
    )


@dataclass(frozen=True)
class MatchAccess:
    """A match named in a hands URL, its club and the requester's role there."""

    match_id: int
    club_id: int
    role: str


# The hands endpoints' access check, their busiest query, written out: the ORM took ten times
# longer to build it than PostgreSQL to answer it (docs/benchmarks.md).
MATCH_ACCESS = """
SELECT m.club_id, ms.role
FROM matches_match m
JOIN matches_membership ms ON ms.club_id = m.club_id
WHERE m.id = %s AND ms.user_id = %s
"""
LARGEST_ID = 2**63 - 1  # of a bigint column: a larger id in a URL names no row


def match_access(user: User | AnonymousUser, match_id: int) -> MatchAccess | None:
    """The requester's access to a match, or None if it is not theirs to see (or does not exist).

    One query, whatever the request: the hands endpoints need the match's club and the role,
    and the services read the match itself (locked, for writes).
    """
    if not user.is_authenticated or not 0 < match_id <= LARGEST_ID:
        return None
    with connections[router.db_for_read(Membership)].cursor() as cursor:
        cursor.execute(MATCH_ACCESS, [match_id, user.pk])
        found = cursor.fetchone()
    return None if found is None else MatchAccess(match_id, found[0], found[1])


def revisions_of(match_id: int, number: int) -> QuerySet[HandRevision]:
    return HandRevision.objects.filter(match_id=match_id, number=number).select_related("by")

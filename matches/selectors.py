"""Read-side queries of the matches app: what a user may see, and their role in a club."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from matches.models import Club, Hand, HandRevision, Match, Membership, Player, Season

WRITERS = ("owner", "scorekeeper")


def clubs_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club]:
    """Clubs the user is a member of, in any role; everything else is hidden (404)."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user)


def role_in(user: AbstractBaseUser | AnonymousUser, club_id: int) -> str | None:
    """The user's role in a club, or None for an outsider."""
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(user=user, club_id=club_id).values_list("role", flat=True).first()
    )


def players_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    return Player.objects.filter(club__in=clubs_visible_to(user)).select_related("user")


def seasons_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Season]:
    return Season.objects.filter(club__in=clubs_visible_to(user))


def matches_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Match]:
    return (
        Match.objects.filter(club__in=clubs_visible_to(user))
        .select_related("created_by", "first_dealer")
        .prefetch_related("seats__player")
    )


def hands_of(match: Match) -> QuerySet[Hand]:
    return (
        Hand.objects.filter(match=match)
        .select_related("recorded_by", "match__created_by")
        .prefetch_related("results__player", "match__seats__player")
        .order_by("number")
    )


def match_of_hands(user: AbstractBaseUser | AnonymousUser, match_id: int) -> Match | None:
    """The match named in a hands URL, if the user may see it; without its seats."""
    return Match.objects.filter(club__in=clubs_visible_to(user), pk=match_id).first()


def revisions_of(match: Match, number: int) -> QuerySet[HandRevision]:
    return HandRevision.objects.filter(match=match, number=number).select_related("by")

"""Clubs and their members: each action runs in one transaction and leaves nothing half-done."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import connection, transaction

from matches import errors
from matches.models import (
    Club,
    Membership,
    Player,
    Role,
)
from matches.selectors import role_in

# --- clubs and people ----------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, user: User) -> Club:
    """Create a club; its creator becomes its owner."""
    club = Club.objects.create(name=name, created_by=user)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    return club


@transaction.atomic
def membership_set(*, club: Club, user: User, role: str) -> Membership:
    """Add a user to a club with a role, or change their role; a club keeps an owner. For the
    admin, the demo and the benchmarks: nobody is checked. A member's request goes through
    ``membership_role_change``, and a newcomer joins by invitation."""
    _lock_club(club)
    membership, created = Membership.objects.select_for_update().get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        _keep_an_owner(club, membership)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_role_change(*, club: Club, user: User, role: str, by: User) -> Membership | None:
    """Change a member's role at an owner's request (``by``); a club keeps an owner.

    Both are read once the club's members are locked: an owner demoted while their request
    waited for the lock is refused (``errors.NotAllowed``), not obeyed, and a member removed
    meanwhile is not brought back. None when ``user`` is no member (any more): the caller
    invites them instead, as it would had the request come after the removal.
    """
    _lock_club(club, by)
    membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
    if membership is None:
        return None
    if membership.role != role:
        _keep_an_owner(club, membership)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: User | None = None) -> None:
    """Remove a member; a club keeps at least one owner. ``by`` as for
    ``membership_role_change``.

    The players of the club linked to the member's login lose the link: a player's login is a
    member's, and one who comes back through an invitation is linked again by it.
    """
    # the players linked to the login first, then the club, in the order a change of a link
    # takes them (the player, then the club: ``hold_links``), so that the two never deadlock;
    # NO KEY UPDATE, so that a hand or match seating them, which holds the club's row, checks
    # its reference to them at commit without waiting for this removal
    list(
        Player.objects.select_for_update(no_key=connection.features.has_select_for_no_key_update)
        .filter(club=membership.club_id, user=membership.user_id)
        .values_list("pk", flat=True)
    )
    _lock_club(membership.club, by)
    # read again now that no other change can move it: its role may have changed meanwhile
    current = Membership.objects.select_for_update().filter(pk=membership.pk).first()
    if current is None:  # removed meanwhile: nothing left to do
        return
    # a removal has no body: the refusal is about the request as a whole, not a field
    _keep_an_owner(membership.club, current, attr=None)
    current.delete()
    linked = Player.objects.filter(club=membership.club_id, user=membership.user_id)
    if linked.update(user=None):
        Club.standings_changed(membership.club_id)


def hold_links(club_id: int) -> None:
    """Hold the club's members still until the transaction ends, before a player's login is
    linked or unlinked: a member's removal (``membership_remove``) waits for the link, or the
    link for the removal, and two links wait for each other, so that a login is never linked to
    someone who is no longer a member, nor to two players. A player's name is checked against
    the roster under it too, so that two players named alike at once ("Straße", "STRASSE")
    wait for each other and the second finds the first. ``NO KEY UPDATE``: a member joining
    by invitation meanwhile does not wait for it."""
    no_key = connection.features.has_select_for_no_key_update
    Club.objects.select_for_update(no_key=no_key).filter(pk=club_id).exists()


def _lock_club(club: Club, by: User | None = None) -> None:
    """Serialise changes to a club's members, so two owners cannot demote each other at once."""
    Club.objects.select_for_update().filter(pk=club.pk).exists()
    # the requester's role as it is now that no other change can move it
    if by is not None and role_in(by, club.pk) != Role.OWNER:
        raise errors.NotAllowed()


def _keep_an_owner(club: Club, leaving: Membership, attr: str | None = "role") -> None:
    """Refuse to leave ``club`` without an owner; ``attr`` is what the refusal is about (the
    ``role`` a change of role sends, or nothing for a removal)."""
    if leaving.role != Role.OWNER:
        return
    owners = Membership.objects.select_for_update().filter(club=club, role=Role.OWNER)
    if owners.exclude(pk=leaving.pk).count() == 0:
        raise errors.InvalidSetup("last_owner", attr=attr)

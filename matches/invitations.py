"""Joining a club by invitation: create, use (accept or sign up) and revoke, each atomic.

An invitation is used inside one transaction that locks its row: two people racing for its
last use are served one after the other, and the second finds it used up.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, F
from django.utils import timezone
from django.utils.translation import ngettext_lazy

from accounts import usernames
from matches import errors
from matches.models import (
    INVITATION_LIFETIME,
    Club,
    Invitation,
    InvitationState,
    Membership,
    Player,
    Role,
)

GONE = {
    InvitationState.EXPIRED: errors.InvitationExpired,
    InvitationState.REVOKED: errors.InvitationRevoked,
    InvitationState.USED_UP: errors.InvitationUsedUp,
}


def check_usable(invitation: Invitation) -> None:
    """Raise the 410 that says why the invitation cannot be used, if it cannot."""
    state = invitation.state()
    if state != InvitationState.ACTIVE:
        raise GONE[state]()


def invitation_create(
    *,
    club: Club,
    role: str,
    by: User,
    expires_at: dt.datetime | None = None,
    max_uses: int | None = None,
    invitee: User | None = None,
    player: Player | None = None,
) -> Invitation:
    """A new invitation to ``club``; by default it lasts 7 days and may be used any number of
    times, or once when it names the ``player`` of the roster it is for (whoever joins with it
    becomes that player's login) or makes an owner: a forwarded owner's link would otherwise
    let anyone holding it take the club over, removing its other owners."""
    expires_at = expires_at or timezone.now() + INVITATION_LIFETIME
    if expires_at <= timezone.now():
        raise errors.ExpiresInPast()
    if player is not None and player.user_id is not None:  # whoever joined would not be them
        raise errors.InvalidSetup("player_has_login", attr="player", player=player.name)
    return Invitation.objects.create(
        club=club,
        role=role,
        created_by=by,
        expires_at=expires_at,
        max_uses=1 if (player is not None or role == Role.OWNER) and max_uses is None else max_uses,
        invitee=invitee,
        player=player,
    )


@transaction.atomic
def invitation_invite_user(*, club: Club, username: str, role: str, by: User) -> None:
    """A personal invitation for the account named ``username``, if there is one.

    The caller answers the same whether or not it exists; only that user sees the invitation.
    Inviting someone again renews their pending invitation instead of adding another.
    """
    user = usernames.find(get_user_model().objects.all(), username)
    if user is None:
        return
    # Two requests inviting the same person at once: the club's lock makes the second renew
    # the invitation the first made, instead of adding another. NO KEY UPDATE: the invitee
    # accepting their invitation at this moment holds it and, at commit, checks their new
    # membership's reference to the club, which FOR UPDATE would block (a deadlock).
    no_key = connection.features.has_select_for_no_key_update
    Club.objects.select_for_update(no_key=no_key).filter(pk=club.pk).exists()
    pending = Invitation.objects.select_for_update().filter(
        club=club, invitee=user, revoked_at__isnull=True, uses=0
    )
    if pending.update(role=role, expires_at=timezone.now() + INVITATION_LIFETIME, created_by=by):
        return
    if Membership.objects.filter(club=club, user=user).exists():
        return  # they accepted the invitation meanwhile: one more would only be refused
    invitation_create(club=club, role=role, by=by, max_uses=1, invitee=user)


def _use(invitation: Invitation, user: User) -> Membership:
    """Grant the invitation's role to ``user`` and count the use; inside the caller's lock."""
    check_usable(invitation)
    existing = Membership.objects.filter(club=invitation.club_id, user=user).first()
    if existing is not None:
        raise errors.AlreadyAMember(club=invitation.club.name, role=existing.get_role_display())
    try:
        with transaction.atomic():
            membership = Membership.objects.create(
                club_id=invitation.club_id, user=user, role=invitation.role
            )
    except IntegrityError:  # joined by another invitation a moment ago
        existing = Membership.objects.get(club=invitation.club_id, user=user)
        raise errors.AlreadyAMember(
            club=invitation.club.name, role=existing.get_role_display()
        ) from None
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    if invitation.player_id is not None:
        # the player the invitation names is the newcomer, unless someone is them already, or
        # the newcomer is already another player of the club: a login is one player's
        Player.objects.filter(
            pk=invitation.player_id, club=invitation.club_id, user__isnull=True
        ).exclude(Exists(Player.objects.filter(club=invitation.club_id, user=user))).update(
            user=user
        )
    return membership


def _locked(invitation: Invitation) -> Invitation:
    locked: Invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=invitation.pk)
    )
    return locked


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """``user`` joins the invitation's club with its role."""
    return _use(_locked(invitation), user)


def invitation_signup(*, invitation: Invitation, username: str, password: str) -> User:
    """A new account, checked by Django's password validators, joined to the club.

    The password is checked and hashed (a quarter of a second) before the transaction opens:
    on SQLite a writing transaction holds the database's one write lock from its start, so
    that every table's writes would otherwise wait on each sign-up's hashing in turn.
    """
    users = get_user_model()
    username = users.normalize_username(username)  # as the sign-in form reads it (NFKC)
    user = users(username=username)
    try:
        password_validation.validate_password(password, user)
    except ValidationError as refused:
        weak: WeakPassword | None = WeakPassword(refused)
    else:
        weak = None
        user.set_password(password)
    with transaction.atomic():
        invitation = _locked(invitation)
        check_usable(invitation)
        usernames.one_at_a_time(username)  # another sign-up's or the admin's, in any case
        if usernames.alike(users.objects.all(), username).exists():
            raise errors.UsernameTaken()
        if weak is not None:  # refused after the invitation and the name, as they come first
            raise weak
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            raise errors.UsernameTaken() from None
        _use(invitation, user)
    return user


def invitation_revoke(*, invitation: Invitation) -> None:
    """Nobody can use the invitation any more; revoking twice changes nothing."""
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


# A sentence of Django's own password validator that Django's Portuguese catalogue leaves
# untranslated: marked here so that the project's catalogues, which come first, carry it.
PASSWORD_TOO_SHORT = ngettext_lazy(
    "This password is too short. It must contain at least %d character.",
    "This password is too short. It must contain at least %d characters.",
    "min_length",
)


class WeakPassword(Exception):
    """Django's password validators refused the password; carries their errors."""

    def __init__(self, refused: ValidationError) -> None:
        self.refused = refused
        super().__init__(refused.messages)

"""Errors of invitations to a club."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.errors.base import MatchError


class InvitationGone(MatchError):
    """An invitation that exists but can no longer be used: 410, with the reason as code."""

    status = 410


class InvitationExpired(InvitationGone):
    code = "invitation_expired"
    message = _("This invitation has expired; ask the club for a new one.")


class InvitationRevoked(InvitationGone):
    code = "invitation_revoked"
    message = _("This invitation was withdrawn by the club; ask the club for a new one.")


class InvitationUsedUp(InvitationGone):
    code = "invitation_used_up"
    message = _("This invitation has been used as many times as it allows.")


class AlreadyAMember(MatchError):
    status = 409
    code = "already_a_member"
    message = _("You are already a member of {club}, as {role}; your role is unchanged.")


class UsernameTaken(MatchError):
    code = "username_taken"
    attr = "username"
    message = _("This username is taken; choose another.")


class ExpiresInPast(MatchError):
    code = "expires_in_past"
    attr = "expires_at"
    message = _("An invitation must expire in the future.")

"""Who may do what in a club: viewers read; scorekeepers and owners also score; owners manage.

Objects of clubs the user is not a member of never reach these checks: the views' querysets
hide them (404).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from matches.models import Club
from matches.selectors import MatchAccess, club_visible_to, role_in

SCOREKEEPING = frozenset({"owner", "scorekeeper"})
MANAGING = frozenset({"owner"})


def club_id_of(obj: Any) -> int:
    """The club an object belongs to: a club itself, or anything with a club or a match."""
    if isinstance(obj, Club):
        return int(obj.pk)
    if hasattr(obj, "club_id"):
        return int(obj.club_id)
    return int(obj.match.club_id)


# The 403's sentence, by the roles a write needs and the role the requester holds.
ROLE_REFUSED = {
    (SCOREKEEPING, "viewer"): _(
        "Only the club's scorekeepers and owners may do this, and you are a viewer in it."
    ),
    (MANAGING, "viewer"): _("Only the club's owners may do this, and you are a viewer in it."),
    (MANAGING, "scorekeeper"): _(
        "Only the club's owners may do this, and you are a scorekeeper in it."
    ),
}


class ClubRole(BasePermission):
    """Reads need any membership; writes need one of the view's ``write_roles``. A write
    refused for the role is a 403 whose sentence names the roles it needs and the
    requester's."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        # A match's access was read with the requester's role, in one query: no second one.
        role = obj.role if isinstance(obj, MatchAccess) else role_in(request.user, club_id_of(obj))
        if role is None:
            return False
        if request.method in SAFE_METHODS:
            return True
        roles = getattr(view, "write_roles", SCOREKEEPING)
        if role in roles:
            return True
        refused = role_refused(roles, role)
        if refused is not None:  # DRF answers the permission's message (a new one per request)
            self.message = refused
        return False


def role_refused(roles: frozenset[str], role: str | None) -> str | None:
    """The sentence of a 403 for a member whose ``role`` is not among ``roles``."""
    sentence = ROLE_REFUSED.get((roles, role or ""))
    return None if sentence is None else str(sentence)


def requester(request: Request) -> User:
    """The signed-in requester: the views let nobody else through (IsAuthenticated)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def can_write(request: Request, club_id: int, roles: frozenset[str] = SCOREKEEPING) -> bool:
    """Whether the requester holds one of ``roles`` in the club."""
    return role_in(request.user, club_id) in roles


def require_role(request: Request, club_id: int, roles: frozenset[str] = SCOREKEEPING) -> None:
    """403, its sentence naming the roles needed and the requester's, without one of
    ``roles`` in the club."""
    role = role_in(request.user, club_id)
    if role not in roles:
        raise PermissionDenied(role_refused(roles, role))


def member_club(request: Request, club_id: int, roles: frozenset[str] | None = None) -> Club:
    """The club if the requester is a member (404 otherwise, as if it did not exist); 403
    without one of ``roles``. For the views of the apps built on matches."""
    club = club_visible_to(request.user, club_id)
    if club is None:
        raise NotFound()
    if roles is not None:
        require_role(request, club.pk, roles)
    return club

"""Signing in with a username typed in any case or width (``accounts.usernames``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import usernames


class AnyCaseModelBackend(ModelBackend):
    """Django's own check of a username and password, the username found as sign-up compares
    them: ``Racer``'s account signs in as ``racer``, ``RACER`` or ``ｒａｃｅｒ`` too, on the API's
    token endpoints and on every form. The password is checked as Django checks it (also its
    time when no account has the name).

    A refused sign-in raises ``PermissionDenied``, which ends Django's ``authenticate`` (it
    tells the ``user_login_failed`` receivers and answers None): Django's own ``ModelBackend``,
    listed after this one so that sessions signed in with it before stay signed in, is never
    asked to check a password a second time.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        model = get_user_model()
        if username is None:
            username = kwargs.get(model.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = usernames.find(model._default_manager.all(), username)
        if user is None:
            model().set_password(password)  # as long as a check, as Django's backend does
            raise PermissionDenied
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied

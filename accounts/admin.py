"""The accounts in the admin: device tokens, and users named as sign-up names them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts import usernames
from accounts.models import DeviceToken


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "created", "expiry", "last_used"]
    list_filter = ["created"]
    search_fields = ["user__username", "name"]
    fields = ["user", "name", "created", "expiry", "last_used"]
    readonly_fields = fields  # type: ignore[assignment]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a token is issued by signing in, so that only its user ever sees it


class UsernameInAnyCase:
    """A username taken by another account in another case is refused, as sign-up refuses it.

    Django's own forms compare with ``username__iexact``, which on SQLite folds ASCII's letters
    alone, and its change form does not compare at all: an account renamed ``ALICE`` beside
    ``alice`` would make ``Alice``, typed at sign-in, name neither. Here the name is compared
    as sign-up and sign-in compare it (``accounts.usernames.alike``), on both forms.
    """

    cleaned_data: dict[str, Any]
    changed_data: list[str]
    instance: Any

    def clean_username(self) -> str:
        username: str = self.cleaned_data.get("username") or ""
        # an account kept as it is named keeps its name, even one made before the rule beside
        # another in another case
        if username and "username" in self.changed_data:
            # a sign-up of the name at this moment waits for the admin's transaction, and the
            # admin for the sign-up's: the second finds the first's account
            usernames.one_at_a_time(username)
            others = get_user_model()._default_manager.all()
            if self.instance.pk is not None:
                others = others.exclude(pk=self.instance.pk)
            if usernames.alike(others, username).exists():
                raise ValidationError(
                    self.instance.unique_error_message(type(self.instance), ["username"]),
                    code="unique",
                )
        return username


class AccountCreationForm(UsernameInAnyCase, AdminUserCreationForm):
    pass


class AccountChangeForm(UsernameInAnyCase, UserChangeForm):
    pass


class AccountAdmin(UserAdmin):
    add_form = AccountCreationForm
    form = AccountChangeForm


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)

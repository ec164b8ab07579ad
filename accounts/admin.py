"""Device tokens in the admin: who has which device signed in, and revoking one."""

from django.contrib import admin

from accounts.models import DeviceToken


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "created", "expiry", "last_used"]
    list_filter = ["created"]
    search_fields = ["user__username", "name"]
    fields = ["user", "name", "created", "expiry", "last_used"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # a token is issued by signing in, so that only its user ever sees it

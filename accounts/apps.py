from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Sign-in for people and devices: per-device API tokens."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import schema  # noqa: F401  (registers the token scheme with the schema)

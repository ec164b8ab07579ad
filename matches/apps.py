from django.apps import AppConfig


class MatchesConfig(AppConfig):
    """Clubs, players, seasons, matches and their hands."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

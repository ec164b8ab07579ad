from django.apps import AppConfig


class ClubnightConfig(AppConfig):
    """Ratings, club nights (tournaments) and public results, on top of the matches app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clubnight"
    verbose_name = "Club nights, ratings and public results"

    def ready(self) -> None:
        # The matches app announces changes to finished matches and offers extra standings
        # columns; it never imports this app, so the hooks are connected from here.
        from clubnight import hooks

        hooks.connect()

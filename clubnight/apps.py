from django.apps import AppConfig


class ClubnightConfig(AppConfig):
    """Ratings, club nights (tournaments) and public results, on top of the matches app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clubnight"
    verbose_name = "Club nights, ratings and public results"

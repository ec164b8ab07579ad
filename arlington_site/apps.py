"""The site itself, as an app: its system checks, and the games found when it starts."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "arlington_site"
    verbose_name = "Arlington scoring site"

    def ready(self) -> None:
        from arlington_site import checks  # noqa: F401  (registers them)
        from scoring.rulesets import RULESETS

        # Every game now, not at the first request: a game whose package fails to load, or two
        # games of one name, stop the start with a sentence naming the package.
        RULESETS.find()

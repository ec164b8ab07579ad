"""The site itself, as an app: its system checks."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "arlington_site"
    verbose_name = "Arlington scoring site"

    def ready(self) -> None:
        from arlington_site import checks  # noqa: F401  (registers them)

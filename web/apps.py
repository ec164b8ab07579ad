"""The scorekeeper's app: phone-first pages at `/`, built on the public API v1 only."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Scorekeeper's app"

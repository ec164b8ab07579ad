"""Deployment checks of the site (`manage.py check --deploy`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register

PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


def per_process_cache() -> bool:
    """Whether the default cache is kept by each process alone (or not kept at all)."""
    return settings.CACHES["default"]["BACKEND"] in PER_PROCESS_CACHES


PER_PROCESS_CACHE = Error(
    "The cache is kept by each process: every rate limit (password guesses included) would be "
    "multiplied by the number of workers.",
    hint="Set REDIS_URL, or CACHE_BACKEND=database and run `manage.py createcachetable` "
    "(docs/deployment.md).",
    id="arlington.E001",
)


@register(deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Production shares its cache among workers, so that the rate limits hold."""
    return [PER_PROCESS_CACHE] if per_process_cache() else []

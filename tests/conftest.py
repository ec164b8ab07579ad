"""Fixtures shared by the whole suite. Engine tests (tests/scoring) need none of them."""

import pytest


@pytest.fixture
def fresh_cache():
    """An empty cache before and after the test, so throttling counts never leak between tests."""
    from django.core.cache import cache

    cache.clear()
    yield cache
    cache.clear()

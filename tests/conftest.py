"""Fixtures shared by the whole test suite."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient


@pytest.fixture
def api_client() -> APIClient:
    """An anonymous DRF test client."""
    return APIClient()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Start every test with an empty cache, so throttling counts never leak between tests."""
    cache.clear()
    yield
    cache.clear()

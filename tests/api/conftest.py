"""Fixtures of the API tests."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _empty_cache(fresh_cache, plain_http):
    """Every API test starts with no throttling history."""


@pytest.fixture
def api_client() -> APIClient:
    """An anonymous DRF test client."""
    return APIClient()

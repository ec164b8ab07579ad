"""Fixtures of the language tests."""

import pytest
from django.utils import translation
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _english_afterwards(fresh_cache, plain_http):
    """Plain HTTP, no throttling history before, and no language left active after each test."""
    yield
    translation.deactivate()


@pytest.fixture
def api_client() -> APIClient:
    """An anonymous DRF test client."""
    return APIClient()

"""The reset after tests whose writes are committed (tests/database.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType

from tests import database
from tests.factories import FAST_PASSWORD_HASHERS, make_user


@pytest.fixture
def committed(transactional_db, settings):
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


def test_committed_rows_are_deleted_and_the_migrations_rows_kept(committed, django_user_model):
    kinds, permissions = ContentType.objects.count(), Permission.objects.count()
    make_user("alice")

    assert database.emptied("default")
    assert not django_user_model.objects.exists()
    assert (ContentType.objects.count(), Permission.objects.count()) == (kinds, permissions)


def test_a_test_that_changed_the_migrations_rows_is_left_to_djangos_flush(
    committed, django_user_model
):
    make_user("alice")
    Permission.objects.filter(codename="add_user").delete()

    assert not database.emptied("default")
    assert django_user_model.objects.exists()  # nothing deleted: the flush after the test runs

"""The project's settings with a password hasher a test can hold mid-hash (``GatedHasher``).

For tests that start a server of their own: they point ``DJANGO_SETTINGS_MODULE`` here and
``HASH_GATE_DIR`` at a folder of theirs.
"""

from arlington_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "tests.matches.gated_hasher.GatedHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

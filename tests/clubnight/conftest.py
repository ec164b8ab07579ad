"""Alice owns the club, Carol keeps score, Victor watches; Bob owns another club.

The fixtures are the matches tests' own, so that ownership is proved the same way here.
"""

import pytest

from matches.models import Player
from tests.matches.conftest import *  # noqa: F403
from tests.matches.conftest import _empty_cache, _fast_passwords  # noqa: F401  (autouse)


@pytest.fixture
def crowd(club):
    """Thirteen more players on Alice's roster, for club nights."""
    return [Player.objects.create(club=club, name=f"Player {i:02}") for i in range(1, 14)]

"""Victory points read the same on the public pages as on the board: 0.5, not 0.50."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.utils import translation

ROW = {
    "rank": 1,
    "name": "Ann",
    "victory_points": Decimal("0.5000"),
    "wins": 0,
    "matches_played": 1,
    "points": 1040,
    "rating": None,
}


@pytest.mark.parametrize(("language", "shown"), [("en", "0.5"), ("fr", "0,5"), ("pt", "0,5")])
def test_a_shared_victory_reads_as_on_the_board(language, shown):
    with translation.override(language):
        page = render_to_string(
            "clubnight/_standings_table.html", {"rows": [ROW], "caption": "", "caption_id": "t"}
        )
    rank, vp, *_ = re.findall(r'<td class="num[^"]*" data-label="[^"]*">([^<]*)</td>', page)
    assert (rank, vp) == ("1", shown)

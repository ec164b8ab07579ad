"""What runs after a hand: the subscribers settings name, in their order, each when it says.

The subscribers below are real ones named in overridden settings: they note what they saw, or
fail as a database refuses a row.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as project_settings
from django.db import IntegrityError

from matches.models import Event, Hand
from tests.clubnight.games import outright
from tests.factories import record, start_match, went_out

CALLS: list[tuple[str, str, int]] = []


def _note(name: str, change) -> None:
    CALLS.append((name, change.kind, change.number))


def first(change) -> None:
    _note("first", change)


def second(change) -> None:
    _note("second", change)


def third(change) -> None:
    _note("third", change)


def refused_by_the_database(change) -> None:
    """Give the first seated player two ratings in one ruleset: a constraint refuses the second."""
    from clubnight.models import Rating

    state = change.match
    for _ in range(2):
        Rating.objects.create(
            club_id=state.club,
            ruleset=state.ruleset,
            player_id=state.seats[0].player,
            mu=25.0,
            sigma=8.0,
            matches=1,
        )


HERE = "tests.matches.test_after_hand"
DEFAULT = project_settings.ARLINGTON_AFTER_HAND


def named(*entries: tuple[str, str]) -> list[dict[str, str]]:
    return [*DEFAULT, *({"call": f"{HERE}.{call}", "when": when} for call, when in entries)]


@pytest.fixture(autouse=True)
def _no_calls_yet():
    CALLS.clear()


@pytest.mark.parametrize("order", [("first", "second", "third"), ("third", "first", "second")])
def test_subscribers_run_in_the_settings_order(settings, as_carol, club, roster, order):
    settings.ARLINGTON_AFTER_HAND = named(*((name, "in_transaction") for name in order))
    ann, ben = roster[:2]
    match = start_match(as_carol, club, [ann, ben])
    assert record(as_carol, match["id"], went_out(ann.pk, [ann.pk, ben.pk])).status_code == 201
    assert [call[0] for call in CALLS] == list(order)
    assert {call[1:3] for call in CALLS} == {("recorded", 1)}


def test_after_commit_subscribers_run_after_those_in_the_transaction(
    settings, as_carol, club, roster
):
    settings.ARLINGTON_AFTER_HAND = named(
        ("third", "after_commit"), ("first", "in_transaction"), ("second", "after_commit")
    )
    ann, ben = roster[:2]
    match = start_match(as_carol, club, [ann, ben])
    assert record(as_carol, match["id"], went_out(ann.pk, [ann.pk, ben.pk])).status_code == 201
    assert [call[0] for call in CALLS] == ["first", "third", "second"]


@pytest.mark.django_db(transaction=True)
def test_a_failing_after_commit_subscriber_leaves_the_hand_recorded(
    settings, as_carol, club, roster, caplog
):
    settings.ARLINGTON_AFTER_HAND = named(
        ("refused_by_the_database", "after_commit"), ("first", "after_commit")
    )
    ann, ben = roster[:2]
    with caplog.at_level(logging.ERROR, logger="matches.subscribers"):
        match = outright(as_carol, club, ann, ben)  # its last hand finishes it: tallies written
    assert Hand.objects.filter(match_id=match).count() == 3
    assert Event.objects.filter(data__match=match, type="match.finished").exists()
    failures = [r for r in caplog.records if r.name == "matches.subscribers"]
    assert len(failures) == 3  # one for each hand
    assert all(r.exc_info and r.exc_info[0] is IntegrityError for r in failures)
    assert "refused_by_the_database" in failures[0].getMessage()
    # the next subscriber still ran, for every hand
    assert [call[:3] for call in CALLS] == [("first", "recorded", n) for n in (1, 2, 3)]


SCRIPT = """
import json, django
django.setup()
from matches import standings
print(json.dumps([column.name for column in standings.columns()]))
"""


def _columns_in_a_process(folder: Path, without: tuple[str, ...]) -> list[str]:
    """The standings columns that a fresh process names, with these apps left out."""
    module = f"settings_without_{'_'.join(without) or 'nothing'}"
    (folder / f"{module}.py").write_text(
        "from arlington_site.settings import *\n"
        f"INSTALLED_APPS = [app for app in INSTALLED_APPS if app not in {without!r}]\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env={
            **os.environ,
            "PYTHONPATH": f"{root}{os.pathsep}{folder}",
            "DJANGO_SETTINGS_MODULE": module,
            "SECRET_KEY": "x",
        },
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_standings_columns_are_the_same_with_and_without_clubnight_loaded(tmp_path):
    with_it = _columns_in_a_process(tmp_path, ())
    without_it = _columns_in_a_process(tmp_path, ("clubnight", "web"))
    assert with_it == without_it == ["rating"]

"""What runs after a hand is recorded, corrected or voided: the subscribers settings name.

``settings.ARLINGTON_AFTER_HAND`` lists them in the order they run, each with when it runs:

- ``"in_transaction"``: inside the hand's transaction, right after the hand is written. It must
  succeed: an exception rolls the hand back with everything else (the standings stamp, the
  club's events and their webhook deliveries are written this way, so that they
  commit or roll back with the hand).
- ``"after_commit"``: once the hand's transaction has committed, outside it (a subscriber that
  writes opens a transaction of its own). It may fail: the failure is logged and the hand stays
  recorded (the ratings replay runs this way, outside the hand's locks).

The matches app calls this list and nothing else; it never imports the apps whose subscribers
the list names, and no app changes another's lists when it starts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from matches import hands, state

logger = logging.getLogger(__name__)

IN_TRANSACTION = "in_transaction"
AFTER_COMMIT = "after_commit"


@dataclass(frozen=True)
class HandChange:
    """A hand just recorded, corrected or voided, with its match as it now stands."""

    kind: Literal["recorded", "corrected", "voided"]
    number: int
    match: state.MatchState
    was_finished: bool
    """Whether the match was finished before the change."""
    hand: hands.RecordedHand | None = None
    """The hand as it now stands; None once voided."""
    impact: Mapping[str, Any] | None = None
    """A correction's totals, status and winners before and after it."""

    @property
    def finished_match_changed(self) -> bool:
        """The change finished the match, or changed or un-finished a finished one."""
        return self.was_finished or self.match.finished


@dataclass(frozen=True)
class Subscriber:
    """One entry of ``ARLINGTON_AFTER_HAND``: a dotted path and when it runs."""

    call: str
    when: str

    def function(self) -> Callable[[HandChange], None]:
        found: Callable[[HandChange], None] = import_string(self.call)
        return found


def subscribers() -> list[Subscriber]:
    """The subscribers settings name, in order; ValueError names an entry with no known time."""
    found = []
    for entry in settings.ARLINGTON_AFTER_HAND:
        subscriber = Subscriber(entry["call"], entry["when"])
        if subscriber.when not in (IN_TRANSACTION, AFTER_COMMIT):
            raise ValueError(f"{subscriber.call}: 'when' is {IN_TRANSACTION} or {AFTER_COMMIT}")
        found.append(subscriber)
    return found


def after_hand(change: HandChange) -> None:
    """Call every subscriber on the change, in the settings' order.

    Call it inside the hand's transaction, after the hand is written. An ``in_transaction``
    subscriber is called now; an ``after_commit`` one is queued to run after the commit, in
    the same order, and never runs if the hand rolls back.
    """
    for subscriber in subscribers():
        if subscriber.when == IN_TRANSACTION:
            subscriber.function()(change)
        else:
            transaction.on_commit(partial(_after_commit, subscriber, change))


def _after_commit(subscriber: Subscriber, change: HandChange) -> None:
    """Run one subscriber, outside the hand's transaction; a failure is logged, never raised."""
    try:
        subscriber.function()(change)
    except Exception:
        logger.exception(
            "%s failed after hand %s of match %s was %s; the hand stays %s",
            subscriber.call,
            change.number,
            change.match.id,
            change.kind,
            change.kind,
        )

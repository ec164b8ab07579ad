"""What the matches app announces to the apps built on it, which it never imports.

``finished_match_changed`` is sent inside the transaction of every service that finishes a
match or changes one that was finished (a correction, a void): its receivers (the ratings)
write in that same transaction, so they commit or roll back with the change. Arguments:
``match_id``.
"""

from django.dispatch import Signal

finished_match_changed = Signal()

event_written = Signal()
"""Sent by ``matches.events.write`` inside the transaction that writes the event, so that its
receivers (the webhooks' deliveries) commit or roll back with it. Arguments: ``event``."""

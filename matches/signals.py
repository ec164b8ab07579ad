"""What the matches app announces to the apps built on it, which it never imports."""

from django.dispatch import Signal

event_written = Signal()
"""Sent by ``matches.events.write`` inside the transaction that writes the event, so that its
receivers (the webhooks' deliveries) commit or roll back with it. Arguments: ``event``."""

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks and the event feed, on top of the matches app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The matches app writes its events and announces each one; it never imports this app,
        # so the receiver that turns them into deliveries is connected from here.
        from matches import signals
        from webhooks import services

        signals.event_written.connect(services.event_written, dispatch_uid="webhooks.deliveries")

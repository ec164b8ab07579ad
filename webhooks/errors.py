"""What can go wrong with webhooks, each with a stable code.

They are the matches app's errors (``MatchError``), so the API presents them the same way.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.errors import MatchError


class UnsafeTarget(MatchError):
    """A webhook URL that resolves nowhere or to this machine's network (400)."""

    attr = "url"
    MESSAGES = {
        "webhook_target_private": _(
            "{host} resolves to a private, loopback, link-local, reserved or shared address, "
            "or to one wrapping such an address: webhooks are sent only to public addresses."
        ),
        "webhook_target_unresolvable": _("{host} cannot be resolved to an address."),
    }

    def __init__(self, code: str, host: str) -> None:
        self.code = code
        super().__init__(host=host)

    @property
    def detail(self) -> str:
        return str(self.MESSAGES[self.code]).format(**self.params)


class EndpointDisabled(MatchError):
    status = 409
    code = "webhook_disabled"
    message = _("Webhook {endpoint} is disabled: enable it before sending to it.")


class AttemptInProgress(MatchError):
    status = 409
    code = "delivery_in_progress"
    message = _(
        "Delivery {delivery} is being attempted right now: redeliver it once this attempt is "
        "over (within {seconds} seconds), when its outcome is known."
    )

    @property
    def retry_after(self) -> int:  # type: ignore[override]
        return int(str(self.params["seconds"]))


class DuplicateEndpoint(MatchError):
    status = 409
    code = "webhook_duplicate"
    attr = "url"
    message = _(
        "Webhook {webhook} already sends these events to this URL: change it rather than "
        "registering it again."
    )


class TooManyEndpoints(MatchError):
    status = 409
    code = "webhook_limit_reached"
    message = _("A club has {limit} webhooks at most: delete one before registering another.")

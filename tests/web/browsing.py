"""Signing in from a browser test: through the form, as a person would, or by a session cookie."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page

from tests.factories import PASSWORD


def sign_in_cookie(context: BrowserContext, user, live_server) -> None:
    """Give ``context`` a session for ``user`` without going through the sign-in form."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": session.value,
                "url": live_server.url,
                "httpOnly": True,
                "secure": settings.SESSION_COOKIE_SECURE,
                "sameSite": "Lax",
            }
        ]
    )


def sign_in(page: Page, username: str, password: str | None = None) -> None:
    """Sign in through the form, as a person would."""
    page.goto("/sign-in/")
    page.get_by_label(re.compile("username|utilizador|nom d.utilisateur", re.I)).fill(username)
    page.locator("input[type=password]").fill(password or PASSWORD.format(username=username))
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_load_state()


def _disconnected(route) -> None:
    route.abort("internetdisconnected")


def go_offline(context: BrowserContext) -> None:
    """No connection for ``context``: its pages and its service worker.

    Chromium's offline emulation does not always hold for requests that pass through a service
    worker (once in a while a hand "sent offline" reached the server), so every request of the
    context is also refused while it is offline, the service worker's included.
    """
    context.set_offline(True)
    context.route("**/*", _disconnected)


def go_online(context: BrowserContext) -> None:
    """The connection back, for the pages and the service worker of ``context``."""
    context.unroute("**/*", _disconnected)
    context.set_offline(False)

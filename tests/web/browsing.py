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


# the elements with a word split over two lines in any of their texts (a label of several
# text nodes: "+ " then "New meld")
BROKEN_TEXTS = """(nodes) => nodes.filter((e) => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let i = 1; i < text.length; i++) {
      range.setStart(text, i - 1);
      range.setEnd(text, i + 1);
      const [first, second] = range.getClientRects();
      const split = second && second.top > first.top + 1;
      if (split && !" -".includes(text.data[i - 1]) && text.data[i] !== " ") return true;
    }
  }
  return false;
}).map((e) => e.textContent)"""

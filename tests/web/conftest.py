"""Browser tests of the scorekeeper's app: Debian's Chromium driven by Playwright, live server.

The live server runs in a thread of the test process and answers from the test database, so
every test here uses ``transactional_db`` (pytest-django asks for it whenever ``live_server`` is
used): what a fixture writes is committed, the server's thread sees it, and the tables are
emptied after the test.

Fixtures:
- ``alice`` owns "Arlington Card Club", ``bob`` keeps score there, ``victor`` watches and
  ``oscar`` belongs to another club; each password is ``<username>-pw-1234``.
- ``roster``: the club's five players (Ann, Ben, Cleo, Dev, Eve); ``season``: its spring season.
- ``browser``: one Chromium for this folder's tests, closed after the last of them (while
  Playwright is open it keeps an event loop running in the main thread, and Django's ORM
  refuses to run beside one: a database test ordered after the browser tests would fail);
  ``context``/``page``: a 390×844 touch phone,
  which fails its test on any request to another origin, on an uncaught script error and on
  a Content-Security-Policy violation.
- ``page_as(user, language=...)``: a page already signed in as ``user`` (the session cookie set
  directly; the sign-in test goes through the form).
- ``screenshot(page, name)``: a full-page PNG in ``artifacts/screenshots/`` (SCREENSHOT_DIR).
- ``assert_accessible(page)``: axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.factories import make_user
from tests.web.browsing import sign_in_cookie

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOT_DIR = Path(
    os.environ.get(
        "SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
    )
)
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
BLOCKING_IMPACTS = {"serious", "critical"}


# --- the server side -----------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server() -> Iterator[None]:
    """Plain HTTP on the live server, set before it starts: its SecurityMiddleware reads the
    redirect setting once, when the server thread builds its handler.

    The session and CSRF cookies keep the production ``Secure`` flag: Chromium accepts Secure
    cookies from http://localhost, as it would over HTTPS in production.
    """
    from django.test.utils import override_settings

    with override_settings(SECURE_SSL_REDIRECT=False):
        yield


WEB = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Every test of this folder drives a browser: marked ``browser`` (make test-fast skips it)."""
    for item in items:
        if WEB in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    """Playwright's sync API keeps an event loop running in the main thread, while the test's own
    ORM calls (fixtures, assertions, the database flush after it) are plain synchronous code.

    Django's guard is lifted for each browser test, from its first fixture to its last teardown,
    and only then: left in the environment, it would leak into the subprocesses of later tests
    (`manage.py check --deploy` refuses it)."""
    os.environ[ASYNC_UNSAFE] = "true"
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    os.environ.pop(ASYNC_UNSAFE, None)


@pytest.fixture(autouse=True)
def _web_settings(settings, fresh_cache):
    """Cheap password hashing and no throttling history for every browser test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings


@pytest.fixture
def alice(transactional_db):
    return make_user("alice")


@pytest.fixture
def bob(transactional_db):
    return make_user("bob")


@pytest.fixture
def victor(transactional_db):
    return make_user("victor")


@pytest.fixture
def oscar(transactional_db):
    """A user of another club only."""
    from matches.services import clubs as club_services

    user = make_user("oscar")
    club_services.club_create(name="Oscar's Rummy Night", user=user)
    return user


@pytest.fixture
def club(alice, bob, victor):
    """Alice owns it; Bob keeps score; Victor watches."""
    from matches.models import Membership, Role
    from matches.services import clubs as club_services

    club = club_services.club_create(name="Arlington Card Club", user=alice)
    Membership.objects.create(club=club, user=bob, role=Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=victor, role=Role.VIEWER)
    return club


@pytest.fixture
def roster(club):
    from matches.models import Player

    return [
        Player.objects.create(club=club, name=name) for name in ("Ann", "Ben", "Cleo", "Dev", "Eve")
    ]


@pytest.fixture
def season(club):
    from matches.models import Season

    return Season.objects.create(
        club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31)
    )


# --- the browser side ----------------------------------------------------------------------


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield chromium
        chromium.close()


class RequestLog:
    """Every request a browser context makes, and the page errors it reports."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.urls: list[str] = []
        self.errors: list[str] = []

    def on_request(self, request) -> None:
        self.urls.append(request.url)

    def on_console(self, message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(f"CSP: {message.text}")

    def on_page_error(self, error) -> None:
        self.errors.append(f"script error: {error}")

    def foreign(self) -> list[str]:
        """Requests to any origin but the live server's (data: and blob: URLs stay local)."""
        return [
            url
            for url in self.urls
            if urlsplit(url).scheme not in {"data", "blob"} and _origin(url) != self.origin
        ]


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class Connections:
    """The connections the live server is answering on its threads, counted as they come
    and go, so that a test can wait until the server is done with every request of its pages."""

    def __init__(self, server) -> None:
        self.open = 0
        self.changed = threading.Condition()
        serve = server.process_request_thread  # a thread per connection, until it closes

        def counted(request, client_address) -> None:
            with self.changed:
                self.open += 1
            try:
                serve(request, client_address)
            finally:
                with self.changed:
                    self.open -= 1
                    self.changed.notify_all()

        server.process_request_thread = counted

    def wait_until_closed(self, seconds: float = 60) -> None:
        with self.changed:
            closed = self.changed.wait_for(lambda: self.open == 0, timeout=seconds)
        assert closed, f"the live server still answers {self.open} connection(s)"


@pytest.fixture(scope="session")
def live_connections(live_server) -> Connections:
    return Connections(live_server.thread.httpd)


@pytest.fixture
def new_context(browser, live_server, live_connections) -> Iterator[Callable[..., BrowserContext]]:
    """Make phone-sized contexts; each fails the test on a foreign request or a page error.

    After the test its contexts are closed, and their connections to the live server with
    them; the database is emptied only once the server has answered the last request they
    sent (a request still running beside that would wait for its locks, or deadlock)."""
    made: list[tuple[BrowserContext, RequestLog]] = []

    def make(language: str = "en-GB", **options) -> BrowserContext:
        context = browser.new_context(
            **{**PHONE, **options},
            base_url=live_server.url,
            locale=language,
            extra_http_headers={"Accept-Language": language},
        )
        context.set_default_timeout(10_000)
        log = RequestLog(_origin(live_server.url))
        context.on("request", log.on_request)
        context.on(
            "page",
            lambda page: (
                page.on("console", log.on_console),
                page.on("pageerror", log.on_page_error),
            ),
        )
        made.append((context, log))
        return context

    yield make
    problems = []
    for context, log in made:
        context.close()
        problems += [f"request to another origin: {url}" for url in log.foreign()]
        problems += log.errors
    live_connections.wait_until_closed()
    assert not problems, "\n".join(problems)


@pytest.fixture
def context(new_context) -> BrowserContext:
    return new_context()


@pytest.fixture
def page(context) -> Page:
    return context.new_page()


@pytest.fixture
def page_as(new_context, live_server) -> Callable[..., Page]:
    """A new page signed in as ``user``, in ``language`` (the browser's own, e.g. "pt-BR")."""

    def make(user, language: str = "en-GB") -> Page:
        context = new_context(language)
        sign_in_cookie(context, user, live_server)
        return context.new_page()

    return make


@pytest.fixture(scope="session")
def screenshot() -> Callable[[Page, str], Path]:
    """Save a full-page PNG under SCREENSHOT_DIR (artifacts/screenshots/ by default)."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOT_DIR / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture(scope="session")
def assert_accessible() -> Callable[[Page], None]:
    """Fail on any serious or critical violation axe-core finds on the page as it stands."""
    axe = Axe()

    def check(page: Page) -> None:
        results = axe.run(page)
        blocking = [
            v for v in results.response["violations"] if v.get("impact") in BLOCKING_IMPACTS
        ]
        assert not blocking, "\n".join(
            f"{v['impact']} {v['id']}: {v['help']} — "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
            for v in blocking
        )

    return check

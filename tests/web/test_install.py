"""Installable to the home screen, small enough for a weak signal, and strict about scripts."""

from __future__ import annotations

import gzip

import pytest
from playwright.sync_api import expect

from tests.web.worlds import finished_and_live

SHELL_BUDGET = 150 * 1024  # bytes, gzip-compressed
SHELL_TYPES = {"document", "script", "stylesheet", "manifest"}


@pytest.fixture
def table(club, roster, season, alice):
    return finished_and_live(club, roster, season, alice)


def test_chromium_finds_the_app_installable(page_as, alice, club, screenshot):
    page = page_as(alice)
    page.goto("/")
    expect(page.locator("#club-list .title")).to_have_text(["Arlington Card Club"])

    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    manifest = session.send("Page.getAppManifest")

    # A test browser context is incognito, where Chromium installs nothing: that says nothing
    # about the app. Anything else (no manifest, no usable icon, wrong start URL...) is ours.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    assert manifest["errors"] == []
    assert '"display": "standalone"' in manifest["data"]


def test_the_manifest_names_the_app_in_the_users_language_and_its_icons_exist(page, live_server):
    answer = page.request.get(
        f"{live_server.url}/manifest.webmanifest", headers={"Accept-Language": "fr"}
    )
    manifest = answer.json()

    assert answer.headers["content-type"].startswith("application/manifest+json")
    assert manifest["name"] == "Score d'Arlington"
    assert {icon.get("purpose", "any") for icon in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        image = page.request.get(f"{live_server.url}{icon['src']}")
        assert image.ok and image.headers["content-type"] == icon["type"]


def test_the_app_shell_is_under_150_kb_compressed(page_as, alice, club, table, roster):
    """Every page, script, style sheet and the manifest any page of the app loads, gzipped once."""
    page = page_as(alice)
    bodies: dict[str, bytes] = {}

    def keep(response):
        if response.request.resource_type in SHELL_TYPES and response.ok:
            bodies[response.url.split("?")[0]] = response.body()

    page.on("response", keep)
    for url in [
        "/",
        f"/clubs/{club.pk}/",
        f"/clubs/{club.pk}/matches/new/",
        f"/clubs/{club.pk}/standings/",
        f"/players/{roster[0].pk}/",
        f"/matches/{table.live.pk}/",
        f"/matches/{table.live.pk}/scoreboard/",
        f"/matches/{table.live.pk}/hands/new/",
    ]:
        page.goto(url)
        expect(page.locator("[aria-busy]")).to_have_count(0)
    # the service worker's script is fetched by the browser itself, outside the page's responses
    bodies["/sw.js"] = page.request.get(page.url.split("/matches/")[0] + "/sw.js").body()

    compressed = {url: len(gzip.compress(body)) for url, body in bodies.items()}
    total = sum(compressed.values())
    assert any(url.endswith("app.css") for url in compressed)
    assert any(url.endswith("/api.js") for url in compressed)
    print(f"app shell: {len(compressed)} files, {total} bytes gzipped")
    assert total < SHELL_BUDGET, sorted(compressed.items(), key=lambda item: -item[1])


@pytest.mark.parametrize("path", ["/sign-in/", "/", "/clubs/{club}/", "/clubs/{club}/standings/"])
def test_every_app_page_sends_a_policy_without_unsafe_inline(page_as, alice, club, path):
    page = page_as(alice)
    response = page.goto(path.format(club=club.pk))
    policy = response.headers["content-security-policy"]

    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy

"""Signing in and out, and the clubs a user belongs to, in a phone-sized Chromium."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.browsing import sign_in

ENTER_HAND = re.compile(r"^Enter hand \d+$")  # the next hand, by its number


def test_a_visitor_is_sent_to_sign_in_and_lands_on_their_clubs_with_their_role(
    page, club, oscar, screenshot, assert_accessible
):
    page.goto("/")
    expect(page).to_have_url(f"{page.url.split('/sign-in/')[0]}/sign-in/?next=/")
    screenshot(page, "sign-in")
    assert_accessible(page)

    sign_in(page, "bob")

    clubs = page.locator("#club-list")
    expect(clubs.get_by_role("link", name="Arlington Card Club")).to_be_visible()
    expect(clubs.locator(".badge")).to_have_text(["Scorekeeper"])
    expect(clubs).not_to_contain_text("Oscar's Rummy Night")
    screenshot(page, "clubs")
    assert_accessible(page)


def test_a_wrong_password_is_refused_next_to_the_form(page, club):
    sign_in(page, "bob", "not-his-password")

    expect(page.locator(".error-summary")).to_be_visible()
    expect(page).to_have_url(f"{page.url.split('/sign-in/')[0]}/sign-in/")


def test_signing_out_ends_the_session(page, club):
    sign_in(page, "alice")
    expect(page.locator("#club-list .badge")).to_have_text(["Owner"])

    page.get_by_role("button", name="Sign out").click()

    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.goto("/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


def test_the_app_pages_forbid_inline_scripts(page, club):
    response = page.goto("/sign-in/")
    policy = response.headers["content-security-policy"]

    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_the_readmes_demo_login_opens_the_demo_clubs_match(page, transactional_db):
    from io import StringIO

    from django.core.management import call_command

    call_command("seed_demo", "--if-empty", stdout=StringIO())
    sign_in(page, "demo", "demo-arlington")
    page.get_by_role("link", name="Demo Card Club").click()
    page.locator("#live-matches a").first.click()

    expect(page.locator("#hands > li")).not_to_have_count(0)
    expect(page.get_by_role("link", name=ENTER_HAND)).to_be_visible()


def test_a_session_that_ends_under_an_open_page_offers_to_sign_in_again(
    page_as, alice, club, roster
):
    from tests.factories import create_match

    match = create_match(club, roster[:2], user=alice)
    page = page_as(alice)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#seats .seat")).to_have_count(2)

    page.context.clear_cookies()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # reads again

    error = page.locator("#messages .error-summary")
    expect(error).to_have_attribute("data-status", "401")
    error.get_by_role("link", name="Sign in").click()
    expect(page).to_have_url(re.compile(rf"/sign-in/\?next=%2Fmatches%2F{match.pk}%2F$"))

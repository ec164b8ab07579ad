"""Joining a club from an invitation link: open it, sign up or sign in, land in the club."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import DeviceToken
from matches.models import Membership, Role


def invitation_link(page, club, role: str = "scorekeeper") -> str:
    """An owner makes a link on the club page, as they would to send it round."""
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_label("They join as").select_option(role)
    page.get_by_role("button", name="Make an invitation link").click()
    link = page.get_by_label("Invitation link")
    expect(link).to_have_value(re.compile(r"/join/[A-Za-z0-9_-]+$"))
    return link.input_value()


def test_an_owners_link_works_once_and_says_so(page_as, new_context, alice, club):
    """A link that makes an owner is for one person: forwarded, it hands nobody the club."""
    page = page_as(alice)
    link = invitation_link(page, club, role="owner")
    expect(page.locator("#invite-once")).to_be_visible()
    expect(page.locator("#invite-once")).to_have_text(
        "Send this link to one person: it works once, for 7 days."
    )
    expect(page.locator("#invite-many")).to_be_hidden()
    for username, joined in (("olivia", True), ("mallory", False)):
        newcomer = new_context().new_page()
        newcomer.goto(link)
        if joined:
            newcomer.get_by_label("Username").fill(username)
            newcomer.get_by_label("Password").fill("a long enough pass phrase")
            newcomer.get_by_role("button", name="Create my account and join").click()
            expect(newcomer).to_have_url(re.compile(rf"/clubs/{club.pk}/$"))
        else:  # used up: the page says so and offers nothing to join with
            expect(newcomer.locator("#link-unusable")).to_be_visible()
            expect(newcomer.get_by_role("button", name="Create my account and join")).to_be_hidden()
    owners = Membership.objects.filter(club=club, role=Role.OWNER)
    assert sorted(owners.values_list("user__username", flat=True)) == ["alice", "olivia"]


@pytest.fixture
def link(page_as, alice, club, screenshot, assert_accessible) -> str:
    page = page_as(alice)
    url = invitation_link(page, club)
    expect(page.locator("#invite-many")).to_be_visible()
    expect(page.locator("#invite-many")).to_have_text(
        "Send this link; it works for 7 days, for everyone who opens it."
    )
    expect(page.locator("#invite-once")).to_be_hidden()
    screenshot(page, "club-invite")
    assert_accessible(page)
    page.context.close()
    return url


def test_a_newcomer_signs_up_from_the_link_and_lands_in_the_club(
    new_context, club, link, screenshot, assert_accessible
):
    page = new_context().new_page()
    page.goto(link)
    expect(page.locator("#invitation")).to_have_text(
        "You are invited to join Arlington Card Club as a scorekeeper."
    )
    screenshot(page, "join")
    assert_accessible(page)

    page.get_by_label("Username").fill("nina")
    page.get_by_label("Password").fill("a long enough pass phrase")
    page.get_by_role("button", name="Create my account and join").click()

    expect(page).to_have_url(re.compile(rf"/clubs/{club.pk}/$"))
    expect(page.locator("#club-role")).to_have_text("Your role: Scorekeeper")
    nina = Membership.objects.get(club=club, user__username="nina")
    assert nina.role == Role.SCOREKEEPER
    assert not DeviceToken.objects.filter(user=nina.user).exists()  # the browser has a session


def test_a_refused_password_is_shown_at_the_field_and_nobody_joins(new_context, club, link):
    page = new_context().new_page()
    page.goto(link)
    page.get_by_label("Username").fill("nina")
    page.get_by_label("Password").fill("123")
    page.get_by_role("button", name="Create my account and join").click()

    expect(page.locator('[data-error-for="password"]')).to_be_visible()
    assert not Membership.objects.filter(user__username="nina").exists()


def test_a_blank_username_is_said_in_the_pages_own_words(new_context, club, link):
    """Spaces only: the page says what to do, not the API's "username: This field may not be
    blank."."""
    members = Membership.objects.filter(club=club).count()
    page = new_context().new_page()
    page.goto(link)
    page.get_by_label("Username").fill("   ")
    page.get_by_label("Password").fill("a long enough pass phrase")
    page.get_by_role("button", name="Create my account and join").click()

    expect(page.locator('[data-error-for="username"]')).to_have_text("Choose a username.")
    expect(page.locator("#messages .error-summary")).to_have_text("Choose a username.")
    assert Membership.objects.filter(club=club).count() == members


def test_someone_with_an_account_signs_in_from_the_link_and_joins(new_context, club, oscar, link):
    page = new_context().new_page()
    page.goto(link)
    page.get_by_role("link", name="Sign in to join").click()
    sign_in_form = page.locator("form.stack")
    sign_in_form.get_by_label("Username").fill("oscar")
    page.locator("input[type=password]").fill("oscar-pw-1234")
    sign_in_form.locator("button[type=submit]").click()

    page.get_by_role("button", name="Join the club").click()

    expect(page).to_have_url(re.compile(rf"/clubs/{club.pk}/$"))
    assert Membership.objects.get(club=club, user=oscar).role == Role.SCOREKEEPER


def test_a_revoked_link_says_so_and_offers_only_the_ways_on(page_as, new_context, alice, club):
    """Nothing to join with it; but a member reopening their old link on a new phone is shown
    the way to sign in, and a signed-in member the way to their clubs."""
    from matches.models import Invitation

    page = page_as(alice)
    link = invitation_link(page, club)
    Invitation.objects.update(revoked_at="2025-01-01T00:00:00Z")

    visitor = new_context().new_page()
    visitor.goto(link)
    expect(visitor.locator("#messages .error-summary")).to_have_attribute(
        "data-codes", "invitation_revoked"
    )
    expect(visitor.get_by_role("button", name="Create my account and join")).to_be_hidden()
    expect(visitor.locator("#link-unusable")).to_have_text("Already a member of the club? Sign in")
    visitor.locator("#link-unusable").get_by_role("link", name="Sign in").click()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Sign in")
    page.goto(link)
    expect(page.locator("#link-unusable").get_by_role("link", name="Your clubs")).to_be_visible()
    expect(page.get_by_role("button", name="Join the club")).to_be_hidden()


def test_a_newcomer_invited_as_a_player_of_the_roster_becomes_them(
    page_as, new_context, alice, club, roster, screenshot, assert_accessible
):
    cleo = roster[2]
    owner = page_as(alice)
    owner.goto(f"/clubs/{club.pk}/")
    owner.get_by_label("They join as").select_option("viewer")
    owner.get_by_label("For the player (optional)").select_option(label="Cleo")
    owner.get_by_role("button", name="Make an invitation link").click()
    field = owner.get_by_label("Invitation link")
    expect(field).to_have_value(re.compile(r"/join/[A-Za-z0-9_-]+$"))
    link = field.input_value()

    page = new_context().new_page()
    page.goto(link)
    expect(page.locator("#invitation")).to_have_text(
        "You are invited to join Arlington Card Club as a viewer."
        " You will be Cleo on the club's roster."
    )
    screenshot(page, "join-as-player")
    assert_accessible(page)
    page.get_by_label("Username").fill("cleo")
    page.get_by_label("Password").fill("a long enough pass phrase")
    page.get_by_role("button", name="Create my account and join").click()
    expect(page).to_have_url(re.compile(rf"/clubs/{club.pk}/$"))
    cleo.refresh_from_db()
    assert cleo.user is not None and cleo.user.username == "cleo"

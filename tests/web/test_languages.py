"""The app in Portuguese and French: from the browser's language, or the visible switch; card
names as players say them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.worlds import finished_and_live

CASES = {
    "pt-PT": {
        "clubs": "Os seus clubes",
        "owner": "Dono",
        "went_out": "Ann bateu",
        "queen": "a dama de espadas",
        "two": "o dois de ouros",
        "kind": "grupo",
        "banner": "Ann vence com",
        "next": "Mão 2: Eve dá as cartas",
    },
    "fr-FR": {
        "clubs": "Vos clubs",
        "owner": "Propriétaire",
        "went_out": "Ann a posé sa dernière carte",
        "queen": "la dame de pique",
        "two": "le deux de carreau",
        "kind": "groupe",
        "banner": "Ann gagne avec",
        "next": "Donne 2 : Eve distribue",
    },
}


@pytest.fixture
def table(club, roster, season, alice):
    return finished_and_live(club, roster, season, alice)


@pytest.mark.parametrize("language", CASES)
def test_the_pages_follow_the_browsers_language(
    page_as, alice, table, language, screenshot, assert_accessible
):
    words = CASES[language]
    short = language[:2]
    page = page_as(alice, language=language)

    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", short)
    expect(page.get_by_role("heading", level=1)).to_have_text(words["clubs"])
    expect(page.locator("#club-list .badge")).to_have_text([words["owner"]])

    page.goto(f"/matches/{table.finished.pk}/")
    expect(page.locator("#finish-banner")).to_contain_text(words["banner"])
    hand = page.locator('#hands li[data-hand="1"]')
    expect(hand.locator("summary")).to_contain_text(words["went_out"])
    hand.locator("summary").tap()
    expect(hand.get_by_role("img", name=words["queen"]).first).to_be_visible()
    expect(hand.locator(".meld-kind").first).to_have_text(words["kind"])
    screenshot(page, f"match-{short}")
    assert_accessible(page)

    page.goto(f"/matches/{table.live.pk}/")
    expect(page.locator("#next-dealer")).to_have_text(words["next"])


@pytest.mark.parametrize("language", CASES)
def test_a_wild_two_is_named_with_the_card_it_stands_for(page_as, alice, club, roster, language):
    from tests.factories import create_match, record_hand

    ann, ben = roster[:2]
    match = create_match(club, [ann, ben], user=alice)
    body = {
        "ending": "went_out",
        "went_out": ann.pk,
        "results": [
            {
                "player": ann.pk,
                "melds": [
                    ["JS", "2D=QS", "KS"],
                    ["AH", "AD", "AC", "AS"],
                    ["3H", "3D", "3C"],
                    ["9H", "9D", "9C"],
                ],
                "hand": [],
            },
            {
                "player": ben.pk,
                "melds": [],
                "hand": [
                    "4H",
                    "5H",
                    "6C",
                    "7C",
                    "8C",
                    "10C",
                    "JC",
                    "KC",
                    "4D",
                    "5D",
                    "6D",
                    "7D",
                    "8D",
                ],
            },
        ],
    }
    record_hand(match, body, user=alice)
    page = page_as(alice, language=language)
    page.goto(f"/matches/{match.pk}/")
    page.locator('#hands li[data-hand="1"] summary').tap()

    wild = page.get_by_role("img", name=re.compile(CASES[language]["two"]))
    expect(wild).to_have_count(1)
    expect(wild).to_have_accessible_name(re.compile(CASES[language]["queen"]))


def test_the_language_switch_changes_the_page_and_remembers_it(page, alice):
    from tests.web.browsing import sign_in

    sign_in(page, "alice")
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Os seus clubes")
    expect(page.get_by_role("button", name="Português")).to_have_attribute("aria-pressed", "true")

    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Os seus clubes")
    page.get_by_role("button", name="Français").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Vos clubs")


def test_a_lang_query_picks_the_language_for_one_page(page_as, alice, club):
    page = page_as(alice)  # the browser asks for English
    page.goto("/?lang=fr")

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Vos clubs")
    expect(page.locator("#club-list .badge")).to_have_text(["Propriétaire"])


def test_the_entry_counts_cards_as_its_language_does(page_as, bob, roster):
    """French counts 0 as one ("0 carte"), English and Portuguese as more ("0 cards")."""
    from tests.factories import create_match
    from tests.web.entry import choose_player, open_entry, tap

    match = create_match(roster[0].club, roster[:3], user=bob)
    for language, none, one, two in [
        ("fr-FR", "0 carte", "1 carte", "2 cartes"),
        ("pt-PT", "0 cartas", "1 carta", "2 cartas"),
    ]:
        page = page_as(bob, language=language)
        # no preview: a player's tab shows their net once the server has counted it
        page.route("**/rulings/**", lambda route: route.abort())
        open_entry(page, match.pk)
        tab = page.locator("#tab-1 .tab-net")
        expect(tab).to_have_text(none)
        choose_player(page, 1)
        page.locator('[data-key="bar-hand"]').click()
        tap(page, "KC")
        expect(tab).to_have_text(one)
        tap(page, "QC")
        expect(tab).to_have_text(two)
        page.context.close()

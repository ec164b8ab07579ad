"""The club, match, scoreboard, standings and player pages, as each role sees them at phone size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from matches.models import Match
from tests.factories import create_match
from tests.web.worlds import finished_and_live, shared_victory


@pytest.fixture
def table(club, roster, season, alice):
    return finished_and_live(club, roster, season, alice)


def test_the_club_page_lists_matches_and_players_and_offers_a_writer_a_new_match(
    page_as, bob, club, table, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Arlington Card Club")
    expect(page.locator("#live-matches li")).to_have_count(1)
    expect(page.locator("#live-matches")).to_contain_text("Door")
    expect(page.locator("#finished-matches")).to_contain_text("Won by Ann")
    # each match says its day, so that a season's "Table 1"s are told apart
    finished = table.finished.finished_at.date()  # as the API gives it, in UTC
    day = page.locator("#finished-matches li time")
    expect(day).to_have_attribute("datetime", re.compile(rf"^{finished.isoformat()}"))
    expect(day).to_have_text(re.compile(rf"\b{finished.year}\b"))
    expect(page.locator("#players li")).to_have_count(5)
    expect(page.get_by_role("link", name="Start a match")).to_be_visible()
    screenshot(page, "club")
    assert_accessible(page)


def test_a_scorekeeper_starts_a_match_choosing_seats_dealer_table_and_season(
    page_as, bob, club, roster, season, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/matches/new/")
    for name in ("Ann", "Ben", "Cleo"):
        page.locator("#player-choices").get_by_text(name, exact=True).click()
    page.get_by_role("button", name="Move Cleo up").click()  # clockwise: Ann, Cleo, Ben
    page.locator("#dealer-choices").get_by_text("Ben", exact=True).click()
    page.get_by_label("Table (optional)").fill("Window")
    expect(page.get_by_label("Season")).to_have_value("")  # Spring 2025 is over: no default
    page.get_by_label("Season").select_option(label="Spring")
    summary = page.locator("#deal-summary")
    expect(summary).to_contain_text("Ben deals first. Dealing order: Ben → Ann → Cleo")
    screenshot(page, "match-new")
    assert_accessible(page)

    page.get_by_role("button", name="Start the match").click()

    expect(page.locator("#next-dealer")).to_have_text("Hand 1: Ben deals")
    match = Match.objects.get()
    seats = [seat.player.name for seat in match.seats.order_by("position")]
    assert seats == ["Ann", "Cleo", "Ben"]
    assert (match.first_dealer.name, match.table, match.season) == ("Ben", "Window", season)


def test_a_player_added_inline_is_seated_and_the_apis_refusal_shows_at_the_field(
    page_as, alice, club, roster
):
    page = page_as(alice)
    page.goto(f"/clubs/{club.pk}/matches/new/")
    page.get_by_label("Add a player to the club").fill("Zoe")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#seat-order")).to_contain_text("Zoe")

    page.get_by_role("button", name="Start the match").click()  # one player only

    expect(page.locator("#messages .error-summary")).to_have_attribute("data-codes", "seat_count")
    expect(page.locator('[data-error-for="players"]')).to_be_visible()
    assert not Match.objects.exists()


def test_no_player_chosen_is_said_in_the_pages_own_words_in_its_language(
    page_as, alice, club, roster
):
    """The API's generic "players: Ensure this field has at least 1 elements." is not what a
    Portuguese page shows: it says, in Portuguese, what to do."""
    page = page_as(alice, language="pt-PT")
    page.goto(f"/clubs/{club.pk}/matches/new/")
    expect(page.locator("#player-choices li")).to_have_count(5)
    page.locator("#start").click()

    summary = page.locator("#messages .error-summary")
    expect(summary).to_have_attribute("data-codes", "min_length")
    expect(summary).to_have_text("Escolha primeiro os jogadores.")
    expect(page.locator('[data-error-for="players"]')).to_have_text(
        "Escolha primeiro os jogadores."
    )
    assert not Match.objects.exists()


def test_a_player_added_before_the_roster_arrives_stays_seated(page_as, alice, club, roster):
    """A quick thumb on a slow signal: the roster, read before Zoe was added, arrives after."""
    held = []

    def hold(route):
        if route.request.method != "GET":
            route.continue_()
            return
        held.append((route, route.fetch()))  # answered now, delivered later
        route.request.frame.evaluate("document.documentElement.dataset.rosterAnswered = 'yes'")

    page = page_as(alice)
    page.route(lambda url: "/api/v1/players/?club=" in url, hold)
    asked = lambda request: "/api/v1/players/?club=" in request.url  # noqa: E731
    with page.expect_request(asked):  # the roster is on its way when Zoe is added
        page.goto(f"/clubs/{club.pk}/matches/new/")
    # The server has answered (without Zoe) before she is added; the page has not seen it yet.
    expect(page.locator("html")).to_have_attribute("data-roster-answered", "yes")
    page.get_by_label("Add a player to the club").fill("Zoe")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#seat-order")).to_contain_text("Zoe")
    for route, answer in held:
        route.fulfill(response=answer)
    expect(page.get_by_label(roster[0].name, exact=True)).to_be_visible()
    expect(page.locator("#seat-order")).to_contain_text("Zoe")


def test_the_match_page_itemises_every_hand_and_draws_the_race(
    page_as, bob, table, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/matches/{table.finished.pk}/")

    expect(page.locator("#finish-banner")).to_have_text(re.compile("Ann wins with 1,020"))
    totals = page.locator("#seats .seat-total")
    expect(totals).to_have_text([re.compile("1,020"), re.compile("-195"), re.compile("-195")])
    expect(page.locator("#chart polyline")).to_have_count(3)
    expect(page.locator("#hands > li")).to_have_count(3)
    hand = page.locator('#hands li[data-hand="1"]')
    expect(hand).to_contain_text("Ann went out")
    hand.locator("summary").tap()
    ann = hand.locator(".result").first
    expect(ann.locator(".melds li")).to_have_count(4)
    expect(ann.locator(".melds li").first).to_contain_text("set")
    expect(ann.get_by_role("img", name="the queen of spades")).to_be_visible()
    expect(hand.locator(".result").nth(1).locator(".held")).to_contain_text("-80")
    screenshot(page, "match-finished")
    assert_accessible(page)

    page.goto(f"/matches/{table.live.pk}/")
    expect(page.locator("#finish-banner")).to_be_hidden()
    expect(page.locator("#next-dealer")).to_have_text("Hand 2: Eve deals")
    expect(page.locator(".seat.dealer")).to_contain_text("Eve")
    screenshot(page, "match-in-progress")
    assert_accessible(page)


def test_a_shared_victory_names_every_winner(page_as, alice, victor, club, roster, season):
    match = shared_victory(club, roster, season, alice)
    page = page_as(victor)
    page.goto(f"/matches/{match.pk}/")

    banner = page.locator("#finish-banner")
    expect(banner).to_have_text(re.compile("Shared victory: Ann, Ben with 1,060"))


def test_the_scoreboard_shows_totals_large_and_who_deals(
    page_as, bob, table, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/matches/{table.live.pk}/scoreboard/")

    expect(page.locator(".board-total")).to_have_text(["340", "-65"])
    expect(page.locator("#board-next")).to_have_text("Hand 2: Eve deals")
    total = page.locator(".board-total").first
    size = total.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 48
    screenshot(page, "scoreboard")
    assert_accessible(page)


def test_standings_share_ranks_and_offer_the_csv(
    page_as, victor, club, roster, season, alice, screenshot, assert_accessible
):
    shared_victory(club, roster, season, alice)
    page = page_as(victor)
    page.goto(f"/clubs/{club.pk}/standings/")

    rows = page.locator("#standings-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.locator("td:first-child")).to_have_text(["1", "1"])
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("0.5")
    screenshot(page, "standings")
    assert_accessible(page)

    page.get_by_label("Season").select_option(label="Spring")  # picking it shows it
    expect(page).to_have_url(re.compile(rf"season={season.pk}"))
    expect(rows).to_have_count(2)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download as CSV").click()
    csv = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert csv[0].startswith("rank,player,name")
    assert len(csv) == 3
    assert csv[1].split(",")[6] == "0.5000"

    # in French, the file is for a spreadsheet set to French: semicolons, decimal commas
    page.goto(f"/clubs/{club.pk}/standings/?season={season.pk}&lang=fr")
    expect(rows).to_have_count(2)
    with page.expect_download() as download:
        page.get_by_role("link", name="Télécharger en CSV").click()
    french = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert french[0].startswith("rank;player;name")
    assert len(french) == 3
    assert french[1].split(";")[6] == "0,5000"


def test_the_player_page_shows_the_record_and_matches(
    page_as, victor, table, roster, screenshot, assert_accessible
):
    ann = roster[0]
    page = page_as(victor)
    page.goto(f"/players/{ann.pk}/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
    expect(page.locator('[data-field="wins"]')).to_have_text("1")
    expect(page.locator('[data-field="went_out"]')).to_contain_text("3")
    expect(page.locator("#player-matches li")).to_have_count(1)
    expect(page.locator("#player-matches")).to_contain_text("Won")
    # the record says what it counts, beside matches still being played in the list
    expect(page.locator("#record-scope")).to_have_text(
        "Over finished Arlington matches: a match being played counts once it ends."
    )
    screenshot(page, "player")
    assert_accessible(page)


def test_a_match_of_another_game_is_named_in_the_players_list(page_as, alice, club, roster):
    """The record counts Arlington; a Rummy match in the list says it is one."""
    from matches.services import matches as match_services

    ann, ben = roster[:2]
    match_services.match_create(club=club, players=[ann.pk, ben.pk], user=alice, ruleset="rummy")
    match_services.match_create(club=club, players=[ann.pk, ben.pk], user=alice)
    page = page_as(alice)
    page.goto(f"/players/{ann.pk}/")
    items = page.locator("#player-matches li .sub")
    expect(items).to_have_count(2)
    expect(items.filter(has_text="Rummy · ")).to_have_count(1)
    expect(items.filter(has_text="Arlington")).to_have_count(0)
    expect(page.locator("#record-scope")).to_contain_text("Over finished Arlington matches")


@pytest.mark.parametrize(
    ("language", "one", "none"),
    [
        ("en-GB", "after 1 hand", "after 0 hands"),
        ("fr-FR", "après 1 donne", "après 0 donne"),  # French counts 0 as one
        ("pt-PT", "ao fim de 1 mão", "ao fim de 0 mãos"),
    ],
)
def test_a_count_takes_the_form_its_language_gives_it(
    page_as, victor, club, roster, table, language, one, none
):
    """Not "after 1 hands": a sentence with a count has a form for one and one for more."""
    dev, eve = roster[3], roster[4]
    create_match(club, [dev, eve], user=victor, table="Corner")  # no hand yet
    page = page_as(victor, language=language)
    page.goto(f"/players/{dev.pk}/")
    matches = page.locator("#player-matches li")
    expect(matches).to_have_count(2)
    expect(matches.filter(has_text="Door").locator(".sub")).to_have_text(re.compile(rf" {one}$"))
    expect(matches.filter(has_text="Corner").locator(".sub")).to_have_text(re.compile(rf" {none}$"))


def test_a_newcomer_starts_a_club_and_adds_its_players(
    page_as, transactional_db, screenshot, assert_accessible
):
    """Nobody to invite them: they start their own club from the clubs page, land on it as its
    owner, and fill its roster there."""
    from matches.models import Club, Membership, Player
    from tests.factories import make_user

    nina = make_user("nina")
    page = page_as(nina)
    page.goto("/")
    expect(page.locator("#club-list")).to_contain_text("You are not a member of any club yet.")
    page.get_by_role("button", name="Create the club").click()  # no name yet
    expect(page.locator('[data-error-for="name"]')).to_have_text("Enter a name.")
    page.get_by_label("The club's name").fill("Friday Rummy Club")
    page.get_by_role("button", name="Create the club").click()

    expect(page).to_have_url(re.compile(r"/clubs/\d+/$"))
    club = Club.objects.get(name="Friday Rummy Club")
    assert page.url.endswith(f"/clubs/{club.pk}/")
    expect(page.locator("#club-role")).to_have_text("Your role: Owner")
    assert Membership.objects.get(club=club).user == nina
    # a club night needs players first: its page says where to add them
    page.goto(f"/clubs/{club.pk}/tournaments/")
    expect(page.locator("#no-players")).to_have_text(
        "The club has no players yet. Add them on the club's page."
    )
    # the sentence spans the list's width, not one narrow column of its grid
    widths = page.evaluate(
        "[document.getElementById('no-players').getBoundingClientRect().width,"
        " document.getElementById('tournament-players').clientWidth]"
    )
    assert widths[0] == pytest.approx(widths[1], abs=1), widths
    page.locator("#no-players a").click()
    for name in ("Zoé", "Abel", "Éloïse"):
        page.get_by_label("Add a player to the club").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#players")).to_contain_text(name)
    # in the order of the page's language, not with accented names after Z
    expect(page.locator("#players li .title")).to_have_text(["Abel", "Éloïse", "Zoé"])
    expect(page.get_by_label("Add a player to the club")).to_have_value("")
    page.get_by_label("Add a player to the club").fill("abel")  # the same name in another case
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator('#player-form [data-error-for="name"]')).to_be_visible()
    assert Player.objects.filter(club=club).count() == 3
    screenshot(page, "club-new")
    assert_accessible(page)

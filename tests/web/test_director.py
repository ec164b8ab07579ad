"""The director's screen of a club night at phone size: entrants added and withdrawn between
rounds, the last round undone, the leaderboard downloaded as CSV, and the pairing cards and
results sheet printed to PDF on A4."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clubnight import tournaments
from clubnight.models import Round
from matches.models import Player
from tests.factories import record_hand, went_out


@pytest.fixture
def night(club, roster, alice):
    """Nine players entered in Alice's club night; Jo is on the roster but not entered."""
    more = [Player.objects.create(club=club, name=n) for n in ("Fay", "Gus", "Hal", "Ida")]
    Player.objects.create(club=club, name="Jo")
    return tournaments.tournament_create(
        club=club, name="Tuesday night", players=[p.pk for p in roster + more], user=alice
    )


def test_a_director_undoes_a_round_and_changes_the_entrants(
    page_as, bob, night, alice, screenshot, assert_accessible
):
    tournaments.round_draw(tournament=night, user=alice, seed=1)
    page = page_as(bob)
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.locator("#board-tables .night-table")).to_have_count(2)
    # the way back goes to the club's nights, and its words say so
    back = page.locator("#club-link")
    expect(back).to_have_text("Club nights of Arlington Card Club")
    expect(back).to_have_attribute("href", f"/clubs/{night.club_id}/tournaments/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 1").click()
    expect(page.locator("#draw-status")).to_have_text("Round 1 is undone.")
    expect(page.locator("#board-tables .night-table")).to_have_count(0)
    assert not Round.objects.filter(tournament=night).exists()

    entrants = page.locator("#entrant-list li")
    expect(entrants).to_have_count(9)
    page.get_by_role("button", name="Withdraw Ann").click()
    expect(page.locator("#draw-status")).to_have_text("Ann is withdrawn.")
    expect(entrants).to_have_count(8)
    page.get_by_label("Add a player").select_option(label="Jo")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#draw-status")).to_have_text("Jo is entered.")
    expect(entrants).to_have_count(9)
    screenshot(page, "director-entrants")
    assert_accessible(page)

    page.get_by_role("button", name="Draw the next round").click()
    expect(page.locator("#draw-status")).to_have_text("Round 1 is drawn: 2 tables.")
    seats = page.locator("#board-tables .night-seats li")
    expect(seats).to_have_count(9)
    expect(page.locator("#board-tables")).to_contain_text("Jo")
    expect(page.locator("#board-tables")).not_to_contain_text("Ann")
    # a round is being played: the board says so, and what would be refused waits (no hand
    # yet: it says how to seat a latecomer anyway)
    expect(page.locator("#round-playing")).to_have_text(
        "Round 1 is still being played. Once every table has finished, draw the next round, "
        "and add or withdraw players. No hand has been played in this round yet: to seat "
        "someone who came late, undo round 1, add them, and draw it again."
    )
    expect(page.get_by_role("button", name="Withdraw Ben")).to_be_disabled()
    expect(page.get_by_role("button", name="Draw the next round")).to_be_disabled()
    expect(page.get_by_role("button", name="Add", exact=True)).to_be_disabled()
    for table in Round.objects.get(tournament=night).tables.all():
        seated = list(table.match.seats.order_by("position").values_list("player_id", flat=True))
        for _ in range(3):
            record_hand(table.match, went_out(seated[0], seated), user=alice)
    page.reload()
    expect(page.locator("#round-playing")).to_be_hidden()
    expect(page.get_by_role("button", name="Draw the next round")).to_be_enabled()
    page.get_by_role("button", name="Withdraw Ben").click()  # between rounds: he keeps his row
    expect(page.locator("#leaderboard-rows")).to_contain_text("Ben (withdrawn)")
    expect(page.locator("#entrant-list li")).to_have_count(8)

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the leaderboard (CSV)").click()
    name = download.value.suggested_filename
    assert re.fullmatch(r"arlington-card-club-tuesday-night-leaderboard-[\d-]{10}\.csv", name)
    text = download.value.path().read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].endswith("round_1,withdrawn") and "Jo" in text
    assert [line for line in text.splitlines() if "Ben" in line][0].endswith(",yes")

    page.goto(f"/tournaments/{night.pk}/?lang=pt")  # a Portuguese spreadsheet reads ";"
    with page.expect_download() as download:
        page.locator("#csv-link").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].endswith("round_1;withdrawn")
    assert [line for line in text.splitlines() if "Ben" in line][0].endswith(";yes")


def test_an_undo_refused_for_a_hand_recorded_meanwhile_shows_the_board_as_it_is(
    page_as, bob, night, alice
):
    """The board was read before a table recorded its first hand on another phone: the undo is
    refused, and the board is read again, so that it shows the hand and offers no undo."""
    tournaments.round_draw(tournament=night, user=alice, seed=1)
    page = page_as(bob)
    page.clock.install()  # the board's own refresh waits: only the refusal brings the news
    page.goto(f"/tournaments/{night.pk}/")
    undo = page.get_by_role("button", name="Undo round 1")
    expect(undo).to_be_visible()
    table = Round.objects.get(tournament=night).tables.order_by("pk").first()
    seated = list(table.match.seats.order_by("position").values_list("player_id", flat=True))
    record_hand(table.match, went_out(seated[0], seated), user=alice)
    page.once("dialog", lambda dialog: dialog.accept())
    undo.click()
    expect(page.locator("#messages")).to_contain_text("Round 1 has hands recorded")
    expect(undo).to_be_hidden()
    cards = page.locator("#board-tables .night-table")
    expect(cards.nth(table.number - 1)).to_contain_text("Hands played: 1")
    assert Round.objects.filter(tournament=night).exists()


def test_a_viewer_sees_no_directors_controls(page_as, victor, night, alice):
    tournaments.round_draw(tournament=night, user=alice)
    page = page_as(victor)
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.locator("#board-tables .night-table")).to_have_count(2)
    expect(page.locator("#entrants")).to_be_hidden()
    expect(page.locator("#undo-button")).to_be_hidden()
    expect(page.get_by_role("link", name="Download the leaderboard (CSV)")).to_be_visible()


PAGES = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def test_the_pairing_cards_and_results_sheet_print_on_a4(
    page_as, bob, night, alice, screenshot, assert_accessible
):
    drawn = tournaments.round_draw(tournament=night, user=alice, seed=2)
    first = drawn.tables.order_by("number").first().match
    longest = first.seats.order_by("position").last().player
    longest.name = "Bénédicte de La Rochefoucauld-Montmorency"
    longest.save()
    page = page_as(bob)
    page.goto(f"/tournaments/{night.pk}/")
    page.get_by_role("link", name="Pairing cards and results sheet").click()
    cards = page.locator("#pairing-cards .pairing-card")
    expect(cards).to_have_count(2)
    first = drawn.tables.order_by("number").first().match
    seated = list(first.seats.order_by("position").values_list("player__name", flat=True))
    expect(cards.first.locator("ol li")).to_have_count(len(seated))
    expect(cards.first.locator("ol li").first).to_contain_text(f"{seated[0]} (deals first)")
    expect(page.locator("#results-rows tr")).to_have_count(9)
    expect(page.locator("#results-head th")).to_have_count(5)  # rank, player, VP, points, R1
    # printed on a page of its own, the sheet says which night it is
    day = night.created_at.strftime("%B %-d, %Y")
    expect(page.locator("#results-heading")).to_have_text(f"Results of Tuesday night, {day}")
    # printed while round 1 is being played: the figures on paper are said to be not final
    expect(page.locator("#results-provisional")).to_contain_text(
        "Not final: tables are still playing. Points as they stood at "
    )
    # every seat's label on one line, however long the name beside it
    lines = """(nodes) => nodes.map((n) => {
      const range = document.createRange();
      range.selectNodeContents(n);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    })"""
    assert set(cards.locator(".seat").evaluate_all(lines)) == {1}
    screenshot(page, "pairing-cards")
    assert_accessible(page)

    page.emulate_media(media="print")
    assert page.locator(".topbar").is_hidden() and page.locator("#print-button").is_hidden()
    heights = cards.evaluate_all("cards => cards.map(c => c.getBoundingClientRect().height)")
    assert all(height < 273 / 25.4 * 96 / 2 for height in heights)  # two to an A4 page
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    assert len(PAGES.findall(pdf)) == 2  # both cards on the first page, the sheet on its own

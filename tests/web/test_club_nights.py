"""Club nights in the app: the tournaments page, the director's board, the room display, the
ratings on the player and standings pages, and a public results page, at phone size."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connections
from playwright.sync_api import expect

from clubnight import tournaments
from clubnight.models import PublicLink, Tournament
from matches.models import Match, Player, Season
from tests.factories import client_for, correct, record_hand, went_out
from tests.web.browsing import BROKEN_TEXTS, sign_in_cookie
from tests.web.entry import ANN_MELDS, BEN_HELD, choose_ending, enter_player, open_entry
from tests.web.worlds import finished_and_live


@pytest.fixture
def night(club, roster, alice):
    """Nine players entered in Alice's club night, no round drawn yet."""
    more = [Player.objects.create(club=club, name=n) for n in ("Fay", "Gus", "Hal", "Ida")]
    return tournaments.tournament_create(
        club=club, name="Tuesday night", players=[p.pk for p in roster + more], user=alice
    )


def test_a_director_draws_a_round_and_follows_every_table(
    page_as, alice, night, screenshot, assert_accessible
):
    page = page_as(alice)
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Tuesday night")
    expect(page.locator("#round-heading")).to_have_text("No round drawn yet.")
    page.get_by_label("Balanced by rating").check()
    page.get_by_role("button", name="Draw the next round").click()
    expect(page.locator("#draw-status")).to_have_text("Round 1 is drawn: 2 tables.")
    cards = page.locator("#board-tables .night-table")
    expect(cards).to_have_count(2)
    expect(cards.locator(".night-seats li")).to_have_count(9)
    expect(page.locator("#leaderboard-rows tr")).to_have_count(9)
    # before any hand, the board says how to seat someone who came late: undo, add, draw
    expect(page.locator("#round-playing")).to_have_text(
        "Round 1 is still being played. Once every table has finished, draw the next round,"
        " and add or withdraw players. No hand has been played in this round yet: to seat"
        " someone who came late, undo round 1, add them, and draw it again."
    )

    first = night.rounds.get().tables.order_by("number").first().match
    seated = list(first.seats.order_by("position").values_list("player_id", flat=True))
    record_hand(first, went_out(seated[0], seated), user=alice)
    page.reload()
    card = page.locator(f'.night-table[data-match="{first.pk}"]')
    expect(card.locator(".sub")).to_have_text("Hands played: 1")
    expect(card.locator(f'[data-player="{seated[0]}"] .total')).to_have_text("340")
    expect(card.locator(f'[data-player="{seated[0]}"]')).to_contain_text("went out last hand")
    expect(page.locator("#leaderboard-rows tr").first).to_contain_text("340")
    # a table's match page leads back to the night's board
    card.get_by_role("link").first.click()
    back = page.locator("#club-link")
    expect(back).to_have_text("Back to Tuesday night")
    back.click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{night.pk}/$"))

    # a match is in progress: the next draw waits, and the board says why
    expect(page.get_by_role("button", name="Draw the next round")).to_be_disabled()
    expect(page.locator("#round-playing")).to_contain_text("Round 1 is still being played.")
    expect(page.locator("#round-playing")).not_to_contain_text("came late")  # no undo now
    screenshot(page, "director-board")
    assert_accessible(page)


def test_the_entrants_follow_another_phone_and_a_stale_withdrawal_says_so(
    page_as, alice, night, roster
):
    """Two directors' phones: who comes and goes on one shows on the other at its next
    refresh, and withdrawing a player the other phone has just withdrawn says so."""
    page = page_as(alice)
    page.goto(f"/tournaments/{night.pk}/")
    entrants = page.locator("#entrant-list li")
    expect(entrants).to_have_count(9)
    fay = Player.objects.get(club=night.club, name="Fay")
    tournaments.entrant_withdraw(tournament=night, player=fay.pk)  # on the other phone
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # a refresh
    expect(entrants).to_have_count(8)
    expect(page.locator(f'#entrant-player option[value="{fay.pk}"]')).to_have_count(1)

    ann = roster[0]
    stale = page.get_by_role("button", name=f"Withdraw {ann.name}")
    tournaments.entrant_withdraw(tournament=night, player=ann.pk)  # before this phone refreshes
    stale.click()
    expect(page.locator("#draw-status")).to_have_text(
        f"{ann.name} was already withdrawn, on another phone: the list is up to date now."
    )
    expect(page.locator(f'#entrant-list li[data-player="{ann.pk}"]')).to_have_count(0)
    expect(page.locator("#messages")).not_to_contain_text("Not found")


def test_a_double_tap_on_withdraw_withdraws_once_and_says_so(page_as, alice, night, roster):
    page = page_as(alice)
    page.goto(f"/tournaments/{night.pk}/")
    ann = roster[0]
    page.get_by_role("button", name=f"Withdraw {ann.name}").dblclick()
    expect(page.locator(f'#entrant-list li[data-player="{ann.pk}"]')).to_have_count(0)
    expect(page.locator("#draw-status")).to_have_text(f"{ann.name} is withdrawn.")
    expect(page.locator("#messages")).to_be_empty()


def test_an_undo_followed_at_once_by_a_draw_elsewhere_says_both(page_as, alice, night):
    """One director undoes round 1 while another, whose board still showed no round, draws:
    the undo is done, and the board that then shows the new round 1 says it was drawn again,
    not merely "Round 1 is undone." above tables that are there."""
    tournaments.round_draw(tournament=night, user=alice, seed=5)
    page = page_as(alice)
    page.clock.install()  # the board's own refresh waits
    page.goto(f"/tournaments/{night.pk}/")
    drawn = []

    def undo_then_draw_elsewhere(route):
        answer = route.fetch()  # the undo is made; the other phone draws before this one reads
        drawn.append(tournaments.round_draw(tournament=night, user=alice, seed=6))
        connections.close_all()  # the handler's own connection: not left open after the test
        route.fulfill(response=answer)

    page.route("**/api/v1/tournaments/*/rounds/1/", undo_then_draw_elsewhere)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 1").click()
    expect(page.locator("#draw-status")).to_have_text(
        "Round 1 is undone, and was drawn again on another phone at once: these are its new tables."
    )
    assert drawn and Match.objects.filter(round_table__round=drawn[0]).count() == 2


def test_an_entrant_added_on_another_phone_shows_beside_the_refusal(page_as, alice, night, club):
    late = Player.objects.create(club=club, name="Max")
    page = page_as(alice)
    page.clock.install()  # the board's own refresh waits: only the refusal brings the news
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.locator("#entrant-list li")).to_have_count(9)
    page.locator("#entrant-player").select_option(str(late.pk))
    tournaments.entrant_add(tournament=night, player=late.pk)  # the other director's phone
    page.locator("#entrant-form button").click()
    # news, as a withdrawal made twice is, not an error
    expect(page.locator("#draw-status")).to_have_text(
        "Max was already entered, on another phone: the list is up to date now."
    )
    expect(page.locator("#messages")).to_be_empty()
    expect(page.locator(f'#entrant-list li[data-player="{late.pk}"]')).to_have_count(1)
    expect(page.locator(f'#entrant-player option[value="{late.pk}"]')).to_have_count(0)


def test_an_undo_on_a_stale_board_spares_the_round_drawn_again_elsewhere(page_as, alice, night):
    """Both directors' phones show round 1; one undoes it and draws it again; the other,
    before its board refreshes, taps Undo round 1: the new round stays, and it says why."""
    tournaments.round_draw(tournament=night, user=alice, seed=5)
    page = page_as(alice)
    page.clock.install()  # the board's own refresh waits
    page.goto(f"/tournaments/{night.pk}/")
    undo = page.get_by_role("button", name="Undo round 1")
    expect(undo).to_be_visible()
    tournaments.round_undo(tournament=night, number=1)  # the other director's phone
    again = tournaments.round_draw(tournament=night, user=alice, seed=6)
    page.once("dialog", lambda dialog: dialog.accept())
    undo.click()
    expect(page.locator("#draw-status")).to_have_text(
        "Round 1 was undone and drawn again on another phone: these are its new tables, and "
        "they are not undone."
    )
    assert Match.objects.filter(round_table__round=again).count() == 2
    expect(page.locator("#messages")).to_be_empty()


def test_a_table_of_an_earlier_round_played_again_shows_on_the_board(page_as, alice, club, roster):
    """A correction reopened round 1's table after round 2 had finished: the board shows that
    table and why the draw waits, instead of a night that looks finished."""
    pair = roster[:2]
    two = tournaments.tournament_create(
        club=club, name="Pairs", players=[p.pk for p in pair], user=alice
    )
    ids = [p.pk for p in pair]
    owner = client_for(alice)
    first = tournaments.round_draw(tournament=two, user=alice)
    (match,) = Match.objects.filter(round_table__round=first)
    for _ in range(3):
        record_hand(match, went_out(ids[0], ids), user=alice)
    second = tournaments.round_draw(tournament=two, user=alice)
    (later,) = Match.objects.filter(round_table__round=second)
    for _ in range(3):
        record_hand(later, went_out(ids[0], ids), user=alice)
    assert correct(owner, match.pk, 3, went_out(ids[1], ids)).status_code == 200

    page = page_as(alice)
    page.goto(f"/tournaments/{two.pk}/")
    reopened = page.locator("#reopened-tables .night-table")
    expect(reopened).to_have_count(1)
    expect(reopened).to_contain_text(f"{match.table}, round 1")
    expect(page.locator("#round-playing")).to_have_text(
        f"{match.table} of round 1 is being played again: a hand was corrected there. Once it "
        "has finished, draw the next round, and add or withdraw players."
    )
    expect(page.get_by_role("button", name="Draw the next round")).to_be_disabled()
    # and the room display shows it too, beside round 2's tables: the room sees why the
    # leaderboard moves
    page.goto(f"/tournaments/{two.pk}/room/")
    room = page.locator("#room-tables .night-table")
    expect(room).to_have_count(2)
    expect(room.first).to_contain_text(f"{match.table}, round 1")


def test_a_director_who_draws_second_sees_the_round_drawn_first(page_as, alice, night):
    """Two directors tap Draw at once: the one refused is shown the round the other drew,
    its tables and the draw waiting, not the board as it was."""
    page = page_as(alice)
    page.clock.install()  # the board's own refresh waits: only the refusal brings the news
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.locator("#round-heading")).to_have_text("No round drawn yet.")
    page.wait_for_load_state("networkidle")  # the board and its entrants read, nothing pending
    tournaments.round_draw(tournament=night, user=alice)  # the other director's phone
    page.get_by_role("button", name="Draw the next round").click()
    expect(page.locator("#draw-status")).to_have_text(
        "Round 1 was just drawn on another phone: here it is."
    )
    expect(page.locator("#messages")).not_to_contain_text("in progress")  # no refusal shown
    expect(page.locator("#round-heading")).to_have_text("Round 1")
    expect(page.locator("#board-tables .night-table")).to_have_count(2)
    expect(page.get_by_role("button", name="Draw the next round")).to_be_disabled()


def test_a_viewer_follows_the_board_but_cannot_draw(page_as, victor, night, alice):
    tournaments.round_draw(tournament=night, user=alice)
    page = page_as(victor)
    page.goto(f"/tournaments/{night.pk}/")
    expect(page.locator("#board-tables .night-table")).to_have_count(2)
    expect(page.locator("#draw-form")).to_be_hidden()


def test_the_room_display_shows_the_night_in_large_type(
    page_as, victor, night, alice, screenshot, assert_accessible
):
    tournaments.round_draw(tournament=night, user=alice, seed=5)
    page = page_as(victor)
    page.goto(f"/tournaments/{night.pk}/room/")
    expect(page.locator("#room-title")).to_have_text("Tuesday night")
    expect(page.locator("#room-round")).to_have_text("Round 1")
    expect(page.locator("#room-leaderboard li")).to_have_count(9)
    expect(page.locator("#room-tables .night-table")).to_have_count(2)
    size = page.locator("#room-leaderboard li").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 17
    screenshot(page, "room-display")
    assert_accessible(page)


@pytest.mark.parametrize(
    ("players", "screen", "long_name"),
    [
        (14, (1920, 1080), False),
        (30, (1920, 1080), False),
        (14, (1280, 720), False),
        (14, (1920, 1080), True),
    ],
)
def test_the_room_display_fits_the_whole_leaderboard_on_a_tv(
    new_context, live_server, victor, club, alice, players, screen, long_name, screenshot
):
    """Nobody scrolls a TV: every player of the night is on screen, in type that reads from
    across the room (a large night in two columns)."""
    entrants = [Player.objects.create(club=club, name=f"Player {n:02}") for n in range(players)]
    if long_name:  # a long word, whole on the TV: never broken inside, never cut
        entrants[0].name = "Hubert Wolfeschlegelsteinhausen"
        entrants[0].save()
    night = tournaments.tournament_create(
        club=club, name="Friday night", players=[p.pk for p in entrants], user=alice
    )
    tournaments.round_draw(tournament=night, user=alice, seed=5)
    width, height = screen
    context = new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        is_mobile=False,
        has_touch=False,
    )
    sign_in_cookie(context, victor, live_server)
    page = context.new_page()
    page.goto(f"/tournaments/{night.pk}/room/")
    rows = page.locator("#room-leaderboard li")
    expect(rows).to_have_count(players)
    expect(page.locator("#room-leaderboard")).to_have_attribute("data-fitted", "true")
    screenshot(page, f"room-display-{players}-{width}{'-long-name' if long_name else ''}")
    boxes = rows.evaluate_all(
        "rows => rows.map(r => { const b = r.getBoundingClientRect();"
        " return [b.left, b.right, b.bottom, parseFloat(getComputedStyle(r).fontSize)]; })"
    )
    assert max(bottom for _, _, bottom, _ in boxes) <= height
    assert max(right for _, right, _, _ in boxes) <= width
    assert min(size for *_, size in boxes) >= (20 if height >= 1080 else 16)
    tables = page.locator("#room-tables .night-table").evaluate_all(
        "tables => tables.map(t => t.getBoundingClientRect().bottom)"
    )
    assert tables and max(tables) <= height
    # the tables take the whole width of their column: no empty column kept beside them
    right = page.locator("#room-tables").evaluate("l => l.getBoundingClientRect().right")
    lasts = page.locator("#room-tables .night-table").evaluate_all(
        "tables => tables.map(t => t.getBoundingClientRect().right)"
    )
    assert max(lasts) >= right - 2
    names = page.locator("#room-leaderboard .name, #room-tables .night-seats li > :first-child")
    assert names.evaluate_all(BROKEN_TEXTS) == []
    assert names.evaluate_all("ns => ns.filter((n) => n.scrollWidth > n.clientWidth + 1)") == []


def test_a_scorekeeper_starts_a_club_night_from_the_club(
    page_as, bob, club, roster, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("link", name="Club nights").click()
    expect(page.locator("#tournament-list")).to_contain_text("No club night yet.")
    # started with nothing filled in: everything missing is said at once
    page.get_by_role("button", name="Start the club night").click()
    expect(page.locator("#tournament-error")).to_have_text(
        "Give the night a name. Choose at least two players."
    )
    page.get_by_label("Name").fill("Friday cup")
    for player in roster[:4]:
        page.get_by_label(player.name, exact=True).check()
    screenshot(page, "club-nights")
    assert_accessible(page)
    page.get_by_role("button", name="Start the club night").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday cup")


def start_night(page, name: str, players, season: str | None = None) -> None:
    """Start a club night from the form shown: its name, its season (else the one offered),
    its players ticked; on to its board."""
    page.get_by_label("Name").fill(name)
    if season is not None:
        page.get_by_label("Season").select_option(label=season)
    for player in players:
        page.get_by_label(player.name, exact=True).check()
    page.get_by_role("button", name="Start the club night").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))


def test_a_club_night_counts_in_the_season_under_way_or_the_one_chosen(
    page_as, bob, club, roster, season
):
    """The form offers the club's seasons, the one under way chosen; the night keeps the
    season picked, and the list of nights names it."""
    today = dt.date.today()
    now = Season.objects.create(
        club=club, name="This winter", starts_on=today - dt.timedelta(days=10), ends_on=None
    )
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/tournaments/")
    chosen = page.get_by_label("Season")
    expect(chosen.locator("option")).to_have_text(["No season", "This winter", "Spring"])
    expect(chosen).to_have_value(str(now.pk))
    start_night(page, "Friday cup", roster[:4])
    assert Tournament.objects.get(club=club, name="Friday cup").season == now

    page.goto(f"/clubs/{club.pk}/tournaments/")
    start_night(page, "Old cup", roster[:4], season="Spring")
    assert Tournament.objects.get(club=club, name="Old cup").season == season

    page.goto(f"/clubs/{club.pk}/tournaments/")
    start_night(page, "Casual", roster[:2], season="No season")
    assert Tournament.objects.get(club=club, name="Casual").season is None
    page.goto(f"/clubs/{club.pk}/tournaments/")
    nights = page.locator("#tournament-list li")
    expect(nights.filter(has_text="Friday cup")).to_contain_text("This winter")
    expect(nights.filter(has_text="Old cup")).to_contain_text("Spring")
    expect(nights.filter(has_text="Casual")).not_to_contain_text("Spring")


def test_a_double_tap_on_start_starts_one_club_night(page_as, bob, club, roster):
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/tournaments/")
    page.get_by_label("Name").fill("Friday cup")
    for player in roster[:4]:
        page.get_by_label(player.name, exact=True).check()
    posts = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.headers.get("idempotency-key"))
            if request.method == "POST" and request.url.endswith("/api/v1/tournaments/")
            else None
        ),
    )
    page.get_by_role("button", name="Start the club night").dblclick()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday cup")
    assert Tournament.objects.filter(club=club).count() == 1
    assert len(posts) == 1 and posts[0]  # sent once, with a key for a retry


def test_the_player_page_charts_the_rating_and_standings_show_it(
    page_as, victor, club, roster, season, alice, screenshot, assert_accessible
):
    finished_and_live(club, roster, season, alice)
    page = page_as(victor)
    page.goto(f"/players/{roster[0].pk}/")
    chart = page.locator('.rating-chart[data-ruleset="arlington"]')
    expect(chart.locator("svg title")).to_contain_text("Arlington rating after 1 match:")
    expect(chart.locator("circle")).to_have_count(2)
    screenshot(page, "player-rating")
    assert_accessible(page)

    page.goto(f"/clubs/{club.pk}/standings/")
    ann = page.locator(f'#standings-rows tr[data-player="{roster[0].pk}"] [data-field="rating"]')
    expect(ann).to_have_text(re.compile(r"^\d[\d,. ]*$"))


def test_a_public_results_page_opens_signed_out_without_scripts(
    new_context, club, roster, season, alice, screenshot, assert_accessible
):
    finished_and_live(club, roster, season, alice)
    link = PublicLink.objects.create(club=club, scope="standings", created_by=alice)
    context = new_context()
    page = context.new_page()
    scripts = []
    page.on(
        "request", lambda request: request.resource_type == "script" and scripts.append(request)
    )
    response = page.goto(f"/r/{link.token}/")
    assert response.status == 200
    assert response.headers["x-robots-tag"] == "noindex, nofollow"
    expect(page.locator("h1")).to_have_text("Standings")
    expect(page.locator("tbody tr")).to_have_count(3)
    expect(page.locator("tbody tr").first).to_contain_text("Ann")
    assert scripts == []
    # its icon is the app's, not a /favicon.ico that answers 404 in the console
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    assert context.request.get(icon).status == 200
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "public-standings")
    assert_accessible(page)
    link.delete()
    assert page.goto(f"/r/{link.token}/").status == 404


def test_a_table_recording_into_a_round_the_director_took_back_is_told_so(
    page_as, alice, club, roster
):
    ann, ben = roster[:2]
    two = tournaments.tournament_create(
        club=club, name="Short night", players=[ann.pk, ben.pk], user=alice
    )
    match = tournaments.round_draw(tournament=two, user=alice).tables.get().match
    page = page_as(alice)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))
    seats = list(match.seats.order_by("position").values_list("player_id", flat=True))
    enter_player(page, seats.index(ann.pk), ANN_MELDS, [])  # the draw chose who sits first
    enter_player(page, seats.index(ben.pk), [["5D", "6D", "7D"]], BEN_HELD)
    expect(page.locator("#preview-status.valid")).to_be_visible(timeout=15_000)
    page.locator("#record").click()
    expect(page.locator("#review")).to_be_visible()

    assert tournaments.round_undo(tournament=two, number=1)  # while the table reviews its hand
    page.locator("#review-record").click()
    closed = page.locator("#entry-closed")
    expect(closed).to_contain_text("Nothing was recorded: this match is no longer there.")
    expect(page.locator("#messages")).not_to_contain_text("Not found.")
    # the entry is closed: nothing left to record, and one way on, to the club
    expect(page.locator("#record, #review-record")).to_have_count(0)
    expect(page.locator("#entry")).not_to_contain_text("This hand can be recorded.")
    expect(page.get_by_role("link", name="Back to the club")).to_have_count(1)
    # nothing on the page leads back to the match that is gone
    expect(page.get_by_role("link", name="Back to the match")).to_have_count(0)
    expect(page.locator(f'a[href="/matches/{match.pk}/"]')).to_have_count(0)
    expect(closed).to_be_focused()  # read out at once
    # nothing of it is kept on the phone, to come back at the next visit
    kept = "Object.keys(localStorage).filter((k) => k.startsWith('arlington.entry.'))"
    assert page.evaluate(kept) == []
    closed.get_by_role("link", name="Back to the club").click()
    expect(page).to_have_url(re.compile(rf"/clubs/{club.pk}/$"))


def test_the_pages_sort_names_as_the_server_does(page_as, alice):
    """The entrants (sorted on the page) and the leaderboard's ties (sorted by the server) list
    the same names in the same order, letters like Ł and Ø included."""
    from matches.models import sorting_name

    page = page_as(alice)
    page.goto("/")
    names = ["Zoé", "adam", "Éloïse", "Bruno", "Łukasz", "Lara", "Øyvind", "Mia", "Pia"]
    on_the_page = page.evaluate(
        """async (names) => {
          const { byName } = await import("/static/web/dom.js");
          return names.map((name) => ({ name })).sort(byName).map((p) => p.name);
        }""",
        names,
    )
    assert on_the_page == sorted(names, key=sorting_name)

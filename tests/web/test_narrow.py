"""Every page fits a small screen and 200 % zoom: no sideways scroll, no cut text. Signed in
(clubs, club, matches, entry, standings, player, scoreboard, club nights, director's board,
room display, pairing cards) and for anyone (sign in, an invitation, the public results pages).

200 % zoom of the 390×844 phone is what the browser lays out at 195×422 CSS pixels, four
device pixels each; 320 px is the narrowest phone in use.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubnight.models import PublicLink
from matches.invitations import invitation_create
from tests.factories import create_match, record_hand, went_out
from tests.web.browsing import BROKEN_TEXTS, sign_in_cookie
from tests.web.entry import choose_ending, choose_player, open_entry, tap
from tests.web.worlds import drawn_night, finished_and_live

SIZES = {"200%-zoom": ((195, 422), 4), "320px": ((320, 700), 3)}

# what sticks out of the screen, and text cut short (an ellipsis or a clipped line)
OVERFLOW = """(width) => {
  // a data table may scroll inside its own box (WCAG 1.4.10 lets it); text for screen readers
  // only is not shown
  const inBox = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  // nor is what sits in a box clipped to a pixel (a table's header read out, not shown)
  const clipped = (e) => {
    for (let p = e; p && p !== document.body; p = p.parentElement) {
      const box = p.getBoundingClientRect();
      const tiny = box.width <= 1 && box.height <= 1;
      if (getComputedStyle(p).overflow === 'hidden' && tiny) return true;
    }
    return false;
  };
  const shown = [...document.querySelectorAll('body *')].filter(
    (e) => e.getClientRects().length && !e.closest('.visually-hidden') && !inBox(e) && !clipped(e));
  const out = shown.filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `wide: ${e.tagName}#${e.id}.${e.className}`);
  // text that sticks out of a box hiding its overflow, its own or an ancestor's
  const hiddenOut = (e) => {
    const box = e.getBoundingClientRect();
    const right = Math.max(box.right, box.left + e.scrollWidth); // its text, past its own box
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === 'visible') continue;
      const outer = p.getBoundingClientRect();
      if (right > outer.right + 1 || box.left < outer.left - 1) return true;
    }
    return false;
  };
  // (a chart's labels are not looked at: the chart scales as a whole, never clipped)
  const text = (e) => e instanceof HTMLElement && !e.children.length && e.textContent.trim();
  const ownCut = (e) => e.scrollWidth > e.clientWidth + 1
    && getComputedStyle(e).overflowX !== 'visible';
  const cut = shown.filter(text).filter((e) => ownCut(e) || hiddenOut(e))
    .map((e) => `cut: ${e.tagName}#${e.id}.${e.className} "${e.textContent.trim()}"`);
  // a list to choose from shows the chosen option's text in its own box, which no element's
  // size tells: every option is measured in the list's font, beside its padding and arrow
  const measure = document.createElement('canvas').getContext('2d');
  const choices = shown.filter((e) => e.tagName === 'SELECT').flatMap((e) => {
    const style = getComputedStyle(e);
    measure.font = style.font;
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - 20;  // the arrow
    return [...e.options].filter((o) => measure.measureText(o.text.trim()).width > room)
      .map((o) => `cut: SELECT#${e.id} option "${o.text.trim()}"`);
  });
  return [...out, ...cut, ...choices];
}"""


def fits(page) -> list[str]:
    width = page.viewport_size["width"]
    problems = page.evaluate(OVERFLOW, width)
    if page.evaluate("document.documentElement.scrollWidth") > width:
        problems.append(
            f"scrolls sideways: {page.evaluate('document.documentElement.scrollWidth')}"
        )
    return problems


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def size(request):
    return SIZES[request.param]


def phone(new_context, size, language: str = "en-GB"):
    """A page of a phone of ``size`` in ``language``, not signed in."""
    (width, height), scale = size
    context = new_context(
        language, viewport={"width": width, "height": height}, device_scale_factor=scale
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


@pytest.fixture
def narrow(size, new_context, live_server, alice):
    page = phone(new_context, size)
    sign_in_cookie(page.context, alice, live_server)
    return page


@pytest.fixture
def signed_out(size, new_context):
    return phone(new_context, size)


def signed_in_pages(club, roster, table, night, five) -> dict[str, tuple[str, str]]:
    """Every signed-in page of a club at play, by name: its address, and what shows it ready."""
    return {
        "clubs": ("/", "#club-list li"),
        "club": (f"/clubs/{club.pk}/", "#live-matches li"),
        "finished match": (f"/matches/{table.finished.pk}/", "#hands li[data-hand]"),
        "match": (f"/matches/{table.live.pk}/", "#hands li[data-hand]"),
        "standings": (f"/clubs/{club.pk}/standings/", "#standings-rows tr"),
        "new match": (f"/clubs/{club.pk}/matches/new/", "#match-form"),
        "player": (f"/players/{roster[0].pk}/", "#player-matches li"),
        "scoreboard": (f"/matches/{table.finished.pk}/scoreboard/", "#board li"),
        "club nights": (f"/clubs/{club.pk}/tournaments/", "#tournament-list li"),
        "director's board": (f"/tournaments/{night.pk}/", "#board-tables .night-table"),
        "room display": (f"/tournaments/{night.pk}/room/", "#room-leaderboard li"),
        "pairing cards": (f"/tournaments/{night.pk}/print/", "#pairing-cards li"),
        "entry": (f"/matches/{five.pk}/hands/new/", "#entry .picker"),
    }


def visit(page, pages: dict[str, tuple[str, str]], screenshot) -> dict[str, list[str]]:
    """Each page loaded until its ``ready`` element shows, and what does not fit on it (a
    screenshot of each, named after the page and the width)."""
    found = {}
    width = page.viewport_size["width"]
    for name, (url, ready) in pages.items():
        page.goto(url)
        expect(page.locator(ready).first).to_be_visible()
        found[name] = fits(page)
        screenshot(page, f"narrow-{width}-{name.replace(' ', '-').replace(chr(39), '')}")
    return found


def test_every_page_fits_without_sideways_scroll(
    narrow, club, roster, season, alice, night, screenshot
):
    table = finished_and_live(club, roster, season, alice)
    every = signed_in_pages(club, roster, table, night, create_match(club, roster, user=alice))
    names = ["clubs", "club", "finished match", "match", "standings", "new match"]
    pages = {name: every[name] for name in names}
    assert visit(narrow, pages, screenshot) == {name: [] for name in pages}


@pytest.fixture
def night(club, roster, alice):
    return drawn_night(club, roster, alice)


def test_the_other_signed_in_pages_fit_without_sideways_scroll(
    narrow, club, roster, season, alice, night, screenshot
):
    table = finished_and_live(club, roster, season, alice)
    every = signed_in_pages(club, roster, table, night, create_match(club, roster, user=alice))
    names = [
        "player",
        "scoreboard",
        "club nights",
        "director's board",
        "room display",
        "pairing cards",
    ]
    pages = {name: every[name] for name in names}
    assert visit(narrow, pages, screenshot) == {name: [] for name in pages}


def test_the_pages_for_anyone_fit_without_sideways_scroll(
    signed_out, club, roster, season, alice, night, screenshot
):
    table = finished_and_live(club, roster, season, alice)
    invitation = invitation_create(club=club, role="viewer", by=alice)
    links = {
        scope: PublicLink.objects.create(club=club, created_by=alice, scope=scope, **extra)
        for scope, extra in {
            "standings": {},
            "match": {"match": table.finished},
            "tournament": {"tournament": night},
        }.items()
    }
    pages = {
        "sign in": ("/sign-in/", "form"),
        "invitation": (f"/join/{invitation.code}", "#invitation"),
        "public standings": (f"/r/{links['standings'].token}/", "tbody tr"),
        "public match": (f"/r/{links['match'].token}/", "tbody tr"),
        "public club night": (f"/r/{links['tournament'].token}/", "tbody tr"),
        "how the rating works": ("/r/rating/", "main h1"),
    }
    assert visit(signed_out, pages, screenshot) == {name: [] for name in pages}


def test_the_entry_of_five_players_fits(narrow, roster, alice, screenshot):
    match = create_match(roster[0].club, roster, user=alice)
    open_entry(narrow, match.pk)
    # nothing tapped yet: the suit legend stands where the offers will
    expect(narrow.locator(".suit-legend")).to_be_visible()
    screenshot(narrow, f"narrow-{narrow.viewport_size['width']}-entry-picker")
    assert fits(narrow) == []
    # every key shows its whole card (10♥ is the widest), none spilling onto the next
    spilled = (
        "(keys) => keys.filter((k) => k.scrollWidth > k.clientWidth + 1).map((k) => k.ariaLabel)"
    )
    assert narrow.locator(".picker .pick").evaluate_all(spilled) == []
    tap(narrow, "KH")
    assert fits(narrow) == []
    # the one copy left is marked on the key, clear of its rank and suit
    key = narrow.locator('.picker .pick[data-card="KH"]')
    expect(key.locator(".left")).to_have_text("1")
    clear = """(key) => {
      const box = (e) => e.getBoundingClientRect();
      const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const left = box(key.querySelector('.left'));
      return ['.rank', '.suit'].every((part) => !meet(left, box(key.querySelector(part))));
    }"""
    assert key.evaluate(clear)
    # every player's tab names them whole
    names = narrow.locator(".player-tab .name")
    expect(names).to_have_count(5)
    assert names.evaluate_all("(nodes) => nodes.every((e) => e.scrollWidth <= e.clientWidth)")


def test_the_seating_order_fits_with_every_player_chosen(narrow, club, roster, screenshot):
    """Five seats, one of them a long name, each with its two moves: the rows wrap rather than
    push the page sideways."""
    from matches.models import Player

    Player.objects.create(club=club, name="Maria da Conceição Albuquerque")
    narrow.goto(f"/clubs/{club.pk}/matches/new/")
    choices = narrow.locator("#player-choices input[type=checkbox]")
    expect(choices).to_have_count(6)
    for index in range(5):
        choices.nth(index + 1).check()
    expect(narrow.locator("#seat-order li")).to_have_count(5)
    screenshot(narrow, f"narrow-{narrow.viewport_size['width']}-seating")
    assert fits(narrow) == []


# every pair of text lines, one in a label and one in its figure, that share some pixels
OVERLAPS = """(pairs) => {
  const lines = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return [...range.getClientRects()].filter((r) => r.width && r.height);
  };
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  return pairs.flatMap(([label, figure]) =>
    lines(label).some((a) => lines(figure).some((b) => meet(a, b)))
      ? [`${label.textContent.trim()} / ${figure.textContent.trim()}`] : []);
}"""


def test_no_figure_of_a_players_record_is_drawn_over_its_label(narrow, club, roster, season, alice):
    finished_and_live(club, roster, season, alice)
    narrow.goto(f"/players/{roster[0].pk}/")
    expect(narrow.locator("#record dd a")).to_have_count(1)  # the best hand, a link to it
    expect(narrow.locator("#record dt")).to_have_count(11)
    overlapping = narrow.locator("#record").evaluate(
        f"(list) => ({OVERLAPS})("
        "[...list.querySelectorAll('dt')].map((dt) => [dt, dt.nextElementSibling]))"
    )
    assert overlapping == []


LONG = ("Bénédicte de La Rochefoucauld-Montmorency", "Maria da Conceição Albuquerque")


@pytest.fixture
def long_names(roster):
    """Ann and Ben renamed as two players of long names, as a club's roster has them."""
    for player, name in zip(roster, LONG, strict=False):
        player.name = name
        player.save()
    return roster


def test_long_names_fit_the_match_its_hands_and_the_directors_board(
    narrow, club, long_names, season, alice, night, screenshot
):
    table = finished_and_live(club, long_names, season, alice)
    width = narrow.viewport_size["width"]
    narrow.goto(f"/matches/{table.finished.pk}/")
    hands = narrow.locator("#hands li[data-hand] details")
    expect(hands).to_have_count(3)
    for index in range(3):
        hands.nth(index).locator("summary").click()
    screenshot(narrow, f"narrow-{width}-long-names-match")
    assert fits(narrow) == []

    narrow.goto(f"/tournaments/{night.pk}/")
    expect(narrow.locator("#board-tables .night-table").first).to_be_visible()
    screenshot(narrow, f"narrow-{width}-long-names-board")
    assert fits(narrow) == []

    five = create_match(club, long_names, user=alice)
    open_entry(narrow, five.pk)
    screenshot(narrow, f"narrow-{width}-long-names-entry")
    assert fits(narrow) == []
    # a name breaks between its words, never inside one
    names = narrow.locator(".player-tab .name")
    assert names.evaluate_all(BROKEN_TEXTS) == []


@pytest.mark.parametrize("language", ["fr-FR", "pt-PT"])
def test_the_pages_fit_200_percent_zoom_in_french_and_portuguese(
    new_context, live_server, alice, club, roster, season, night, language, screenshot
):
    """French and Portuguese words are longer than English ones ("Victoires partagées",
    "Se déconnecter"): every page still fits at 200 % zoom."""
    page = phone(new_context, SIZES["200%-zoom"], language)
    sign_in_cookie(page.context, alice, live_server)
    table = finished_and_live(club, roster, season, alice)
    five = create_match(club, roster, user=alice)
    pages = signed_in_pages(club, roster, table, night, five)
    assert visit(page, pages, screenshot) == {name: [] for name in pages}


def test_the_season_lists_short_option_leaves_the_french_title_whole(
    new_context, live_server, alice, club, season
):
    """French "Depuis toujours" does not fit the season list at 200 % zoom beside its button,
    so the list says "Toutes" (all seasons); the page's title keeps the whole words."""
    page = phone(new_context, SIZES["200%-zoom"], "fr-FR")
    sign_in_cookie(page.context, alice, live_server)
    page.goto(f"/clubs/{club.pk}/standings/")
    expect(page.locator("#season option").first).to_have_text("Toutes")
    expect(page).to_have_title(f"Depuis toujours · {club.name}")
    assert fits(page) == []


@pytest.mark.parametrize("language", ["fr-FR", "pt-PT", "en-GB"])
def test_the_pickers_buttons_break_no_word_at_200_percent_zoom(
    new_context, live_server, alice, club, roster, language, screenshot
):
    """ "+ Nouvelle combinaison" in half of a 195 px bar broke inside "combinaison": the
    longest label has the bar's whole width, the others share a row between words."""
    page = phone(new_context, SIZES["200%-zoom"], language)
    sign_in_cookie(page.context, alice, live_server)
    match = create_match(club, roster[:3], user=alice)
    open_entry(page, match.pk)
    buttons = page.locator(".picker-bar .bar-button")
    expect(buttons).to_have_count(3)
    screenshot(page, f"narrow-195-picker-bar-{language}")
    assert buttons.evaluate_all(BROKEN_TEXTS) == []
    assert fits(page) == []


def test_long_names_are_whole_on_the_entry_tabs_of_a_phone(page_as, alice, club, long_names):
    """At the phone's own 390 px five players' tabs fit on one row only with short names: long
    ones take more rows, each name whole, and a player's problem mark is beside their name."""
    match = create_match(club, long_names, user=alice)
    page = page_as(alice)
    open_entry(page, match.pk)
    tap(page, "KH")  # a meld of one card: a problem for Bénédicte
    mark = page.locator("#tab-0 .tab-problem")
    expect(mark).to_be_visible()
    names = page.locator(".player-tab .name")
    expect(names).to_have_count(5)
    assert names.evaluate_all("(nodes) => nodes.filter((e) => e.scrollWidth > e.clientWidth)") == []
    assert names.evaluate_all(BROKEN_TEXTS) == []
    clear = """(mark) => {
      const name = document.querySelector('#tab-0 .name');
      const range = document.createRange();
      range.selectNodeContents(name);
      const m = mark.getBoundingClientRect();
      return [...range.getClientRects()].every((r) => r.right <= m.left + 0.5
        || r.top >= m.bottom - 0.5 || r.bottom <= m.top + 0.5);
    }"""
    assert mark.evaluate(clear)


def test_a_club_night_named_without_a_break_fits(
    narrow, club, roster, season, alice, night, screenshot
):
    """A night's name of 100 letters without a space (the most the API takes) wraps on every
    page that shows it, as a club's or a player's long name does."""
    night.name = "Thursday" * 12 + "Nite"
    night.save(update_fields=["name"])
    link = PublicLink.objects.create(
        club=club, created_by=alice, scope="tournament", tournament=night
    )
    table = finished_and_live(club, roster, season, alice)
    every = signed_in_pages(club, roster, table, night, create_match(club, roster, user=alice))
    names = ["club nights", "director's board", "room display", "pairing cards"]
    pages = {name: every[name] for name in names}
    pages["public club night"] = (f"/r/{link.token}/", "tbody tr")
    assert visit(narrow, pages, screenshot) == {name: [] for name in pages}


def test_the_recorded_hand_beside_mine_fits_200_percent_zoom_in_french(
    new_context, live_server, alice, bob, club, roster, screenshot
):
    """Two columns of 59 px cut "Enregistrée par alice" to "Enregist": at 200 % zoom the
    recorded hand and this phone's stand one above the other, every word whole."""
    page = phone(new_context, SIZES["200%-zoom"], "fr-FR")
    sign_in_cookie(page.context, bob, live_server)
    ann, ben = roster[:2]
    match = create_match(club, [ann, ben], user=alice)
    open_entry(page, match.pk)
    page.route("**/draft/**", lambda route: route.abort())  # the phone's signal drops
    choose_ending(page, str(ann.pk))
    choose_player(page, 1)
    page.locator('[data-key="bar-hand"]').click()
    tap(page, "KC")
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk]), "number": 1}, user=alice)
    page.unroute("**/draft/**")
    page.locator("#share-compare").click()
    taken = page.locator("#taken")
    expect(taken).to_be_visible()
    expect(taken.locator(".stale-column h3").first).to_contain_text("Enregistrée par")
    expect(taken.locator(".stale-player p").last).to_contain_text("Reste en main\u00a0:")
    screenshot(page, "narrow-195-taken-fr")
    assert fits(page) == []
    assert taken.locator(".stale-column h3").evaluate_all(BROKEN_TEXTS) == []


TOP_BAR_OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.topbar .brand, .topbar .topnav a,'
                                            + ' .topbar .topnav button')]
    .map((e) => [e.textContent.trim(), e.getBoundingClientRect()]);
  const found = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [[x, a], [y, b]] = [boxes[i], boxes[j]];
    const across = a.left < b.right - 1 && b.left < a.right - 1;
    if (across && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`${x} / ${y}`);
  }
  return found;
}"""


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
@pytest.mark.parametrize("language", ["fr-FR", "pt-PT", "en-GB"])
def test_the_top_bars_links_never_lie_over_one_another(
    new_context, live_server, alice, club, size, language, screenshot
):
    """ "Se déconnecter" wrapped under the bar's other link spilled over "Arlington" at 200 %
    zoom: a tap there could land on either. Each control of the bar has its own ground."""
    page = phone(new_context, size, language)
    sign_in_cookie(page.context, alice, live_server)
    page.goto(f"{live_server.url}/clubs/{club.pk}/")
    screenshot(page, f"narrow-top-bar-{size[0][0]}-{language}")
    assert page.evaluate(TOP_BAR_OVERLAPS) == []
    assert fits(page) == []


LONG_NAME = "Maximiliana Wolfeschlegelsteinhausen-Bergdorf"


def test_a_player_with_a_long_name_fits_on_every_page_that_names_them(
    narrow, club, roster, season, alice, screenshot
):
    """A name with a word wider than the screen (a double-barrelled surname at 200 % zoom)
    breaks inside that word rather than pushing the page sideways."""
    roster[0].name = LONG_NAME
    roster[0].save()
    night = drawn_night(club, roster, alice)
    table = finished_and_live(club, roster, season, alice)
    every = signed_in_pages(club, roster, table, night, create_match(club, roster, user=alice))
    found = visit(narrow, every, screenshot)
    # A list to choose a player from (an invitation's player) cannot wrap the name it shows
    # when that name is chosen: the browser's own list shows each one whole.
    chosen = f'cut: SELECT#invite-player option "{LONG_NAME}"'
    found["club"] = [problem for problem in found["club"] if problem != chosen]
    assert found == {name: [] for name in every}

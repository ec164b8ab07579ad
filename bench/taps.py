"""Benchmark: how many taps a scorekeeper needs to enter a hand on the app, on a phone.

Serves the app (``manage.py runserver`` on 127.0.0.1, a throwaway SQLite database, as
``make run`` does), signs in through the form, and drives Debian's Chromium at 390×844 as a
person would: every control is found by its visible label or role, never by a CSS class. For
each hand of bench/taps_hands.py (three and five players, wild twos including 2♦=Q♠ in
J♠–2–K♠ and a two standing for an ace, a set of twos, a hand whose stock ran out) it opens a
fresh match, taps "Enter hand 1", enters every player's melds and held cards with the
quickest way the screen offers, records the hand, and checks that what the API recorded is
exactly the hand on the table (same melds, same held cards, same declarations).

The person uses a shortcut only when the screen shows it (a run filled in from its two end
cards, or offered after them; a set offered after its first card; a two offered for a run's
gap; a two's suggested declaration; "the rest"; the review screen); on a screen without them
they tap every card. So the same script measures any version of the app:
``--root`` serves another checkout (for example ``git archive <commit> | tar -x -C /tmp/old``).

Each hand is entered twice (``--mode both``, the default): once on one phone alone, and once
shared among the phones at the table, the way the entry screen shares a hand through the API's
draft of it: the scorekeeper's phone taps the ending and every meld (and "the rest" when the
stock ran out), while each player still holding cards taps them on their own phone, signed in
as themselves. The shared hand counts every phone's taps, opening the entry included.

A third way (``--mode own``) is the table's own: each player taps their own melds and held
cards on their own phone (it opens on their own part, melds first), and the scorekeeper's
phone taps the ending (and "the rest" when the stock ran out) and records. ``--mode all`` runs
the three ways; ``both``, the default, the first two.

Counts: a tap is one click or check; key presses are characters typed (none by default: the
person taps). Prints one line per hand and ends with lines of the form
``3 players: median N taps (min–max); 5 players: median N taps; stock run out: N taps``: one
phone alone, the shared entry's phones together, and the busiest phone of the shared entry;
with ``own``, ``each on their own phone, the busiest phone: 3 players: median N taps
(min–max); 5 players: median N taps``.

Run: ``.venv/bin/python bench/taps.py [--root PATH] [--port 18710] [--only N] [--show]
[--mode one|shared|own|both|all]``.
Needs /usr/bin/chromium (``make browser``). Exit status 1 when a hand is recorded wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.taps_hands import HANDS, TOP_DISCARD, resolve  # noqa: E402
from tests import harness  # noqa: E402

USERNAME = "keeper"
PASSWORD = "keeper-pw-1234"
NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eve")
RANKS = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ENTER_HAND = re.compile(r"^Enter (the next hand|hand \d+)$")


def card_name(code: str) -> str:
    """A card as the English screen names it: "the queen of spades"."""
    card, _, represents = code.partition("=")
    name = f"the {RANKS[card[:-1]]} of {SUITS[card[-1]]}"
    return f"{name} standing for {card_name(represents)}" if represents else name


def face(code: str) -> str:
    """A card as the screen shows it: "Q♠"."""
    return code[:-1] + SYMBOLS[code[-1]]


# --- the server ------------------------------------------------------------------------------


def environment(root: Path, database: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        SECRET_KEY="arlington-taps-bench",
        DEBUG="true",
        DJANGO_SETTINGS_MODULE="arlington_site.settings",
        PYTHONPATH=str(root),
    )
    env.pop("DATABASE_REPLICA_URLS", None)
    return env


SEED = """
import json
from django.contrib.auth import get_user_model
from matches.services import clubs as club_services
from matches.services import matches as match_services
from matches.models import Player
user = get_user_model().objects.create_user(username={username!r}, password={password!r})
club = club_services.club_create(name="Taps Card Club", user=user)
players = []
for name in {names!r}:
    member = get_user_model().objects.create_user(username=name.lower(), password={password!r})
    club_services.membership_set(club=club, user=member, role="scorekeeper")
    players.append(Player.objects.create(club=club, name=name, user=member))
matches = []
for count in {counts!r}:
    seated = [p.pk for p in players[:count]]
    match = match_services.match_create(club=club, players=seated, user=user)
    matches.append(match.pk)
print(json.dumps(matches))
"""


def seed(root: Path, env: dict[str, str]) -> list[int]:
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=root, env=env, check=True)
    code = SEED.format(
        username=USERNAME,
        password=PASSWORD,
        names=NAMES,
        counts=[len(players) for _, _, players in HANDS] * 3,
    )
    out = subprocess.run(
        [python, "manage.py", "shell", "-c", code],
        cwd=root, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [int(x) for x in re.findall(r"\d+", out.stdout.strip().splitlines()[-1])]


@contextlib.contextmanager
def serving(root: Path, env: dict[str, str], port: int) -> Iterator[str]:
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    with harness.serving(
        command,
        ready=harness.answers_http(port, "/sign-in/"),
        what=f"the server on port {port}",
        env=env,
        cwd=root,
        log=Path(tempfile.gettempdir()) / f"arlington-taps-server-{port}.log",
        seconds=120,  # a busy machine
    ):
        yield f"http://127.0.0.1:{port}"


# --- the person ------------------------------------------------------------------------------


class Person:
    """Taps the screen; counts what it does."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, locator) -> None:
        if os.environ.get("TAPS_TRACE"):
            print("   tap", locator, file=sys.stderr)
        locator.click()
        self.taps += 1

    def shown(self, locator) -> bool:
        return locator.count() > 0 and locator.first.is_visible()

    # controls by their labels and roles

    def button(self, name, scope=None):
        return (scope or self.page).get_by_role("button", name=name, exact=True)

    def picker(self):
        return self.page.get_by_role("region", name=re.compile(r"^Tap cards to add"))

    def pick(self, code: str):
        name = re.compile(rf"^{re.escape(card_name(code))}(, 1 left)?$")
        return self.picker().get_by_role("button", name=name)

    def target_text(self) -> str:
        return self.page.get_by_text(re.compile(r"^Tap cards to add them to:")).inner_text()

    # entering

    def choose_player(self, index: int, name: str) -> None:
        tab = self.page.get_by_role("tab", name=re.compile(rf"^{name}\b"))
        if tab.get_attribute("aria-selected") != "true":
            nxt = self.button(re.compile(r"^Next player"), self.picker())
            self.tap(nxt if self.shown(nxt) else tab)
        assert tab.get_attribute("aria-selected") == "true"

    def to_new_meld(self) -> None:
        """Make an empty meld the target (tap "+ New meld" unless the target is one already)."""
        target = self.target_text()
        melds = self.page.get_by_role("tabpanel").locator("li.group:not(.hand)")
        match = re.search(r"Meld (\d+)", target)
        if match:
            index = int(match.group(1)) - 1
            empty = melds.nth(index).get_by_text("—", exact=True)
            if empty.count():
                return
        self.tap(self.button("+ New meld", self.picker()))

    def offer(self, meld: list[str]):
        """The screen's offer of exactly this meld (as a whole, in any order), or None."""
        strip = self.page.get_by_role("group", name="Whole melds")
        if not strip.count():
            return None
        wanted = sorted(card_name(code) for code in meld)
        for button in strip.get_by_role("button").all():
            label = button.get_attribute("aria-label") or ""
            if not label.startswith("Whole meld: "):
                continue  # a two for a gap: not this meld
            if sorted(label.split(": ", 1)[-1].split(", ")) == wanted:
                return button
        return None

    def meld_index(self) -> int | None:
        """The meld the next taps go to (0-based), or None for the cards in hand."""
        match = re.search(r"Meld (\d+)", self.target_text())
        return int(match.group(1)) - 1 if match else None

    def meld_holds(self, index: int, meld: list[str]) -> bool:
        """Whether meld ``index`` of the player shown holds exactly these cards (the screen
        filled a run in from its two ends)."""
        row = self.page.get_by_role("tabpanel").locator("li.group:not(.hand)").nth(index)
        labels = row.locator(".chips button").evaluate_all(
            "(chips) => chips.map((c) => c.getAttribute('aria-label'))"
        )
        names = sorted(re.sub(r"^Remove |^What does | stand for\?$", "", x) for x in labels)
        return names == sorted(card_name(code) for code in meld)

    def gap_offer(self, stands: str):
        """The screen's offer of a two standing for ``stands`` in a run's gap, or None."""
        strip = self.page.get_by_role("group", name="Whole melds")
        name = re.compile(rf"^A two for {re.escape(card_name(stands))}: ")
        button = strip.get_by_role("button", name=name)
        return button.first if strip.count() and button.count() else None

    def enter_meld(self, meld: list[str]) -> None:
        self.to_new_meld()
        index = self.meld_index()
        wild = [code for code in meld if "=" in code]
        if len(wild) == 1 and "=" not in meld[0] + meld[-1] and self.enter_gap_run(meld, index):
            return
        order = list(meld)
        if not wild and len({code[-1] for code in meld}) == 1 and len(meld) > 2:
            order = [meld[0], meld[-1], *meld[1:-1]]  # a run: its two ends first
        for tapped, code in enumerate(order, 1):
            self.tap(self.pick(code.split("=")[0]))
            if tapped == 2 and not wild and index is not None and self.meld_holds(index, meld):
                return  # the screen filled the run in from its two ends
            offer = None if wild or tapped > 2 else self.offer(meld)
            if offer is not None:
                self.tap(offer)
                return
        for code in meld:
            if "=" in code:
                self.declare(code)

    def enter_gap_run(self, meld: list[str], index) -> bool:
        """A run with a two in a gap (J♠ 2♦=Q♠ K♠): its two ends, then the screen's offer of
        a two for the gap, then the two. False (nothing tapped) when the meld is no run."""
        wild = next(code for code in meld if "=" in code)
        two, stands = wild.split("=")
        naturals = [code for code in meld if "=" not in code]
        if len({code[-1] for code in [*naturals, stands]}) != 1:
            return False
        self.tap(self.pick(meld[0]))
        self.tap(self.pick(meld[-1]))
        offer = self.gap_offer(stands)
        if offer is None:  # no such offer on this screen: the rest card by card
            for code in meld[1:-1]:
                self.tap(self.pick(code.split("=")[0]))
            self.declare(wild)
            return True
        self.tap(offer)
        dialog = self.page.get_by_role("dialog")
        choice = self.button(card_name(two), dialog)
        choice.wait_for(state="visible")
        self.tap(choice)
        chip = self.page.get_by_role("tabpanel").locator("li.group:not(.hand)").nth(index)
        declared = chip.get_by_role("button", name=f"What does {card_name(wild)} stand for?")
        with contextlib.suppress(Exception):
            declared.wait_for(state="visible", timeout=5000)
        if not self.shown(declared):
            self.declare(wild)
        return True

    def declare(self, code: str) -> None:
        two, represents = code.split("=")
        panel = self.page.get_by_role("tabpanel")
        meaning = self.button(f"Did you mean {card_name(code)}?", panel)
        with contextlib.suppress(Exception):
            meaning.first.wait_for(state="visible", timeout=3000)
        if self.shown(meaning):
            self.tap(meaning.first)
            return
        self.tap(self.button(f"What does {card_name(two)} stand for?", panel).first)
        dialog = self.page.get_by_role("dialog")
        choice = self.button(card_name(code), dialog)
        choice.wait_for(state="visible")
        self.tap(choice)

    def enter_held(self, held: list[str], rest: bool = False) -> None:
        if not held:
            return
        to_hand = self.button("Left in hand", self.picker())
        if to_hand.get_attribute("aria-pressed") != "true":  # a player's own phone opens there
            self.tap(to_hand)
        the_rest = self.button("The rest of the cards", self.page.get_by_role("tabpanel"))
        if rest and self.shown(the_rest):
            self.tap(the_rest)
            dialog = self.page.get_by_role("dialog")
            self.tap(self.button(card_name(TOP_DISCARD), dialog))
            return
        for code in held:
            self.tap(self.pick(code))

    def choose_ending(self, ending, names) -> None:
        label = "The stock ran out" if ending == "stock_exhausted" else f"{names[ending]} went out"
        self.tap(self.page.get_by_label(label, exact=True))

    def record(self) -> None:
        expect_valid(self.page)
        self.tap(self.button("Record hand"))
        review = self.page.get_by_role("region", name="Check the hand before recording it")
        with contextlib.suppress(Exception):
            review.wait_for(state="visible", timeout=3000)
        if self.shown(review):
            self.tap(self.button("Record hand", review))


def expect_valid(page) -> None:
    page.get_by_text("This hand can be recorded.").wait_for(state="visible", timeout=15000)


def enter_hand(person: Person, hand) -> None:
    rests = [held == ["REST"] for _, held in hand[2]]
    title, ending, players = resolve(hand)
    names = NAMES[: len(players)]
    page = person.page
    # "Enter hand N" names the next hand; older versions of the app said "Enter the next hand".
    person.tap(page.get_by_role("link", name=ENTER_HAND))
    person.picker().wait_for(state="visible")
    person.choose_ending(ending, names)
    for index, (melds, held) in enumerate(players):
        person.choose_player(index, names[index])
        for meld in melds:
            person.enter_meld(meld)
        person.enter_held(held, rests[index])
    person.record()


def recorded_rightly(page, base: str, match_id: int, hand) -> list[str]:
    """Differences between the hand the API recorded and the hand on the table."""
    _, ending, players = resolve(hand)
    answer = page.request.get(f"{base}/api/v1/matches/{match_id}/hands/1/").json()
    wrong = []
    if answer.get("ending") != ("stock_exhausted" if ending == "stock_exhausted" else "went_out"):
        wrong.append(f"ending {answer.get('ending')}")
    for index, ((melds, held), result) in enumerate(zip(players, answer["results"], strict=True)):
        got_melds = Counter(tuple(sorted(m["cards"])) for m in result["melds"])
        if got_melds != Counter(tuple(sorted(m)) for m in melds):
            wrong.append(f"player {index} melds {sorted(got_melds)}")
        if Counter(c["card"] for c in result["held"]) != Counter(held):
            wrong.append(f"player {index} held")
    return wrong


SHARED = "Shared with the other phones at this table."


def draft_holds(page, base: str, match_id: int, player_id: int, held: list[str]) -> bool:
    """Whether the server's draft of hand 1 holds ``held`` as the player's cards in hand."""
    answer = page.request.get(f"{base}/api/v1/matches/{match_id}/hands/1/draft/")
    if not answer.ok:
        return False
    for part in answer.json().get("players", []):
        if part["player"] == player_id and Counter(part["hand"]) == Counter(held):
            return True
    return False


def enter_hand_shared(keeper: Person, phones: dict, hand, base: str, match_id: int) -> list[int]:
    """The hand entered by several phones at once: each player still holding cards taps them
    on their own phone, while the scorekeeper taps the ending and every meld (and, when the
    stock ran out, "the rest" for the last player). Returns each player's phone's taps."""
    rests = [held == ["REST"] for _, held in hand[2]]
    title, ending, players = resolve(hand)
    names = NAMES[: len(players)]
    ids = player_ids(keeper.page, base, match_id)
    keeper.tap(keeper.page.get_by_role("link", name=ENTER_HAND))
    keeper.picker().wait_for(state="visible")
    keeper.page.get_by_text(SHARED, exact=True).wait_for(state="visible")
    keeper.choose_ending(ending, names)
    taps = []
    for index, (_, held) in enumerate(players):
        if not held or rests[index]:
            continue
        phone = Person(phones[index])
        phone.page.goto(f"/matches/{match_id}/")
        phone.tap(phone.page.get_by_role("link", name=ENTER_HAND))
        phone.picker().wait_for(state="visible")
        phone.page.get_by_text(SHARED, exact=True).wait_for(state="visible")
        tab = phone.page.get_by_role("tab", name=re.compile(rf"^{names[index]}\b"))
        if tab.get_attribute("aria-selected") != "true":
            phone.tap(tab)
        phone.enter_held(held)
        for _ in range(150):  # the phone sends its taps a moment after the last one
            if draft_holds(phone.page, base, match_id, ids[index], held):
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"{names[index]}'s phone did not share their cards")
        taps.append(phone.taps)
    # The scorekeeper's screen shows the players' cards within a poll (2.5 s); waiting for them
    # here keeps the offers of whole melds from changing under the script's reading of them.
    held_counts = [0 if rests[i] else len(held) for i, (_, held) in enumerate(players)]
    keeper.page.wait_for_function(
        """([key, counts]) => {
            const draft = JSON.parse(localStorage.getItem(key) ?? "null");
            return draft && draft.players.every((p, i) => p.hand.length === counts[i]);
        }""",
        arg=[f"arlington.entry.{match_id}.next", held_counts],
        timeout=30000,
    )
    for index, (melds, held) in enumerate(players):
        keeper.choose_player(index, names[index])
        for meld in melds:
            keeper.enter_meld(meld)
        if rests[index]:
            keeper.enter_held(held, True)
    keeper.record()
    return taps


def draft_part_holds(page, base: str, match_id: int, player_id: int, melds, held) -> bool:
    """Whether the server's draft of hand 1 holds exactly this player's melds and held cards."""
    answer = page.request.get(f"{base}/api/v1/matches/{match_id}/hands/1/draft/")
    if not answer.ok:
        return False
    for part in answer.json().get("players", []):
        if part["player"] == player_id:
            return Counter(tuple(sorted(m)) for m in part["melds"]) == Counter(
                tuple(sorted(m)) for m in melds
            ) and Counter(part["hand"]) == Counter(held)
    return not melds and not held


def enter_hand_own(keeper: Person, phones: dict, hand, base: str, match_id: int) -> list[int]:
    """The hand as a table enters it: each player taps their own melds and held cards on their
    own phone, the scorekeeper's phone taps the ending (and "the rest" when the stock ran out)
    and records. Returns each player's phone's taps."""
    rests = [held == ["REST"] for _, held in hand[2]]
    title, ending, players = resolve(hand)
    names = NAMES[: len(players)]
    ids = player_ids(keeper.page, base, match_id)
    keeper.tap(keeper.page.get_by_role("link", name=ENTER_HAND))
    keeper.picker().wait_for(state="visible")
    keeper.page.get_by_text(SHARED, exact=True).wait_for(state="visible")
    keeper.choose_ending(ending, names)
    taps = []
    for index, (melds, held) in enumerate(players):
        phone = Person(phones[index])
        phone.page.goto(f"/matches/{match_id}/")
        phone.tap(phone.page.get_by_role("link", name=ENTER_HAND))
        phone.picker().wait_for(state="visible")
        phone.page.get_by_text(SHARED, exact=True).wait_for(state="visible")
        phone.choose_player(index, names[index])  # it opens there: no tap
        for meld in melds:
            phone.enter_meld(meld)
        if not rests[index]:
            phone.enter_held(held)
        for _ in range(150):  # the phone sends its taps a moment after the last one
            if draft_part_holds(
                phone.page, base, match_id, ids[index], melds, [] if rests[index] else held
            ):
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"{names[index]}'s phone did not share their cards")
        taps.append(phone.taps)
    counts = [
        sum(map(len, melds)) + (0 if rests[i] else len(held))
        for i, (melds, held) in enumerate(players)
    ]
    keeper.page.wait_for_function(
        """([key, counts]) => {
            const draft = JSON.parse(localStorage.getItem(key) ?? "null");
            return draft && draft.players.every(
                (p, i) => p.melds.flat().length + p.hand.length === counts[i]);
        }""",
        arg=[f"arlington.entry.{match_id}.next", counts],
        timeout=30000,
    )
    for index, (_, held) in enumerate(players):
        if rests[index]:  # straight to that player's tab ("Next player" goes one by one)
            tab = keeper.page.get_by_role("tab", name=re.compile(rf"^{names[index]}\b"))
            if tab.get_attribute("aria-selected") != "true":
                keeper.tap(tab)
            keeper.enter_held(held, True)
    keeper.record()
    return taps


def player_ids(page, base: str, match_id: int) -> list[int]:
    """The match's players in seat order."""
    answer = page.request.get(f"{base}/api/v1/matches/{match_id}/").json()
    return [seat["player"] for seat in answer["seats"]]


def phone(browser, base: str, username: str):
    """A phone signed in as ``username``, at 390×844."""
    context = browser.new_context(
        base_url=base,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.set_default_timeout(30000)  # a busy machine redraws slowly
    page.goto("/sign-in/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    return page


def summary(results: list[tuple[str, int, int]], stock: bool = True) -> str:
    """The closing line: medians of three-player hands, five-player hands, the stock run out."""
    three = [taps for title, n, taps in results if n == 3 and "stock" not in title]
    five = [taps for title, n, taps in results if n == 5]
    stocks = [taps for title, _, taps in results if "stock" in title]

    def med(values: list[int]) -> str:
        return f"{statistics.median(values):g}" if values else "–"

    span = f" ({min(three)}–{max(three)})" if three else ""
    line = f"3 players: median {med(three)} taps{span}; 5 players: median {med(five)} taps"
    return f"{line}; stock run out: {med(stocks)} taps" if stock else line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout to serve")
    parser.add_argument("--port", type=int, default=18710)
    parser.add_argument("--only", type=int, action="append", help="enter only hand N (1-based)")
    parser.add_argument("--show", action="store_true", help="save a screenshot after each hand")
    parser.add_argument(
        "--mode",
        choices=("one", "shared", "own", "both", "all"),
        default="both",
        help="one phone alone, the hand shared among the players' phones, each player on their"
        " own phone, one and shared (both, the default), or all three",
    )
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    root = args.root.resolve()
    failed = False
    alone: list[tuple[str, int, int]] = []
    shared: list[tuple[str, int, int]] = []
    shared_all: list[tuple[str, int, int]] = []
    own: list[tuple[str, int, int]] = []
    with tempfile.TemporaryDirectory(prefix="arl-taps-") as tmp:
        env = environment(root, Path(tmp) / "db.sqlite3")
        match_ids = seed(root, env)
        with serving(root, env, args.port) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            page = phone(browser, base, USERNAME)
            phones = {i: phone(browser, base, name.lower()) for i, name in enumerate(NAMES)}
            modes = {"both": ("one", "shared"), "all": ("one", "shared", "own")}.get(
                args.mode, (args.mode,)
            )
            for mode in modes:
                print(
                    {
                        "one": "Each hand on one phone:",
                        "shared": "Each hand shared: the scorekeeper taps the ending and the"
                        " melds, each player the cards left in their own hand, on their own"
                        " phone:",
                        "own": "Each player on their own phone: their own melds and held cards;"
                        " the scorekeeper taps the ending and records:",
                    }[mode],
                    flush=True,
                )
                first = {"one": 0, "shared": 1, "own": 2}[mode] * len(HANDS)
                ids = match_ids[first : first + len(HANDS)]
                for number, (hand, match_id) in enumerate(zip(HANDS, ids, strict=True), 1):
                    if args.only and number not in args.only:
                        continue
                    page.goto(f"/matches/{match_id}/")
                    person = Person(page)
                    others: list[int] = []
                    if mode == "one":
                        enter_hand(person, hand)
                    elif mode == "shared":
                        others = enter_hand_shared(person, phones, hand, base, match_id)
                    else:
                        others = enter_hand_own(person, phones, hand, base, match_id)
                    page.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
                    wrong = recorded_rightly(page, base, match_id, hand)
                    if args.show:
                        page.screenshot(path=f"{tmp}/../taps-{mode}-{number}.png", full_page=True)
                    title, _, players = hand
                    cards = sum(len(h) + sum(map(len, m)) for m, h in resolve(hand)[2])
                    if mode == "one":
                        said = f"{person.taps} taps, {person.keys} key presses"
                    else:
                        said = (
                            f"{person.taps} taps on the scorekeeper's phone; players' phones"
                            f" {', '.join(map(str, others)) or 'none'}"
                            f" ({person.taps + sum(others)} taps in all)"
                        )
                    print(
                        f"{number:2}. {title}: {said} ({cards} cards)"
                        f"{'  RECORDED WRONG: ' + '; '.join(wrong) if wrong else ''}",
                        flush=True,
                    )
                    failed |= bool(wrong)
                    if mode == "one":
                        alone.append((title, len(players), person.taps))
                    elif mode == "own":
                        own.append((title, len(players), max([person.taps, *others])))
                    else:
                        busiest = max([person.taps, *others])
                        shared.append((title, len(players), busiest))
                        shared_all.append((title, len(players), person.taps + sum(others)))
            browser.close()
    if alone:
        print(f"one phone alone: {summary(alone)}")
    if shared:
        print(f"shared, all phones together: {summary(shared_all)}")
        print(f"shared, the busiest phone: {summary(shared)}")
    if own:
        print(f"each on their own phone, the busiest phone: {summary(own, stock=False)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

// The director's board: every table of the latest round, live, the leaderboard, and the draw.
import { ApiError, clearMessages, del, get, getAll, post, request, showError } from "../api.js";
import { byName, h, number, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { decimal, tableCard } from "../nighttables.js";

const root = document.getElementById("director-board");
const tournamentId = pageData().tournament;
const REFRESH_MS = 10000;
let club = null;
let director = false;
let lastRound = null;
let reopened = []; // tables of earlier rounds played again

// While a table of the last round is still playing, the next round cannot be drawn and nobody
// comes or goes: the board says so, and those buttons wait, rather than be refused when tapped.
// A table of an earlier round reopened by a correction holds the draw back too, and says so.
function showPlaying() {
  const current = Boolean(lastRound?.tables.some((table) => table.status !== "finished"));
  const again = reopened[0];
  const playing = current || Boolean(again);
  const notice = document.getElementById("round-playing");
  notice.hidden = !playing;
  // before any hand, the round can still be undone: the way to seat someone who came late
  const undoable = director && current && !lastRound.tables.some((table) => table.hands_played > 0);
  notice.textContent = current ? [t("round_playing", { number: lastRound.number }),
    ...(undoable ? [t("round_undo_to_seat", { number: lastRound.number })] : [])].join(" ")
    : again ? t("table_reopened", { table: again.name, number: again.round }) : "";
  const waiting = [document.getElementById("draw-button"),
    ...document.querySelectorAll("#entrant-list button, #entrant-form button, #entrant-form select")];
  for (const control of waiting) control.disabled = playing;
}

function render(board) {
  document.getElementById("tournament-name").textContent = board.name;
  document.title = board.name;
  const round = board.round;
  lastRound = round;
  reopened = board.reopened ?? [];
  document.getElementById("reopened").hidden = !reopened.length;
  document.getElementById("reopened-tables").replaceChildren(...reopened.map((table) => tableCard(
    { ...table, name: t("table_of_round", { table: table.name, number: table.round }) })));
  const undo = document.getElementById("undo-button");
  undo.hidden = !director || !round || round.tables.some((table) => table.hands_played > 0);
  if (round) undo.textContent = t("undo_round", { number: round.number });
  showPlaying();
  document.getElementById("round-heading").textContent = round ? t("round_title", { number: round.number }) : t("no_round");
  document.getElementById("board-tables").replaceChildren(...(round ? round.tables.map((table) => tableCard(table)) : []));
  document.getElementById("board-updated").textContent = t("updated_at", { time: new Date().toLocaleTimeString(document.documentElement.lang) });
  document.getElementById("leaderboard-rows").replaceChildren(...board.leaderboard.map((row) =>
    h("tr", { dataset: { player: row.player } },
      h("td", { class: "num" }, row.rank),
      h("th", { scope: "row" }, h("a", { href: `/players/${row.player}/` }, row.name), row.withdrawn ? ` (${t("withdrawn")})` : ""),
      h("td", { class: "num" }, decimal(row.victory_points)),
      h("td", { class: "num" }, number(row.points)),
      h("td", { class: "num" }, row.matches))));
}

async function loadEntrants() {
  const [entrants, roster] = await Promise.all([get(`tournaments/${tournamentId}/entrants/`), getAll(`players/?club=${club.id}`)]);
  const entered = new Set(entrants.filter((entry) => !entry.withdrawn).map((entry) => entry.player));
  document.getElementById("entrant-list").replaceChildren(...entrants.filter((entry) => !entry.withdrawn).sort(byName).map((entry) =>
    h("li", { dataset: { player: entry.player } },
      h("span", {}, entry.name),
      h("button", { type: "button", class: "button small", "aria-label": t("withdraw_player", { name: entry.name }), onclick: (event) => withdraw(entry, event.currentTarget) }, t("withdraw")))));
  // a refresh keeps the player being chosen, unless they came in on another phone meanwhile
  const select = document.getElementById("entrant-player");
  const chosen = select.value;
  select.replaceChildren(...roster.filter((player) => !entered.has(player.id)).sort(byName).map((player) =>
    h("option", { value: player.id }, player.name)));
  if ([...select.options].some((option) => option.value === chosen)) select.value = chosen;
  document.getElementById("entrant-form").hidden = entered.size === roster.length;
  showPlaying();
}

// the entrants and the board read again, after a change made here or refused
const reload = () => Promise.all([loadEntrants(), load()]);

// The button waits for the answer: a second tap of a double tap would find the player gone.
async function withdraw(entry, button) {
  if (button.disabled) return;
  button.disabled = true;
  clearMessages();
  try {
    await del(`tournaments/${tournamentId}/entrants/${entry.player}/`);
    document.getElementById("draw-status").textContent = t("player_withdrawn", { name: entry.name });
    await reload();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      // withdrawn meanwhile on another phone: the list is out of date, not the player missing
      document.getElementById("draw-status").textContent = t("player_already_withdrawn", { name: entry.name });
      await reload();
      return;
    }
    showError(error, { sentences });
  } finally {
    button.disabled = false;
    showPlaying();
  }
}

async function enter(event) {
  event.preventDefault();
  clearMessages();
  const select = document.getElementById("entrant-player");
  const add = event.submitter ?? document.querySelector("#entrant-form button");
  const name = select.selectedOptions[0]?.textContent;
  if (add.disabled) return;
  add.disabled = true;
  try {
    await post(`tournaments/${tournamentId}/entrants/`, { player: Number(select.value) });
    document.getElementById("draw-status").textContent = t("player_entered", { name });
    await reload();
  } catch (error) {
    // refused: the list is read again beside the sentence, so that it shows why
    if (error instanceof ApiError) await reload().catch(() => {});
    if (error instanceof ApiError && error.codes.includes("already_entered")) {
      // entered on another phone meanwhile: news, as a withdrawal made twice is, not an error
      document.getElementById("draw-status").textContent = t("player_already_entered", { name });
      return;
    }
    document.getElementById("draw-status").textContent = "";
    showError(error, { sentences });
  } finally {
    add.disabled = false;
    showPlaying();
  }
}

// The round undone is the one on this screen (If-Match: its etag): one undone and drawn again
// meanwhile on another phone is refused (412), and one already undone is gone (404); either
// way the board is read again and says what happened.
async function undoRound() {
  const seen = lastRound;
  if (!seen || !confirm(t("undo_round_confirm", { number: seen.number }))) return;
  clearMessages();
  const button = document.getElementById("undo-button");
  button.disabled = true;
  try {
    await request(`tournaments/${tournamentId}/rounds/${seen.number}/`, { method: "DELETE", headers: { "If-Match": seen.etag } });
    await load();
    // another phone may have drawn the round again the moment it was undone: its new tables
    // are on the board now, and "undone" alone above them would read as a contradiction
    const again = lastRound && lastRound.number >= seen.number && lastRound.etag !== seen.etag;
    document.getElementById("draw-status").textContent = t(again ? "round_undone_then_redrawn" : "round_undone", { number: seen.number });
  } catch (error) {
    if (error instanceof ApiError && [404, 412].includes(error.status)) {
      await reload();
      const key = error.status === 404 ? "round_undone_elsewhere" : "round_redrawn_elsewhere";
      document.getElementById("draw-status").textContent = t(key, { number: seen.number });
      return;
    }
    // refused because a table of it has a hand now (recorded on another phone): the board
    // shows that hand, and no longer offers the undo
    if (error instanceof ApiError && error.status === 409) await reload().catch(() => {});
    showError(error, { sentences });
  } finally {
    button.disabled = false;
  }
}

async function load() {
  try {
    render(await get(`tournaments/${tournamentId}/board/`));
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

async function setup() {
  try {
    const tournament = await get(`tournaments/${tournamentId}/`);
    club = await get(`clubs/${tournament.club}/`);
    const crumb = document.getElementById("club-link");
    // the way back is to the club's nights, and says so
    crumb.textContent = t("nights_of", { club: club.name });
    crumb.href = `/clubs/${club.id}/tournaments/`;
    const form = document.getElementById("draw-form");
    director = ["owner", "scorekeeper"].includes(club.role);
    form.hidden = !director;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = document.getElementById("draw-button");
      button.disabled = true;
      const before = lastRound?.number ?? 0; // the round this phone knew of when Draw was tapped
      try {
        const seating = new FormData(form).get("seating");
        const { data } = await request(`tournaments/${tournamentId}/rounds/`, { method: "POST", body: { seating } });
        document.getElementById("draw-status").textContent = t("round_drawn", { number: data.number, count: data.tables.length });
        await load();
      } catch (error) {
        // refused because another phone drew first, say: the board shows the round as it is,
        // and says so rather than why a draw is refused while a round is played
        if (error instanceof ApiError) await reload();
        if (error instanceof ApiError && (lastRound?.number ?? 0) > before) {
          clearMessages();
          document.getElementById("draw-status").textContent = t("round_drawn_elsewhere", { number: lastRound.number });
        } else {
          showError(error, { sentences });
        }
      } finally {
        showPlaying();
      }
    });
    if (director) {
      document.getElementById("entrants").hidden = false;
      document.getElementById("entrant-form").addEventListener("submit", enter);
      document.getElementById("undo-button").addEventListener("click", undoRound);
      await reload();
    }
  } catch (error) {
    showError(error, { sentences });
  }
}

// the board and, for a director, who is entered: another phone may draw, enter or withdraw
function refresh() {
  if (document.visibilityState !== "visible") return;
  load();
  if (director) loadEntrants().catch((error) => showError(error, { sentences }));
}

setup();
load();
document.addEventListener("visibilitychange", refresh);
setInterval(refresh, REFRESH_MS);

// The room display: the leaderboard and every table in large type, for a TV, refreshed.
import { get, showError } from "../api.js";
import { h, number, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { decimal, tableCard } from "../nighttables.js";
import { setupWakeLock } from "../wakelock.js";

const root = document.getElementById("room");
const tournamentId = pageData().tournament;
const REFRESH_MS = 10000;

function render(board) {
  document.getElementById("room-title").textContent = board.name;
  document.title = board.name;
  document.getElementById("room-round").textContent = board.round ? t("round_title", { number: board.round.number }) : t("no_round");
  document.getElementById("room-leaderboard").replaceChildren(...board.leaderboard.map((row) =>
    h("li", { dataset: { player: row.player } },
      h("span", { class: "place" }, row.rank),
      h("span", { class: "name" }, row.name, row.withdrawn ? ` (${t("withdrawn")})` : ""),
      h("span", { class: "figures" }, t("vp_points", { vp: decimal(row.victory_points), points: number(row.points) })))));
  // a table of an earlier round played again (a correction reopened it) is shown first, by
  // its round, as on the director's board: the leaderboard moves with it
  const again = (board.reopened ?? []).map((table) => tableCard(
    { ...table, name: t("table_of_round", { table: table.name, number: table.round }) }, { link: false }));
  document.getElementById("room-tables").replaceChildren(...again,
    ...(board.round ? board.round.tables.map((table) => tableCard(table, { link: false })) : []));
}

// On a screen as wide as a TV's, the whole leaderboard and every table fit its height (nobody
// scrolls a TV): each list's type is as large as fits, up to its usual size, and the
// leaderboard goes to two columns when one would need type smaller than SMALLEST_PX.
const TV = globalThis.matchMedia("(min-width: 900px)");
const SMALLEST_PX = 20;
const MARGIN_PX = 12;

// The largest scale of the list's type, at most 1, at which the list is no taller than
// `room` (a halving search: lines wrap as the type grows, so height is not proportional to
// it). Returns whether it fits at all.
function shrink(list, room) {
  // a word wider than its line (a long name in a table's card) counts as too large too: on a
  // TV a name is never broken inside a word (clubnight.css)
  const words = [...list.querySelectorAll(".night-seats li > :first-child, .name")];
  const tall = (scale) => {
    list.style.setProperty("--fit", scale.toFixed(4));
    return list.getBoundingClientRect().height > room || words.some((e) => e.scrollWidth > e.clientWidth + 1);
  };
  if (!tall(1)) return true;
  let [low, high] = [0.2, 1];
  for (let step = 0; step < 10; step += 1) {
    const middle = (low + high) / 2;
    if (tall(middle)) high = middle;
    else low = middle;
  }
  return !tall(low);
}

function fit() {
  const board = document.getElementById("room-leaderboard");
  const tables = document.getElementById("room-tables");
  for (const list of [board, tables]) list.style.removeProperty("--fit");
  board.classList.remove("two-columns");
  board.closest(".room-grid").classList.remove("wide-board");
  if (TV.matches) {
    const room = (list) => window.innerHeight - MARGIN_PX - (list.getBoundingClientRect().top + window.scrollY);
    const first = board.firstElementChild;
    const size = () => parseFloat(getComputedStyle(first).fontSize);
    const grid = board.closest(".room-grid");
    if (first) {
      shrink(board, room(board));
      const one = size();
      if (one < SMALLEST_PX) {
        // two columns, the leaderboard then taking half the screen's width; kept only if
        // its type comes out larger than in one column
        const half = String(Math.ceil(board.children.length / 2));
        board.style.setProperty("--half", half);
        board.classList.add("two-columns");
        grid.classList.add("wide-board");
        shrink(board, room(board));
        if (size() <= one) {
          board.classList.remove("two-columns");
          grid.classList.remove("wide-board");
          shrink(board, room(board));
        }
      }
    }
    if (tables.firstElementChild) shrink(tables, room(tables));
  }
  board.dataset.fitted = "true";
}

TV.addEventListener("change", fit);
globalThis.addEventListener("resize", () => {
  clearTimeout(fit.timer);
  fit.timer = setTimeout(fit, 150);
});

async function load() {
  try {
    render(await get(`tournaments/${tournamentId}/board/`));
    fit();
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

setupWakeLock(document.getElementById("wake-lock"));
load();
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && load());
setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);

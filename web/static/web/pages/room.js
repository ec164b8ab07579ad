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
  document.getElementById("room-tables").replaceChildren(...(board.round ? board.round.tables.map((table) => tableCard(table, { link: false })) : []));
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

setupWakeLock(document.getElementById("wake-lock"));
load();
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && load());
setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);

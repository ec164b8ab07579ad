// The director's board: every table of the latest round, live, the leaderboard, and the draw.
import { get, request, showError } from "../api.js";
import { h, number, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { decimal, tableCard } from "../nighttables.js";

const root = document.getElementById("director-board");
const tournamentId = pageData().tournament;
const REFRESH_MS = 10000;
let club = null;

function render(board) {
  document.getElementById("tournament-name").textContent = board.name;
  document.title = board.name;
  const round = board.round;
  document.getElementById("round-heading").textContent = round ? t("round_title", { number: round.number }) : t("no_round");
  document.getElementById("board-tables").replaceChildren(...(round ? round.tables.map((table) => tableCard(table)) : []));
  document.getElementById("board-updated").textContent = t("updated_at", { time: new Date().toLocaleTimeString(document.documentElement.lang) });
  document.getElementById("leaderboard-rows").replaceChildren(...board.leaderboard.map((row) =>
    h("tr", { dataset: { player: row.player } },
      h("td", { class: "num" }, row.rank),
      h("th", { scope: "row" }, h("a", { href: `/players/${row.player}/` }, row.name)),
      h("td", { class: "num" }, decimal(row.victory_points)),
      h("td", { class: "num" }, number(row.points)),
      h("td", { class: "num" }, row.matches))));
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
    crumb.textContent = club.name;
    crumb.href = `/clubs/${club.id}/tournaments/`;
    const form = document.getElementById("draw-form");
    form.hidden = !["owner", "scorekeeper"].includes(club.role);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = document.getElementById("draw-button");
      button.disabled = true;
      try {
        const seating = new FormData(form).get("seating");
        const { data } = await request(`tournaments/${tournamentId}/rounds/`, { method: "POST", body: { seating } });
        document.getElementById("draw-status").textContent = t("round_drawn", { number: data.number, count: data.tables.length });
        await load();
      } catch (error) {
        showError(error, { sentences });
      } finally {
        button.disabled = false;
      }
    });
  } catch (error) {
    showError(error, { sentences });
  }
}

setup();
load();
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && load());
setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);

// The latest round's pairing cards (one per table: who sits where, clockwise from the first
// dealer) and the night's results sheet (every round's points), laid out to print on A4.
import { get, showError } from "../api.js";
import { h, number, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { decimal } from "../nighttables.js";

const root = document.getElementById("night-print");
const tournamentId = pageData().tournament;

function card(name, round, table) {
  return h("li", { class: "pairing-card", dataset: { match: table.match } },
    h("p", { class: "sub" }, `${name} · ${t("round_title", { number: round.number })}`),
    h("h3", {}, table.name),
    h("ol", {}, table.seats.map((seat, index) =>
      h("li", {}, h("span", { class: "seat" }, t("seat_number", { number: index + 1 })),
        h("span", {}, seat.name, index === 0 ? ` (${t("deals_first")})` : "")))));
}

function results(rows, rounds) {
  const head = document.getElementById("results-head");
  head.querySelectorAll(".round").forEach((cell) => cell.remove());
  head.append(...rounds.map((n) => h("th", { scope: "col", class: "num round" }, t("round_column", { number: n }))));
  document.getElementById("results-rows").replaceChildren(...rows.map((row) =>
    h("tr", { dataset: { player: row.player } },
      h("td", { class: "num" }, row.rank),
      h("th", { scope: "row" }, row.name, row.withdrawn ? ` (${t("withdrawn")})` : ""),
      h("td", { class: "num" }, decimal(row.victory_points)),
      h("td", { class: "num" }, number(row.points)),
      row.rounds.map((points) => h("td", { class: "num" }, number(points))))));
}

async function show() {
  try {
    const [board, tournament] = await Promise.all([get(`tournaments/${tournamentId}/board/`), get(`tournaments/${tournamentId}/`)]);
    document.getElementById("print-title").textContent = board.name;
    document.title = board.name;
    const round = board.round;
    document.getElementById("pairing-cards").replaceChildren(...(round
      ? round.tables.map((table) => card(board.name, round, table))
      : [h("li", { class: "muted" }, t("no_cards"))]));
    results(board.leaderboard, tournament.rounds.map((r) => r.number));
    // the sheet is printed on a page of its own: it names the night and its day
    const day = new Date(tournament.created_at).toLocaleDateString(document.documentElement.lang, { dateStyle: "long" });
    document.getElementById("results-heading").textContent = t("results_of", { name: board.name, day });
    // printed while a table still plays (of the last round, or of an earlier one played
    // again), the sheet says its figures are not final, on the paper too
    const playing = [...(round?.tables ?? []), ...(board.reopened ?? [])].some((table) => table.status !== "finished");
    const provisional = document.getElementById("results-provisional");
    provisional.hidden = !playing;
    provisional.textContent = playing ? t("results_provisional", { time: new Date().toLocaleTimeString(document.documentElement.lang, { timeStyle: "short" }) }) : "";
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

document.getElementById("print-button").addEventListener("click", () => print());
show();

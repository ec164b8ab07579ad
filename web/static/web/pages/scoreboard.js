// The scoreboard: every total large enough to read across the table, refreshed while open.
import { ApiError, get, showError } from "../api.js";
import { h, number, onlyTheWayBack, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { setupWakeLock } from "../wakelock.js";

const root = document.getElementById("scoreboard");
const matchId = pageData().match;
const REFRESH_MS = 20000;

function render(match) {
  const name = (player) => match.seats.find((seat) => seat.player === player)?.name ?? "";
  document.getElementById("board-title").textContent = match.table || t("match", { id: match.id });
  const banner = document.getElementById("finish-banner");
  const winners = match.seats.filter((seat) => seat.winner);
  banner.hidden = match.status !== "finished";
  banner.textContent = match.status !== "finished" ? "" : match.shared_victory
    ? t("shared_victory_total", { names: winners.map((seat) => seat.name).join(", "), total: number(winners[0]?.total) })
    : t("winner_total", { name: winners[0]?.name ?? "", total: number(winners[0]?.total) });
  document.getElementById("board-next").textContent = match.status === "finished" ? ""
    : t("next_hand", { number: match.next_hand, name: name(match.next_dealer) });
  const ranked = [...match.seats].sort((a, b) => b.total - a.total);
  document.getElementById("board").replaceChildren(...ranked.map((seat) =>
    h("li", { class: ["board-seat", seat.winner ? "winner" : "", seat.player === match.next_dealer ? "dealer" : ""].join(" ").trim(),
      dataset: { player: seat.player } },
      h("span", { class: "board-name" }, seat.name,
        seat.player === match.next_dealer ? h("span", { class: "board-deals" }, t("deals_next")) : null),
      h("span", { class: "board-total" }, number(seat.total)))));
}

let gone = false; // the match is not the reader's to see: nothing to refresh

async function load() {
  if (gone) return;
  try {
    render(await get(`matches/${matchId}/`));
  } catch (error) {
    showError(error, { sentences });
    if (error instanceof ApiError && error.status === 404) {
      gone = true;
      onlyTheWayBack(root);
    }
  } finally {
    root.removeAttribute("aria-busy");
  }
}

setupWakeLock(document.getElementById("wake-lock"));
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && load());
setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
load();

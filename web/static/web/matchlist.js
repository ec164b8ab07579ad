// A match as one row of a list: its table, its players with their totals, who won or deals,
// and the day it finished or began, so that a season's "Table 1"s are told apart.
import { h, number } from "./dom.js";
import { t } from "./i18n.js";

const day = (iso) => new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium" })
  .format(new Date(iso));

export function matchItem(match) {
  const names = match.seats.map((seat) => `${seat.name} ${number(seat.total)}`).join(" · ");
  const winners = match.seats.filter((seat) => seat.winner).map((seat) => seat.name);
  const dealer = match.seats.find((seat) => seat.player === match.next_dealer);
  const status = match.status === "finished"
    ? (match.shared_victory ? t("shared_victory", { names: winners.join(", ") })
      : t("won_by", { name: winners.join(", ") }))
    : t("next_hand", { number: match.next_hand, name: dealer?.name ?? "" });
  return h("li", {},
    h("a", { href: `/matches/${match.id}/`, dataset: { match: match.id } },
      h("span", {},
        h("span", { class: "title" }, match.table || t("match", { id: match.id })),
        h("span", { class: "sub" }, names),
        h("span", { class: "sub" }, status, " · ",
          h("time", { datetime: match.finished_at ?? match.created_at }, day(match.finished_at ?? match.created_at)))),
      h("span", { class: `badge ${match.status === "finished" ? "" : "live"}` },
        t(match.status === "finished" ? "finished" : "in_progress"))));
}

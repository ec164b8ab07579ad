// A round's tables as cards: hands played, every total, who went out last, who won.
import { h, number } from "./dom.js";
import { t } from "./i18n.js";

export function tableCard(table, { link = true } = {}) {
  const finished = table.status === "finished";
  const title = link ? h("a", { href: `/matches/${table.match}/` }, table.name) : table.name;
  return h("li", { class: `night-table${finished ? " finished" : ""}`, dataset: { match: table.match } },
    h("h3", {}, title, h("span", { class: `badge ${finished ? "owner" : "live"}` }, finished ? t("table_finished") : t("table_playing"))),
    h("p", { class: "sub" }, t("hands_played", { count: number(table.hands_played) })),
    h("ul", { class: "night-seats" }, ...table.seats.map((seat) =>
      h("li", { dataset: { player: seat.player } },
        h("span", { class: seat.winner ? "winner" : "" }, seat.name, seat.winner ? ` (${t("winner")})` : "",
          seat.player === table.went_out_last ? h("span", { class: "out" }, ` · ${t("went_out_last")}`) : null),
        h("span", { class: "total" }, number(seat.total))))));
}

export const decimal = (value) => new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 2 }).format(value);

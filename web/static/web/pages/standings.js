// A club's standings, all time or one season's, with the same table as CSV.
import { ApiError, get, getAll, showError } from "../api.js";
import { h, number, onlyTheWayBack, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";

const root = document.getElementById("standings");
const clubId = pageData().club;
const season = new URLSearchParams(location.search).get("season") ?? "";
const decimal = (value, digits) => value === null || value === undefined ? "–"
  : new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: digits }).format(value);

async function show() {
  try {
    const query = season ? `?season=${encodeURIComponent(season)}` : "";
    const club = await get(`clubs/${clubId}/`); // first: an outsider's 404 says it all
    const [seasons, rows] = await Promise.all([
      getAll(`seasons/?club=${clubId}`),
      get(`clubs/${clubId}/standings/${query}`),
    ]);
    document.getElementById("club-link").textContent = club.name;
    const select = document.getElementById("season");
    for (const item of seasons) select.append(h("option", { value: item.id, selected: String(item.id) === season }, item.name));
    // a season picked shows its standings at once (the Show button stays for keyboards)
    select.addEventListener("change", () => document.getElementById("season-form").requestSubmit());
    const chosen = seasons.find((item) => String(item.id) === season);
    document.title = `${chosen ? chosen.name : t("all_time")} · ${club.name}`;
    const csv = document.getElementById("csv-link");
    // cells apart as a spreadsheet in the page's language reads them (the page says which)
    const download = new URLSearchParams({ separator: csv.dataset.separator });
    if (season) download.set("season", season);
    csv.href = `/api/v1/clubs/${clubId}/standings/csv/?${download}`;
    csv.download = `standings-${club.name}${chosen ? `-${chosen.name}` : ""}.csv`.replace(/[^\p{L}\p{N}.-]+/gu, "-");
    document.getElementById("standings-rows").replaceChildren(...(rows.length ? rows.map((row) =>
      h("tr", { dataset: { player: row.player } },
        h("td", { class: "num" }, row.rank),
        h("th", { scope: "row" }, h("a", { href: `/players/${row.player}/` }, row.name)),
        h("td", { class: "num" }, decimal(row.victory_points, 2)),
        h("td", { class: "num" }, row.wins),
        h("td", { class: "num" }, row.shared_wins),
        h("td", { class: "num" }, row.matches_played),
        h("td", { class: "num" }, row.hands_played),
        h("td", { class: "num" }, row.went_out),
        h("td", { class: "num" }, number(row.points)),
        h("td", { class: "num" }, decimal(row.average_net, 1)),
        h("td", { class: "num", dataset: { field: "rating" } }, number(row.rating))))
      : [h("tr", {}, h("td", { colspan: 11, class: "muted" }, t("no_standings")))]));
  } catch (error) {
    showError(error, { sentences });
    if (error instanceof ApiError && error.status === 404) onlyTheWayBack(root);
  } finally {
    root.removeAttribute("aria-busy");
  }
}

show();

// A player's record over their club's finished matches, and their matches.
import { get, getAll, showError } from "../api.js";
import { h, number, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { ratingChart } from "../ratingchart.js";

const root = document.getElementById("player");
const DEFAULT_GAME = "arlington"; // the API's default `ruleset`
const playerId = pageData().player;
const lang = document.documentElement.lang;
const decimal = (value, digits) => value === null || value === undefined ? "–"
  : new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(value);
const percent = (value) => value === null || value === undefined ? "–"
  : new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(value);

async function show() {
  try {
    const [player, matches, games] = await Promise.all([
      get(`players/${playerId}/`), getAll(`players/${playerId}/matches/`), get("rulesets/")]);
    // the record counts the API's default game (a match's `ruleset` when none is named); a
    // match of another game is named in the list
    const gameOf = (name) => games.find((game) => game.name === name)?.label ?? name;
    document.getElementById("record-scope").textContent = t("record_scope", { game: gameOf(DEFAULT_GAME) });
    const club = await get(`clubs/${player.club}/`);
    document.getElementById("player-name").textContent = player.name;
    document.title = `${player.name} · ${club.name}`;
    const crumb = document.getElementById("club-link");
    crumb.textContent = club.name;
    crumb.href = `/clubs/${club.id}/`;
    const record = player.record;
    const best = record.best_hand
      ? h("a", { href: `/matches/${record.best_hand.match}/` }, t("best_hand_value", { net: number(record.best_hand.net), number: record.best_hand.number }))
      : "–";
    const rows = [
      ["matches_played", number(record.matches_played)],
      ["wins", number(record.wins)],
      ["shared_wins", number(record.shared_wins)],
      ["victory_points", decimal(record.victory_points, 2)],
      ["hands_played", number(record.hands_played)],
      ["went_out", `${number(record.went_out)} (${percent(record.went_out_rate)})`],
      ["average_net", decimal(record.average_net, 1)],
      ["average_hand_penalty", decimal(record.average_hand_penalty, 1)],
      ["best_hand", best],
      ["wild_twos_melded", record.wild_twos_melded === null ? "–" : number(record.wild_twos_melded)],
      ["queen_of_spades_held", record.queen_of_spades_held === null ? "–" : number(record.queen_of_spades_held)],
    ];
    document.getElementById("record").replaceChildren(...rows.flatMap(([key, value]) =>
      [h("dt", {}, t(`record_${key}`)), h("dd", { dataset: { field: key } }, value)]));
    document.getElementById("player-matches").replaceChildren(...(matches.length ? matches.map((item) =>
      h("li", {}, h("a", { href: `/matches/${item.match}/` },
        h("span", {},
          h("span", { class: "title" }, item.table || t("match", { id: item.match })),
          h("span", { class: "sub" }, [
            item.ruleset === DEFAULT_GAME ? "" : `${gameOf(item.ruleset)} · `,
            t("total_after", { total: number(item.total), count: item.hands_played })].join(""))),
        h("span", { class: `badge ${item.status === "finished" ? (item.won ? "owner" : "") : "live"}` },
          item.status !== "finished" ? t("in_progress") : item.won ? (item.shared_victory ? t("shared_win") : t("won")) : t("finished")))))
      : [h("li", { class: "muted" }, t("no_matches"))]));
    for (const id of ["record-section", "matches-section"]) document.getElementById(id).hidden = false;
    await showRatings();
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

// One chart per ruleset the player has rated matches in.
async function showRatings() {
  const charts = [];
  for (const ruleset of ["arlington", "rummy"]) {
    const steps = await get(`players/${playerId}/ratings/?ruleset=${ruleset}`);
    if (!steps.length) continue;
    const rating = number(steps[steps.length - 1].rating);
    const title = t("rating_chart_title", { ruleset: t(`ruleset_${ruleset}`), count: steps.length, rating });
    charts.push(h("figure", { class: "rating-chart", dataset: { ruleset } },
      h("figcaption", {}, t("rating_now", { ruleset: t(`ruleset_${ruleset}`), rating, count: steps.length })),
      ratingChart(steps, { title, id: `rating-title-${ruleset}` })));
  }
  document.getElementById("rating-charts").replaceChildren(...(charts.length ? charts : [h("p", { class: "muted" }, t("no_rating"))]));
  document.getElementById("rating-section").hidden = false;
}

show();

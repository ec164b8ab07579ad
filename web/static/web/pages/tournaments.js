// A club's nights and tournaments, and the form that starts one.
import { get, getAll, request, sentenceOf, showError } from "../api.js";
import { byName, h, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { currentSeason } from "../seasons.js";

const root = document.getElementById("tournaments");
const clubId = pageData().club;

async function show() {
  try {
    const club = await get(`clubs/${clubId}/`);
    const [nights, players, seasons] = await Promise.all([
      getAll(`tournaments/?club=${clubId}`), getAll(`players/?club=${clubId}`), getAll(`seasons/?club=${clubId}`)]);
    const seasonName = new Map(seasons.map((season) => [season.id, season.name]));
    const crumb = document.getElementById("club-link");
    crumb.textContent = club.name;
    document.title = `${document.querySelector("h1").textContent} · ${club.name}`;
    document.getElementById("tournament-list").replaceChildren(...(nights.length ? nights.map((night) =>
      h("li", {}, h("a", { href: `/tournaments/${night.id}/` },
        h("span", {}, h("span", { class: "title" }, night.name),
          h("span", { class: "sub" }, [t(`ruleset_${night.ruleset}`), t("entrants", { count: night.entrants.length }),
            ...(seasonName.has(night.season) ? [seasonName.get(night.season)] : [])].join(" · "))),
        h("span", { class: "badge" }, night.rounds.length ? t("round_title", { number: night.rounds.length }) : t("no_round")))))
      : [h("li", { class: "muted" }, t("no_tournaments"))]));
    if (!["owner", "scorekeeper"].includes(club.role)) return;
    document.getElementById("new-tournament").hidden = false;
    // the night's matches count in the season chosen here: the one under way, unless changed
    const current = currentSeason(seasons);
    document.getElementById("tournament-season").append(...seasons.map((season) =>
      h("option", { value: season.id, selected: season === current }, season.name)));
    document.getElementById("tournament-players").replaceChildren(...(players.length ? [...players].sort(byName).map((player) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "players", value: player.id }), ` ${player.name}`))
      // a new club has nobody to seat yet: its players are added on the club's page
      : [h("p", { class: "muted", id: "no-players" }, t("night_no_players"), " ",
        h("a", { href: `/clubs/${clubId}/#players-heading` }, t("night_add_players")))]));
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

// One key for this page's night: a second tap, or a retry after a lost answer, gets the night
// the first one started instead of starting another (only a started night is kept under it).
const key = crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
let starting = false;

document.getElementById("tournament-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (starting) return;
  const form = event.currentTarget;
  const data = new FormData(form);
  const players = data.getAll("players").map(Number);
  const problem = document.getElementById("tournament-error");
  // everything missing is said at once, not one thing per tap
  const missing = [...(String(data.get("name") ?? "").trim() ? [] : [t("name_night")]),
    ...(players.length < 2 ? [t("pick_players")] : [])];
  problem.textContent = missing.join(" ");
  if (missing.length) return;
  const button = form.querySelector('button[type="submit"]');
  starting = true;
  if (button) button.disabled = true;
  try {
    const { data: night } = await request("tournaments/", {
      method: "POST",
      headers: { "Idempotency-Key": key },
      body: {
        club: Number(clubId), name: data.get("name"), ruleset: data.get("ruleset"), players,
        ...(data.get("season") ? { season: Number(data.get("season")) } : {}),
      },
    });
    location.assign(`/tournaments/${night.id}/`);
  } catch (error) {
    starting = false;
    if (button) button.disabled = false;
    problem.textContent = error.errors?.map((e) => sentenceOf(e, sentences)).join(" ") ?? "";
    if (!problem.textContent) showError(error, { sentences });
  }
});

show();

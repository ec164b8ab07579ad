// Start a match: choose 2–5 of the club's players (or add one), seat them clockwise, pick the
// first dealer, a table label and a season. The API decides what is allowed; its errors are
// shown next to the field they name and summarised at the top.
import { ApiError, get, getAll, post, sentenceOf, showError, clearMessages } from "../api.js";
import { byName, h, pageData } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { canWrite } from "../roles.js";
import { currentSeason } from "../seasons.js";

const clubId = Number(pageData().club);
const form = document.getElementById("match-form");
const choices = document.getElementById("player-choices");
const order = document.getElementById("seat-order");
const dealers = document.getElementById("dealer-choices");
const summary = document.getElementById("deal-summary");
const seasonSelect = document.getElementById("season");

let games = [];        // the games the API describes (GET rulesets/)
let game = null;       // the chosen one
let players = [];      // the club's roster
let seated = [];       // chosen player ids, clockwise
let firstDealer = null;

function playerName(id) {
  return players.find((player) => player.id === id)?.name ?? "";
}

function renderChoices() {
  choices.replaceChildren(...players.map((player) => {
    const id = `player-${player.id}`;
    return h("li", {},
      h("input", { type: "checkbox", id, value: player.id, checked: seated.includes(player.id),
        onchange: (event) => toggle(player.id, event.target.checked) }),
      h("label", { for: id }, player.name));
  }));
}

function toggle(id, on) {
  seated = on ? [...seated.filter((p) => p !== id), id] : seated.filter((p) => p !== id);
  if (!seated.includes(firstDealer)) firstDealer = seated[0] ?? null;
  renderOrder();
}

function move(index, step) {
  const target = index + step;
  if (target < 0 || target >= seated.length) return;
  [seated[index], seated[target]] = [seated[target], seated[index]];
  renderOrder();
  order.querySelectorAll("li")[target]?.querySelector(step < 0 ? "[data-up]" : "[data-down]")?.focus();
}

function renderOrder() {
  document.getElementById("seat-order-empty").hidden = seated.length > 0;
  order.replaceChildren(...seated.map((id, index) =>
    h("li", {},
      h("span", { class: "seat-name" }, playerName(id)),
      h("span", { class: "seat-moves" },
        h("button", { type: "button", class: "button small", "data-up": true, disabled: index === 0,
          "aria-label": t("move_up", { name: playerName(id) }), onclick: () => move(index, -1) }, "↑"),
        h("button", { type: "button", class: "button small", "data-down": true, disabled: index === seated.length - 1,
          "aria-label": t("move_down", { name: playerName(id) }), onclick: () => move(index, 1) }, "↓")))));
  dealers.replaceChildren(...seated.map((id) => {
    const radio = `dealer-${id}`;
    return h("div", { class: "choice" },
      h("input", { type: "radio", name: "first_dealer", id: radio, value: id, checked: id === firstDealer,
        onchange: () => { firstDealer = id; renderSummary(); } }),
      h("label", { for: radio }, playerName(id)));
  }));
  renderSummary();
}

// Who deals: the first dealer, then clockwise.
function renderSummary() {
  summary.hidden = seated.length === 0;
  if (!seated.length) return;
  const start = Math.max(0, seated.indexOf(firstDealer));
  const rotation = [...seated.slice(start), ...seated.slice(0, start)].map(playerName);
  summary.textContent = t("deal_order", { name: rotation[0], order: rotation.join(" → ") });
}

async function addPlayer() {
  const input = document.getElementById("new-player");
  const name = input.value.trim();
  clearFieldErrors();
  if (!name) {
    fieldError("name", t("name_required"), input);
    return;
  }
  try {
    const { data: player } = await post("players/", { club: clubId, name });
    players = [...players, player].sort(byName);
    input.value = "";
    renderChoices();
    toggle(player.id, true);
    renderChoices();
  } catch (error) {
    showFieldErrors(error, { name: input });
  }
}

function clearFieldErrors() {
  clearMessages();
  for (const element of form.querySelectorAll("[data-error-for]")) {
    element.hidden = true;
    element.textContent = "";
  }
  for (const element of form.querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
}

function fieldError(attr, detail, control) {
  const slot = form.querySelector(`[data-error-for="${attr.split(".")[0]}"]`);
  if (slot) {
    slot.hidden = false;
    slot.textContent = slot.textContent ? `${slot.textContent} ${detail}` : detail;
  }
  control?.setAttribute("aria-invalid", "true");
}

// The API's errors next to their fields, and all of them at the top (GOV.UK's pattern).
function showFieldErrors(error, controls = {}) {
  showError(error, { sentences });
  if (!(error instanceof ApiError)) return;
  for (const item of error.errors) {
    if (item.attr) fieldError(item.attr, sentenceOf(item, sentences), controls[item.attr.split(".")[0]]);
  }
}

// The game: one choice a ruleset, its description, and its options with their defaults and
// limits, all from GET rulesets/ (nothing here knows a game).
function renderGames() {
  const field = document.getElementById("game-field");
  field.hidden = games.length < 2;
  document.getElementById("game-choices").replaceChildren(...games.map((item) => {
    const id = `game-${item.name}`;
    return h("div", { class: "choice" },
      h("input", { type: "radio", name: "ruleset", id, value: item.name, checked: item === game,
        onchange: () => { game = item; renderGames(); } }),
      h("label", { for: id }, item.label));
  }));
  document.getElementById("game-description").textContent = game?.description ?? "";
  document.getElementById("players-hint").textContent = game
    ? t("players_range", { min: game.players.min, max: game.players.max })
    : document.getElementById("players-hint").textContent;
  document.getElementById("game-options").replaceChildren(...(game?.options ?? []).map((option) => {
    const id = `option-${option.name}`;
    const control = option.choices
      ? h("select", { id, name: id, dataset: { option: option.name } },
        option.choices.map((choice) => h("option", { value: choice, selected: choice === option.default },
          t(`option_${option.name}_${choice}`))))
      : h("input", { type: "number", id, name: id, inputmode: "numeric", value: option.default,
        min: option.min, max: option.max, dataset: { option: option.name } });
    return h("div", { class: "field" }, h("label", { for: id }, t(`option_${option.name}`)), control);
  }));
}

// The chosen game's options as the API reads them ({} when it has none).
function chosenOptions() {
  const options = {};
  for (const control of document.querySelectorAll("#game-options [data-option]")) {
    options[control.dataset.option] = control.type === "number" ? Number(control.value) : control.value;
  }
  return options;
}

async function start(event) {
  event.preventDefault();
  clearFieldErrors();
  const button = document.getElementById("start");
  button.setAttribute("aria-disabled", "true");
  const body = { club: clubId, players: seated, table: form.table.value.trim() };
  if (game) {
    body.ruleset = game.name;
    const options = chosenOptions();
    if (Object.keys(options).length) body.options = options;
  }
  if (firstDealer !== null) body.first_dealer = firstDealer;
  if (seasonSelect.value) body.season = Number(seasonSelect.value);
  try {
    const { data: match } = await post("matches/", body);
    location.assign(`/matches/${match.id}/`);
  } catch (error) {
    showFieldErrors(error, { table: form.table, season: seasonSelect });
  } finally {
    button.removeAttribute("aria-disabled");
  }
}

async function load() {
  try {
    const club = await get(`clubs/${clubId}/`); // first: an outsider's 404 says it all
    document.getElementById("club-link").textContent = club.name;
    if (!canWrite(club.role)) { // a viewer gets no form the API would refuse
      form.hidden = true;
      document.getElementById("viewer-only").hidden = false;
      return;
    }
    const [roster, seasons, rulesets] = await Promise.all([
      getAll(`players/?club=${clubId}&ordering=name`),
      getAll(`seasons/?club=${clubId}`),
      get("rulesets/"),
    ]);
    games = rulesets;
    game = games[0] ?? null;
    renderGames();
    document.getElementById("club-link").textContent = club.name;
    // a player added while the roster was on its way is kept (a quick thumb on a slow signal)
    const added = players.filter((player) => !roster.some((known) => known.id === player.id));
    players = [...roster, ...added].sort(byName);
    const current = currentSeason(seasons);
    for (const season of seasons) {
      seasonSelect.append(h("option", { value: season.id, selected: season === current }, season.name));
    }
    renderChoices();
    renderOrder();
  } catch (error) {
    showError(error, { sentences });
    form.hidden = true;
  } finally {
    form.removeAttribute("aria-busy");
  }
}

document.getElementById("add-player").addEventListener("click", addPlayer);
document.getElementById("new-player").addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    event.preventDefault();
    addPlayer();
  }
});
form.addEventListener("submit", start);
load();

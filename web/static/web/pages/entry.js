// Entering a finished hand, or correcting one: each player's melds and held cards tapped from
// a card picker (or typed), who went out, a live preview from POST rulings/hand/, and the
// record (POST with an Idempotency-Key made when the entry began) or correction (PUT with
// If-Match). Every ruling is the API's: nothing here knows the rules of Arlington.
import { ApiError, OfflineError, get, request, showError, clearMessages } from "../api.js";
import { h, pageData, number } from "../dom.js";
import { SUIT_SYMBOLS, cardName, kindLabel, parseCard, sentences, t } from "../i18n.js";
import * as outbox from "../outbox.js";

const SUITS = ["S", "H", "D", "C"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const BANDS = [RANKS.slice(0, 7), RANKS.slice(7)];
const WRITERS = new Set(["owner", "scorekeeper"]);
const COPIES = 2; // two packs: the picker never offers a card a third time in one deal
const MAX_MELD = 4;
const PREVIEW_DELAY_MS = 350;

const root = document.getElementById("entry");
const data = pageData();
const matchId = Number(data.match);
const handNumber = data.number ? Number(data.number) : null;
const matchUrl = data.matchUrl;
const storeKey = `arlington.entry.${matchId}.${handNumber ?? "next"}`;

let match = null;
let draft = null;
let preview = { state: "idle", results: [], violations: [] };
let suggestions = {}; // meld codes joined by " " → [[codes]]
let previewTimer = null;
let previewAbort = null;
let sending = false;
let conflict = false; // a 412's side-by-side view is shown: nothing redraws the editor under it

// --- the draft: what has been entered so far, kept across reloads --------------------------

const newKey = () =>
  crypto.randomUUID?.() ??
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

const physical = (code) => code.split("=")[0];
const isTwo = (code) => parseCard(code).rank === "2";

function save() {
  localStorage.setItem(storeKey, JSON.stringify(draft));
}

function loadSaved() {
  try {
    return JSON.parse(localStorage.getItem(storeKey) ?? "null");
  } catch {
    return null;
  }
}

function freshDraft(seats) {
  return {
    key: newKey(),
    started: Date.now(),
    ending: null,
    wentOut: null,
    reason: "",
    etag: null,
    players: seats.map((seat) => ({ id: seat.player, name: seat.name, melds: [[]], hand: [] })),
    active: { player: 0, group: 0 },
  };
}

function draftFromHand(hand, etag) {
  const byPlayer = Object.fromEntries(hand.results.map((r) => [r.player, r]));
  const fresh = freshDraft(match.seats);
  for (const player of fresh.players) {
    const result = byPlayer[player.id];
    if (!result) continue;
    player.melds = [...result.melds.map((m) => [...m.cards]), []];
    player.hand = result.held.map((c) => c.card);
  }
  fresh.ending = hand.ending;
  fresh.wentOut = hand.went_out;
  fresh.etag = etag;
  fresh.version = hand.version;
  fresh.dealer = hand.dealer;
  fresh.active = { player: 0, group: fresh.players[0].melds.length - 1 };
  return fresh;
}

function counts() {
  const seen = {};
  for (const player of draft.players) {
    for (const code of [...player.melds.flat(), ...player.hand]) {
      seen[physical(code)] = (seen[physical(code)] ?? 0) + 1;
    }
  }
  return seen;
}

const activePlayer = () => draft.players[draft.active.player];

function activeGroupName() {
  const group = draft.active.group;
  return group === "hand" ? t("in_hand") : t("meld_n", { n: group + 1 });
}

function changed({ quiet = false } = {}) {
  save();
  render();
  if (!quiet) schedulePreview();
}

// Say what a tap did, for screen readers (the region lives outside the redrawn screen).
function announce(text) {
  const region = document.getElementById("entry-announce");
  if (region) region.textContent = text;
}

function addCards(codes) {
  const player = activePlayer();
  announce(t("added", { card: codes.map(cardName).join(", "), group: `${activeGroupName()} · ${player.name}` }));
  if (draft.active.group === "hand") {
    player.hand.push(...codes);
  } else {
    // typed cards all go to the meld they were typed for (the preview judges its length);
    // a meld filled to four starts the next one, ready for the next tap
    const meld = player.melds[draft.active.group];
    meld.push(...codes);
    if (meld.length >= MAX_MELD) openMeld(player);
  }
  changed();
}

// Start a new meld (or reuse the empty one at the end) and make it the target of taps.
function openMeld(player = activePlayer()) {
  const last = player.melds.length - 1;
  if (last < 0 || player.melds[last].length) player.melds.push([]);
  draft.active.group = player.melds.length - 1;
}

function removeCard(playerIndex, group, index) {
  const player = draft.players[playerIndex];
  if (group === "hand") player.hand.splice(index, 1);
  else player.melds[group].splice(index, 1);
  changed();
}

function removeMeld(playerIndex, group) {
  const player = draft.players[playerIndex];
  player.melds.splice(group, 1);
  if (!player.melds.length) player.melds.push([]);
  if (draft.active.player === playerIndex && typeof draft.active.group === "number") {
    draft.active.group = Math.min(draft.active.group, player.melds.length - 1);
  }
  changed();
}

function declare(playerIndex, group, index, represents) {
  const meld = draft.players[playerIndex].melds[group];
  const card = physical(meld[index]);
  meld[index] = represents && represents !== card ? `${card}=${represents}` : card;
  changed();
}

// --- the API's answers ----------------------------------------------------------------------

// The body the API reads; `labels` picks what names the players (ids to record, names to preview).
function body(labels) {
  const melds = (player) => player.melds.filter((meld) => meld.length);
  const label = (player) => (labels === "ids" ? player.id : player.name);
  const out = {
    ending: draft.ending ?? "went_out",
    results: draft.players.map((player) => ({ player: label(player), melds: melds(player), hand: [...player.hand] })),
  };
  const wentOut = draft.players.find((p) => p.id === draft.wentOut);
  out.went_out = draft.ending === "went_out" && wentOut ? label(wentOut) : null;
  return out;
}

// Where an error's `attr` points in the draft: {player, group} (group a meld index, "hand",
// or null for the player as a whole), or null for the hand as a whole.
function place(attr) {
  const parts = (attr ?? "").split(".");
  if (parts[0] !== "results" || parts.length < 2 || !/^\d+$/.test(parts[1])) return null;
  const playerIndex = Number(parts[1]);
  const player = draft.players[playerIndex];
  if (!player) return null;
  if (parts[2] === "hand") return { player: playerIndex, group: "hand" };
  if (parts[2] === "melds" && /^\d+$/.test(parts[3] ?? "")) {
    // the body leaves out empty melds: count the non-empty ones to find the draft's meld
    let seen = -1;
    const target = Number(parts[3]);
    for (let index = 0; index < player.melds.length; index += 1) {
      if (player.melds[index].length) seen += 1;
      if (seen === target) return { player: playerIndex, group: index };
    }
  }
  return { player: playerIndex, group: null };
}

function violationsAt(playerIndex, group) {
  return preview.violations.filter((v) => {
    const where = place(v.attr);
    return where && where.player === playerIndex && where.group === group;
  });
}

const generalViolations = () => preview.violations.filter((v) => !place(v.attr));
const playerViolations = (i) => preview.violations.filter((v) => place(v.attr)?.player === i);

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(runPreview, PREVIEW_DELAY_MS);
}

async function runPreview() {
  if (!draft.players.some((p) => p.hand.length || p.melds.some((m) => m.length))) {
    preview = { state: "idle", results: [], violations: [] };
    render();
    return;
  }
  previewAbort?.abort();
  previewAbort = new AbortController();
  const signal = previewAbort.signal;
  preview = { ...preview, state: "checking" };
  renderStatus();
  try {
    const [{ data }] = await Promise.all([
      request("rulings/hand/", { method: "POST", body: body("names"), signal }),
      loadSuggestions(signal),
    ]);
    preview = { state: data.valid ? "valid" : "invalid", results: data.results, violations: data.violations };
  } catch (error) {
    if (error.name === "AbortError") return;
    if (error instanceof ApiError && error.status === 400) {
      preview = { state: "invalid", results: [], violations: error.errors };
    } else if (error instanceof OfflineError) {
      preview = { state: "offline", results: [], violations: [] };
    } else {
      preview = { ...preview, state: "idle" };
    }
  }
  render();
}

// The API's suggestions for every meld holding a two written alone.
async function loadSuggestions(signal) {
  const wanted = draft.players
    .flatMap((p) => p.melds)
    .filter((meld) => meld.length >= 3 && meld.some((code) => isTwo(code) && !code.includes("=")))
    .map((meld) => meld.join(" "))
    .filter((key) => !(key in suggestions));
  await Promise.all(wanted.map(async (key) => {
    try {
      const { data } = await request("rulings/meld/", { method: "POST", body: { cards: key.split(" ") }, signal });
      suggestions[key] = data.suggestions ?? [];
    } catch (error) {
      if (error.name === "AbortError") throw error;
    }
  }));
}

async function suggestionsFor(meld, index) {
  const bare = meld.map((code, i) => (i === index ? physical(code) : code));
  const key = bare.join(" ");
  if (!(key in suggestions)) {
    try {
      const { data } = await request("rulings/meld/", { method: "POST", body: { cards: bare } });
      suggestions[key] = data.suggestions ?? [];
    } catch {
      return [];
    }
  }
  const choices = suggestions[key].map((meldCodes) => meldCodes[index]).filter((code) => code.includes("="));
  return [...new Set(choices.map((code) => code.split("=")[1]))];
}

// Typed notation, read by the API (rulings/meld/ reads any list of cards and answers them in
// canonical form, or a 400 naming the card it cannot read).
async function typed(text) {
  const tokens = text.split(/[\s,;]+/).filter(Boolean);
  if (!tokens.length) return { cards: [] };
  const { data } = await request("rulings/meld/", { method: "POST", body: { cards: tokens } });
  return { cards: data.cards.map((c) => (c.wild ? `${c.card}=${c.represents}` : c.card)) };
}

// --- rendering ------------------------------------------------------------------------------

let focusKey = null;

function render() {
  if (conflict) return;
  focusKey = document.activeElement?.dataset?.key ?? focusKey;
  root.replaceChildren(
    heading(),
    endingQuestion(),
    playerTabs(),
    playerPanel(),
    picker(),
    typing(),
    finish(),
  );
  root.removeAttribute("aria-busy");
  if (focusKey) root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  root.querySelector(".group.active")?.scrollIntoView({ block: "nearest" });
}

function heading() {
  const dealer = match.seats.find((s) => s.player === (handNumber ? draft.dealer : match.next_dealer));
  const title = handNumber ? t("edit_hand", { n: handNumber }) : t("new_hand", { n: match.next_hand });
  return h("div", { class: "entry-head" },
    h("h1", {}, title),
    h("p", { class: "muted" }, [match.table, dealer ? t("dealer", { name: dealer.name }) : null].filter(Boolean).join(" · ")));
}

function endingQuestion() {
  // an unanswered question is not yet a problem: its findings wait for an answer or a record
  const problems = draft.ending || root.classList.contains("attempted") ? generalViolations() : [];
  const option = (value, wentOut, label) => {
    const id = `ending-${wentOut ?? value}`;
    const checked = draft.ending === value && (value !== "went_out" || draft.wentOut === wentOut);
    return h("div", { class: "choice" },
      h("input", {
        type: "radio", name: "ending", id, value: wentOut ?? value, checked,
        dataset: { key: id },
        onchange: () => {
          draft.ending = value;
          draft.wentOut = wentOut;
          changed();
        },
      }),
      h("label", { for: id }, label));
  };
  return h("fieldset", { class: "ending", "aria-describedby": problems.length ? "ending-problems" : null },
    h("legend", {}, t("how_ended")),
    h("div", { class: "choices ending-choices" },
      draft.players.map((p) => option("went_out", p.id, t("went_out_label", { name: p.name }))),
      option("stock_exhausted", null, t("stock_ran_out"))),
    problemList(problems, "ending-problems"));
}

function problemList(problems, id) {
  if (!problems.length) return null;
  return h("ul", { class: "problems", id }, problems.map((p) => h("li", { dataset: { code: p.code } }, p.detail)));
}

function resultOf(index) {
  return preview.results[index] ?? null;
}

function playerTabs() {
  const move = (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const count = draft.players.length;
    const index = (draft.active.player + step + count) % count;
    draft.active = { player: index, group: lastMeld(draft.players[index]) };
    focusKey = `tab-${index}`;
    changed({ quiet: true });
    root.querySelector(`[data-key="tab-${index}"]`)?.focus();
  };
  return h("div", { class: "player-tabs", role: "tablist", "aria-label": t("players"), onkeydown: move },
    draft.players.map((player, index) => {
      const result = resultOf(index);
      const problems = playerViolations(index).length;
      const selected = index === draft.active.player;
      return h("button", {
        type: "button", role: "tab", id: `tab-${index}`, "aria-selected": selected ? "true" : "false",
        tabindex: selected ? "0" : "-1",
        "aria-controls": "player-panel", class: `player-tab${problems ? " has-problem" : ""}`,
        dataset: { key: `tab-${index}`, player: player.id },
        onclick: () => {
          draft.active = { player: index, group: lastMeld(player) };
          changed({ quiet: true });
        },
      },
      h("span", { class: "name" }, player.name),
      h("span", { class: "tab-net" }, result ? signed(result.net) : t("cards_count", { count: cardTotal(player) })),
      problems ? h("span", { class: "tab-problem" }, "!", h("span", { class: "visually-hidden" }, t("player_problem", { name: player.name }))) : null);
    }));
}

const lastMeld = (player) => player.melds.length - 1;
const cardTotal = (player) => player.melds.flat().length + player.hand.length;
const signed = (value) => (value > 0 ? `+${number(value)}` : number(value));
const minus = (points) => (points ? `−${number(points)}` : number(0)); // points taken off

function playerPanel() {
  const index = draft.active.player;
  const player = draft.players[index];
  const result = resultOf(index);
  const ownProblems = violationsAt(index, null);
  return h("section", { class: "player-panel", id: "player-panel", role: "tabpanel", "aria-labelledby": `tab-${index}` },
    problemList(ownProblems, `player-problems-${index}`),
    h("ol", { class: "groups" },
      player.melds.map((meld, group) => groupRow(index, group, meld, result?.melds?.[meldBodyIndex(player, group)])),
      h("li", { class: "group-actions" },
        h("button", { type: "button", class: "button small", dataset: { key: "new-meld" }, onclick: () => { openMeld(); changed({ quiet: true }); } },
          "+ ", t("new_meld"))),
      groupRow(index, "hand", player.hand, null)),
    scoreLine(result));
}

// The index of a draft meld among the non-empty melds the API sees.
function meldBodyIndex(player, group) {
  if (!player.melds[group].length) return -1;
  return player.melds.slice(0, group).filter((m) => m.length).length;
}

function groupRow(playerIndex, group, codes, ruling) {
  const active = draft.active.player === playerIndex && draft.active.group === group;
  const problems = violationsAt(playerIndex, group);
  const name = group === "hand" ? t("in_hand") : t("meld_n", { n: group + 1 });
  const meldKey = codes.join(" ");
  const offered = group !== "hand" ? suggestions[meldKey] ?? [] : [];
  const info = ruling ? [ruling.kind_label ?? (ruling.kind ? kindLabel(ruling.kind) : null), ruling.valid ? `${number(ruling.points)}` : null].filter(Boolean).join(" · ") : "";
  const held = group === "hand" && resultOf(playerIndex) ? minus(resultOf(playerIndex).hand_penalty) : "";
  return h("li", {
    class: `group${active ? " active" : ""}${problems.length ? " invalid" : ""}${group === "hand" ? " hand" : ""}`,
    dataset: { group: String(group) },
  },
  h("div", { class: "group-main" },
    h("button", {
      type: "button", class: "group-target", "aria-pressed": active ? "true" : "false",
      dataset: { key: `group-${group}` },
      onclick: () => { draft.active.group = group; changed({ quiet: true }); },
    }, h("span", { class: "group-name" }, name), h("span", { class: "group-info" }, info || held)),
    h("div", { class: "chips" },
      codes.length ? codes.map((code, index) => chip(playerIndex, group, code, index, ruling)) : h("span", { class: "muted empty" }, group === "hand" ? t("nothing_held") : "—")),
    group !== "hand" && (codes.length || activePlayer().melds.length > 1) ? h("button", {
      type: "button", class: "icon-button", "aria-label": t("remove_meld", { n: group + 1 }),
      dataset: { key: `remove-meld-${group}` }, onclick: () => removeMeld(playerIndex, group),
    }, "×") : null),
  offered.length ? h("div", { class: "suggestions" },
    offered.slice(0, 3).map((meld) => h("button", {
      type: "button", class: "suggestion", dataset: { key: `suggest-${group}-${meld.join(" ")}` },
      onclick: () => { draft.players[playerIndex].melds[group] = [...meld]; changed(); },
      "aria-label": t("did_you_mean", { meld: meld.filter((c) => c.includes("=")).map(cardName).join(", ") }),
    }, t("did_you_mean", { meld: meld.filter((c) => c.includes("=")).map(shortFace).join(" ") })))) : null,
  problemList(problems, null));
}

function cardFace(code) {
  const card = parseCard(code);
  const span = h("span", { class: `pc ${card.suit === "H" || card.suit === "D" ? "red" : "black"}` },
    `${card.rank}${SUIT_SYMBOLS[card.suit]}`);
  if (card.represents) {
    span.append(h("span", { class: "wild" }, `=${card.represents.rank}${SUIT_SYMBOLS[card.represents.suit]}`));
  }
  return span;
}

// A card as short text, "Q♠" or "2♦=Q♠", for sentences that name a card on screen.
function shortFace(code) {
  const card = parseCard(code);
  const text = `${card.rank}${SUIT_SYMBOLS[card.suit]}`;
  return card.represents ? `${text}=${card.represents.rank}${SUIT_SYMBOLS[card.represents.suit]}` : text;
}

function chip(playerIndex, group, code, index, ruling) {
  const two = group !== "hand" && isTwo(code);
  const label = two ? t("choose_two", { card: cardName(code) }) : t("remove_card", { card: cardName(code) });
  return h("button", {
    type: "button", class: `chip${two ? " two" : ""}`, "aria-label": label,
    dataset: { key: `chip-${group}-${index}-${code}`, card: code },
    onclick: () => (two ? chooseTwo(playerIndex, group, index) : removeCard(playerIndex, group, index)),
  },
  cardFace(code),
  two && !code.includes("=") && !ruling?.valid ? h("span", { class: "two-hint", "aria-hidden": "true" }, "?") : null);
}

// The next player's tab, from the picker's own bar (the thumb stays where the cards are).
function nextPlayer() {
  const index = (draft.active.player + 1) % draft.players.length;
  draft.active = { player: index, group: lastMeld(draft.players[index]) };
  changed({ quiet: true });
  document.getElementById("tab-" + index)?.scrollIntoView({ block: "nearest" });
}

function picker() {
  const seen = counts();
  const suitRow = (band, suit) =>
    band.map((rank) => {
      const card = `${rank}${suit}`;
      const left = COPIES - (seen[card] ?? 0);
      const name = cardName(card);
      return h("button", {
        type: "button", class: `pick ${suit === "H" || suit === "D" ? "red" : "black"}`,
        disabled: left <= 0, dataset: { card, key: `pick-${card}` },
        "aria-label": left === 1 ? `${name}, ${t("left_of", { count: 1 })}` : name,
        onclick: () => addCards([card]),
      },
      h("span", { class: "rank" }, rank), h("span", { class: "suit", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
      left === 1 ? h("span", { class: "left", "aria-hidden": "true" }, "1") : null);
    });
  const inHand = draft.active.group === "hand";
  return h("section", { class: "picker", "aria-labelledby": "picker-target" },
    h("p", { class: "picker-target", id: "picker-target" },
      t("adding_to", { group: `${activeGroupName()} · ${activePlayer().name}` })),
    h("div", { class: "picker-bar" },
      h("button", { type: "button", class: "bar-button", dataset: { key: "bar-new-meld" },
        onclick: () => { openMeld(); changed({ quiet: true }); } }, "+ ", t("new_meld")),
      h("button", { type: "button", class: "bar-button", "aria-pressed": inHand ? "true" : "false", dataset: { key: "bar-hand" },
        onclick: () => { draft.active.group = "hand"; changed({ quiet: true }); } }, t("in_hand")),
      h("button", { type: "button", class: "bar-button", dataset: { key: "bar-next" }, onclick: nextPlayer },
        t("next_player"), h("span", { "aria-hidden": "true" }, " ›"))),
    h("p", { class: "suit-legend", "aria-hidden": "true" },
      SUITS.map((s) => h("span", { class: s === "H" || s === "D" ? "red" : "black" }, `${SUIT_SYMBOLS[s]} ${t(`suit_${s}`)}`))),
    BANDS.map((band, b) => h("div", { class: `pick-grid band-${b}` },
      SUITS.map((suit) => h("div", { class: "pick-row", role: "group", "aria-label": t(`suit_${suit}`) }, suitRow(band, suit))))));
}

function typing() {
  const input = h("input", {
    type: "text", id: "typed", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    "aria-describedby": "typed-hint typed-error", dataset: { key: "typed" },
  });
  const error = h("p", { class: "field-error", id: "typed-error", "aria-live": "polite" });
  const form = h("form", { class: "typing field", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      try {
        const { cards } = await typed(input.value);
        const seen = counts();
        for (const code of cards) {
          seen[physical(code)] = (seen[physical(code)] ?? 0) + 1;
          if (seen[physical(code)] > COPIES) {
            error.textContent = `${cardName(physical(code))}: ${t("none_left")}`;
            input.setAttribute("aria-invalid", "true");
            return;
          }
        }
        input.value = "";
        addCards(cards);
      } catch (failure) {
        input.setAttribute("aria-invalid", "true");
        error.textContent = failure instanceof ApiError ? failure.errors.map((e) => e.detail).join(" ") : sentences.offline;
      }
    } },
  h("label", { for: "typed" }, t("type_cards")),
  h("p", { class: "hint", id: "typed-hint" }, t("type_hint")),
  h("div", { class: "typing-row" }, input, h("button", { type: "submit", class: "button small", dataset: { key: "typed-add" } }, t("add"))),
  error);
  return form;
}

function scoreLine(result) {
  if (!result) return h("p", { class: "score-line muted" }, "");
  const item = (label, value) => h("span", {}, h("span", { class: "label" }, label), " ", h("strong", {}, value));
  return h("p", { class: "score-line", "aria-live": "polite" },
    item(t("melded"), number(result.melded_points)),
    item(t("penalty"), minus(result.hand_penalty)),
    item(t("bonus"), number(result.bonus)),
    item(t("net"), signed(result.net)));
}

function statusText() {
  switch (preview.state) {
    case "checking": return t("checking");
    case "offline": return t("preview_offline");
    case "valid": return t("valid_hand");
    case "invalid": return t("problem_count", { count: preview.violations.length });
    default: return "";
  }
}

function renderStatus() {
  const node = document.getElementById("preview-status");
  if (node) node.textContent = statusText();
}

function finish() {
  const editing = handNumber !== null;
  return h("div", { class: "finish" },
    h("p", { id: "preview-status", class: `preview-status ${preview.state}`, role: "status" }, statusText()),
    editing ? h("div", { class: "field" },
      h("label", { for: "reason" }, t("reason")),
      h("input", { type: "text", id: "reason", maxlength: 500, value: draft.reason ?? "", dataset: { key: "reason" },
        oninput: (event) => { draft.reason = event.target.value; save(); } })) : null,
    h("button", {
      type: "button", class: "button primary wide", id: "record", disabled: sending, dataset: { key: "record" },
      onclick: editing ? saveCorrection : record,
    }, sending ? t("recording") : editing ? t("save_correction") : t("record")));
}

// --- the two's declaration ------------------------------------------------------------------

async function chooseTwo(playerIndex, group, index) {
  const meld = draft.players[playerIndex].melds[group];
  const code = meld[index];
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "two-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  const pick = (represents) => { close(); declare(playerIndex, group, index, represents); };
  const suggested = h("div", { class: "sheet-suggested" }, h("p", { class: "muted" }, t("checking")));
  dialog.append(
    h("h2", { id: "two-title" }, t("choose_two", { card: shortFace(physical(code)) })),
    h("h3", {}, t("suggested")),
    suggested,
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "button small", onclick: () => pick(null) }, t("two_itself")),
      h("button", { type: "button", class: "button small", onclick: () => { close(); removeCard(playerIndex, group, index); } },
        t("remove_card", { card: shortFace(physical(code)) }))),
    h("h3", {}, t("any_card")),
    h("div", { class: "declare-grid" },
      SUITS.map((suit) => h("div", { class: "pick-row", role: "group", "aria-label": t(`suit_${suit}`) },
        RANKS.map((rank) => h("button", {
          type: "button", class: `pick small ${suit === "H" || suit === "D" ? "red" : "black"}`,
          "aria-label": cardName(`${rank}${suit}`), onclick: () => pick(`${rank}${suit}`),
        }, `${rank}${SUIT_SYMBOLS[suit]}`))))),
    h("button", { type: "button", class: "button wide", onclick: close }, t("close")));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  const choices = await suggestionsFor(meld, index);
  suggested.replaceChildren(...(choices.length
    ? [h("div", { class: "button-row" }, choices.map((card) => h("button", {
      type: "button", class: "button small suggestion", dataset: { represents: card },
      "aria-label": cardName(`${physical(code)}=${card}`), onclick: () => pick(card),
    }, cardFace(`${physical(code)}=${card}`))))]
    : [h("p", { class: "muted" }, "—")]));
}

// --- recording and correcting ---------------------------------------------------------------

function showRefusal(error) {
  if (error instanceof ApiError && error.status === 400) {
    preview = { state: "invalid", results: preview.results, violations: error.errors };
    render();
  }
  const box = showError(error, { sentences });
  if (error instanceof ApiError) box.prepend(h("h2", {}, t("problems")));
}

function finished(message) {
  localStorage.removeItem(storeKey);
  sessionStorage.setItem("arlington.flash", message);
  location.assign(matchUrl);
}

async function record() {
  if (sending) return;
  root.classList.add("attempted");
  sending = true;
  render();
  const sent = body("ids");
  try {
    const { data } = await request(`matches/${matchId}/hands/`, {
      method: "POST", body: sent, headers: { "Idempotency-Key": draft.key },
    });
    finished(t("recorded", { n: data.number }));
    return;
  } catch (error) {
    // no connection, or a server that could not record it (5xx: nothing saved): the outbox
    // keeps it and sends it again with the same key, which is safe either way
    if (error instanceof OfflineError || (error instanceof ApiError && error.status >= 500)) {
      try {
        await outbox.add({
          key: draft.key, match: matchId, body: sent, table: match.table || "",
          names: Object.fromEntries(draft.players.map((p) => [p.id, p.name])),
        });
        finished(t("queued"));
        return;
      } catch {
        // no outbox in this browser: the entry stays here, to record again with its key
      }
    }
    if (error instanceof ApiError && error.codes.includes("idempotency_key_in_progress")) {
      sending = false;
      setTimeout(record, 1000);
      return;
    }
    showRefusal(error);
  }
  sending = false;
  render();
}

async function saveCorrection() {
  if (sending) return;
  root.classList.add("attempted");
  sending = true;
  render();
  try {
    const { data } = await request(`matches/${matchId}/hands/${handNumber}/`, {
      method: "PUT", body: { ...body("ids"), reason: draft.reason ?? "" }, headers: { "If-Match": draft.etag },
    });
    finished(t("corrected", { n: data.number }));
    return;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      sending = false;
      await showStale();
      return;
    }
    showRefusal(error);
  }
  sending = false;
  render();
}

// A 412: someone corrected the hand since it was read. Show their version beside this edit,
// and let the scorekeeper apply the edit to it, start again from it, or drop the edit.
async function showStale() {
  let newer;
  let etag;
  try {
    const answer = await request(`matches/${matchId}/hands/${handNumber}/`);
    newer = answer.data;
    etag = answer.headers.get("ETag");
  } catch (error) {
    showError(error, { sentences });
    render();
    return;
  }
  const mine = draft.players.map((p) => ({ player: p.id, melds: p.melds.filter((m) => m.length), hand: p.hand }));
  const theirs = newer.results.map((r) => ({ player: r.player, melds: r.melds.map((m) => m.cards), hand: r.held.map((c) => c.card) }));
  const endingText = (ending, wentOut) => (ending === "stock_exhausted"
    ? t("stock_ran_out")
    : t("went_out_label", { name: draft.players.find((p) => p.id === wentOut)?.name ?? "?" }));
  // Cards one version has and the other has not (melds and hand apart) are marked.
  const tally = (cards) => cards.reduce((seen, c) => ({ ...seen, [c]: (seen[c] ?? 0) + 1 }), {});
  const marked = (cards, other) => {
    const left = tally(other);
    return cards.flatMap((c) => {
      const shared = (left[c] ?? 0) > 0;
      if (shared) left[c] -= 1;
      return [shared ? cardFace(c) : h("mark", { class: "changed" }, cardFace(c)), " "];
    });
  };
  const column = (title, rows, otherRows, ending, wentOut, cls) => h("div", { class: `stale-column ${cls}` },
    h("h3", {}, title),
    h("p", { class: "muted" }, endingText(ending, wentOut)),
    draft.players.map((p) => {
      const row = rows.find((r) => r.player === p.id) ?? { melds: [], hand: [] };
      const other = otherRows.find((r) => r.player === p.id) ?? { melds: [], hand: [] };
      const otherMelds = other.melds.map((m) => m.join(" "));
      return h("div", { class: "stale-player" },
        h("h4", {}, p.name),
        row.melds.length
          ? h("ul", { class: "stale-melds" }, row.melds.map((m) => h("li", {},
            otherMelds.includes(m.join(" ")) ? m.flatMap((c) => [cardFace(c), " "]) : marked(m, other.melds.flat()))))
          : h("p", { class: "muted" }, t("no_melds")),
        h("p", {}, h("span", { class: "muted" }, `${t("in_hand")}: `), row.hand.length ? marked(row.hand, other.hand) : t("nothing_held")));
    }));
  clearMessages();
  conflict = true;
  clearTimeout(previewTimer);
  previewAbort?.abort();
  const panel = h("section", { class: "stale", id: "stale", "aria-labelledby": "stale-title", tabindex: "-1" },
    h("h2", { id: "stale-title" }, t("stale_title")),
    h("p", { class: "muted" }, t("stale_hint")),
    h("div", { class: "stale-columns" },
      column(t("stale_yours"), mine, theirs, draft.ending, draft.wentOut, "yours"),
      column(t("stale_theirs", { version: newer.version, by: newer.recorded_by }), theirs, mine, newer.ending, newer.went_out, "theirs")),
    h("div", { class: "stale-actions" },
      h("button", { type: "button", class: "button primary wide", id: "stale-restart", onclick: () => {
        conflict = false;
        draft = draftFromHand(newer, etag);
        changed();
      } }, t("stale_restart")),
      h("button", { type: "button", class: "button wide", id: "stale-apply", onclick: () => {
        conflict = false;
        draft.etag = etag;
        changed({ quiet: true });
        saveCorrection();
      } }, t("stale_apply")),
      h("button", { type: "button", class: "button wide", id: "stale-drop", onclick: () => {
        localStorage.removeItem(storeKey);
        location.assign(matchUrl);
      } }, t("stale_drop"))));
  root.replaceChildren(heading(), panel);
  panel.focus();
}

// --- start ----------------------------------------------------------------------------------

// Nothing to enter here: a viewer, or a finished match. Say so, with the way back.
function closed(message) {
  root.removeAttribute("aria-busy");
  root.replaceChildren(h("div", { class: "notice", id: "entry-closed" },
    h("p", {}, message), h("p", {}, h("a", { href: matchUrl }, t("back_to_match")))));
}

async function start() {
  try {
    match = await get(`matches/${matchId}/`);
    const club = await get(`clubs/${match.club}/`);
    if (!WRITERS.has(club.role)) return closed(t("entry_viewer"));
    if (handNumber === null && match.status === "finished") return closed(t("entry_finished"));
    draft = loadSaved();
    if (handNumber !== null) {
      const answer = await request(`matches/${matchId}/hands/${handNumber}/`);
      if (!draft || draft.version !== answer.data.version) draft = draftFromHand(answer.data, answer.headers.get("ETag"));
    } else if (!draft) {
      draft = freshDraft(match.seats);
    }
    save();
  } catch (error) {
    root.replaceChildren();
    root.removeAttribute("aria-busy");
    showError(error, { sentences });
    return;
  }
  render();
  schedulePreview();
}

outbox.start();
start();

// A match: the finish banner, seats with running totals and who deals next, the race to its
// target (the match's option, or its game's: GET rulesets/),
// and every hand itemised. Viewers get the same page with no write control at all; hand entry,
// corrections and voiding (web/templates/web/_hand_entry.html) mount on the `arl:match` event.
import { get, getAll, request, showError } from "../api.js";
import { raceChart, legend } from "../chart.js";
import { h, number, pageData } from "../dom.js";
import { cardElement } from "../cards.js";
import { endingLabel, kindLabel, sentences, t } from "../i18n.js";
import { canWrite, mySeat } from "../roles.js";
import { setupWakeLock } from "../wakelock.js";
import * as outbox from "../outbox.js";
import { confirmationLine, confirmHand, confirmPrompt, waitingItem, watch, withWaiting } from "../matchsync.js";

const root = document.getElementById("match");
const matchId = pageData().match;
const signed = (value) => new Intl.NumberFormat(document.documentElement.lang, { signDisplay: "exceptZero" }).format(value);

export function matchTitle(match) {
  return match.table || t("match", { id: match.id });
}

// A line's first letter as a capital ("the stock ran out · …" → "The stock ran out · …").
const capital = (text) => text.charAt(0).toLocaleUpperCase(document.documentElement.lang) + text.slice(1);

function nameOf(match, player) {
  return match.seats.find((seat) => seat.player === player)?.name ?? "";
}

function renderBanner(match) {
  const banner = document.getElementById("finish-banner");
  banner.hidden = match.status !== "finished";
  if (banner.hidden) return;
  const winners = match.seats.filter((seat) => seat.winner);
  const total = number(winners[0]?.total);
  banner.replaceChildren(
    h("span", { class: "trophy", "aria-hidden": "true" }, "★"),
    h("span", {}, match.shared_victory
      ? t("shared_victory_total", { names: winners.map((seat) => seat.name).join(", "), total })
      : t("winner_total", { name: winners[0]?.name ?? "", total })));
}

function renderSeats(match, waiting = []) {
  const next = document.getElementById("next-dealer");
  next.textContent = match.status === "finished" ? t("finished_after", { count: match.hands_played })
    : match.next_dealer === null ? t("next_hand_only", { number: match.next_hand })
      : t("next_hand", { number: match.next_hand, name: nameOf(match, match.next_dealer) });
  next.dataset.waiting = String(waiting.length);
  const leader = Math.max(...match.seats.map((seat) => seat.total));
  document.getElementById("seats").replaceChildren(...match.seats.map((seat) =>
    h("li", { class: ["seat", seat.winner ? "winner" : "", seat.player === match.next_dealer ? "dealer" : ""].join(" ").trim(),
      dataset: { player: seat.player } },
      h("span", { class: "seat-number", "aria-hidden": "true" }, seat.seat + 1),
      h("span", { class: "seat-name" }, seat.name,
        seat.player === match.next_dealer ? h("span", { class: "badge live" }, t("deals_next")) : null,
        seat.winner ? h("span", { class: "badge owner" }, t("winner")) : null),
      h("span", { class: "seat-total" + (seat.total === leader && match.hands_played ? " leader" : "") },
        h("span", { class: "visually-hidden" }, `${t("total_colon")} `), number(seat.total)),
      h("span", { class: "progress", "aria-hidden": "true" },
        h("progress", { max: match.target, value: Math.max(0, Math.min(match.target, seat.total)) })))));
}

function renderChart(match, hands) {
  const figure = document.getElementById("chart");
  const totals = match.seats.map((seat) => `${seat.name} ${number(seat.total)}`).join(", ");
  document.getElementById("chart-heading").textContent = t("race_to", { target: number(match.target) });
  figure.replaceChildren(
    raceChart(match.seats, hands, {
      title: t("chart_title", { count: hands.length, totals, target: number(match.target) }), target: match.target,
    }),
    legend(match.seats));
}

function cards(list) {
  const span = h("span", { class: "card-row" });
  list.forEach((code, i) => span.append(...(i ? [" ", cardElement(code)] : [cardElement(code)])));
  return span;
}

function resultBlock(match, hand, row) {
  const melds = row.melds.length
    ? h("ul", { class: "melds" }, ...row.melds.map((meld) =>
      h("li", {}, cards(meld.cards),
        h("span", { class: "meld-kind" }, kindLabel(meld.kind)),
        h("span", { class: "points plus" }, signed(meld.points)))))
    : h("p", { class: "muted" }, t("result_no_melds"));
  const held = row.held.length
    ? h("p", { class: "held" }, h("span", { class: "label" }, t("held")), " ", cards(row.held.map((item) => item.card)),
      h("span", { class: "points minus" }, signed(-row.hand_penalty)))
    : h("p", { class: "held muted" }, t("held_nothing"));
  return h("div", { class: "result", dataset: { player: row.player } },
    h("h4", {}, row.name,
      h("span", { class: "result-net" }, t("net_total", { net: signed(row.net), total: number(row.total) }))),
    melds, held,
    h("dl", { class: "sums" },
      h("div", {}, h("dt", {}, t("sum_melded")), h("dd", {}, number(row.melded_points))),
      h("div", {}, h("dt", {}, t("sum_penalty")), h("dd", {}, signed(-row.hand_penalty))),
      row.bonus ? h("div", {}, h("dt", {}, t("sum_bonus")), h("dd", {}, signed(row.bonus))) : null,
      h("div", {}, h("dt", {}, t("sum_net")), h("dd", {}, signed(row.net)))));
}

const when = (stamp) => new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "short", timeStyle: "short" }).format(new Date(stamp));

// The versions of the hand as it stands (GET hands/{n}/revisions/, oldest first): those since
// the last void. A hand voided and recorded again is a new hand, not a corrected one; the
// versions of the hand voided are not its own.
function ownVersions(revisions) {
  return revisions.slice(revisions.findLastIndex((r) => r.action === "voided") + 1);
}

// A corrected hand's earlier versions, each player's melds and held cards as they were; the
// last revision is the hand as shown above them.
function earlierVersions(match, revisions) {
  const earlier = ownVersions(revisions).slice(0, -1);
  if (!earlier.length) return null;
  return h("details", { class: "revisions" },
    h("summary", {}, t("earlier_versions", { count: earlier.length })),
    h("ol", { class: "revision-list" }, earlier.map((revision) => {
      const hand = revision.hand;
      const ending = hand.ending === "went_out" ? t("went_out", { name: nameOf(match, hand.went_out) }) : endingLabel(hand.ending);
      return h("li", { dataset: { revision: revision.revision } },
        h("p", { class: "revision-title" }, t(`revision_${revision.action}`, { n: revision.revision, by: revision.by, when: when(revision.at) })),
        revision.reason ? h("p", { class: "muted" }, t("revision_reason", { reason: revision.reason })) : null,
        h("p", { class: "muted" }, capital(ending)),
        h("ul", { class: "revision-players" }, hand.results.map((row) => h("li", {},
          h("strong", {}, nameOf(match, row.player)), " ",
          ...row.melds.flatMap((meld) => [cards(meld), " · "]),
          row.hand.length ? [h("span", { class: "label" }, t("held")), " ", cards(row.hand)] : t("held_nothing")))));
    })));
}

function handItem(match, hand, revisions) {
  const ending = hand.ending === "went_out" ? t("went_out", { name: nameOf(match, hand.went_out) }) : endingLabel(hand.ending);
  const nets = hand.results.map((row) => `${row.name} ${signed(row.net)}`).join(" · ");
  const last = revisions?.at(-1);
  const corrected = revisions && ownVersions(revisions).length > 1
    ? h("span", { class: "badge corrected", dataset: { corrected: "" } },
      last?.reason ? t("hand_corrected_reason", { reason: last.reason }) : t("hand_corrected"))
    : null;
  return h("li", { dataset: { hand: hand.number }, class: "hand" },
    h("details", {},
      h("summary", {},
        h("span", { class: "hand-title" }, t("hand_title", { number: hand.number })), corrected ? " " : null, corrected,
        h("span", { class: "sub" }, capital(`${ending} · ${t("dealt_by", { name: nameOf(match, hand.dealer) })}`)),
        h("span", { class: "sub nets" }, nets)),
      h("div", { class: "hand-body" }, ...hand.results.map((row) => resultBlock(match, hand, row)),
        revisions ? earlierVersions(match, revisions) : null)),
    confirmationLine(hand, state.club, confirm),
    h("div", { class: "hand-actions" }));
}

// The revisions of every corrected hand, by number (most hands have one version and none).
async function revisionsOf(hands) {
  const corrected = hands.filter((hand) => hand.version > 1);
  const lists = await Promise.all(corrected.map((hand) => getAll(`matches/${matchId}/hands/${hand.number}/revisions/`)));
  return Object.fromEntries(corrected.map((hand, i) => [hand.number, lists[i].sort((a, b) => a.revision - b.revision)]));
}

let state = null;
let night; // the club night this match is a table of: null for none, undefined until known

async function confirm(number) {
  const hand = state.hands.find((item) => item.number === number);
  if (hand && (await confirmHand(matchId, hand))) await load();
}

async function load() {
  try {
    const answer = await request(`matches/${matchId}/`);
    const match = answer.data;
    const [club, hands, rules, waiting] = await Promise.all([
      get(`clubs/${match.club}/`), getAll(`matches/${matchId}/hands/`), get(`rulesets/${match.ruleset}/`),
      outbox.waiting(matchId),
    ]);
    match.target = match.options?.target ?? rules.target;
    if (night === undefined) night = await getAll(`tournaments/?match=${matchId}`).then((found) => found[0] ?? null, () => undefined);
    const revisions = await revisionsOf(hands);
    hands.sort((a, b) => a.number - b.number);
    // a player who does not keep score still enters their own cards of the next hand
    const seat = !canWrite(club.role) && match.status !== "finished" ? await mySeat(match) : -1;
    state = {
      match, hands, club, waiting, revisions, etag: answer.headers.get("ETag"), role: club.role,
      canWrite: canWrite(club.role) && match.status !== "finished", seat,
    };
    render(state);
    document.dispatchEvent(new CustomEvent("arl:match", { detail: state }));
  } catch (error) {
    showError(error, { sentences });
  } finally {
    root.removeAttribute("aria-busy");
  }
}

function render({ match: recorded, hands, club, waiting, revisions }) {
  const { match } = withWaiting(recorded, waiting);
  const title = matchTitle(match);
  document.getElementById("match-title").textContent = title;
  document.title = `${title} · ${club.name}`;
  // a table of a club night leads back to the night's board, any other match to its club
  const crumb = document.getElementById("club-link");
  crumb.textContent = night ? t("back_to_night", { name: night.name }) : club.name;
  crumb.href = night ? `/tournaments/${night.id}/` : `/clubs/${club.id}/`;
  renderBanner(match);
  renderSeats(match, waiting);
  renderChart(recorded, hands);
  renderUnconfirmed(recorded);
  confirmPrompt(hands, club, confirm);
  const enter = document.getElementById("enter-hand");
  if (enter && match.next_hand) enter.textContent = t("enter_hand_n", { n: match.next_hand });
  const list = document.getElementById("hands");
  const open = new Set([...list.querySelectorAll("li[data-hand] details[open]")].map((d) => d.closest("li").dataset.hand));
  const pending = waiting.map((entry, i) => waitingItem(entry, recorded.hands_played + 1 + i)).reverse();
  list.replaceChildren(...(hands.length || pending.length
    ? [...pending, ...[...hands].reverse().map((hand) => handItem(recorded, hand, revisions[hand.number]))]
    : [h("li", { class: "muted" }, t("no_hands"))]));
  for (const number of open) list.querySelector(`li[data-hand="${number}"] details`)?.setAttribute("open", "");
  for (const id of ["seats-section", "match-actions", "chart-section", "hands-section"]) document.getElementById(id).hidden = false;
  document.getElementById("chart-section").hidden = hands.length === 0;
  const entry = document.getElementById("hand-entry");
  if (entry) entry.hidden = !state.canWrite && state.seat < 0;
}

setupWakeLock(document.getElementById("wake-lock"), { onError: () => showError(new Error(t("wake_failed")), { sentences: { error: t("wake_failed") } }) });
function renderUnconfirmed(match) {
  const banner = document.getElementById("unconfirmed-banner");
  const count = match.unconfirmed_hands?.length ?? 0;
  banner.hidden = count === 0;
  banner.textContent = count ? t("unconfirmed_banner", { count, numbers: match.unconfirmed_hands.join(", ") }) : "";
}

document.addEventListener("arl:refresh", load);
window.addEventListener("outbox-change", () => {
  if (state) load();
});
watch(matchId, () => state?.etag, load);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && state) load();
});
load();

// The entry screen's dialogs: what a two in a meld stands for, a 412's side-by-side view of
// this edit against the version someone else saved meanwhile, and starting a hand again.
import { ApiError, OfflineError, clearMessages, request, showError } from "../api.js";
import { RANKS, SUITS, SUIT_SYMBOLS, cardFace, cardName, colour, physical, shortFace } from "../cards.js";
import { h } from "../dom.js";
import { sentences, t } from "../i18n.js";
import { actions, announce, handNumber, matchId, root, state } from "./context.js";
import { freeWilds, rows, theRest } from "./draft.js";
import { heading } from "./render.js";
import { suggestionsFor } from "./rulings.js";

// --- the two's declaration ------------------------------------------------------------------

export async function chooseTwo(playerIndex, group, index) {
  const meld = state.draft.players[playerIndex].melds[group];
  const code = meld[index];
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "two-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  const pick = (represents) => { close(); actions.declare(playerIndex, group, index, represents); };
  const suggested = h("div", { class: "sheet-suggested" }, h("p", { class: "muted" }, t("checking")));
  dialog.append(
    h("h2", { id: "two-title" }, t("choose_two", { card: shortFace(physical(code)) })),
    h("h3", {}, t("suggested")),
    suggested,
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "button small", onclick: () => pick(null) }, t("two_itself")),
      h("button", { type: "button", class: "button small", onclick: () => { close(); actions.removeCard(playerIndex, group, index); } },
        t("remove_card", { card: shortFace(physical(code)) }))),
    h("h3", {}, t("any_card")),
    h("div", { class: "declare-grid" },
      SUITS.map((suit) => h("div", { class: "pick-row", role: "group", "aria-label": t(`suit_${suit}`) },
        RANKS.map((rank) => h("button", {
          type: "button", class: `pick small ${colour(suit)}`,
          "aria-label": cardName(`${rank}${suit}`), onclick: () => pick(`${rank}${suit}`),
        }, `${rank}${SUIT_SYMBOLS[suit]}`))))),
    h("button", { type: "button", class: "button wide", onclick: close }, t("close")));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  const choices = await suggestionsFor(state.draft, meld, index, state.suggestions);
  suggested.replaceChildren(...(choices.length
    ? [h("div", { class: "button-row" }, choices.map((card) => h("button", {
      type: "button", class: "button small suggestion", dataset: { represents: card },
      "aria-label": cardName(`${physical(code)}=${card}`), onclick: () => pick(card),
    }, cardFace(`${physical(code)}=${card}`))))]
    : [h("p", { class: "muted" }, "—")]));
}

// --- a 412: the stale edit beside the newer version ----------------------------------------

// Someone corrected the hand since it was read. Show their version beside this edit, and let
// the scorekeeper apply the edit to it, start again from it, or drop the edit.
export async function showStale() {
  const { draft } = state;
  let newer;
  let etag;
  try {
    const answer = await request(`matches/${matchId}/hands/${handNumber}/`);
    newer = answer.data;
    etag = answer.headers.get("ETag");
  } catch (error) {
    showError(error, { sentences });
    actions.render();
    return;
  }
  // who made the version shown: its recorder, or the author of its last correction
  let by = newer.recorded_by;
  if (newer.version > 1) {
    try {
      const revisions = await request(`matches/${matchId}/hands/${handNumber}/revisions/?page=last`);
      // the revision of the version shown (a revision's number is the version it made), not a
      // later one saved since the hand was read
      by = revisions.data.results.find((r) => r.revision === newer.version)?.by ?? by;
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof OfflineError)) throw error;
    }
  }
  const mine = rows(draft);
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
  const column = (title, rowsOf, otherRows, ending, wentOut, cls) => h("div", { class: `stale-column ${cls}` },
    h("h3", {}, title),
    h("p", { class: "muted" }, endingText(ending, wentOut)),
    draft.players.map((p) => {
      const row = rowsOf.find((r) => r.player === p.id) ?? { melds: [], hand: [] };
      const other = otherRows.find((r) => r.player === p.id) ?? { melds: [], hand: [] };
      const otherMelds = other.melds.map((m) => m.join(" "));
      return h("div", { class: "stale-player" },
        h("h4", {}, p.name),
        row.melds.length
          ? h("ul", { class: "stale-melds" }, row.melds.map((m) => h("li", {},
            otherMelds.includes(m.join(" ")) ? m.flatMap((c) => [cardFace(c), " "]) : marked(m, other.melds.flat()))))
          : h("p", { class: "muted" }, t("no_melds")),
        h("p", {}, h("span", { class: "muted" }, `${t("in_hand_label")} `), row.hand.length ? marked(row.hand, other.hand) : t("nothing_held")));
    }));
  clearMessages();
  state.conflict = true;
  actions.stopPreview();
  const panel = h("section", { class: "stale", id: "stale", "aria-labelledby": "stale-title", tabindex: "-1" },
    h("h2", { id: "stale-title" }, t("stale_title")),
    h("p", { class: "muted" }, t("stale_hint")),
    h("div", { class: "stale-columns" },
      column(t("stale_yours"), mine, theirs, draft.ending, draft.wentOut, "yours"),
      column(t("stale_theirs", { version: newer.version, by }), theirs, mine, newer.ending, newer.went_out, "theirs")),
    h("div", { class: "stale-actions" },
      h("button", { type: "button", class: "button primary wide", id: "stale-restart", onclick: () => actions.restartFrom(newer, etag) },
        t("stale_restart")),
      h("button", { type: "button", class: "button wide", id: "stale-apply", onclick: () => actions.applyTo(etag) },
        t("stale_apply")),
      h("button", { type: "button", class: "button wide", id: "stale-drop", onclick: () => actions.drop() },
        t("stale_drop"))));
  root.replaceChildren(heading(), panel);
  panel.focus();
}

// --- the rest: which card was left on the discard pile ------------------------------------

// When the stock ran out the table holds the whole deal (two packs: 104 cards) or all but one: name the top discard (or none),
// and the last player holds every card not entered yet.
export function chooseRest() {
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "rest-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  const pick = (card) => { close(); actions.addRest(card); };
  const remaining = [...new Set(theRest(state.draft, null))];
  dialog.append(
    h("h2", { id: "rest-title" }, t("top_discard")),
    h("button", { type: "button", class: "button wide", dataset: { key: "rest-none" }, onclick: () => pick(null) }, t("no_top_discard", { count: 52 * state.draft.limits.copies })),
    h("div", { class: "declare-grid" },
      SUITS.map((suit) => h("div", { class: "pick-row", role: "group", "aria-label": t(`suit_${suit}`) },
        RANKS.map((rank) => {
          const card = `${rank}${suit}`;
          return h("button", {
            type: "button", class: `pick small ${colour(suit)}`, disabled: !remaining.includes(card),
            "aria-label": cardName(card), onclick: () => pick(card),
          }, `${rank}${SUIT_SYMBOLS[suit]}`);
        })))),
    h("button", { type: "button", class: "button wide", onclick: close }, t("close")));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// --- a gap filled with a two ------------------------------------------------------------

// Which two fills the gap: the twos with a copy left, one tap each.
export function chooseGap(offer) {
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "gap-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  dialog.append(
    h("h2", { id: "gap-title" }, t("gap_two", { card: shortFace(offer.stands) })),
    h("div", { class: "button-row" }, freeWilds(state.draft).map((two) => h("button", {
      type: "button", class: "button suggestion", dataset: { two }, "aria-label": cardName(two),
      onclick: () => { close(); actions.takeGap(offer, two); },
    }, cardFace(two)))),
    h("button", { type: "button", class: "button wide", onclick: close }, t("close")));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// --- starting the hand again ----------------------------------------------------------------

// "Start the hand again", confirmed: `restart` clears the hand on every phone (the API's
// DELETE …/draft/); a refusal is shown and nothing changes.
export function confirmStartAgain(restart) {
  const number = state.draft.number ?? state.match.next_hand;
  const dialog = h("dialog", { class: "sheet", id: "start-again-dialog", "aria-labelledby": "again-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  dialog.append(
    h("h2", { id: "again-title" }, t("start_again_title", { n: number })),
    h("p", {}, t("start_again_confirm", { n: number })),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "button primary danger", id: "start-again-yes", onclick: async () => {
        close();
        clearMessages();
        try {
          await restart();
        } catch (error) {
          showError(error, { sentences });
          return;
        }
        announce(t("started_again", { n: number }));
      } }, t("start_again_yes")),
      h("button", { type: "button", class: "button", onclick: close }, t("cancel"))));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

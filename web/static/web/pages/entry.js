// Entering a finished hand, or correcting one: each player's melds and held cards tapped from
// a card picker (or typed), who went out, a live preview from POST rulings/hand/, and the
// record (POST with an Idempotency-Key made when the entry began) or correction (PUT with
// If-Match). Every ruling is the API's: nothing here knows the rules of Arlington.
//
// This is the controller: it owns the state's changes and wires the modules together —
// entry/draft.js (the draft as pure data), entry/render.js (the screen), entry/dialogs.js
// (the two's declaration, a 412's side-by-side view), entry/record.js (record and correct),
// entry/rulings.js (the API's preview and suggestions).
import { get, request, showError } from "../api.js";
import { cardName } from "../cards.js";
import { sentences, t } from "../i18n.js";
import { keepForOffline } from "../offline.js";
import * as outbox from "../outbox.js";
import { canWrite, mySeat } from "../roles.js";
import {
  actions, announce, forget, handNumber, loadSaved, matchId, matchUrl, root, save, state,
} from "../entry/context.js";
import * as share from "../entry/share.js";
import * as drafts from "../entry/draft.js";
import { chooseGap, chooseRest, chooseTwo, confirmStartAgain } from "../entry/dialogs.js";
import { record, saveCorrection } from "../entry/record.js";
import { activeGroupName, closed, render, renderShare, renderStatus } from "../entry/render.js";
import { previewOf, suggestionsFor, IDLE } from "../entry/rulings.js";

const PREVIEW_DELAY_MS = 350;

let previewTimer = null;
let previewAbort = null;

function changed({ quiet = false } = {}) {
  save();
  render();
  share.changed();
  if (!quiet) schedulePreview();
}

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(runPreview, PREVIEW_DELAY_MS);
}

// A preview that could not be asked for without a connection is asked for again once it is back
// (the melds' kinds and points, and the nets, come from the server).
globalThis.addEventListener("online", () => {
  if (state.draft && state.preview.state === "offline") schedulePreview();
});

function stopPreview() {
  clearTimeout(previewTimer);
  previewTimer = null;
  previewAbort?.abort();
}

async function runPreview() {
  previewTimer = null;
  if (drafts.isEmpty(state.draft)) {
    // nothing to check: redraw only if there was a preview (a redraw under a tap loses it)
    if (state.preview.state !== "idle") {
      state.preview = IDLE;
      render();
    }
    return;
  }
  previewAbort?.abort();
  previewAbort = new AbortController();
  const signal = previewAbort.signal;
  const previous = state.preview;
  state.preview = { ...previous, state: "checking" };
  renderStatus();
  try {
    state.preview = await previewOf(state.draft, state.suggestions, state.preview, signal);
  } catch (error) {
    if (error.name === "AbortError") return;
    throw error;
  }
  render();
}

// Every change to the draft the screen and dialogs can ask for.
Object.assign(actions, {
  render,
  renderShare,
  save,
  changed,
  stopPreview,
  record,
  saveCorrection,
  chooseTwo,
  addCards(codes) {
    const { draft } = state;
    const player = drafts.activePlayer(draft);
    const added = t("added", { card: codes.map(cardName).join(", "), group: `${activeGroupName()} · ${player.name}` });
    const once = drafts.addCards(draft, codes);
    announce(once.length ? t("counted_once", { card: once.map(cardName).join(", ") }) : added);
    changed();
  },
  // A card tapped on the picker: added, and when it is the second end of a run with a gap
  // between, the run is filled in and shown (drafts.fillRun).
  tapCard(code) {
    const { draft } = state;
    const player = drafts.activePlayer(draft);
    const group = `${activeGroupName()} · ${player.name}`;
    const once = drafts.addCards(draft, [code]);
    const run = once.length ? null : drafts.fillRun(draft);
    if (once.length) announce(t("counted_once", { card: once.map(cardName).join(", ") }));
    else announce(t("added", { card: (run ?? [code]).map(cardName).join(", "), group }));
    changed();
  },
  // One of two versions of a player's cards, entered on two phones, chosen ("mine" or "theirs").
  choose(key, which) {
    drafts.choose(state.draft, key, which);
    changed();
  },
  openMeld() {
    drafts.openMeld(state.draft);
    changed({ quiet: true });
  },
  target(group) {
    drafts.target(state.draft, group);
    changed({ quiet: true });
  },
  selectPlayer(index) {
    drafts.selectPlayer(state.draft, index);
    changed({ quiet: true });
  },
  // The next player's tab, from the picker's own bar (the thumb stays where the cards are).
  nextPlayer() {
    const index = drafts.nextPlayerIndex(state.draft);
    drafts.selectPlayer(state.draft, index);
    changed({ quiet: true });
    document.getElementById("tab-" + index)?.scrollIntoView({ block: "nearest" });
  },
  removeCard(playerIndex, group, index) {
    drafts.removeCard(state.draft, playerIndex, group, index);
    changed();
  },
  removeMeld(playerIndex, group) {
    drafts.removeMeld(state.draft, playerIndex, group);
    changed();
  },
  setMeld(playerIndex, group, codes) {
    drafts.setMeld(state.draft, playerIndex, group, codes);
    changed();
  },
  declare(playerIndex, group, index, represents) {
    drafts.declare(state.draft, playerIndex, group, index, represents);
    changed();
  },
  setFlag(name, value) {
    drafts.setFlag(state.draft, name, value);
    changed();
  },
  setEnding(ending, wentOut) {
    drafts.setEnding(state.draft, ending, wentOut);
    changed();
  },
  takeOffer(cards) {
    const { draft } = state;
    announce(t("added", { card: cards.map(cardName).join(", "), group: `${activeGroupName()} · ${drafts.activePlayer(draft).name}` }));
    drafts.takeOffer(draft, cards);
    changed();
  },
  chooseRest,
  chooseGap,
  confirmStartAgain: () => confirmStartAgain(share.restart),
  // A two in the gap of a run: what it stands for is the API's to suggest (rulings/meld/);
  // the gap's card is declared only when the API suggests it, else the two stays bare.
  async takeGap(offer, two) {
    const { draft } = state;
    const player = draft.active.player;
    const group = offer.group ?? draft.active.group;
    const meld = drafts.fillGap(draft, offer.cards, offer.gap, two, group);
    const stands = await suggestionsFor(draft, meld, offer.gap, state.suggestions);
    if (stands.includes(offer.stands)) drafts.declare(draft, player, group, offer.gap, offer.stands);
    announce(t("added", { card: draft.players[player].melds[group].map(cardName).join(", "), group: `${t("meld_n", { n: group + 1 })} · ${draft.players[player].name}` }));
    if (draft.active.player === player && draft.active.group === group) drafts.openMeld(draft);
    changed();
  },
  addRest(topDiscard) {
    drafts.addRest(state.draft, topDiscard);
    changed();
  },
  // Record hand: a hand the preview finds valid is reviewed first (its figures fresh from the
  // API); any other goes straight to record(), whose refusal or outbox says what happened.
  async review() {
    if (state.sending) return;
    if (previewTimer) {
      clearTimeout(previewTimer);
      await runPreview();
    }
    if (state.preview.state !== "valid") {
      record();
      return;
    }
    state.reviewing = true;
    render();
    window.scrollTo({ top: 0 });
    document.getElementById("review")?.focus({ preventScroll: true });
  },
  // The server refused the hand being shared as not the next one: when that is because a hand
  // before it was voided, the entry takes the next number (its taps kept, to be shared
  // again). Only from what the server says now, and only with no hand of the match waiting in
  // this phone's outbox: an entry ahead of hands waiting here keeps its number. The outbox is
  // read first, so that a hand it sends meanwhile shows in the match read after it. Whether
  // the entry was renumbered.
  async renumber() {
    try {
      if ((await outbox.waiting(matchId)).length) return false;
      const answer = await request(`matches/${matchId}/`);
      if (answer.headers.has("X-Arlington-Kept")) return false; // a copy kept: no news of a void
      const match = answer.data;
      if (match.status === "finished" || match.next_hand >= state.draft.number) return false;
      drafts.renumber(state.draft, { number: match.next_hand, dealer: match.next_dealer }, state.own);
    } catch {
      return false;
    }
    state.reviewing = false;
    save();
    render();
    return true;
  },
  // Back from the review to one player's melds, to fix them.
  fix(index) {
    state.reviewing = false;
    drafts.selectPlayer(state.draft, index);
    changed({ quiet: true });
    document.getElementById(`tab-${index}`)?.focus();
  },
  setReason(text) {
    state.draft.reason = text;
    save();
  },
  // A 412's choices: start again from the newer version, apply this edit to it, or drop it.
  restartFrom(newer, etag) {
    state.conflict = false;
    state.draft = drafts.draftFromHand(newer, etag, state.match.seats, state.draft.limits);
    changed();
  },
  applyTo(etag) {
    state.conflict = false;
    state.draft.etag = etag;
    changed({ quiet: true });
    saveCorrection();
  },
  drop() {
    forget();
    location.assign(matchUrl);
  },
});

// The number a new hand is entered as, and its dealer: the match's next hand, moved on by the
// hands of this match still waiting in the outbox (the dealer after one waiting hand is the
// API's `dealer_after_next`; after more, it is not known here).
async function nextNumber(match) {
  const waiting = await outbox.waiting(match.id);
  const number = match.next_hand + waiting.length;
  if (!waiting.length) return { number, dealer: match.next_dealer };
  const out = waiting[0].body.went_out;
  const dealer = waiting.length === 1 ? match.dealer_after_next?.[out ?? "none"] ?? null : null;
  return { number, dealer };
}

async function start() {
  try {
    state.match = await get(`matches/${matchId}/`);
    // the game's limits (copies of a card, meld sizes, endings, flags) come from its description
    const [club, rules] = await Promise.all([get(`clubs/${state.match.club}/`), get(`rulesets/${state.match.ruleset}/`)]);
    if (handNumber === null && state.match.status === "finished") return closed(t("entry_finished"), matchUrl);
    // a player opens on their own cards; one who does not keep score enters nothing else
    const seat = handNumber === null ? await mySeat(state.match) : -1;
    if (!canWrite(club.role)) {
      if (seat < 0) return closed(t("entry_viewer"), matchUrl);
      state.own = seat;
    }
    const limits = drafts.limitsOf(rules);
    state.draft = loadSaved();
    if (handNumber !== null) {
      const answer = await request(`matches/${matchId}/hands/${handNumber}/`);
      if (!state.draft || state.draft.version !== answer.data.version) {
        state.draft = drafts.draftFromHand(answer.data, answer.headers.get("ETag"), state.match.seats, limits);
      }
    } else {
      const next = await nextNumber(state.match);
      // a hand begun here, left, and recorded on another phone since, every tap made here
      // shared before: nothing of it is left to enter, so the next hand opens, saying so
      // (taps that never left this phone stay, to compare with the recorded hand)
      if (state.draft && state.draft.number < next.number && !drafts.pendingParts(state.draft).length) {
        state.passed = state.draft.number;
        forget();
        state.draft = null;
      }
      if (!state.draft) {
        state.draft = drafts.freshDraft(state.match.seats, limits);
        Object.assign(state.draft, next);
        if (seat >= 0) drafts.selectPlayer(state.draft, seat); // melds first
      }
    }
    if (state.own !== null && state.draft.active.player !== state.own) drafts.selectPlayer(state.draft, state.own);
    state.draft.limits = limits;
    state.draft.flags ??= Object.fromEntries(limits.flags.map((flag) => [flag.name, flag.default]));
    save();
  } catch (error) {
    root.replaceChildren();
    root.removeAttribute("aria-busy");
    showError(error, { sentences });
    return;
  }
  share.start();
  render();
  schedulePreview();
  // the match's page and reads kept too, so that a hand recorded here without a connection
  // opens it from the cache (an entry opened straight from a link, its match page never seen)
  keepForOffline([state.match]).then(() => { root.dataset.kept = "true"; });
}

outbox.start();
start();

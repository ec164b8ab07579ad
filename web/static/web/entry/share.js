// Sharing a new hand's entry with the other phones at the table, through the API's draft of
// that hand (GET matches/{id}/hands/{n}/draft/, PUT …/draft/ending/ and
// …/draft/players/{player}/, DELETE …/draft/ to start again): what this phone enters is sent a
// moment after each tap, and what the others enter appears here, so that each player taps
// their own melds and cards on their own phone while the scorekeeper taps the ending. The
// merging itself is entry/draft.js's; this module only talks to the API. Without a connection the entry simply stays on this phone, as before.
import { ApiError, OfflineError, request } from "../api.js";
import { t } from "../i18n.js";
import { actions, announce, forget, handNumber, matchId, state } from "./context.js";
import {
  ENDING_PART, activePlayer, adoptShared, markDropped, markOffered, markShared, partData, pendingDrops,
  holdsAll, pendingOffers, pendingParts, selectPlayer, sharedOf, startAgain,
} from "./draft.js";

// Whatever this phone has to send: parts it changed, versions to offer beside a part, offers
// to withdraw.
const pendingWork = (draft) => [...pendingParts(draft), ...pendingOffers(draft), ...pendingDrops(draft)];

const POLL_MS = 2500;
const SEND_DELAY_MS = 300;
const MAX_ROUNDS = 5; // sends in one go (a part taken by another phone meanwhile is sent again)

let pollTimer = null;
let sendTimer = null;
let sending = false;
let again = false;
let etag = null;

const base = () => `matches/${matchId}/hands/${state.draft.number}/draft/`;

function setStatus(status, extra = {}) {
  state.share = { ...state.share, status, ...extra };
  actions.renderShare?.();
}

// Start sharing a new hand's entry (a correction is one phone's).
export function start() {
  if (handNumber !== null || !state.draft?.number) return;
  sharedOf(state.draft);
  state.share = { status: "joining", clashes: [] };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && state.share?.status !== "closed") poll();
  });
  poll();
}

let taking = false; // another phone's parts are being taken in: changes here are theirs

// The draft changed on this phone: send what changed, soon. A change made here (not one taken
// from another phone) makes the news of an answer another phone's answer replaced old: the
// sentence goes.
// Stop sharing for good (the match is gone): no more reads or writes of the draft.
export function stop() {
  clearTimeout(pollTimer);
  clearTimeout(sendTimer);
  if (state.share) state.share = { ...state.share, status: "closed" };
}

export function changed() {
  if (!state.share || state.share.status === "closed") return;
  const { clashes, kept, keptYours, renumbered } = state.share;
  if (!taking && (clashes?.length || kept?.length || keptYours?.length || renumbered)) {
    state.share = { ...state.share, clashes: [], kept: [], keptYours: [], renumbered: null };
    actions.renderShare?.();
  }
  schedule();
}

function schedule() {
  clearTimeout(sendTimer);
  sendTimer = setTimeout(send, SEND_DELAY_MS);
}

// The hand's number is not open for sharing: recorded on another phone meanwhile, or still
// behind hands waiting in this phone's outbox; or the match finished. The entry itself stays:
// recording it still meets the recorded hand the usual way (the same hand confirms it).
async function close(error) {
  clearTimeout(pollTimer);
  clearTimeout(sendTimer);
  let message = error.message;
  // the hand recorded on another phone: the next number is open, or the match is over
  if (error.codes.includes("hand_number_not_next") || error.codes.includes("match_finished")) {
    if (error.codes.includes("hand_number_not_next") && (await actions.renumber())) {
      // a hand before this one was voided: shared again under its new number, every part
      // sent whole (the void emptied the old number's draft), and the screen says why
      etag = null;
      setStatus("joining", { clashes: [], renumbered: state.draft.number });
      poll();
      return;
    }
    const match = await request(`matches/${matchId}/`).then((answer) => answer.data, () => null);
    const recorded = match && match.hands_played >= state.draft.number;
    const finished = match?.status === "finished";
    message = recorded ? t("share_recorded", { n: state.draft.number }) : finished ? t("entry_finished") : t("share_waiting");
    if (recorded && !pendingParts(state.draft).length && !(await missedByRecord())) {
      // everything tapped here was shared before the hand was recorded: nothing is left to
      // keep, the screen says so in place of the cards, and the next "Enter hand" starts the
      // next hand, not this one again
      forget();
      setStatus("closed", { message, done: true });
      actions.render();
      return;
    }
    if (recorded) {
      // taps that never reached the other phone: kept, to compare with the recorded hand
      // (recording it meets that hand: the same confirms it, a different one shows both)
      // (a player who keeps no score cannot record: the scorekeeper corrects the hand)
      const unsent = state.own === null ? "share_recorded_unsent" : "share_recorded_unsent_own";
      setStatus("closed", { message: t(unsent, { n: state.draft.number }), unsent: true });
      return;
    }
  }
  setStatus("closed", { message });
}

// Whether a part this phone shared last (its own write the newest version it saw) is not in
// the hand as recorded: a card of it missing there (the recording phone had not read it yet: a
// card tapped here as the hand was recorded on another phone), or the ending answered
// otherwise. Those taps are kept, as taps never sent are, so that they are not lost without a
// word. When the hand cannot be read, they are kept too.
async function missedByRecord() {
  const shared = sharedOf(state.draft);
  const own = Object.keys(shared.mine).filter((key) => shared.mine[key] > 0 && shared.mine[key] === shared.versions[key]);
  if (!own.length) return false;
  let hand;
  try {
    hand = (await request(`matches/${matchId}/hands/${state.draft.number}/`)).data;
  } catch (error) {
    if (error instanceof ApiError || error instanceof OfflineError) return true;
    throw error;
  }
  return own.some((key) => {
    const part = shared.base[key];
    if (key === ENDING_PART) {
      return part.ending !== hand.ending || (part.ending === "went_out" && part.went_out !== hand.went_out);
    }
    const result = hand.results.find((r) => String(r.player) === key);
    const recorded = result
      ? { melds: result.melds.map((m) => m.cards), hand: result.held.map((c) => c.card) }
      : { melds: [], hand: [] };
    return !holdsAll(recorded, part);
  });
}

function take(answer) {
  const { changed: moved, clashes, restarted, kept } = adoptShared(state.draft, answer);
  // two versions of a player's cards, and another phone's choice settled it, not this one's:
  // said on screen (the cards changed under the player's eyes), until a tap made here
  for (const { key, whose } of kept) {
    const name = state.draft.players.find((p) => String(p.id) === key)?.name ?? "";
    const [field, sentence] = whose === "yours" ? ["keptYours", "versions_kept_yours"] : ["kept", "versions_kept_elsewhere"];
    state.share = { ...state.share, [field]: [...new Set([...(state.share[field] ?? []), name])] };
    announce(t(sentence, { name }));
  }
  if (restarted) {
    // cleared on another phone: said here, until this phone shares a tap made since; what it
    // tapped before and had not sent yet (offline, say) goes out too, but is no such tap
    const pending = Object.fromEntries(pendingParts(state.draft).map((key) => [key, JSON.stringify(partData(state.draft, key))]));
    state.share = { ...state.share, restarted: true, restartedWith: pending };
    announce(t("share_restarted", { n: state.draft.number }));
    // a review open here was of the hand as it stood: back to the entry, which says why
    state.reviewing = false;
    // the player being entered has nothing left here: taps start again at their first meld,
    // as on the phone that started the hand again
    const player = activePlayer(state.draft);
    if (!player.hand.length && !player.melds.some((meld) => meld.length)) {
      selectPlayer(state.draft, state.draft.active.player);
    }
  }
  if (clashes.length) {
    const names = clashes.map((key) => (key === ENDING_PART ? t("how_ended") : state.draft.players.find((p) => String(p.id) === key)?.name));
    state.share = { ...state.share, clashes: names };
    announce(t("share_clash", { parts: names.join(", ") }));
  }
  taking = true;
  try {
    if (moved) actions.changed();
    else actions.save();
  } finally {
    taking = false;
  }
}

// Start the hand again on every phone (scorekeepers and owners): the API empties its draft,
// this phone empties its own, and the others see it empty at their next read. A refusal
// (offline, or the hand recorded meanwhile) is the caller's to show; nothing changes here.
export async function restart() {
  clearTimeout(sendTimer);
  await request(base(), { method: "DELETE" });
  written += 1; // a read begun before holds the old parts
  startAgain(state.draft);
  etag = null;
  setStatus("sharing", { clashes: [], restarted: false });
  actions.changed(); // the preview too: an empty entry has none
  poll();
}

let polling = false;
let written = 0; // parts this phone has written: a read that began before one is out of date

async function poll() {
  clearTimeout(pollTimer);
  // one loop at a time (a page shown again asks at once, unless a request is on its way)
  if (polling || document.visibilityState === "hidden" || state.gone) return;
  polling = true;
  try {
    const before = written;
    try {
      const answer = await request(base(), { headers: etag ? { "If-None-Match": etag } : {} });
      // while a part is on its way, its answer brings the same news: this one waits; and an
      // answer read before this phone's last write may lack the part it wrote (a part missing
      // reads as thrown away): the next read brings the news instead
      if (!sending && written === before) {
        etag = answer.headers.get("ETag");
        take(answer.data);
      }
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 304)) throw error; // 304: nothing new
    }
    // the server answered, with news or without: the connection is back, and what this phone
    // tapped meanwhile goes now
    if (["joining", "offline"].includes(state.share.status)) setStatus("sharing");
    if (pendingWork(state.draft).length) schedule();
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      close(error);
      return;
    } else if (error instanceof OfflineError) {
      setStatus("offline");
    } else if (error instanceof ApiError && error.status === 404) {
      setStatus("closed", { message: "" });
      return;
    } else if (!(error instanceof ApiError)) {
      throw error;
    }
  } finally {
    polling = false;
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

async function sendPart(key) {
  const { draft } = state;
  const data = partData(draft, key);
  const version = sharedOf(draft).versions[key] ?? 0;
  const path = key === ENDING_PART ? `${base()}ending/` : `${base()}players/${key}/`;
  try {
    const answer = await request(path, { method: "PUT", body: { ...data, version } });
    etag = answer.headers.get("ETag");
    const mine = key === ENDING_PART ? answer.data.ending : answer.data.players?.find((p) => String(p.player) === key);
    markShared(draft, key, data, mine?.version ?? version + 1);
    written += 1;
    if (state.share.restartedWith?.[key] !== JSON.stringify(data)) {
      state.share = { ...state.share, restarted: false, restartedWith: null };
    }
    take(answer.data);
  } catch (error) {
    if (error instanceof ApiError && error.codes.includes("draft_changed") && error.envelope.draft) {
      take(error.envelope.draft); // merged here; sent again in the next round
      return;
    }
    throw error;
  }
}

// This phone's version of a player's cards, offered beside the part it differs from, so that
// the other phones show both and the choice can be made on any of them.
async function sendOffer(key) {
  const { draft } = state;
  const data = partData(draft, key);
  const version = sharedOf(draft).versions[key] ?? 0;
  try {
    const answer = await request(`${base()}players/${key}/contest/`, { method: "PUT", body: { ...data, version } });
    etag = answer.headers.get("ETag");
    markOffered(draft, key, data, version);
    written += 1;
    take(answer.data);
  } catch (error) {
    if (error instanceof ApiError && error.codes.includes("draft_changed") && error.envelope.draft) {
      take(error.envelope.draft); // the part moved on: compared again, offered again if need be
      return;
    }
    throw error;
  }
}

// The part as written kept (here, or on the phone that offered another version): the version
// offered beside it withdrawn, from the part's version the choice was made on. Another
// phone's choice made first is refused it: this phone then takes the part as it stands.
async function sendDrop(key) {
  const version = sharedOf(state.draft).drops[key];
  try {
    const answer = await request(`${base()}players/${key}/contest/?version=${version}`, { method: "DELETE" });
    etag = answer.headers.get("ETag");
    markDropped(state.draft, key);
    written += 1;
    take(answer.data);
  } catch (error) {
    if (error instanceof ApiError && error.codes.includes("draft_changed") && error.envelope.draft) {
      take(error.envelope.draft);
      return;
    }
    throw error;
  }
}

async function send() {
  if (sending) {
    again = true;
    return;
  }
  if (!pendingWork(state.draft).length) return;
  sending = true;
  setStatus("sending");
  try {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      if (!pendingWork(state.draft).length) break;
      // a choice to keep a part as written goes before the taps held back while it waited
      for (const key of pendingDrops(state.draft)) await sendDrop(key);
      for (const key of pendingParts(state.draft)) await sendPart(key);
      for (const key of pendingOffers(state.draft)) await sendOffer(key);
    }
    // an answer of this phone's that another phone's replaced in this round stays said
    // until a change made here (changed())
    setStatus(pendingWork(state.draft).length ? "sending" : "sharing");
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) close(error);
    else if (error instanceof OfflineError) setStatus("offline");
    else if (error instanceof ApiError) setStatus("failed", { message: error.message });
    else throw error;
  } finally {
    sending = false;
    actions.save();
  }
  if (again) {
    again = false;
    schedule();
  }
}

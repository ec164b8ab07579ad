// Recording a new hand (POST with the Idempotency-Key made when the entry began; the outbox
// keeps it when the network or the server fails) and saving a correction (PUT with If-Match;
// a 412 opens the side-by-side view). The draft is only read here. A new hand carries the
// number it was entered as: if another phone recorded that number meanwhile, the same hand
// confirms it (200) and a different one opens the side-by-side screen (taken.js).
import { ApiError, OfflineError, request, showError } from "../api.js";
import { h } from "../dom.js";
import { sentences, t } from "../i18n.js";
import * as outbox from "../outbox.js";
import { correctWith, takenPanel } from "../taken.js";
import { actions, forget, handNumber, matchId, matchUrl, root, state } from "./context.js";
import { body } from "./draft.js";
import { showStale } from "./dialogs.js";
import * as share from "./share.js";
import { heading } from "./render.js";

// A submission whose key is still being recorded is asked again after 1, 2, 4, 8 and 16 s,
// then the scorekeeper is told (the entry stays, to send again with its key).
const RETRY_BASE_MS = 1000;
const RETRY_LIMIT = 5;
let retries = 0;

function showRefusal(error) {
  if (error instanceof ApiError && error.status === 404) {
    matchGone();
    return;
  }
  state.reviewing = false; // back to the editor, where the problems are shown on their melds
  if (error instanceof ApiError && error.status === 400) {
    state.preview = { state: "invalid", results: state.preview.results, violations: error.errors };
    actions.render();
  }
  const box = showError(error, { sentences });
  if (error instanceof ApiError) box.prepend(h("h2", {}, t("problems")));
}

// The match is gone (a director took its round back) or this login lost the club: nothing
// entered here can be recorded any more. The entry closes in place of its cards, saying so, with
// the way to the club (whose page lists the night's new tables), and the page's own links to
// the match go: there is no match to go back to. What was entered is dropped with it.
function matchGone() {
  const club = `/clubs/${state.match.club}/`;
  state.gone = true;
  share.stop();
  forget();
  for (const link of document.querySelectorAll(`a[href="${matchUrl}"]`)) link.remove();
  root.removeAttribute("aria-busy");
  root.replaceChildren(h("div", { class: "notice", id: "entry-closed", tabindex: "-1" },
    h("p", {}, t("match_gone")), h("p", {}, h("a", { class: "button", href: club }, t("to_club")))));
  root.querySelector("#entry-closed").focus();
}

// The preview's nets by player id (the preview names players by name), for a waiting hand.
function netsOf(draft, preview) {
  if (preview.state !== "valid") return null;
  const ids = Object.fromEntries(draft.players.map((p) => [p.name, p.id]));
  return Object.fromEntries(preview.results.map((r) => [ids[r.player], r.net]));
}

function finished(message, waiting = false) {
  forget();
  sessionStorage.setItem("arlington.flash", message);
  // a hand left in the outbox: the match page takes the sentence down once it no longer waits
  if (waiting) sessionStorage.setItem("arlington.flash.waiting", "true");
  location.assign(matchUrl);
}

export async function record() {
  if (state.sending) return;
  const { draft, match } = state;
  root.classList.add("attempted");
  state.sending = true;
  actions.render();
  const sent = { ...body(draft, "ids"), ...(draft.number ? { number: draft.number } : {}) };
  try {
    const { data, status } = await request(`matches/${matchId}/hands/`, {
      method: "POST", body: sent, headers: { "Idempotency-Key": draft.key },
    });
    retries = 0;
    finished(status === 200 ? t("already_confirms", { n: data.number }) : t("recorded", { n: data.number }));
    return;
  } catch (error) {
    // no connection, or a server that could not record it (5xx: nothing saved): the outbox
    // keeps it and sends it again with the same key, which is safe either way
    if (error instanceof OfflineError || (error instanceof ApiError && error.status >= 500)) {
      try {
        await outbox.add({
          key: draft.key, match: matchId, body: sent, table: match.table || "",
          names: Object.fromEntries(draft.players.map((p) => [p.id, p.name])),
          nets: netsOf(draft, state.preview),
        });
        finished(t("queued"), true);
        return;
      } catch {
        // no outbox in this browser: the entry stays here, to record again with its key
      }
    }
    if (error instanceof ApiError && error.codes.includes("idempotency_key_in_progress") && retries < RETRY_LIMIT) {
      state.sending = false;
      setTimeout(record, RETRY_BASE_MS * 2 ** retries);
      retries += 1;
      return;
    }
    retries = 0;
    if (error instanceof ApiError && error.codes.includes("hand_already_recorded")) {
      state.sending = false;
      showTaken(error.envelope, sent);
      return;
    }
    showRefusal(error);
  }
  state.sending = false;
  actions.render();
}

export async function saveCorrection() {
  if (state.sending) return;
  const { draft } = state;
  root.classList.add("attempted");
  state.sending = true;
  actions.render();
  try {
    const { data } = await request(`matches/${matchId}/hands/${handNumber}/`, {
      method: "PUT", body: { ...body(draft, "ids"), reason: draft.reason ?? "" }, headers: { "If-Match": draft.etag },
    });
    // the very hand recorded, saved again, makes no new version: say so, not "corrected"
    finished(t(data.version === draft.version ? "unchanged" : "corrected", { n: data.number }));
    return;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      state.sending = false;
      await showStale();
      return;
    }
    showRefusal(error);
  }
  state.sending = false;
  actions.render();
}

// Another phone recorded this hand's number with a different hand: both side by side.
export function showTaken(conflict, sent) {
  const names = Object.fromEntries(state.draft.players.map((p) => [p.id, p.name]));
  const number = conflict.recorded.number;
  state.conflict = true;
  actions.stopPreview();
  const panel = takenPanel({
    conflict, mine: sent, names,
    onKeep: () => finished(t("taken_kept", { n: number })),
    onCorrect: async () => {
      try {
        await correctWith(matchId, number, conflict.recorded, sent);
        finished(t("corrected", { n: number }));
      } catch (error) {
        showError(error, { sentences });
      }
    },
    onEdit: () => {
      state.conflict = false;
      actions.changed();
    },
  });
  root.replaceChildren(heading(), panel);
  panel.focus();
}

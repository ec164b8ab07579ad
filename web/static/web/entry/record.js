// Recording a new hand (POST with the Idempotency-Key made when the entry began; the outbox
// keeps it when the network or the server fails) and saving a correction (PUT with If-Match;
// a 412 opens the side-by-side view). The draft is only read here.
import { ApiError, OfflineError, request, showError } from "../api.js";
import { h } from "../dom.js";
import { sentences, t } from "../i18n.js";
import * as outbox from "../outbox.js";
import { actions, forget, handNumber, matchId, matchUrl, root, state } from "./context.js";
import { body } from "./draft.js";
import { showStale } from "./dialogs.js";

function showRefusal(error) {
  state.reviewing = false; // back to the editor, where the problems are shown on their melds
  if (error instanceof ApiError && error.status === 400) {
    state.preview = { state: "invalid", results: state.preview.results, violations: error.errors };
    actions.render();
  }
  const box = showError(error, { sentences });
  if (error instanceof ApiError) box.prepend(h("h2", {}, t("problems")));
}

function finished(message) {
  forget();
  sessionStorage.setItem("arlington.flash", message);
  location.assign(matchUrl);
}

export async function record() {
  if (state.sending) return;
  const { draft, match } = state;
  root.classList.add("attempted");
  state.sending = true;
  actions.render();
  const sent = body(draft, "ids");
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
      state.sending = false;
      setTimeout(record, 1000);
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
    finished(t("corrected", { n: data.number }));
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

// The match page's tools for its scorekeepers: Correct and Void on the hands, the outbox of
// hands waiting for the connection (sent again with their own Idempotency-Key), and the
// message left by the entry screen. Mounted on the match page's "arl:match" event.
import { request, showError } from "./api.js";
import { h } from "./dom.js";
import { sentences, t } from "./i18n.js";
import * as outbox from "./outbox.js";
import { canWrite as mayWrite } from "./roles.js";
import { correctWith, takenPanel } from "./taken.js";

const page = document.querySelector('[data-page="match"]');
const matchId = Number(page?.dataset.match);
const urls = document.getElementById("hand-urls")?.dataset ?? {};
const editUrl = (number) => urls.edit.replace(/\/0\/edit\/$/, `/${number}/edit/`);
const entryKey = `arlington.entry.${matchId}.next`;
let state = null;

const refresh = () => document.dispatchEvent(new CustomEvent("arl:refresh"));

function notice(text) {
  const region = document.getElementById("messages");
  const box = h("div", { class: "notice", tabindex: "-1" }, h("p", {}, text));
  region.replaceChildren(box);
}

function flash() {
  const text = sessionStorage.getItem("arlington.flash");
  const waiting = sessionStorage.getItem("arlington.flash.waiting");
  sessionStorage.removeItem("arlington.flash.waiting");
  if (!text) return;
  sessionStorage.removeItem("arlington.flash");
  notice(text);
  if (waiting) document.querySelector("#messages .notice").dataset.waiting = "true";
}

// --- corrections and void -------------------------------------------------------------------

function mountActions() {
  const canWrite = mayWrite(state.role);
  const last = Math.max(0, ...state.hands.map((hand) => hand.number));
  for (const item of document.querySelectorAll("li[data-hand]")) {
    const slot = item.querySelector(".hand-actions");
    if (!slot) continue;
    const number = Number(item.dataset.hand);
    if (!canWrite) {
      slot.replaceChildren();
      continue;
    }
    const actions = [
      h("a", { class: "button small", href: editUrl(number), "aria-label": t("correct_hand", { n: number }) }, t("correct")),
      number === last
        ? h("button", {
          type: "button", class: "button small danger", "aria-label": t("void_hand", { n: number }),
          dataset: { void: number }, onclick: () => confirmVoid(number),
        }, t("void"))
        : null,
    ];
    slot.replaceChildren(...actions.filter(Boolean));
  }
}

async function confirmVoid(number) {
  let etag = null;
  try {
    etag = (await request(`matches/${matchId}/hands/${number}/`)).headers.get("ETag");
  } catch (error) {
    showError(error, { sentences });
    return;
  }
  const reason = h("input", { type: "text", id: "void-reason", maxlength: 500 });
  const dialog = h("dialog", { class: "void-dialog", "aria-labelledby": "void-title" });
  const close = () => { dialog.close(); dialog.remove(); };
  dialog.append(
    h("h2", { id: "void-title" }, t("void_hand", { n: number })),
    h("p", {}, t("void_confirm", { n: number })),
    h("div", { class: "field" }, h("label", { for: "void-reason" }, t("void_reason")), reason),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "button primary danger", id: "void-yes", onclick: async () => {
        close();
        const query = reason.value.trim() ? `?reason=${encodeURIComponent(reason.value.trim())}` : "";
        try {
          await request(`matches/${matchId}/hands/${number}/${query}`, { method: "DELETE", headers: etag ? { "If-Match": etag } : {} });
          notice(t("voided", { n: number }));
        } catch (error) {
          showError(error, { sentences });
        }
        refresh();
      } }, t("void_yes")),
      h("button", { type: "button", class: "button", onclick: close }, t("cancel"))));
  dialog.addEventListener("cancel", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// --- the outbox -----------------------------------------------------------------------------

const when = (stamp) =>
  new Intl.DateTimeFormat(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" }).format(new Date(stamp));

// Put a refused hand back on the entry screen with a new key (nothing was recorded with the old one).
async function editAgain(entry) {
  const names = entry.names ?? {};
  const draft = {
    key: crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`,
    started: Date.now(),
    ending: entry.body.ending,
    wentOut: entry.body.went_out,
    reason: "",
    etag: null,
    number: entry.body.number,
    dealer: entry.dealer,
    players: entry.body.results.map((r) => ({ id: r.player, name: names[r.player] ?? String(r.player), melds: [...r.melds, []], hand: r.hand })),
    active: { player: 0, group: entry.body.results[0]?.melds.length ?? 0 },
  };
  localStorage.setItem(entryKey, JSON.stringify(draft));
  await outbox.remove(entry.key);
  location.assign(urls.new);
}

async function renderOutbox() {
  const slot = document.getElementById("outbox-slot");
  if (!slot) return;
  const entries = await outbox.entries(matchId);
  // "No connection: the hand is waiting…" says no more than the truth: once no hand of this
  // match waits to be sent (sent, refused, or met by another phone's), it goes
  if (!entries.some((entry) => entry.state !== "refused" && entry.state !== "taken")) {
    document.querySelector('#messages .notice[data-waiting="true"]')?.remove();
  }
  if (!entries.length) {
    slot.replaceChildren();
    return;
  }
  const taken = entries.find((entry) => entry.state === "taken");
  if (taken) {
    slot.replaceChildren(takenOf(taken));
    return;
  }
  slot.replaceChildren(h("section", { class: "outbox", "aria-labelledby": "outbox-title", id: "outbox" },
    h("h2", { id: "outbox-title" }, t("outbox_title")),
    h("ul", {}, entries.map((entry) => entry.state === "refused"
      ? h("li", { class: "refused", dataset: { key: entry.key, state: "refused" } },
        h("p", {}, t("outbox_refused", { when: when(entry.created) })),
        h("ul", { class: "problems" }, (entry.errors ?? []).map((e) => h("li", { dataset: { code: e.code } }, e.detail))),
        h("div", { class: "button-row" },
          h("button", { type: "button", class: "button small primary", onclick: () => editAgain(entry) }, t("outbox_edit")),
          h("button", { type: "button", class: "button small danger", onclick: () => {
            if (window.confirm(t("outbox_discard_confirm"))) outbox.remove(entry.key);
          } }, t("outbox_discard"))))
      : h("li", { dataset: { key: entry.key, state: "waiting" } },
        h("p", {}, t("outbox_waiting", { table: entry.table || `#${entry.match}`, when: when(entry.created) })),
        entry.signIn ? h("p", { class: "field-error" }, t("sign_in_again")) : null,
        h("button", { type: "button", class: "button small", onclick: () => outbox.replay() }, t("send_now")))))));
}

// A waiting hand whose number another phone recorded differently: both side by side.
function takenOf(entry) {
  const names = entry.names ?? {};
  const number = entry.conflict.recorded.number;
  return takenPanel({
    conflict: entry.conflict, mine: entry.body, names,
    onKeep: async () => {
      await outbox.remove(entry.key);
      notice(t("taken_kept", { n: number }));
      refresh();
    },
    onCorrect: async () => {
      try {
        await correctWith(entry.match, number, entry.conflict.recorded, entry.body);
      } catch (error) {
        showError(error, { sentences });
        return;
      }
      await outbox.remove(entry.key);
      notice(t("corrected", { n: number }));
      refresh();
    },
    onEdit: () => editAgain(entry),
  });
}

document.addEventListener("arl:match", (event) => {
  state = event.detail;
  const enter = document.getElementById("enter-hand");
  if (enter) enter.hidden = state.match.status === "finished";
  mountActions();
});
window.addEventListener("outbox-change", renderOutbox);
window.addEventListener("outbox-sent", (event) => {
  if (event.detail.entry.match !== matchId) return;
  notice(event.detail.agreed ? t("already_confirms", { n: event.detail.hand.number })
    : t("outbox_sent", { n: event.detail.hand.number }));
  refresh();
});

flash();
renderOutbox();
outbox.start();

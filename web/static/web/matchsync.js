// The match page in step with the table's other phones: it asks the API every few seconds
// whether the match changed (GET with If-None-Match: 304 while nothing did), so a hand
// recorded on another phone shows at once and its number is never offered again; hands
// waiting in this phone's outbox move the page on (totals, next dealer, the next number),
// marked as waiting; and, when the club asks for a second entry, each hand says whether it is
// confirmed and the other phones are asked to confirm it.
import { ApiError, request, showError } from "./api.js";
import { h } from "./dom.js";
import { sentences, t } from "./i18n.js";
import * as outbox from "./outbox.js";

export const POLL_MS = 3000;

// Call `changed()` whenever GET matches/{id}/ answers an ETag other than `etagOf()`.
export function watch(matchId, etagOf, changed) {
  let busy = false;
  setInterval(async () => {
    // asked whatever navigator.onLine says (see outbox.start): no connection fails at once
    if (busy || document.visibilityState !== "visible" || !etagOf()) return;
    busy = true;
    try {
      const answer = await request(`matches/${matchId}/`, { headers: { "If-None-Match": etagOf() } });
      if (answer.headers.get("ETag") !== etagOf()) await changed();
    } catch (error) {
      // 304: nothing changed; no connection: the next tick asks again
      if (!(error instanceof ApiError) || error.status !== 304) return;
    } finally {
      busy = false;
    }
  }, POLL_MS);
}

// The match as it will stand once this phone's waiting hands are recorded: totals with their
// nets (when the preview gave them), the next number and, after one waiting hand, its dealer.
export function withWaiting(match, waiting) {
  if (!waiting.length || match.status === "finished") return { match, waiting };
  const nets = waiting.map((entry) => entry.nets ?? {});
  const seats = match.seats.map((seat) => ({
    ...seat, total: seat.total + nets.reduce((sum, n) => sum + (n[seat.player] ?? 0), 0),
  }));
  const out = waiting[0].body.went_out;
  const nextDealer = waiting.length === 1 ? match.dealer_after_next?.[out ?? "none"] ?? null : null;
  return {
    match: { ...match, seats, next_hand: match.next_hand + waiting.length, next_dealer: nextDealer },
    waiting,
  };
}

// A waiting hand as an item of the hands list, marked as waiting.
export function waitingItem(entry, number) {
  return h("li", { class: "hand waiting", dataset: { hand: number, state: "waiting", key: entry.key } },
    h("div", { class: "hand-waiting" },
      h("span", { class: "hand-title" }, t("hand_title", { number })),
      h("span", { class: "badge" }, t("waiting_badge")),
      h("span", { class: "sub" }, entry.nets ? t("waiting_counted") : t("waiting_uncounted"))));
}

// --- a second entry ---------------------------------------------------------------------------

const confirmedBy = (hand) => hand.confirmations.map((c) => c.by).join(", ");

// The hand's confirmation line, when its club asks for a second entry.
export function confirmationLine(hand, club, confirm) {
  if (club.second_entry !== "required") return null;
  if (hand.confirmations.length) {
    return h("p", { class: "confirmation confirmed", dataset: { confirmed: "true" } },
      t("confirmed_by", { names: confirmedBy(hand) }));
  }
  const me = outbox.currentUser();
  return h("p", { class: "confirmation unconfirmed", dataset: { confirmed: "false" } },
    t("not_confirmed"), " ",
    hand.recorded_by !== me
      ? h("button", {
        type: "button", class: "button small", dataset: { confirm: hand.number },
        "aria-label": t("confirm_hand", { n: hand.number }), onclick: () => confirm(hand.number),
      }, t("confirm"))
      : null);
}

// The other phones are asked to confirm what this member did not enter.
export function confirmPrompt(hands, club, confirm) {
  const slot = document.getElementById("confirm-prompt");
  if (!slot) return;
  const me = outbox.currentUser();
  const asked = club.second_entry === "required"
    ? hands.filter((hand) => !hand.confirmations.length && hand.recorded_by !== me) : [];
  slot.hidden = !asked.length;
  slot.replaceChildren(...(asked.length ? [
    h("h2", {}, t("confirm_prompt_title")),
    h("ul", {}, asked.map((hand) => h("li", {},
      t("confirm_prompt", { n: hand.number, by: hand.recorded_by }), " ",
      h("button", {
        type: "button", class: "button small primary", dataset: { confirm: hand.number },
        onclick: () => confirm(hand.number),
      }, t("confirm_hand", { n: hand.number }))))),
  ] : []));
}

// POST the confirmation of hand `number` as it stands (If-Match: the version shown).
export async function confirmHand(matchId, hand) {
  try {
    await request(`matches/${matchId}/hands/${hand.number}/confirmations/`, {
      method: "POST", body: {}, headers: { "If-Match": `"${hand.version}"` },
    });
    return true;
  } catch (error) {
    showError(error, { sentences });
    return false;
  }
}

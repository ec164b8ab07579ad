// The API's rulings the entry screen asks for: the live preview of the whole hand (POST
// rulings/hand/), the suggestions for melds holding a two written alone (POST rulings/meld/),
// and typed notation read into canonical codes. No DOM here.
import { ApiError, OfflineError, request } from "../api.js";
import { physical } from "../cards.js";
import { body, isEmpty, isWild } from "./draft.js";

export const IDLE = { state: "idle", results: [], violations: [] };

// Where a game's rulings are: rulings/<ruleset>/<what>/; Arlington's, the first game, also
// keeps the API's original rulings/<what>/.
const ruling = (draft, what) =>
  (draft.limits.ruleset === "arlington" ? `rulings/${what}/` : `rulings/${draft.limits.ruleset}/${what}/`);

// The preview of `draft`: {state: valid|invalid|offline|idle, results, violations}.
// `cache` keeps the suggestions across calls; an AbortError is thrown through.
export async function previewOf(draft, cache, previous, signal) {
  if (isEmpty(draft)) return IDLE;
  try {
    const [{ data }] = await Promise.all([
      request(ruling(draft, "hand"), { method: "POST", body: body(draft, "names"), signal }),
      loadSuggestions(draft, cache, signal),
    ]);
    return { state: data.valid ? "valid" : "invalid", results: data.results, violations: data.violations };
  } catch (error) {
    if (error.name === "AbortError") throw error;
    if (error instanceof ApiError && error.status === 400) {
      return { state: "invalid", results: [], violations: error.errors };
    }
    if (error instanceof OfflineError) return { state: "offline", results: [], violations: [] };
    return { ...previous, state: "idle" };
  }
}

// The API's suggestions for every meld holding a wild card (a two) written alone, into `cache`.
async function loadSuggestions(draft, cache, signal) {
  const wanted = draft.players
    .flatMap((p) => p.melds)
    .filter((meld) => meld.length >= 3 && meld.some((code) => isWild(draft, code) && !code.includes("=")))
    .map((meld) => meld.join(" "))
    .filter((key) => !(key in cache));
  await Promise.all(wanted.map(async (key) => {
    try {
      const { data } = await request(ruling(draft, "meld"), { method: "POST", body: { cards: key.split(" ") }, signal });
      cache[key] = data.suggestions ?? [];
    } catch (error) {
      if (error.name === "AbortError") throw error;
    }
  }));
}

// What the two at `index` of `meld` may stand for, by the API's suggestions: ["QS", …].
export async function suggestionsFor(draft, meld, index, cache) {
  const bare = meld.map((code, i) => (i === index ? physical(code) : code));
  const key = bare.join(" ");
  if (!(key in cache)) {
    try {
      const { data } = await request(ruling(draft, "meld"), { method: "POST", body: { cards: bare } });
      cache[key] = data.suggestions ?? [];
    } catch {
      return [];
    }
  }
  const choices = cache[key].map((meldCodes) => meldCodes[index]).filter((code) => code.includes("="));
  return [...new Set(choices.map((code) => code.split("=")[1]))];
}

// Typed notation, read by the API (rulings/meld/ reads any list of cards and answers them in
// canonical form, or a 400 naming the card it cannot read).
export async function typed(draft, text) {
  const tokens = text.split(/[\s,;]+/).filter(Boolean);
  if (!tokens.length) return { cards: [] };
  const { data } = await request(ruling(draft, "meld"), { method: "POST", body: { cards: tokens } });
  return { cards: data.cards.map((c) => (c.wild ? `${c.card}=${c.represents}` : c.card)) };
}

// What the entry screen's modules share: the page's own facts, the one mutable state of the
// screen, and the actions the controller (pages/entry.js) fills in for the rendering and
// dialogs to call. Keeping them here lets each module be read on its own.
import { pageData } from "../dom.js";

const data = pageData();

export const root = document.getElementById("entry");
export const matchId = Number(data.match);
export const handNumber = data.number ? Number(data.number) : null;
export const matchUrl = data.matchUrl;
export const storeKey = `arlington.entry.${matchId}.${handNumber ?? "next"}`;

export const state = {
  match: null,
  draft: null,
  preview: { state: "idle", results: [], violations: [] },
  suggestions: {}, // meld codes joined by " " → [[codes]]
  sending: false,
  conflict: false, // a 412's side-by-side view is shown: nothing redraws the editor under it
  reviewing: false, // the review before Record is shown instead of the editor
  focusKey: null,
  typed: { value: "", error: "" }, // the "Or type cards" field, kept across redraws
  own: null, // a player who does not keep score: their seat, the only part this phone enters
  passed: null, // the number of a hand begun here and recorded on another phone since
};

// Filled by pages/entry.js: changed(), record(), saveCorrection(), …
export const actions = {};

export function save() {
  if (state.gone) return; // the match is gone: what was entered is dropped, not kept again
  localStorage.setItem(storeKey, JSON.stringify(state.draft));
}

export function loadSaved() {
  try {
    return JSON.parse(localStorage.getItem(storeKey) ?? "null");
  } catch {
    return null;
  }
}

export function forget() {
  localStorage.removeItem(storeKey);
}

// Say what a tap did, for screen readers (the region lives outside the redrawn screen).
export function announce(text) {
  const region = document.getElementById("entry-announce");
  if (region) region.textContent = text;
}

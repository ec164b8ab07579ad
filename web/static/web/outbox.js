// The outbox: hands recorded without a connection, kept in IndexedDB (so they survive closing
// the tab) and sent again, with the Idempotency-Key they were made with, when the connection
// returns. A replay of a hand the server already has answers the first answer: never two hands.
// An answer of 4xx is kept with its sentences for the scorekeeper to edit: never dropped.
// Each hand carries the number it was entered as: a replay that meets that number recorded on
// another phone agrees (200: a confirmation) or is kept as "taken", with the recorded hand and
// the differences, for the side-by-side screen (taken.js) — never recorded as a second hand.
// Entries belong to the user who made them: another user's session neither sends nor shows them.
import { ApiError, OfflineError, request } from "./api.js";

const DB_NAME = "arlington";
const STORE = "outbox";
const RETRY_MS = 15000;

// Who is signed in on this page (the base template's meta tag); entries are theirs alone.
export const currentUser = () => document.querySelector('meta[name="user"]')?.content ?? "";
// (A hand kept before entries had owners stays anyone's, as it was: never dropped.)
const mine = (row) => row.user === undefined || row.user === currentUser();

let database = null;

function open() {
  if (database) return database;
  database = new Promise((resolve, reject) => {
    const opening = indexedDB.open(DB_NAME, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "key" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  return database;
}

async function transaction(mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const changed = () => window.dispatchEvent(new CustomEvent("outbox-change"));

// Every waiting or refused hand, oldest first; of one match when `match` is given. A browser
// without IndexedDB (some private windows) has an empty outbox.
export async function entries(match = null) {
  let rows = [];
  try {
    rows = (await transaction("readonly", (store) => store.getAll())) ?? [];
  } catch {
    return [];
  }
  return rows
    .filter((row) => mine(row) && (match === null || row.match === Number(match)))
    .sort((a, b) => a.created - b.created);
}

// The hands of a match still waiting to be sent, in order: they move the match page on.
export async function waiting(match) {
  return (await entries(match)).filter((row) => row.state === "waiting");
}

// Keep a hand to send later: {key, match, body (with its number), table, names, nets}.
export async function add(entry) {
  await transaction("readwrite", (store) => store.put({
    state: "waiting", errors: [], created: Date.now(), user: currentUser(), ...entry,
  }));
  changed();
}

export async function remove(key) {
  await transaction("readwrite", (store) => store.delete(key));
  changed();
}

async function save(entry) {
  await transaction("readwrite", (store) => store.put(entry));
}

// Keep an entry as it now is (a taken hand edited or corrected: the caller removes it).
export async function update(entry) {
  await save(entry);
  changed();
}

// Send one hand with its own key. Returns "sent", "waiting" or "refused".
async function send(entry) {
  try {
    const { data, status } = await request(`matches/${entry.match}/hands/`, {
      method: "POST",
      body: entry.body,
      headers: { "Idempotency-Key": entry.key },
    });
    await transaction("readwrite", (store) => store.delete(entry.key));
    window.dispatchEvent(new CustomEvent("outbox-sent", { detail: { entry, hand: data, agreed: status === 200 } }));
    return "sent";
  } catch (error) {
    if (error instanceof OfflineError) return "offline";
    if (!(error instanceof ApiError)) throw error;
    if (error.codes.includes("hand_already_recorded")) {
      entry.state = "taken";
      entry.conflict = { recorded: error.envelope.recorded, differences: error.envelope.differences };
      await save(entry);
      return "refused";
    }
    const busy = error.codes.includes("idempotency_key_in_progress");
    if (busy || error.status >= 500 || error.status === 429 || error.status === 401) {
      entry.signIn = error.status === 401;
      await save(entry);
      return "waiting";
    }
    entry.state = "refused";
    entry.status = error.status;
    entry.errors = error.errors;
    await save(entry);
    return "refused";
  }
}

let running = null;

// Send every waiting hand, oldest first; stops at the first sign of no connection.
export function replay() {
  if (running) return running;
  running = (async () => {
    try {
      for (const entry of await entries()) {
        if (entry.state !== "waiting") continue;
        if ((await send(entry)) === "offline") break;
      }
    } finally {
      running = null;
      changed();
    }
  })();
  return running;
}

// Replay now, whenever the connection returns, and every little while, whatever the browser
// says of its connection: a flaky signal does not always fire "online", and navigator.onLine is
// only a hint (a browser that sees no network but its own machine's says it is offline, while
// a server on that machine answers). A replay without a connection fails at once.
// Every signed-in page starts it (sendwaiting.js), so that a hand waits for no particular
// page to be sent; the match and entry pages start it too, once only.
let started = null;
export function start() {
  if (started) return started;
  window.addEventListener("online", () => replay());
  setInterval(() => replay(), RETRY_MS);
  started = replay();
  return started;
}

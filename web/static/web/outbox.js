// The outbox: hands recorded without a connection, kept in IndexedDB (so they survive closing
// the tab) and sent again, with the Idempotency-Key they were made with, when the connection
// returns. A replay of a hand the server already has answers the first answer: never two hands.
// An answer of 4xx is kept with its sentences for the scorekeeper to edit: never dropped.
import { ApiError, OfflineError, request } from "./api.js";

const DB_NAME = "arlington";
const STORE = "outbox";
const RETRY_MS = 15000;

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
    .filter((row) => match === null || row.match === Number(match))
    .sort((a, b) => a.created - b.created);
}

// Keep a hand to send later: {key, match, body, table, names}.
export async function add(entry) {
  await transaction("readwrite", (store) => store.put({ state: "waiting", errors: [], created: Date.now(), ...entry }));
  changed();
}

export async function remove(key) {
  await transaction("readwrite", (store) => store.delete(key));
  changed();
}

async function save(entry) {
  await transaction("readwrite", (store) => store.put(entry));
}

// Send one hand with its own key. Returns "sent", "waiting" or "refused".
async function send(entry) {
  try {
    const { data } = await request(`matches/${entry.match}/hands/`, {
      method: "POST",
      body: entry.body,
      headers: { "Idempotency-Key": entry.key },
    });
    await transaction("readwrite", (store) => store.delete(entry.key));
    window.dispatchEvent(new CustomEvent("outbox-sent", { detail: { entry, hand: data } }));
    return "sent";
  } catch (error) {
    if (error instanceof OfflineError) return "offline";
    if (!(error instanceof ApiError)) throw error;
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

// Replay now, whenever the connection returns, and every little while (a flaky signal does not
// always fire "online").
export function start() {
  window.addEventListener("online", () => replay());
  setInterval(() => {
    if (navigator.onLine) replay();
  }, RETRY_MS);
  return replay();
}

// One way to call the public API v1: the session cookie, the CSRF token, JSON in and out,
// the page's language, and the API's error envelope surfaced as an ApiError.

const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";
const language = () => document.documentElement.lang || "en";

// An answer outside 2xx: `status`, and the envelope's `type` and `errors` ([{code, detail, attr}]).
export class ApiError extends Error {
  constructor(status, envelope) {
    const errors = envelope?.errors ?? [];
    super(errors.map((e) => e.detail).join(" ") || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.type = envelope?.type ?? (status >= 500 ? "server_error" : "client_error");
    this.errors = errors;
    this.envelope = envelope ?? {}; // with what some errors add (409 hand_already_recorded: recorded, differences)
  }

  // The codes of every error, e.g. ["match_finished"].
  get codes() {
    return this.errors.map((e) => e.code);
  }

  // The errors about one field or path ("results.1.melds.0"), or about nothing in particular (null).
  about(attr) {
    return this.errors.filter((e) => e.attr === attr);
  }
}

// The network could not be reached: the request may be retried later.
export class OfflineError extends Error {
  constructor(cause) {
    super("offline");
    this.name = "OfflineError";
    this.cause = cause;
  }
}

// Call `/api/v1/<path>`. Options: method, body (sent as JSON), headers (added), signal.
// Resolves to {status, data, headers}; rejects with ApiError or OfflineError.
export async function request(path, { method = "GET", body, headers = {}, signal } = {}) {
  const url = path.startsWith("/") ? path : `/api/v1/${path}`;
  const init = {
    method,
    credentials: "same-origin",
    signal,
    headers: { Accept: "application/json", "Accept-Language": language(), ...headers },
  };
  if (method !== "GET" && method !== "HEAD") init.headers["X-CSRFToken"] = csrfToken();
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new OfflineError(error);
  }
  // a copy the service worker kept, served for want of a connection, is no sign of one
  if (!response.headers.has("X-Arlington-Kept")) connected();
  const type = response.headers.get("Content-Type") ?? "";
  const data = type.includes("json") && response.status !== 204 ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data, headers: response.headers };
}

// GET one resource's JSON.
export async function get(path, options = {}) {
  return (await request(path, options)).data;
}

// GET every page of a paginated list ({count, next, results}) as one array.
export async function getAll(path, options = {}) {
  const rows = [];
  let next = path;
  while (next) {
    const page = await get(next, options);
    if (!Array.isArray(page?.results)) return page;
    rows.push(...page.results);
    const link = page.next ? new URL(page.next, location.origin) : null;
    next = link ? link.pathname + link.search : null;
  }
  return rows;
}

// POST, PUT or DELETE with a JSON body.
export const post = (path, body, options = {}) => request(path, { ...options, method: "POST", body });
export const put = (path, body, options = {}) => request(path, { ...options, method: "PUT", body });
export const del = (path, options = {}) => request(path, { ...options, method: "DELETE" });

// The server answered again: a "No connection" message shown earlier is no longer true.
function connected() {
  for (const box of document.querySelectorAll(".error-summary[data-offline]")) box.remove();
}
globalThis.addEventListener?.("online", connected);

// What a page shows for one of the envelope's errors: its own sentence for that field and code
// where it has one ("username.blank": "Choose a username."), in the page's words rather than the
// API's generic "username: This field may not be blank."; else the API's sentence.
export function sentenceOf(item, sentences = {}) {
  return sentences[`${item.attr}.${item.code}`] ?? item.detail;
}

// Show an error in the page's message region (#messages): every sentence of the envelope,
// or a plain sentence for no connection / unknown failures. Returns the element shown.
export function showError(error, { sentences = {}, region = document.getElementById("messages") } = {}) {
  const box = document.createElement("div");
  box.className = "error-summary";
  box.tabIndex = -1;
  const list = document.createElement("ul");
  const details = error instanceof ApiError && error.errors.length
    ? error.errors.map((e) => sentenceOf(e, sentences))
    : [error instanceof OfflineError ? sentences.offline : error instanceof ApiError && error.status === 404
      ? sentences.not_found : sentences.error];
  for (const detail of details) {
    const item = document.createElement("li");
    item.textContent = detail ?? String(error);
    list.append(item);
  }
  if (error instanceof OfflineError) box.dataset.offline = "true"; // gone once the server answers
  if (error instanceof ApiError) {
    box.dataset.codes = error.codes.join(" ");
    box.dataset.status = String(error.status);
  }
  box.append(list);
  if (error instanceof ApiError && (error.status === 401 || error.codes.includes("not_authenticated"))) {
    const link = document.createElement("a");
    link.href = `/sign-in/?next=${encodeURIComponent(location.pathname + location.search)}`;
    link.className = "button primary";
    link.textContent = sentences.sign_in ?? "Sign in";
    box.append(link);
  }
  region.replaceChildren(box);
  box.focus();
  return box;
}

export function clearMessages(region = document.getElementById("messages")) {
  region.replaceChildren();
}

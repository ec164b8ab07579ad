// Matches kept for a visit without a signal. For each match in progress listed on a page seen
// online, its page, its entry screen and the API reads they start from are put in the service
// worker's caches (web/service_worker.js reads them when the network fails), so that its next
// hand can be entered offline even if neither screen was ever opened online.
const API = "api";
const PAGES = "pages";
const MOST = 12; // matches in progress kept at a time: a club night's tables

async function keep(cache, request) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected) await cache.put(request, response);
  } catch {
    // no connection already: what was kept before stays
  }
}

// Keep `matches` (as the API lists them) ready for offline entry; resolves when all are kept.
export async function keepForOffline(matches) {
  if (!globalThis.caches || !("serviceWorker" in navigator)) return;
  const pages = new Set();
  const reads = new Set();
  for (const match of matches.filter((m) => m.status !== "finished").slice(0, MOST)) {
    pages.add(`/matches/${match.id}/`).add(`/matches/${match.id}/hands/new/`);
    for (const path of [
      `matches/${match.id}/`, `matches/${match.id}/hands/`, `clubs/${match.club}/`,
      `rulesets/${match.ruleset}/`, `players/?club=${match.club}`,
    ]) reads.add(`/api/v1/${path}`);
  }
  const [api, html] = await Promise.all([caches.open(API), caches.open(PAGES)]);
  // the same headers as the pages' own reads (api.js), so that the kept copy answers them
  const headers = { Accept: "application/json", "Accept-Language": document.documentElement.lang || "en" };
  await Promise.all([
    ...[...reads].map((url) => keep(api, new Request(url, { headers, credentials: "same-origin" }))),
    ...[...pages].map((url) => keep(html, new Request(url, { credentials: "same-origin" }))),
  ]);
}

// The service worker (served at /sw.js, scope "/"), after the offline cookbook: the app shell
// cached on install; pages and API reads network-first with the last copy as a fallback;
// writes never touched (a hand recorded offline waits in the pages' IndexedDB outbox).
/* global SETTINGS */
const SHELL = `shell-${SETTINGS.version}`;
const PAGES = "pages";
const API = "api";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await (await caches.open(SHELL)).addAll(SETTINGS.shell);
    try {  // the start page, if the person is signed in (a redirect to sign in is not kept)
      const start = await fetch(SETTINGS.offline, { credentials: "same-origin" });
      if (start.ok && !start.redirected) await (await caches.open(PAGES)).put(SETTINGS.offline, start);
    } catch {
      // no connection while installing: the start page is kept on its next visit
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// What one person has read is not left for the next to find on a shared phone.
const forget = () => Promise.all([caches.delete(PAGES), caches.delete(API)]);

// An API answer served from the cache for want of a connection says so (KEPT), so that a page
// does not take it for the server answering again (web/static/web/api.js).
const KEPT = "X-Arlington-Kept";
function kept(response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT, "1");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function networkFirst(request, cacheName, fallback) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && response.type === "basic") {
      const cache = await caches.open(cacheName);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    // a copy kept by a page (offline.js) may differ in a header the answer varies on
    const cached = (await caches.match(request, { cacheName }))
      ?? (await caches.match(request, { cacheName, ignoreVary: true }));
    if (cached) return cacheName === API ? kept(cached) : cached;
    if (fallback) {
      const shell = await caches.match(fallback);
      if (shell) return shell;
    }
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (url.pathname === "/sign-out/") event.waitUntil(forget());
    return;
  }
  if (url.pathname.startsWith("/api/v1/")) {
    // a hand's shared draft is live work: an old copy would only mislead
    if (url.pathname.endsWith("/draft/")) return;
    event.respondWith(networkFirst(request, API));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    if (url.pathname === "/sign-in/") event.waitUntil(forget());
    event.respondWith(networkFirst(request, PAGES, SETTINGS.offline));
  }
});

// The service worker: the app's shell kept on the phone, pages network-first with the last copy
// as a fallback. CONFIG (version, shell, start, offline) is written above by the server.
"use strict";

// The shell goes with the worker's version; the pages kept outlive it (a new version of the app
// must not empty the phone's copy of the scoreboard and the hand form).
const CACHE = "scorekeeper-" + CONFIG.version;
const PAGES = "scorekeeper-pages";
const PREFIX = "scorekeeper-";

self.addEventListener("install", (event) => {
  // The shell's URLs name their content, so the browser's own copy (the page just loaded them)
  // is the right one; the two pages are asked for afresh.
  const fresh = (url) => new Request(url, { cache: "reload" });
  event.waitUntil(
    Promise.all([
      caches.open(CACHE).then((cache) => cache.addAll([...CONFIG.shell, fresh(CONFIG.offline)])),
      caches.open(PAGES).then((cache) => cache.add(fresh(CONFIG.start))),
    ]).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith(PREFIX) && name !== CACHE && name !== PAGES)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

// Pages kept: the start page and a table's pages, never the API, a POST, a download, a link
// carrying a key (/join/…, /play/…, ?token=) or a page showing keys (a virtual game's links).
const keeps = (url) =>
  url.origin === location.origin &&
  (url.pathname === CONFIG.start || /\/t\/\d+(\/|$)/.test(url.pathname)) &&
  !/\/virtual\/|\.csv$/.test(url.pathname) &&
  !url.searchParams.has("token");

// A static file under its content-naming address (``?v=``) never changes: the copy kept is it.
// The shell is kept at installation; any other (a page's own script) the first time a page uses it,
// so a phone pays for a screen's scripts only once it opens that screen.
const lasting = (url) =>
  url.origin === location.origin && url.pathname.startsWith(CONFIG.static) && url.searchParams.has("v");

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (lasting(url)) {
    event.respondWith(keptOrFetched(request));
  } else if (request.mode === "navigate" && keeps(url)) {
    const answer = networkFirst(request);
    event.respondWith(answer);
    // A table's own page follows creating or joining it: the start page kept must list it too.
    if (/\/t\/\d+$/.test(url.pathname)) {
      event.waitUntil(answer.then(() => caches.open(PAGES)).then((cache) => cache.add(CONFIG.start)).catch(() => {}));
    }
  }
});

// The page from the server, kept for later; without a server, the copy kept, else the offline page.
async function networkFirst(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    const stored = !/no-store/.test(response.headers.get("Cache-Control") || "");
    if (response.status === 200 && stored && keeps(new URL(response.url))) {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (offline) {
    return (await cache.match(request)) || (await caches.match(CONFIG.offline)) || Response.error();
  }
}

async function keptOrFetched(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

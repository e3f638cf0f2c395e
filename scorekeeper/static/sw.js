// The service worker: the app's shell kept on the phone, pages network-first with the last copy
// as a fallback. CONFIG (version, shell, start, offline) is written above by the server.
"use strict";

// The shell goes with the worker's version; the pages kept outlive it (a new version of the app
// must not empty the phone's copy of the scoreboard and the hand form). Each table's pages are
// kept apart, so that the table's access going (a refusal, "Leave this table", a token rotated)
// takes them all at once; the start page, which lists the tables, is kept on its own.
const CACHE = "scorekeeper-" + CONFIG.version;
const START = "scorekeeper-start";
const TABLE = "scorekeeper-table-"; // + the table's id
const PREFIX = "scorekeeper-";
const REFUSED = new Set([401, 403, 404]); // what the server answers a phone the table is not open to
const JOINED = "Tables-Joined"; // the start page's list of the tables this phone may open

self.addEventListener("install", (event) => {
  // The shell's URLs name their content, so the browser's own copy (the page just loaded them)
  // is the right one; the two pages are asked for afresh.
  const fresh = (url) => new Request(url, { cache: "reload" });
  event.waitUntil(
    Promise.all([
      caches.open(CACHE).then((cache) => cache.addAll([...CONFIG.shell, fresh(CONFIG.offline)])),
      caches.open(START).then((cache) => cache.add(fresh(CONFIG.start))),
    ]).then(() => self.skipWaiting())
  );
});

// An older shell goes, and so does the page cache of versions that kept every table's pages
// together (a copy of those may hold a seat's link): their tables are kept again when next opened.
self.addEventListener("activate", (event) => {
  const current = (name) => name === CACHE || name === START || /^scorekeeper-table-\d+$/.test(name);
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith(PREFIX) && !current(name)).map((name) => caches.delete(name))
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

// The table whose page an address is, or null.
const tableOf = (url) => {
  const found = url.origin === location.origin && /^\/t\/(\d+)(\/|$)/.exec(url.pathname);
  return found ? found[1] : null;
};
const cacheOf = (url) => (tableOf(url) === null ? START : TABLE + tableOf(url));

// Only a page that says it may be kept: one with a Cache-Control, and no "no-store" in it (the
// server sends every page carrying a key so); a page without one is not kept either.
const mayKeep = (response) => {
  const control = response.headers.get("Cache-Control");
  return response.status === 200 && control !== null && !/no-store/i.test(control);
};

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
    if (/\/t\/\d+$/.test(url.pathname)) event.waitUntil(answer.then(keepStart).catch(() => {}));
  }
});

// The page from the server, kept for later (or the table's copies dropped, if it refuses it);
// without a server, the copy kept, else the offline page.
async function networkFirst(request) {
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    return (await kept(request)) || (await caches.match(CONFIG.offline)) || Response.error();
  }
  await remember(request, response);
  return response;
}

async function kept(request) {
  const name = cacheOf(new URL(request.url));
  return (await caches.has(name)) ? (await caches.open(name)).match(request) : undefined;
}

// What the server's answer to a page means for the copies: a table's page refused drops every
// copy of that table; the start page drops the tables it no longer lists; a page that may be
// kept is kept with its table's (a redirect to another table's page, or elsewhere, is not).
async function remember(request, response) {
  const url = new URL(request.url);
  const table = tableOf(url);
  if (table !== null && REFUSED.has(response.status)) return forgetTable(table, true);
  if (url.pathname === CONFIG.start && response.headers.has(JOINED)) await forgetOthers(response.headers.get(JOINED));
  if (mayKeep(response) && keeps(new URL(response.url)) && cacheOf(new URL(response.url)) === cacheOf(url)) {
    await (await caches.open(cacheOf(url))).put(request, response.clone());
  }
}

// Every table's copies but those of the tables listed (ids, comma-separated).
async function forgetOthers(listed) {
  const open = new Set(listed.split(",").map((id) => id.trim()).filter(Boolean));
  const names = (await caches.keys()).filter((name) => name.startsWith(TABLE) && !open.has(name.slice(TABLE.length)));
  await Promise.all(names.map((name) => caches.delete(name)));
}

// A table's copies, gone; the start page kept, which lists the table, is asked for again.
async function forgetTable(table, andStart) {
  await caches.delete(TABLE + table);
  if (andStart) await keepStart();
}

// The start page as the server has it now (the tables this phone may open), kept; if the server
// cannot say, the copy kept is dropped rather than left listing a table this phone has left.
async function keepStart() {
  const request = new Request(CONFIG.start);
  try {
    await remember(request, await fetch(request, { cache: "no-store" }));
  } catch (unreachable) {
    await (await caches.open(START)).delete(request);
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
